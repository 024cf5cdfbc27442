"""The table in a laptop's window (1280x800): boards fit beside the seats, a map lies
across the screen, the question stays in view, and a trick's few cards lie side by side."""

from __future__ import annotations

import re

from _web import Table

WINDOW = {"width": 1280, "height": 800}


def seat_page(server, browser, game: str, seats: list) -> Table:
    links = server.new_game(game, seats, seed=7)
    return Table(browser.new_page(viewport=WINDOW), server.url + links["links"][0]["url"])


def test_a_board_leaves_room_for_the_seats_in_the_window(server, browser):
    table = seat_page(server, browser, "reversi", ["human", "random"])
    table.settle()
    box = table.page.locator("svg.board").bounding_box()
    # the others' row and your own seat keep at least 330 pixels of the window's height
    assert box["height"] <= WINDOW["height"] - 330
    assert box["width"] == box["height"]              # shrunk, not squeezed
    table.page.close()


def test_a_map_lies_across_the_screen_and_the_question_stays_in_view(server, browser):
    table = seat_page(server, browser, "condottiere", ["human", "random", "random"])
    table.settle()
    page = table.page
    page.wait_for_selector("svg.board.graph")
    box = page.locator("svg.board.graph").bounding_box()
    assert box["width"] > box["height"]
    # the table is taller than the window; the question sits at its foot all the same
    assert page.evaluate("document.documentElement.scrollHeight") > WINDOW["height"]
    question = page.locator("#prompt").bounding_box()
    assert 0 < question["y"] and question["y"] + question["height"] <= WINDOW["height"]
    assert table.errors == []
    page.close()


def test_the_cards_of_a_trick_lie_side_by_side(server, browser):
    table = seat_page(server, browser, "hearts", ["human", "random", "random", "random"])
    t = table.settle()
    while not t["zones"].get("trick"):                 # the cards passed, the first lead
        table.click_option()
        t = table.settle(after=t["moves"])
    trick = t["zones"]["trick"]
    assert 1 < len(trick) < 4
    title = table.page.locator(".zone-title", has_text=re.compile(r"^trick$", re.I))
    cards = table.page.locator(".zone", has=title).locator(".card")
    assert [c.get_attribute("data-label") for c in cards.all()] == trick
    table.page.close()


def test_a_laid_out_board_is_drawn_as_its_rows_and_a_click_sows(server, browser):
    table = seat_page(server, browser, "kalah", ["human", "human"])
    table.settle()
    page = table.page
    page.wait_for_selector("svg.board.layout")
    places = page.eval_on_selector_all(
        "svg.board.layout .place", "els => els.map(e => [e.dataset.place, "
        "Math.round(e.querySelector('rect').getBBox().x), "
        "Math.round(e.querySelector('rect').getBBox().y)])")
    at = {name: (x, y) for name, x, y in places}
    assert len(at) == 14                                   # 12 pits and 2 stores, no gaps
    assert at["b6"][1] < at["store_b"][1] < at["a1"][1]    # three rows, the top first
    assert at["b6"][0] == at["a1"][0] and at["store_b"][0] < at["a1"][0] < at["store_a"][0]
    assert page.text_content('[data-place="a3"] .piece-text') == "4"
    page.click('[data-place="a3"]')                        # the pit's only option: sow it
    t = table.settle(after=0)
    assert t["vars"]["seeds[a3]"] == 0 and t["vars"]["seeds[store_a]"] == 1
    assert table.errors == []
    page.close()


def test_a_show_worked_out_for_each_cell_is_drawn_on_its_board(server, browser):
    # examples/backgammon.rules keeps counts per player and point; `show stack` draws them
    # on a laid-out board from P1's side, each point in its holder's colour
    table = seat_page(server, browser, "backgammon", ["human", "human"])
    table.settle()
    page = table.page
    page.wait_for_selector("svg.board.layout")
    assert len(page.query_selector_all("svg.board.layout .place")) == 24
    text = {p: page.text_content(f'[data-place="{p}"] .piece-text')
            for p in ("pt24", "pt13", "pt8", "pt6", "pt1", "pt12", "pt17", "pt19")}
    assert text == {"pt24": "2", "pt13": "5", "pt8": "3", "pt6": "5",
                    "pt1": "2", "pt12": "5", "pt17": "3", "pt19": "5"}, text
    fill = {p: page.get_attribute(f'[data-place="{p}"] circle.stone', "fill")
            for p in ("pt24", "pt6", "pt1", "pt19")}
    assert fill["pt24"] == fill["pt6"] != fill["pt1"] == fill["pt19"], fill
    assert page.query_selector('[data-place="pt20"] circle.stone') is None   # an empty point
    assert table.errors == []
    page.close()
