"""Definitions whose value is fixed by their arguments, remembered for the program's life
(rulesdsl/engine/runtime/fixed.py): which are (lang/reads.py fixed_by_arguments), and that
a remembered answer is what computing it gives, at the same cost, failing where it fails."""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl.engine.budget import Budget
from rulesdsl.engine.runtime.fixed import remembered
from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.lang.reads import fixed_by_arguments, visits_lists

RULES = """
game "Fixed"
players 2

enum Colour { red, green, blue }
option bonus: 0..3 = 0 "points added"

var points: int per player = 0
zone pile public

define low(colours: int) = [c in Colour where c != red and colours > 0]
define pair(a: int, b: int) = sum(k for k in a..b)
define scored(p: player) = [q in players where points[q] > points[p]]
define held(p: player) = size(pile)
define with_bonus(n: int) = [k in 1..n where k > bonus]
define down(n: int) = if n <= 0 then [0] else down(n - 1)
define nested(n: int) = [[k] for k in 1..n]
define small(n: int) = n + 1

flow main

phase main {
  turns p from seat(0) until points[seat(1)] >= 3 {
    ask p "{p}, how many?" {
      n in 1..2 where size(low(n)) == 2 and pair(n, 3) > 0 { set points[p] += n }
    }
  }
}
"""


@pytest.fixture()
def game(tmp_path):
    (tmp_path / "fixed.rules").write_text(RULES)
    return rulesdsl.load(str(tmp_path / "fixed.rules"))


def test_a_definition_is_fixed_by_its_arguments_only_where_it_reads_nothing_of_a_game(game):
    m = game.model
    fixed = {name for name in m.defines if fixed_by_arguments(name, m)}
    assert {"low", "pair", "small"} <= fixed
    # a variable, a zone, an option, a call of itself, lists in a list (the checker keeps
    # random draws out of definitions: E606)
    assert not fixed & {"scored", "held", "with_bonus", "down", "nested"}
    # remembered only where that saves something: a list gone through
    assert [n for n in sorted(fixed) if visits_lists(n, m)] == ["low", "pair"]


class _Spends:
    """A definition's generated function, as far as `remembered` sees one: it spends a
    unit per item it makes, through the budget, failing where the budget runs out."""

    def __init__(self, budget: Budget):
        self.budget, self.calls = budget, 0

    def __call__(self, st, L):
        self.calls += 1
        out = []
        for k in range(L[0]):
            self.budget.spend(1, f"item {k}")
            out.append(k)
        return out


def test_a_remembered_answer_is_computed_once_and_costs_what_computing_it_did():
    budget = Budget()
    define = _Spends(budget)
    call = remembered(define, 1, budget)
    budget.refill()
    first = call(None, [5, None])
    spent = budget.work_limit - budget.work
    budget.refill()
    again = call(None, [5, None])
    assert first == again == [0, 1, 2, 3, 4] and define.calls == 1
    assert budget.work_limit - budget.work == spent == 5
    again.append("changed")  # a list answer is the caller's own
    assert call(None, [5, None]) == [0, 1, 2, 3, 4]
    assert call(None, [2, None]) == [0, 1] and define.calls == 2


def test_with_less_work_left_than_it_cost_it_is_computed_and_fails_where_it_always_did():
    budget = Budget()
    define = _Spends(budget)
    call = remembered(define, 1, budget)
    call(None, [5, None])
    budget.work = 3
    with pytest.raises(RuntimeRulesError) as failed:
        call(None, [5, None])
    assert failed.value.span == "item 3" and define.calls == 2


def test_list_arguments_are_never_keys():
    budget = Budget()
    seen = []
    call = remembered(lambda st, L: seen.append(L[0]) or len(L[0]), 1, budget)
    assert call(None, [[1, 2], None]) == call(None, [[1, 2], None]) == 2
    assert len(seen) == 2


def test_a_game_plays_the_same_with_its_fixed_definitions_remembered(tmp_path, monkeypatch):
    import rulesdsl.engine.compile.functions as functions
    (tmp_path / "fixed.rules").write_text(RULES)
    made: list = []

    def counted(define, nparams, budget):
        call = remembered(define, nparams, budget)
        made.append(nparams)
        return lambda st, L: made.append("called") or call(st, L)

    def play():
        state = rulesdsl.load(str(tmp_path / "fixed.rules")).new_game(seed=3)
        rng = random.Random(4)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        return list(state.log), state.scores

    monkeypatch.setenv("RULESDSL_CACHE", "off")
    monkeypatch.setattr(functions, "remembered", counted)
    kept = play()
    assert sorted(x for x in made if x != "called") == [1, 2] and "called" in made  # low, pair
    monkeypatch.setattr(functions, "fixed_by_arguments", lambda name, m: False)
    made.clear()
    assert play() == kept and not made
