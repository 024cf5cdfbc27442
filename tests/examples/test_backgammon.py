"""Backgammon (examples/backgammon.rules): "use as many dice as you can, else the larger"
stated with `sequence most pips`. It checks without warnings, plays to its end, the dice
rule holds in scenarios, and its legal moves and positions match a reference written
here, independently of the rules file, over random games (the reference reads only the
rolls, from the log)."""

import random
import re
from pathlib import Path

import pytest

import rulesdsl
from _reference import follow, labels

PATH = Path(__file__).resolve().parents[2] / "examples" / "backgammon.rules"
START = {24: 2, 13: 5, 8: 3, 6: 5}
OFF, BAR = 0, 25


@pytest.fixture(scope="module")
def game():
    assert rulesdsl.check_file(PATH) == []  # no errors, no warnings
    return rulesdsl.load(str(PATH))


def pip_name(k: int) -> str:
    return {OFF: "off", BAR: "bar"}.get(k, f"p{k}")


def position(mine: dict, theirs: dict) -> dict:
    """A scenario: P1's and P2's checkers by their own points; the rest borne off."""
    out = {}
    for seat, board in ((1, mine), (2, theirs)):
        for k in range(26):
            out[f"checkers[P{seat}, {pip_name(k)}]"] = board.get(k, 0)
        out[f"checkers[P{seat}, off]"] = 15 - sum(board.values())
    return {"vars": out}


def first_roll(game, scenario, dice):
    """The game from the first seed whose opening roll (P1's) is `dice`."""
    for seed in range(500):
        s = game.new_game(2, seed, scenario=scenario)
        if s.var("dice") == dice:
            return s
    raise AssertionError(f"no seed rolls {dice}")


# ---------------------------------------------------------------- whole games

def test_backgammon_plays_to_the_end(game):
    for seed in range(3):
        s = game.new_game(2, seed)
        s.playout(random.Random(seed))
        assert s.is_over and len(s.winners) == 1
        assert s.var("checkers", (s.winners[0], "off")) == 15


# ---------------------------------------------------------------- the dice rule

def test_both_dice_must_be_used_where_they_can(game):
    # P1 on 12 and 9; P2 holds P1's points 1 and 4. 12/6 leaves the 5 nothing (6/1, 9/4
    # blocked); 12/7 then 9/3, or 9/3 then 12/7, use both
    s = first_roll(game, position({12: 1, 9: 1}, {25 - 1: 2, 25 - 4: 2}), [5, 6])
    assert labels(s) == ["12/7", "9/3"]
    s.apply("12/7")
    assert labels(s) == ["9/3"]


def test_where_only_one_die_can_be_used_it_is_the_larger(game):
    # P1 on 12 alone; P2 holds P1's 1: 12/7 or 12/6, and then nothing
    s = first_roll(game, position({12: 1}, {25 - 1: 2}), [5, 6])
    assert labels(s) == ["12/6"]
    s.apply("12/6")
    assert s.to_move == 1 and "P1 cannot play 5" in s.log


def test_doubles_are_played_four_times(game):
    s = first_roll(game, position({20: 1}, {1: 1}), [3, 3, 3, 3])
    for move in ("20/17", "17/14", "14/11", "11/8"):
        assert (s.to_move, labels(s)) == (0, [move])
        s.apply(move)
    assert s.to_move == 1 and s.var("checkers", (0, "p8")) == 1


def test_a_double_that_can_use_only_some_of_its_dice_uses_as_many_as_it_can(game):
    # 4-4: P1 on 13 alone, P2 holding P1's 1: 13/9/5 then 5/1 is blocked: two dice; the
    # first move is forced and no option ends the turn early
    s = first_roll(game, position({13: 1}, {25 - 1: 2}), [4, 4, 4, 4])
    assert labels(s) == ["13/9"]
    s.apply("13/9")
    assert labels(s) == ["9/5"]
    s.apply("9/5")
    assert s.to_move == 1 and "P1 cannot play 4, 4" in s.log


# ---------------------------------------------------------------- reference

class Reference:
    """Backgammon from the rulebook in plain Python, boards counted from each player's
    side (0 off, 25 the bar). The rolls are read from the log: the reference knows the
    rules, not the dice."""

    def __init__(self, state):
        self.state = state
        self.board = [dict(START), dict(START)]
        self.rolls = 0

    def roll(self) -> list:
        lines = [x for x in self.state.log if re.fullmatch(r"P\d rolls [\d, ]+", x)]
        line = lines[self.rolls]
        self.rolls += 1
        dice = sorted(int(x) for x in line.split("rolls ")[1].split(", ")[:2])  # the two dice
        return dice * 2 if dice[0] == dice[1] else dice

    def at(self, p, k):
        return self.board[p].get(k, 0)

    def options(self, p, dice) -> dict:
        """label -> (from, die): the smallest die a label can be played with."""
        b = self.board[p]
        highest = max(k for k in range(1, 26) if b.get(k, 0))
        starts = [BAR] if b.get(BAR) else [k for k in range(1, 25) if b.get(k, 0)]
        out = {}
        for a in starts:
            for d in sorted(set(dice)):
                if a > d:
                    ok = self.at(1 - p, 25 - (a - d)) < 2
                else:
                    ok = highest <= 6 and (a == d or a == highest)
                to = "off" if a - d <= 0 else str(a - d)
                label = f"{'bar' if a == BAR else a}/{to}"
                if ok and label not in out:
                    out[label] = (a, d)
        return out

    def move(self, p, a, d) -> None:
        b, theirs = self.board[p], self.board[1 - p]
        b[a] -= 1
        t = max(a - d, OFF)
        b[t] = b.get(t, 0) + 1
        if t != OFF and theirs.get(25 - t) == 1:
            theirs[25 - t] = 0
            theirs[BAR] = theirs.get(BAR, 0) + 1

    def best(self, p, dice) -> int:
        """The most pips any sequence of moves from here uses."""
        if not dice or self.board[p].get(OFF, 0) == 15:
            return 0
        return max((self.tried(p, dice, a, d) for a, d in self.options(p, dice).values()),
                   default=0)

    def tried(self, p, dice, a, d) -> int:
        saved = [dict(x) for x in self.board]
        self.move(p, a, d)
        left = list(dice)
        left.remove(d)
        value = d + self.best(p, left)
        self.board = saved
        return value

    def flow(self):
        p = 0
        while all(b.get(OFF, 0) < 15 for b in self.board):
            dice = self.roll()
            while dice and self.board[p].get(OFF, 0) < 15:
                opts = self.options(p, dice)
                if not opts:
                    break
                top = self.best(p, dice)
                legal = sorted(x for x, (a, d) in opts.items() if self.tried(p, dice, a, d) == top)
                a, d = opts[(yield p, legal)]
                self.move(p, a, d)
                dice.remove(d)
            p = 1 - p

    def matches(self, s):
        for p in range(2):
            for k in range(26):
                assert s.var("checkers", (p, pip_name(k))) == self.at(p, k), (p, k)


def test_legal_moves_and_positions_match_the_reference(game):
    actions = 0
    for seed in range(6):
        s = game.new_game(2, 300 + seed)
        ref = Reference(s)
        actions += follow(s, ref.flow(), random.Random(seed), ref.matches)
        assert s.is_over and s.winners == [p for p in range(2) if ref.at(p, OFF) == 15]
    assert actions > 300
