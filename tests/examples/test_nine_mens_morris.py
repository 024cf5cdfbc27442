"""Nine Men's Morris (examples/nine_mens_morris.rules), written from the docs alone by a new
author: a laid-out board of 24 named points whose lines are tracks. It checks without
warnings and plays to its end on both engines; its rules hold in positions (a mill takes a
man outside the opponent's mills unless all are in mills, three men fly, two men or no move
lose, a move goes along a line only)."""

import random

import pytest

from _play import EXAMPLES, labels, load

import rulesdsl

POINTS = ["a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4",
          "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"]
MILLS = [("a7", "d7", "g7"), ("g7", "g4", "g1"), ("g1", "d1", "a1"), ("a1", "a4", "a7"),
         ("b6", "d6", "f6"), ("f6", "f4", "f2"), ("f2", "d2", "b2"), ("b2", "b4", "b6"),
         ("c5", "d5", "e5"), ("e5", "e4", "e3"), ("e3", "d3", "c3"), ("c3", "c4", "c5"),
         ("d7", "d6", "d5"), ("d3", "d2", "d1"), ("a4", "b4", "c4"), ("e4", "f4", "g4")]
LINKS = {frozenset(m[i:i + 2]) for m in MILLS for i in (0, 1)}


@pytest.fixture(scope="module")
def game():
    return load("nine_mens_morris")


def men(s, p):
    return [c for c in POINTS if s.var("man", c) == p]


def lost(s, p):
    """Two men, or no move, once all are placed (three men fly, so never stuck)."""
    if s.var("in_hand", p) > 0:
        return False
    mine = men(s, p)
    if len(mine) < 3:
        return True
    empty = [c for c in POINTS if s.var("man", c) is None]
    return len(mine) > 3 and not any(frozenset((a, b)) in LINKS for a in mine for b in empty)


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_random_games_play_to_the_end_on_both_engines(engine, monkeypatch):
    monkeypatch.setenv("RULESDSL_ENGINE", engine)
    g = rulesdsl.load(str(EXAMPLES / "nine_mens_morris.rules"))
    outcomes = set()
    for seed in range(30):
        rng = random.Random(seed)
        s = g.new_game(2, seed=seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        if s.winners:
            (w,) = s.winners
            assert lost(s, 1 - w) and not lost(s, w)
            outcomes.add("won")
        else:
            assert s.log[-2] == "fifty turns each without a mill: a draw"
            outcomes.add("draw")
    assert outcomes == {"won", "draw"}


def at(game, placed: dict, hands=(9, 9)):
    """A position: {point: seat number from 1}, and the men each still has to place."""
    v = {f"man[{c}]": f"P{p}" for c, p in placed.items()}
    v["in_hand[P1]"], v["in_hand[P2]"] = hands
    return game.new_game(2, seed=0, scenario={"vars": v})


def test_a_mill_takes_a_man_outside_mills_unless_all_are_in_mills(game):
    s = at(game, {"a7": 1, "d7": 1, "b6": 2, "d6": 2, "f6": 2, "a4": 2}, hands=(7, 5))
    s.apply("g7")                                    # a7 d7 g7 closes a mill
    assert s.to_move == 0 and labels(s) == ["a4"]    # b6 d6 f6 is P2's mill
    s.apply("a4")
    assert s.var("man", "a4") is None and s.to_move == 1
    s = at(game, {"a7": 1, "d7": 1, "b6": 2, "d6": 2, "f6": 2}, hands=(7, 6))
    s.apply("g7")
    assert labels(s) == ["b6", "d6", "f6"]           # every man in a mill: any of them


def test_men_move_along_a_line_and_three_men_fly(game):
    four = {"a7": 1, "d7": 1, "c3": 1, "g1": 1, "b6": 2, "d6": 2, "f6": 2, "a4": 2}
    assert labels(at(game, four, hands=(0, 0))) == [
        "c3 to c4", "c3 to d3", "d7 to g7", "g1 to d1", "g1 to g4"]
    del four["g1"]
    flying = labels(at(game, four, hands=(0, 0)))
    assert len(flying) == 3 * 17 and "a7 to g1" in flying


def test_two_men_left_loses(game):
    s = at(game, {"a7": 1, "d7": 1, "g4": 1, "b6": 2, "d6": 2, "c3": 2}, hands=(0, 0))
    s.apply("g4 to g7")
    assert labels(s) == ["b6", "c3", "d6"]
    s.apply("c3")
    assert s.is_over and s.winners == [0] and "P2 has only 2 men left" in s.log


def test_no_move_loses_before_anything_is_asked(game):
    s = at(game, {"a7": 1, "d7": 1, "g7": 1, "a1": 1, "a4": 2, "d6": 2, "g4": 2, "d1": 2},
           hands=(0, 0))
    assert s.is_over and s.winners == [1] and s.log[-2] == "P1 cannot move"
