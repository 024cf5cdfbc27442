"""The gauntlet: the default computer opponent against `greedy` and against each game's
rule-of-thumb player, in every bundled game and example at its smallest and largest player
count, with win rates, 95% Wilson intervals against the bar, CPU time and iterations per
move.

    python benchmarks/gauntlet.py --log g.jsonl --games 100          # everything
    python benchmarks/gauntlet.py --log g.jsonl --games 100 --only hearts --against thumb
    python benchmarks/gauntlet.py --log g2.jsonl --games 100 --first 50 --only intrige
    python benchmarks/gauntlet.py --summary g.jsonl g2.jsonl          # the markdown table
    python benchmarks/gauntlet.py --summary after.jsonl --paired before.jsonl
                                  # deal for deal: two agents or two codes on the same deals

Seats rotate every game; with 3 or more players the tested agent takes one seat and the
opponent kind fills the others. In a cooperative game, where the whole table wins or loses
together, each deal is played twice, by a team of the tested agent and by a team of the
opponent kind; a "win" is the agent's team doing better (a half where alike), and its bar
is 65% at every player count (row marked "team"). Games go one at a time into the log
(JSON lines), the matches taking turns, so a run stopped early still gives figures and a
restart goes on where the log ends (benchmarks/arena.py's log; --summary reads any number of logs).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import rulesdsl  # noqa: E402
from arena import GAMES, _read_logs, run_log, standard_agent, wilson  # noqa: E402
from rule_of_thumb import make_thumb  # noqa: E402
from thumb_b import make_thumb_b  # noqa: E402

ROOT = HERE.parent
EXAMPLES = sorted(f"examples/{p.name}" for p in (ROOT / "examples").glob("*.rules"))
ALL_GAMES = GAMES + EXAMPLES
AGENT = "ismcts"  # the default opponent: ismcts at its default level, medium


def load(name: str):
    """A bundled game by name, or an example by its path in this checkout (so the gauntlet
    runs from any directory and its logs name the examples the same way everywhere)."""
    here = ROOT / name
    return rulesdsl.load(str(here) if here.is_file() else name)


def canonical(name: str) -> str:
    """The gauntlet's name of a game given by name or path ("hearts" ->
    "examples/hearts.rules"), so one match has one key in every log."""
    stem = Path(name).stem
    return next((g for g in ALL_GAMES if Path(g).stem == stem), name)


def make_seat(spec: str, game, seed: int):
    """A seat's agent: `thumb` is the game's rule-of-thumb player, `thumb_b` a second
    author's (bundled games only), anything else a spec for `make_agent`."""
    if spec == "thumb":
        return make_thumb(game.path, seed)
    if spec == "thumb_b":
        return make_thumb_b(game.path, seed)
    return standard_agent(spec, game, seed)


def bar(players: int) -> float:
    """The share the issue asks for: 65% with two players, 1.5 times the fair share with
    more."""
    return 0.65 if players == 2 else 1.5 / players


def verdict(low: float, high: float, target: float) -> str:
    """met: the whole interval clears the bar; missed: it lies wholly below; else open."""
    if low >= target:
        return "met"
    if high < target:
        return "missed"
    return "open"


def matches(only, players: str, against: str) -> list:
    """(game, player count, opponent, games per turn) for every match asked for."""
    out = []
    for name in [canonical(n) for n in only] if only else ALL_GAMES:
        game = load(name)
        counts = {"min": [game.min_players], "max": [game.max_players],
                  "both": sorted({game.min_players, game.max_players})}[players]
        for n in counts:
            for b in (["greedy", "thumb"] if against == "both" else [against]):
                out.append((name, n, b, 1))
    return out


def code_cell(rs: list) -> str:
    """Which code played a match's games: its digest's first characters, or how many codes
    are merged in the row (records older than the digest count as one unknown code)."""
    codes = {r.get("code", "?") for r in rs}
    return f"{codes.pop()[:8]}" if len(codes) == 1 else f"{len(codes)} codes merged"


def summary_rows(paths: list, code: str | None = None) -> list:
    """One markdown row per match in the logs, in the order of ALL_GAMES; with `code`, only
    the games that code played."""
    order = {Path(name).stem: i for i, name in enumerate(ALL_GAMES)}
    rows = []
    logs = _read_logs(paths, code)
    keys = sorted(logs, key=lambda k: (order.get(Path(k.split("|")[0]).stem, 99),
                                       int(k.split("|")[1]), k.split("|")[3]))
    for key in keys:
        rs = logs[key]
        name, players, a, b = key.split("|")
        players, n = int(players), len(rs)
        share = sum(r["share"] for r in rs)
        low, high = wilson(share, n)
        # CPU time and iterations over the moves the agent had to think about (2+ options)
        thought = [(t, i) for r in rs for t, i, o in
                   zip(r["times"], r["iters"], r.get("options", [2] * len(r["times"])))
                   if o >= 2]
        cpu = statistics.median(t for t, _ in thought) if thought else 0.0
        iters = statistics.mean(i for _, i in thought) if thought else 0.0
        dropped = sum(r.get("dropped", 0) for r in rs)
        # moves the CPU cap cut short (logs from before it was counted: unknown)
        capped = sum(r["capped"] for r in rs) if all("capped" in r for r in rs) else "?"
        unfinished = sum(r["winners"] is None for r in rs)
        # a cooperative game's share is a paired comparison of two teams: even is a half
        team = any("baseline" in r for r in rs)
        fair, target = (0.5, bar(2)) if team else (1 / players, bar(players))
        # a row of another agent than the default names it: two runs of one match differ
        agent = "" if a == AGENT else f" (`{a}`)"
        rows.append(f"| {Path(name).stem}{' (team)' if team else ''}{agent} | {players} | {b} | "
                    f"{n} | {share / n:.0%} | {low:.0%}-{high:.0%} | {fair:.0%} | "
                    f"{target:.0%} | {verdict(low, high, target)} | {cpu:.2f} | {iters:.0f} | "
                    f"{dropped} | {capped} | {unfinished} | {code_cell(rs)} |")
    return rows


def sign_test(better: int, worse: int) -> float:
    """The two-sided sign test's p-value for deals one agent did better and worse on."""
    n, k = better + worse, min(better, worse)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n) if n else 1.0


def paired_rows(after: list, before: list) -> list:
    """One markdown row per match in both sets of logs (the same game, player count and
    opponents; the agents may differ): the deals both played, each side's wins on them,
    the deals one did better on, and the sign test. The seats and seeds of a deal are the
    same on both sides, so the luck of the deal cancels."""
    def by_match(paths):  # the agents may differ: the match is the game, count, opponents
        return {key.split("|")[0] + "|" + key.split("|")[1] + "|" + key.split("|")[3]:
                {r["g"]: r for r in rs} for key, rs in _read_logs(paths).items()}
    old, new = by_match(before), by_match(after)
    rows = []
    for key in sorted(set(old) & set(new)):
        deals = sorted(set(old[key]) & set(new[key]))
        if not deals:
            continue
        a = [old[key][g]["share"] for g in deals]
        b = [new[key][g]["share"] for g in deals]
        better = sum(y > x for x, y in zip(a, b))
        worse = sum(y < x for x, y in zip(a, b))
        name, players, against = key.split("|")
        span = f"{deals[0]}-{deals[-1]}" if deals == list(range(deals[0], deals[-1] + 1)) \
            else f"{len(deals)} deals"
        rows.append(f"| {Path(name).stem} | {players} | {against} | {span} | {sum(a):g} | "
                    f"{sum(b):g} | {better} better, {worse} worse | "
                    f"p = {sign_test(better, worse):.2f} |")
    return rows


PAIRED_HEADER = ("| game | players | against | deals | before | after | one for one | "
                 "sign test |\n|---|---|---|---|---|---|---|---|")


HEADER = ("| game | players | against | games | wins | 95% CI | fair share | bar | verdict | "
          "median CPU s/move | mean iterations | dropped | capped | unfinished | code |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per match (default 100)")
    ap.add_argument("--only", action="append", metavar="GAME",
                    help="a bundled name or a rules file; repeatable (default: all)")
    ap.add_argument("--players", choices=["min", "max", "both"], default="both")
    ap.add_argument("--against", choices=["greedy", "thumb", "thumb_b", "both"],
                    default="both", help="both = greedy and thumb; thumb_b: a second "
                    "author's rule-of-thumb players (bundled games)")
    ap.add_argument("--agent", default=AGENT, help="the agent tested (default: ismcts)")
    ap.add_argument("--log", help="play into this log, one JSON line per game")
    ap.add_argument("--first", type=int, default=0,
                    help="play from this game number on (split a match across processes)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--summary", nargs="+", metavar="LOG",
                    help="print the table of one log, or of several merged")
    ap.add_argument("--paired", nargs="+", metavar="LOG",
                    help="with --summary: compare its logs deal for deal with these")
    ap.add_argument("--code", metavar="PREFIX",
                    help="with --summary: only the games played by this code (the "
                    "records' `code`, engine digest:rules digest)")
    args = ap.parse_args(argv)
    if args.summary and args.paired:
        print(PAIRED_HEADER)
        print("\n".join(paired_rows(args.summary, args.paired)))
        return 0
    if args.summary:
        print(HEADER)
        print("\n".join(summary_rows(args.summary, args.code)))
        return 0
    if not args.log:
        ap.error("give --log FILE to play into, or --summary LOG... to read")

    def progress(r):
        print(f"{r['match']} game {r['g']}: share {r['share']:.2f}", file=sys.stderr,
              flush=True)
    run_log(args.log, matches(args.only, args.players, args.against), args.games, args.agent,
            args.seed, args.first, on_game=progress, load=load, make=make_seat,
            clock=time.process_time)
    return 0


if __name__ == "__main__":
    sys.exit(main())
