"""A rules file's `look` at the browser table: the hints reach the page as checked values
and are drawn (seat colours, a suit's ink, a board's ground and sides, the cloth); a
hostile value never gets into a style, whether the checker refuses it or a message
carries it past the checker; a title is text, never markup."""

from __future__ import annotations

import rulesdsl
from rulesdsl.web.seatview import display

from _web import ROOT, Server, Table

HEX = ROOT / "examples" / "hex.rules"
HOSTILE_LOOK = {
    "table": "red;}</style><script>window.pwned=1</script>",
    "seats": ["url(javascript:window.pwned=1)", "expression(window.pwned=1)"],
    "colours": {"clubs": "\"red\" onload=\"window.pwned=1"},
    "faces": {"card": "var(--x)"},
    "boards": {"Cell": "red !important"},
    "sides": {"Cell": [["left\"/><script>window.pwned=1</script>"], ["top"]]},
}


def test_the_display_carries_the_checked_look():
    game = rulesdsl.load(str(HEX))
    look = display(game, game.new_game(players=2, seed=1))["look"]
    assert look["sides"] == {"Cell": [["left", "right"], ["top", "bottom"]]}
    assert look["boards"] == {"Cell": "#efe2bf"} and look["table"] == "#2f3e4e"


def test_a_game_without_a_look_has_an_empty_one():
    game = rulesdsl.load(str(ROOT / "examples" / "connect_four.rules"))
    look = display(game, game.new_game(players=2, seed=1))["look"]
    assert look["seats"] == [] and look["table"] is None


def open_table(server, browser, game, seats):
    links = server.new_game(game, seats)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    return page, Table(page, server.url + links["links"][0]["url"])


def test_the_table_draws_the_hints(server, browser):
    page, table = open_table(server, browser, "hex", ["human", "random"])
    try:
        table.wait_turn()
        sides = page.eval_on_selector_all(".board .side", "els => els.map(e => e.style.stroke)")
        assert sorted(sides) == sorted(["rgb(47, 111, 201)"] * 2 + ["rgb(210, 72, 58)"] * 2)
        assert page.eval_on_selector(".board", "e => e.style.getPropertyValue('--ground')") \
            == "#efe2bf"
        felt = page.evaluate("getComputedStyle(document.documentElement)"
                             ".getPropertyValue('--felt').trim()")
        assert felt == "#2f3e4e"
        assert page.text_content(".board-wrap .zone-title") == "the board"
    finally:
        page.close()


def test_seat_colours_and_a_suits_ink(server, browser):
    page, table = open_table(server, browser, "reversi", ["human", "random"])
    try:
        table.wait_turn()
        fills = set(page.eval_on_selector_all(".board .stone", "els => els.map(e => e.getAttribute('fill'))"))
        assert fills == {"#1c1c1c", "#f4f1e8"}
    finally:
        page.close()
    page, table = open_table(server, browser, "hearts", ["human", "random", "random", "random"])
    try:
        table.wait_turn()
        red = page.eval_on_selector_all(
            ".card[data-label$='of hearts'], .card[data-label$='of diamonds']",
            "els => els.map(e => e.style.getPropertyValue('--ink'))")
        black = page.eval_on_selector_all(
            ".card[data-label$='of clubs'], .card[data-label$='of spades']",
            "els => els.map(e => e.style.getPropertyValue('--ink'))")
        assert set(red) == {"#c62828"} and set(black) == {"#1f1f1f"}
    finally:
        page.close()


def test_a_hostile_look_past_the_checker_reaches_no_style(server, browser):
    """The server only ever sends checked values; the page checks them again, so a
    message that carried others (a bug, a proxy) still puts none of them in a style."""
    page, table = open_table(server, browser, "hex", ["human", "random"])
    try:
        table.wait_turn()
        page.evaluate("look => { D.look = look; applyLook(); render(); }", HOSTILE_LOOK)
        styles = page.evaluate("""[...document.querySelectorAll('[style]')]
            .map(e => e.getAttribute('style')).join(' ')
            + ' ' + document.documentElement.getAttribute('style')""")
        html = page.content()
        for value in ["javascript", "expression", "pwned", "</style>", "onload", "var(--x)",
                      "!important"]:
            assert value not in styles
        assert "<script>window.pwned" not in html
        assert page.evaluate("window.pwned === undefined")
        assert page.locator(".board .side").count() == 1      # only the plain word "top"
        assert table.errors == []
    finally:
        page.close()


def test_a_hostile_title_is_text(tmp_path, browser):
    rules = tmp_path / "hostile.rules"
    rules.write_text(HEX.read_text(encoding="utf-8").replace(
        'title Cell "the board"',
        'title Cell "</style><script>window.pwned=1</script><b>bold</b>"'))
    server = Server(tmp_path / "games.sqlite", games=[rules]).start()
    try:
        page, table = open_table(server, browser, "hostile", ["human", "random"])
        try:
            table.wait_turn()
            assert page.text_content(".board-wrap .zone-title") == \
                "</style><script>window.pwned=1</script><b>bold</b>"
            assert page.evaluate("window.pwned === undefined")
            assert page.locator(".board-wrap .zone-title b").count() == 0
        finally:
            page.close()
    finally:
        server.stop()
