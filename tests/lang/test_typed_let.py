"""`let NAME: TYPE = value`: a local whose type is declared, so an empty list or none can
start it. Checked on its own, with a small draft game (typed_let.rules)."""

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree

HERE = Path(__file__).resolve().parent


def errors_of(text: str) -> list:
    try:
        check_file_tree(load_tree(text, "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


PROGRAM = """game "T"
players 2
kind card {{ value: int }}
zone pile public
deck pile {{ card([1, 2]) }}
flow main
phase main {{
  {body}
}}
"""


def test_a_draft_with_typed_locals_runs():
    game = rulesdsl.load(HERE / "typed_let.rules")
    s = game.new_game(2, seed=1)
    assert s.to_move == 0
    s.apply("card 5")
    assert [a.label for a in s.legal_actions()] == [
        "card 1", "card 2", "card 3", "card 4", "card 6", "stop"]
    s.apply("card 2")
    s.apply("stop")
    assert s.zone("hand[P1]") == ["card 5", "card 2"]
    assert s.var("best_value[P1]") == 5
    s.apply("card 1")
    s.apply("card 3")
    s.apply("card 6")  # the third pick ends the draft
    assert s.is_over
    assert s.zone("hand[P2]") == ["card 1", "card 3", "card 6"]
    assert s.var("best_value[P2]") == 6


def test_typed_locals_check_cleanly():
    assert errors_of(PROGRAM.format(body="let cs: list of card = []\n"
                                         "  let c: card = none\n"
                                         "  let n: int = 3\n"
                                         "  set cs = cs + [top(pile)]\n"
                                         "  set c = first(cs)\n"
                                         "  set n = c.value")) == []


def test_the_value_must_fit_the_declared_type():
    errs = errors_of(PROGRAM.format(body="let n: int = []"))
    assert [code for code, _ in errs] == ["E300"]
    assert "the value of n should be a number" in errs[0][1]


def test_an_untyped_none_still_needs_a_type():
    errs = errors_of(PROGRAM.format(body="let c = none"))
    assert [code for code, _ in errs] == ["E300"]
    assert "no type" in errs[0][1]


def test_the_declared_type_is_the_locals_type():
    # an empty list declared as cards lets fields be read from its elements
    errs = errors_of(PROGRAM.format(body="let cs: list of card = []\n"
                                         "  let v = first(cs).value\n"
                                         "  let w: list of int = cs"))
    assert [code for code, _ in errs] == ["E300"]
    assert "list of card" in errs[0][1]


def test_an_unknown_declared_type_is_reported():
    errs = errors_of(PROGRAM.format(body="let c: crad = none"))
    assert [code for code, _ in errs] == ["E205"]
