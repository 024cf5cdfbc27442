"""What the examples' reference checks share: play random games through the engine and a
reference written in the test (a Python generator of decisions: each `yield` is (seat,
the sorted legal labels) and receives the label chosen), and compare at every step."""

import random

from _play import labels


def follow(s, flow, rng: random.Random, matches=None) -> int:
    """Play s and the reference `flow` side by side with random choices until the
    reference ends; each decision's seat and legal labels must agree, and after each
    action `matches(s)` (the reference's positions) must hold. Returns the actions played."""
    actions = 0
    asked = next(flow)
    while True:
        seat, legal = asked
        assert (s.to_move, labels(s)) == (seat, legal), (s.history[-8:], s.log[-3:])
        label = rng.choice(legal)
        s.apply(label)
        actions += 1
        try:
            asked = flow.send(label)
        except StopIteration:
            return actions
        if matches is not None:
            matches(s)
