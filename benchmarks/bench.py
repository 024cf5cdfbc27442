"""Engine throughput for every bundled game: random full games, clone() and legal_actions().

    python benchmarks/bench.py                  # 10 s of games per bundled game
    python benchmarks/bench.py --seconds 2 --json
    python benchmarks/bench.py --game triumvirat --players 2

Uses the public API only. See benchmarks/README.md for what the numbers mean.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

# Run from a source checkout without installing.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rulesdsl  # noqa: E402
from rulesdsl.lang.resources import bundled_games  # noqa: E402

SAMPLE_STATES = 200        # decision states sampled for the clone/legal_actions timings
MAX_ACTIONS = 100_000      # a game longer than this is reported as stuck


def pin_to_one_core() -> str:
    """Keep the process on one CPU so numbers are comparable; returns what was done."""
    if hasattr(os, "sched_setaffinity"):
        try:
            cpus = sorted(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {cpus[0]})
            return f"pinned to cpu {cpus[0]}"
        except OSError:
            pass
    return "not pinned"


def play_random(game, players: int, seed: int, states: list | None = None,
                keep_every: int = 0) -> int:
    """One full random game; returns the number of actions. Optionally samples states."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    n = 0
    while not state.is_over:
        actions = state.legal_actions()
        if states is not None and keep_every and n % keep_every == 0:
            states.append(state.clone())
        state.apply(actions[rng.randrange(len(actions))])
        n += 1
        if n > MAX_ACTIONS:
            raise RuntimeError(f"game with seed {seed} did not end within {MAX_ACTIONS} actions")
    return n


def per_call_us(fn, items: list, min_seconds: float = 0.5) -> float:
    """Mean microseconds per call of fn(item), looping over items for at least min_seconds."""
    calls = 0
    start = time.perf_counter()
    while True:
        for item in items:
            fn(item)
        calls += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / calls * 1e6


def legal_actions_us(states: list, min_seconds: float = 0.5) -> float:
    """Microseconds per first legal_actions() call on a fresh clone (no cached answers)."""
    total = 0.0
    calls = 0
    while total < min_seconds:
        fresh = [s.clone() for s in states]          # not timed
        start = time.perf_counter()
        for s in fresh:
            s.legal_actions()
        total += time.perf_counter() - start
        calls += len(fresh)
    return total / calls * 1e6


def bench_game(name: str, players: int | None, seconds: float) -> dict:
    game = rulesdsl.load(name)
    n_players = players if players is not None else game.min_players
    if not (game.min_players <= n_players <= game.max_players):
        return {"game": name, "players": n_players,
                "skipped": f"plays {game.min_players}-{game.max_players}"}
    # warm up, and sample decision states for the per-call timings
    states: list = []
    seed = 0
    while len(states) < SAMPLE_STATES and seed < 50:
        play_random(game, n_players, 10_000 + seed, states, keep_every=3)
        seed += 1
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        actions += play_random(game, n_players, games)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    sample = states[:SAMPLE_STATES]
    return {
        "game": name,
        "players": n_players,
        "games": games,
        "seconds": elapsed,
        "games_per_second": games / elapsed,
        "actions_per_second": actions / elapsed,
        "mean_actions": actions / games,
        "clone_us": per_call_us(lambda s: s.clone(), sample) if sample else None,
        "legal_actions_us": legal_actions_us(sample) if sample else None,
        "sampled_states": len(sample),
    }


def table(rows: list[dict]) -> str:
    header = ["game", "players", "games/s", "actions/s", "actions/game", "clone µs",
              "legal µs"]
    full = [header]
    notes = {}
    for i, r in enumerate(rows):
        if "skipped" in r or "error" in r:
            notes[i] = ("skipped: " + r["skipped"]) if "skipped" in r else ("error: " + r["error"])
            continue
        full.append([
            r["game"], str(r["players"]), f"{r['games_per_second']:,.1f}",
            f"{r['actions_per_second']:,.0f}", f"{r['mean_actions']:.1f}",
            "-" if r["clone_us"] is None else f"{r['clone_us']:.1f}",
            "-" if r["legal_actions_us"] is None else f"{r['legal_actions_us']:.1f}",
        ])
    widths = [max(len(l[i]) for l in full) for i in range(len(header))]
    widths[0] = max([widths[0]] + [len(r["game"]) for r in rows])

    def line(cells):
        return "  ".join([cells[0].ljust(widths[0])] +
                         [c.rjust(w) for c, w in zip(cells[1:], widths[1:])])

    out = [line(header)]
    it = iter(full[1:])
    for i, r in enumerate(rows):
        if i in notes:
            out.append(f"{r['game'].ljust(widths[0])}  {str(r['players']).rjust(widths[1])}  "
                       f"{notes[i]}")
        else:
            out.append(line(next(it)))
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0,
                    help="seconds of random games per game (default 10)")
    ap.add_argument("--players", type=int, default=None,
                    help="player count for every game (default: each game's minimum)")
    ap.add_argument("--game", action="append", default=None,
                    help="only this bundled game (repeatable)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    args = ap.parse_args(argv)

    pinned = "not pinned" if args.no_pin else pin_to_one_core()
    names = args.game or bundled_games()
    rows = []
    for name in names:
        if not args.json:
            print(f"... {name}", file=sys.stderr, flush=True)
        try:
            rows.append(bench_game(name, args.players, args.seconds))
        except rulesdsl.RulesError as e:
            from rulesdsl.lang.errors import render
            print(render(e), file=sys.stderr)
            rows.append({"game": name, "players": args.players, "error": e.message})
    env = {"python": platform.python_version(), "implementation": platform.python_implementation(),
           "machine": platform.machine(), "cpu": pinned, "seconds_per_game": args.seconds}
    if args.json:
        print(json.dumps({"environment": env, "results": rows}, indent=2))
    else:
        print(table(rows))
        print(f"\n{env['implementation']} {env['python']} on {env['machine']}, {pinned}, "
              f"{args.seconds:g} s per game")
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
