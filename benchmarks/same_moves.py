"""Do two trees' searchers choose the same? Chosen actions and root visit counts, per position.

    python benchmarks/same_moves.py --out /tmp/new.json                       # this tree
    python benchmarks/same_moves.py --engine-root /tmp/old --out /tmp/old.json
    python benchmarks/same_moves.py --compare /tmp/old.json /tmp/new.json

A change meant to make a search cheaper without changing what it chooses (same seed, same
move) is checked here: for each game and player count in CASES, the fixed positions of
ismcts_speed.py (seed s, after `s * 7 + 3` random actions drawn from random.Random(s)), at
each an ISMCTSAgent seeded 0 with a fixed iteration budget and no CPU cap chooses once; and
a few games played from the deal by one agent per seat for their first decisions (so what
an agent carries from one decision to the next is exercised too: the others' habits, the
inference's replays). Recorded per choice: the label, the iterations done and dropped, and
the root's analysis (each action's visits and mean reward, as `repr` of the float: equal
means equal to the last bit). `--compare` prints the first differences and exits 1 on any.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# the engine root (--engine-root, read before argparse) and the fixed positions, as
# ismcts_speed.py finds them
from ismcts_speed import ENGINE_ROOT, positions

# (rules file, players, positions)
CASES = [
    ("games/triumvirat.rules", 2, 8),
    ("examples/hearts.rules", 4, 6),
    ("games/condottiere.rules", 2, 4), ("games/condottiere.rules", 4, 3),
    ("games/condottiere_edition2.rules", 3, 3),
    ("games/intrige.rules", 3, 4), ("games/intrige.rules", 5, 3),
    ("games/ivanhoe.rules", 2, 4), ("games/ivanhoe.rules", 5, 3),
    ("examples/sevens.rules", 3, 4), ("examples/sevens.rules", 6, 3),
    ("examples/reversi.rules", 2, 2), ("examples/backgammon.rules", 2, 2),
    ("examples/oh_hell.rules", 3, 4), ("examples/oh_hell.rules", 5, 3),
    ("examples/lost_cities.rules", 2, 4), ("examples/gops.rules", 3, 4),
    ("examples/no_thanks.rules", 4, 4), ("examples/crazy_eights.rules", 3, 4),
    ("examples/hanabi.rules", 3, 3), ("examples/love_letter.rules", 2, 4),
    ("examples/skull.rules", 4, 3), ("examples/coup.rules", 3, 3),
    ("examples/go_fish.rules", 3, 3), ("examples/liars_dice.rules", 3, 3),
]
# (rules file, players, decisions) played from the deal, one agent per seat
GAMES = [
    ("games/triumvirat.rules", 2, 24), ("examples/hearts.rules", 4, 20),
    ("games/intrige.rules", 3, 20), ("games/condottiere.rules", 3, 20),
    ("examples/sevens.rules", 4, 20),
]


def record(agent, action) -> list:
    return [action.label, agent.last_iterations, agent.last_dropped,
            [[a, v, repr(m)] for a, v, m in agent.analysis]]


def run(iterations: int, quick: bool) -> dict:
    sys.path.insert(0, str(ENGINE_ROOT))
    import rulesdsl
    from rulesdsl.agents import make_agent
    out: dict = {}
    for path, players, count in CASES:
        game = rulesdsl.load(str(ENGINE_ROOT / path))
        rows = []
        for st in positions(game, players, 2 if quick else count):
            agent = make_agent("ismcts", seed=0, iterations=iterations, seconds=None)
            try:
                rows.append(record(agent, agent.choose(st.clone())))
            except rulesdsl.RulesError as e:
                rows.append(["error", str(e)])
        out[f"{Path(path).stem} {players}p positions"] = rows
        print(f"{Path(path).stem} {players}p: {[r[0] for r in rows]}", file=sys.stderr)
    for path, players, decisions in GAMES:
        game = rulesdsl.load(str(ENGINE_ROOT / path))
        st = game.new_game(players=players, seed=7)
        agents = [make_agent("ismcts", seed=q, iterations=iterations, seconds=None)
                  for q in range(players)]
        rows = []
        for _ in range(6 if quick else decisions):
            if st.is_over:
                break
            agent = agents[st.to_move]
            try:
                action = agent.choose(st.clone())
            except rulesdsl.RulesError as e:
                rows.append(["error", str(e)])
                break
            rows.append(record(agent, action))
            st.apply(action)
        out[f"{Path(path).stem} {players}p game"] = rows
        print(f"{Path(path).stem} {players}p game: {[r[0] for r in rows]}", file=sys.stderr)
    return out


def compare(old: dict, new: dict) -> int:
    bad = 0
    for key in old:
        a, b = old[key], new.get(key)
        if a == b:
            continue
        bad += 1
        if b is None:
            print(f"{key}: missing")
            continue
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                print(f"{key} #{i}: {x[:3]} != {y[:3]}" + ("" if x[:3] != y[:3] else
                                                          f"\n  {x[3]}\n  {y[3]}"))
                break
        else:
            print(f"{key}: {len(a)} choices != {len(b)}")
    same = sum(len(v) for k, v in old.items() if new.get(k) == v)
    print(f"{len(old) - bad} of {len(old)} cases the same ({same} choices); {bad} differ")
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine-root", default=None)
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--quick", action="store_true", help="two positions a case, six moves")
    ap.add_argument("--out")
    ap.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    args = ap.parse_args()
    if args.compare:
        old, new = (json.loads(Path(p).read_text()) for p in args.compare)
        sys.exit(compare(old, new))
    found = run(args.iterations, args.quick)
    text = json.dumps(found, indent=0)
    if args.out:
        Path(args.out).write_text(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
