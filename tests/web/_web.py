"""Helpers of the browser tests: a real `rulesdsl serve` on loopback, a seat's page."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAME_FILES = sorted(ROOT.glob("games/*.rules")) + sorted(ROOT.glob("examples/*.rules"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def missing(what: str):
    """Fail under CI (where .ci/run installs it), skip elsewhere."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing; .ci/run installs it")
    pytest.skip(f"{what} is missing here")


def needs(module: str):
    try:
        return __import__(module)
    except ImportError:
        missing(f"the Python package {module} (pip install '.[test]')")


class Server:
    """`rulesdsl serve` in a thread of this process, every bundled game and example
    offered, games kept in `db`; stopped and started again as a person would. The rate
    limits are lifted unless `limits` are given (the tests play as fast as scripts)."""

    def __init__(self, db: Path, games=None, watch: bool = False, limits=None):
        self.db = db
        self.limits = limits
        self.games = [str(p) for p in (games or GAME_FILES)]
        self.watch = watch
        self.port = None
        self.thread = None
        self.server = None

    def start(self) -> "Server":
        needs("uvicorn")
        needs("starlette")
        import uvicorn
        from rulesdsl.web.lobby import Catalogue
        from rulesdsl.web.server import MAX_MESSAGE, make_app, offered_games
        from rulesdsl.web.store import Store
        from rulesdsl.web.throttle import Limits
        self.store = Store(self.db)
        app = make_app(Catalogue(offered_games(self.games)), self.store, workers=1,
                       watch=self.watch, limits=self.limits or Limits(games_per_minute=0,
                                                     messages_per_second=0))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=MAX_MESSAGE)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            assert time.time() < deadline, "the server did not start"
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.store.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def new_game(self, game: str, seats: list, seed: int = 3, **more) -> dict:
        body = json.dumps({"game": game, "players": len(seats), "seats": seats,
                           "seed": seed, **more}).encode()
        request = urllib.request.Request(self.url + "/api/games", data=body, method="POST",
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.load(r)


class Table:
    """A seat's page: what it shows and what its websocket received."""

    def __init__(self, page, url: str):
        self.page = page
        self.frames: list = []
        self.errors: list = []
        page.on("websocket", lambda ws: ws.on("framereceived",
                                              lambda f: self.frames.append(f if isinstance(f, str) else f.decode())))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(url)
        page.wait_for_selector("#status:not(:empty)")

    def status(self) -> str:
        return self.page.inner_text("#status")

    def wait_turn(self, timeout=30_000) -> None:
        self.page.wait_for_selector("#status.you, #status.over", timeout=timeout)

    def tables(self) -> list:
        messages = [json.loads(f) for f in self.frames]
        return [m for m in messages if m.get("type") == "table"]

    def last_table(self) -> dict:
        return self.tables()[-1]

    def settle(self, after: int = -1, timeout: float = 60) -> dict:
        """The table once more than `after` actions are made and it is this seat's turn
        again, or the game is over (the computer seats have moved)."""
        deadline = time.time() + timeout
        while True:
            tables = self.tables()
            if tables:
                t = tables[-1]
                if t["moves"] > after and (t["over"] or (t["to_move"] == t["seat"] and
                                                         t["thinking"] is None)):
                    # the page has drawn what it received
                    self.page.wait_for_selector("#status.over" if t["over"] else "#status.you")
                    return t
            assert time.time() < deadline, f"the table did not come back: {tables[-1:]}"
            self.page.wait_for_timeout(50)

    def click_option(self) -> str:
        """Click the first option the table offers (a card, a place, a button); its label."""
        for selector in (".card.playable", ".place.target", "#buttons button.option:not(.quiet)",
                         "#options button.option"):
            found = self.page.query_selector(selector)
            if found and found.is_visible():
                label = found.get_attribute("data-label") or found.get_attribute(
                    "data-place") or found.inner_text()
                found.click()
                return label
        raise AssertionError("the table offers nothing to click")
