"""Run the games of a simulation: in this process, on worker processes, or on Ray.

Game i is always dealt with seed `seed + i` and its agents get seeds derived from that, so
a game's record does not depend on which worker played it or when; records come back in
game order, and every statistic is computed from them in that order. The result is the
same for any number of workers and either backend.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import shlex
import tempfile
from pathlib import Path
from typing import Callable, Sequence

import attrs

from rulesdsl.analysis.pool import Outcome, run_pool
from rulesdsl.analysis.record import play_recorded
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.limits import read_text
from rulesdsl.lang.resources import bundled_path


@attrs.frozen
class GameSpec:
    """A loaded game as text, to load again in another process or on another machine (a
    loaded game holds compiled code and cannot be pickled). Game.sources maps every file
    read (the game and what it extends) to its text."""

    path: str
    sources: tuple          # ((path, text), ...)
    options: tuple          # ((name, value), ...)
    step_limit: int

    @classmethod
    def of(cls, game) -> "GameSpec":
        return cls(str(game.path), tuple(sorted(game.sources.items())),
                   tuple(sorted(game.options.items())), getattr(game, "step_limit", 1_000_000))

    def load(self):
        """The game, from the file itself when it is here and unchanged, else from a copy
        of the sources in a temporary folder (their relative layout kept, for `extends`)."""
        import rulesdsl
        texts = dict(self.sources)
        path = self.path
        try:
            here = read_text(path, "E107", "rules file") == texts.get(path)
        except (OSError, RulesError):
            here = False
        if not here:
            digest = hashlib.sha256(repr(self.sources).encode()).hexdigest()[:16]
            root = Path(tempfile.gettempdir()) / f"rulesdsl-{digest}"
            for name, text in texts.items():
                target = root / Path(name).as_posix().lstrip("/")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            path = str(root / Path(path).as_posix().lstrip("/"))
        return rulesdsl.load(path, options=dict(self.options), step_limit=self.step_limit)


_LOADED: dict = {}


def game_of(game):
    """The playable game: a GameSpec is loaded once per process, anything else is used as
    it is (a game object handed over by fork, or a test's fake)."""
    if not isinstance(game, GameSpec):
        return game
    if game not in _LOADED:
        _LOADED[game] = game.load()
    return _LOADED[game]


def portable(game):
    """What to send to a process that does not share this one's memory."""
    return GameSpec.of(game) if hasattr(game, "sources") and hasattr(game, "path") else game


@attrs.frozen
class Job:
    """Everything a worker needs to play games start..stop-1 of a run."""

    game: object
    players: int
    seed: int
    seats: tuple
    max_actions: int
    games: int


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Ranges of game numbers: about ten per worker, so the bar moves and the load evens out."""
    size = max(1, min(200, math.ceil(games / (workers * 10))))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def play_chunk(job: Job, start: int, stop: int) -> list:
    """Records of games start..stop-1; a RulesError stops the chunk and comes back as a
    plain tuple (it crosses process boundaries that cannot carry the exception itself)."""
    out = []
    game = game_of(job.game)
    for i in range(start, stop):
        try:
            record = play_recorded(game, job.players, job.seed + i, job.seats,
                                   job.max_actions)
        except RulesError as e:
            out.append(("error", i, e.code, e.message, e.span, tuple(e.hints),
                        tuple(getattr(e, "trace", ()))))
            return out
        except Exception as e:  # a bug in rulesdsl itself: keep the traceback, add the seed
            if hasattr(e, "add_note"):
                e.add_note(f"in simulated game {i + 1} of {job.games} (seed {job.seed + i})")
            raise
        record["index"] = i
        out.append(record)
    return out


class GameFailed(RulesError):
    """A simulated game that ended in a RulesError: the error, renamed with the game's
    number and seed, and the command that plays that game again (`replay`)."""

    def __init__(self, code, message, span, hints, trace, *, index: int, games: int,
                 seed: int, replay: str, cause: str):
        super().__init__(code, message, span, hints, trace)
        self.index = index          # counting from 0
        self.games = games
        self.seed = seed
        self.replay = replay
        self.cause = cause          # the game's own message, without the number and seed

    def to_dict(self) -> dict:
        """JSON-ready: which game, its seed, the error and how to replay it."""
        span = self.span
        return {"game": self.index + 1, "of": self.games, "seed": self.seed,
                "code": self.code, "message": self.cause,
                "at": None if span is None else f"{span.path}:{span.line}:{span.column}",
                "replay": self.replay}


def replay_command(game, players: int, seed: int, seats: Sequence[str]) -> str:
    """The `rulesdsl play` command that plays the game of `seed` again as a simulation
    played it: the same file (or bundled name), options, players, seed and agents."""
    game = game_of(game)
    words = ["rulesdsl", "play", _game_argument(game)]
    changed = getattr(game, "changed_options", None)
    for name, value in (changed() if changed else {}).items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        words += ["--option", shlex.quote(f"{name}={text}")]
    words += ["--players", str(players), "--seed", str(seed),
              "--seats", shlex.quote(",".join(seats))]
    return " ".join(words)


def _game_argument(game) -> str:
    """A bundled game by its name, any other by its path (quoted for a shell)."""
    path = getattr(game, "path", None)
    if path is None:
        return shlex.quote(str(getattr(game, "name", "game")))
    bundled = bundled_path(Path(path).stem)
    if bundled is not None and bundled.resolve() == Path(path).resolve():
        return Path(path).stem
    return shlex.quote(str(path))


def raise_if_failed(results: Sequence, job: Job) -> None:
    """Re-raise the first failed game's RulesError as GameFailed, naming the game number
    and its seed, with the command that replays it."""
    failed = [r for r in results if isinstance(r, tuple)]
    if not failed:
        return
    _, i, code, message, span, hints, trace = min(failed, key=lambda r: r[1])
    seed = job.seed + i
    replay = replay_command(job.game, job.players, seed, job.seats)
    raise GameFailed(code, f"game {i + 1} of {job.games} (seed {seed}) failed: {message}",
                     span, hints + (f"replay it with: {replay}",), trace, index=i,
                     games=job.games, seed=seed, replay=replay, cause=message)


def run_local(job: Job, workers: int, advance: Callable[[int], None]) -> Played:
    """Every game played on `workers` processes (here when one): the finished records in
    game order, with the workers that died and the games lost with them. Ctrl-C raises
    RunInterrupted holding the games finished before it."""
    ranges = chunks(job.games, workers)
    outcome = Outcome()
    try:
        if workers <= 1 or len(ranges) == 1:
            _run_here(job, outcome, advance)
        else:
            # fork hands the loaded game to the workers as it is; elsewhere they load it again
            if "fork" in multiprocessing.get_all_start_methods():
                context = multiprocessing.get_context("fork")
            else:
                context = multiprocessing.get_context()
                job = attrs.evolve(job, game=portable(job.game))
            run_pool(context, job, ranges, min(workers, len(ranges)), play_chunk, advance,
                     outcome)
    except KeyboardInterrupt:
        raise RunInterrupted(played_of(outcome, job)) from None
    return played_of(outcome, job)


def _run_here(job: Job, outcome: Outcome, advance: Callable[[int], None]) -> None:
    """One game at a time in this process, so that Ctrl-C keeps every game finished."""
    advance(0)
    for i in range(job.games):
        outcome.results[i] = play_chunk(job, i, i + 1)
        advance(1)
        if isinstance(outcome.results[i][-1], tuple):
            break


@attrs.frozen
class Played:
    """A run's finished games (records in game order) and what went wrong on the way."""

    records: list
    deaths: tuple = ()     # a sentence per worker that died
    lost: tuple = ()       # (start, stop) of the games no worker could finish


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; `played` holds the games finished before it."""

    def __init__(self, played: Played):
        super().__init__()
        self.played = played


def played_of(outcome: Outcome, job: Job) -> Played:
    """The records of the finished ranges in game order; a failed game raised (RulesError)."""
    records = [r for start in sorted(outcome.results) for r in outcome.results[start]]
    raise_if_failed(records, job)
    return Played(records, tuple(outcome.deaths), tuple(sorted(outcome.lost)))
