"""Boards of named cells laid out as the table shows them (`board Pit { row ... track ... }`):
the cells become a board's nodes, each with the fields `row`, `column` and one per track,
so the engine, the agents and the adapters read them as any enum's fields and a board's
borders, with nothing of their own."""

from __future__ import annotations

import re

from rulesdsl.lang import ast
from rulesdsl.lang.check.model import GRID_MAX, EnumInfo
from rulesdsl.lang.limits import ENV, limit

# the places of a layout, gaps included: as many as the largest grid has cells
MOST_PLACES = GRID_MAX[0] * GRID_MAX[1]
PLACE_FIELDS = ("row", "column")
_NUMBERED = re.compile(r"^(.*?)([0-9]+)$")


class Layouts:
    """The checker's part for laid-out boards (mixed into Checker)."""

    def layout(self, d: ast.Layout, claim) -> None:
        if not claim(d.name, "board", d.span):
            return
        rows = [self.cells_of(slots, d.name) for slots in d.rows]
        if not rows:
            self.err("E614", f"board {d.name} lists no row of cells", d.span,
                     ["write its cells as the table shows them, a row a line: "
                      "row a1, a2, a3"])
            return
        if sum(len(r) for r in rows) > MOST_PLACES:
            self.err("E601", f"board {d.name} has more than {MOST_PLACES} places", d.span)
            return
        cells, seen = [], set()
        for row in rows:
            for i, ref in enumerate(row):
                if ref is not None and ref.name in seen:
                    self.err("E501", f"'{ref.name}' appears twice on board {d.name}", ref.span,
                             ["write `_` for an empty place"])
                    row[i] = None
                elif ref is not None:
                    seen.add(ref.name)
                    cells.append(ref.name)
        info = EnumInfo(d.name, cells, {f: "int" for f in PLACE_FIELDS},
                        [{} for _ in cells], d, True,
                        layout=tuple(tuple(r and r.name for r in row) for row in rows))
        for r, row in enumerate(rows):
            for c, ref in enumerate(row):
                if ref is not None:
                    info.attrs[info.positions[ref.name]].update(
                        row=ast.Int(ref.span, len(rows) - r), column=ast.Int(ref.span, c + 1))
        if self.too_many_tracks(d, len(cells)):
            return
        for t in d.tracks:
            self.track(t, info)
        self.m.enums[d.name] = info

    def too_many_tracks(self, d: ast.Layout, cells: int) -> bool:
        """Each track is a field of every cell: a short file of many tracks on a big board
        would make millions of them, so they count against the instances' limit."""
        most = limit("instances")
        if len(d.tracks) * cells <= most:
            return False
        self.err("E614", f"board {d.name}'s {len(d.tracks):,} tracks give its {cells:,} cells "
                 f"{len(d.tracks) * cells:,} fields; the limit is {most:,}", d.span,
                 ["use fewer tracks", f"raise the limit with {ENV}=instances=N"])
        return True

    def cells_of(self, slots, board: str) -> list:
        """A row's or a track's slots with each range spelt out: Refs, None for a gap."""
        out: list = []
        for s in slots:
            out += self.spelt_out(s, board) if isinstance(s, ast.CellRange) else [s]
        return out

    def spelt_out(self, r: ast.CellRange, board: str) -> list:
        """`p1..p24` (or `b6..b1`): the names of one prefix and each number between."""
        names = range_names(r)
        if names is None:
            self.err("E614", f"{r.first}..{r.last} on board {board} is not a range of cells",
                     r.span, ["a range is one name with two numbers, like p1..p24 or b6..b1; "
                              "or list the cells one by one"])
            return []
        if len(names) > MOST_PLACES:
            self.err("E601", f"{r.first}..{r.last} names more than {MOST_PLACES} cells", r.span)
            return []
        return [ast.Ref(r.span, name) for name in names]

    def track(self, t: ast.Track, info: EnumInfo) -> None:
        """A track: the field of its name on each cell (the next cell on it, or none), and
        a border between each two cells next to each other on it."""
        if t.name in info.fields:
            self.err("E502", f"board {info.name} has a track or field '{t.name}' already",
                     self.name_at(t.span, t.name, r"track\s+"),
                     ["rename this track" + (f"; every cell has the field {t.name}"
                                             if t.name in PLACE_FIELDS else "")])
            return
        cells = self.cells_of(t.cells, info.name)
        if any(c is None for c in cells):
            self.err("E614", f"track {t.name} has a gap `_`", t.span,
                     ["a track lists the cells a piece passes, in order: leave the gaps out"])
            return
        unknown = [c for c in cells if c.name not in info.positions]
        for c in unknown:
            self.err("E200", f"'{c.name}' is not a cell of board {info.name}", c.span,
                     self.suggest(c.name, info.values))
        if unknown:
            return
        names = [c.name for c in cells]
        loop = len(names) > 2 and names[-1] == names[0]
        visited = names[:-1] if loop else names
        twice = next((c for k, c in enumerate(cells[:len(visited)])
                      if c.name in visited[:k]), None)
        if twice is not None:
            self.err("E614", f"track {t.name} passes {twice.name} twice", twice.span,
                     ["a track passes each cell once; to go round, end it with its first "
                      f"cell ({names[0]}); two ways round are two tracks"])
            return
        info.fields[t.name] = info.name
        off_track = ast.NoneLit(t.span)  # one value shared: a board may have thousands of cells
        for a in info.attrs:
            a[t.name] = off_track
        pairs = set(frozenset(b) for b in info.borders)
        for a, b in zip(names, names[1:]):
            i, j = info.positions[a], info.positions[b]
            info.attrs[i][t.name] = ast.Name(t.span, b)
            if frozenset((i, j)) not in pairs:
                pairs.add(frozenset((i, j)))
                info.borders.append((i, j))


def range_names(r: ast.CellRange):
    """The cells `p1..p24` names, either way up; None when its ends are not one name with
    two numbers. Past MOST_PLACES names it stops there (the caller says too many)."""
    first, last = _NUMBERED.match(r.first), _NUMBERED.match(r.last)
    if not first or not last or first.group(1) != last.group(1):
        return None
    a, b = int(first.group(2)), int(last.group(2))
    step = 1 if b >= a else -1
    b = b if abs(b - a) < MOST_PLACES else a + step * MOST_PLACES
    return [f"{first.group(1)}{k}" for k in range(a, b + step, step)]
