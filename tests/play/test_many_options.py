"""A decision of 100,000 options at a real terminal: the runner lists the first few dozen
and how many there are, and typing part of a label lists the options holding it, capped
the same way (issue 31: a million options printed 18.8 MB before the prompt)."""

from __future__ import annotations

import re

import pytest

from rulesdsl.play.answers import _ranges
from rulesdsl.play.runner.display import SHOWN_OPTIONS
from test_terminal import ESC, PROMPT, options_on, spawn

pexpect = pytest.importorskip("pexpect")

MANY = '''game "Many"
players 2
kind token { n: int  label "token {n}" }
deck heap { token(1..100000) }
zone heap public
zone pile public
flow main
phase main {
  ask seat(0) "Which token?" { t in heap { move t to pile } }
}
'''


def numbered(text: str) -> list:
    """(number, label) of the options listed, in their order (they may stand in columns)."""
    return sorted((int(m.group(1)), m.group(2)) for m in re.finditer(r"(\d+)\. (token \d+)",
                                                                    text))


def test_a_decision_of_100000_options_shows_a_screenful_and_finds_the_rest(tmp_path):
    (tmp_path / "many.rules").write_text(MANY)
    child = spawn(tmp_path, "play", "many.rules", "--seats", "human,random", "--seed", "1")
    child.expect(PROMPT, timeout=120)
    first = ESC.sub("", child.before)
    assert len(first) < 10_000, len(first)
    assert options_on(first) == [f"token {k}" for k in range(1, SHOWN_OPTIONS + 1)]
    assert "(100,000 in all)" in first and "type part of a label" in first

    child.sendline("OKEN 4242")  # part of a label, in any case
    child.expect(PROMPT)
    found = ESC.sub("", child.before).replace("\r", "")
    assert "11 options hold 'OKEN 4242'" in found, found
    listed = numbered(found)
    assert listed[0] == (4242, "token 4242") and len(listed) == 11
    assert {label for _, label in listed} == {"token 4242"} | {f"token 4242{k}"
                                                               for k in range(10)}

    child.sendline("n 1")  # in 11,112 labels: the first few dozen, then how many more
    child.expect(PROMPT)
    found = ESC.sub("", child.before).replace("\r", "")
    assert len(numbered(found)) == SHOWN_OPTIONS
    assert f"and {11_112 - SHOWN_OPTIONS:,} more: type more of the label" in found

    child.sendline("#4242")
    child.expect("game over after")
    assert "token 4242: from the heap to the pile" in ESC.sub("", child.before)
    child.expect(pexpect.EOF)


def test_scattered_amounts_are_listed_a_line_long():
    amounts = list(range(0, 3_000_000, 3)) + [3_000_001]
    assert _ranges(amounts) == "0..2,999,997 by 3, 3,000,001"
    scattered = [k * k for k in range(100_000)]
    text = _ranges(scattered)
    assert len(text) < 1_000 and text.endswith("(99,960 more amounts up to 9,999,800,001)")
