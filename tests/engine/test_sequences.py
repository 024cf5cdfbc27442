"""Rules over whole sequences of moves (rules/sequences.rules, not a bundled game):
`sequence most KEY { ... }` and `sequence longest { ... }` open, at each decision inside,
only the options that begin a best sequence. Checked against a brute force written here
over random games, on both engines (closures and generated code), and for what a trial
may not do: draw at random, reach another player's decision, pass the work budget."""

import random
from functools import lru_cache
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.lang.errors import RuntimeRulesError

from _golden import loaded_by

GAME = Path(__file__).resolve().parent / "rules" / "sequences.rules"
MOST_SUM, MOST_TOKENS, MOST_SUM_UP_TO_6 = 0, 1, 2
LIMIT = 6  # the most a turn may hold


def loaded(goal: int, engine: str):
    return loaded_by(GAME, {"goal": goal}, engine, 2)


def labels(state) -> list:
    return [a.label for a in state.legal_actions()]


# ------------------------------------------------------------------ the reference
def _steps(total: int, pool: frozenset) -> list:
    """The options of one decision: each token that fits (its value), and 0 for stop."""
    return [v for v in sorted(pool) if total + v <= LIMIT] + [0]


@lru_cache(maxsize=None)
def _best(goal: int, total: int, pool: frozenset, taken: int):
    """The best a turn reaches from here, `taken` decisions made: its sum or its length."""
    return max(_after(goal, total, pool, taken, v) for v in _steps(total, pool))


def _after(goal: int, total: int, pool: frozenset, taken: int, v: int):
    if v == 0 or len(pool) == 1:  # stop, or the last token: the turn ends
        return total + v if goal == MOST_SUM else taken + 1
    return _best(goal, total + v, pool - {v}, taken + 1)


def reference_options(goal: int, total: int, pool: frozenset) -> list:
    values = {v: _after(goal, total, pool, 0, v) for v in _steps(total, pool)}
    best = max(values.values())
    return sorted(f"t{v}" if v else "stop" for v, x in values.items() if x == best)


def reference_goal(goal: int) -> int:
    return MOST_SUM if goal == MOST_SUM_UP_TO_6 else goal


# ------------------------------------------------------------------ tests
@pytest.mark.parametrize("engine", ["closures", "generated"])
@pytest.mark.parametrize("goal", [MOST_SUM, MOST_SUM_UP_TO_6])
def test_the_most_of_a_sum_leaves_no_stop_while_more_fits(engine, goal):
    s = loaded(goal, engine).new_game(2, 1)
    assert labels(s) == ["t1", "t2", "t3", "t5", "t4", "t6"]  # each reaches 6; stop does not
    s.apply("t5")
    assert labels(s) == ["t1"]       # 5 + 1: stop would leave 5
    s.apply("t1")
    assert labels(s) == ["stop"]     # nothing fits in 6
    s.apply("stop")
    assert s.to_move == 1 and s.var("total", 0) == 6


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_the_longest_sequence_takes_the_most_tokens(engine):
    s = loaded(MOST_TOKENS, engine).new_game(2, 1)
    assert labels(s) == ["t1", "t2", "t3"]  # 1 + 2 + 3: three tokens, then stop
    s.apply("t1")
    assert labels(s) == ["t2", "t3"]        # t4 would leave room for nothing
    s.apply("t3")
    assert labels(s) == ["t2"]


@pytest.mark.parametrize("goal", [MOST_SUM, MOST_TOKENS, MOST_SUM_UP_TO_6])
def test_options_match_a_brute_force_over_random_games_on_both_engines(goal):
    engines = {e: loaded(goal, e) for e in ("closures", "generated")}
    for seed in range(25):
        rng = random.Random(seed)
        states = {e: g.new_game(2, seed) for e, g in engines.items()}
        total = 0
        while not states["closures"].is_over:
            s = states["closures"]
            pool = frozenset(int(x[1:]) for x in s.zone("pool"))
            expected = reference_options(reference_goal(goal), total, pool)
            for e, st in states.items():
                assert sorted(labels(st)) == expected, (goal, seed, e, s.history)
            choice = rng.choice(expected)
            seat = s.to_move
            for st in states.values():
                st.apply(choice)
            total = 0 if states["closures"].to_move != seat else \
                total + (int(choice[1:]) if choice != "stop" else 0)
        assert states["closures"].history == states["generated"].history


def test_a_decision_inside_a_sequence_restores_and_is_sampled_alike():
    s = loaded(MOST_SUM, "generated").new_game(2, 3)
    s.apply("t5")
    again = rulesdsl.restore(s.game, s.to_json())
    assert labels(again) == labels(s) == ["t1"]
    for k in range(3):
        assert labels(s.determinize(0, k)) == ["t1"]
    assert labels(s.clone()) == ["t1"]


RANDOM_INSIDE = """
game "Trial"
players 2
zone pile public
kind chip
deck pile { 3 x chip }
flow main
phase main {
  sequence longest {
    ask seat(0) "go on?" {
      "go" { %s }
      "stop" { }
    }
  }
}
phase mix { shuffle pile }
phase other { ask seat(1) "and you?" { "yes" { } "no" { } } }
"""


@pytest.mark.parametrize("body,message", [
    ("mix", "drew a random number"),
    ("other", "reached a decision of P2's"),
])
def test_a_trial_that_draws_or_reaches_another_player_is_an_error(tmp_path, body, message):
    path = tmp_path / "trial.rules"
    path.write_text(RANDOM_INSIDE % body)
    game = rulesdsl.load(str(path))
    with pytest.raises(RuntimeRulesError) as e:
        game.new_game(2, 1)
    assert e.value.code == "R033" and message in str(e.value)
    assert e.value.span is not None and e.value.span.line == 9  # the sequence


ENDLESS = """
game "Endless"
players 2
flow main
phase main {
  sequence longest {
    repeat {
      ask seat(0) "again?" { "a" { } "b" { } "stop" { break } }
    } until false
  }
}
"""


def test_a_sequence_without_end_stops_at_the_work_budget(tmp_path, monkeypatch):
    path = tmp_path / "endless.rules"
    path.write_text(ENDLESS)
    monkeypatch.setenv("RULESDSL_LIMITS", "work=100")  # below the 200 decisions of one path
    game = rulesdsl.load(str(path))
    with pytest.raises(RuntimeRulesError) as e:
        game.new_game(2, 1)
    assert e.value.code == "R005"


def test_a_sequence_without_end_stops_past_200_decisions(tmp_path):
    path = tmp_path / "endless.rules"
    path.write_text(ENDLESS.replace('"a" { } "b" { } ', '"a" { } '))  # one path: no blow-up
    with pytest.raises(RuntimeRulesError) as e:
        rulesdsl.load(str(path)).new_game(2, 1)
    assert e.value.code == "R033" and "past 200 decisions" in str(e.value)


PAST_THE_BOUND = """
game "Bound"
players 2
flow main
phase main {
  let n = 0
  sequence most n up to 1 {
    ask seat(0) "one?" { "one" { set n += 1 } "none" { } }
    ask seat(0) "two?" { "two" { set n += 1 } "none" { } }
  }
}
"""


def test_a_bound_that_a_way_of_playing_passes_is_an_error(tmp_path):
    path = tmp_path / "bound.rules"
    path.write_text(PAST_THE_BOUND)
    with pytest.raises(RuntimeRulesError) as e:
        rulesdsl.load(str(path)).new_game(2, 1)
    assert e.value.code == "R033" and "more than the 1 it can make at most" in str(e.value)


def test_a_bound_spares_the_trials_a_full_search_makes():
    def tried(goal):
        s = loaded(goal, "generated").new_game(2, 1)
        budget = s.prog.budget
        budget.refill()
        s.pending = None  # the first decision's options again, counting the trials
        s.options()
        return budget.work_limit - budget.work
    assert tried(MOST_SUM_UP_TO_6) * 2 < tried(MOST_SUM)  # work: the moves tried, and more


KEY_READ_TWICE = """
game "Key"
players 2
define worth(n: int) = sum(k for k in 1..n * 10)
flow main
phase main {
  let n = 0
  sequence most KEY {
    while n < 2 {
      ask seat(0) "more?" { "one" { set n += 1 } "two" { set n += 2 } }
    }
  }
}
"""


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_key_works_out_each_definition_once_per_arguments(engine, tmp_path):
    # the position stands still while KEY is read: a definition it asks twice is worked
    # out once (what the rest of the work budget spends on it tells)
    def work(key):
        path = tmp_path / "key.rules"
        path.write_text(KEY_READ_TWICE.replace("KEY", key))
        s = loaded_by(path, {}, engine, 2).new_game(2, 1)
        budget = s.prog.budget
        budget.refill()
        s.pending = None  # the first decision's options again, counting the trials
        assert labels(s) == ["one"]  # one then two makes 3
        return budget.work_limit - budget.work
    assert work("worth(n) + worth(n)") == work("worth(n) * 2")


def _trials_while(monkeypatch, act) -> int:
    """How many moves are tried on copies of the game while `act` runs."""
    from rulesdsl.engine.state import State
    made = []
    copy = State.trial_copy
    monkeypatch.setattr(State, "trial_copy", lambda st: made.append(1) or copy(st))
    act()
    monkeypatch.undo()
    return len(made)


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_move_the_search_tried_is_taken_on_not_run_again(engine, monkeypatch):
    # the longest sequence is searched to every end at the first decision: after a move
    # it kept, the next decision's options were all tried already
    s = loaded(MOST_TOKENS, engine).new_game(2, 1)
    plain = s.clone()
    assert _trials_while(monkeypatch, lambda: s.apply("t1")) == 0
    plain.searched = None  # the same move run as the rules run it
    plain.apply("t1")
    assert labels(s) == labels(plain) == ["t2", "t3"]
    assert s.to_json() == plain.to_json() and s.log == plain.log


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_clone_reaching_a_searched_position_tries_nothing_again(engine, monkeypatch):
    root = loaded(MOST_SUM_UP_TO_6, engine).new_game(2, 1)
    first, second = root.clone(), root.clone()
    # with a bound the first decision stops at the first way to 6: t5 leaves t1 untried
    assert _trials_while(monkeypatch, lambda: first.apply("t5")) > 0
    assert _trials_while(monkeypatch, lambda: second.apply("t5")) == 0  # found by first
    assert labels(first) == labels(second) == ["t1"]


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_clone_whose_cards_were_changed_takes_on_no_search_made_before(engine):
    # as a sample of hidden cards does: the clone's pool is not the one searched
    s = loaded(MOST_TOKENS, engine).new_game(2, 1)
    changed, plain = s.clone(), s.clone()
    plain.searched = None
    for st in (changed, plain):
        t6 = st.prog.card_label.index("t6")
        st.zones[st.loc[t6]].remove(t6)
        taken = st._zone_index("taken", 1)
        st.zones[taken].append(t6)
        st.loc[t6] = taken
        st.apply("t1")
    assert changed.to_json() == plain.to_json() and labels(changed) == labels(plain)


def test_a_trial_under_a_bound_lists_the_next_options_up_to_the_first(monkeypatch):
    # generated code: a decision's options up to the first while a trial under `up to`
    # runs (its first option mostly reaches the bound), all of them in play
    s = loaded(MOST_SUM_UP_TO_6, "generated").new_game(2, 1)
    ask = next(ins for proc in s.prog.procs for ins in proc.code
               if getattr(ins, "first", None) is not None)
    listed = {"every": 0, "first": 0}
    names = ask.fast.__globals__  # what the generated procedures call
    for name, f in list(names.items()):
        for kind, made in (("every", ask.fast), ("first", ask.first)):
            if f is made:
                monkeypatch.setitem(names, name, lambda st, L, f=f, kind=kind: (
                    listed.__setitem__(kind, listed[kind] + 1) or f(st, L)))
    s.pending = None  # the first decision's trials again
    assert labels(s) == ["t1", "t2", "t3", "t5", "t4", "t6"]
    assert listed["first"] > 0 and listed["every"] == 0
    s.apply("t5")  # taken on from its trial: its options listed in full
    assert labels(s) == ["t1"] and listed["every"] == 0


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_clones_that_take_on_the_same_moves_keep_their_games_apart(engine):
    root = loaded(MOST_SUM_UP_TO_6, engine).new_game(2, 1)
    first, second, plain = root.clone(), root.clone(), root.clone()
    plain.searched = None
    for st in (first, second, plain):
        for label in ("t5", "t1", "stop"):
            st.apply(label)
        if st is first:  # plays on, the move run in its lists: the others' stay apart
            st.searched = None
            st.apply(labels(st)[0])
    assert second.to_json() == plain.to_json() != first.to_json()
