"""The declarations a player reads (`about`, `title`, `text`, `internal`, `show`), a
decision's question and a move's words: parsed, checked, and printed by the formatter in
its one layout, every construct kept."""

from __future__ import annotations

from rulesdsl.lang import ast
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.fmt import format_source
from rulesdsl.lang.present import Shown
from rulesdsl.lang.syntax import parse

SOURCE = '''game "Stall"
players 2
zone stock hidden
zone stall public
var sold: int per player = 0
define on_stall = size(stall)
flow main
phase main {
  ask seat(0) "{seat(0)}, sell the top crate?" {
    "sell" { move top(stock) to stall as "{seat(0)} sells {top(stock)}" set sold[seat(0)] += 1 }
    "keep" { }
  }
  ask each q in players where sold[q] == 0 "Does {q} knock?" { "knock" { } }
}
about "A stall." "Sell crates."
title stall "the stall"
text stall "Where crates are sold." "Everyone sees it."
internal sold
show on_stall "crates on the stall"
'''


def decls(tree):
    return [d.body for d in tree.decls]


def test_the_constructs_parse_into_their_nodes():
    body = decls(parse(SOURCE))
    assert ast.About(None, ("A stall.", "Sell crates.")) in body
    assert ast.Title(None, "stall", "the stall") in body
    assert ast.Explain(None, "stall", ("Where crates are sold.", "Everyone sees it.")) in body
    assert any(isinstance(d, ast.Internal) and [r.name for r in d.names] == ["sold"]
               for d in body)
    assert ast.Show(None, "on_stall", "crates on the stall", "public") in body
    phase = next(d for d in body if isinstance(d, ast.Phase))
    ask, ask_each = phase.body.stmts
    assert ask.question is not None and ask_each.question is not None
    move = ask.choices[0].body.stmts[0]
    assert isinstance(move, ast.Move) and move.words is not None


def test_the_formatter_keeps_every_construct_and_is_stable():
    once = format_source(SOURCE)
    assert parse(once) == parse(SOURCE)
    assert format_source(once) == once
    assert 'about\n  "A stall."\n  "Sell crates."\n' in once
    assert 'title stall "the stall"\ntext stall\n  "Where crates are sold."\n' in once
    assert 'ask seat(0) "{seat(0)}, sell the top crate?" {' in once
    assert 'as "{seat(0)} sells {top(stock)}"' in once


def test_checked_model_carries_the_presentation():
    tree = parse(SOURCE)
    model, warnings = check_file_tree(tree, {"<rules>": SOURCE})
    p = model.present
    assert p.about == ["A stall.", "Sell crates."]
    assert p.titles == {"stall": "the stall"} and p.internal == {"sold"}
    assert p.shows == [Shown("on_stall", "crates on the stall", "public")]
    assert not [w for w in warnings if w.code == "W705"]


def test_a_show_with_if_is_shown_only_in_games_where_it_holds(tmp_path):
    import rulesdsl
    path = tmp_path / "fuses.rules"
    path.write_text('game "Fuses"\nplayers 2..4\nvar fuses: int = 3\ndefine left = fuses\n'
                    'show left "fuses" if player_count > 2\nflow main\n'
                    'phase main { ask seat(0) "go?" { "go" { end game } } }\n')
    assert rulesdsl.check_file(path) == []
    game = rulesdsl.load(str(path))
    assert game.new_game(2, 1).shown(0) == []
    assert game.new_game(3, 1).shown(0) == [("fuses", {None: "3"})]
    # the formatter keeps it
    text = path.read_text()
    assert 'show left "fuses" if player_count > 2' in format_source(text, str(path))
