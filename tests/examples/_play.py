"""What the examples' tests share: loading an example that must check without a warning,
playing it to its end with random choices, and the labels a decision offers."""

import random
from pathlib import Path

import rulesdsl

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name, **options):
    """examples/NAME.rules, which must check with no errors and no warnings."""
    path = EXAMPLES / f"{name}.rules"
    assert rulesdsl.check_file(path) == []
    return rulesdsl.load(str(path), options=options) if options else rulesdsl.load(str(path))


def random_game(game, players, seed, each_step=None, limit=20_000):
    """Play one game with random choices through the public API; return the final state.
    `each_step(state)` runs at every decision; every decision offers distinct labels."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    steps = 0
    while not state.is_over:
        if each_step:
            each_step(state)
        actions = state.legal_actions()
        assert actions and len({a.label for a in actions}) == len(actions)
        state.apply(rng.choice(actions))
        steps += 1
        assert steps < limit
    assert state.winners
    return state


def labels(state) -> list:
    """The labels offered now, sorted."""
    return sorted(a.label for a in state.legal_actions())
