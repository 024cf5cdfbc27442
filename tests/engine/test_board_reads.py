"""Board reads in both engines: a run of cells read straight from a variable's values, an
aggregate over a variable with no memo of its own, and `let` locals whose value is never
none read without a none check; the same values and errors either way."""

from __future__ import annotations

import re

import pytest

from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.limits import limit
from test_generated import load_text

BOARD = '''game "Board"
players 2
board Cell grid 4 x 4
var disc: player per Cell = none
var n: int = 0
var level: int per Cell = none
{defines}
flow main
phase main {{
  set disc[b1] = seat(1)
  set disc[c1] = seat(1)
  set disc[d1] = seat(0)
  {body}
  win seat(0)
}}
'''
ENGINES = ("closures", "generated")


def board(tmp_path, monkeypatch, engine: str, body: str, defines: str = ""):
    return load_text(tmp_path, BOARD.format(defines=defines, body=body), engine, monkeypatch)


def function_of(text: str, title: str) -> str:
    """The generated function listed under a comment that starts with `title`."""
    return text[text.index("# " + title):].split("\n\n")[0]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_run_of_cells_is_read_from_the_variable(tmp_path, monkeypatch, engine):
    """`[x in ray(a1, east) while disc[x] == next(p)]`: the cells up to the first that is
    not the other's; `next(p)` is worked out once, and only when there is a cell to
    compare (an empty run reads nothing: next(none) does not fail there)."""
    body = ("set n = size([x in ray(a1, east) while disc[x] == next(seat(0))]) * 10 + "
            "size([x in ray(d1, east) while disc[x] == next(none)])")
    game = board(tmp_path, monkeypatch, engine, body)
    assert game.new_game(seed=1).var("n") == 20
    if engine == "generated":
        run = function_of(game.program(2).generated, "list at")
        assert "want = " in run and "_bad_index" not in run, run
    failing = board(tmp_path, monkeypatch, engine,
                    "set n = size([x in ray(a1, east) while disc[x] == next(none)])")
    with pytest.raises(RulesError) as info:
        failing.new_game(seed=1)
    assert info.value.code == "R013"


@pytest.mark.parametrize("engine", ENGINES)
def test_an_aggregate_over_a_variable_keeps_no_memo_of_its_own(tmp_path, monkeypatch, engine):
    """`any(x in around(c) where disc[x] == next(p))` works `next(p)` out once before its
    loop: no memo of the loop's invariants is made, emptied and put back around it."""
    defines = "define near(p: player, c: Cell) = any(x in around(c) where disc[x] == next(p))"
    body = "set n = (if near(seat(0), a1) then 10 else 0) + (if near(seat(1), a1) then 1 else 0)"
    game = board(tmp_path, monkeypatch, engine, body, defines)
    assert game.new_game(seed=1).var("n") == 10
    if engine == "generated":
        loop = function_of(game.program(2).generated, "any over a variable")
        assert "want = " in loop and "MISSING" not in loop, loop


@pytest.mark.parametrize("engine", ENGINES)
def test_a_let_of_a_count_is_read_without_a_none_check(tmp_path, monkeypatch, engine):
    """`let k = count(...) in k > 0 and k < size(r)`: a count is never none, so neither is
    k; generated code compares it as it is. A `let` of a value that may be none keeps its
    check (and fails as before)."""
    defines = ("define run(c: Cell) = let r = ray(c, east) in "
               "let k = count(x in r while disc[x] == seat(1)) in "
               "if k > 0 and k < size(r) then k else 0\n"
               "define ahead(c: Cell) = let v = level[c] in v == 1 or v > 1")
    game = board(tmp_path, monkeypatch, engine, "set n = run(a1) * 10 + run(b1)", defines)
    assert game.new_game(seed=1).var("n") == 21
    if engine == "generated":
        text = game.program(2).generated
        assert "_none_operand" not in function_of(text, "define run"), text
    failing = board(tmp_path, monkeypatch, engine, "set n = if ahead(a1) then 1 else 0",
                    defines)
    if engine == "generated":  # (ahead is written where it is called)
        assert "_none_operand" in failing.program(2).generated
    with pytest.raises(RulesError) as info:
        failing.new_game(seed=1)
    assert info.value.code == "R013" and info.value.span.line == 8


@pytest.mark.parametrize("engine", ENGINES)
def test_elements_of_a_zone_or_the_seats_are_read_without_checks(tmp_path, monkeypatch, engine):
    """A card of a zone, a seat of `players`, a cell of the board: never none and in range,
    so a list's condition and value read their fields and index by them unchecked; a card
    field no card leaves none is compared unchecked too."""
    defines = "var score: int per player = 2"
    body = ("set n = count(c in cards where c.value > 1) * 100 + "
            "sum(score[q] for q in players) * 10 + count(x in Cell where disc[x] == seat(1))")
    text = BOARD.replace("players 2\n", "players 2\nkind card {{ value: int }}\nzone stock public\n"
                         "deck stock {{ card(1..3) }}\n")
    game = load_text(tmp_path, text.format(defines=defines, body=body), engine, monkeypatch)
    assert game.new_game(seed=1).var("n") == 242
    if engine == "generated":
        generated = game.program(2).generated
        for title in ("count at", "sum at"):
            loop = function_of(generated, title)
            assert not re.search(r"_none_|_bad_index|L\[\d+\] is not None", loop), loop


@pytest.mark.parametrize("engine", ENGINES)
def test_a_count_of_a_run_makes_no_list_and_spends_its_length(tmp_path, monkeypatch, engine):
    """`count(x in ray(a1, east) while disc[x] == seat(1))`: counted in one loop, with no
    list made, and spent from the work budget as the count of a list is (its length): the
    same as a condition of another form, counted from the list of the run."""
    run = "count(x in ray(a1, east) while disc[x] == seat(1))"
    left = []
    for count in (run, run.replace("== seat(1))", "== seat(1) and true)"), "2"):
        game = board(tmp_path, monkeypatch, engine, f"set n = {count}")
        assert game.new_game(seed=1).var("n") == 2
        left.append(game.program(2).budget.work)
    assert left[0] == left[1] == left[2] - 2
    if engine == "generated":
        text = board(tmp_path, monkeypatch, engine, f"set n = {run}").program(2).generated
        loop = function_of(text, "count at")
        assert "n += 1" in loop and "append" not in loop and "work -= n" in loop, loop


RUNS = {  # each form of a run of cells (nodes.Run), with the value the rules give it
    "a": ("size([x in ray(a1, east) while disc[x] == seat(1)])", 2),
    "b": ("size([x in ray(a1, east) while disc[x] != seat(0)])", 2),
    "c": ("count(x in ray(a1, east) while disc[x] != none)", 3),
    "d": ("count(x in ray(d1, east) while disc[x] == next(none))", 0),
    "e": ("count(x in Cell where disc[x] == seat(1))", 2),
    "f": ("count(x in around(b2) where level[x] != none)", 2),
    "g": ("if any(x in around(a1) where disc[x] == seat(0)) then 1 else 0", 0),
    "h": ("if any(x in ray(a1, east) where level[x] == 5) then 1 else 0", 1),
    "i": ("if all(x in ray(a1, east) where disc[x] != none) then 1 else 0", 1),
    "j": ("if all(x in ray(d1, east) where disc[x] == next(none)) then 1 else 0", 1),
    "k": ("if all(x in ray(a1, east) where level[x] == 5) then 1 else 0", 0),
    "m": ("count(x in ray(a1, east) while level[x] == none)", 1),
}


def test_the_two_back_ends_run_every_form_of_a_run_alike(tmp_path, monkeypatch):
    """Every form of a run of cells (a prefix's cells or count, a `where`'s count, any,
    all; `==` and `!=`; a variable at 0 and one further on; an empty list, whose E is
    never worked out): the closures and the generated code give the same values and
    spend the same work, and the generated code reads the variable in its own loop."""
    defines = "\n".join(f"var {k}: int = 0" for k in RUNS)
    body = "set level[c1] = 5\n  set level[a2] = 1\n  " + "\n  ".join(
        f"set {k} = {rule}" for k, (rule, _) in RUNS.items())
    got = {}
    for engine in ENGINES:
        game = board(tmp_path, monkeypatch, engine, body, defines)
        state = game.new_game(seed=1)
        got[engine] = ({k: state.var(k) for k in RUNS}, game.program(2).budget.work)
        if engine == "generated":
            text = game.program(2).generated
            for title in ("list at", "count at", "count over a variable", "any over a variable",
                          "all over a variable"):
                assert "values[" in function_of(text, title), title
    assert got["closures"] == got["generated"]
    assert got["closures"][0] == {k: value for k, (_, value) in RUNS.items()}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_let_of_a_run_is_counted_in_the_definition_itself(tmp_path, monkeypatch, engine):
    """`let k = count(x in r while ...)` in a definition: the run's loop is written in the
    definition's own function (no call per definition call), its count set as k; the
    same value and the same work as the closures."""
    defines = ("define run(c: Cell) = let r = ray(c, east) in "
               "let k = count(x in r while disc[x] == seat(1)) in k * 10 + size(r)")
    game = board(tmp_path, monkeypatch, engine, "set n = run(a1) * 100 + run(c1)", defines)
    assert game.new_game(seed=1).var("n") == 2301
    assert game.program(2).budget.work == limit("work") - 2 - 2  # two calls, a run of 2
    if engine == "generated":
        text = function_of(game.program(2).generated, "define run")
        assert "n += 1" in text and "work -= n" in text and re.search(r"= n$", text, re.M), text
