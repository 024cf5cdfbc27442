"""Boards on the screen: a seat's pieces told apart with and without colour, the last move
marked, the set-up not listed as news, the rules text wrapped once at 80 columns."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.play.rulestext import rules_text
from rulesdsl.play.runner import Runner
from rulesdsl.play.screen import Layout, piece_sign

ROOT = Path(__file__).resolve().parents[2]
ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def board_text(lines) -> str:
    return "\n".join("".join(t for t, _ in line) for line in lines)


def grid_of(name, actions=()):
    game = rulesdsl.load(name)
    state = game.new_game(players=2, seed=1)
    for label in actions:
        state.apply(label)
    layout = Layout(state)
    parts = dict(layout.view_parts(state.view(0), 0,
                                   marked=layout.cells_named(actions[-1]) if actions else ()))
    return parts["board"]


def test_two_seats_discs_differ_in_plain_text_and_in_colour():
    lines = grid_of("reversi")
    text = board_text(lines)
    assert "P1" not in text.split("\n")[4] and "●" in text and "○" in text
    styles = {style for line in lines for t, style in line if t.strip() in ("●", "○")}
    assert len(styles) == 2
    assert "● P1" in text and "○ P2" in text          # the legend


def test_pieces_are_signed_by_a_general_rule():
    assert piece_sign("P1")[0] == "●" and piece_sign("P2")[0] == "○"
    assert piece_sign("P3 king")[0] == "▲k" and piece_sign("P2 man+2")[0] == "○m+2"
    assert piece_sign("red")[0] == "red" and piece_sign(".")[0] == "."


def test_the_last_move_is_marked():
    game = rulesdsl.load("checkers")
    state = game.new_game(players=2, seed=1)
    move = state.legal_actions()[0].label                 # "a3 to b4"
    text = board_text(grid_of("checkers", [move]))
    for cell in re.findall(r"[a-h][1-8]", move):
        row = next(line for line in text.split("\n") if line.strip().startswith(cell[1] + " ")
                   or line.strip().startswith(cell[1] + "["))
        assert "[" in row and "]" in row, text


def test_the_set_up_is_not_news_on_the_first_screen():
    game = rulesdsl.load("checkers")
    state = game.new_game(players=2, seed=1)
    runner = Runner(state, ["human", "random"], game=game)
    news = "\n".join("".join(t for t, _ in line) for line in runner.news_versions(0)[0])
    assert "box" not in news and "the set-up: 24 lines, type log" in news


@pytest.mark.skipif(sys.platform == "win32", reason="a pty")
def test_the_rules_text_wraps_once_at_80_columns(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT), TERM="xterm",
               RULESDSL_SAVES=str(tmp_path))
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    child = pexpect.spawn(sys.executable, ["-m", "rulesdsl", "play", "condottiere", "--seats",
                                           "human,random", "--seed", "1"], env=env,
                          dimensions=(24, 80), timeout=120, encoding="utf-8")
    child.expect("P1> ")
    child.sendline("rules")
    child.expect("P1> ")
    shown = [ESC.sub("", line).rstrip() for line in child.before.replace("\r", "").split("\n")]
    child.sendline("quit")
    child.expect(pexpect.EOF)
    game = rulesdsl.load("condottiere")
    expected = [line.rstrip() for line in rules_text(game, 2, width=79) if line.strip()]
    assert all(len(line) < 80 for line in shown)
    assert [line for line in expected if line not in shown] == []
