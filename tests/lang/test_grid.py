"""Grid boards: `board B grid W x H`, cells a1.., Direction, column_of, row_of, neighbour,
ray, around, distance, opposite, and `[x in L while COND]`; the text runner draws a grid
variable as a grid. Checked on its own (grid.rules and small programs)."""

import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree
from rulesdsl.play.screen import Layout

HERE = Path(__file__).resolve().parent

PROGRAM = """game "T"
players 2
board Cell grid 4 x 3
var stone: player per Cell = none
{decls}
flow main
phase main {{
  {body}
  win seat(0)
}}
"""


def logged(tmp_path, body: str, decls: str = "") -> list:
    path = tmp_path / "t.rules"
    path.write_text(PROGRAM.format(decls=decls, body=body))
    return rulesdsl.load(path).new_game(2).log[:-1]


def errors_of(body: str = "", decls: str = "") -> list:
    try:
        check_file_tree(load_tree(PROGRAM.format(decls=decls, body=body), "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


def test_cells_are_named_by_column_and_row(tmp_path):
    assert logged(tmp_path, 'log "{Cell}"') == [
        "a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3"]
    assert logged(tmp_path, 'log "{column_of(c2)} {row_of(c2)} {column_of(d3)}"') == ["3 2 4"]


def test_directions_neighbours_and_rays(tmp_path):
    assert logged(tmp_path, 'log "{Direction}"') == [
        "north, north_east, east, south_east, south, south_west, west, north_west"]
    assert logged(tmp_path, 'log "{neighbour(b2, north_east)} {neighbour(a1, south)}"') == [
        "c3 none"]  # off the board: none
    assert logged(tmp_path, 'log "{ray(a1, east)} | {ray(a1, north_east)} | {ray(a1, west)}"') \
        == ["b1, c1, d1 | b2, c3 | nothing"]
    assert logged(tmp_path, 'log "{around(a1)} | {around(b2)}"') == [
        "a2, b2, b1 | b3, c3, c2, c1, b1, a1, a2, a3"]
    assert logged(tmp_path, 'log "{neighbours(b2)}"') == ["b1, a2, c2, b3"]  # orthogonal
    assert logged(tmp_path, 'log "{distance(a1, d3)} {distance(b2, b2)} {opposite(north_west)}"'
                  ) == ["3 0 south_east"]
    assert logged(tmp_path, 'log "{[d in Direction where d.dx == 0]}"') == ["north, south"]


def test_a_run_stops_at_the_first_element_that_fails(tmp_path):
    body = ("set stone[b1] = seat(1)\n  set stone[c1] = seat(1)\n  set stone[d1] = seat(0)\n"
            '  log "{[x in ray(a1, east) while stone[x] == seat(1)]}"\n'
            '  log "{count(x in ray(a1, east) while stone[x] != none)}"\n'
            '  log "{[x in 1..9 while x * x < 20]}"')
    assert logged(tmp_path, body) == ["b1, c1", "3", "1, 2, 3, 4"]


@pytest.mark.parametrize("seed", range(6))
def test_the_direct_comparisons_agree_with_the_general_ones(tmp_path, seed):
    """`v[x] == E` in a run or an any/all/count is read straight from the values; the same
    condition written so that it cannot be (`and true`) must give the same answers."""
    rng = random.Random(seed)
    sets = "\n  ".join(f"set stone[{c}] = seat({rng.randrange(2)})"
                       for c in ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "d3")
                       if rng.random() < 0.7)
    forms = []
    for d in ("east", "north", "north_east"):
        for q in ("seat(0)", "seat(1)", "none"):
            for agg in ("[x in ray(a1, {d}) while {c}]", "count(x in around(b2) where {c})",
                        "any(x in Cell where {c})", "all(x in around(a1) where {c})",
                        "count(x in ray(b1, {d}) while {c})"):
                for op in ("==", "!="):
                    fast = agg.format(d=d, c=f"stone[x] {op} {q}")
                    slow = agg.format(d=d, c=f"stone[x] {op} {q} and true")
                    forms.append(f'log "{{{fast}}} = {{{slow}}}"')
    lines = logged(tmp_path, sets + "\n  " + "\n  ".join(forms))
    assert len(lines) == len(forms)
    for line in lines:
        a, b = line.split(" = ")
        assert a == b


def test_a_grid_board_is_checked():
    assert errors_of(decls="board Big grid 27 x 3")[0][0] == "E601"
    errs = errors_of('log "{column_of(seat(0))}"')
    assert [code for code, _ in errs] == ["E300"] and "cell of a grid" in errs[0][1]
    errs = errors_of('log "{ray(a1, 3)}"')
    assert [code for code, _ in errs] == ["E300"]
    errs = errors_of(decls="enum Direction { up, down }")
    assert [code for code, _ in errs] == ["E500"]


def test_the_example_plays_to_the_end_and_is_drawn_as_a_grid():
    assert rulesdsl.check_file(HERE / "grid.rules") == []
    game = rulesdsl.load(HERE / "grid.rules")
    for seed in range(10):
        s = game.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        assert sum(s.scores) == 12
    s = game.new_game(2)
    s.apply("b2")
    s.apply("c2")  # touches b2: it turns to P2
    assert s.var("stone[b2]") == 1
    lines = ["".join(t for t, _ in line).rstrip()
             for line in Layout(s).view_lines(s.view(0), 0)]
    # a seat's stone is its sign (○ for P2), with a legend under the board
    assert lines[0:6] == ["  stone (Cell)", "  3 . . . .", "  2 . ○ ○ .",
                          "  1 . . . .", "    a b c d", "  ○ P2"]
