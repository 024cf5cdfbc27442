"""Hostile but valid rules: each ends in a clear RulesError naming the rule (its span), in
bounded time and memory."""

from __future__ import annotations

import time
import tracemalloc

import pytest

import rulesdsl
from rulesdsl.lang.errors import RulesError

HEAD = '''game "Hostile"
players 2
kind card { value: int  label "{value}" }
zone stock hidden
zone hand per player private
zone table public
var n: int = 1
flow main
'''


def _load(tmp_path, body: str, **kw):
    path = tmp_path / "hostile.rules"
    path.write_text(HEAD + body)
    return rulesdsl.load(path, **kw), path


def _fails(tmp_path, body: str, code: str, line_text: str, seconds: float = 10.0,
           megabytes: float = 200.0, play: bool = False, **kw):
    """Loading and playing ends in `code`, with a span on the line holding `line_text`,
    within `seconds` of CPU (not wall time: a busy machine must not fail the bound)."""
    text = HEAD + body
    game, path = _load(tmp_path, body, **kw)  # parsing and checking: timed by the fuzzers
    tracemalloc.start()
    t0 = time.process_time()
    try:
        with pytest.raises(RulesError) as info:
            state = game.new_game(players=2, seed=1)
            while play and not state.is_over:
                state.apply(state.legal_actions()[0])
        elapsed = time.process_time() - t0
        peak = tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
    e = info.value
    assert e.code == code, str(e)
    assert e.span is not None, str(e)
    line = text.split("\n")[e.span.line - 1]
    assert line_text in line, (str(e), line)
    assert elapsed < seconds, f"{elapsed:.1f}s"
    assert peak < megabytes, f"{peak:.0f} MB"
    return e


def test_endless_loop_stops_at_the_step_limit(tmp_path):
    e = _fails(tmp_path, "phase main {\n  while true {\n    set n = 1\n  }\n}\n", "R003", "while true",
               step_limit=20_000)
    assert any("step_limit" in h for h in e.hints)
    assert "main" in e.trace[0]


def test_endless_loop_default_limit_in_bounded_time(tmp_path):
    _fails(tmp_path, "phase main {\n  repeat {\n    set n = 1\n  } until false\n}\n", "R003",
           "", seconds=60)


def test_phase_calling_itself(tmp_path):
    e = _fails(tmp_path, "phase main {\n  again\n}\nphase again {\n  again\n}\n", "R004",
               "again")
    assert e.hints


def test_ten_million_cards_refused_before_they_exist(tmp_path):
    e = _fails(tmp_path, "deck stock { 10000000 x card(1) }\nphase main { }\n", "R020",
               "deck stock", seconds=2, megabytes=20)
    assert "10,000,000" in e.message


def test_product_of_large_entries_refused_before_they_exist(tmp_path):
    _fails(tmp_path, "deck stock { 1000 x card(1..90000) }\nphase main { }\n", "R020",
           "deck stock", seconds=2, megabytes=20)


def test_huge_count_literal(tmp_path):
    _fails(tmp_path, "deck stock { 99999999999999999999999999 x card(1) }\nphase main { }\n",
           "R020", "deck stock", seconds=2, megabytes=20)


def test_deal_larger_than_the_deck_is_found_by_check(tmp_path):
    # the deal that opens the setup is known before play: `check` names it (E611)
    with pytest.raises(RulesError) as info:
        _load(tmp_path, "deck stock { 5 x card(1) }\nsetup {\n  deal 3 from stock to hand\n}\n"
              "phase main { }\n")
    assert "E611" in str(info.value) and "6 cards" in str(info.value)


def test_deal_larger_than_the_pile_in_play(tmp_path):
    e = _fails(tmp_path, "deck stock { 5 x card(1) }\nsetup { }\n"
               "phase main {\n  deal 3 from stock to hand\n}\n", "R022", "deal 3")
    assert "6 cards" in e.message


def test_decision_with_no_legal_action(tmp_path):
    _fails(tmp_path, "phase main {\n  ask seat(0) {\n    c in hand[seat(0)] { }\n  }\n}\n",
           "R019", "ask seat(0)")


def test_number_overflow_by_doubling(tmp_path):
    _fails(tmp_path, "phase main {\n  while true {\n    set n = n * 2\n  }\n}\n", "R030",
           "n * 2")


def test_number_overflow_by_adding(tmp_path):
    _fails(tmp_path, "phase main {\n  while true {\n    set n += n\n  }\n}\n", "R030", "set n")


def test_overflow_in_a_definition(tmp_path):
    _fails(tmp_path, "define big = 4000000000 * 4000000000 * 4000000000\n"
           "phase main {\n  set n = big\n}\n", "R030", "define big")


def test_huge_range_in_a_choice(tmp_path):
    _fails(tmp_path, "phase main {\n  ask seat(0) {\n    k in 1..1000000000 { set n = k }\n"
           "  }\n}\n", "R016", "1..1000000000")


def test_huge_string_in_the_log(tmp_path):
    _fails(tmp_path, 'phase main {\n  let s = 0\n  while true {\n'
           '    log "{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}"\n'
           '    set n = n + 1\n  }\n}\n', "R003", "", step_limit=50_000, seconds=30,
           megabytes=400)


def test_log_grows_without_bound_is_stopped(tmp_path):
    _fails(tmp_path, 'phase main {\n  while true {\n    log "spam"\n  }\n}\n',
           "R003", "", step_limit=300_000, seconds=60, megabytes=400)


def test_a_number_literal_past_the_limit(tmp_path):
    _fails(tmp_path, "phase main {\n  set n = 99999999999999999999\n}\n", "R030",
           "99999999999999999999")
