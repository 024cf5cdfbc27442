"""Board reads in both engines: a run of cells read straight from a variable's values, an
aggregate over a variable with no memo of its own; the same values and errors either way."""

from __future__ import annotations

import pytest

from rulesdsl.lang.errors import RulesError
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
