"""Screenshots of the browser table, mid-game: a card game, a grid game, a hex game and
the Condottiere map.

    python docs/screens/take.py [--out DIR]

Needs the web and test extras (`pip install '.[web,test]'`) and Debian's chromium
(`apt-get install chromium`). It starts `rulesdsl serve` on loopback with a temporary
`--db`, makes each game with a fixed seed (seat 1 a person, the others seeded computer
players), plays that person's moves chosen by a seeded random generator until the table
is mid-game, and saves that seat's page, 1280 pixels wide and as tall as the table
(at least 800), as a small palette PNG in DIR (this folder by default). The same
command makes the same pictures."""

from __future__ import annotations

import argparse
import io
import json
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SIZE = {"width": 1280, "height": 800}

# (picture, game, seats, seed, moves the person makes before the picture)
SHOTS = [
    ("hearts", "hearts", ["human", "greedy", "greedy", "greedy"], 7, 3),
    ("reversi", "reversi", ["human", "greedy"], 7, 9),
    ("hex", "hex", ["human", "random"], 7, 12),
    ("condottiere", "condottiere", ["human", "greedy", "greedy"], 7, 4),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path) -> tuple:
    """`rulesdsl serve` for the games pictured, on loopback; (process, url)."""
    port = free_port()
    games = sorted({game for _, game, *_ in SHOTS})
    process = subprocess.Popen(
        [sys.executable, "-m", "rulesdsl", "serve", *games, "--host", "127.0.0.1",
         "--port", str(port), "--db", str(db)], cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(url + "/api/games", timeout=5).close()
            return process, url
        except OSError:
            if process.poll() is not None or time.time() > deadline:
                process.kill()
                raise SystemExit("rulesdsl serve did not start")
            time.sleep(0.2)


def new_game(url: str, game: str, seats: list, seed: int) -> str:
    """The person's seat link of a new game."""
    body = json.dumps({"game": game, "players": len(seats), "seats": seats,
                       "seed": seed}).encode()
    request = urllib.request.Request(url + "/api/games", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return url + json.load(r)["links"][0]["url"]


def my_turn(page, after: int, timeout: float = 60) -> dict:
    """The table once more than `after` actions are made and this seat is asked (or the
    game is over): the computer seats have moved and the page has drawn it."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        t = page.evaluate("T && {moves: T.moves, over: T.over, actions: T.actions, "
                          "mine: T.to_move === T.seat && T.thinking === null}")
        if t and t["moves"] > after and (t["over"] or t["mine"]):
            page.wait_for_selector("#status.over" if t["over"] else "#status.you")
            return t
        page.wait_for_timeout(50)
    raise SystemExit("the table did not come back to the person")


def play_to_midgame(page, moves: int, rng: random.Random) -> None:
    t = my_turn(page, -1)
    for _ in range(moves):
        if t["over"]:
            break
        page.evaluate("label => play(label)", rng.choice(sorted(t["actions"])))
        t = my_turn(page, t["moves"])
    page.wait_for_timeout(300)        # the last drawing settles (layouts, fonts)


def whole_table(page) -> None:
    """The window made as tall as the table (at least 800 pixels): a table taller than the
    window is pictured whole, as it lies, not with the question floating over it."""
    for _ in range(5):                 # a taller window may draw a board taller
        height = max(SIZE["height"], page.evaluate("document.documentElement.scrollHeight"))
        if height == page.viewport_size["height"]:
            return
        page.set_viewport_size({"width": SIZE["width"], "height": height})
        page.wait_for_timeout(200)


def small_png(png: bytes) -> bytes:
    """The screenshot as a 256-colour palette PNG, about a sixth of its size; an octree
    palette keeps every seat's and suit's colour (a median cut shifts some)."""
    from PIL import Image
    image = Image.open(io.BytesIO(png)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
    return out.getvalue()


def take(out: Path) -> None:
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        raise SystemExit("chromium is missing (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        process, url = start_server(Path(tmp) / "games.sqlite")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium,
                                            args=["--headless", "--no-sandbox",
                                                  "--disable-gpu"])
                for picture, game, seats, seed, moves in SHOTS:
                    page = browser.new_page(viewport=SIZE)
                    page.goto(new_game(url, game, seats, seed))
                    play_to_midgame(page, moves, random.Random(seed))
                    whole_table(page)
                    path = out / f"{picture}.png"
                    path.write_bytes(small_png(page.screenshot(animations="disabled")))
                    print(f"{path}  {path.stat().st_size // 1024} KB")
                    page.close()
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where the PNGs go")
    take(parser.parse_args().out)


if __name__ == "__main__":
    main()
