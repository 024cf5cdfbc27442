"""Loop invariants: a pure part of a `where` that no candidate changes is compiled to be
computed once per loop; a part that draws random numbers never is."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine import hoist
from rulesdsl.lang import ast

from _golden import loaded_by

HERE = Path(__file__).parent


def hoisted_parts(game, monkeypatch) -> list:
    made = []
    original = hoist.LoopContext.memoised

    def counting(self, f):
        made.append(f)
        return original(self, f)
    monkeypatch.setattr(hoist.LoopContext, "memoised", counting)
    game.program(game.min_players)
    return made


def test_a_follow_suit_test_computes_the_held_colour_once(monkeypatch):
    assert len(hoisted_parts(rulesdsl.load("triumvirat"), monkeypatch)) == 1


def test_parts_that_no_candidate_changes_are_hoisted_the_others_not(monkeypatch):
    game = rulesdsl.load(str(HERE / "rules" / "invariants.rules"))
    assert len(hoisted_parts(game, monkeypatch)) == 2  # `biggest` and `size(taken[p])`


def test_hoisted_parts_keep_their_meaning():
    game = rulesdsl.load(str(HERE / "rules" / "invariants.rules"))
    state = game.new_game(seed=1)
    assert [a.label for a in state.legal_actions()] == [f"take chip {v}" for v in (1, 3, 5, 7, 9)]
    state.apply("take chip 9")
    assert [a.label for a in state.legal_actions()] == [f"take chip {v}" for v in (1, 3, 5, 7, 8)]
    state.apply("take chip 8")
    state.apply("take chip 1")
    state.apply("take chip 7")  # P1 has two chips now: only the biggest is open to them
    assert [a.label for a in state.legal_actions()] == ["take chip 6"]


def test_a_random_draw_is_never_pure():
    game = rulesdsl.load(str(HERE / "rules" / "invariants.rules"))
    draw = ast.Call(None, name="random", args=(ast.Name(None, name="pool"),))
    assert not hoist.Scanner(game.model).scan(draw)[2]


GUARDED = HERE / "rules" / "guarded_decision.rules"


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_loop_test_hands_its_definitions_to_the_decision_after_it(engine, monkeypatch):
    """`while room(p) > ... { ask p ... room(p) ... }`: room's 6,000 units of work are
    spent once, not once by the test and again by the options (12,000 would pass 9,000)."""
    monkeypatch.setenv("RULESDSL_LIMITS", "work=9000")
    state = loaded_by(GUARDED, {}, engine, 2).new_game(seed=1)
    assert [a.label for a in state.legal_actions()] == ["take 1", "take 2"]


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_failed_loop_test_leaves_no_memo_to_the_rules_after_it(engine):
    """The test fails, the rules change what room reads, and the next decision reads it
    anew: 1,998 left, not the 2,998 the test saw."""
    state = loaded_by(GUARDED, {}, engine, 2).new_game(seed=1)
    state.apply("take 2")
    assert [a.label for a in state.legal_actions()] == ["done, 1998 left"]


CALLED = HERE / "rules" / "guarded_call.rules"


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_loop_test_hands_its_definitions_through_a_call_to_the_decision(engine, monkeypatch):
    """`while room(p) > ... { take(p) }`, take beginning with its decision: room's 6,000
    units of work are spent once, not by the test and again by the options (12,000 would
    pass 9,000). Called first with no test before it, the decision memoises its options
    itself (room asked for twice, computed once)."""
    monkeypatch.setenv("RULESDSL_LIMITS", "work=9000")
    state = loaded_by(CALLED, {}, engine, 2).new_game(seed=1)
    assert [a.label for a in state.legal_actions()] == ["take 1", "take 2"]  # no test
    state.apply("take 1")
    assert [a.label for a in state.legal_actions()] == ["take 1"]  # the test's memo


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_failed_test_before_a_call_leaves_no_memo_to_the_rules_after_it(engine):
    """The test fails, the rules change what room reads, the next decision reads it anew."""
    state = loaded_by(CALLED, {}, engine, 2).new_game(seed=1)
    state.apply("take 2")
    assert [a.label for a in state.legal_actions()] == ["done, 1998 left"]
    state.apply("done, 1998 left")
    assert [a.label for a in state.legal_actions()] == ["take 1", "take 2"]
