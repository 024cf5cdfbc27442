"""`rulesdsl serve` under load on loopback: many games with a computer seat at once, a
person's browser and a spectator's on each, and the time from a move sent to the table
coming back with it (the p50, p95 and p99 of that latency).

    python benchmarks/web_load.py [--games 100] [--seconds 30] [--game connect_four]
        [--opponent random] [--port 8799 | --url http://127.0.0.1:8799]

The server runs as its own process (`rulesdsl serve`, a fresh SQLite file); the clients
are websockets in one asyncio loop here, each person playing its first option as soon as
it is asked and starting a new game in the same room's place when one ends. Bounded in
count (--games, two clients each) and in time (--seconds)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def new_game(base: str, game: str, opponent: str) -> dict:
    body = json.dumps({"game": game, "players": 2, "seats": ["human", opponent]}).encode()
    request = urllib.request.Request(base + "/api/games", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as r:
        return json.load(r)


async def watcher(url: str, stop: float) -> int:
    import websockets
    seen = 0
    async with websockets.connect(url, max_size=None) as ws:
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
                seen += 1
            except asyncio.TimeoutError:
                break
    return seen


async def player(base: str, args, latencies: list, stop: float) -> int:
    """Plays games one after another until the time is up; the latency of each move."""
    import websockets
    games = 0
    ws_base = base.replace("http", "ws") + "/ws/"
    while time.monotonic() < stop:
        links = await asyncio.to_thread(new_game, base, args.game, args.opponent)
        token = links["links"][0]["url"].rsplit("/", 1)[1]
        watch = asyncio.create_task(watcher(ws_base + links["watch"].rsplit("/", 1)[1], stop))
        async with websockets.connect(ws_base + token, max_size=None) as ws:
            sent, moves = None, -1
            while time.monotonic() < stop:
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
                except asyncio.TimeoutError:
                    break
                if m.get("type") != "table":
                    continue
                if sent is not None and m["moves"] > moves:
                    latencies.append(time.monotonic() - sent)
                    sent = None
                if m["over"]:
                    games += 1
                    break
                if m["actions"] and sent is None and m["thinking"] is None:
                    moves = m["moves"]
                    sent = time.monotonic()
                    await ws.send(json.dumps({"play": m["actions"][0]}))
        await watch
    return games


async def load(base: str, args) -> tuple:
    latencies: list = []
    stop = time.monotonic() + args.seconds
    done = await asyncio.gather(*(player(base, args, latencies, stop)
                                  for _ in range(args.games)))
    return latencies, sum(done)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--game", default="connect_four")
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--port", type=int, default=8799)
    ap.add_argument("--url", help="a server already running (e.g. under a profiler)")
    args = ap.parse_args()
    if args.url:
        return report(args, *asyncio.run(load(args.url.rstrip("/"), args)))
    db = Path(tempfile.mkdtemp()) / "games.sqlite"
    server = subprocess.Popen([sys.executable, "-m", "rulesdsl", "serve", "--port",
                               str(args.port), "--db", str(db), "--games-per-minute", "0",
                               "--messages-per-second", "0"],
                              cwd=ROOT, env=dict(os.environ), stdout=subprocess.PIPE)
    try:
        server.stdout.readline()                  # the lobby line: it listens
        base = f"http://127.0.0.1:{args.port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/api/games", timeout=5)
                break
            except OSError:
                time.sleep(0.1)
        latencies, finished = asyncio.run(load(base, args))
    finally:
        server.terminate()
        server.wait(timeout=30)
    return report(args, latencies, finished)


def report(args, latencies: list, finished: int) -> int:
    latencies.sort()
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0] * 99
    print(f"{args.games} games at once ({args.game}, human against {args.opponent}), "
          f"{2 * args.games} clients, {args.seconds:.0f} s: {len(latencies)} moves, "
          f"{finished} games finished")
    print(f"move latency: p50 {q[49] * 1000:.0f} ms, p95 {q[94] * 1000:.0f} ms, "
          f"p99 {q[98] * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
