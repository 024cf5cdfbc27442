"""`rulesdsl serve` on the command line: what it refuses before it listens."""

from __future__ import annotations

import pytest

from rulesdsl import cli

from _web import needs

BAD_RULES = 'game "x"\nplayers 2\nzone hand per player privat'


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture(autouse=True)
def _web_extra():
    needs("uvicorn")


def test_a_named_game_with_errors_stops_it_before_it_listens(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text(BAD_RULES)
    code, out, err = run(capsys, "serve", str(bad), "--db", str(tmp_path / "g.sqlite"))
    assert code == 1 and f"{bad}:3:" in err and "lobby" not in out


def test_a_port_out_of_range_is_refused(tmp_path, capsys):
    code, _, err = run(capsys, "serve", "--port", "70000", "--db", str(tmp_path / "g.sqlite"))
    assert code == 1 and "error[C013]: --port 70000 is not a port" in err


@pytest.mark.parametrize("workers", ["0", "65"])
def test_a_number_of_workers_out_of_range_is_refused(tmp_path, capsys, workers):
    code, _, err = run(capsys, "serve", "--workers", workers,
                       "--db", str(tmp_path / "g.sqlite"))
    assert code == 1 and f"error[C013]: --workers {workers} is not a number" in err


@pytest.mark.parametrize("flag,value", [("--games-per-minute", "-1"),
                                        ("--messages-per-second", "nan"),
                                        ("--messages-per-second", "20000")])
def test_a_rate_out_of_range_is_refused(tmp_path, capsys, flag, value):
    code, _, err = run(capsys, "serve", flag, value, "--db", str(tmp_path / "g.sqlite"))
    assert code == 1 and f"error[C013]: {flag} {float(value):g} is out of range" in err


def test_the_rates_given_replace_the_defaults():
    from rulesdsl.web.throttle import Limits
    args = cli.build_parser().parse_args(["serve", "--messages-per-second", "0"])
    assert cli._limits(args) == Limits(messages_per_second=0)


def test_the_default_store_is_under_the_data_folder(tmp_path, monkeypatch):
    from rulesdsl.web.store import default_db_path
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "rulesdsl" / "games.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "rulesdsl" / "games.sqlite"
