"""Play a simulation's games as Ray tasks: on a cluster (`address`) or on a local Ray.

Each task plays a range of game numbers exactly as a local worker would (run.play_chunk),
so the records, and every statistic built from them, equal a local run's. The cluster's
nodes need rulesdsl installed (`pip install "rulesdsl[ray]"`), the same version as here.
"""

from __future__ import annotations

import os
import socket
import threading
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
        _join(ray, address)
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


def _join(ray, address: Optional[str]) -> None:
    """ray.init, at `address` (or $RAY_ADDRESS) or a local Ray. A head where nothing
    answers is told at once: ray.init would wait minutes for it."""
    target = address or os.environ.get("RAY_ADDRESS")
    host_port = _host_port(target)
    if host_port and not _answers(*host_port):
        raise RulesError("C013", f"cannot reach the Ray cluster at {target}: nothing answers "
                                 "there",
                         hints=["start one with `ray start --head`, check the address and "
                                "port, or leave out --address for a local Ray"])
    try:
        if address:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(include_dashboard=False, log_to_driver=False)
    except ConnectionError as e:
        raise _not_joined(ray, target, e) from None


_TOKEN_HINT = ("the cluster uses token authentication: give this process the same token as "
               "its nodes (RAY_AUTH_MODE=token, and RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or "
               "~/.ray/auth_token); docs/tools.md, 'Authentication'")


def _not_joined(ray, address: Optional[str], error: Exception) -> RulesError:
    """Why ray.init could not join the cluster at `address` that answers: Ray's own error
    says "failed to connect" also when the cluster refused this process's authentication
    token, so the cluster is asked again to tell which."""
    where = f"the Ray cluster at {address}" if address else "the Ray cluster"
    if address and _host_port(address) and _refuses_token(ray, address):
        return RulesError("C013", f"{where} answers but refused this process's "
                                  "authentication token", hints=[_TOKEN_HINT])
    return RulesError("C013", f"cannot join {where}: {error}",
                      hints=[_TOKEN_HINT.replace("the cluster uses", "if the cluster uses"),
                             "every node and this process need the same Python, Ray and "
                             "rulesdsl versions"])


def _host_port(address: Optional[str]) -> Optional[tuple]:
    """HOST:PORT of a cluster's head (None for Ray Client's ray://, "auto" and the like)."""
    if not address or "://" in address or address.count(":") != 1:
        return None
    host, port = address.rsplit(":", 1)
    return (host, int(port)) if port.isdecimal() and 0 < int(port) < 65536 else None


def _answers(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=3).close()
        return True
    except OSError:
        return False


def _refuses_token(ray, address: str, wait: float = 10.0) -> bool:
    """Whether the head's GCS turns this process's token away (Ray's AuthenticationError
    comes at once; anything else, or no answer within `wait` seconds, is not that)."""
    refused = []

    def ask():
        try:
            from ray._raylet import GcsClient   # the client ray.init itself uses
            GcsClient(address=address).internal_kv_get(b"rulesdsl", None, timeout=3)
        except Exception as e:   # Ray's private API may change: only this one error counts
            refused.append(type(e).__name__ == "AuthenticationError")
    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    asking.join(wait)
    return bool(refused and refused[0])
