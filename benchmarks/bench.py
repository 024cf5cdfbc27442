"""Engine throughput for every bundled game and example, side by side with a hand-written
Python Triumvirat (benchmarks/triumvirat_hand.py), plus how the cost scales.

    python benchmarks/bench.py                      # every game and example, 5 rounds
    python benchmarks/bench.py --rounds 3 --round-seconds 0.3 --json
    python benchmarks/bench.py --game triumvirat --players 2
    python benchmarks/bench.py --scaling            # deck size and history length
    python benchmarks/bench.py --engine-root DIR    # measure another checkout's engine
    python benchmarks/bench.py --calls              # function calls per action (exact)

Uses the public API only. See benchmarks/README.md for what the numbers mean.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _engine_root(argv: list) -> Path:
    """--engine-root DIR (read before importing rulesdsl), else this checkout."""
    for i, a in enumerate(argv):
        if a == "--engine-root" and i + 1 < len(argv):
            return Path(argv[i + 1]).resolve()
        if a.startswith("--engine-root="):
            return Path(a.split("=", 1)[1]).resolve()
    return HERE.parent


ENGINE_ROOT = _engine_root(sys.argv)
sys.path.insert(0, str(ENGINE_ROOT))
sys.path.insert(0, str(HERE))

import rulesdsl  # noqa: E402
import triumvirat_hand  # noqa: E402

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


def all_games() -> list:
    """(name, path) of every bundled game and example of the engine measured."""
    out = []
    for folder in ("games", "examples"):
        for p in sorted((ENGINE_ROOT / folder).glob("*.rules")):
            out.append((p.stem, p))
    return out


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


def per_call_us(fn, items: list, min_seconds: float = 0.3) -> float:
    """Mean microseconds (CPU) per call of fn(item), looping over items."""
    calls = 0
    start = time.process_time()
    while True:
        for item in items:
            fn(item)
        calls += len(items)
        elapsed = time.process_time() - start
        if elapsed >= min_seconds:
            return elapsed / calls * 1e6


def legal_actions_us(states: list, min_seconds: float = 0.3) -> float:
    """Microseconds per first legal_actions() call on a fresh clone (no cached answers)."""
    total = 0.0
    calls = 0
    while total < min_seconds:
        fresh = [s.clone() for s in states]          # not timed
        start = time.process_time()
        for s in fresh:
            s.legal_actions()
        total += time.process_time() - start
        calls += len(fresh)
    return total / calls * 1e6


def timed_games(play, seconds: float, first_seed: int) -> tuple:
    """Whole games for at least `seconds` of CPU: (games, actions, cpu seconds, next seed)."""
    games = actions = 0
    seed = first_seed
    start = time.process_time()
    while True:
        actions += play(seed)
        games += 1
        seed += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games, actions, elapsed, seed


def bench_game(name: str, path: Path, players: int | None, rounds: int,
               round_seconds: float) -> dict:
    game = rulesdsl.load(str(path))
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
    engine_seed = hand_seed = 0
    per_round = []
    for _ in range(rounds):  # interleaved: the machine's load hits both alike
        g, a, t, engine_seed = timed_games(lambda s: play_random(game, n_players, s),
                                           round_seconds, engine_seed)
        hg, ha, ht, hand_seed = timed_games(triumvirat_hand.play_random, round_seconds,
                                            hand_seed)
        per_round.append((a / t, g / t, ha / ht))
    aps = statistics.median(r[0] for r in per_round)
    gps = statistics.median(r[1] for r in per_round)
    hand = statistics.median(r[2] for r in per_round)
    ratio = statistics.median(r[0] / r[2] for r in per_round)
    sample = states[:SAMPLE_STATES]
    return {
        "game": name,
        "players": n_players,
        "rounds": rounds,
        "games_per_second": gps,
        "actions_per_second": aps,
        "hand_actions_per_second": hand,
        "ratio_to_hand": ratio,
        "clone_us": per_call_us(lambda s: s.clone(), sample) if sample else None,
        "legal_actions_us": legal_actions_us(sample) if sample else None,
        "sampled_states": len(sample),
    }


# ---------------------------------------------------------------------- scaling
DRAW_GAME = """game "Scale"
players 2
kind chip { value: int }
deck pile { chip(1..%d) }
zone pile hidden
zone taken per player hidden
flow main
phase main {
  turns p from seat(0) until size(pile) == 0 {
    ask p {
      "draw" { move top(pile) to taken[p] }
      "pass it on" { move top(pile) to taken[next(p)] }
    }
  }
}
"""

CYCLE_GAME = """game "Cycle"
players 2
kind chip { value: int }
deck pile { chip(1..20) }
zone pile hidden
flow main
phase main {
  turns p from seat(0) {
    ask p {
      "cycle" { move top(pile) to pile at bottom }
      "keep" { }
    }
  }
}
"""


def calls_per_action(play, games: int = 10) -> dict:
    """Function calls per action over the same seeded games: what a change removes or
    adds, exactly, where this shared machine's timings vary by ±10%. "python": calls of
    Python functions (the engine's, the generated code's); "builtin": calls of C
    functions and methods (len, list.append, ...), each far cheaper. Counted from
    sys.setprofile's events (cProfile's table would merge the generated functions that
    share a name and a line)."""
    for seed in range(games):  # first unprofiled: loading, compiling and first-use caches
        play(seed)
    counts = {"call": 0, "c_call": 0}

    def count(frame, event, arg):
        if event in counts:
            counts[event] += 1
    sys.setprofile(count)
    try:
        actions = sum(play(seed) for seed in range(games))
    finally:
        sys.setprofile(None)
    return {"actions": actions, "python": counts["call"] / actions,
            "builtin": counts["c_call"] / actions}


def calls_of_one(name: str, players: int | None) -> dict | None:
    """calls_per_action of one game ("hand" for the hand-written Triumvirat)."""
    if name == "hand":
        return dict(game="hand-written triumvirat", players=2,
                    **calls_per_action(triumvirat_hand.play_random))
    game = rulesdsl.load(str(dict(all_games())[name]))
    n = players if players is not None else game.min_players
    if not game.min_players <= n <= game.max_players:
        return None
    return dict(game=name, players=n,
                **calls_per_action(lambda seed: play_random(game, n, seed)))


def calls_table(names: list, players: int | None) -> list:
    """Each game counted in a fresh process with a fixed hash seed, so what ran before
    (the engine's caches of labels and code) cannot change the count."""
    import subprocess
    rows = []
    for name in ["hand"] + names:
        argv = [sys.executable, __file__, "--calls-one", name, "--engine-root",
                str(ENGINE_ROOT)] + ([] if players is None else ["--players", str(players)])
        out = subprocess.run(argv, capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": "0"}).stdout
        row = json.loads(out)
        if row is not None:
            rows.append(row)
    return rows


def _load_text(text: str, where: Path, name: str):
    path = where / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    return rulesdsl.load(str(path))


def scaling(rounds: int, seconds: float) -> dict:
    """Per-action CPU cost with decks of 100, 1,000 and 10,000 cards (the first 90 actions
    of a game that draws from the top), and clone() at action 10 and 10,000."""
    out = {"per_action_us": {}, "clone_us": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (100, 1_000, 10_000):
            game = _load_text(DRAW_GAME % n, Path(tmp), f"scale{n}")
            start_state = game.new_game(players=2, seed=1)
            results = []
            for _ in range(rounds):
                total, count = 0.0, 0
                while total < seconds:
                    st = start_state.clone()
                    rng = random.Random(count)
                    t = time.process_time()
                    for _ in range(90):
                        actions = st.legal_actions()
                        st.apply(actions[rng.randrange(len(actions))])
                    total += time.process_time() - t
                    count += 90
                results.append(total / count * 1e6)
            out["per_action_us"][n] = statistics.median(results)
        game = _load_text(CYCLE_GAME, Path(tmp), "cycle")
        st = game.new_game(players=2, seed=1)
        rng = random.Random(1)
        at = {}
        for k in range(1, 10_001):
            actions = st.legal_actions()
            st.apply(actions[rng.randrange(len(actions))])
            if k in (10, 10_000):
                at[k] = st.clone()
        for k, s in at.items():
            out["clone_us"][k] = statistics.median(
                per_call_us(lambda x: x.clone(), [s] * 50, seconds) for _ in range(rounds))
    return out


# ---------------------------------------------------------------------- output
def table(rows: list[dict]) -> str:
    header = ["game", "players", "games/s", "actions/s", "× hand", "clone µs", "legal µs"]
    full = [header]
    for r in rows:
        if "skipped" in r or "error" in r:
            full.append([r["game"], str(r["players"]),
                         ("skipped: " + r["skipped"]) if "skipped" in r else
                         ("error: " + r["error"]), "", "", "", ""])
            continue
        full.append([
            r["game"], str(r["players"]), f"{r['games_per_second']:,.1f}",
            f"{r['actions_per_second']:,.0f}", f"{r['ratio_to_hand']:.3f}",
            "-" if r["clone_us"] is None else f"{r['clone_us']:.1f}",
            "-" if r["legal_actions_us"] is None else f"{r['legal_actions_us']:.1f}",
        ])
    widths = [max(len(line[i]) for line in full if line[2] or i < 2)
              for i in range(len(header))]
    out = []
    for line in full:
        if not line[3] and line is not header:
            out.append(f"{line[0].ljust(widths[0])}  {line[1].rjust(widths[1])}  {line[2]}")
        else:
            out.append("  ".join([line[0].ljust(widths[0])] +
                                 [c.rjust(w) for c, w in zip(line[1:], widths[1:])]))
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    ap.add_argument("--round-seconds", type=float, default=0.5,
                    help="CPU seconds of games per round, engine and hand-written each")
    ap.add_argument("--players", type=int, default=None,
                    help="player count for every game (default: each game's minimum)")
    ap.add_argument("--game", action="append", default=None,
                    help="only this game or example (repeatable)")
    ap.add_argument("--scaling", action="store_true",
                    help="only the scaling report (deck size, clone at action 10 / 10,000)")
    ap.add_argument("--calls", action="store_true",
                    help="only function calls per action (deterministic, 10 seeded games)")
    ap.add_argument("--calls-one", help=argparse.SUPPRESS)  # one game of --calls
    ap.add_argument("--engine-root", default=None,
                    help="a checkout whose engine and games to measure (default: this one)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    args = ap.parse_args(argv)

    pinned = "not pinned" if args.no_pin else pin_to_one_core()
    env = {"python": platform.python_version(), "implementation": platform.python_implementation(),
           "machine": platform.machine(), "cpu": pinned, "engine": str(ENGINE_ROOT),
           "rounds": args.rounds, "round_seconds": args.round_seconds}
    if args.scaling:
        result = scaling(args.rounds, args.round_seconds)
        if args.json:
            print(json.dumps({"environment": env, "scaling": result}, indent=2))
        else:
            for n, us in result["per_action_us"].items():
                print(f"per action, deck of {n:>6,} cards: {us:8.1f} µs")
            for k, us in result["clone_us"].items():
                print(f"clone() at action {k:>6,}:         {us:8.1f} µs")
        return 0
    if args.calls_one:
        print(json.dumps(calls_of_one(args.calls_one, args.players)))
        return 0
    if args.calls:
        names = [n for n, _ in all_games() if not args.game or n in args.game]
        result = calls_table(names, args.players)
        if args.json:
            print(json.dumps({"environment": env, "calls": result}, indent=2))
        else:
            print(f"{'game':<24}{'players':>8}{'actions':>9}{'python calls':>14}"
                  f"{'builtin calls':>15}  (per action)")
            for r in result:
                print(f"{r['game']:<24}{r['players']:>8}{r['actions']:>9,}{r['python']:>14.1f}"
                      f"{r['builtin']:>15.1f}")
        return 0
    rows = []
    for name, path in all_games():
        if args.game and name not in args.game:
            continue
        if not args.json:
            print(f"... {name}", file=sys.stderr, flush=True)
        try:
            rows.append(bench_game(name, path, args.players, args.rounds, args.round_seconds))
        except rulesdsl.RulesError as e:
            rows.append({"game": name, "players": args.players, "error": e.message})
    if args.json:
        print(json.dumps({"environment": env, "results": rows}, indent=2))
    else:
        print(table(rows))
        print(f"\n{env['implementation']} {env['python']} on {env['machine']}, {pinned}; "
              f"CPU time, median of {args.rounds} interleaved rounds of "
              f"{args.round_seconds:g} s; × hand = actions/s over the hand-written "
              f"Triumvirat's actions/s")
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
