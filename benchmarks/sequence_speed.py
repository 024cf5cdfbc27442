"""Random actions per CPU second of one game, quickly: for a change to a game with move
sequences (Backgammon), where `bench.py --game backgammon` takes minutes.

    python benchmarks/sequence_speed.py                        # examples/backgammon.rules
    python benchmarks/sequence_speed.py --engine-root /tmp/before --rounds 7
    python benchmarks/sequence_speed.py --game examples/checkers_most.rules

Each round plays the same seeded random games as bench.py (seed s dealt with seed s, its
choices drawn from random.Random(s)) and times them in CPU seconds (`time.process_time`);
the figure is the median of the rounds. The process keeps to one CPU. On a shared machine
run the two trees one after the other, several times: the load moves more than a change.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="examples/backgammon.rules",
                    help="a path inside the engine's tree, or a bundled game's name")
    ap.add_argument("--engine-root", default=str(HERE.parent))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=6, help="seeds 0 .. games-1 per round")
    args = ap.parse_args(argv)
    root = Path(args.engine_root).resolve()
    sys.path.insert(0, str(root))
    import rulesdsl
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    path = root / args.game
    game = rulesdsl.load(str(path) if path.exists() else args.game)
    players = game.min_players

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_game(players=players, seed=seed)
        n = 0
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            n += 1
        return n

    play(args.games)  # loading and first-use caches, not timed
    rates = []
    for _ in range(args.rounds):
        start = time.process_time()
        actions = sum(play(seed) for seed in range(args.games))
        rates.append(actions / (time.process_time() - start))
    print(f"{args.game} ({rulesdsl.__file__}): {statistics.median(rates):,.0f} actions per "
          f"CPU-second, median of {[round(r) for r in rates]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
