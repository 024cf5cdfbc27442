"""`rulesdsl saves` lists the autosaves newest first; `--resume last` continues the newest;
`--names` names the seats; a game of computer players alone stops after a limit."""

from __future__ import annotations

import io
import json
import os

import pytest

from rulesdsl import cli
from rulesdsl.lang.errors import RulesError
from rulesdsl.play import runner as runner_mod
from rulesdsl.play.answers import parse_names
from rulesdsl.play.runner import rename_seats


def run(capsys, *args):
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_saves_newest_first_and_resume_last(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RULESDSL_SAVES", str(tmp_path))
    code, out, err = run(capsys, "saves")
    assert code == 0 and "no saved games" in out
    for seed in (1, 2):
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nquit\n"))
        code, out, err = run(capsys, "play", "triumvirat", "--seed", str(seed), "--seats",
                             "human,random", "--save", str(tmp_path / f"game{seed}.json"))
        assert code == 0, err
    os.utime(tmp_path / "game1.json", (2_000_000_000, 2_000_000_000))  # now the newest
    code, out, err = run(capsys, "saves")
    listed = [l for l in out.splitlines() if l.strip()[:2] in ("1.", "2.")]
    assert "game1.json" in listed[0] and "game2.json" in listed[1]
    n = len(json.loads((tmp_path / "game1.json").read_text())["history"])
    assert f"triumvirat, {n} actions" in listed[0]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, err = run(capsys, "play", "--resume", "last")
    assert code == 0, err
    assert f"resumed after {n} actions" in out and "seed 1" in out


def test_resume_last_without_saves_is_an_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RULESDSL_SAVES", str(tmp_path / "none"))
    code, out, err = run(capsys, "play", "--resume", "last")
    assert code == 1 and "no saved game" in err


def test_names_in_the_log_and_on_the_screen(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nquit\n"))
    code, out, err = run(capsys, "play", "triumvirat", "--seed", "3", "--seats", "human,random",
                         "--names", "Ann,Bob", "--save", str(tmp_path / "g.json"))
    assert code == 0, err
    assert "Ann to move" in out and "Ann (you)" in out and "Bob leads" in out or \
        "Ann leads" in out
    assert "P1 to move" not in out
    assert rename_seats("P1 gives P2 the P10 card", ["Ann", "Bob"]) == \
        "Ann gives Bob the P10 card"
    with pytest.raises(RulesError):
        parse_names("Ann", 2)
    with pytest.raises(RulesError):
        parse_names("Ann,Ann", 2)


def test_computer_players_alone_stop_after_a_limit(capsys, monkeypatch):
    monkeypatch.setattr(runner_mod, "MAX_AGENT_ACTIONS", 5)
    code, out, err = run(capsys, "play", "triumvirat", "--seats", "random,random")
    assert code == 1 and "did not end within 5 actions" in err


def test_names_inside_labels_are_shown_and_typed_as_given(tmp_path, capsys, monkeypatch):
    # Intrige's cards carry their owner ("P1 finance"): with --names they read "Ann finance"
    # in the options, and typing what is shown chooses it
    monkeypatch.setattr("sys.stdin", io.StringIO("ann law\nlog\nquit\n"))
    code, out, err = run(capsys, "play", "intrige", "--seed", "1",
                         "--seats", "human,random,random", "--names", "Ann,Bob,Cy",
                         "--save", str(tmp_path / "g.json"))
    assert code == 0, err
    assert "Ann finance" in out and "P1 finance" not in out
    assert "not one of the options" not in out
    saved = json.loads((tmp_path / "g.json").read_text())
    assert "P1 law" in json.dumps(saved)  # the game's own label is what is kept
