"""People at the table in a real browser: a whole game against the computer by clicks, two
browsers as the two seats of one game, and a game that goes on after the server restarts."""

from __future__ import annotations

import rulesdsl

from _web import ROOT, Server, Table


def replayed(server, links):
    """The game as the store keeps it, replayed by the engine."""
    saved = server.store.game(links["id"])
    game = rulesdsl.load(str(ROOT / "examples" / f"{saved['game']}.rules"))
    state = game.new_game(players=saved["players"], seed=saved["seed"])
    for label in saved["actions"]:
        state.apply(label)
    return state


def test_a_whole_game_against_the_computer_by_clicks(server, browser):
    links = server.new_game("connect_four", ["human", "random"])
    page = browser.new_page()
    table = Table(page, server.url + links["links"][0]["url"])
    t = table.settle()
    clicks = 0
    while not t["over"]:
        assert page.inner_text("#status") == "your turn"
        table.click_option()
        clicks += 1
        t = table.settle(after=t["moves"])
        assert clicks < 40
    assert clicks >= 4                        # four in a row takes four discs at least
    state = replayed(server, links)
    assert state.is_over and t["moves"] == len(state.history)
    assert t["winners"] == [f"P{w + 1}" for w in state.winners]
    page.wait_for_selector("#over:not([hidden])")
    heading = page.inner_text("#over-title")
    assert heading == ("You win!" if state.winners == [0] else "P2 wins!" if state.winners
                       else "A draw: no winner")
    # every disc on the board is drawn: one stone per occupied cell
    assert page.locator("svg.board .stone").count() == len(state.history)
    assert table.errors == []
    page.close()


def test_two_browsers_are_the_two_seats_of_one_game(server, browser):
    links = server.new_game("connect_four", ["human", "human"])
    urls = {link["seat"]: server.url + link["url"] for link in links["links"]}
    first, second = browser.new_context(), browser.new_context()
    try:
        tables = [Table(first.new_page(), urls[0]), Table(second.new_page(), urls[1])]
        assert tables[0].page.inner_text(".mine .seat-name") == "P1 (you)"
        assert tables[1].page.inner_text(".mine .seat-name") == "P2 (you)"
        for move in range(6):
            mover, other = tables[move % 2], tables[1 - move % 2]
            mover.page.wait_for_selector("#status.you")
            waiting = f"waiting for P{move % 2 + 1}"   # each page is told in its turn
            other.page.wait_for_function(
                f"document.getElementById('status').textContent === '{waiting}'")
            label = mover.click_option()
            # the other browser sees the move and is asked next
            other.page.wait_for_selector("#status.you")
            stones = f"svg.board [data-place='{label}'] .stone"
            assert other.page.locator(stones).count() == 1
            mover.page.wait_for_selector(stones)
        counts = [t.page.locator("svg.board .stone").count() for t in tables]
        assert counts == [6, 6]
        assert all(t.errors == [] for t in tables)
    finally:
        first.close()
        second.close()


def test_a_game_goes_on_after_the_server_restarts(tmp_path, browser):
    server = Server(tmp_path / "games.sqlite").start()
    try:
        links = server.new_game("reversi", ["human", "ismcts:easy"])
        path = links["links"][0]["url"]
        page = browser.new_page()
        table = Table(page, server.url + path)
        t = table.settle()
        for _ in range(2):
            table.click_option()
            t = table.settle(after=t["moves"])
        before = t
        page.close()                                   # the tab is closed...
    finally:
        server.stop()                                  # ...and the server stopped
    server = Server(tmp_path / "games.sqlite").start()  # another process would do the same
    try:
        page = browser.new_page()
        table = Table(page, server.url + path)
        t = table.settle()
        assert t["moves"] == before["moves"] == 4
        assert t["log"] == before["log"] and t["vars"] == before["vars"]
        table.click_option()
        assert table.settle(after=t["moves"])["moves"] == 6
        page.close()
    finally:
        server.stop()


def test_the_lobby_makes_a_game_and_opens_its_table(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/")
    tile = page.locator("[data-game=hex]")
    about = rulesdsl.load("hex").about
    assert about and tile.locator(".about").inner_text() == about[0]   # what it is, at a glance
    tile.click()
    assert page.inner_text("#setup-about").split("\n\n") == list(about)
    page.select_option("[data-seat='1']", "random")
    page.click("#start")                      # one person: straight to the seat's table
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#status.you", timeout=30_000)
    assert page.inner_text("#title") == "Hex"
    assert page.locator("svg.board.hex .place").count() == 49
    page.goto(server.url + "/")               # the lobby remembers the game, to go back
    page.wait_for_selector("#recent-list a")
    assert page.inner_text("#recent-list").startswith("Hex")
    page.close()
