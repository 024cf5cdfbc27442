"""The computer seats' worker processes: the same moves as the same agents make here, the
search's work done outside the server's process, a killed worker replaced, no worker left
when the server ends."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

import rulesdsl
from rulesdsl.agents import make_agent
from rulesdsl.agents.seats import agent_seed
from rulesdsl.analysis.run import GameSpec
from rulesdsl.web.computers import Thinkers

from _web import ROOT, needs


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


def test_a_random_player_chooses_here_without_a_worker(thinkers):
    game = rulesdsl.load(str(ROOT / "examples" / "reversi.rules"))
    state = game.new_game(players=2, seed=3)
    label, _ = asyncio.run(thinkers.choose(GameSpec.of(game), state, make_agent("random", 4)))
    assert label == make_agent("random", 4).choose(state).label
    assert not thinkers.pool._processes            # no worker was started for it


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

    # a search big enough to tell from the server's own work, however fast the engine is
    iterations = 120
    while True:
        started = time.process_time()
        make_agent(f"ismcts:iterations={iterations}", 5).choose(state.clone())
        cost_here = time.process_time() - started
        if cost_here > 0.3 or iterations >= 1920:
            break
        iterations *= 2
    assert cost_here > 0.3, "the search is too small to tell"

    async def search():
        # the first choice starts the worker and loads the game there: not measured
        await thinkers.choose(spec, state, make_agent("greedy", 1))
        agent = make_agent(f"ismcts:iterations={iterations}", 5)
        here = time.process_time()
        await thinkers.choose(spec, state, agent)
        return time.process_time() - here

    assert asyncio.run(search()) < cost_here / 4


def test_a_killed_worker_is_replaced_and_the_choice_still_comes(thinkers):
    game = rulesdsl.load(str(ROOT / "examples" / "reversi.rules"))
    state = game.new_game(players=2, seed=3)
    spec = GameSpec.of(game)
    expected = make_agent("ismcts:iterations=120", 5).choose(state.clone()).label

    async def killed_midway():
        await thinkers.choose(spec, state, make_agent("greedy", 1))   # a worker up
        choice = asyncio.ensure_future(
            thinkers.choose(spec, state, make_agent("ismcts:iterations=120", 5)))
        await asyncio.sleep(0.2)
        for pid in list(thinkers.pool._processes):
            os.kill(pid, signal.SIGKILL)
        return await choice

    label, _ = asyncio.run(killed_midway())
    assert label == expected


def children(pid: int) -> list:
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                           text=True).stdout.split()
    return [int(p) for p in found]


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("stop", ["terminate", "kill"])
def test_the_workers_end_with_the_server(tmp_path, stop):
    """However `rulesdsl serve` ends (Ctrl-C, SIGTERM, SIGKILL), no worker thinks on."""
    needs("websockets")
    from websockets.sync.client import connect
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "rulesdsl", "serve", "connect_four",
                               "--port", str(port), "--db", str(tmp_path / "g.sqlite")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        server.stdout.readline()
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/api/games", timeout=5).close()
                break
            except OSError:
                time.sleep(0.1)
        body = json.dumps({"game": "connect_four", "seats": ["greedy", "greedy"]}).encode()
        request = urllib.request.Request(base + "/api/games", data=body,
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as r:
            watch = json.load(r)["watch"].rsplit("/", 1)[1]
        with connect(f"ws://127.0.0.1:{port}/ws/{watch}", open_timeout=30) as ws:
            ws.recv(timeout=30)
            deadline = time.time() + 60
            while len(children(server.pid)) < 2:      # the resource tracker and a worker
                assert time.time() < deadline, "no worker started"
                time.sleep(0.1)
        workers = children(server.pid)
        getattr(server, stop)()
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
    deadline = time.time() + 10
    while any(running(p) for p in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not [p for p in workers if running(p)]
