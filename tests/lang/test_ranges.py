"""Ranges that count down: `a..b step k` with a negative k goes from a down to b, in every
back end (closures, generated code), the adapters' action ids and the checks of a range's
elements as keys; a step of 0, or written bounds a written step goes away from, are E601;
written bounds that count down with no step (always empty) are W709."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.engine.compile.generate import annotate
from rulesdsl.integrations.encoding import ActionSpace
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed, RulesError
from rulesdsl.lang.extend import load_tree

ENGINES = ("closures", "generated")

PROGRAM = """game "T"
players 2
enum Suit {{ clubs, hearts, spades }}
var xs: list of int = []
var n: int = 0
var score: int per player per Suit = 0
define at(p: player, k: int) = score[p, Suit[k]]
flow main
phase main {{
  {body}
  win seat(0)
}}
"""


def load(tmp_path, monkeypatch, body: str, engine: str):
    monkeypatch.setenv("RULESDSL_ENGINE", engine)
    path = tmp_path / engine / "game.rules"
    path.parent.mkdir(exist_ok=True)
    path.write_text(PROGRAM.format(body=body))
    return rulesdsl.load(path)


def ran(tmp_path, monkeypatch, body: str, engine: str):
    """xs and n after `body`, or the error's code."""
    try:
        state = load(tmp_path, monkeypatch, body, engine).new_game(seed=1)
    except RulesError as e:
        return e.code
    return state.var("xs"), state.var("n")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("body, expected", [
    ("for k in 5..1 step -1 { set xs = xs + [k] }", ([5, 4, 3, 2, 1], 0)),
    ("for k in 9..1 step -3 { set xs = xs + [k] }", ([9, 6, 3], 0)),
    ("set xs = [k * 10 for k in 3..0 step -1]", ([30, 20, 10, 0], 0)),
    ("set n = first(k in 24..1 step -1 where k % 7 == 0)", ([], 21)),
    ("set n = 4\n  set xs = n..1 step -1", ([4, 3, 2, 1], 4)),  # made in play
    ("set xs = n..1 step -1", ([], 0)),  # 0..1 counting down: empty
    ("set n = 2\n  set xs = 1..3 step n - 3", ([], 2)),  # bounds a step goes away from
    ("set xs = 1..3 step n", "R016"),  # a step of 0, made in play
    ("set n = 3\n  set xs = 3..1 step 0 - n", ([3], 3)),
    ("set n = if 2 is in 3..1 step -1 and 5 is in 6..4 step -1 then 1 else 0", ([], 1)),
])
def test_a_negative_step_counts_down_on_both_engines(tmp_path, monkeypatch, engine, body,
                                                     expected):
    assert ran(tmp_path, monkeypatch, body, engine) == expected


READS = "set score[seat(1), spades] = 7\n  " \
        "set n = count(k in RANGE where at(seat(1), k) > 0) + " \
        "count(k in RANGE where score[seat(1), Suit[k]] > 5)"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("within, expected", [("2..0 step -1", 2), ("2..1 step -1", 2),
                                              ("3..0 step -1", "R014")])
def test_a_descending_ranges_element_as_a_key_fails_only_outside(
        tmp_path, monkeypatch, engine, within, expected):
    """An element of a range counting down lies between its bounds too: within the enum's
    3 values it needs no check, past them it fails (R014), read directly or by `at`."""
    got = ran(tmp_path, monkeypatch, READS.replace("RANGE", within), engine)
    assert (got if isinstance(got, str) else got[1]) == expected


@pytest.mark.parametrize("within, checked", [("2..0 step -1", False), ("3..0 step -1", True)])
def test_a_descending_ranges_element_within_a_table_is_not_checked(tmp_path, monkeypatch,
                                                                   within, checked):
    game = load(tmp_path, monkeypatch, READS.replace("RANGE", within), "generated")
    listing = annotate(game.program(2), game.sources)
    assert (listing.count("_bad_item(") > 1) == checked, listing  # `at`'s own: one


@pytest.mark.parametrize("engine", ENGINES)
def test_a_choice_over_a_descending_range_has_an_id_per_number_in_order(tmp_path,
                                                                        monkeypatch, engine):
    game = load(tmp_path, monkeypatch, 'ask seat(0) "how many?" {\n'
                '    "take {k}" for k in 3..1 step -1 { set n = k }\n  }', engine)
    actions = ActionSpace(game.program(2), model=game.model)
    assert [actions.describe(i) for i in range(len(actions.by_id))] == \
        ["main: choice 1 3", "main: choice 1 2", "main: choice 1 1"]
    state = game.new_game(seed=1)
    assert actions.legal(state) == {0: "take 3", 1: "take 2", 2: "take 1"}
    state.apply("take 2")
    assert state.var("n") == 2


def checked(body: str) -> tuple:
    """(errors, warnings) of `body`, each as (code, message, hints); not W700 (a name the
    body does not use)."""
    def said(found):
        return [(e.code, e.message, list(e.hints)) for e in found if e.code != "W700"]
    try:
        _, warnings = check_file_tree(load_tree(PROGRAM.format(body=body), "t.rules", {}), {})
    except CheckFailed as e:
        return said(e.errors), said(e.warnings)
    return [], said(warnings)


def test_a_written_step_of_zero_is_an_error_with_the_ways_to_count():
    errors, _ = checked("set xs = 1..5 step 0")
    assert [(code, message) for code, message, _ in errors] == [
        ("E601", "a range's step is 0: it would never reach its end")]
    assert "9..1 step -1" in errors[0][2][0]


@pytest.mark.parametrize("body, message, hint", [
    ("set xs = 1..5 step -1", "the range 1..5 step -1 is empty: it counts down from 1, "
     "away from 5", "count up with a positive step: 1..5 step 1"),
    ("set xs = 5..1 step 2", "the range 5..1 step 2 is empty: it counts up from 5, away "
     "from 1", "count down with a negative step: 5..1 step -2"),
])
def test_written_bounds_a_written_step_goes_away_from_are_an_error(body, message, hint):
    errors, _ = checked(body)
    assert errors == [("E601", message, [hint])]


def test_written_bounds_that_count_down_without_a_step_warn_with_the_step():
    errors, warnings = checked("for k in 5..1 { set xs = xs + [k] }")
    assert errors == [] and warnings == [
        ("W709", "the range 5..1 is empty: a range counts up unless its step is negative",
         ["count down with a step: 5..1 step -1"])]


@pytest.mark.parametrize("body", [
    "set xs = 1..5", "set xs = 5..1 step -1", "set xs = 3..3", "set xs = 3..3 step -1",
    "set xs = n..1", "set xs = 5..n", "set xs = 1..5 step n", "set xs = n..1 step -1",
    "set xs = 0 - 1..0 - 5 step -2",
])
def test_ranges_that_may_hold_numbers_check_quietly(body):
    assert checked(body) == ([], [])
