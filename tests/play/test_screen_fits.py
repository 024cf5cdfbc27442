"""Every bundled game and example played through a real terminal (a pty read by a terminal
emulator, pyte) at 80x24 and 120x40, in colour, as a person starts it (`rulesdsl play`): at
each of the first decisions the title bar (whose turn), the start of the news, the question
and the options are on the screen, nothing scrolled off (the checks: _screens.py). The
end-to-end proof; test_every_decision_fits.py goes through every decision of each game,
in this process."""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import pytest

import rulesdsl

from _screens import SIZES, amounts, check_screen, games

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROOT = Path(__file__).resolve().parents[2]
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
            check_screen(term.rows(), state, game, f"{cols}x{rows}")
            actions = state.legal_actions()
            if amounts(actions):
                term.child.sendline(rng.choice(actions).label)
            else:
                term.child.sendline(str(rng.randrange(len(actions)) + 1))
        term.child.sendline("quit")
        term.child.expect(pexpect.EOF)
        term.child.close()
