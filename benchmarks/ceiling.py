"""How much can skill win in a game? A deliberate cheat measures the ceiling: `oracle` is the
default search (`ismcts`) given the true position in place of samples of what its seat
knows, every hand and the order of the stock included, played through the gauntlet
against the same opponents; `open` sees every hand but not what no seat has seen (the
stock's order, dice to come). Where even the cheat stays near the fair share, the game's
luck leaves no fair player room to reach the gauntlet's bar.

    python benchmarks/ceiling.py --only crazy_eights --players max --against greedy \\
        --games 100 --log ceiling.jsonl
    python benchmarks/ceiling.py --agent oracle:level=hard ...   # the search's settings
    python benchmarks/gauntlet.py --summary ceiling.jsonl

A probe for designers and for reading the gauntlet, never a player: it lives here, not in
rulesdsl/, and only the seats whose spec starts with `oracle` see through the cards (the
opponents are built as in the gauntlet and search their own samples).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gauntlet
import rulesdsl.agents.ismcts as ismcts
from rulesdsl.agents.seats import parse_spec
from rulesdsl.engine.runtime.randoms import MASK64, splitmix64

honest_seat = gauntlet.make_seat


class _TrueKnowledge:
    """Every sample is the position itself (a clone: the search plays on it)."""

    def __init__(self, state, me: int):
        self.state = state

    def sample(self, seed: int):
        return self.state.clone()

    def hides_nothing(self) -> bool:
        return True


class _OpenHands(_TrueKnowledge):
    """Every card a seat holds is seen, but what no seat has seen (the order of a face-down
    stock) is shuffled again in each sample, and chance is drawn afresh: open hands, no
    foresight."""

    def sample(self, seed: int):
        s = self.state.clone()
        rnd = random.Random(seed)
        for zi, cards in enumerate(s.zones):
            if len(cards) > 1 and not any(s.can_see(zi, q) for q in range(s.players)):
                rnd.shuffle(cards)
                for c in cards:
                    s.loc[c] = zi
        s.rng = splitmix64(seed & MASK64 ^ 0x5DEECE66D)[1]
        s.chance = None
        s.changed_outside_apply()
        return s


class Oracle(ismcts.ISMCTSAgent):
    """The search, reading the true position while it chooses (and only then: another
    searching seat at the table still samples what it knows)."""

    name = "oracle"
    sees = _TrueKnowledge

    def choose(self, state):
        honest = ismcts.Knowledge
        ismcts.Knowledge = self.sees
        try:
            return super().choose(state)
        finally:
            ismcts.Knowledge = honest


class OpenHands(Oracle):
    """The search with every hand open to it but not the stock's order nor the dice."""

    name = "open"
    sees = _OpenHands


def make_seat(spec: str, game, seed: int):
    """`oracle[:settings]` and `open[:settings]` are the cheats with the search's settings
    (their others' trees are not split: they keep no secret from themselves); anything else
    as the gauntlet."""
    name, settings = parse_spec(spec)
    cheat = {"oracle": Oracle, "open": OpenHands}.get(name)
    if cheat is not None:
        return cheat(seed, **{**settings, "secrets": False})
    return honest_seat(spec, game, seed)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--agent" not in argv:
        argv += ["--agent", "oracle"]
    gauntlet.make_seat = make_seat
    return gauntlet.main(argv)


if __name__ == "__main__":
    sys.exit(main())
