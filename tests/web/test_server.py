"""The server's doors, without a browser: the lobby turns bad requests away with a reason,
a link's websocket only ever plays for its own seat, and `hint` and `undo` work as at the
terminal."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from contextlib import contextmanager

import pytest

from _web import needs


def post(server, body, kind="application/json") -> tuple:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(server.url + "/api/games", data=data, method="POST",
                                     headers={"content-type": kind})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


@pytest.mark.parametrize("body,words", [
    ({"game": "chess"}, "no game called 'chess'"),
    ({"game": "../../etc/passwd"}, "no game called"),
    ({"game": "hex", "players": 3}, "Hex is for 2 to 2 players"),
    ({"game": "hex", "players": True}, "Hex is for 2 to 2 players"),
    ({"game": "hex", "seats": ["human", "human", "human"]}, "a kind for each of the 2 seats"),
    ({"game": "hex", "seats": ["human", "python:exec"]}, "a seat is one of: human"),
    ({"game": "intrige", "players": 3, "options": {"refund": "yes"}}, "option refund takes a value like False"),
    ({"game": "intrige", "players": 3, "options": {"nope": 1}}, "Intrige has no option 'nope'"),
    ({"game": "hex", "seed": -1}, "the seed is a whole number"),
    (b"{not json", "the request is not JSON"),
    ([1, 2], "not a JSON object"),
])
def test_the_lobby_turns_a_bad_request_away_with_a_reason(server, body, words):
    status, answer = post(server, body)
    assert status == 400 and words in answer["error"]


def test_a_game_is_made_from_json_only(server):
    """A form another site's page posts (no JSON, so no preflight) makes no game."""
    status, answer = post(server, b"game=hex", kind="application/x-www-form-urlencoded")
    assert status == 415 and answer["error"] == "send the request as application/json"
    status, answer = post(server, {"game": "hex"}, kind="text/plain")
    assert status == 415


def test_an_unknown_link_is_not_found(server):
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(server.url + "/play/not-a-token", timeout=30)
    assert e.value.code == 404


@contextmanager
def seat(server, url):
    needs("websockets")
    from websockets.sync.client import connect
    token = url.rsplit("/", 1)[1]
    with connect(server.url.replace("http", "ws") + "/ws/" + token, open_timeout=30) as ws:
        yield Socket(ws)


class Socket:
    def __init__(self, ws):
        self.ws = ws

    def next(self, kind: str, when=lambda m: True) -> dict:
        while True:
            m = json.loads(self.ws.recv(timeout=60))
            if m.get("type") == kind and when(m):
                return m

    def send(self, obj) -> None:
        self.ws.send(json.dumps(obj))


def test_a_link_plays_for_its_own_seat_only(server):
    links = server.new_game("connect_four", ["human", "human"])
    urls = {link["seat"]: link["url"] for link in links["links"]}
    with seat(server, urls[0]) as p1, seat(server, urls[1]) as p2, \
            seat(server, links["watch"]) as watcher:
        first = p1.next("table")
        assert first["actions"] and p2.next("table")["actions"] == []
        watcher.next("table")
        p2.send({"play": "a1"})
        assert p2.next("error")["message"] == "it is not your turn"
        watcher.send({"play": "a1"})
        assert watcher.next("error")["message"] == "spectators watch; they do not play"
        p1.send({"play": "a9"})
        assert p1.next("error")["message"] == "'a9' is not one of the options"
        p1.send({"play": ["a1"]})
        assert p1.next("error")["message"] == "that is not one of the options"
        p1.send({"play": "c1"})
        assert p2.next("table")["moves"] == 1         # the same game, one move on
        assert watcher.next("table")["log"][-1] == "P1 chooses c1"


def test_hint_and_undo_against_the_computer(server):
    links = server.new_game("connect_four", ["human", "random"])
    with seat(server, links["links"][0]["url"]) as p1:
        t = p1.next("table")
        assert not t["can_undo"]                      # nothing to take back yet
        p1.send({"hint": True})
        assert p1.next("hint")["text"].startswith("The computer (ismcts, medium) would play")
        p1.send({"play": "d1"})
        t = p1.next("table", lambda m: m["moves"] == 2 and m["thinking"] is None)
        assert t["can_undo"] and t["to_move"] == 0
        p1.send({"undo": True})
        t = p1.next("table", lambda m: m["moves"] == 0)
        assert t["to_move"] == 0 and not t["can_undo"]
    assert server.store.game(links["id"])["actions"] == []   # the store forgets it too


def test_undo_is_only_against_computer_players(server):
    links = server.new_game("connect_four", ["human", "human"])
    with seat(server, links["links"][0]["url"]) as p1:
        p1.next("table")
        p1.send({"play": "d1"})
        assert not p1.next("table", lambda m: m["moves"] == 1)["can_undo"]
        p1.send({"undo": True})
        assert "undo is for a person playing against computer players" in \
            p1.next("error")["message"]


def test_a_game_is_replayed_once_it_is_over(server):
    links = server.new_game("connect_four", ["human", "human"])
    with seat(server, links["links"][0]["url"]) as p1:
        p1.next("table")
        p1.send({"replay": 0})
        assert p1.next("error")["message"] == "a game is replayed once it is over"
