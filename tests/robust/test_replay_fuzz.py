"""Replay files from outside: a replay of a finished game cut, reordered, with labels, fields,
game names and scenarios replaced (payloads that would create a file among them), or the
JSON itself damaged, through `rulesdsl replay` (`--to N`, keys typed, `--seat`, `--all`) in
this process: a replay shown or a clear error; never a traceback, a hang or code run."""

from __future__ import annotations

from hypothesis import given, strategies as st

from _fuzz import fuzz_settings
import _kinds


@fuzz_settings(60, shrink=False)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_mutated_replays_show_or_fail_clearly(seed):
    _kinds.assert_clean(_kinds.replay_input, seed)
