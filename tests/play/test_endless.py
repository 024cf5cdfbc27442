"""`play` with computer seats only on a game that never ends: it stops at the limit, as
`simulate` does, in time that grows with the actions played (not with their square), and
keeps the game saved."""

from __future__ import annotations

import json
from pathlib import Path

from rulesdsl import cli
from rulesdsl.engine import words
from rulesdsl.play import runner as runner_mod

ENDLESS = str(Path(__file__).with_name("endless.rules"))


def test_the_limit_is_reached_telling_each_event_once(tmp_path, capsys, monkeypatch):
    limit = 1500
    monkeypatch.setattr(runner_mod, "MAX_AGENT_ACTIONS", limit)
    told = []
    story_line = words.story_line
    monkeypatch.setattr(words, "story_line", lambda *a: told.append(1) or story_line(*a))
    monkeypatch.setenv("RULESDSL_SAVES", str(tmp_path))
    code = cli.main(["play", ENDLESS, "--seats", "random,random", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 1 and "error[C010]" in err and f"within {limit:,} actions" in err
    # one log entry an action, each put in words once (told again at every action, the
    # log of a game of 100,000 actions is told 5 billion times: it never ends)
    assert len(told) <= 2 * limit
    saved = list(tmp_path.glob("*.json"))
    assert len(saved) == 1 and str(saved[0]) in err and "--resume" in err
    assert len(json.loads(saved[0].read_text())["history"]) == limit


def test_computer_players_save_once_where_asked(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner_mod, "MAX_AGENT_ACTIONS", 300)
    writes = []
    real = runner_mod.write_save
    monkeypatch.setattr(runner_mod, "write_save", lambda *a, **k: writes.append(1) or
                        real(*a, **k))
    save = tmp_path / "g.json"
    code = cli.main(["play", ENDLESS, "--seats", "random,random", "--save", str(save)])
    err = capsys.readouterr().err
    assert code == 1 and str(save) in err
    assert len(json.loads(save.read_text())["history"]) == 300
    assert len(writes) < 10    # before the game and when it stops, not at every action
