"""Determinization: a complete State sampled from what one seat knows: what it sees
(knowledge.py), what the others' earlier choices tell and what the public moves made of the
amounts it cannot read (inference.py)."""

from __future__ import annotations

from rulesdsl.engine.inference import hidden_amounts, inferences, start_guess
from rulesdsl.engine.knowledge import SeenKnowledge


class Knowledge(SeenKnowledge):
    """What `seat` knows about the cards and variables of `state` (computed once).
    infer=False: without what the others' earlier choices tell (inference.py)."""

    def __init__(self, state, seat: int, infer: bool = True):
        super().__init__(state, seat)
        if infer:
            self.rule_out(*inferences(state, seat))
            self.start = start_guess(state, seat)
            if self._hidden_vars():
                self.amounts = hidden_amounts(state, seat)


def determinize(state, seat: int, seed: int):
    """A complete state `seat` cannot tell from `state`, sampled from what it knows."""
    return Knowledge(state, seat).sample(seed)
