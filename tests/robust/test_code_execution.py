"""Nothing from outside runs code: rules files, saves, replays, scenarios and typed lines
carrying Python that would create a marker file (in strings, comments, titles, `extends`
names holding a new line, labels, game names, save names), and the cache folder planted with
pickles that would create it. Each outcome is checked for the marker (see _kinds.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, strategies as st

from _fuzz import fuzz_settings
import _kinds


@fuzz_settings(40, shrink=False)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_hostile_rules_files_run_nothing(seed):
    _kinds.assert_clean(_kinds.rules_input, seed)


@fuzz_settings(30, shrink=False)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_hostile_saves_and_scenarios_run_nothing(seed):
    _kinds.assert_clean(_kinds.save_input, seed)
    _kinds.assert_clean(_kinds.scenario_input, seed)


def test_the_marker_check_sees_code_that_runs():
    """The judge counts a code execution when the marker appears."""
    def runs_a_payload(rng, ws, detail):
        return _kinds.judged(lambda: exec(ws.payloads()[0]), ws, detail)
    ws = _kinds.Workspace()
    try:
        assert runs_a_payload(random.Random(0), ws, []) == "code execution"
    finally:
        ws.close()


@pytest.mark.parametrize("seed", range(2))
def test_planted_caches_run_nothing(seed, tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path / "cache"))
    _kinds.assert_clean(_kinds.cache_input, seed)   # fills the cache
    _kinds.assert_clean(_kinds.cache_input, seed)   # plants over it, runs again
