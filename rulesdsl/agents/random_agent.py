"""An agent that picks uniformly among the legal actions, with its own seeded RNG."""

from __future__ import annotations

import random

from rulesdsl.agents.choosing import actions_to_choose


class RandomAgent:
    """Chooses uniformly at random; the same seed and states give the same choices."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state):
        """One of `state.legal_actions()`, uniformly."""
        actions = actions_to_choose(state)
        return actions[self.rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"
