"""A decision's screen fitted to the terminal: what is shown, in what order, and what is cut
first when the rows run short (the policy is written in docs/tools.md, "The screen").

A screen is a list of parts in the order they are drawn. Each part has versions, the
fullest first; a part with one version is never cut (the title bar, the question). The
rows run short: the parts are cut in the order `CUT_ORDER` names them, each down one
version at a time until the screen fits or the part has no shorter version, then the
next. A version that leaves something out says so on a line of its own ("... N more:
type X"), so nothing is gone without a way to see it.
"""

from __future__ import annotations

from typing import Callable, Optional

from rulesdsl.play.screen import Line, wrap_pieces

# first cut first: the map's neighbours, the old news, the other seats, the table, the
# your own zones, the news down to its heading, the options past the first, the board
CUT_ORDER = ("map", "news", "others", "table", "you", "news_all", "options", "board")


class Part:
    """One part of a screen: its versions, fullest first, each a list of lines."""

    def __init__(self, name: str, versions: list):
        self.name = name
        self.versions: list = []
        for v in versions:      # each version shorter than the one before, or it saves nothing
            if v is not None and (not self.versions or len(v) < len(self.versions[-1])):
                self.versions.append(v)
        self.versions = self.versions or [[]]
        self.chosen = 0

    @property
    def lines(self) -> list:
        return self.versions[self.chosen]

    def shorter(self) -> bool:
        """Down to the next shorter version; False when this is the shortest."""
        if self.chosen + 1 >= len(self.versions):
            return False
        self.chosen += 1
        return True


def rows_of(lines: list, width: int) -> list:
    """The lines as the terminal shows them: each broken at spaces to fit `width`."""
    out = []
    for line in lines:
        out += wrap_pieces(line, width)
    return out


def height_of(lines: list, width: int) -> int:
    """Rows the lines take, a word longer than a row counted as the rows it takes."""
    return sum(max(1, -(-sum(len(t) for t, _ in row) // max(1, width)))
               for row in rows_of(lines, width))


def fit(parts: list, rows: int, width: int) -> list:
    """The lines of the parts, each part cut (see CUT_ORDER) until they take at most `rows`
    rows of `width` columns, or nothing is left to cut."""
    def total() -> int:
        return sum(height_of(p.lines, width) for p in parts)
    for name in CUT_ORDER:
        for part in parts:
            if part.name != _base(name):
                continue
            while total() > rows and _may_cut(part, name) and part.shorter():
                pass
    return rows_of([line for p in parts for line in p.lines], width)


def _base(name: str) -> str:
    return "news" if name == "news_all" else name


def _may_cut(part: Part, name: str) -> bool:
    """The news is cut in two rounds: first down to its last lines (NEWS_KEPT of them),
    the rest only when all else is cut."""
    if name == "news":
        return part.chosen + 1 < len(part.versions) - NEWS_KEPT
    return True


NEWS_KEPT = 2   # the last lines of the news kept until everything else is cut


def kept_lines(lines: list, header: Line, more: Callable[[int], Line],
               smallest: int = 0) -> list:
    """Versions of a part whose lines are all alike in worth, the newest last: all of
    them, then the header, a line saying how many are left out, and the last k, for k
    from one fewer down to `smallest`."""
    versions = [[header] + lines]
    for k in range(len(lines) - 1, smallest - 1, -1):
        versions.append([header, more(len(lines) - k)] + (lines[-k:] if k else []))
    return versions


def first_lines(lines: list, more: Callable[[int], Line], smallest: int = 0,
                header: Optional[Line] = None) -> list:
    """Versions of a part whose first lines matter most: all of them, then the first k and
    a line saying how many more, for k from one fewer down to `smallest`."""
    head = [header] if header is not None else []
    versions = [head + lines]
    for k in range(len(lines) - 1, smallest - 1, -1):
        versions.append(head + lines[:k] + [more(len(lines) - k)])
    return versions
