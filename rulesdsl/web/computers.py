"""Computer seats think in worker processes, never on the server's event loop.

A search is pure Python work: on a thread it holds the interpreter lock and slows every
page the server answers; in its own process it does not. The pool is bounded (a few
processes, however many games ask), so a hundred games with computer seats wait their
turn instead of taking the machine.

A worker gets the game as text (a loaded game holds compiled code and cannot be sent),
the state as `to_json` text and the agent itself, its generator where the last choice
left it; it hands back the label and the agent, so the next choice goes on from there.
The moves are the ones the same agent would make in this process: budgets are counted in
iterations and the worker's own CPU time, never in the wall time of a busy pool.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from rulesdsl.agents.random_agent import RandomAgent
from rulesdsl.analysis.pool import die_with_parent
from rulesdsl.analysis.run import GameSpec, game_of
from rulesdsl.lang.errors import RulesError


def choose_in_worker(spec: GameSpec, state_text: str, agent) -> tuple:
    """(the label `agent` chooses at the state, the agent after choosing)."""
    def choose(state):
        return agent.choose(state).label, agent
    return _in_worker(choose, spec, state_text)


def advise_in_worker(spec: GameSpec, state_text: str, agent) -> tuple:
    """`hint`'s advice: (label, [(label, visits, value)])."""
    from rulesdsl.play.hint import advise
    return _in_worker(lambda state: advise(state, agent), spec, state_text)


def _in_worker(work, spec: GameSpec, state_text: str):
    """The work's result; a RulesError it raises reaches the server as it is."""
    import rulesdsl
    return work(rulesdsl.restore(game_of(spec), state_text))


def worker_started(server: int) -> None:
    """A worker is the server's child and ends with it, however the server ends; Ctrl-C
    at the terminal is the server's to handle, not the worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(server)


class Thinkers:
    """A bounded pool of worker processes for the computer seats' choices and hints."""

    def __init__(self, workers: int):
        self.workers = max(1, int(workers))
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawned, not forked (a fork of a threaded server is unsafe) nor made by a fork
        # server (whose workers outlive a server stopped by a signal)
        return ProcessPoolExecutor(max_workers=self.workers,
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=worker_started, initargs=(os.getpid(),))

    async def choose(self, spec: GameSpec, state, agent) -> tuple:
        """(label, agent after choosing) for the seat to move at `state`. An agent that
        looks no further than the legal actions chooses here: sending it costs more than
        its choice."""
        if isinstance(agent, RandomAgent):
            return agent.choose(state.clone()).label, agent
        return await self._run(choose_in_worker, spec, state.to_json(), agent)

    async def advise(self, spec: GameSpec, state, agent) -> tuple:
        return await self._run(advise_in_worker, spec, state.to_json(), agent)

    async def _run(self, work, *args):
        """The work on a worker; a pool that broke (a worker killed by the system) is
        made again and the work tried once more, since a choice depends only on its
        arguments."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self.pool
            try:
                return await loop.run_in_executor(pool, work, *args)
            except BrokenProcessPool:
                if pool is self.pool:          # the first to see it makes the new one
                    pool.shutdown(wait=False, cancel_futures=True)
                    self.pool = self._new_pool()
                if attempt == 2:
                    raise RulesError("C020", "a computer player's worker process stopped "
                                     "twice while it thought", None,
                                     ["the machine may be short of memory; restart the "
                                      "server"]) from None

    def close(self) -> None:
        """The workers stopped at once (a search under way is not worth waiting for), then
        the pool closed, its queues and their semaphores freed."""
        for process in list((getattr(self.pool, "_processes", None) or {}).values()):
            process.terminate()
        self.pool.shutdown(wait=True, cancel_futures=True)
