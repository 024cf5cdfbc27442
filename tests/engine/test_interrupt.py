"""An apply interrupted anywhere (Ctrl-C at any line it runs) leaves the state exactly as
it was, still waiting for the same decision, and the action can then be applied normally."""

from __future__ import annotations

import random
import sys

import pytest

import rulesdsl


class InterruptAt:
    """A tracer raising KeyboardInterrupt at the k-th line event, once; counts the lines."""

    def __init__(self, k: int):
        self.k = k
        self.lines = 0

    def __call__(self, frame, event, arg):
        if event == "line":
            self.lines += 1
            if self.lines == self.k:
                raise KeyboardInterrupt
        return self


def traced_apply(state, label, k: int) -> InterruptAt:
    tracer = InterruptAt(k)
    sys.settrace(tracer)
    try:
        state.apply(label)
    finally:
        sys.settrace(None)
    return tracer


def decision_states(name: str, players: int, seed: int, count: int) -> list:
    """`count` decision states spread over one random game, each with a chosen label."""
    game = rulesdsl.load(name)
    state = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_over:
        actions = state.legal_actions()
        label = actions[rng.randrange(len(actions))].label
        if rng.random() < 0.08 and len(out) < count:
            out.append((state.clone(), label))
        state.apply(label)
    return out


@pytest.mark.parametrize("name,players", [("triumvirat", 2), ("ivanhoe", 3),
                                          ("condottiere", 3), ("intrige", 4)])
def test_ctrl_c_anywhere_inside_apply_changes_nothing(name, players):
    interrupted = 0
    for state, label in decision_states(name, players, seed=5, count=4):
        before = state.to_json()
        offered = [a.label for a in state.legal_actions()]
        done = state.clone()
        lines = traced_apply(done, label, 0).lines  # a full apply: how many line events
        after = done.to_json()
        assert lines > 0
        step = max(1, lines // 60)
        for k in list(range(1, lines + 1, step)) + [lines]:
            s = state.clone()
            with pytest.raises(KeyboardInterrupt):
                traced_apply(s, label, k)
            interrupted += 1
            assert s.to_json() == before, f"{name}: Ctrl-C at line event {k} of {lines}"
            assert not s.is_over and [a.label for a in s.legal_actions()] == offered
            s.apply(label)  # and it still plays on exactly as without the interruption
            assert s.to_json() == after
    assert interrupted > 100


def test_a_clone_replays_from_its_sources_snapshot_and_a_sample_from_its_own():
    """A clone is its source's position: it takes no snapshot of its own at its first
    apply (a search clones and applies thousands of times), and an interrupted apply on
    it still leaves it as it was. A sample's cards were dealt again: its own snapshot."""
    (state, label), = decision_states("triumvirat", 2, seed=5, count=1)[:1]
    state.apply(label)
    copy = state.clone()
    assert copy._origin is state._origin and state._origin is not None
    before = copy.to_json()
    offered = [a.label for a in copy.legal_actions()]
    with pytest.raises(KeyboardInterrupt):
        traced_apply(copy, offered[0], 40)
    assert copy.to_json() == before
    copy.apply(offered[0])
    sample = state.determinize(state.to_move, 3)
    assert sample._origin is None
    sample.apply(sample.legal_actions()[0])
    assert sample._origin is not None and sample._origin is not state._origin
