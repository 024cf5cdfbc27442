"""The computer seats' worker processes: the same moves as the same agents make here, the
search's work done outside the server's process, a killed worker replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

import rulesdsl
from rulesdsl.agents import make_agent
from rulesdsl.agents.seats import agent_seed
from rulesdsl.analysis.run import GameSpec
from rulesdsl.web.computers import Thinkers

from _web import ROOT


def agents_of(kinds, seed):
    return [make_agent(kind, agent_seed(seed, s)) for s, kind in enumerate(kinds)]


def played_here(game, kinds, seed, moves):
    state = game.new_game(players=len(kinds), seed=seed)
    agents = agents_of(kinds, seed)
    while not state.is_over and len(state.history) < moves:
        state.apply(agents[state.to_move].choose(state.clone()).label)
    return list(state.history)


async def played_in_workers(thinkers, game, kinds, seed, moves):
    spec = GameSpec.of(game)
    state = game.new_game(players=len(kinds), seed=seed)
    agents = agents_of(kinds, seed)
    while not state.is_over and len(state.history) < moves:
        label, agents[state.to_move] = await thinkers.choose(spec, state, agents[state.to_move])
        state.apply(label)
    return list(state.history)


@pytest.fixture
def thinkers():
    pool = Thinkers(2)
    yield pool
    pool.close()


@pytest.mark.parametrize("name,kinds", [
    ("love_letter", ["ismcts:iterations=40", "greedy", "random"]),
    ("no_thanks", ["ismcts:iterations=20", "greedy", "ismcts:iterations=20"]),
])
def test_the_workers_make_the_moves_the_same_agents_make_here(thinkers, name, kinds):
    game = rulesdsl.load(str(ROOT / "examples" / f"{name}.rules"))
    here = played_here(game, kinds, 11, 24)
    there = asyncio.run(played_in_workers(thinkers, game, kinds, 11, 24))
    assert len(here) == 24
    assert there == here


def test_a_search_costs_the_server_process_next_to_nothing(thinkers):
    game = rulesdsl.load(str(ROOT / "examples" / "reversi.rules"))
    state = game.new_game(players=2, seed=3)
    spec = GameSpec.of(game)

    async def search():
        # the first choice starts the worker and loads the game there: not measured
        await thinkers.choose(spec, state, make_agent("random", 1))
        agent = make_agent("ismcts:iterations=120", 5)
        here = time.process_time()
        await thinkers.choose(spec, state, agent)
        return time.process_time() - here

    started = time.process_time()
    make_agent("ismcts:iterations=120", 5).choose(state.clone())
    cost_here = time.process_time() - started
    assert cost_here > 0.3, "the search is too small to tell"
    assert asyncio.run(search()) < cost_here / 4


def test_a_killed_worker_is_replaced_and_the_choice_still_comes(thinkers):
    game = rulesdsl.load(str(ROOT / "examples" / "reversi.rules"))
    state = game.new_game(players=2, seed=3)
    spec = GameSpec.of(game)
    expected = make_agent("ismcts:iterations=120", 5).choose(state.clone()).label

    async def killed_midway():
        await thinkers.choose(spec, state, make_agent("random", 1))   # workers up
        choice = asyncio.ensure_future(
            thinkers.choose(spec, state, make_agent("ismcts:iterations=120", 5)))
        await asyncio.sleep(0.2)
        for pid in list(thinkers.pool._processes):
            os.kill(pid, signal.SIGKILL)
        return await choice

    label, _ = asyncio.run(killed_midway())
    assert label == expected
