"""Phases that give a value (phase_result.rules, not a bundled game): `return (VALUE)` in a
phase that declares its type, taken whole by `let` or `set`."""

from pathlib import Path

import rulesdsl

GAME = Path(__file__).resolve().parent / "phase_result.rules"


def test_the_file_checks():
    assert rulesdsl.check_file(GAME) == []


def test_the_value_a_phase_gives_is_taken_by_let_and_set():
    s = rulesdsl.load(GAME).new_game(3, 1)
    s.apply("3")                        # pick gives 3
    assert s.question() == "P2, challenge P1's claim of 3?"
    s.apply("challenge")                # challenged gives true: the claim falls
    assert "P1's claim of 3 falls" in s.log and s.var("coins", 0) == 0
    s.apply("2")                        # P2's turn
    s.apply("decline")
    s.apply("decline")                  # nobody challenged: false, cleared at the start
    assert s.var("coins", 1) == 2


def test_a_value_given_is_not_left_over_from_an_earlier_run():
    s = rulesdsl.load(GAME).new_game(3, 1)
    for label in ("3", "challenge", "2", "decline", "decline"):
        s.apply(label)
    s.apply("1")
    s.apply("challenge")                # a claim of one stands: challenged gives false
    assert s.var("coins", 2) == 1


def test_a_game_with_phase_values_saves_and_restores():
    s = rulesdsl.load(GAME).new_game(3, 1)
    s.apply("3")
    again = rulesdsl.restore(s.game, s.to_json())
    again.apply("challenge")
    assert again.var("coins", 0) == 0
