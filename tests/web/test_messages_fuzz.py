"""Whatever a browser sends: seeded junk on a seat's websocket (any JSON, the requests'
keys with values of every type, binary frames) and junk lobby requests. Each is answered
with a reason or ignored, never with a dropped socket or a server error, and the game is
as it was: a good move after the junk is played. A message past the size limit closes
its socket (1009, "message too big"); the game goes on on a new one."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request

import pytest

from _web import needs

KEYS = ["play", "hint", "undo", "replay", "reload", "game", "players", "seats", "options",
        "seed", "", "__proto__", "play "]


def junk(rng: random.Random, depth: int = 0):
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 1, 2 ** 31, 2 ** 64, 10 ** 400 if rng.random() < .1 else 3])
    if kind == 3:
        return rng.choice([0.5, -0.0, 1e308])
    if kind == 4:
        return rng.choice(["", "a1", "P1", "\x00", "\u2028", "é" * 40, "a1 " * 300, "../x",
                           "<script>alert(1)</script>", "human", "ismcts:hard"])
    if kind == 5:
        return "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(12)))
    if kind in (6, 7):
        return {rng.choice(KEYS): junk(rng, depth + 1) for _ in range(rng.randrange(4))}
    return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]


def test_junk_on_a_seat_socket_changes_nothing(server):
    needs("websockets")
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect
    links = server.new_game("connect_four", ["human", "human"])
    rng = random.Random(20)
    url = server.url.replace("http", "ws") + "/ws/" + links["links"][0]["url"].rsplit("/", 1)[1]
    with connect(url, open_timeout=30, max_size=None) as ws:
        def table():
            while True:
                m = json.loads(ws.recv(timeout=60))
                if m.get("type") == "table":
                    return m
        assert table()["moves"] == 0
        hints = 0
        for k in range(300):
            value = junk(rng)
            if isinstance(value, dict) and value.get("hint"):
                hints += 1
                if hints > 2:           # a search a hint: a couple are enough
                    value["hint"] = False
            if k % 50 == 0:
                ws.send(bytes(rng.randrange(256) for _ in range(20)))     # binary
            ws.send(json.dumps(value))
        ws.send(json.dumps({"play": "d1"}))
        assert table()["moves"] == 1     # still connected, the game as it was, one move on
    with connect(url, open_timeout=30, max_size=None) as ws:
        ws.send("x" * 5000)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=60)
        assert closed.value.rcvd.code == 1009
    with connect(url, open_timeout=30, max_size=None) as ws:
        first = [json.loads(ws.recv(timeout=60)) for _ in range(2)]
        assert first[1]["type"] == "table" and first[1]["moves"] == 1
    saved = server.store.game(links["id"])
    assert saved["actions"] == ["d1"]


def test_junk_lobby_requests_are_answered_with_a_reason(server):
    rng = random.Random(21)
    for _ in range(150):
        body = junk(rng)
        if isinstance(body, dict) and rng.random() < 0.5:
            body["game"] = rng.choice(["hex", "intrige", "gops"])
        request = urllib.request.Request(server.url + "/api/games",
                                         data=json.dumps(body).encode(), method="POST",
                                         headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                assert r.status == 200 and json.load(r)["links"]
        except urllib.error.HTTPError as e:
            assert e.code == 400, (body, e.read())
            assert json.load(e)["error"]
