"""`rulesdsl serve FILE --watch`: a designer edits the rules while a game is on the table;
the page offers to replay the actions that still fit, or shows check's errors."""

from __future__ import annotations

import shutil

from _web import ROOT, Server, Table


def test_a_changed_rules_file_is_offered_again_and_its_errors_shown(tmp_path, browser):
    rules = tmp_path / "connect_four.rules"
    shutil.copy(ROOT / "examples" / "connect_four.rules", rules)
    server = Server(tmp_path / "games.sqlite", games=[rules], watch=True).start()
    try:
        links = server.new_game("connect_four", ["human", "random"])
        page = browser.new_page()
        table = Table(page, server.url + links["links"][0]["url"])
        t = table.settle()
        table.click_option()
        t = table.settle(after=t["moves"])
        assert page.inner_text("#question") == "P1, where do you drop a disc?"

        rules.write_text(rules.read_text().replace("where do you drop a disc?",
                                                   "which column?"))
        button = page.get_by_role("button", name="Replay the same actions (2 of 2 still fit)")
        button.wait_for(timeout=20_000)
        button.click()
        page.wait_for_selector("#changed", state="hidden")
        t = table.settle(after=1)
        assert t["moves"] == 2 and page.inner_text("#question") == "P1, which column?"
        assert len(server.store.game(links["id"])["actions"]) == 2

        rules.write_text(rules.read_text().replace("ask p", "ask ask p"))
        page.wait_for_selector("#changed.bad pre", timeout=20_000)
        assert "error[" in page.inner_text("#changed pre")
        assert str(rules) in page.inner_text("#changed pre")
        assert table.errors == []
        page.close()
    finally:
        server.stop()
