"""Play a simulation's games as Ray tasks: on a cluster (`address`) or on a local Ray.

Each task plays a range of game numbers exactly as a local worker would (run.play_chunk),
so the records, and every statistic built from them, equal a local run's. The cluster's
nodes need rulesdsl installed (`pip install "rulesdsl[ray]"`), the same version as here.
"""

from __future__ import annotations

from typing import Callable, Optional

import attrs

from rulesdsl.analysis.pool import Outcome
from rulesdsl.analysis.run import (Job, Played, RunInterrupted, chunks, play_chunk, played_of,
                                   portable)
from rulesdsl.lang.errors import RulesError


def _import_ray():
    try:
        import ray
    except ImportError:
        raise RulesError("C013", "--backend ray needs Ray, which is not installed",
                         hints=['install it with: pip install "rulesdsl[ray]"']) from None
    return ray


def run_ray(job: Job, workers: int, advance: Callable[[int], None],
            address: Optional[str] = None) -> Played:
    """Every game played as Ray tasks (records in game order; Ctrl-C raises
    RunInterrupted with the games finished before it). Connects to the
    cluster at `address` (or $RAY_ADDRESS), else starts a local Ray and stops it after;
    a Ray already initialised by the caller is used as it is and left running."""
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(include_dashboard=False, log_to_driver=False)
        except ConnectionError as e:
            raise RulesError("C013", f"cannot reach the Ray cluster at {address}: {e}",
                             hints=["start one with `ray start --head`, or leave out "
                                    "--address for a local Ray"]) from None
        started = True
    outcome, pending = Outcome(), {}
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        task = ray.remote(play_chunk)
        shared = ray.put(attrs.evolve(job, game=portable(job.game)))
        pending = {task.remote(shared, start, stop): (start, stop)
                   for start, stop in chunks(job.games, max(workers, cpus))}
        advance(0)
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                start, stop = pending.pop(ref)
                outcome.results[start] = ray.get(ref)
                advance(stop - start)
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise RunInterrupted(played_of(outcome, job)) from None
    finally:
        if started:
            ray.shutdown()
    return played_of(outcome, job)
