"""Lines typed at a person's prompt, through the runner's own reading and matching in this
process (test_keyboard.py drives a few whole sessions in a process of their own): labels in
any case and spacing, numbers of any size, commands, control characters, `save` to any
name. Another game's save in progress lies where `save other.json` writes: it is never
replaced, and the game's own autosave still restores afterwards."""

from __future__ import annotations

from hypothesis import given, strategies as st

from _fuzz import fuzz_settings
import _kinds


@fuzz_settings(40, shrink=False)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_typed_lines_are_actions_commands_or_messages(seed):
    _kinds.assert_clean(_kinds.keyboard_input, seed)
