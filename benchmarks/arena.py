"""Agent against agent in every bundled game: win rates with 95% Wilson intervals and the
median time per move of the first agent.

    python benchmarks/arena.py --games 20 [--only triumvirat] [--a ismcts:medium]
        [--b random] [--players N] [--out benchmarks/results-arena.md]

In a 2-player game the two agents swap seats every game; with more players agent A takes
each seat in turn and agent B fills the others. A draw or a shared win counts as a share.

Long runs, one game at a time into a log (JSON lines), so a run stopped early still gives
figures and a restart goes on where the log ends; the matches take turns, `*W` games each:

    python benchmarks/arena.py --log runs.jsonl --games 100 \
        --match triumvirat:2:random*2 --match hearts:4:random --match ivanhoe:2:greedy
    python benchmarks/arena.py --log more.jsonl --first 80 --games 100 \
        --match hearts:4:random                          # games 80-99, a second process
    python benchmarks/arena.py --summary runs.jsonl      # the table so far
    python benchmarks/arena.py --summary a.jsonl b.jsonl # several logs, a game counted once
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
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


def share_of(seat: int, winners, players: int) -> float:
    """A seat's share of one game: 1 for a win, 1/k of a win shared by k, 1/players of a
    draw (a game over without winners), 0 for a loss or an unfinished game."""
    if winners is None:
        return 0.0
    if not winners:
        return 1 / players
    return 1 / len(winners) if seat in winners else 0.0


@functools.lru_cache(maxsize=None)
def engine_digest() -> str:
    """A digest of the rulesdsl package that was imported (its Python and its grammar):
    which code played a game, so logs of different code are not merged unseen (a frozen
    export has no git history to ask)."""
    root = Path(rulesdsl.__file__).parent
    h = hashlib.sha256()
    for f in sorted(root.rglob("*")):
        if f.suffix in (".py", ".lark") and "__pycache__" not in f.parts:
            h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:12]


def code_of(game) -> str:
    """The engine and the rules files (with those a file builds on) that played a game."""
    return f"{engine_digest()}:{str(getattr(game, 'source_hash', ''))[:12]}"


def standard_agent(spec: str, game, seed: int):
    """The agents a seat spec names (`make_agent`); `game` is there for players that
    belong to one game (the gauntlet's rule-of-thumb players)."""
    return make_agent(spec, seed)


def one_game(game, players: int, g: int, a: str, b: str, seed: int = 1,
             max_actions: int = 20000, make=standard_agent, clock=time.perf_counter) -> dict:
    """Game number g of a match: A's seat, the winners, A's share of the win, every seat's
    final score (none if unfinished), and per move of A's its seconds by `clock`, its
    search iterations, how many options it had; how many samples it dropped, and how many
    of its moves the CPU cap cut short (`capped`: those may differ on a slower machine).
    `make(spec, game, seed)` builds each seat's agent.

    In a cooperative game every seat wins or loses with the team, so a win says nothing of
    A, and a team plays with itself: the deal is played by A in every seat and again by B
    in every seat, and A's share is 1 where A's team did better than B's (won where it
    lost, or scored more), 1/2 where alike, else 0."""
    if not getattr(game, "cooperative", False):
        return _played(game, players, g, a, b, seed, max_actions, make, clock)
    record = _played(game, players, g, a, a, seed, max_actions, make, clock)
    alone = _played(game, players, g, b, b, seed, max_actions, make, clock)
    record["baseline"] = alone["team"]
    ours, theirs = record["team"], alone["team"]
    record["share"] = 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
    return record


def _played(game, players: int, g: int, a: str, b: str, seed: int, max_actions: int,
            make, clock) -> dict:
    a_seat = g % players
    gseed = seed * 1000 + g
    specs = [a if s == a_seat else b for s in range(players)]
    agents = [make(spec, game, agent_seed(gseed, s)) for s, spec in enumerate(specs)]
    st = game.new_game(players=players, seed=gseed)
    times, iters, options, dropped, capped = [], [], [], 0, 0
    for _ in range(max_actions):
        if st.is_over:
            break
        p = st.to_move
        if p == a_seat:
            options.append(len(st.legal_actions()))
        t = clock()
        action = agents[p].choose(st)
        if p == a_seat:
            times.append(round(clock() - t, 4))
            iters.append(getattr(agents[p], "last_iterations", 0))
            dropped += getattr(agents[p], "last_dropped", 0)
            capped += getattr(agents[p], "last_capped", False)
        st.apply(action)
    winners = list(st.winners) if st.is_over else None
    # the final scores too: how far ahead or behind A finished says more per deal than a
    # win or a loss, where two versions are compared on the same deals
    return {"g": g, "a_seat": a_seat, "winners": winners,
            "share": share_of(a_seat, winners, players), "times": times, "iters": iters,
            "options": options, "dropped": dropped, "capped": capped, "team": team_result(st),
            "scores": list(st.scores) if st.is_over else None, "code": code_of(game)}


def team_result(st) -> list:
    """How a team did, comparable between games of one deal: [won, mean score]; an
    unfinished game is worst."""
    if not st.is_over:
        return [-1, 0.0]
    scores = st.scores
    return [1 if st.winners else 0, sum(scores) / len(scores) if scores else 0.0]


def run_log(path: str, matches: list, games: int, a: str, seed: int, first: int = 0,
            on_game=None, load=rulesdsl.load, **play) -> None:
    """Play the matches in turns into the log until each has games `first`..`games`-1
    (a match split over processes: one log each, read together by --summary). `play`
    goes to `one_game` (make, clock); `on_game(record)` hears of each game logged;
    `load(name)` reads a game."""
    done = _read_log(path)
    loaded = {}
    while True:
        progress = False
        for name, players, b, weight in matches:
            key = f"{name}|{players}|{a}|{b}"
            for _ in range(weight):
                played = {r["g"] for r in done.get(key, [])}
                g = next((g for g in range(first, games) if g not in played), None)
                if g is None:
                    break
                if name not in loaded:
                    loaded[name] = load(name)
                r = one_game(loaded[name], players, g, a, b, seed, **play)
                r["match"] = key
                with open(path, "a") as f:
                    f.write(json.dumps(r) + "\n")
                done.setdefault(key, []).append(r)
                if on_game:
                    on_game(r)
                progress = True
        if not progress:
            return


def _read_log(path: str) -> dict:
    out: dict = {}
    if Path(path).exists():
        for line in Path(path).read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                out.setdefault(r["match"], []).append(r)
    return out


def _read_logs(paths: list, code: str | None = None) -> dict:
    """Several logs as one: a game (match, number) found twice counts once, from the later
    file (a match moved to a log of its own goes on there). With `code`, only the games
    whose record's code (`code_of`) starts with it."""
    games: dict = {}
    for path in paths:
        for key, rs in _read_log(path).items():
            for r in rs:
                if code is None or r.get("code", "").startswith(code):
                    games[key, r["g"]] = r
    out: dict = {}
    for (key, _), r in sorted(games.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        out.setdefault(key, []).append(r)
    return out


def summary(paths: list) -> list:
    rows = []
    for key, rs in _read_logs(paths).items():
        name, players, a, b = key.split("|")
        n = len(rs)
        share = sum(r["share"] for r in rs)
        low, high = wilson(share, n)
        times = [t for r in rs for t in r["times"]]
        # the moves it searched (more than one legal action), when it reports iterations
        thought = [t for r in rs for t, i in zip(r["times"], r["iters"]) if i] or times
        iters = [i for r in rs for i in r["iters"] if i]
        rows.append(f"| {Path(name).stem} | {players} | {a} | {b} | {n} | {share / n:.0%} | "
                    f"{low:.0%}-{high:.0%} | {1 / int(players):.0%} | "
                    f"{statistics.median(times) if times else 0:.2f} | "
                    f"{statistics.median(thought) if thought else 0:.2f} | "
                    f"{statistics.mean(iters) if iters else 0:.0f} |")
    return rows


def match(game, players: int, games: int, a: str, b: str, seed: int = 1,
          max_actions: int = 20000) -> dict:
    rs = [one_game(game, players, g, a, b, seed, max_actions) for g in range(games)]
    share = sum(r["share"] for r in rs)
    times = [t for r in rs for t in r["times"]]
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
    ap.add_argument("--log", help="play into this log, one JSON line per game")
    ap.add_argument("--first", type=int, default=0,
                    help="with --log: play from this game number on (split a match)")
    ap.add_argument("--match", action="append", default=[],
                    help="GAME:PLAYERS:AGENT_B[*GAMES_PER_TURN], with --log")
    ap.add_argument("--summary", nargs="+", metavar="LOG",
                    help="print the table of one log, or of several merged")
    args = ap.parse_args(argv)
    if args.summary:
        print("| game | players | agent A | others | games | A wins | 95% CI | even share | "
              "A median s/move | same, searched moves | A mean iterations |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|")
        print("\n".join(summary(args.summary)))
        return 0
    if args.log:
        matches = []
        for m in args.match:
            m, _, w = m.partition("*")
            name, players, b = m.split(":", 2)
            matches.append((name, int(players), b, int(w or 1)))
        run_log(args.log, matches, args.games, args.a, args.seed, args.first)
        return 0
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
