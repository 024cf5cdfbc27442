"""Laid-out boards: `board B { row ... track T: ... }`, named cells in rows as the table
shows them (`_` a gap, `p1..p6` a range), each cell's `row` and `column`, each track a field
(the next cell on it, or none) and borders between its neighbours; in both engines; drawn
by the text runner as its rows at 80 columns; formatted a row a line. Checked on its own
(small programs)."""

import pytest

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree
from rulesdsl.lang.fmt import format_source
from rulesdsl.play.screen import Layout

BOARD = """board Pit {
  row _, b3..b1, _
  row store_b, _, _, _, store_a
  row _, a1..a3, _
  track sow: a1..a3, store_a, b1..b3, store_b, a1
  track home: b1, b2, b3
}"""

PROGRAM = """game "T"
players 2
{board}
var seeds: int per Pit = 3
flow main
phase main {{
  {body}
  win seat(0)
}}
"""


def game(tmp_path, body: str, board: str = BOARD):
    path = tmp_path / "t.rules"
    path.write_text(PROGRAM.format(board=board, body=body))
    return rulesdsl.load(path)


def logged(tmp_path, body: str, board: str = BOARD) -> list:
    return game(tmp_path, body, board).new_game(2).log[:-1]


def errors_of(board: str, body: str = "") -> list:
    try:
        check_file_tree(load_tree(PROGRAM.format(board=board, body=body), "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


def test_cells_are_listed_row_by_row_from_the_top_with_ranges_spelt_out(tmp_path):
    assert logged(tmp_path, 'log "{Pit}"') == [
        "b3, b2, b1, store_b, store_a, a1, a2, a3"]


def test_rows_count_from_the_bottom_and_columns_from_the_left_gaps_included(tmp_path):
    assert logged(tmp_path, 'log "{a1.row} {a1.column} {store_a.row} {store_a.column} '
                            '{b3.row} {b3.column}"') == ["1 2 2 5 3 2"]


def test_a_track_is_each_cells_next_cell_and_goes_round_when_it_ends_where_it_began(tmp_path):
    assert logged(tmp_path, 'log "{a3.sow} {store_a.sow} {b3.sow} {store_b.sow}"') == [
        "store_a b1 store_b a1"]
    # an open track ends in none, and a cell it does not pass has none
    assert logged(tmp_path, 'log "{b2.home} {b3.home == none} {a1.home == none}"') == [
        "b3 true true"]


def test_cells_next_to_each_other_on_a_track_border_each_other(tmp_path):
    assert logged(tmp_path, 'log "{neighbours(a1)} | {connected(store_b, a1)} '
                            '{connected(a1, a3)}"') == ["store_b, a2 | true false"]
    assert logged(tmp_path, 'log "{largest_group([a1, a2, store_b, b2])}"') == ["3"]


def test_sowing_along_a_track_in_both_engines(tmp_path, monkeypatch):
    body = """ask seat(0) "sow" {
    "from {c}" for c in [a1, a2, a3] where seeds[c] > 0 {
      let here = c
      for k in 1..seeds[c] {
        set here = here.sow
        set seeds[here] += 1
      }
      set seeds[c] = 0
    }
  }
  log "{[seeds[x] for x in Pit]}\""""
    for engine in ("generated", "closures"):
        monkeypatch.setenv("RULESDSL_ENGINE", engine)
        s = game(tmp_path, body).new_game(2)
        s.apply("from a3")
        assert s.log[-2] == "3, 4, 4, 3, 4, 3, 3, 0", engine  # store_a, b1, b2 sown


def test_the_runner_draws_the_rows_names_over_values_at_80_columns(tmp_path):
    s = game(tmp_path, 'ask seat(0) "go" { "a2" { set seeds[a2] = 0 } "b1" { } }').new_game(2)
    s.apply("a2")
    layout = Layout(s)
    parts = dict(layout.view_parts(s.view(0), 0, width=80, marked=layout.cells_named("a2")))
    text = ["".join(t for t, _ in line).rstrip() for line in parts["board"]]
    assert text == [
        "  seeds (Pit)",
        "           b3 b2 b1",
        "            3  3  3",
        "   store_b          store_a",
        "         3                3",
        "           a1 a2 a3",
        "            3[ 0] 3",
    ], text
    assert all(len(line) <= 80 for line in text)
    assert layout.cells_named("b1 to store_a") == {"b1", "store_a"}  # names of any shape
    # drawn as a board, not also listed as a variable on the table
    assert "seeds" not in "".join(t for line in parts["table"] for t, _ in line)


def test_on_a_small_screen_a_row_is_one_line_its_empty_cells_named(tmp_path):
    """The runner's smaller version (a screen too short for names over values): a line a
    row, an empty cell by its name, a filled one by what lies on it."""
    program = PROGRAM.replace("var seeds: int per Pit = 3", "var seeds: int per Pit = none")
    path = tmp_path / "t.rules"
    path.write_text(program.format(board=BOARD, body='ask seat(0) "go" { "a2" { set seeds[a2] = 4 '
                                   '} "b1" { } }'))
    s = rulesdsl.load(path).new_game(2)
    s.apply("a2")
    layout = Layout(s)
    small = dict(layout.view_parts(s.view(0), 0, width=80, maps="owners",
                                   marked=layout.cells_named("a2")))
    text = ["".join(t for t, _ in line).rstrip() for line in small["board"]]
    assert text[:4] == [
        "  seeds (Pit)",
        "           b3 b2 b1",
        "   store_b          store_a",
        "           a1[ 4]a3",      # the mark takes the space between cells
    ], text
    full = dict(layout.view_parts(s.view(0), 0, width=80, marked=layout.cells_named("a2")))
    assert len(full["board"]) == len(small["board"]) + 3  # names over values: a line a row more


def test_a_laid_out_board_formats_a_row_or_a_track_a_line():
    source = PROGRAM.format(board="board Pit { row _, b3..b1, _ row store_b, _, _, _, "
                                  "store_a row _, a1..a3, _ track sow: a1..a3, store_a, b1..b3, "
                                  "store_b, a1 track home: b1, b2, b3 }", body="")
    assert BOARD in format_source(source, "t.rules")


@pytest.mark.parametrize("board, code, message", [
    ("board Pit { track sow: a1, a2 }", "E614", "board Pit lists no row of cells"),
    ("board Pit { row a1, a2, a1 }", "E501", "'a1' appears twice on board Pit"),
    ("board Pit { row a1..b3 }", "E614", "a1..b3 on board Pit is not a range of cells"),
    ("board Pit { row a1..a3 track sow: a1, _, a2 }", "E614", "track sow has a gap"),
    ("board Pit { row a1..a3 track sow: a1, a4 }", "E200", "'a4' is not a cell of board Pit"),
    ("board Pit { row a1..a3 track sow: a1, a2, a1, a3 }", "E614", "track sow passes a1 twice"),
    ("board Pit { row a1..a3 track row: a1, a2 }", "E502", "has a track or field 'row'"),
    ("board Pit { row a1..a3 track t: a1 track t: a2 }", "E502", "has a track or field 't'"),
])
def test_errors_name_the_place_and_a_fix(board, code, message):
    found = errors_of(board)
    assert any(c == code and message in m for c, m in found), found


def test_a_track_may_end_where_it_began_only_to_close_its_loop():
    assert errors_of("board Pit { row a1..a3 track sow: a1..a3, a1 }") == []
    assert errors_of("board Pit { row a1..a3 track sow: a1, a1 }") != []


def test_tracks_count_against_the_instances_limit(monkeypatch):
    rows = " ".join(f"row r{k}c1..r{k}c99" for k in range(1, 27))
    tracks = " ".join(f"track t{k}: r1c1, r1c2" for k in range(60))
    found = errors_of(f"board Pit {{ {rows} {tracks} }}")
    assert ("E614", "board Pit's 60 tracks give its 2,574 cells 154,440 fields; the limit is "
            "100,000") in found
    monkeypatch.setenv("RULESDSL_LIMITS", "instances=200000")
    assert not any(c == "E614" for c, _ in errors_of(f"board Pit {{ {rows} {tracks} }}"))


def test_the_editor_knows_each_cell_and_track_and_where_it_is_written():
    from rulesdsl.integrations.rules_index import analyse, find, flatten
    found = analyse(PROGRAM.format(board=BOARD, body='log "{seeds[a1]}"'), "t.rules")
    assert found.diagnostics == []
    board = find(found.symbols, "Pit")
    assert board.sort == "board" and "laid out in 3 rows, tracks sow, home" in board.detail
    cells = {c.name: (c.line, c.column) for c in board.children if c.sort == "value"}
    assert set(cells) == {"b3", "b2", "b1", "store_b", "store_a", "a1", "a2", "a3"}
    assert cells["store_a"] == (4, 24) and cells["b2"] == cells["b1"] == (3, 9)  # `b3..b1`
    tracks = [c.name for c in board.children if c.sort == "field"]
    assert tracks == ["sow", "home"]
    assert find(flatten(found.symbols), "a2").detail == "a cell of board Pit"
