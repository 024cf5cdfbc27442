"""Work and memory per decision are bounded (issue 20): each hostile but valid file ends in
its own R code at the rule's place, in bounded time and memory."""

from __future__ import annotations

import time

import pytest

import rulesdsl
from rulesdsl.lang.errors import CheckFailed, RulesError
from test_hostile import HEAD, _fails


def test_a_chain_of_forty_definitions_stops_at_the_work_budget(tmp_path, monkeypatch):
    # each calls the one before three times with its argument: 3^40 calls, none remembered
    # (a definition with a parameter is kept in no statement's memo)
    monkeypatch.setenv("RULESDSL_LIMITS", "work=200000")  # the default stops it too, slower
    chain = "define d0(x: int) = x\n" + "".join(
        f"define d{i}(x: int) = d{i - 1}(x) + d{i - 1}(x) + d{i - 1}(x)\n" for i in range(1, 41))
    e = _fails(tmp_path, chain + "phase main {\n  set n = d40(1)\n}\n", "R005", "d",
               seconds=60)
    assert "work" in e.message and any("RULESDSL_LIMITS=work" in h for h in e.hints)


def test_a_chain_of_forty_facts_is_worked_out_once_each(tmp_path):
    """The same chain without parameters: the position's facts, each worked out once in
    the statement's memo (engine/hoist.py repeats_a_fact), 40 units of work, not 3^40.
    Thrice each, the number passes the bound (R030, at once); twice, it is 2^40."""
    chain = "define d0 = 1\n" + "".join(f"define d{i} = d{i - 1} + d{i - 1} + d{i - 1}\n"
                                       for i in range(1, 41))
    _fails(tmp_path, chain + "phase main {\n  set n = d40\n}\n", "R030", "d", seconds=10)
    twice = "define d0 = 1\n" + "".join(f"define d{i} = d{i - 1} + d{i - 1}\n"
                                       for i in range(1, 41))
    path = tmp_path / "twice.rules"
    path.write_text(HEAD + twice + "phase main {\n  set n = d40\n  ask seat(0) \"{n}?\" "
                    "{ \"{n}\" { } }\n}\n")
    state = rulesdsl.load(str(path)).new_game(players=2, seed=1)
    assert [a.label for a in state.legal_actions()] == [str(2 ** 40)]


def test_nested_range_sums_stop_at_the_work_budget(tmp_path):
    # 100,000 sums of 100,000 values: 10^10 additions in one step without the budget (the
    # inner sum reads i, so it cannot be computed once for the whole loop)
    _fails(tmp_path, "phase main {\n  set n = sum(sum(i + j for j in 1..100000) "
           "for i in 1..100000)\n}\n", "R005", "sum(", seconds=60)


def test_moves_in_a_loop_stop_at_the_move_budget(tmp_path):
    # the 200,000 moves, here from a smaller pile so that making the cards is quick
    _fails(tmp_path, "deck stock { 50 x card(1..1000) }\nphase main {\n  while true {\n"
           "    for c in stock {\n      move c to table\n    }\n    for c in table {\n"
           "      move c to stock\n    }\n  }\n}\n", "R006", "move c", seconds=120,
           megabytes=400)


def test_shuffling_without_end_stops_at_the_move_budget(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_LIMITS", "moves=100000")  # the default too, in more time
    _fails(tmp_path, "deck stock { 20 x card(1..1000) }\nphase main {\n  while true {\n"
           "    shuffle stock\n  }\n}\n", "R006", "shuffle stock", seconds=60, megabytes=400)


def test_a_list_doubling_itself_stops_at_the_list_limit(tmp_path):
    e = _fails(tmp_path.joinpath(), "var xs: list of int = [1]\nphase main {\n  while true {\n"
               "    set xs = xs + xs\n  }\n}\n", "R007", "xs + xs", seconds=60, megabytes=200)
    assert "1,000,000" in e.message


def test_a_text_doubling_itself_stops_at_the_text_limit(tmp_path):
    body = ("define t0 = \"abcdefghij\"\n" + "".join(
        f"define t{i} = \"{{t{i - 1}}}{{t{i - 1}}}\"\n" for i in range(1, 30)) +
        "phase main {\n  log \"{t29}\"\n}\n")
    _fails(tmp_path, body, "R008", "define t", seconds=60)


def test_zone_instances_past_the_limit_are_refused_by_check(tmp_path):
    path = tmp_path / "big.rules"
    values = ", ".join(f"v{i}" for i in range(100))
    path.write_text(f'game "Big"\nplayers 2\nenum Big {{ {values} }}\n'
                    "zone heap per Big per Big per Big\nflow main\nphase main { }\n")
    with pytest.raises(CheckFailed) as info:
        rulesdsl.check_file(path)
    e = info.value
    assert e.code == "E608", str(e)
    assert e.span.line == 4
    assert "1,000,000" in e.message


def test_variable_instances_count_too(tmp_path):
    path = tmp_path / "big.rules"
    values = ", ".join(f"v{i}" for i in range(400))
    path.write_text(f'game "Big"\nplayers 2\nenum Big {{ {values} }}\n'
                    "var grid: int per Big per Big = 0\nflow main\nphase main { }\n")
    with pytest.raises(CheckFailed) as info:
        rulesdsl.check_file(path)
    assert info.value.code == "E608"


def test_a_two_megabyte_string_literal_loads_in_linear_time(tmp_path):
    # quadratic building took minutes; linear takes well under a second of processor time
    path = tmp_path / "long.rules"
    path.write_text(HEAD + 'phase main {\n  log "' + "a" * 1_900_000 + '"\n}\n')
    c0 = time.process_time()
    try:
        rulesdsl.load(path)
    except RulesError:
        pass
    assert time.process_time() - c0 < 20
