"""Checkers with the most pieces (examples/checkers_most.rules): checkers.rules extended by
`sequence longest` around a turn's jumps, so a player must take the way that takes the
most pieces. Checked in positions, against the plain rules' options from the same
position, and over whole random games (every jump sequence played is a longest one)."""

import random
from pathlib import Path

import pytest

import rulesdsl
from test_checkers import labels, position

ROOT = Path(__file__).resolve().parents[2] / "examples"
MOST = ROOT / "checkers_most.rules"


@pytest.fixture(scope="module")
def game():
    assert rulesdsl.check_file(MOST) == []  # no errors, no warnings
    return rulesdsl.load(str(MOST))


@pytest.fixture(scope="module")
def plain():
    return rulesdsl.load(str(ROOT / "checkers.rules"))


# c3 takes two (d4, then f6); h2 takes one (g3); a far P2 piece keeps the game going
TWO_WAYS = {"c3": "P1", "h2": "P1", "d4": "P2", "f6": "P2", "g3": "P2", "a7": "P2"}


def test_only_the_jump_that_takes_the_most_is_open(game, plain):
    assert sorted(labels(position(plain, TWO_WAYS))) == ["c3 to e5", "h2 to f4"]
    s = position(game, TWO_WAYS)
    assert labels(s) == ["c3 to e5"]
    s.apply("c3 to e5")
    assert labels(s) == ["e5 to g7"]
    s.apply("e5 to g7")
    assert s.to_move == 1 and len(s.zone("taken[P1]")) == 2


def test_equal_ways_stay_open(game):
    # c3 and g3 each take one, landing on e5: both open
    s = position(game, {"c3": "P1", "g3": "P1", "d4": "P2", "f4": "P2", "a7": "P2"})
    assert sorted(labels(s)) == ["c3 to e5", "g3 to e5"]


def taken(s) -> int:
    return len(s.zone("taken[P1]")) + len(s.zone("taken[P2]"))


def most_from(s) -> int:
    """The most pieces any sequence of the mover's takes from here, tried by hand on
    clones of the plain rules' state."""
    me, best = s.to_move, 0
    for a in s.legal_actions():
        t = s.clone()
        t.apply(a)
        gained = taken(t) - taken(s)
        if not t.is_over and t.to_move == me:
            gained += most_from(t)
        best = max(best, gained)
    return best


def test_every_turn_of_random_games_takes_the_most_the_plain_rules_allow(game, plain):
    turns = 0
    for seed in range(4):
        s = game.new_game(seed=seed)
        mirror = plain.new_game(seed=seed)  # the same moves under the plain rules
        rng = random.Random(seed)
        while not s.is_over and turns < 400:
            me, before = s.to_move, taken(s)
            most = most_from(mirror)
            while not s.is_over and s.to_move == me:
                label = rng.choice(labels(s))
                s.apply(label)
                mirror.apply(label)
            assert taken(s) - before == most, s.history[-6:]
            turns += 1
    assert turns > 100
