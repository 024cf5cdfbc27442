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
