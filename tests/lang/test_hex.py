"""Hex boards: `board B hex W x H`, a rhombus of hexagonal cells a1.. with six directions
(north_east, east, south_east, south_west, west, north_west), their neighbours, rays and
distances; `joins(nodes, a, b)`, a chain of neighbouring nodes from a to b; the text
runner draws a hex board as a rhombus. Checked on its own (small programs)."""

import pytest

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree
from rulesdsl.lang.fmt import format_source
from rulesdsl.play.screen import Layout

PROGRAM = """game "T"
players 2
board Cell hex 4 x 3
var stone: player per Cell = none
{decls}
flow main
phase main {{
  {body}
  win seat(0)
}}
"""


def game(tmp_path, body: str, decls: str = ""):
    path = tmp_path / "t.rules"
    path.write_text(PROGRAM.format(decls=decls, body=body))
    return rulesdsl.load(path)


def logged(tmp_path, body: str, decls: str = "") -> list:
    return game(tmp_path, body, decls).new_game(2).log[:-1]


def errors_of(body: str = "", decls: str = "") -> list:
    try:
        check_file_tree(load_tree(PROGRAM.format(decls=decls, body=body), "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


def test_six_directions_and_their_neighbours(tmp_path):
    assert logged(tmp_path, 'log "{Direction}"') == [
        "north_east, east, south_east, south_west, west, north_west"]
    # b2 touches six cells: up a row the cell above-right keeps its column
    assert logged(tmp_path, 'log "{around(b2)}"') == ["b3, c2, c1, b1, a2, a3"]
    assert logged(tmp_path, 'log "{neighbours(b2)}"') == ["b1, c1, a2, c2, a3, b3"]
    # the acute corners touch two cells, the obtuse ones three
    assert logged(tmp_path, 'log "{around(a1)} | {around(d3)} | {around(d1)} | {around(a3)}"') \
        == ["a2, b1 | d2, c3 | d2, c1, c2 | b3, b2, a2"]
    assert logged(tmp_path, 'log "{neighbour(a1, north_west)} {opposite(east)} '
                            '{opposite(north_east)}"') == ["none west south_west"]
    assert logged(tmp_path, 'log "{ray(a3, south_east)} | {ray(a1, north_east)}"') == [
        "b2, c1 | a2, a3"]


def test_distances_count_steps_between_hexagons(tmp_path):
    assert logged(tmp_path, 'log "{distance(a1, d3)} {distance(d1, a3)} {distance(b2, b2)} '
                            '{distance(a1, c1)}"') == ["5 3 0 2"]
    assert logged(tmp_path, 'log "{count(c in Cell where distance(b2, c) == 1)}"') == ["6"]


def test_joins_follows_chains_of_neighbours(tmp_path):
    decls = ("define west = [c in Cell where column_of(c) == 1]\n"
             "define east = [c in Cell where column_of(c) == 4]")
    body = ('log "{joins([a2, b2, c2, d2], west, east)} {joins([a2, b2, d2], west, east)} '
            '{joins([a3, b2, c1, d1], west, east)} {joins([a3, b3, c2, d1], west, east)} '
            '{joins([a1], [a1], [a1])} {joins([], west, east)}"')
    # a3-b2-c1 runs south east; b3 and c2 touch (south east), c2 and d1 too
    assert logged(tmp_path, body, decls) == ["true false true true true false"]
    # an empty list names no board: nothing is joined, the largest group is empty
    assert logged(tmp_path, 'log "{joins([], [], [])} {largest_group([])}"') == ["false 0"]


def test_a_hex_board_is_drawn_as_a_rhombus(tmp_path):
    s = game(tmp_path, "ask seat(0) \"go\" { \"go\" { } }",
             "setup { set stone[a1] = seat(0)\n set stone[d3] = seat(1) }").new_game(2)
    lines = ["".join(t for t, _ in line) for line in Layout(s).view_lines(s.view(0), 0)]
    rows = [x for x in lines if x.strip()[:1] in "123"]
    assert [x.split()[1:] for x in rows] == [[".", ".", ".", "○"], [".", ".", ".", "."],
                                             ["●", ".", ".", "."]]  # P2's sign, P1's
    ends = [len(x.rstrip()) for x in rows]
    assert ends[0] - ends[1] == ends[1] - ends[2] > 0  # each row half a cell right


def test_hex_and_square_grids_do_not_mix_and_the_form_formats():
    found = errors_of(decls="board Other grid 3 x 3")
    assert any(c == "E601" and "board Other is a square grid but Cell is not" in m
               for c, m in found), found
    text = 'game "T"\nplayers 2\n\nboard Cell hex 7 x 7\n'
    assert format_source(text) == text


def test_joins_needs_lists_of_nodes():
    found = errors_of('log "{joins(3, [a1], [b1])}"')
    assert any(c == "E300" and "joins needs a list of board nodes" in m for c, m in found)
