"""What the OpenSpiel adapter adds to the engine: `clone` and `apply_action` through
pyspiel against the engine's own `State.clone` and `State.apply` (and `apply_option`, the
search agents' fast path), on the same states and actions. CPU time per call, median of
rounds; not a test. A clone through the adapter shares its engine state until it is
applied to, so "clone+apply" (a clone, then one action on it) is the pair to compare.

    python benchmarks/openspiel_overhead.py                  # a few games
    python benchmarks/openspiel_overhead.py --game examples/hearts.rules --players 4
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from rulesdsl.integrations import openspiel as adapter  # noqa: E402

GAMES = [("examples/hearts.rules", 4), ("examples/connect_four.rules", 2),
         ("tests/integrations/rules/leduc_poker.rules", 2), ("ivanhoe", 3)]


def trajectory(game, seed: int, limit: int = 400) -> list:
    """(OpenSpiel state, action id) along one random game, the chance nodes skipped."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal() and len(out) < limit:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(int(outcomes[rng.randint(len(outcomes))][0]))
            continue
        action = int(rng.choice(state.legal_actions()))
        out.append((state.clone(), action))
        state.apply_action(action)
    return out


def per_call(fn, items, rounds: int) -> float:
    """Median over rounds of the CPU seconds per call of fn over every item."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        for item in items:
            fn(item)
        times.append((time.process_time() - start) / len(items))
    return statistics.median(times)


def measure(source: str, players: int, rounds: int = 5, games: int = 3) -> dict:
    game = pyspiel.load_game(adapter.register(source), {"players": players})
    steps = [s for seed in range(games) for s in trajectory(game, seed)]
    for state, _ in steps:        # the legal ids as a caller would have asked for them
        state.legal_actions()
    engine = [(s.held.state, s.held.options()[a], s.action_to_string(a)) for s, a in steps]

    def spiel_apply(item):
        state, action = item
        state.clone().apply_action(action)

    def engine_apply(item):
        st, option, label = item
        st.clone().apply(label)

    def engine_option(item):
        st, option, label = item
        st.clone().apply_option(st.options()[0], option)

    clone_spiel = per_call(lambda item: item[0].clone(), steps, rounds)
    clone_engine = per_call(lambda item: item[0].clone(), engine, rounds)
    return {
        "game": source, "players": players, "steps": len(steps),
        "clone": (clone_spiel, clone_engine),
        # states are applied to once: each applies to a clone of its own
        "clone+apply": (per_call(spiel_apply, steps, rounds),
                        per_call(engine_apply, engine, rounds)),
        "clone+apply_option": per_call(engine_option, engine, rounds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append")
    parser.add_argument("--players", type=int)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    games = [(g, args.players or 2) for g in args.game] if args.game else GAMES
    print(f"{'game':44} {'clone us':>9} {'engine':>8} {'x':>5} {'clone+apply':>12} "
          f"{'engine':>8} {'x':>5} {'option':>7}")
    for source, players in games:
        r = measure(source, players, args.rounds)
        (cs, ce), (as_, ae) = r["clone"], r["clone+apply"]
        name = f"{Path(source).stem} ({players}p, {r['steps']} states)"
        print(f"{name:44} "
              f"{cs * 1e6:9.1f} {ce * 1e6:8.1f} {cs / ce:5.1f} {as_ * 1e6:12.1f} "
              f"{ae * 1e6:8.1f} {as_ / ae:5.1f} {r['clone+apply_option'] * 1e6:7.1f}")


if __name__ == "__main__":
    main()
