"""Nothing hidden reaches a browser that may not see it: over every bundled game and
example, at its fewest and most players, seeded moves are played through the server by
each seat's own websocket, and every message each seat and a spectator receive, and the
page each finally shows, is searched for the labels of cards that seat may not see.

The pages: the first seat's at the fewest players, a spectator's at the most.

A seat's hidden labels come from the engine, not the server: the cards in zones the seat
cannot look into (State.can_see), less any label the seat may read anyway (in its own
view, its log, the `show` values or its question, or the game's declared display: an
alike card in its hand, a card it saw before it went face down). A spectator may read only
what every seat may: its hidden labels are every seat's."""

from __future__ import annotations

import json
import random
import re
from contextlib import ExitStack

import pytest

import rulesdsl
from rulesdsl.web.seatview import display

from _web import GAME_FILES, needs

MOVES = 10          # actions per game: the deal, a few turns, cards moving between zones
TIMEOUT = 30


def cases():
    out = []
    for path in GAME_FILES:
        game = rulesdsl.load(str(path))
        for players in sorted({game.min_players, game.max_players}):
            out.append(pytest.param(path, players, id=f"{path.stem}-{players}"))
    return out


def strings(value) -> list:
    """Every string in a JSON value, keys too."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


def public_text(game, state, *more) -> str:
    """What the test counts as public whatever the cards (not the server's own idea of
    it): the declarations State.describe() gives but for its list of every card, the
    game's name and whatever else is named."""
    declared = {k: v for k, v in state.describe().items() if k != "cards"}
    return "\n".join(strings([declared, game.name, *more]))


def hidden_labels(state, seat) -> set:
    prog = state.prog
    return {prog.card_label[c] for zi, cards in enumerate(state.zones)
            if not state.can_see(zi, seat) for c in cards}


def known_text(state, seat, shared: str) -> str:
    parts = [shared, *strings(state.view(seat)), *map(str, state.story(seat)),
             *strings([[t, list(v.values())] for t, v in state.shown(seat)])]
    if state.to_move == seat:
        parts.append(state.question() or "")
    return "\n".join(parts)


def forbidden(state, seat, shared: str) -> set:
    """The labels `seat` may not read anywhere (None: a spectator, who reads no seat's)."""
    if seat is None:
        return set().union(*(forbidden(state, s, shared) for s in range(state.players)))
    known = known_text(state, seat, shared)
    return {label for label in hidden_labels(state, seat) if label not in known}


def leaks(text: str, labels: set) -> list:
    return sorted(label for label in labels
                  if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text))


def page_leaks(page, labels: set) -> list:
    """The hidden labels a page shows: in its text, or carried by its cards (a label that
    is a number is looked for on the cards only, as the text is full of counts)."""
    cards = "\n".join(page.eval_on_selector_all(
        "[data-label], [title]", "els => els.map(e => (e.dataset.label || '') + ' ' + "
        "(e.getAttribute('title') || ''))"))
    words = {label for label in labels if not label.isdigit()}
    return sorted(set(leaks(page.inner_text("body"), words) + leaks(cards, labels)))


def test_the_check_finds_a_planted_leak():
    """The search would see a hidden card: the display with the deck's labels in it (which
    the server never sends) gives the opponent's hand away."""
    game = rulesdsl.load(str(next(p for p in GAME_FILES if p.stem == "crazy_eights")))
    state = game.new_game(players=2, seed=1)
    shared = public_text(game, state)
    planted = json.dumps(dict(display(game, state), cards=state.describe()["cards"]))
    hand = set(state.zone("hand[P2]"))
    assert hand <= forbidden(state, 0, shared)
    assert set(leaks(planted, forbidden(state, 0, shared))) >= hand
    assert leaks(json.dumps(display(game, state)), forbidden(state, 0, shared)) == []


class Seat:
    """A websocket on a seat's link (None: the spectators' link), keeping every message."""

    def __init__(self, url: str, seat, stack):
        from websockets.sync.client import connect
        self.seat = seat
        self.ws = stack.enter_context(connect(url, open_timeout=TIMEOUT, max_size=None))
        self.messages: list = []

    def next_table(self, moves: int) -> dict:
        while True:
            m = json.loads(self.ws.recv(timeout=TIMEOUT))
            self.messages.append(m)
            if m.get("type") == "table" and m["moves"] >= moves:
                return m


@pytest.mark.parametrize("path,players", cases())
def test_no_message_or_page_shows_a_hidden_card(path, players, shared_server, browser):
    needs("websockets")
    game = rulesdsl.load(str(path))
    seed = 11 + players
    links = shared_server.new_game(path.stem, ["human"] * players, seed=seed)
    ws_url = shared_server.url.replace("http", "ws") + "/ws/"
    tokens = {link["seat"]: link["url"].rsplit("/", 1)[1] for link in links["links"]}
    tokens[None] = links["watch"].rsplit("/", 1)[1]
    stack = ExitStack()
    seats = {s: Seat(ws_url + token, s, stack) for s, token in tokens.items()}
    state = game.new_game(players=players, seed=seed)
    # what every seat is told alike, whatever the cards: the declarations, the name
    # the lobby offers the game under and the seats' links
    shared = public_text(game, state, path.stem, links)
    pick = random.Random(seed)
    try:
        found = {}
        for step in range(MOVES + 1):
            for seat, client in seats.items():
                table = client.next_table(len(state.history))
                assert table["moves"] == len(state.history)
                bad = leaks("\n".join(strings(client.messages)), forbidden(state, seat, shared))
                client.messages.clear()
                if bad:
                    found[(seat, step)] = bad
            if state.is_over or step == MOVES:
                break
            label = pick.choice(state.legal_actions()).label
            seats[state.to_move].ws.send(json.dumps({"play": label}))
            state.apply(label)
        assert found == {}, f"hidden cards sent: {found}"
        # the pages: the first seat's at the fewest players, the spectators' at the most
        # (one page a case keeps the browser's work down; every game gets both)
        pages = ([0] if players == game.min_players else []) + \
            ([None] if players == game.max_players else [])
        for seat in pages:
            page = browser.new_page()
            page.goto(shared_server.url + f"/play/{tokens[seat]}")
            # the title is the game's once the page has drawn the table it was sent
            page.wait_for_function("document.getElementById('title').textContent"
                                   " !== 'connecting\u2026'")
            assert page_leaks(page, forbidden(state, seat, shared)) == [], f"seat {seat}"
            page.close()
    finally:
        stack.close()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory):
    needs("uvicorn")
    from _web import Server
    srv = Server(tmp_path_factory.mktemp("web") / "games.sqlite").start()
    yield srv
    srv.stop()


REPLAYED = ["crazy_eights", "gops", "love_letter", "skull"]   # short games with secrets


@pytest.mark.parametrize("name", REPLAYED)
def test_a_finished_game_replayed_shows_each_seat_only_what_it_saw(name, shared_server):
    """Step by step after the end, each seat and a spectator are sent the table as they
    saw it then: the cards hidden from them at that step stay hidden."""
    needs("websockets")
    path = next(p for p in GAME_FILES if p.stem == name)
    game = rulesdsl.load(str(path))
    players = game.min_players
    state = game.new_game(players=players, seed=5)
    pick = random.Random(5)
    while not state.is_over:
        state.apply(pick.choice(state.legal_actions()).label)
    links = shared_server.new_game(name, ["human"] * players, seed=5)
    ws_url = shared_server.url.replace("http", "ws") + "/ws/"
    tokens = {link["seat"]: link["url"].rsplit("/", 1)[1] for link in links["links"]}
    tokens[None] = links["watch"].rsplit("/", 1)[1]
    shared = public_text(game, state, path.stem, links)
    with ExitStack() as stack:
        seats = {s: Seat(ws_url + token, s, stack) for s, token in tokens.items()}
        walk = game.new_game(players=players, seed=5)
        for k, label in enumerate(state.history):      # the same game, through the seats
            for client in seats.values():
                client.next_table(k)
                client.messages.clear()
            seats[walk.to_move].ws.send(json.dumps({"play": label}))
            walk.apply(label)
        at = game.new_game(players=players, seed=5)
        steps = sorted({0, 1, len(state.history) // 2, len(state.history)})
        for k in range(len(state.history) + 1):
            if k in steps:
                for seat, client in seats.items():
                    client.ws.send(json.dumps({"replay": k}))
                    m = json.loads(client.ws.recv(timeout=TIMEOUT))
                    while m.get("type") != "replay":
                        m = json.loads(client.ws.recv(timeout=TIMEOUT))
                    assert (m["step"], m["steps"], m["actions"]) == (k, len(state.history), [])
                    assert m["log"] == ([str(x) for x in at.story(seat)] if seat is not None
                                        else m["log"])
                    assert leaks("\n".join(strings(m)), forbidden(at, seat, shared)) == [], \
                        f"seat {seat} at step {k}"
            if k < len(state.history):
                at.apply(state.history[k])
