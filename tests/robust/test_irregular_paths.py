"""Paths read from a file or the command line (issue 31): a FIFO, /dev/stdin, a device or a
folder where a scenario, replay, save, script, rules file or file to extend is expected
gets a clear coded error at once, never a hang; a NUL or a lone surrogate in a path read
from a replay is a coded error, never a traceback."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from rulesdsl.cli import main
from rulesdsl.lang.errors import RulesError

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")

GOPS = str(Path(__file__).resolve().parents[2] / "examples" / "gops.rules")
WAIT = 10   # seconds; a reader blocked on a FIFO would wait for ever


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


def finishes(call, fifo, *args):
    """call(*args)'s result or exception, raised by the test if it waits on `fifo` for
    WAIT seconds (the FIFO is then opened for writing and closed, to free the reader)."""
    out: dict = {}

    def run():
        try:
            out["value"] = call(*args)
        except BaseException as e:   # noqa: BLE001 - handed to the test
            out["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(WAIT)
    if thread.is_alive():
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)   # a reader waits: let it go
        os.close(fd)
        thread.join(WAIT)
        pytest.fail(f"{getattr(call, '__name__', call)} waited on the FIFO {fifo}")
    if "error" in out:
        raise out["error"]
    return out["value"]


def refused(call, fifo, *args) -> RulesError:
    with pytest.raises(RulesError) as info:
        finishes(call, fifo, *args)
    assert "named pipe (FIFO)" in info.value.message, info.value.message
    return info.value


def test_a_fifo_as_scenario_replay_save_or_script_is_refused_at_once(fifo):
    from rulesdsl.engine.scenario import read_scenario
    from rulesdsl.play.replay import read_replay
    from rulesdsl.play.saves import read_save, read_script
    assert refused(read_scenario, fifo, str(fifo)).code == "S002"
    for read in (read_replay, read_save, read_script):
        assert refused(read, fifo, str(fifo)).code == "C001"


def test_a_fifo_as_a_rules_file_or_a_file_to_extend_is_refused_at_once(fifo, tmp_path):
    import rulesdsl
    from rulesdsl.lang.extend import read_base
    from rulesdsl.lang.syntax.parsing import read_source
    assert refused(rulesdsl.check_file, fifo, fifo).code == "E001"
    assert refused(read_source, fifo, str(fifo)).code == "E001"

    class Extends:   # what read_base needs of the `extends` declaration
        body = type("Body", (), {"path": "pipe.rules"})()
        span = None
    assert refused(read_base, fifo, fifo, Extends()).code == "E210"
    # through a whole check: a link named like a rules file, pointing at the FIFO
    os.symlink(fifo, tmp_path / "base.rules")
    child = tmp_path / "child.rules"
    child.write_text('game "child"\nextends "base"\n')
    with pytest.raises(RulesError):
        finishes(rulesdsl.check_file, fifo, child)


@pytest.mark.parametrize("command", [
    ["play", GOPS, "--seats", "random,random", "--scenario", "{fifo}"],
    ["play", GOPS, "--seats", "human,random", "--script", "{fifo}"],
    ["play", "--resume", "{fifo}"],
    ["replay", "{fifo}", "--to", "0"],
    ["check", "{fifo}"],
    ["play", "{fifo}"],
    ["simulate", "{fifo}"],
])
def test_commands_given_a_fifo_say_so_and_exit_1(command, fifo, capsys, monkeypatch):
    monkeypatch.setenv("RULESDSL_SAVES", str(fifo.parent / "saves"))
    argv = [str(fifo) if a == "{fifo}" else a for a in command]
    assert finishes(main, fifo, argv) == 1
    err = capsys.readouterr().err
    assert "named pipe (FIFO)" in err and "Traceback" not in err


def test_dev_stdin_as_a_scenario_is_refused_when_it_is_not_a_file(capsys):
    # under pytest standard input is not a regular file (a terminal, a pipe, /dev/null)
    if os.path.isfile("/dev/stdin"):
        pytest.skip("standard input is a regular file here")
    assert main(["play", GOPS, "--seats", "random,random", "--scenario", "/dev/stdin"]) == 1
    assert "not a regular file" in capsys.readouterr().err


def test_a_fifo_among_the_saves_does_not_hang_the_listing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RULESDSL_SAVES", str(tmp_path))
    fifo = tmp_path / "planted.json"
    os.mkfifo(fifo)
    assert finishes(main, fifo, ["saves"]) == 0
    assert "planted.json  (cannot be read)" in capsys.readouterr().out


@pytest.mark.parametrize("path, shown", [
    ("scen\0ario.json", "scen\\x00ario.json"),
    ("scen\ud800.json", "scen\\ud800.json"),
])
def test_a_replay_whose_scenario_path_holds_a_nul_is_a_coded_error(path, shown, tmp_path,
                                                                    capsys):
    replay = tmp_path / "game.replay.json"
    replay.write_text(json.dumps({"format": "rulesdsl-replay", "game": GOPS, "players": 2,
                                  "seed": 1, "scenario": path, "actions": []}))
    assert main(["replay", str(replay), "--to", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error[S002]: scenario: cannot read") and shown in err, err
    assert "Traceback" not in err and "\0" not in err


def test_a_save_whose_game_path_holds_a_nul_is_a_coded_error(tmp_path, capsys):
    save = tmp_path / "save.json"
    save.write_text(json.dumps({"format": "rulesdsl-state", "runner": {"game": "go\0ps"}}))
    assert main(["play", "--resume", str(save)]) == 1
    err = capsys.readouterr().err
    # a control character in a game's name is C017 wherever the name comes from
    assert err.startswith("error[C017]") and "go\\x00ps" in err and "\0" not in err
