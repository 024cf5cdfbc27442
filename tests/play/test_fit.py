"""The screen's parts cut in the documented order until they fit (rulesdsl.play.fit)."""

from __future__ import annotations

from rulesdsl.play.fit import Part, first_lines, fit, kept_lines


def lines(n, word):
    return [[(f"{word} {k}", None)] for k in range(n)]


def more(n):
    return [(f"... {n} more", None)]


def screen():
    return [Part("title", [lines(1, "title")]),
            Part("news", kept_lines(lines(6, "news"), [("since your last move:", None)],
                                    more)),
            Part("map", [lines(10, "map"), lines(1, "owners")]),
            Part("others", first_lines(lines(4, "other"), more)),
            Part("question", [lines(2, "question")]),
            Part("options", [lines(8, "option"), lines(3, "option") + [more(5)]])]


def text(rows):
    return ["".join(t for t, _ in row) for row in rows]


def test_nothing_is_cut_when_it_fits():
    assert len(fit(screen(), 100, 80)) == 1 + 7 + 10 + 4 + 2 + 8


def test_the_map_goes_first_then_the_old_news_then_the_others():
    shown = text(fit(screen(), 25, 80))
    assert "owners 0" in shown and "map 0" not in shown
    assert "news 0" in shown          # the map's cut was enough
    shown = text(fit(screen(), 20, 80))       # the news down to its last 2 lines
    assert shown[:5] == ["title 0", "since your last move:", "... 4 more", "news 4", "news 5"]
    assert "other 3" in shown
    shown = text(fit(screen(), 15, 80))       # then the others, the news to its heading
    assert "other 0" not in shown and "news 5" not in shown
    assert "since your last move:" in shown and "option 7" in shown


def test_the_title_question_and_first_options_stay_whatever_the_size():
    shown = text(fit(screen(), 5, 80))
    assert shown[0] == "title 0" and shown[1] == "since your last move:"
    assert "question 1" in shown and "option 0" in shown and "... 5 more" in shown
