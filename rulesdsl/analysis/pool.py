"""Worker processes for a local simulation, each watched on its own.

concurrent.futures' pool cannot say which process was playing what when one dies (it
breaks as a whole and every result is lost), and on Ctrl-C it waits for every queued
range. Here each worker has its own pipe and plays one range of games at a time:

- a worker that dies (the OOM killer's SIGKILL, a crash) is named with its number, pid,
  signal and the games it was playing; those games are played once more in a fresh
  worker, and reported lost if that one dies too; every finished range is kept;
- Ctrl-C (SIGINT to the whole process group, as a terminal sends it) is the parent's
  alone: workers ignore it, and the parent stops them at once (SIGTERM, then SIGKILL)
  and hands the KeyboardInterrupt on, the finished ranges kept in the Outcome;
- a parent that dies without a word (SIGKILL, SIGTERM) takes its workers with it on
  Linux (PR_SET_PDEATHSIG); elsewhere they stop after their range, on the broken pipe.
"""

from __future__ import annotations

import collections
import itertools
import os
import pickle
import signal
import time
import traceback
from multiprocessing.connection import wait
from typing import Callable, Optional

import attrs

# A worker told to stop gets this long to go before it is killed.
STOP_GRACE = 0.5


@attrs.define
class Outcome:
    """What a pool produced so far: the records of each finished range by its first game,
    a sentence per worker that died, and the ranges no worker could finish."""

    results: dict = attrs.field(factory=dict)      # start -> records of start..stop-1
    deaths: list = attrs.field(factory=list)       # "worker 2 (pid 812) was killed by ..."
    lost: list = attrs.field(factory=list)         # [(start, stop)]


@attrs.define(eq=False)
class _Worker:
    number: int
    process: object
    conn: object
    chunk: Optional[tuple] = None      # the range it is playing


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker, as text (the cause shown)."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0])


def games_text(start: int, stop: int) -> str:
    """Games start..stop-1 as people count them: "games 41-60", "game 7"."""
    return f"game {start + 1}" if stop - start == 1 else f"games {start + 1}-{stop}"


def run_pool(context, job, ranges, size: int, play: Callable,
             advance: Callable[[int], None], outcome: Outcome) -> None:
    """Play every range with `play(job, start, stop)` on up to `size` worker processes of
    the multiprocessing `context`, filling `outcome` as ranges finish (so a caller that
    catches KeyboardInterrupt still has them). A worker's exception is raised here."""
    todo = collections.deque(ranges)
    tries = collections.Counter()
    numbers = itertools.count(1)
    live: list = []
    finished = False
    try:
        for _ in range(min(size, len(todo))):
            live.append(_start(context, next(numbers), job, play))
        for worker in live:
            _give(worker, todo)
        advance(0)
        while any(w.chunk for w in live):   # a range waiting always has a worker
            busy = [w for w in live if w.chunk]
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for worker in busy:
                if worker.conn not in ready and worker.process.sentinel not in ready:
                    continue
                message = _receive(worker)
                if message is None:
                    live.remove(worker)
                    _bury(worker, tries, todo, outcome)
                    if todo:
                        live.append(_start(context, next(numbers), job, play))
                        _give(live[-1], todo)
                    continue
                start, stop = worker.chunk
                worker.chunk = None
                if message[0] == "raised":
                    raise _rebuilt(message)
                outcome.results[start] = message[1]
                advance(stop - start)
                _give(worker, todo)
        finished = True
    finally:
        _stop(live, politely=finished)


def _start(context, number: int, job, play) -> _Worker:
    """A fresh worker process. SIGINT stays blocked while it is forked, so a Ctrl-C at that
    moment reaches the parent (after) and not the child before it ignores it."""
    ours, theirs = context.Pipe()
    process = context.Process(target=_serve, args=(theirs, job, play, os.getpid()),
                              daemon=True,
                              name=f"rulesdsl worker {number}")
    masking = hasattr(signal, "pthread_sigmask")
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if masking else None
    try:
        process.start()
    finally:
        if masking:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
    theirs.close()   # the child's end: only the child holds it now, so its death is EOF
    return _Worker(number, process, ours)


def _give(worker: _Worker, todo) -> None:
    """The next range to a worker; one that died meanwhile keeps it, to be buried with it."""
    if todo:
        worker.chunk = todo.popleft()
        try:
            worker.conn.send(worker.chunk)
        except OSError:   # its death shows at its sentinel, in run_pool's next wait
            pass


def _receive(worker: _Worker):
    """The worker's message, or None when it died (a message sent before dying counts)."""
    try:
        if worker.conn.poll():
            return worker.conn.recv()
    except (EOFError, OSError):
        pass
    return None


def _bury(worker: _Worker, tries, todo, outcome: Outcome) -> None:
    """Say how a worker died; give its range one more try in a fresh worker, or count it lost."""
    worker.process.join(STOP_GRACE)
    how = _how_it_ended(worker.process.exitcode)
    if worker.process.exitcode is None:   # its pipe broke but it lingers: end it
        worker.process.kill()
        worker.process.join(STOP_GRACE)
    worker.conn.close()
    chunk = worker.chunk
    tries[chunk] += 1
    they = "they are" if chunk[1] - chunk[0] > 1 else "it is"
    if tries[chunk] == 1:
        todo.appendleft(chunk)
        after = f"{they} played again in a new worker"
    else:
        outcome.lost.append(chunk)
        after = f"{they} lost: the second worker to try died too"
    outcome.deaths.append(f"worker {worker.number} (pid {worker.process.pid}) {how} while "
                          f"playing {games_text(*chunk)}; {after}")


def _how_it_ended(exitcode: Optional[int]) -> str:
    if exitcode is None:
        return "stopped answering"
    if exitcode < 0:
        try:
            return f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"was killed by signal {-exitcode}"
    return f"exited with status {exitcode}"


def _stop(live: list, politely: bool) -> None:
    """End every worker: asked to (when all went well), else at once; killed if it lingers."""
    for worker in live:
        try:
            if politely:
                worker.conn.send(None)
            else:
                worker.process.terminate()
        except (OSError, ValueError):
            pass
    deadline = time.monotonic() + STOP_GRACE
    for worker in live:
        worker.process.join(max(0.0, deadline - time.monotonic()))
        if worker.process.exitcode is None:
            worker.process.kill()
            worker.process.join(STOP_GRACE)
        worker.conn.close()


def _serve(conn, job, play, parent: int) -> None:
    """A worker: play each range the parent sends until it sends None or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's: it stops us
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    die_with_parent(parent)
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        try:
            message = ("done", play(job, *chunk))
        except Exception as e:   # a bug: the parent re-raises it with this traceback
            message = ("raised", _picklable(e), traceback.format_exc())
        try:
            conn.send(message)
        except OSError:
            return


def die_with_parent(parent: int) -> None:
    """Linux: SIGTERM to this process when the parent ends, however it ends, so that no
    orphan plays on; gone already (before the call took effect): end now."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)   # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError, TypeError):   # not Linux: the broken pipe will do
        return
    if os.getppid() != parent:
        os._exit(1)


def _picklable(e: Exception) -> Exception:
    try:
        pickle.loads(pickle.dumps(e))
        return e
    except Exception:
        return RuntimeError(f"{type(e).__name__}: {e}")


def _rebuilt(message) -> Exception:
    _, error, text = message
    error.__cause__ = RemoteTraceback(text)
    return error
