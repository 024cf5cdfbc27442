"""`break` in an option of `ask each` ends the round of asking: "anyone may challenge; the
first who does acts" (first_taker.rules, not a bundled game)."""

from pathlib import Path

import rulesdsl

HERE = Path(__file__).resolve().parent
GAME = HERE / "first_taker.rules"


def test_the_file_checks():
    assert rulesdsl.check_file(GAME) == []


def test_the_first_challenger_ends_the_asking():
    s = rulesdsl.load(GAME).new_game(4, 1)
    assert s.to_move == 1 and s.question() == "P2, challenge P1's claim?"
    s.apply("challenge")
    # P3 and P4 are not asked: the next claim is P2's, and P3 is asked first
    assert s.to_move == 2 and s.question() == "P3, challenge P2's claim?"
    assert "P2 challenges P1" in s.log


def test_declining_asks_the_next_player():
    s = rulesdsl.load(GAME).new_game(4, 1)
    s.apply("decline")
    assert s.to_move == 2
    s.apply("challenge")
    assert s.to_move == 2 and s.question() == "P3, challenge P2's claim?"
    assert "P3 challenges P1" in s.log
