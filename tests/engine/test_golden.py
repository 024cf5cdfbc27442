"""Replay the golden transcripts: the engine must reproduce every recorded game exactly.

By default the first GOLDEN_DEFAULT games of every file; RULESDSL_FUZZ_EXAMPLES=N replays
the first N of each (N >= 212: all of them). Re-record with tests/engine/record_goldens.py.
"""

from __future__ import annotations

import json
import os

import pytest

import rulesdsl
from _golden import RULES_FILES, divergence, fixture_path, play

GOLDEN_DEFAULT = 25


def how_many() -> int:
    value = os.environ.get("RULESDSL_FUZZ_EXAMPLES")
    return int(value) if value else GOLDEN_DEFAULT


def chosen(games: list, n: int) -> list:
    """The first n default-option games, plus some option games in proportion."""
    default = [g for g in games if g[2] == 0][:n]
    variants = [g for g in games if g[2] != 0][:max(2, n // 10)]
    return default + variants


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_transcripts_replay(path):
    fixture = fixture_path(path)
    assert fixture.is_file(), f"no goldens for {path.name}: run tests/engine/record_goldens.py"
    data = json.loads(fixture.read_text(encoding="utf-8"))
    game = rulesdsl.load(str(path))
    assert game.source_hash == data["source_hash"], (
        f"{path.name} changed since its goldens were recorded: check the change, then "
        f"re-record with `python tests/engine/record_goldens.py {path.stem}`")
    games = {0: game}
    replayed = 0
    for g in chosen(data["games"], how_many()):
        seed, players, oi, expected = g[0], g[1], g[2], g[3:]
        if oi not in games:
            games[oi] = rulesdsl.load(str(path), options=data["options"][oi])
        got = play(games[oi], players, seed)
        if got != expected:
            pytest.fail(divergence(path, data["options"][oi], players, seed, got, expected),
                        pytrace=False)
        replayed += 1
    assert replayed > 0
