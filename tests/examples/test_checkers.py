"""Checkers (examples/checkers.rules): pieces on a grid whose rank changes when crowned.
It checks, plays to its end with computer seats, and its key rules hold in positions set
by scenarios: jumping is compulsory and goes on, a man reaching the far row is crowned
and a king moves backwards, a player who cannot move loses, quiet play is drawn."""

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.agents.random_agent import RandomAgent

PATH = Path(__file__).resolve().parents[2] / "examples" / "checkers.rules"
CELLS = [f"{x}{y}" for y in range(1, 9) for x in "abcdefgh"]


@pytest.fixture(scope="module")
def game():
    assert rulesdsl.check_file(PATH) == []
    return rulesdsl.load(str(PATH))


def position(game, pieces: dict, kings=(), **vars_):
    """A game from a position: {cell: "P1"/"P2"}; the pieces on `kings` are crowned."""
    zones = {f"square[{c}]": [f"{pieces[c]} man"] if c in pieces else [] for c in CELLS}
    scenario = {"zones": zones, "vars": vars_,
                "pieces": {f"square[{c}]": {"rank": "king"} for c in kings}}
    return game.new_game(seed=0, scenario=scenario)


def labels(s):
    return [a.label for a in s.legal_actions()]


def on(s, cell):
    return s.view(0)["zones"][f"square[{cell}]"]


@pytest.mark.parametrize("seed", range(6))
def test_checkers_plays_to_the_end(game, seed):
    s = game.new_game(seed=seed)
    agents = [RandomAgent(seed * 7 + q) for q in range(2)]
    assert sorted(labels(s)) == ["a3 to b4", "c3 to b4", "c3 to d4", "e3 to d4", "e3 to f4",
                                 "g3 to f4", "g3 to h4"]
    steps = 0
    while not s.is_over:
        s.apply(agents[s.to_move].choose(s))
        steps += 1
        assert steps < 2_000
        on_board = [x for c in CELLS for x in on(s, c)]
        taken = s.view(0)["zones"]["taken[P1]"] + s.view(0)["zones"]["taken[P2]"]
        assert len(on_board) + len(taken) == 24  # pieces are moved and taken, never lost
    if s.winners:
        loser = 1 - s.winners[0]
        assert f"P{loser + 1} cannot move" in s.log
    else:
        assert s.log[-2] == "40 moves without a capture: the game is drawn"


def test_jumping_is_compulsory_and_takes_the_piece(game):
    s = position(game, {"c3": "P1", "a3": "P1", "d4": "P2", "h8": "P2"})
    assert labels(s) == ["c3 to e5"]  # a1 could step, but the jump must be made
    s.apply("c3 to e5")
    assert on(s, "d4") == [] and on(s, "e5") == ["P1 man"]
    assert s.view(1)["zones"]["taken[P1]"] == ["P2 man"]
    assert "P1 takes P2 man on d4" in s.story(1)
    assert s.to_move == 1


def test_a_jump_goes_on_while_the_piece_can_jump(game):
    s = position(game, {"c3": "P1", "d4": "P2", "f6": "P2", "a7": "P2"})
    s.apply("c3 to e5")
    assert s.to_move == 0 and labels(s) == ["e5 to g7"]
    assert s.question() == "P1, jump on from e5"
    s.apply("e5 to g7")
    assert s.to_move == 1 and len(s.view(0)["zones"]["taken[P1]"]) == 2


def test_a_man_on_the_far_row_is_crowned_and_a_king_moves_back(game):
    s = position(game, {"c7": "P1", "h8": "P2"})
    s.apply("c7 to b8")
    assert on(s, "b8") == ["P1 king"] and "P1 king is crowned on b8" in s.log
    s.apply("h8 to g7")
    assert sorted(labels(s)) == ["b8 to a7", "b8 to c7"]  # a king goes back down the board
    crowned = position(game, {"e5": "P1", "a1": "P2"}, kings=["e5"])
    assert on(crowned, "e5") == ["P1 king"]
    assert sorted(labels(crowned)) == ["e5 to d4", "e5 to d6", "e5 to f4", "e5 to f6"]


def test_a_crowned_man_stops_jumping(game):
    # jumping onto the far row crowns the man and ends the move; a king jumps on
    s = position(game, {"b6": "P1", "c7": "P2", "e7": "P2", "h2": "P2"})
    s.apply("b6 to d8")
    assert on(s, "d8") == ["P1 king"] and s.to_move == 1
    s = position(game, {"b6": "P1", "c7": "P2", "e7": "P2", "h2": "P2"}, kings=["b6"])
    s.apply("b6 to d8")
    assert s.to_move == 0 and labels(s) == ["d8 to f6"]


def test_a_player_who_cannot_move_loses(game):
    s = position(game, {"c3": "P1", "d4": "P2"})
    s.apply("c3 to e5")  # P2 has nothing left
    assert s.is_over and s.winners == [0] and "P2 cannot move" in s.log


def test_quiet_play_is_drawn(game):
    s = position(game, {"a1": "P1", "h8": "P2"}, kings=["a1", "h8"], quiet=39)
    s.apply("a1 to b2")
    assert s.is_over and s.winners == []
    assert "40 moves without a capture: the game is drawn" in s.log
