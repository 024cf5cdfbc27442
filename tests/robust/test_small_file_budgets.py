"""What a small rules file can make: the cards' labels, long texts per decision and the
generated Python are budgeted (issue 31), so memory stays in proportion to the limits, not
to what a few lines multiply."""

from __future__ import annotations

import time
import tracemalloc

import pytest

import rulesdsl
from rulesdsl.lang.errors import RulesError
from test_hostile import HEAD


def _measured(call):
    """(what call raised, CPU seconds (a loaded machine does not inflate them), peak MB traced)."""
    tracemalloc.start()
    t0 = time.process_time()
    try:
        with pytest.raises(RulesError) as info:
            call()
        return info.value, time.process_time() - t0, tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def _write(tmp_path, text: str):
    path = tmp_path / "budget.rules"
    path.write_text(text)
    return path


def test_a_long_label_on_99999_cards_is_refused_by_check(tmp_path):
    # the finding as filed: a 100 KB file whose 1 KB label on 99,999 cards made `simulate`
    # grow to 9.8 GB; `check` now counts the labels from the deck before any card exists
    path = _write(tmp_path, 'game "Big"\nplayers 2\n'
                  'kind card { value: int  label "' + "x" * 1000 + '{value}" }\n'
                  "deck stock { card(1..99999) }\nzone stock public\nflow main\n"
                  'phase main {\n  ask seat(0) "which?" { c in stock { } }\n}\n')
    e, seconds, megabytes = _measured(lambda: rulesdsl.load(path).new_game(players=2))
    assert e.code == "E609" and e.span.line == 4, str(e)
    assert "card_labels" in " ".join(e.hints)
    assert seconds < 10 and megabytes < 50, (seconds, megabytes)


def test_holes_that_read_long_are_counted_when_the_decks_are_built(tmp_path, monkeypatch):
    # `check` counts a hole as one character; the seven digits each card shows are counted
    # when the cards are made
    values = ", ".join(str(1_000_000 + k) for k in range(100))
    path = _write(tmp_path, HEAD + f"deck stock {{ card([{values}]) }}\nphase main {{ }}\n")
    monkeypatch.setenv("RULESDSL_LIMITS", "card_labels=300")
    rulesdsl.check_file(path)  # 100 cards, at least one character each: under 300
    with pytest.raises(RulesError) as info:
        rulesdsl.load(path).new_game(players=2, seed=1)
    assert info.value.code == "E609" and info.value.span.line == 9, str(info.value)


def test_a_label_table_past_the_card_labels_limit_is_built_per_decision(tmp_path,
                                                                         monkeypatch):
    # `"... {c}" for c in stock` is worked out once per card where it fits the budget, and
    # read the same when it does not
    path = _write(tmp_path, HEAD + "deck stock { card(1..50) }\nzone pile public\n"
                  'phase main {\n  ask seat(0) "which?" {\n'
                  '    "' + "y" * 40 + ' {c}" for c in stock { move c to pile }\n  }\n}\n')
    before = [a.label for a in rulesdsl.load(path).new_game(players=2).legal_actions()]
    monkeypatch.setenv("RULESDSL_LIMITS", "card_labels=1000")
    after = [a.label for a in rulesdsl.load(path).new_game(players=2).legal_actions()]
    assert after == before and len(after) == 50


def test_a_decision_of_100000_long_labels_stops_at_the_long_texts_limit(tmp_path):
    # 100,000 options of a 2,000-character label would be 200 MB of labels; the range's
    # end is a variable, so only running the rules tells how many there are
    path = _write(tmp_path, HEAD.replace("var n: int = 1", "var n: int = 100000") +
                  'phase main {\n  ask seat(0) "which?" {\n'
                  '    "' + "x" * 2000 + '{k}" for k in 1..n { }\n  }\n}\n')
    game = rulesdsl.load(path)
    e, seconds, megabytes = _measured(lambda: game.new_game(players=2, seed=1))
    assert e.code == "R031" and e.span.line == 11, str(e)
    assert "long_texts" in " ".join(e.hints)
    assert seconds < 10 and megabytes < 40, (seconds, megabytes)


def test_long_labels_over_a_written_range_are_refused_by_check(tmp_path):
    path = _write(tmp_path, HEAD + 'phase main {\n  ask seat(0) "which?" {\n'
                  '    "' + "x" * 2000 + '{k}" for k in 1..100000 { }\n  }\n}\n')
    with pytest.raises(RulesError) as info:
        rulesdsl.check_file(path)
    assert info.value.code == "E609" and info.value.span.line == 11, str(info.value)
    assert "200,100,000 characters" in info.value.message


def test_a_log_of_long_lines_in_a_loop_stops_at_the_long_texts_limit(tmp_path,
                                                                      monkeypatch):
    path = _write(tmp_path, HEAD + "phase main {\n  for k in 1..50 {\n"
                  '    log "' + "z" * 1500 + '{k}"\n  }\n}\n')
    rulesdsl.load(path).new_game(players=2, seed=1)  # 75,000 characters: fine by default
    monkeypatch.setenv("RULESDSL_LIMITS", "long_texts=20000")
    with pytest.raises(RulesError) as info:
        rulesdsl.load(path).new_game(players=2, seed=1)
    assert info.value.code == "R031" and info.value.span.line == 11, str(info.value)


def test_rules_that_would_generate_huge_python_run_on_the_closures(tmp_path, monkeypatch):
    # the finding: 545 KB of rules generated 13.9 MB of Python (915 MB to compile); here
    # 400 conditions make about 1 MB of it, against a limit lowered to 100,000 characters
    body = "".join(f"  if n > {k} and n < {k} + 3 or n == {k} * 2 {{ set n = n + {k} * 2 - 1 }}\n"
                   for k in range(400))
    path = _write(tmp_path, HEAD + "phase main {\n" + body +
                  '  ask seat(0) "done?" { "yes" { } }\n}\n')
    monkeypatch.setenv("RULESDSL_ENGINE", "generated")  # the limit is the generator's
    game = rulesdsl.load(path)
    monkeypatch.setenv("RULESDSL_LIMITS", "generated_code=100000")
    tracemalloc.start()
    try:
        with pytest.warns(RuntimeWarning, match="generated_code"):
            state = game.new_game(players=2, seed=1)
        megabytes = tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
    assert not state.prog.generated
    assert [a.label for a in state.legal_actions()] == ["yes"]
    assert megabytes < 30, megabytes  # about 64 MB when it was compiled
