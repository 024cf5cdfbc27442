"""`show NAME` of a definition of one board cell: worked out for every cell and drawn as the
board (text runner and browser alike), public to every seat; what the checker refuses.
Checked on its own (a small program) and on examples/backgammon.rules."""

import pytest

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree
from rulesdsl.play.rulestext import rules_text
from rulesdsl.play.screen import Layout

PROGRAM = """game "Stacks"
players 2
board Spot {{
  row a1..a3
  row _, b1, _
}}
enum Colour {{ red, blue }}
var height: int per player per Spot = 0
define stack(x: Spot) = if height[seat(0), x] > 0 then "{{seat(0)}} {{height[seat(0), x]}}"
    else if height[seat(1), x] > 0 then "{{seat(1)}} {{height[seat(1), x]}}" else ""
define secret(x: Spot) = 0
define tint(c: Colour) = 0
{shows}
flow main
phase main {{
  turns p from seat(0) until height[seat(0), b1] + height[seat(1), b1] >= 3 {{
    ask p "{{p}}, add to a stack" {{
      "{{x}}" for x in Spot where all(q in players where q == p or height[q, x] == 0) {{
        set height[p, x] += 1
      }}
    }}
  }}
  win seat(0)
}}
"""


def game(tmp_path, shows: str = 'show stack "the stacks"'):
    path = tmp_path / "t.rules"
    path.write_text(PROGRAM.format(shows=shows))
    return rulesdsl.load(path)


def errors_of(shows: str) -> list:
    try:
        check_file_tree(load_tree(PROGRAM.format(shows=shows), "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


def played(tmp_path, moves=("a2", "b1", "a1", "b1"), **kw):
    s = game(tmp_path, **kw).new_game(2)
    for m in moves:
        s.apply(m)
    return s


@pytest.mark.parametrize("engine", ["generated", "closures"])
def test_each_cell_gets_its_value_in_both_engines(tmp_path, monkeypatch, engine):
    if engine == "closures":
        monkeypatch.setenv("RULESDSL_ENGINE", "closures")
    s = played(tmp_path)
    assert s.shown_on_boards() == [
        ("the stacks", "Spot", {"a1": "P1 1", "a2": "P1 1", "a3": "", "b1": "P2 2"})]
    assert s.shown(0) == [] and s.shown(1) == []       # not also a value of the table


def test_a_hidden_one_is_shown_to_nobody(tmp_path):
    s = played(tmp_path, shows="show stack hidden")
    assert s.shown_on_boards() == []


def test_the_runner_draws_it_as_the_board_with_each_seats_sign_and_count(tmp_path):
    s = played(tmp_path)
    layout = Layout(s)
    shown = s.shown(0) + s.shown_on_boards()
    parts = dict(layout.view_parts(s.view(0), 0, width=80, shown=shown))
    text = ["".join(t for t, _ in line).rstrip() for line in parts["board"]]
    assert text == [
        "  the stacks (Spot)",
        "   a1 a2 a3",
        "   ●1 ●1",
        "      b1",
        "      ○2",
        "  ● P1   ○ P2",                                  # the seats, not "●1 P1 1"
    ], text


def test_a_players_variable_per_cell_is_listed_not_drawn_as_a_map(tmp_path):
    # a variable per player per cell of a drawn board once crashed the text runner
    s = played(tmp_path)
    lines = Layout(s).view_lines(s.view(0), 0, width=80, shown=s.shown(0))
    text = ["".join(t for t, _ in line).rstrip() for line in lines]
    assert "P1 (you) height (Spot): 1: a1, a2; 0: a3, b1" in text, text


def test_the_rules_summary_says_where_it_is_drawn(tmp_path):
    text = "\n".join(rules_text(game(tmp_path), 2, width=100))
    assert "the stacks (on Spot)" in text, text


@pytest.mark.parametrize("shows, code, message", [
    ("show tint", "E400", "show needs a definition with no parameters, one player or one "
                          "cell of a board, and tint takes (c: Colour)"),
    ("show stack private", "E601", "show stack is private but is worked out for a cell"),
])
def test_what_the_checker_refuses(shows, code, message):
    found = errors_of(shows)
    assert any(c == code and message in m for c, m in found), found


def test_backgammon_is_drawn_from_p1s_side(tmp_path):
    s = rulesdsl.load("backgammon").new_game(2, seed=3)
    (title, board, cells), = s.shown_on_boards()
    assert (title, board) == ("the board", "Point")
    assert {k: v for k, v in cells.items() if v} == {
        "pt24": "P1 2", "pt13": "P1 5", "pt8": "P1 3", "pt6": "P1 5",
        "pt1": "P2 2", "pt12": "P2 5", "pt17": "P2 3", "pt19": "P2 5"}
    layout = Layout(s)
    lines = layout.view_lines(s.view(0), 0, width=80, shown=s.shown(0) + s.shown_on_boards())
    text = ["".join(t for t, _ in line).rstrip() for line in lines]
    assert all(len(line) <= 80 for line in text), text
    assert text[1].split() == [f"pt{k}" for k in range(13, 25)], text
    assert text[3].split() == [f"pt{k}" for k in range(12, 0, -1)], text
    assert "P1 (you) on the bar: 0" in text, text
    assert "scores: P1 0  P2 0" in text, text                # the checkers borne off
