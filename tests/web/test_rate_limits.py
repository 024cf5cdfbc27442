"""The server's rate limits: games a client address makes in the lobby, messages a page
sends on its websocket; past them the page is told, in words, how long to wait."""

from __future__ import annotations

import json
import time

import pytest

from rulesdsl.web.throttle import Bucket, Limits, PerAddress, wait_text

from _web import Server
from test_server import post, seat


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_gives_its_burst_then_one_a_period():
    clock = Clock()
    bucket = Bucket(rate=0.5, burst=3, clock=clock)
    assert [bucket.take() for _ in range(3)] == [0, 0, 0]
    assert bucket.take() == pytest.approx(2.0)      # one token every 2 s
    clock.now += 1.0
    assert bucket.take() == pytest.approx(1.0)
    clock.now += 1.0
    assert bucket.take() == 0
    clock.now += 1000
    assert [bucket.take() for _ in range(4)][-1] > 0   # refilled to its burst, no more


def test_each_address_has_its_own_bucket_and_idle_ones_are_forgotten(monkeypatch):
    import rulesdsl.web.throttle as throttle
    monkeypatch.setattr(throttle, "KEEP_ADDRESSES", 3)
    clock = Clock()
    limit = PerAddress(rate=1, burst=1, clock=clock)
    assert limit.take("a") == 0 and limit.take("a") > 0 and limit.take("b") == 0
    clock.now += 5
    for address in "cdef":
        limit.take(address)
    assert len(limit.buckets) <= 3
    assert PerAddress(rate=0, burst=0).take("a") == 0    # 0 lifts the limit


def test_wait_text_reads_as_a_person_waits():
    assert [wait_text(0.2), wait_text(25.3), wait_text(130)] == ["1 s", "26 s", "3 min"]


@pytest.fixture
def strict_server(tmp_path):
    srv = Server(tmp_path / "games.sqlite",
                 limits=Limits(games_per_minute=1, games_burst=2, messages_per_second=2,
                               messages_burst=4)).start()
    yield srv
    srv.stop()


def test_the_lobby_says_when_an_address_makes_too_many_games(strict_server):
    body = {"game": "connect_four", "seats": ["human", "human"]}
    assert post(strict_server, body)[0] == 200
    assert post(strict_server, body)[0] == 200
    status, answer = post(strict_server, body)
    assert status == 429
    assert answer["error"].startswith("Too many new games from your address: at most 1 a "
                                      "minute once 2 are made. Try again in ")


def test_a_page_sending_too_fast_is_told_once_and_the_rest_is_not_read(strict_server):
    links = strict_server.new_game("connect_four", ["human", "human"])
    with seat(strict_server, links["links"][0]["url"]) as p1:
        p1.next("table")
        for _ in range(12):
            p1.send({"play": "a9"})         # each read one is answered with an error
        answers = []
        while len(answers) < 5:
            answers.append(p1.next("error")["message"])
        assert answers[:4] == ["'a9' is not one of the options"] * 4
        assert answers[4].startswith("Too many messages from this page (at most 2 a "
                                     "second): that one was not read. Wait ")
        time.sleep(1.2)                              # slowed down: read again
        p1.send({"play": "c1"})
        after = json.loads(p1.ws.recv(timeout=60))   # the other dropped ones said nothing
        assert after["type"] == "table" and after["moves"] == 1


def test_the_lobby_page_shows_the_limit(strict_server, browser):
    page = browser.new_page()
    try:
        for _ in range(2):
            post(strict_server, {"game": "connect_four", "seats": ["human", "human"]})
        page.goto(strict_server.url + "/")
        page.click('[data-game="connect_four"]')
        page.select_option('[data-seat="1"]', "human")   # two links: the page stays
        page.click("#start")
        page.wait_for_selector("#lobby-error:not(:empty)")
        assert page.inner_text("#lobby-error").startswith("Too many new games")
        assert page.is_hidden("#links")
    finally:
        page.close()


def test_the_table_shows_the_message_limit(strict_server, browser):
    links = strict_server.new_game("connect_four", ["human", "human"])
    page = browser.new_page()
    try:
        page.goto(strict_server.url + links["links"][0]["url"])
        page.wait_for_selector("#status.you")
        for _ in range(10):
            page.evaluate("send({hint: false})")     # the page's own door, fast
        toast = page.wait_for_selector("text=Too many messages from this page")
        assert toast.is_visible()
    finally:
        page.close()
