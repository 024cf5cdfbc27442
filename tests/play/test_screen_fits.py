"""Every bundled game and example played through a real terminal (a pty read by a terminal
emulator, pyte) at 80x24 and 120x40: at each decision the title bar (whose turn), the start
of the news, the question and the options are on the screen, nothing scrolled off."""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.lang.resources import bundled_games, example_games

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(24, 80), (40, 120)]
DECISIONS = 5          # a person's decisions a game: enough to see a game under way
PROMPT = re.compile(rb"P1> ")


class Terminal:
    """A rulesdsl process in a pty of the given size, its screen kept by pyte."""

    def __init__(self, tmp_path, rows, cols, *args):
        env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT), TERM="xterm",
                   RULESDSL_SAVES=str(tmp_path))
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(sys.executable, ["-m", "rulesdsl", *args], env=env,
                                   dimensions=(rows, cols), timeout=120, cwd=str(tmp_path))

    def wait(self, pattern) -> int:
        k = self.child.expect([pattern, pexpect.EOF])
        self.stream.feed(self.child.before + (self.child.after if k == 0 else b""))
        return k

    def rows(self) -> list:
        return [line.rstrip() for line in self.screen.display]


def games() -> list:
    return sorted(bundled_games()) + sorted(example_games())


def _flat(text: str) -> str:
    return " ".join(text.split())


def check_screen(rows: list, state, game, size) -> None:
    shown = "\n".join(rows)
    where = f"{game.name} at {size}:\n{shown}"
    # the title bar on the top row, whole: nothing scrolled off above it, and the flow
    # (cut from its outer end) not wrapped onto the next row
    assert game.name in rows[0] and "P1 to move" in rows[0], where
    path = state.phase_path()
    if path:
        assert rows[0].endswith(path[-1].replace("_", " ")), where
    # the news, if any, starts right under it, its heading with it
    heads = [k for k, r in enumerate(rows) if r.startswith(("since your last move:",
                                                            "so far:"))]
    assert heads in ([], [1]), where
    body = _flat(" ".join(rows))
    question = state.question()
    if question:
        assert _flat(question) in body, where
    actions = state.legal_actions()
    if all(a.label.lstrip("-").isdigit() for a in actions):
        assert "type an amount" in body, where
    else:
        numbers = {int(n) for n in re.findall(r"(?:^|\s)(\d+)\. ", shown)}
        listed = len([n for n in numbers if n <= len(actions)])
        assert 1 in numbers, where
        if listed < len(actions):      # the rest said to be there, and how to reach them
            assert f"({len(actions):,} in all)" in body, where
    # the prompt on the last line written, inside the screen
    used = [k for k, r in enumerate(rows) if r.strip()]
    assert rows[used[-1]].startswith("P1>"), where


@pytest.mark.parametrize("name", games())
def test_every_screen_fits_the_terminal(name, tmp_path):
    game = rulesdsl.load(name)
    players = min(game.max_players, 4)
    seats = ",".join(["human"] + ["random"] * (players - 1))
    for rows, cols in SIZES:
        save = tmp_path / f"{name}-{cols}.json"
        term = Terminal(tmp_path, rows, cols, "play", name, "--players", str(players),
                        "--seats", seats, "--seed", "3", "--save", str(save))
        rng = random.Random(cols)
        for _ in range(DECISIONS):
            if term.wait(PROMPT) != 0:
                break                      # the game ended: fine, it was played through
            state = rulesdsl.restore(game, save.read_text())
            check_screen(term.rows(), state, game, (cols, rows))
            actions = state.legal_actions()
            if all(a.label.lstrip("-").isdigit() for a in actions):
                term.child.sendline(rng.choice(actions).label)
            else:
                term.child.sendline(str(rng.randrange(len(actions)) + 1))
        term.child.sendline("quit")
        term.child.expect(pexpect.EOF)
        term.child.close()
