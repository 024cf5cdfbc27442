"""A golden that fails says where: the first step at which this engine's game departs
from the other engine's, with both sides' lines (tests/engine/_golden.py `divergence`)."""

from __future__ import annotations

import rulesdsl
from rulesdsl.engine.compile import source
from rulesdsl.engine.runtime.cards import move_card
from rulesdsl.engine.state import machine
from _golden import divergence, play

GAME = '''game "Divergence"
players 2
kind card { value: int  label "card {value}" }
zone stock public
zone table public
deck stock { card(1..3) }
var n: int = 0
flow main
phase main {
  repeat {
    set n += 1
    ask seat(0) "take" {
      c in stock { move c to table }
    }
    log "top {top(table)}"
  } until n == 3
  win seat(0)
}
'''


def at_the_bottom(zones, loc, c, dest, unordered, bottom=False):
    """A wrong rule for one card's move: onto the bottom of the pile, not the top."""
    return move_card(zones, loc, c, dest, unordered, True)


def recorded_and_replayed(tmp_path, monkeypatch, *patches):
    path = tmp_path / "divergence.rules"
    path.write_text(GAME)
    monkeypatch.delenv("RULESDSL_ENGINE", raising=False)
    expected = play(rulesdsl.load(str(path)), 2, 5)
    for target, name in patches:
        if isinstance(target, dict):
            monkeypatch.setitem(target, name, at_the_bottom)
        else:
            monkeypatch.setattr(target, name, at_the_bottom)
    got = play(rulesdsl.load(str(path)), 2, 5)
    assert got != expected
    return divergence(path, {}, 2, 5, got, expected).splitlines()


def test_the_report_names_the_first_step_where_the_engines_part(tmp_path, monkeypatch):
    # the generated code moves one card by the helper; the closures by State.move_cards
    lines = recorded_and_replayed(tmp_path, monkeypatch, (source.HELPERS, "_move_card"))
    assert lines[0].startswith("divergence.rules, seed 5, 2 players, options {}: ")
    assert "log differ" in lines[0]
    assert lines[1] == "first difference, at step 2: closures (expected) vs generated (got)"
    expected = [x for x in lines if x.startswith("  expected  ")]
    got = [x for x in lines if x.startswith("  got       ")]
    assert expected[0].startswith("  expected  offered to P1: card ")
    assert [x for x in expected if "log: top" in x] != [x for x in got if "log: top" in x]
    assert len(lines) < 12


def test_engines_that_agree_say_so(tmp_path, monkeypatch):
    # the same wrong rule in both engines: no step where they part
    lines = recorded_and_replayed(tmp_path, monkeypatch, (source.HELPERS, "_move_card"),
                                  (machine, "move_card"))
    assert lines[1].startswith("the generated and the closures engines agree on all 4 steps")
    assert lines[-1] == "  got       outcome: over"
