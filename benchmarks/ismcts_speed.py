"""ISMCTS search iterations per CPU second, from fixed positions, for comparing engines.

    python benchmarks/ismcts_speed.py                              # triumvirat and hearts
    python benchmarks/ismcts_speed.py --engine-root /tmp/before    # another checkout's engine
    python benchmarks/ismcts_speed.py --game examples/hearts.rules --rounds 5
    python benchmarks/ismcts_speed.py --bytecodes --iterations 100   # exact, not timed
    python benchmarks/ismcts_speed.py --bytecodes --agent ismcts:reply=0  # a fixed agent

The positions are fixed: seed s of a game, after `s * 7 + 3` random actions drawn from
random.Random(s) (a position with one legal action is played on). At each, an ISMCTSAgent
seeded 0 with a fixed iteration budget and no CPU cap chooses once; the CPU time
(time.process_time) of all the positions' choices is one round, the rounds interleave
nothing else, and the median round is reported as iterations (the agent's
`last_iterations`, summed) per CPU second. The same engine choosing the same moves does the
same iterations every round, so only the time varies. `--bytecodes` counts instead the
Python bytecodes the choices execute (benchmarks/bytecodes.py's counter), per iteration:
exact on a busy machine, blind to what C does (list copies, sorting).

The search measured is the default agent of the engine root's own tree, so a change to the
agent for strength shows up here as well as one to the engine. `--agent SPEC` (a seat spec,
"ismcts:reply=0") holds the agent's settings fixed, to tell the engine's share of a change
from the agent's: a tree whose agent does not know a setting says so and stops.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _engine_root(argv: list) -> Path:
    for i, a in enumerate(argv):
        if a == "--engine-root" and i + 1 < len(argv):
            return Path(argv[i + 1]).resolve()
    return HERE.parent


ENGINE_ROOT = _engine_root(sys.argv)
sys.path.insert(0, str(ENGINE_ROOT))

import rulesdsl  # noqa: E402
from rulesdsl.agents import make_agent  # noqa: E402

GAMES = ("games/triumvirat.rules", "examples/hearts.rules")


def positions(game, players: int, count: int) -> list:
    out = []
    for s in range(count):
        rng = random.Random(s)
        state = game.new_game(players=players, seed=s)
        for _ in range(s * 7 + 3):
            if state.is_over:
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        while not state.is_over and len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        if not state.is_over:
            out.append(state)
    return out


def one_round(states: list, iterations: int, spec: str = "ismcts") -> tuple:
    done = 0
    moves = []
    start = time.process_time()
    for st in states:
        agent = make_agent(spec, seed=0, iterations=iterations, seconds=None)
        moves.append(agent.choose(st.clone()).label)
        done += agent.last_iterations
    return done, time.process_time() - start, moves


def counted_round(states: list, iterations: int, spec: str = "ismcts") -> tuple:
    """(bytecodes per iteration, moves) of one round, counted as bytecodes.py counts."""
    sys.path.insert(0, str(HERE))
    from bytecodes import Counter
    counter = Counter()
    done, _, moves = counter.run(one_round, states, iterations, spec)
    return counter.bytecodes / done, moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine-root", default=None)
    ap.add_argument("--game", action="append")
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--bytecodes", action="store_true",
                    help="count bytecodes per iteration instead of timing")
    ap.add_argument("--agent", default="ismcts",
                    help="the searcher as a seat spec (default: ismcts, the tree's default "
                    "settings); e.g. ismcts:reply=0 to hold the agent fixed across trees")
    args = ap.parse_args()
    print(f"engine: {rulesdsl.__file__}; agent: {args.agent}")
    for path in args.game or GAMES:
        try:  # a path under the engine's root (games/x.rules, examples/x.rules), or a name
            found = ENGINE_ROOT / path
            game = rulesdsl.load(str(found) if found.is_file() or Path(path).suffix else path)
        except rulesdsl.RulesError as e:
            sys.exit(f"ismcts_speed: {e}")
        states = positions(game, game.min_players, args.positions)
        try:
            one_round(states[:1], 20, args.agent)  # warm up
        except rulesdsl.RulesError as e:  # a setting this tree's agent does not know
            sys.exit(f"ismcts_speed: {e}")
        if args.bytecodes:
            per, moves = counted_round(states, args.iterations, args.agent)
            print(f"{Path(path).stem}: {per:,.0f} bytecodes/iteration ({args.iterations} "
                  f"iterations at each of {len(states)} positions; moves {moves})")
            continue
        rates, iters, moves = [], 0, None
        for _ in range(args.rounds):
            iters, cpu, moves = one_round(states, args.iterations, args.agent)
            rates.append(iters / cpu)
        print(f"{Path(path).stem}: {statistics.median(rates):.1f} iterations/CPU-s "
              f"(median of {args.rounds}: {', '.join(f'{r:.1f}' for r in rates)}; "
              f"{iters} iterations over {len(states)} positions; moves {moves})")


if __name__ == "__main__":
    main()
