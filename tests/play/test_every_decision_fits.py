"""Every decision of a seeded game, for every bundled game and example, drawn as the runner
draws it on a terminal of 80x24 and of 120x40. The runner itself (its screens on, the
terminal's size read from LINES and COLUMNS as on a real terminal) writes into a terminal
emulator (pyte) in this process; at each of the person's prompts the screen is checked as
the pty test checks it (_screens.py): the title bar whole on the top row, the news's
heading under it, the question and the first option, how many options there are when they
are cut, the prompt inside the screen (a screen a row too long scrolls the title off).

The pty test (test_screen_fits.py) is the end-to-end proof for the first decisions of each
game, in colour; this one goes on to the end of each game. It draws in plain text: the
colour changes no line's length, and leaving it out makes every decision cheap enough."""

from __future__ import annotations

import io
import random

import pytest

import rulesdsl
from rulesdsl.play.runner import Quit, Runner

from _screens import SIZES, amounts, check_screen, games

pyte = pytest.importorskip("pyte")

SEED = 3
# a person's decisions a game at most: random play may drag a game on (drawing back what
# was just discarded); every game here ends before it, the longest after some 430
MAX_DECISIONS = 600


class Terminal(io.TextIOBase):
    """Where the runner writes: a terminal of `rows` x `cols` (pyte), a tty to the runner.
    A pty turns each new line into a carriage return and a line feed: so does this."""

    def __init__(self, rows: int, cols: int):
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.stream.feed(text.replace("\n", "\r\n"))
        return len(text)

    def rows(self) -> list:
        return [line.rstrip() for line in self.screen.display]


class Person(io.TextIOBase):
    """The keyboard of the person in seat P1: at each prompt the terminal's screen is
    checked, then a random option typed (its number, or an amount)."""

    def __init__(self, terminal: Terminal, size: str, seed: int):
        self.terminal, self.size = terminal, size
        self.rng = random.Random(seed)
        self.runner = None
        self.decisions = 0

    def isatty(self) -> bool:
        return True

    def readline(self, size: int = -1) -> str:
        state = self.runner.state
        self.decisions += 1
        if self.decisions > MAX_DECISIONS:
            return "quit\n"
        check_screen(self.terminal.rows(), state, state.game,
                     f"{self.size}, the person's decision {self.decisions}")
        actions = state.legal_actions()
        if amounts(actions):
            return self.rng.choice(actions).label + "\n"
        return f"{self.rng.randrange(len(actions)) + 1}\n"


@pytest.mark.parametrize("name", games())
def test_every_decision_of_a_game_fits_the_terminal(name, monkeypatch):
    game = rulesdsl.load(name)
    players = min(game.max_players, 4)
    seats = ["human"] + ["random"] * (players - 1)
    for rows, cols in SIZES:
        monkeypatch.setenv("LINES", str(rows))
        monkeypatch.setenv("COLUMNS", str(cols))
        terminal = Terminal(rows, cols)
        person = Person(terminal, f"{cols}x{rows}", cols)
        runner = Runner(game.new_game(players=players, seed=SEED), seats, seed=SEED,
                        out=terminal, inp=person, game=game, plain=True)
        person.runner = runner
        assert runner.screens and (runner.o.height, runner.o.width) == (rows, cols)
        try:
            runner.play_to_the_end()
        except Quit:                   # at MAX_DECISIONS
            pass
        assert runner.state.is_over or person.decisions > MAX_DECISIONS
        assert person.decisions > 0
