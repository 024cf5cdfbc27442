"""A cheap baseline: try each action once on a sample of what the mover knows and keep the
one that leaves the mover's score best placed against the others (random among ties)."""

from __future__ import annotations

import random

from rulesdsl.agents.choosing import actions_to_choose
from rulesdsl.agents.outcome import score_sign
from rulesdsl.lang.errors import RulesError


class GreedyAgent:
    """One-ply lookahead on the game's score; a move that wins outright comes first."""

    name = "greedy"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state):
        actions = actions_to_choose(state)
        me = state.to_move
        # never look at the real state's hidden parts: work on a sample of the mover's view
        d = state.determinize(me, self.rng.getrandbits(63))
        sign = score_sign(state)
        best, best_value = [], None
        for a in actions:
            s = d.clone()
            try:
                s.apply(a.label)
            except RulesError:  # the sampled cards broke the rules: this sample says nothing
                value = (-2, 0.0)
            else:
                value = _value(s, me, sign)
            if best_value is None or value > best_value:
                best, best_value = [a], value
            elif value == best_value:
                best.append(a)
        return best[self.rng.randrange(len(best))]

    def __repr__(self) -> str:
        return f"GreedyAgent(seed={self.seed!r})"


def _value(s, me: int, sign: int) -> tuple:
    if s.is_over:
        won = me in s.winners
        return (1 if won else -1, 0.0 if not won else -len(s.winners))
    scores = s.scores
    if not scores:
        return (0, 0.0)
    mine = sign * scores[me]
    others = [sign * v for p, v in enumerate(scores) if p != me]
    return (0, float(mine - max(others)) if others else float(mine))
