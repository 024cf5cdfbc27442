"""Python bytecodes executed per action: a cost measure that does not vary between runs.

    python benchmarks/bytecodes.py                            # every game and example
    python benchmarks/bytecodes.py --game triumvirat --game examples/hearts.rules
    python benchmarks/bytecodes.py --engine-root /tmp/before  # and the ratio to that tree
    python benchmarks/bytecodes.py --games 4 --json

Plays the same seeded random games as benchmarks/bench.py (seed s is dealt with seed s and
its choices drawn from random.Random(s)) and counts what the engine executes while it
deals, lists the legal actions, applies one and says whether the game is over: the
choosing itself is not counted. See benchmarks/README.md for what the numbers mean.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import platform
import random
import subprocess
import sys
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
THIS_ROOT = HERE.parent
HAND = "hand-written triumvirat"
MAX_ACTIONS = 100_000      # a game longer than this is reported as stuck


class Counter:
    """Counts, while `run` calls into the code measured, every Python bytecode executed
    and every Python frame entered (a call, or a generator resumed). Bytecodes are
    sys.settrace's opcode events: Python 3.11 has no sys.monitoring, and a trace function
    costs about 0.2 µs per bytecode, a few seconds for a set of games."""

    def __init__(self) -> None:
        self._counts = [0, 0]   # bytecodes, calls: a list, the cheapest thing to bump
        self._on_call = self._tracer()

    @property
    def bytecodes(self) -> int:
        return self._counts[0]

    @property
    def calls(self) -> int:
        return self._counts[1]

    def _tracer(self):
        counts = self._counts

        def on_event(frame, event, arg):   # inside a frame: opcode, return, exception
            if event == "opcode":
                counts[0] += 1
            return on_event

        def on_call(frame, event, arg):    # a frame entered
            counts[1] += 1
            frame.f_trace_lines = False
            frame.f_trace_opcodes = True
            return on_event
        return on_call

    def run(self, fn, *args, **kwargs):
        """fn(*args, **kwargs), counting the Python frames it enters (not the caller's).
        A tracer already set (a coverage tool's) is put back after."""
        before = sys.gettrace()
        sys.settrace(self._on_call)
        try:
            return fn(*args, **kwargs)
        finally:
            sys.settrace(before)


def call_uncounted(fn, *args, **kwargs):
    return fn(*args, **kwargs)


def play_seeds(start, is_over, seeds, call=call_uncounted) -> int:
    """Random games, as bench.play_random plays them, every step of the engine made
    through `call`; returns the number of actions."""
    total = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = call(start, seed=seed)
        actions_played = 0
        while not call(is_over, state):
            actions = call(state.legal_actions)
            call(state.apply, actions[rng.randrange(len(actions))])
            actions_played += 1
            if actions_played > MAX_ACTIONS:
                raise RuntimeError(f"game with seed {seed} did not end within "
                                   f"{MAX_ACTIONS} actions")
        total += actions_played
    return total


def game_path(game: str, root: Path) -> Path | None:
    """A bundled name (`triumvirat`, `hearts`) in root's games/ or examples/; a path
    relative to root when root has it (the tree's own copy of an example), else as given."""
    if game.endswith(".rules") or "/" in game:
        own = root / game
        if not Path(game).is_absolute() and own.exists():
            return own
        return Path(game).resolve() if Path(game).exists() else None
    for folder in ("games", "examples"):
        path = root / folder / f"{game}.rules"
        if path.exists():
            return path
    return None


def game_name(game: str) -> str:
    return Path(game).stem if game.endswith(".rules") else game


def session_of(game: str, root: Path, players: int | None):
    """(start, is_over, players) of the game in root's engine, or None when root has no
    such game or it cannot be played with that many players."""
    if game == HAND:
        sys.path.insert(0, str(HERE))
        import triumvirat_hand
        return triumvirat_hand.Triumvirat, operator.attrgetter("over"), 2
    path = game_path(game, root)
    if path is None:
        return None
    sys.path.insert(0, str(root))
    import rulesdsl
    if Path(rulesdsl.__file__).resolve().parent.parent != root:
        raise RuntimeError(f"imported rulesdsl from {rulesdsl.__file__}, not from {root}")
    loaded = rulesdsl.load(str(path))
    n = players if players is not None else loaded.min_players
    if not loaded.min_players <= n <= loaded.max_players:
        return None
    return partial(loaded.new_game, players=n), operator.attrgetter("is_over"), n


def count_one(game: str, root: Path, players: int | None, games: int) -> dict | None:
    """Bytecodes and calls per action over seeds 0..games-1, after the same games played
    uncounted (loading and first-use caches are not what an action costs)."""
    session = session_of(game, root, players)
    if session is None:
        return None
    start, is_over, n = session
    seeds = range(games)
    play_seeds(start, is_over, seeds)
    counter = Counter()
    actions = play_seeds(start, is_over, seeds, call=counter.run)
    return {"game": game_name(game), "players": n, "games": games, "actions": actions,
            "bytecodes": counter.bytecodes / actions, "calls": counter.calls / actions}


def count_in_fresh_process(game: str, root: Path, players: int | None, games: int):
    """count_one in a process of its own with a fixed hash seed, so neither what ran
    before nor the order of sets and dicts of strings can change the count."""
    argv = [sys.executable, __file__, "--one", game, "--root", str(root), "--games",
            str(games)] + ([] if players is None else ["--players", str(players)])
    done = subprocess.run(argv, capture_output=True, text=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    if done.returncode != 0:
        raise SystemExit(f"counting {game} in {root} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def all_games() -> list:
    """Every bundled game and example of this checkout, by name."""
    return [p.stem for folder in ("games", "examples")
            for p in sorted((THIS_ROOT / folder).glob("*.rules"))]


def count_table(games: list, players: int | None, seeds: int, old_root: Path | None) -> list:
    """One row per game (the hand-written Triumvirat first when Triumvirat is measured),
    with the old tree's count beside it when there is one."""
    names = ([HAND] if any(game_name(g) == "triumvirat" for g in games) else []) + games
    rows = []
    for name in names:
        print(f"... {game_name(name)}", file=sys.stderr, flush=True)
        row = count_in_fresh_process(name, THIS_ROOT, players, seeds)
        if row is None:
            continue
        if old_root is not None and name != HAND:  # the yardstick is this checkout's
            old = count_in_fresh_process(name, old_root, players, seeds)
            row["old"] = old and {k: old[k] for k in ("actions", "bytecodes", "calls")}
        rows.append(row)
    return rows


def markdown(rows: list, with_old: bool) -> str:
    header = ["game", "players", "actions", "bytecodes/action", "calls/action"]
    if with_old:
        header += ["old bytecodes/action", "× old"]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for r in rows:
        cells = [r["game"], str(r["players"]), f"{r['actions']:,}", f"{r['bytecodes']:,.1f}",
                 f"{r['calls']:,.1f}"]
        if with_old:
            old = r.get("old")
            cells += ([f"{old['bytecodes']:,.1f}", f"{r['bytecodes'] / old['bytecodes']:.3f}"]
                      if old else ["-", "-"])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def hand_note(rows: list) -> str:
    """How many times the hand-written Triumvirat's bytecodes the engine's Triumvirat runs."""
    by_name = {r["game"]: r for r in rows}
    if HAND in by_name and "triumvirat" in by_name:
        times = by_name["triumvirat"]["bytecodes"] / by_name[HAND]["bytecodes"]
        return (f"\nTriumvirat runs {times:.2f} times the hand-written version's bytecodes "
                f"per action.")
    return ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", default=None,
                    help="a bundled game or example by name, or a .rules path (repeatable; "
                         "default: every game and example)")
    ap.add_argument("--games", type=int, default=10, help="seeded games per game (seeds 0..)")
    ap.add_argument("--players", type=int, default=None,
                    help="player count for every game (default: each game's minimum)")
    ap.add_argument("--engine-root", default=None,
                    help="another checkout (the tree before a change): count its engine "
                         "too and print this checkout's count over it")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--one", help=argparse.SUPPRESS)    # count one game, in this process
    ap.add_argument("--root", help=argparse.SUPPRESS)   # ... in this tree's engine
    args = ap.parse_args(argv)

    if args.one:
        print(json.dumps(count_one(args.one, Path(args.root).resolve(), args.players,
                                   args.games)))
        return 0
    old_root = Path(args.engine_root).resolve() if args.engine_root else None
    rows = count_table(args.game or all_games(), args.players, args.games, old_root)
    if args.json:
        print(json.dumps({"python": platform.python_version(), "games": args.games,
                          "engine": str(THIS_ROOT), "old_engine": old_root and str(old_root),
                          "rows": rows}, indent=2))
        return 0
    print(markdown(rows, old_root is not None))
    print(f"\n{platform.python_implementation()} {platform.python_version()}; per action over "
          f"seeds 0-{args.games - 1}, each game in a fresh process after the same games "
          f"uncounted." + (" × old = this checkout's bytecodes per action over the old "
                           "tree's." if old_root else "") + hand_note(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
