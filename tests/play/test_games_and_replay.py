"""Every bundled game plays to its end with computer seats; replay files; amounts typed as
numbers; `play` without a game. In-process through rulesdsl.cli.main."""

from __future__ import annotations

import io
import json

import pytest

import rulesdsl
from rulesdsl import cli
from rulesdsl.lang.resources import bundled_games
from rulesdsl.play.answers import amount_typed, match_action, numeric_labels, _ranges


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize("name", sorted(bundled_games()))
def test_every_bundled_game_plays_to_its_end(name, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    game = rulesdsl.load(name)
    seats = ",".join(["random"] * game.min_players)
    code, out, err = run(capsys, "play", name, "--seats", seats, "--seed", "1", "--plain")
    assert code == 0, err
    assert "game over after" in out
    assert "winner" in out or "drawn" in out
    assert "\x1b[" not in out


def test_numbers_name_amounts_not_options():
    class A:
        def __init__(self, label):
            self.label = label
    acts = [A("0"), A("5"), A("10")]
    assert numeric_labels(acts)
    assert match_action("5", acts)[0].label == "5"
    assert match_action("#2", acts)[0].label == "5"
    assert _ranges([0, 5, 10, 15, 20]) == "0..20 by 5"
    assert _ranges([1, 2, 3, 7]) == "1..3, 7"
    # amounts read as the screen writes numbers, and may be typed so
    assert _ranges([10_000, 20_000, 30_000]) == "10,000..30,000 by 10,000"
    assert amount_typed(" 10,000") == "10000" and amount_typed("10_000") == "10000"
    assert amount_typed("#3") == "#3" and amount_typed("pass") == "pass"


def test_replay_file_from_a_game_and_from_an_autosave(capsys, monkeypatch, tmp_path):
    save = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    code, out, err = run(capsys, "play", "triumvirat", "--seed", "3", "--save", str(save),
                         "--seats", "human,random")
    assert code == 0, err
    replay = tmp_path / "g.replay.json"
    assert f"rulesdsl replay {replay}" in out
    data = json.loads(replay.read_text())
    n = len(data["actions"])
    code, out, err = run(capsys, "replay", str(replay), "--to", "3")
    assert code == 0, err
    assert f"after action 3 of {n}" in out and "hidden" not in out
    assert [l for l in out.splitlines() if l.strip().startswith("P2") and "hand: " in l]
    code, out, err = run(capsys, "replay", str(save), "--to", str(n))
    assert code == 0, err
    assert "game over" in out
    code, out, err = run(capsys, "replay", str(replay), "--to", str(n + 1))
    assert code == 1
    # stepping: next, next, previous, go to, junk, quit
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n\np\ng 5\nwhat\ng 99999\nq\n"))
    code, out, err = run(capsys, "replay", str(replay))
    assert code == 0, err
    steps = [l for l in out.splitlines() if "after action" in l]
    assert [s.split("after action ")[1].split(" ")[0] for s in steps] == \
        ["0", "1", "2", "1", "5", "5", "5"]
    assert "keys:" in out and "g N goes to" in out


def test_replay_of_a_file_that_is_not_one(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{\"game\": 3}")
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 1 and "not a replay file" in err


def test_play_without_a_game_offers_the_bundled_games(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("RULESDSL_SAVES", raising=False)   # the default folder, under ~
    names = sorted(bundled_games())
    k = [n for n in rulesdsl.lang.resources.bundled_games()].index("ivanhoe") + 1
    monkeypatch.setattr("sys.stdin", io.StringIO(f"nonsense\n{k}\n4\nquit\n"))
    code, out, err = run(capsys, "play")
    assert code == 0, err
    assert "bundled games:" in out and all(n in out for n in names)
    assert "Ivanhoe: 4 players" in out and "P2 ismcts, P3 ismcts, P4 ismcts" in out
    first = rulesdsl.load("ivanhoe").about[0]   # the chosen game's summary, then its rules' command
    assert " ".join(first.split()[:8]) in " ".join(out.split())
    assert "(the whole rules: rulesdsl rules ivanhoe)" in out
    saves = list((tmp_path / ".rulesdsl" / "saves").glob("ivanhoe-*.json"))
    assert saves and f"--resume {saves[0]}" in out


def test_resume_needs_no_game_name(capsys, monkeypatch, tmp_path):
    save = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nquit\n"))
    code, out, err = run(capsys, "play", "ivanhoe", "--players", "3", "--seed", "2",
                         "--seats", "human,random,human", "--save", str(save))
    assert code == 0, err
    before = json.loads(save.read_text())
    assert before["runner"]["seats"] == ["human", "random", "human"]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, err = run(capsys, "play", "--resume", str(save))
    assert code == 0, err
    assert "Ivanhoe: 3 players, seed 2; P1 human, P2 random, P3 human" in out
    assert json.loads(save.read_text())["history"] == before["history"]


def test_play_without_a_game_and_no_input_stops_cleanly(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO("99\nnothing\n"))
    code, out, err = run(capsys, "play")
    assert code == 0 and "type a number from 1 to" in out
