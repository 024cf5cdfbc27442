"""Runaway recursion: the error names the repeating chain once, with a count."""

import pytest

import rulesdsl
from rulesdsl.lang.errors import RulesError

LOOP = """game "Loop"
players 2
zone pile public
flow main
phase main { again }
phase again { log "x" again2 }
phase again2 { again }
"""


def test_the_chain_is_told_once_with_a_count(tmp_path):
    path = tmp_path / "loop.rules"
    path.write_text(LOOP)
    with pytest.raises(RulesError) as info:
        rulesdsl.load(str(path)).new_game(players=2, seed=0)
    trace = list(info.value.trace)
    assert trace[0].startswith("main")
    assert len(trace) < 10
    repeat = [t for t in trace if "more times" in t]
    assert len(repeat) == 1 and "2 calls above again" in repeat[0]
    assert int(repeat[0].split("again ")[1].split(" ")[0]) > 50
