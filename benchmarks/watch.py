"""Watch one gauntlet deal: every choice with more than one option, and for the tested
agent what its search made of the best options (visits / mean reward), to see why it wins
or loses a match rather than only that it does.

    python benchmarks/watch.py intrige --players 3 --game 1 --against thumb
    python benchmarks/watch.py examples/love_letter.rules --game 2 --against greedy

The deal, the seats and the agents' seeds are those of game G of a gauntlet match
(benchmarks/gauntlet.py, seed 1), so a game lost in a log can be watched again.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from arena import agent_seed
from gauntlet import AGENT, canonical, load, make_seat


def describe(analysis: list, top: int = 4) -> str:
    """`label: visits/mean` of the agent's best-visited options."""
    return ", ".join(f"{label}: {visits}/{'-' if mean is None else f'{mean:.2f}'}"
                     for label, visits, mean in analysis[:top])


def watch(name: str, players: int, g: int, against: str, agent: str = AGENT,
          seed: int = 1, out=sys.stdout) -> list:
    """Play game g of the match and print its choices; returns the winners."""
    game = load(canonical(name))
    a_seat = g % players
    gseed = seed * 1000 + g
    seats = [make_seat(agent if s == a_seat else against, game, agent_seed(gseed, s))
             for s in range(players)]
    st = game.new_game(players=players, seed=gseed)
    while not st.is_over:
        p = st.to_move
        options = len(st.legal_actions())
        question = st.question()
        t = time.process_time()
        action = seats[p].choose(st)
        if options > 1:
            who = "A " if p == a_seat else f"P{p + 1}"
            line = f"{who} {question} -> {action.label}"
            if p == a_seat and hasattr(seats[p], "analysis"):
                line += f"   [{describe(seats[p].analysis)}] {time.process_time() - t:.2f}s"
            print(line, file=out)
        st.apply(action)
    print(f"winners {list(st.winners)}, scores {st.scores}, the agent at seat {a_seat}",
          file=out)
    return list(st.winners)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="a bundled name or a rules file")
    ap.add_argument("--players", type=int, help="default: the game's smallest count")
    ap.add_argument("--game", type=int, default=0, dest="number",
                    help="the game number in the match")
    ap.add_argument("--against", default="thumb", help="thumb, greedy or a seat spec")
    ap.add_argument("--agent", default=AGENT)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    players = args.players or load(canonical(args.game)).min_players
    watch(args.game, players, args.number, args.against, args.agent, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
