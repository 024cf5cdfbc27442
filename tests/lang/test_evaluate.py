"""`evaluate(p: player) = ...`: the computer players' estimate, read per seat, overridden by
a file that extends, formatted like the score."""

import rulesdsl
from rulesdsl.lang.fmt import format_source

BASE = """game "Gold"
players 2
var gold: int per player = 0
score(p: player) = gold[p]
evaluate(p: player) = 3 * gold[p] + 1
phase main {
  for p in players {
    ask p "{p}, dig?" {
      "dig" { set gold[p] += 2 }
      "rest" { }
    }
  }
}
flow main
"""


def test_evaluation_per_seat_and_scores_without_one(tmp_path):
    path = tmp_path / "gold.rules"
    path.write_text(BASE)
    st = rulesdsl.load(str(path)).new_game(players=2, seed=1)
    st.apply("dig")
    assert st.evaluation() == [7, 1] and st.scores == [2, 0]
    plain = tmp_path / "plain.rules"
    plain.write_text(BASE.replace("evaluate(p: player) = 3 * gold[p] + 1\n", ""))
    st = rulesdsl.load(str(plain)).new_game(players=2, seed=1)
    st.apply("dig")
    assert st.evaluation() == st.scores == [2, 0]


def test_a_file_that_extends_overrides_the_evaluation(tmp_path):
    (tmp_path / "gold.rules").write_text(BASE)
    child = tmp_path / "child.rules"
    child.write_text('extends "gold.rules"\noverride evaluate(p: player) = 0 - gold[p]\n')
    st = rulesdsl.load(str(child)).new_game(players=2, seed=1)
    st.apply("dig")
    assert st.evaluation() == [-2, 0]


def test_formatting_keeps_it():
    out = format_source(BASE)
    assert "evaluate(p: player) = 3 * gold[p] + 1" in out
    assert format_source(out) == out


def test_what_the_evaluation_reads(tmp_path):
    """The variables and zones `evaluate` reads, through definitions, and None where it
    may read more (a built-in that runs the rules): what a search keys its evaluations by."""
    path = tmp_path / "gold.rules"
    path.write_text(BASE.replace("var gold: int per player = 0\n", "var gold: int per player = 0\n"
                                 "var spare: int = 0\nzone pile per player public\n")
                    .replace("evaluate(p: player) = 3 * gold[p] + 1",
                             "define heap(p: player) = size(pile[p])\n"
                             "evaluate(p: player) = 3 * gold[p] + heap(p)"))
    st = rulesdsl.load(str(path)).new_game(players=2, seed=1)
    gold, pile = st.prog.vars["gold"], st.prog.zones["pile"]
    assert st.prog.evaluate_reads == ((gold.base, gold.base + 1), (pile.base, pile.base + 1))
    # `playable` runs a kind's condition, which may read anything
    path.write_text(BASE.replace("var gold", 'kind coin { label "coin" playable by p if '
                                 'gold[p] > 0 }\nzone coins hidden\ndeck coins { coin }\n'
                                 'var gold')
                    .replace("3 * gold[p] + 1",
                             "3 * gold[p] + count(c in cards where playable(c, p))"))
    assert rulesdsl.load(str(path)).new_game(players=2, seed=1).prog.evaluate_reads is None
