"""Play many full games with agents and report who wins, how long games run, and how fast.

Written against the public API only (`game.new_game`, `state.legal_actions/apply`, ...).

    result = simulate(rulesdsl.load("mygame.rules"), players=2, games=100, seed=0)
    print(result.table())

Game i (counting from 0) is dealt with seed `seed + i`; each seat's agent gets its own
seed derived from that game seed and the seat, so every game can be replayed on its own
(run.replay_command writes the command: the file, its changed options, players, seed
and seats).
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
from rulesdsl.analysis.pool import games_text
from rulesdsl.analysis.run import GameFailed, Job, Played, RunInterrupted, run_local
from rulesdsl.analysis.stats import wilson
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
    # one summary.compare per variant, or {"change", "failed"} for a variant that broke
    compare: list = attrs.field(factory=list)
    # A run cut short keeps its finished games: `games` counts them, `requested` the games
    # asked for; `lost` the ranges (start, stop) whose workers died twice; `deaths` says how.
    requested: Optional[int] = None
    interrupted: bool = False
    lost: list = attrs.field(factory=list)
    deaths: list = attrs.field(factory=list)
    cooperative: bool = False       # the seats win or lose together (`players N cooperative`)

    @property
    def complete(self) -> bool:
        return not self.interrupted and not self.lost

    @property
    def failed_variants(self) -> list:
        """The compared variants that broke: {"change": ..., "failed": ...} each."""
        return [c for c in self.compare if "failed" in c]

    @property
    def won_together(self) -> Optional[int]:
        """Games the table won, in a cooperative game (None in any other)."""
        return self.games - self.draws if self.cooperative else None

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
            "cooperative": self.cooperative,
            "won_together": self.won_together,
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
            "games_requested": self.requested if self.requested is not None else self.games,
            "interrupted": self.interrupted,
            "lost_games": [i for start, stop in self.lost for i in range(start, stop)],
            "worker_deaths": list(self.deaths),
        }

    def game_records(self) -> list[dict]:
        """One JSON-ready dict per game, in game order (the lines of --games-out)."""
        return [{k: v for k, v in r.items() if k != "labels"} for r in self.records]

    def table(self) -> str:
        n = self.games
        asked = self.requested if self.requested is not None else n
        last = self.seed + asked - 1
        seeds = f"seed {self.seed}" if asked == 1 else f"seeds {self.seed}..{last}"
        count = f"{n} game{'s' if n != 1 else ''}" if n == asked else \
            f"{n} of {asked} games finished"
        lines = [f"{self.game}: {count}, {self.players} players, {seeds}"]
        lines += self.missing_lines() + [""]
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
        if self.cooperative:  # no draw and no seat against seat: the table wins or loses
            low, high = wilson(self.games - self.draws, n)
            won = self.games - self.draws
            stats = [("won together", f"{won} ({100.0 * won / n:.1f}%, 95% interval "
                      f"{100 * low:.1f}-{100 * high:.1f}%)"),
                     ("lost together", draws)]
        else:
            stats = [("draws", draws)]
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

    def missing_lines(self) -> list[str]:
        """What a run cut short is missing: the games lost with their workers, and after
        Ctrl-C the games not played."""
        lines = []
        if self.lost:
            lines.append("lost (their workers died): " +
                         ", ".join(games_text(*r) for r in self.lost))
        if self.interrupted:
            played = {r["index"] for r in self.records} | \
                {i for start, stop in self.lost for i in range(start, stop)}
            asked = self.requested if self.requested is not None else self.games
            gaps = _runs([i for i in range(asked) if i not in played])
            lines.append("interrupted before " + (", ".join(games_text(*r) for r in gaps)
                                                  if gaps else "every comparison was played"))
        return lines


def _runs(indexes: list) -> list:
    """Sorted game indexes as (start, stop) ranges: [3, 4, 5, 9] -> [(3, 6), (9, 10)]."""
    out: list = []
    for i in indexes:
        if out and out[-1][1] == i:
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


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
    """Played: the finished games of one setting (RunInterrupted on Ctrl-C)."""
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
    A RulesError in a game of the options as given is re-raised (GameFailed) naming the
    game number, its seed and the command that replays it; in a variant's game it ends
    only that variant, whose entry in `compare` then holds `failed` (GameFailed.to_dict)
    instead of its statistics. A worker
    process that dies is named (SimResult.deaths) and its games played again in a new one;
    games whose worker died twice raise GamesLost, and Ctrl-C SimulationInterrupted, each
    holding the SimResult of the games that finished (`result`).
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

    def result(played: Played, elapsed: float, compared: list, deaths: Sequence[str],
               interrupted: bool = False) -> Optional[SimResult]:
        if not played.records:
            return None
        return result_from_records(name, players, seed, kinds, played.records, elapsed,
                                   cooperative=bool(getattr(game, "cooperative", False)),
                                   workers=workers, backend=backend, compare=compared,
                                   requested=games, interrupted=interrupted,
                                   lost=list(played.lost), deaths=list(deaths))

    start = time.perf_counter()
    try:
        played = _play_all(game, players, seed, kinds, games, max_actions, workers, backend,
                           address, progress, name)
    except RunInterrupted as stop:
        raise SimulationInterrupted(result(stop.played, time.perf_counter() - start, [],
                                           stop.played.deaths, True)) from None
    elapsed = time.perf_counter() - start
    deaths = list(played.deaths)
    compared = []
    for change, other in variants:
        label = ", ".join(f"{k}={v}" for k, v in change.items())
        try:
            other_played = _play_all(other, players, seed, kinds, games, max_actions,
                                     workers, backend, address, progress, label)
        except RunInterrupted as stop:   # the variants compared so far are kept
            raise SimulationInterrupted(result(played, elapsed, compared,
                                               deaths + list(stop.played.deaths), True)) \
                from None
        except GameFailed as failed:     # one broken variant costs only its own results
            compared.append({"change": dict(change), "failed": failed.to_dict()})
            continue
        deaths += other_played.deaths
        base, changed = _paired(played.records, other_played.records)
        if base:
            compared.append({"change": dict(change), "games": len(base),
                             **summary.compare(base, changed, players)})
    done = result(played, elapsed, compared, deaths)
    if played.lost:
        raise GamesLost(done, played)
    return done


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C during simulate(): `result` is the SimResult of the games finished before it
    (None when none had finished)."""

    def __init__(self, result: Optional[SimResult]):
        super().__init__()
        self.result = result


class GamesLost(RulesError):
    """Games whose worker died twice (as when the OOM killer stops it): `result` is the
    SimResult of the others (None when none finished)."""

    def __init__(self, result: Optional[SimResult], played: Played):
        lost = ", ".join(games_text(*r) for r in played.lost)
        one = len(played.lost) == 1 and played.lost[0][1] - played.lost[0][0] == 1
        super().__init__("C016", f"{lost} could not be played: the worker playing "
                         f"{'it' if one else 'them'} died twice", None,
                         ["a worker killed by SIGKILL has often run out of memory: try "
                          "fewer --workers"])
        self.result = result
        self.deaths = list(played.deaths)


def _paired(base: list, other: list) -> tuple:
    """The records of the games both runs finished, in game order (for --compare)."""
    both = {r["index"] for r in base} & {r["index"] for r in other}
    return [r for r in base if r["index"] in both], [r for r in other if r["index"] in both]


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


__all__ = ["SimResult", "simulate", "play_one", "parse_seats", "agent_seed",
           "SimulationInterrupted", "GamesLost"]
