"""How much can skill win in a game? A deliberate cheat measures the ceiling: `oracle` is the
default search (`ismcts`) given the true position in place of samples of what its seat
knows, every hand and the order of the stock included, played through the gauntlet
against the same opponents. Where even the cheat stays near the fair share, the game's luck
leaves no fair player room to reach the gauntlet's bar.

    python benchmarks/ceiling.py --only crazy_eights --players max --against greedy \\
        --games 100 --log ceiling.jsonl
    python benchmarks/ceiling.py --agent oracle:level=hard ...   # the search's settings
    python benchmarks/gauntlet.py --summary ceiling.jsonl

A probe for designers and for reading the gauntlet, never a player: it lives here, not in
rulesdsl/, and only the seats whose spec starts with `oracle` see through the cards (the
opponents are built as in the gauntlet and search their own samples).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gauntlet
import rulesdsl.agents.ismcts as ismcts
from rulesdsl.agents.seats import parse_spec

honest_seat = gauntlet.make_seat


class _TrueKnowledge:
    """Every sample is the position itself (a clone: the search plays on it)."""

    def __init__(self, state, me: int):
        self.state = state

    def sample(self, seed: int):
        return self.state.clone()

    def hides_nothing(self) -> bool:
        return True


class Oracle(ismcts.ISMCTSAgent):
    """The search, reading the true position while it chooses (and only then: another
    searching seat at the table still samples what it knows)."""

    name = "oracle"

    def choose(self, state):
        honest = ismcts.Knowledge
        ismcts.Knowledge = _TrueKnowledge
        try:
            return super().choose(state)
        finally:
            ismcts.Knowledge = honest


def make_seat(spec: str, game, seed: int):
    """`oracle[:settings]` is the cheat with the search's settings (its others' trees are
    not split: it has no secret worth keeping from itself); anything else as the gauntlet."""
    if spec == "oracle" or spec.startswith("oracle:"):
        settings = parse_spec(spec)[1]
        return Oracle(seed, **{**settings, "secrets": False})
    return honest_seat(spec, game, seed)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--agent" not in argv:
        argv += ["--agent", "oracle"]
    gauntlet.make_seat = make_seat
    return gauntlet.main(argv)


if __name__ == "__main__":
    sys.exit(main())
