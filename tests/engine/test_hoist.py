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


# ---------------------------------------------------------------- a test written as statements
class CountingMemo(dict):
    """A decision's memo that counts the reads of each definition's value."""

    def __init__(self):
        super().__init__()
        self.reads: dict = {}

    def get(self, key, default=None):
        name = key[0] if isinstance(key, tuple) else key
        self.reads[name] = self.reads.get(name, 0) + 1
        return super().get(key, default)


def following_hearts_state():
    """A Hearts deal at a player's turn to follow a trick, with several cards in hand, on
    the generated code (what the tests read) whatever RULESDSL_ENGINE says."""
    game = loaded_by("hearts", {}, "generated", 4)
    state = game.new_game(seed=3)
    while True:
        seat, options = state.options()
        if state.zone("trick") and len(options) > 1 and \
                len(state.zone("hand", seat)) > 3:
            return state, seat
        state.apply_option(seat, options[0])


def test_a_definition_written_in_an_options_loop_reads_its_invariant_call_once():
    """`c in hand[p] where may_play(p, c)`, may_play written in the loop as statements:
    `holds(p, led.suit)` within it reads only p and the trick, so it is read from the
    decision's memo once, not once per card (invariants.py)."""
    state, seat = following_hearts_state()
    fr = state.frames[-1]
    ask = state.prog.procs[fr[0]].code[fr[1]]
    assert ask.fast is not None  # generated
    state.memo = memo = CountingMemo()
    try:
        made = ask.fast(state, fr[2])
    finally:
        state.memo = None
    assert [o[0] for o in made] == [o[0] for o in state.options()[1]]
    assert memo.reads.get("holds") == 1, memo.reads


def loop_function(test: str, before: str = ""):
    """`options(st, L)` over `st.cands`, its test `test` hoisted by invariants.hoisted,
    and the lines written before its loop."""
    import ast as py

    from rulesdsl.engine.ir.invariants import hoisted
    source = (f"def options(st, L):\n    out = []\n    for x in st.cands:\n"
              f"        L[1] = x\n{before}        if not ({test}):\n            continue\n"
              f"        out.append(x)\n    return out\n")
    tree = py.parse(source)
    loop = tree.body[0].body[1]
    count = iter(range(100))
    tests = range(1, len(loop.body) - 1)
    starts, loop.body = hoisted(loop.body, tests, 1, {"x"}, lambda: f"_once{next(count)}",
                                "MISSING")
    tree.body[0].body[1:1] = starts
    text = py.unparse(py.fix_missing_locations(tree))
    parts = [py.unparse(node.value) for node in py.walk(tree)
             if isinstance(node, py.NamedExpr) and node.target.id.startswith("_once")]
    parts += [py.unparse(s.value) for s in starts  # computed before the loop
              if not (isinstance(s.value, py.Name) and s.value.id == "MISSING")]
    return text, parts


def run(text: str, cands: list, L: list, **names):
    from types import SimpleNamespace
    ns = {"MISSING": hoist.MISSING, **names}
    exec(text, ns)
    st = SimpleNamespace(cands=cands, zones=[[5, 6, 7]], memo={})
    return ns["options"](st, L)


def test_a_part_no_candidate_changes_is_computed_once_and_lazily():
    calls = []

    def define_f(st, args):
        calls.append(args)
        return args[0] + 1

    test = ("L[1] > ((define_f(st, [_a, None]) if (_m := st.memo) is None else _v if "
            "(_v := _m.get((_k := ('f', _a)), MISSING)) is not MISSING else "
            "_m.__setitem__(_k, (_v := define_f(st, [_a, None]))) or _v) "
            "if ((_a := len(st.zones[0]) + L[0]) is None or True) else None)")
    text, parts = loop_function(test)
    assert len(parts) == 1 and parts[0].startswith("(define_f(st, [_a, None]) if")
    assert run(text, [1, 2, 5, 6, 9], [1, None], define_f=define_f) == [6, 9]
    assert calls == [[4, None]]
    # computed where a candidate first needs it: a loop with no candidate never does
    assert run(text, [], [1, None], define_f=define_f) == [] and len(calls) == 1
    lazy, _ = loop_function(f"L[1] > 100 and ({test})")
    assert run(lazy, [1, 2], [1, None], define_f=define_f) == [] and len(calls) == 1


@pytest.mark.parametrize("test, kept", [
    ("(L[1] + len(st.zones[0])) * 2 > 3", "L[1]"),                # reads the candidate
    ("(len(st.zones[0]) + (_c := L[1] + 0) - _c) * 2 > 3", "_c"),  # binds from it
    ("(setattr(BUDGET, 'work', BUDGET.work - 1) or len(st.zones[0])) > 1", "BUDGET"),
    ("K7(st, L) and len(st.zones[0]) * 2 > 1", "K7"),             # hands the frame whole
    ("PLAYABLE3(st, [len(st.zones[0]) * 2, None])", "PLAYABLE3"),  # not known to be pure
])
def test_a_part_that_may_change_with_the_candidate_or_spends_work_is_kept(test, kept):
    """Each test's part around `len(st.zones[0])` is computed once; the part that holds
    `kept` is not."""
    _, parts = loop_function(test)
    assert len(parts) == 1 and "len(st.zones[0])" in parts[0] and kept not in parts[0]


def test_a_name_bound_elsewhere_otherwise_is_not_frozen():
    """`_p` is bound from the trick's size in the part, from the candidate before it:
    kept from the first candidate, the part's `_p` would be wrong for the next read."""
    text, parts = loop_function("(_p := len(st.zones[0]) + 1) > 0 and _p > 3",
                                before="        _p = L[1]\n")
    assert parts == ["len(st.zones[0]) + 1"]
    assert run(text, [1, 9], [0, None]) == [1, 9]


def test_a_loop_memo_read_is_kept_whole_or_not_at_all():
    """hoist.py's cell is missing before its first read: its whole read (the value kept
    there on a miss) is the same for every candidate, the cell read alone is not."""
    whole = ("not (_t if (_t := CELL9[0][0]) is not MISSING else "
             "CELL9[0].__setitem__(0, (_t := (len(st.zones[0]) > 2))) or _t)")
    _, parts = loop_function(f"L[1] > 1 or {whole}")
    assert parts == [whole]
    _, parts = loop_function("L[1] > 1 or (CELL9[0][0] is MISSING) is not False")
    assert parts == []


def test_a_part_cheaper_than_its_check_is_left_in_the_loop():
    """One table read of a local (The Game's card value, over four piles) costs less than
    testing a kept local for MISSING at every candidate: not hoisted. Two reads and a call
    are."""
    _, parts = loop_function("L[1] > ((_v := (VALUE[_c] if (_c := L[0]) is not None "
                             "else _none_field('value', 3))) is None or _v)")
    assert parts == []
    _, parts = loop_function("L[1] > len(st.zones[0]) + VALUE[L[0]]")
    assert parts == ["len(st.zones[0]) + VALUE[L[0]]"]


def test_a_part_that_can_neither_fail_nor_change_anything_is_computed_before_the_loop():
    """Hearts' `size(trick) == 0` in may_play, written in the options loop: it reads only the
    state, can neither fail nor change anything, so it is computed before the loop and read
    as a plain local per candidate (no MISSING test); a part that may fail (a field of a
    card that may be none) stays lazy, computed where a candidate first needs it."""
    text, parts = loop_function("L[1] > 2 if len(st.zones[0]) == 0 else L[1] < 2")
    assert parts == ["len(st.zones[0]) == 0"]
    assert "_once0 = len(st.zones[0]) == 0" in text and "MISSING" not in text, text
    assert run(text, [1, 2, 3], [0, None]) == [1]
    lazy, parts = loop_function("L[1] > (VALUE[_c] if (_c := L[0]) is not None else "
                                "_none_field('value', 3)) + len(st.zones[0])")
    assert "_once0 = MISSING" in lazy and len(parts) == 1, lazy


def test_a_part_the_first_candidate_computes_first_is_computed_before_a_loop_with_one():
    """Triumvirat's `c.colour == led.colour or ...`: the candidate's own colour (a card
    of a zone, never none) cannot fail, so the led card's colour, which may, is computed by
    the first candidate before anything else: it goes before the loop where the loop has a
    candidate (find_first), read per candidate as a plain local. A part after a test that
    may fail, or after a branch, stays lazy."""
    import ast as py

    from rulesdsl.engine.ir.invariants import hoisted

    def firsts_of(test: str) -> tuple:
        loop = py.parse(f"for x in st.zones[0]:\n    L[1] = x\n    if not ({test}):\n"
                        f"        continue\n    out.append(x)\n").body[0]
        count = iter(range(100))
        firsts: list = []
        starts, body = hoisted(loop.body, range(1, 2), 1, {"x"}, lambda: f"_once{next(count)}",
                               "MISSING", firsts, True)
        return ([py.unparse(py.fix_missing_locations(s)) for s in firsts],
                py.unparse(py.fix_missing_locations(body[1].test)))
    led = "(COLOUR[_c] if (_c := (_p[0] if (_p := st.zones[6]) else None)) is not None " \
          "else _none_field('colour', 9))"
    own = "(COLOUR_OF_CARD[L[1]] if L[1] is not None else _none_field('colour', 8))"
    firsts, test = firsts_of(f"{own} == {led} or L[1] > 3")
    assert firsts == [f"_once0 = {led[1:-1]}"] and "_once0" in test and "MISSING" not in test
    firsts, test = firsts_of(f"COLOUR[L[1]] == {led} or L[1] > 3")  # a table read may fail
    assert firsts == [] and "MISSING" in test
    firsts, test = firsts_of(f"L[1] > 3 or {own} == {led}")  # only after a branch
    assert firsts == [] and "MISSING" in test


def test_a_branchs_part_is_computed_before_the_loop_under_its_first_test():
    """Hearts' may_follow: `c.suit == led.suit if holds(p, led.suit) else (not
    first_trick or ...)`: holds, which every candidate computes first, is computed before
    the loop; then the branch the first candidate takes is known, and the first part of
    each branch (after the candidate's own suit, which cannot fail, read through an
    inlined definition's parameter) is computed before the loop under the test, each read
    per candidate as a plain local. The candidate's units are taken first and given back."""
    import ast as py

    from rulesdsl.engine.ir.invariants import hoisted

    def memo(f: str) -> str:
        return (f"(define_{f}(st, [None]) if (_m{f} := st.memo) is None else _v{f} if "
                f"(_v{f} := _m{f}.get((_k{f} := '{f}'), MISSING)) is not MISSING else "
                f"_m{f}.__setitem__(_k{f}, (_v{f} := define_{f}(st, [None]))) or _v{f})")
    led = "(SUIT[_c] if (_c := (_p[0] if (_p := st.zones[6]) else None)) is not None " \
          "else _none_field('suit', 9))"
    own = "(SUIT_OF_CARD[_a] if _a is not None else _none_field('suit', 8))"
    test = (f"(({own} == {led}) if {memo('holds')} else (not {memo('first')} or "
            f"L[1] > 3)) if (_a := L[1]) is None or True else None")
    loop = py.parse(f"for x in st.zones[0]:\n    L[1] = x\n    BUDGET.work -= 2\n"
                    f"    if BUDGET.work < 0:\n        BUDGET.spend(2, S1)\n"
                    f"    if not ({test}):\n        continue\n    out.append(x)\n").body[0]
    count = iter(range(100))
    firsts: list = []
    starts, body = hoisted(loop.body, range(1, 4), 1, {"x"}, lambda: f"_once{next(count)}",
                           "MISSING", firsts, True)
    lines = [py.unparse(py.fix_missing_locations(s)) for s in firsts]
    assert lines[0] == "BUDGET.work -= 2" and lines[-1] == "BUDGET.work += 2", lines
    assert lines[2].startswith("_once0 = define_holds"), lines
    assert lines[3] == f"if _once0:\n    _once1 = {led[1:-1]}", lines
    assert lines[4].startswith("if not _once0:\n    _once2 = not (define_first"), lines
    checked = py.unparse(py.fix_missing_locations(body[3].test))
    assert "MISSING" not in checked and "_once1 if _once0 else" in checked, checked


# ---------------------------------------------------------------- a statement's own memo
FACTS = HERE / "rules" / "facts_per_statement.rules"


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_statement_works_out_a_fact_once_and_the_next_anew(engine, monkeypatch):
    """`set seen = sum(room + ... for p in players)` asks for room (about 3,000 units of
    work) once per player, `room + room` twice: once per statement, the two statements
    spend about 6,000 (12,000 would pass 7,000); the second, after `taken` changed, reads
    room anew (500 twice, not the 1,500 the first statement saw)."""
    monkeypatch.setenv("RULESDSL_LIMITS", "work=7000")
    state = loaded_by(FACTS, {}, engine, 2).new_game(seed=1)
    assert [a.label for a in state.legal_actions()] == ["done, 3000 then 1000"]
    assert state.memo is None  # none left to the rules after the statement


def test_only_a_value_that_may_work_out_a_fact_twice_gets_a_memo():
    game = rulesdsl.load(str(FACTS))
    scanner = hoist.Scanner(game.model)
    main = game.model.phases["main"].decl.body
    sets = [s for s in main.stmts if isinstance(s, (ast.Set, ast.Let))]
    assert [scanner.repeats_a_fact(s.value) for s in sets] == [True, False, True]
    assert not scanner.repeats_a_fact(ast.Name(None, name="room"))


LOOP = HERE / "rules" / "facts_per_loop.rules"


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_loop_that_changes_nothing_its_facts_read_works_them_out_once(engine, monkeypatch):
    """The first loop asks for room (about 2,000 units of work) once per player: one memo
    for the loop spends 2,000 (6,000 would pass 4,000). The second sets what `total`
    reads, so each player's statement works it out anew: 1, 2, 4 (1, 1, 1 if kept)."""
    monkeypatch.setenv("RULESDSL_LIMITS", "work=4000")
    state = loaded_by(LOOP, {}, engine, 3).new_game(seed=1)
    assert [a.label for a in state.legal_actions()] == ["done, 1000: 1 2 4"]
    assert state.memo is None  # the loop's memo ends with the loop


def test_only_a_loop_whose_sets_no_fact_reads_keeps_one_memo():
    game = rulesdsl.load(str(LOOP))
    scanner = hoist.Scanner(game.model)
    loops = [s for s in game.model.phases["main"].decl.body.stmts if isinstance(s, ast.For)]
    assert [scanner.keeps_facts(s) for s in loops] == [True, False]
