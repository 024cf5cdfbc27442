"""Agent against agent in every bundled game: win rates with 95% Wilson intervals and the
median time per move of the first agent.

    python benchmarks/arena.py --games 20 [--only triumvirat] [--a ismcts:medium]
        [--b random] [--players N] [--out benchmarks/results-arena.md]

In a 2-player game the two agents swap seats every game; with more players agent A takes
each seat in turn and agent B fills the others. A draw or a shared win counts as a share.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import rulesdsl
from rulesdsl.agents import make_agent
from rulesdsl.agents.seats import agent_seed

GAMES = ["triumvirat", "ivanhoe", "condottiere", "condottiere_edition2", "intrige"]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def match(game, players: int, games: int, a: str, b: str, seed: int = 1,
          max_actions: int = 20000) -> dict:
    share, times, moves = 0.0, [], 0
    for g in range(games):
        a_seat = g % players
        gseed = seed * 1000 + g
        specs = [a if s == a_seat else b for s in range(players)]
        agents = [make_agent(spec, agent_seed(gseed, s)) for s, spec in enumerate(specs)]
        st = game.new_game(players=players, seed=gseed)
        for _ in range(max_actions):
            if st.is_over:
                break
            p = st.to_move
            t = time.perf_counter()
            action = agents[p].choose(st)
            if p == a_seat:
                times.append(time.perf_counter() - t)
            st.apply(action)
            moves += 1
        if st.is_over and a_seat in st.winners:
            share += 1 / len(st.winners)
    low, high = wilson(share, games)
    return {"games": games, "share": share / games, "ci": (low, high),
            "median_s": statistics.median(times) if times else 0.0,
            "a_moves": len(times), "expected": 1 / players}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--only", action="append")
    ap.add_argument("--a", default="ismcts:medium")
    ap.add_argument("--b", default="random")
    ap.add_argument("--players", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    rows = []
    for name in args.only or GAMES:
        game = rulesdsl.load(name)
        players = args.players or game.min_players
        r = match(game, players, args.games, args.a, args.b, args.seed)
        row = (f"| {Path(name).stem} | {players} | {args.a} | {args.b} | {r['games']} | "
               f"{r['share']:.0%} | {r['ci'][0]:.0%}-{r['ci'][1]:.0%} | {r['expected']:.0%} | "
               f"{r['median_s']:.2f} |")
        print(row, flush=True)
        rows.append(row)
    if args.out:
        head = ("| game | players | agent A | others | games | A wins | 95% CI | even share | "
                "A median s/move |\n|---|---|---|---|---|---|---|---|---|\n")
        path = Path(args.out)
        old = path.read_text() if path.exists() else "# Arena results\n\n" + head
        path.write_text(old + "\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
