"""Words that read a secret are read by its owner only: a `log` line, a move's `as` words
and a question that read a private variable or a private hand show the value to the seat
it belongs to and "?" (or "a card") to the others, in the view, the story, the runner's
`log` and the question; the omniscient log keeps the full words. A save keeps them so."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.play.runner import Runner, log_lines

GAME = Path(__file__).resolve().parent / "secret_words.rules"


@pytest.fixture(params=["generated", "closures"])
def game(request, monkeypatch):
    monkeypatch.setenv("RULESDSL_ENGINE", request.param)
    return rulesdsl.load(str(GAME))


def played(game, players=2):
    state = game.new_game(players=players, seed=1)
    state.apply("go on")
    state.apply("take")
    return state


def test_a_log_line_shows_a_private_variable_to_its_owner_only(game):
    state = played(game)
    assert "P1's secret is 42" in state.view(0)["log"]
    assert "P1's secret is ?" in state.view(1)["log"]
    assert "P1's secret is 42" not in state.view(1)["log"]
    assert "P1's secret is ?" in state.story(1) and "P1's secret is 42" in state.story(0)
    assert "P1's secret is 42" in state.log            # the omniscient log: everything


def test_a_log_line_shows_a_private_hand_to_its_owner_only(game):
    state = played(game)
    held = state.zone("table")[1]                      # what P2 held, shown at the end
    assert f"P2 holds {held}; the pile has 7 cards" in state.story(1)
    assert "P2 holds a card; the pile has 7 cards" in state.story(0)


def test_a_moves_words_show_a_private_variable_to_its_owner_only(game):
    state = played(game)
    assert "P2 takes a card; P1's secret is ?" in state.story(1)
    assert "P2 takes a card; P1's secret is 42" in state.story(0)
    # the moved card still shows by the move's places; the secret by its owner
    p1_card, p2_card = state.zone("table")
    assert f"P1 shows {p1_card}, secret 42" in state.story(0)
    assert f"P1 shows {p1_card}, secret ?" in state.story(1)
    assert f"P2 shows {p2_card}, secret 7" in state.story(1)
    assert f"P2 shows {p2_card}, secret ?" in state.story(0)


def test_a_secret_of_several_players_is_read_by_none(game):
    state = played(game)
    for seat in (0, 1):
        assert "the secrets add up to ?" in state.story(seat)
    assert "the secrets add up to 49" in state.log


def test_a_question_shows_the_asked_player_only_its_own_secret(game):
    state = game.new_game(players=3, seed=1)
    assert state.question() == "P1, P2's secret is ?: go on?"
    state.apply("go on")
    assert state.question() == "P2, your secret is 7: take a card?"


def test_the_runner_and_a_save_show_each_seat_its_own(game):
    state = played(game, players=3)
    runner = Runner(state, ["human"] * 3, out=io.StringIO(), plain=True, game=game)
    assert "P1's secret is ?" in log_lines(runner.state, 2)
    assert "P1's secret is 42" in log_lines(runner.state, 0)
    restored = rulesdsl.restore(game, state.to_json())
    for seat in range(3):
        assert restored.story(seat) == state.story(seat)
        assert restored.view(seat)["log"] == state.view(seat)["log"]


FACING_OUT = '''game "Facing out"
players 3
kind card { value: int  label "card {value}" }
deck pile { card(1..9) }
zone pile hidden
zone hand per player others
setup { deal 1 from pile to hand }
flow main
phase main {
  log "{seat(1)} holds {top(hand[seat(1)])}, worth {top(hand[seat(1)]).value}"
  win [seat(0)]
}
'''


def test_a_hole_reading_a_hand_everyone_but_its_owner_sees_is_read_by_those_who_see_it(
        tmp_path, monkeypatch):
    """`others`: every seat but the owner sees the hand, so every seat but the owner reads
    the hole, and the checker has nothing to warn of (the owner reads "a card" and "?")."""
    path = tmp_path / "facing_out.rules"
    path.write_text(FACING_OUT)
    for engine in ("generated", "closures"):
        monkeypatch.setenv("RULESDSL_ENGINE", engine)
        game = rulesdsl.load(str(path))
        assert not [w for w in game.warnings if w.code == "W707"]
        state = game.new_game(seed=1)
        held = state.zone("hand", 1)[0]
        worth = held.split()[-1]
        assert f"P2 holds {held}, worth {worth}" in state.story(0)
        assert f"P2 holds {held}, worth {worth}" in state.story(2)
        assert "P2 holds a card, worth ?" in state.story(1)
