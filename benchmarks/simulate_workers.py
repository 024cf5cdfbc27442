"""How much faster `simulate --workers N` is than one worker, and that it gives the same result.

    python benchmarks/simulate_workers.py                                # 2,000 Hearts games
    python benchmarks/simulate_workers.py --games 200 --workers 1 2 4
    python benchmarks/simulate_workers.py --game triumvirat --players 2 --games 300

Plays the same seeds with each worker count through the Python API and prints the wall
time, the CPU time of this process and its worker processes, the ratio of wall times
against the first count, and whether the JSON result (timings left out) is identical.
On a machine shared with other work the wall ratio is depressed by that load: compare
CPU time per game and the load average printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

# Run from a source checkout without installing.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rulesdsl  # noqa: E402
from rulesdsl.analysis.simulate import simulate  # noqa: E402

TIMINGS = ("seconds", "games_per_second", "actions_per_second", "workers")


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(game, players, games, seed, workers) -> dict:
    cpu, wall = cpu_seconds(), time.perf_counter()
    result = simulate(game, players=players, games=games, seed=seed, workers=workers)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    data = {k: v for k, v in result.to_dict().items() if k not in TIMINGS}
    return {"workers": workers, "wall": wall, "cpu": cpu, "result": data}


def main(argv=None) -> int:
    here = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=str(here / "examples" / "hearts.rules"))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    game = rulesdsl.load(args.game)
    load_before = os.getloadavg()
    runs = [measure(game, args.players, args.games, args.seed, w) for w in args.workers]
    load_after = os.getloadavg()
    base = runs[0]
    rows = []
    for run in runs:
        rows.append({"workers": run["workers"], "wall_s": round(run["wall"], 2),
                     "cpu_s": round(run["cpu"], 2),
                     "speedup": round(base["wall"] / run["wall"], 2),
                     "cpu_ms_per_game": round(1000 * run["cpu"] / args.games, 2),
                     "identical": run["result"] == base["result"]})
    report = {"game": game.name, "games": args.games, "cores": os.cpu_count(),
              "load_before": [round(x, 2) for x in load_before],
              "load_after": [round(x, 2) for x in load_after], "runs": rows}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{game.name}: {args.games} games, {os.cpu_count()} cores, load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print(f"{'workers':>7} {'wall s':>8} {'cpu s':>8} {'speedup':>8} {'cpu ms/game':>12}  same")
    for r in rows:
        print(f"{r['workers']:>7} {r['wall_s']:>8.2f} {r['cpu_s']:>8.2f} {r['speedup']:>7.2f}x "
              f"{r['cpu_ms_per_game']:>12.2f}  {'yes' if r['identical'] else 'NO'}")
    return 0 if all(r["identical"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
