"""The tools keep secrets too, through the command line: `history` in the runner shows a
seat only what it saw (the other seat's face-down card is not named), and `rulesdsl
replay` of a game not yet over shows one seat's view unless `--all` is given."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = Path(__file__).resolve().parent / "secret_lay.rules"


def rulesdsl(tmp_path, *args, stdin=""):
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "rulesdsl", *args], input=stdin, env=env,
                       capture_output=True, text=True, cwd=tmp_path, timeout=120)
    return r.returncode, r.stdout + r.stderr


def played(tmp_path):
    """P2 lays two cards face down, P1 plays one and asks for the history; the save."""
    code, out = rulesdsl(tmp_path, "play", str(GAME), "--seats", "human,random", "--seed",
                         "3", "--plain", stdin="#1\nhistory\nquit\n")
    assert code == 0, out
    save = re.search(r"saved in (\S+\.json)", out).group(1)
    return out, save


def face_down_cards(tmp_path, save):
    code, out = rulesdsl(tmp_path, "replay", save, "--to", "3", "--plain", "--all")
    assert code == 0, out
    line = next(l for l in out.splitlines() if row_of(l, "P2") and "facedown: card" in l)
    return re.findall(r"card \d", line.split("facedown:")[1])


def row_of(line: str, seat: str) -> bool:
    """A line of the screen's row for a seat ("P2       hand: ... · facedown: ...")."""
    return line.strip().startswith(seat + " ")


def test_history_shows_a_seat_only_what_it_saw(tmp_path):
    out, save = played(tmp_path)
    history = out.split("P1> history")[1].split("P1>")[0]
    assert "1. P2: hand[P2] -> facedown[P2]: 1 card" in history
    assert re.search(r"2\. P1: card \d", history)      # one's own choice by its label
    hidden = face_down_cards(tmp_path, save)
    assert len(hidden) == 2
    for label in hidden:
        assert label not in history


def test_replay_of_a_game_not_over_shows_one_seat_unless_all(tmp_path):
    _, save = played(tmp_path)
    hidden = face_down_cards(tmp_path, save)
    code, out = rulesdsl(tmp_path, "replay", save, "--to", "3", "--plain")
    assert code == 0, out
    assert "as P1 sees it" in out and "--all shows every hand" in out
    assert any(row_of(l, "P2") and "facedown: 2 cards, hidden" in l
               for l in out.splitlines())
    assert not any(label in out for label in hidden)
    code, out = rulesdsl(tmp_path, "replay", save, "--to", "3", "--plain", "--seat", "P2")
    assert code == 0 and "as P2 sees it" in out
    assert re.search(r"action: P2: card \d", out)    # P2's own choice, by its label
    assert any(row_of(l, "P1") and "hand: 2 cards, hidden" in l for l in out.splitlines())
    code, out = rulesdsl(tmp_path, "replay", save, "--to", "1", "--plain", "--seat", "9")
    assert code != 0 and "C015" in out and "P1 to P2" in out


def test_replay_all_says_what_it_does(tmp_path):
    code, out = rulesdsl(tmp_path, "replay", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "--all" in text and "every hand and hidden pile" in text and "--seat P" in text
