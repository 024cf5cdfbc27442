"""`payoff(p: player) = ...`: what a finished game pays each seat, overridden by a file
that extends, formatted like the score; a cooperative game's may not name its player."""

import rulesdsl
from rulesdsl.lang.fmt import format_source

BASE = """game "Gold"
players 2
var gold: int per player = 0
score(p: player) = gold[p]
payoff(p: player) = gold[p] - gold[next(p)]
phase main {
  for p in players {
    ask p "{p}, dig?" {
      "dig" { set gold[p] += 2 }
      "rest" { }
    }
  }
  win seat(0)
}
flow main
"""


def dig_then_rest(path) -> list:
    st = rulesdsl.load(str(path)).new_game(players=2, seed=1)
    st.apply("dig")
    st.apply("rest")
    return st.payoffs


def test_the_payoff_is_read_per_seat_at_the_end(tmp_path):
    path = tmp_path / "gold.rules"
    path.write_text(BASE)
    assert dig_then_rest(path) == [2.0, -2.0]


def test_a_file_that_extends_overrides_the_payoff(tmp_path):
    (tmp_path / "gold.rules").write_text(BASE)
    child = tmp_path / "child.rules"
    child.write_text('extends "gold.rules"\noverride payoff(p: player) = 3 * gold[p]\n')
    assert dig_then_rest(child) == [6.0, 0.0]


def test_formatting_keeps_it():
    out = format_source(BASE)
    assert "payoff(p: player) = gold[p] - gold[next(p)]" in out
    assert format_source(out) == out


def test_a_payoff_declared_zero_sum_is_paid_where_it_sums_to_zero(tmp_path):
    path = tmp_path / "gold.rules"
    path.write_text(BASE.replace("gold[next(p)]\n", "gold[next(p)] zero-sum\n"))
    assert rulesdsl.load(str(path)).model.payoff.zero_sum
    assert dig_then_rest(path) == [2.0, -2.0]


def test_a_payoff_declared_zero_sum_that_is_not_is_c022_at_the_end(tmp_path):
    import pytest
    from rulesdsl.lang.errors import RulesError
    path = tmp_path / "gold.rules"
    path.write_text(BASE.replace("gold[p] - gold[next(p)]\n", "gold[p] zero-sum\n"))
    with pytest.raises(RulesError) as e:
        dig_then_rest(path)
    assert e.value.code == "C022" and "in the file" in str(e.value) and "dig | rest" in \
        str(e.value)


def test_zero_sum_is_formatted_after_the_payoff():
    source = BASE.replace("gold[next(p)]\n", "gold[next(p)] zero-sum\n")
    assert "payoff(p: player) = gold[p] - gold[next(p)] zero-sum" in format_source(source)
