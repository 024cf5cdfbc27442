"""Play many full games with agents and report who wins, how long games run, and how fast.

Written against the public API only (`game.new_game`, `state.legal_actions/apply`, ...).

    result = simulate(rulesdsl.load("mygame.rules"), players=2, games=100, seed=0)
    print(result.table())

Game i (counting from 0) is dealt with seed `seed + i`; each seat's agent gets its own
seed derived from that game seed and the seat, so every game can be replayed on its own:
`rulesdsl play GAME --seed S --seats random,random` shows the same deal.
"""

from __future__ import annotations

import time
from typing import Optional, Sequence, Union

import attrs

from rulesdsl.agents import agent_names, make_agent
from rulesdsl.agents.seats import agent_seed, parse_seats  # noqa: F401  (re-exported)
from rulesdsl.analysis import summary
from rulesdsl.analysis.progress import progress_bar
from rulesdsl.analysis.record import seat_agents
from rulesdsl.analysis.run import Job, run_local
from rulesdsl.lang.errors import RulesError

# A game of a simulation that needs more actions than this is reported as stuck.
DEFAULT_MAX_ACTIONS = 100_000


@attrs.define
class SimResult:
    """The outcome of a simulation; `table()` for people, `to_dict()` for programs."""

    game: str
    players: int
    games: int
    seed: int
    seats: list[str]
    wins: list[int]                 # games won per seat (a shared win counts for each winner)
    draws: int                      # games that ended with no winner
    shared: int                     # games won by more than one seat
    total_actions: int
    longest: int                    # actions in the longest game
    longest_seed: Optional[int]     # the seed that dealt it
    shortest: int
    elapsed: float                  # seconds, wall clock
    mean_scores: Optional[list[float]] = None
    records: list = attrs.field(factory=list, repr=False)   # one per game (record.py)
    stats: dict = attrs.field(factory=dict, repr=False)     # summary.summarize of them
    workers: int = 1
    backend: str = "local"
    compare: list = attrs.field(factory=list)               # one summary.compare per variant

    @property
    def mean_length(self) -> float:
        return self.total_actions / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed if self.elapsed > 0 else float("inf")

    @property
    def actions_per_second(self) -> float:
        return self.total_actions / self.elapsed if self.elapsed > 0 else float("inf")

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "seats": list(self.seats),
            "wins": list(self.wins),
            "win_rate": [w / self.games if self.games else 0.0 for w in self.wins],
            "draws": self.draws,
            "shared_wins": self.shared,
            "mean_scores": self.mean_scores,
            "total_actions": self.total_actions,
            "mean_length": self.mean_length,
            "longest": self.longest,
            "longest_seed": self.longest_seed,
            "shortest": self.shortest,
            "seconds": self.elapsed,
            "games_per_second": _finite(self.games_per_second),
            "actions_per_second": _finite(self.actions_per_second),
            **self.stats,
            "compare": self.compare,
            "workers": self.workers,
            "backend": self.backend,
        }

    def game_records(self) -> list[dict]:
        """One JSON-ready dict per game, in game order (the lines of --games-out)."""
        return [{k: v for k, v in r.items() if k != "labels"} for r in self.records]

    def table(self) -> str:
        n = self.games
        last = self.seed + n - 1
        seeds = f"seed {self.seed}" if n == 1 else f"seeds {self.seed}..{last}"
        lines = [f"{self.game}: {n} game{'s' if n != 1 else ''}, {self.players} players, {seeds}",
                 ""]
        header = ["seat", "agent", "wins", "win %"]
        if self.mean_scores is not None:
            header.append("mean score")
        rows = []
        for seat in range(self.players):
            row = [str(seat), self.seats[seat], str(self.wins[seat]),
                   f"{100.0 * self.wins[seat] / n:.1f}%" if n else "-"]
            if self.mean_scores is not None:
                row.append(f"{self.mean_scores[seat]:.2f}")
            rows.append(row)
        lines += _align([header] + rows, right={0, 2, 3, 4})
        lines.append("")
        draws = f"{self.draws} ({100.0 * self.draws / n:.1f}%)" if n else "0"
        stats = [
            ("draws", draws),
        ]
        if self.shared:
            stats.append(("shared wins", str(self.shared)))
        longest = f"{self.longest}" + (f" (seed {self.longest_seed})"
                                       if self.longest_seed is not None else "")
        stats += [
            ("mean actions", f"{self.mean_length:.1f}"),
            ("longest", longest),
            ("shortest", str(self.shortest)),
            ("games/s", _rate(self.games_per_second)),
            ("actions/s", _rate(self.actions_per_second)),
            ("time", f"{self.elapsed:.2f} s"),
        ]
        width = max(len(k) for k, _ in stats)
        lines += [f"{k + ':':<{width + 1}} {v}" for k, v in stats]
        if self.stats:
            from rulesdsl.analysis.table import details
            lines += details(self)
        return "\n".join(lines)


def _finite(x: float) -> Optional[float]:
    return None if x == float("inf") else x


def _rate(x: float) -> str:
    if x == float("inf"):
        return "-"
    return f"{x:,.1f}" if x < 1000 else f"{x:,.0f}"


def _align(rows: list[list[str]], right: set = frozenset()) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(r, widths))]
        out.append("  ".join(cells).rstrip())
    return out


def play_one(game, players: int, game_seed: int, seats: Sequence[str],
             max_actions: int = DEFAULT_MAX_ACTIONS):
    """Play one full game with agents; return the final state. RulesErrors propagate."""
    agents = seat_agents(seats, game_seed)
    state = game.new_game(players=players, seed=game_seed)
    actions = 0
    while not state.is_over:
        if actions >= max_actions:
            raise RulesError("C010", f"the game did not end within {max_actions} actions",
                             hints=["the rules may loop forever; look at the end conditions"])
        state.apply(agents[state.to_move].choose(state))
        actions += 1
    return state


def _load(game, options: Optional[dict]):
    import rulesdsl
    return rulesdsl.load(game, options=options) if options else rulesdsl.load(game)


def _variant(game, options: Optional[dict], change: dict):
    """The same game with some options changed (for --compare)."""
    path = getattr(game, "path", None)
    if path is None:
        raise RulesError("C013", "--compare needs a game loaded from a rules file")
    return _load(path, {**(options if options is not None else game.options), **change})


def _play_all(game, players, seed, kinds, games, max_actions, workers, backend, address,
              progress, label):
    job = Job(game=game, players=players, seed=seed, seats=tuple(kinds),
              max_actions=max_actions, games=games)
    with progress_bar(games, label, progress) as advance:
        if backend == "ray":
            from rulesdsl.analysis.ray_backend import run_ray
            return run_ray(job, workers, advance, address)
        if backend != "local":
            raise RulesError("C013", f"unknown backend {backend!r}; known: local, ray")
        return run_local(job, workers, advance)


def simulate(game, players: Optional[int] = None, games: int = 100, seed: int = 0,
             seats: Union[None, str, Sequence[str]] = None, *, options: Optional[dict] = None,
             max_actions: int = DEFAULT_MAX_ACTIONS, workers: int = 1,
             backend: str = "local", address: Optional[str] = None,
             compare: Sequence[dict] = (), progress: bool = False) -> SimResult:
    """Play `games` full games and collect the statistics.

    `game` is a loaded game (or a bundled name or path, loaded with `options`); `players`
    defaults to the game's minimum; `seats` names an agent per seat (default all random).
    `workers` processes (or Ray tasks with backend="ray", on the cluster at `address`)
    play the games; the result is the same for any number. Each dict in `compare` names
    options to change: those variants play the same seeds and are compared with this one.
    `progress` draws a bar on standard error when it is a terminal.
    A RulesError in any game is re-raised naming the game number and its seed.
    """
    if isinstance(game, str):
        game = _load(game, options)
    if players is None:
        players = game.min_players
    if games < 1:
        raise RulesError("C013", f"the number of games must be at least 1, not {games}")
    if workers < 1:
        raise RulesError("C013", f"the number of workers must be at least 1, not {workers}")
    kinds = parse_seats(seats, players)
    name = getattr(game, "name", "game")
    # a wrong player count or seed is the caller's mistake, not a game's: report it plainly
    game.new_game(players=players, seed=seed)
    variants = [(change, _variant(game, options, change)) for change in compare]

    start = time.perf_counter()
    records = _play_all(game, players, seed, kinds, games, max_actions, workers, backend,
                        address, progress, name)
    elapsed = time.perf_counter() - start
    compared = []
    for change, other in variants:
        label = ", ".join(f"{k}={v}" for k, v in change.items())
        other_records = _play_all(other, players, seed, kinds, games, max_actions, workers,
                                  backend, address, progress, label)
        compared.append({"change": dict(change), **summary.compare(records, other_records,
                                                                   players)})
    return result_from_records(name, players, seed, kinds, records, elapsed, workers=workers,
                               backend=backend, compare=compared)


def result_from_records(name: str, players: int, seed: int, kinds: Sequence[str],
                        records: list, elapsed: float, **extra) -> SimResult:
    """The SimResult of a run from its games' records (in game order)."""
    games = len(records)
    wins = [0] * players
    draws = shared = total = longest = 0
    shortest = None
    longest_seed = None
    score_sums: Optional[list[float]] = [0.0] * players
    for r in records:
        n = r["actions"]
        total += n
        if n > longest or longest_seed is None:
            longest, longest_seed = n, r["seed"]
        shortest = n if shortest is None else min(shortest, n)
        winners = r["winners"]
        if not winners:
            draws += 1
        elif len(winners) > 1:
            shared += 1
        for w in winners:
            wins[w] += 1
        if score_sums is not None:
            if r["scores"] is None:
                score_sums = None
            else:
                score_sums = [a + b for a, b in zip(score_sums, r["scores"])]
    mean_scores = [s / games for s in score_sums] if score_sums is not None else None
    return SimResult(game=name, players=players, games=games, seed=seed, seats=list(kinds),
                     wins=wins, draws=draws, shared=shared, total_actions=total,
                     longest=longest, longest_seed=longest_seed, shortest=shortest or 0,
                     elapsed=elapsed, mean_scores=mean_scores, records=records,
                     stats=summary.summarize(records, players), **extra)


__all__ = ["SimResult", "simulate", "play_one", "parse_seats", "agent_seed"]
