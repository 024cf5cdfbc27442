"""Kalah (examples/kalah.rules), on a laid-out board: two rows of six pits and two stores,
sown along a track. It checks without warnings, plays to its end, its rules hold in
positions (the opponent's store skipped, the last seed in the own store moving again, a
capture, the end that gives each side its own seeds), and its legal moves and positions
match a reference written here, independently of the rules file, over random games."""

import random
from pathlib import Path

import pytest

import rulesdsl
from _reference import follow, labels

PATH = Path(__file__).resolve().parents[2] / "examples" / "kalah.rules"
# the track counter-clockwise: P1's pits, P1's store, P2's pits, P2's store
TRACK = [f"a{k}" for k in range(1, 7)] + ["store_a"] + [f"b{k}" for k in range(1, 7)] + \
    ["store_b"]
STORE = (6, 13)


@pytest.fixture(scope="module")
def game():
    assert rulesdsl.check_file(PATH) == []  # no errors, no warnings
    return rulesdsl.load(str(PATH))


def position(pits: dict) -> dict:
    """A scenario: the seeds named, every other pit and store empty."""
    return {"vars": {f"seeds[{c}]": pits.get(c, 0) for c in TRACK}}


def seeds(s) -> dict:
    return {c: s.var("seeds", (c,)) for c in TRACK if s.var("seeds", (c,))}


def test_kalah_plays_to_the_end(game):
    for seed in range(3):
        s = game.new_game(2, seed)
        s.playout(random.Random(seed))
        assert s.is_over and sum(seeds(s).values()) == 48
        assert set(seeds(s)) <= {"store_a", "store_b"}


def test_the_opening_offers_each_pit(game):
    s = game.new_game(2, 0)
    assert (s.to_move, labels(s)) == (0, ["a1", "a2", "a3", "a4", "a5", "a6"])


def test_the_last_seed_in_the_own_store_moves_again(game):
    s = game.new_game(2, 0)
    s.apply("a3")                       # 4 seeds: a4, a5, a6, store_a
    assert s.to_move == 0 and "P1 moves again" in s.log
    assert seeds(s)["store_a"] == 1 and "a3" not in seeds(s)
    assert labels(s) == ["a1", "a2", "a4", "a5", "a6"]


def test_sowing_skips_the_opponents_store(game):
    # P1's a6 with 9 seeds: store_a, b1..b6, (store_b skipped) a1, a2
    s = game.new_game(2, 0, scenario=position({"a6": 9, "a1": 1, "a2": 1, "b3": 1}))
    s.apply("a6")
    assert seeds(s) == {"store_a": 1, "b1": 1, "b2": 1, "b3": 2, "b4": 1, "b5": 1, "b6": 1,
                        "a1": 2, "a2": 2}
    assert s.to_move == 1


def test_the_last_seed_in_an_own_empty_pit_takes_the_pit_opposite(game):
    # a1's one seed falls in the empty a2; b5 faces a2
    s = game.new_game(2, 0, scenario=position({"a1": 1, "a6": 1, "b5": 3, "b1": 1}))
    s.apply("a1")
    assert seeds(s) == {"store_a": 4, "a6": 1, "b1": 1} and "P1 takes 4 from a2 and b5" in s.log
    assert s.is_over is False and s.to_move == 1
    # nothing opposite: nothing taken
    s = game.new_game(2, 0, scenario=position({"a1": 1, "b1": 1, "a6": 1}))
    s.apply("a1")
    assert seeds(s) == {"a2": 1, "b1": 1, "a6": 1}


def test_an_empty_side_ends_the_game_and_the_rest_goes_to_its_owner(game):
    s = game.new_game(2, 0, scenario=position({"a6": 1, "b1": 2, "b4": 3, "store_b": 2}))
    s.apply("a6")                       # into store_a: P1's side is empty
    assert s.is_over and seeds(s) == {"store_a": 1, "store_b": 7} and s.winners == [1]
    assert s.log[-2] == "stores: P1 1, P2 7"


def test_equal_stores_draw(game):
    s = game.new_game(2, 0, scenario=position({"a6": 1, "b1": 1, "store_b": 0}))
    s.apply("a6")
    assert s.is_over and s.winners == [] and seeds(s) == {"store_a": 1, "store_b": 1}


# ---------------------------------------------------------------- reference

class Reference:
    """Kalah from the rulebook in plain Python: the pits and stores as a list in sowing
    order, P1's pits 0-5 and store 6, P2's pits 7-12 and store 13."""

    def __init__(self):
        self.board = [4] * 6 + [0] + [4] * 6 + [0]

    def pits(self, p) -> range:
        return range(7 * p, 7 * p + 6)

    def sow(self, p, start) -> int:
        """Sow from `start`; the place the last seed fell."""
        n, self.board[start], at = self.board[start], 0, start
        for _ in range(n):
            at = (at + 1) % 14
            if at == STORE[1 - p]:
                at = (at + 1) % 14
            self.board[at] += 1
        across = 12 - at
        if at in self.pits(p) and self.board[at] == 1 and self.board[across] > 0:
            self.board[STORE[p]] += self.board[across] + 1
            self.board[at] = self.board[across] = 0
        return at

    def over(self) -> bool:
        return any(all(self.board[k] == 0 for k in self.pits(p)) for p in (0, 1))

    def flow(self):
        p = 0
        while not self.over():
            legal = sorted(TRACK[k] for k in self.pits(p) if self.board[k] > 0)
            chosen = yield p, legal
            if self.sow(p, TRACK.index(chosen)) != STORE[p] or self.over():
                p = 1 - p
        for p in (0, 1):
            for k in self.pits(p):
                self.board[STORE[p]] += self.board[k]
                self.board[k] = 0

    def matches(self, s):
        assert [s.var("seeds", (c,)) for c in TRACK] == self.board


def test_legal_moves_and_positions_match_the_reference(game):
    actions = 0
    for seed in range(150):
        s = game.new_game(2, 500 + seed)
        ref = Reference()
        actions += follow(s, ref.flow(), random.Random(seed), ref.matches)
        ref.matches(s)
        a, b = ref.board[STORE[0]], ref.board[STORE[1]]
        assert s.is_over and s.winners == ([0] if a > b else [1] if b > a else [])
    assert actions > 3000
