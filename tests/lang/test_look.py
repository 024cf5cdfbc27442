"""`look`, the browser table's hints: parsed into their nodes, checked into plain values,
laid out by the formatter, replaced hint by hint by a file that extends another, and
without effect on play. Errors: tests/lang/check/errors_look.txt."""

from __future__ import annotations

import rulesdsl
from rulesdsl.lang import ast
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.fmt import format_source
from rulesdsl.lang.syntax import parse

PLAIN = '''game "Stones"
players 2
enum Suit { hearts, spades }
kind card { suit: Suit }
deck deck { card(Suit) }
zone deck hidden
board Cell hex 3 x 3
var owner: player per Cell = none
flow main
phase main {
  turns p from seat(0) until all(c in Cell where owner[c] != none) {
    ask p "Where?" { c in Cell where owner[c] == none { set owner[c] = p } }
  }
}
'''
LOOK = '''look {
  table "#1E4D36"
  seats "black", "White"
  colour hearts "crimson"
  face card "#fffaf0"
  board Cell "burlywood"
  sides Cell "left and right", "top bottom"
}
'''


def checked(text: str):
    return check_file_tree(parse(text), {"<rules>": text})[0]


def test_a_look_parses_into_its_hints():
    look = [d.body for d in parse(PLAIN + LOOK).decls if isinstance(d.body, ast.Look)][0]
    assert look.hints[1] == ast.LookHint(None, "seats", None, ("black", "White"))
    assert look.hints[5] == ast.LookHint(None, "sides", "Cell",
                                         ("left and right", "top bottom"))


def test_the_checked_look_is_plain_values():
    assert checked(PLAIN + LOOK).present.look == {
        "table": "#1e4d36", "seats": ["black", "white"], "colours": {"hearts": "crimson"},
        "faces": {"card": "#fffaf0"}, "boards": {"Cell": "burlywood"},
        "sides": {"Cell": [["left", "right"], ["top", "bottom"]]}}


def test_no_look_is_an_empty_one():
    look = checked(PLAIN).present.look
    assert look["table"] is None and look["seats"] == [] and not look["colours"]


def test_a_later_hint_replaces_an_earlier_one():
    look = checked(PLAIN + LOOK + 'look { seats "navy" }\n').present.look
    assert look["seats"] == ["navy"] and look["table"] == "#1e4d36"


def test_the_formatter_puts_a_hint_a_line_and_is_stable():
    once = format_source(PLAIN + LOOK.replace("\n  ", " "))
    assert 'look {\n  table "#1E4D36"\n  seats "black", "White"\n' in once
    assert format_source(once) == once
    assert parse(once) == parse(PLAIN + LOOK)


def test_an_extending_file_changes_the_look(tmp_path):
    (tmp_path / "base.rules").write_text(PLAIN + LOOK)
    (tmp_path / "child.rules").write_text('extends "base.rules"\n'
                                          'look { board Cell "#334455" }\n')
    look = rulesdsl.load(str(tmp_path / "child.rules")).model.present.look
    assert look["boards"] == {"Cell": "#334455"} and look["seats"] == ["black", "white"]


def test_a_look_changes_nothing_in_play(tmp_path):
    plain, looked = tmp_path / "plain.rules", tmp_path / "looked.rules"
    plain.write_text(PLAIN)
    looked.write_text(PLAIN + LOOK)
    games = [rulesdsl.load(str(p)).new_game(players=2, seed=4) for p in (plain, looked)]
    for _ in range(5):
        label = games[0].legal_actions()[-1].label
        for g in games:
            g.apply(label)
    assert games[0].view(0) == games[1].view(0) and games[0].log == games[1].log
