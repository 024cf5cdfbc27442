"""An agent that picks uniformly among the legal actions, with its own seeded RNG."""

from __future__ import annotations

import random


class RandomAgent:
    """Chooses uniformly at random; the same seed and states give the same choices."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state):
        """One of `state.legal_actions()`, uniformly."""
        actions = state.legal_actions()
        if not actions:
            from rulesdsl import RulesError
            raise RulesError("E900", "the game asked for a decision with no legal action")
        return actions[self.rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"
