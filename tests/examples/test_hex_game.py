"""Hex (examples/hex.rules): a hex board and the `joins` built-in. It checks, plays to its
end with computer seats (always with one winner: Hex has no draws), and a chain of
touching hexagons from side to side wins, bent or straight, while a gap does not."""

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.agents.random_agent import RandomAgent

PATH = Path(__file__).resolve().parents[2] / "examples" / "hex.rules"


@pytest.fixture(scope="module")
def game():
    assert rulesdsl.check_file(PATH) == []
    return rulesdsl.load(str(PATH))


@pytest.mark.parametrize("seed", range(12))
def test_hex_plays_to_the_end_with_one_winner(game, seed):
    s = game.new_game(seed=seed)
    agents = [RandomAgent(seed * 5 + q) for q in range(2)]
    assert len(s.legal_actions()) == 49
    moves = 0
    while not s.is_over:
        s.apply(agents[s.to_move].choose(s))
        moves += 1
    assert len(s.winners) == 1 and 13 <= moves <= 49  # a chain needs 7 stones
    assert s.scores[s.winners[0]] == 1 and s.scores[1 - s.winners[0]] == 0


def stones(**cells):
    return {"vars": {f"stone[{c}]": p for p, cs in cells.items() for c in cs.split()}}


def test_a_straight_chain_from_side_to_side_wins(game):
    s = game.new_game(seed=0, scenario=stones(P1="a4 b4 c4 d4 e4 f4", P2="a1 b1 c1 d1 e1"))
    s.apply("g4")
    assert s.winners == [0]


def test_a_bent_chain_wins_and_a_gap_does_not(game):
    # north west steps: g1 f2 e3 d4 c5 b6 a7 link P2's rows 1 and 7
    s = game.new_game(seed=0, scenario=stones(P2="g1 f2 e3 d4 c5 b6", P1="a1 b1 c1 d1 e1 f1"))
    s.apply("a2")
    assert not s.is_over
    s.apply("a7")
    assert s.winners == [1]
    # f4 and g5 do not touch (f4's neighbours up the board are f5 and e5)
    s = game.new_game(seed=0, scenario=stones(P1="a4 b4 c4 d4 e4 f4", P2="a1 b1 c1 d1 e1"))
    s.apply("g5")
    assert not s.is_over
    s.apply("f1")
    s.apply("g3")  # f4 and g3 touch: south east
    assert s.winners == [0]
