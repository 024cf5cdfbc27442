"""A comparison in which one variant breaks keeps every other variant's results and says
which variant failed, at which game, and how to replay that game: in the text, in --json
and in --report. The replay command is the real one (file, options, players, seed, seats)
and, followed, plays the same game into the same error."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl import cli
from rulesdsl.analysis.simulate import simulate
from rulesdsl.lang.errors import RulesError

TRAP = Path(__file__).parent / "rules" / "trap.rules"
# With trap=true, game 11 (seed 10) is the first whose deal draws a 1 for the first player.
FAILED_GAME, FAILED_SEED = 11, 10


def _run(command: str) -> subprocess.CompletedProcess:
    """A printed `rulesdsl ...` command, run with this Python."""
    words = shlex.split(command)
    assert words[0] == "rulesdsl"
    return subprocess.run([sys.executable, "-m", "rulesdsl", *words[1:]], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_a_broken_variant_keeps_the_others_and_names_its_game():
    r = simulate(str(TRAP), games=20, seed=0, compare=[{"trap": True}, {"trap": False}])
    broken, kept = r.compare
    assert broken["change"] == {"trap": True} and "seats" not in broken
    failed = broken["failed"]
    assert (failed["game"], failed["of"], failed["seed"], failed["code"]) == \
        (FAILED_GAME, 20, FAILED_SEED, "R019")
    assert "no legal option" in failed["message"] and failed["at"].endswith("trap.rules:31:9")
    assert kept["change"] == {"trap": False} and kept["games"] == 20
    assert [s["win_rate"] for s in kept["seats"]] == [1.0, 0.0]
    assert r.failed_variants == [broken]


def test_the_replay_command_names_the_file_and_options_and_plays_the_same_error():
    r = simulate(str(TRAP), games=20, seed=0, compare=[{"trap": True}])
    replay = r.compare[0]["failed"]["replay"]
    assert "GAME" not in replay
    assert shlex.split(replay) == ["rulesdsl", "play", str(TRAP), "--option", "trap=true",
                                   "--players", "2", "--seed", str(FAILED_SEED),
                                   "--seats", "random,random"]
    done = _run(replay)
    assert "error[R019]" in done.stderr and "trap.rules:31:9" in done.stderr, done.stderr


def test_a_failure_of_the_game_as_given_replays_with_its_options():
    with pytest.raises(RulesError) as info:
        simulate(str(TRAP), games=20, seed=0, options={"trap": True})
    assert info.value.code == "R019"
    (hint,) = [h for h in info.value.hints if h.startswith("replay it with: ")]
    assert "GAME" not in hint
    replay = hint.removeprefix("replay it with: ")
    assert f"{TRAP} --option trap=true --players 2 --seed {FAILED_SEED}" in replay
    assert "error[R019]" in _run(replay).stderr


def test_a_game_that_does_not_end_replays_by_its_bundled_name_and_option():
    with pytest.raises(RulesError) as info:
        simulate("triumvirat", games=2, seed=5, options={"games_to_win": 3}, max_actions=20,
                 seats="greedy,random")
    assert info.value.code == "C010"
    assert info.value.hints[-1] == ("replay it with: rulesdsl play triumvirat --option "
                                    "games_to_win=3 --players 2 --seed 5 --seats "
                                    "greedy,random")


def test_the_command_line_reports_the_others_then_the_failure(capsys, tmp_path):
    code = cli.main(["simulate", str(TRAP), "--games", "20", "--workers", "2",
                     "--compare", "trap=true", "--compare", "trap=false"])
    out, err = capsys.readouterr()
    assert code == 1
    assert f"compare: trap=true failed at game {FAILED_GAME} of 20 (seed {FAILED_SEED})" in out
    assert "compare: trap=false (same seeds)" in out and "seat  agent" in out
    assert f"rulesdsl play {TRAP} --option trap=true --players 2 --seed {FAILED_SEED}" in out
    assert "trap=true failed" in err


def test_json_and_report_hold_the_failure(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    page = tmp_path / "report.html"
    code = cli.main(["simulate", str(TRAP), "--games", "20", "--workers", "1", "--json",
                     "--compare", "trap=true", "--compare", "trap=false",
                     "--report", str(page)])
    assert code == 1
    data = json.loads(capsys.readouterr().out)
    broken, kept = data["compare"]
    assert broken["failed"]["game"] == FAILED_GAME and broken["failed"]["code"] == "R019"
    assert "--option trap=true" in broken["failed"]["replay"]
    assert kept["games"] == 20 and len(kept["seats"]) == 2
    text = page.read_text(encoding="utf-8")
    assert "trap=true: failed" in text and f"Game {FAILED_GAME} of 20" in text
    assert f"--option trap=true --players 2 --seed {FAILED_SEED}" in text
    assert "<h3>trap=false</h3>" in text
