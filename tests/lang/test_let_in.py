"""`let x = value in body` inside expressions and definitions, and numbers that may be
`none`. Checked on its own, with a small game (let_in.rules)."""

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed, RulesError
from rulesdsl.lang.extend import load_tree

HERE = Path(__file__).resolve().parent

PROGRAM = """game "T"
players 2
kind card {{ value: int }}
zone pile public
deck pile {{ card([1, 2]) }}
var n: int = none
{decls}
flow main
phase main {{
  {body}
}}
"""


def errors_of(decls: str = "", body: str = "win seat(0)") -> list:
    try:
        check_file_tree(load_tree(PROGRAM.format(decls=decls, body=body), "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


def test_the_example_checks_and_runs():
    assert rulesdsl.check_file(HERE / "let_in.rules") == []
    s = rulesdsl.load(HERE / "let_in.rules").new_game(2, seed=1)
    assert s.var("best") is None  # a number that is not known yet
    s.apply("5")
    assert s.log[-2] == "P1 shows 5; the gap above it is 4; the spread is 7"
    assert s.var("best") == 5
    s.apply("9")  # nothing above 9: the gap is none
    assert "the gap above it is none" in s.log[-3]
    assert s.is_over and s.winners == [1] and s.var("best") == 9


def test_a_local_of_the_body_only():
    assert errors_of("define f(x: int) = let y = x * 2 in y + 1\n"
                     "define g = let y = 3 in y",
                     "if f(1) == g and (let k = n in k == none) { win seat(0) }") == []
    errs = errors_of("define f(x: int) = (let y = x * 2 in y) + y")
    assert [code for code, _ in errs] == ["E200"] and "unknown name 'y'" in errs[0][1]


def test_the_body_takes_the_values_type():
    errs = errors_of("define f = let c = top(pile) in c + 1")
    assert [code for code, _ in errs] == ["E300"] and "a card" in errs[0][1]
    errs = errors_of("define f = let c = none in c")
    assert [code for code, _ in errs] == ["E300"] and "no type" in errs[0][1]


def test_a_let_name_may_not_hide_another():
    errs = errors_of("define f(x: int) = let x = 2 in x")
    assert [code for code, _ in errs] == ["E502"] and "already a local" in errs[0][1]
    errs = errors_of("define f = let pile = 2 in pile")
    assert [code for code, _ in errs] == ["E502"] and "hide the zone" in errs[0][1]


def test_numbers_may_be_none_but_arithmetic_on_none_is_an_error():
    assert errors_of(body="let k: int = none\n  set n = k\n  if n == none { win seat(0) }") == []
    path = HERE / "_none_sum.rules"
    path.write_text(PROGRAM.format(decls="", body="set n = n + 1\n  win seat(0)"))
    try:
        with pytest.raises(RulesError) as e:
            rulesdsl.load(path).new_game(2)
        assert e.value.code == "R013" and "none" in e.value.message
    finally:
        path.unlink()


def test_formatting_keeps_a_break_after_in():
    from rulesdsl.lang.fmt import format_source
    text = (HERE / "let_in.rules").read_text()
    out = format_source(text)
    assert "define spread(p: player) = let hi = max(c.value for c in hand[p]) in\n" in out
    assert format_source(out) == out
