"""Keyboard input and action labels from outside: anything typed is either an action, a
command of the runner, or a clear message; the state is unchanged by what is refused."""

from __future__ import annotations

import os
import subprocess
import sys

from hypothesis import given, strategies as st

from _fuzz import ROOT, fuzz_settings
import rulesdsl
from rulesdsl.lang.errors import IllegalAction, RulesError

GAME = rulesdsl.load("triumvirat")
STATE = GAME.new_game(players=2, seed=11)
LABELS = [a.label for a in STATE.legal_actions()]

JUNK = st.one_of(st.text(max_size=30), st.sampled_from(LABELS).map(lambda s: s.upper()),
                 st.sampled_from(LABELS).map(lambda s: " " + s + "  "),
                 st.integers(), st.none(), st.floats(), st.lists(st.integers(), max_size=2),
                 st.binary(max_size=8))


@fuzz_settings(500)
@given(junk=JUNK)
def test_apply_refuses_anything_but_a_legal_label(junk):
    state = STATE.clone()
    before = state.to_json()
    try:
        state.apply(junk)
    except IllegalAction as e:
        assert e.code == "A001" and e.hints or "not" in e.message
        assert state.to_json() == before
        return
    except RulesError as e:
        raise AssertionError(f"not an IllegalAction: {e}")
    assert isinstance(junk, str) and junk in LABELS


LINES = st.lists(st.one_of(st.text(alphabet=st.characters(blacklist_categories=("Cs",),
                                                          blacklist_characters="\n\r"),
                                   max_size=20),
                           st.sampled_from(["0", "1", "99", "-1", "help", "?", "quit", "save",
                                            "view", "", " ", "\t", "1e9", "⁴"])),
                 max_size=12)


@fuzz_settings(15)
@given(lines=LINES)
def test_the_runner_takes_any_keyboard_input(tmp_path_factory, lines):
    """A human at the keyboard types anything: the runner never crashes with a traceback."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT),
                                                      os.environ.get("PYTHONPATH", "")]))
    where = tmp_path_factory.mktemp("play")
    r = subprocess.run([sys.executable, "-m", "rulesdsl.cli", "play", "triumvirat", "--seed", "3",
                        "--seats", "human,random"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, env=env, cwd=where, timeout=120)
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr[-2000:]
    assert r.returncode in (0, 1, 2, 130), (r.returncode, r.stderr[-1000:])
