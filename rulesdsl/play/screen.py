"""What the text runner shows: a seat's view laid out from the declarations, a summary of
the rules from the checked model, and output in colour (rich) or plain text.

Nothing here knows any game: the layout comes from `State.describe()` (which zones and
variables belong to which seat, which enum is a board, each card's group) and the view.
A line is a list of (text, style) pieces; `Out` prints it with rich on a colour terminal
and as plain text otherwise.
"""

from __future__ import annotations

import itertools
import re
import shutil
import sys
from typing import IO, Optional

from rulesdsl.engine.words import ShownOnBoard

Line = list  # of (text, style or None)

PALETTE = ["cyan", "magenta", "green", "yellow", "blue", "red", "bright_cyan",
           "bright_magenta", "bright_green", "bright_blue"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str, limit: int = 60) -> str:
    """Typed text made safe to show: control characters as '?', cut to `limit`."""
    text = _CONTROL.sub("?", str(text))
    return text if len(text) <= limit else text[:limit] + "..."


class Out:
    """Where the runner writes: rich with colour on a terminal, else plain lines."""

    def __init__(self, stream: Optional[IO] = None, plain: bool = False):
        self._stream = stream
        try:
            tty = self.stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        self.tty = bool(tty)
        self.colour = self.tty and not plain
        self.console = None
        if self.colour:
            try:
                from rich.console import Console
                self.console = Console(file=self.stream, highlight=False, soft_wrap=True,
                                       emoji=False, markup=False)
            except Exception:  # rich missing or broken: plain text still works
                self.colour = False

    @property
    def stream(self) -> IO:
        return self._stream if self._stream is not None else sys.stdout

    @property
    def height(self) -> int:
        """Rows of the terminal (a transcript has no end)."""
        if not self.tty:
            return 10_000
        return max(10, shutil.get_terminal_size((100, 30)).lines)

    @property
    def width(self) -> int:
        if not self.tty:
            return 10_000           # a transcript is never wrapped
        return max(40, min(shutil.get_terminal_size((100, 30)).columns, 160))

    def line(self, pieces) -> None:
        if isinstance(pieces, str):
            pieces = [(pieces, None)]
        if self.tty:
            # the terminal would break a long line anywhere, mid-word too: break it here
            wrapped = wrap_pieces(pieces, self.width - 1)
            if len(wrapped) > 1:
                for one in wrapped:
                    self.line_as_is(one)
                return
        self.line_as_is(pieces)

    def line_as_is(self, pieces) -> None:
        if self.console is not None:
            from rich.text import Text
            t = Text()
            for text, style in pieces:
                t.append(text, style=style or "")
            self.console.print(t)
        else:
            self.stream.write("".join(text for text, _ in pieces) + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Clear a terminal (also in plain mode: the hand-over screen needs it)."""
        if self.tty:
            self.stream.write("\x1b[2J\x1b[3J\x1b[H")
            self.stream.flush()


def wrap_pieces(pieces: Line, width: int) -> list:
    """A line of (text, style) pieces broken at spaces to fit `width`; the lines after the
    first are indented 4 more than the first. A word longer than a line stays whole."""
    if sum(len(t) for t, _ in pieces) <= width:
        return [pieces]
    first = "".join(t for t, _ in pieces)
    indent = " " * (len(first) - len(first.lstrip(" ")) + 4)
    words: list = []                        # (text, style), spaces kept as their own words
    for text, style in pieces:
        for part in re.split(r"( +)", text):
            if part:
                words.append((part, style))
    lines, cur, n, has_word = [], [], 0, False
    for text, style in words:
        if text.isspace():
            if cur or not lines:            # the first line keeps its own indent
                cur.append((text, style))
                n += len(text)
            continue
        if has_word and n + len(text) > width:
            while cur and cur[-1][0].isspace():
                cur.pop()
            carry: list = []
            if cur and cur[-1][0].endswith(":"):
                # a label goes down with its value: back to the separator before it
                back = len(cur) - 1
                while back > 0 and cur[back - 1][0].strip() not in ("·", "") and \
                        not cur[back - 1][0].endswith((":", ",")) and len(cur) - back < 8:
                    back -= 1
                while back > 0 and cur[back - 1][0].isspace():
                    back -= 1
                if back > 1 and any(t.strip() for t, _ in cur[:back]):
                    carry = [x for x in cur[back:] if x[0].strip() or x[0] == " "]
                    del cur[back:]
                    while carry and carry[0][0].isspace():
                        carry.pop(0)
            while cur and cur[-1][0].isspace():
                cur.pop()
            lines.append(cur)
            cur = [(indent, None)] + carry
            n = sum(len(t) for t, _ in cur)
            has_word = bool(carry)
            if carry:
                cur.append((" ", None))
                n += 1
        cur.append((text, style))
        n += len(text)
        has_word = True
    if cur:
        lines.append(cur)
    return lines


# ---------------------------------------------------------------- values

def count_text(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def value_text(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v) for v in value) if value else "(empty)"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {value_text(v)}" for k, v in value.items())
    return number_text(value)


def number_text(value) -> str:
    """A number as people read it: 2,240,000 (from 10,000 on; 1999 stays as it is). A
    text of digits alone reads as its number."""
    if isinstance(value, str) and value.lstrip("-").isdigit() and len(value) < 30:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) < 10_000:
        return str(value)
    return f"{value:,}"


class Layout:
    """The view of one state, laid out from State.describe(); built once per game."""

    def __init__(self, state):
        self.info = state.describe()
        self.players = state.players
        self.group_style: dict = {}
        groups = []
        for card in self.info["cards"].values():
            if card["group"] not in groups:
                groups.append(card["group"])
        k = 0
        for g in groups:
            style = _colour_name(g)
            if style is None:
                style = PALETTE[k % len(PALETTE)]
                k += 1
            self.group_style[g] = style

    # -- cards
    def card_style(self, label: str) -> Optional[str]:
        card = self.info["cards"].get(label)
        return self.group_style.get(card["group"]) if card else None

    def sort_cards(self, labels: list) -> list:
        cards = self.info["cards"]
        return sorted(labels, key=lambda l: (cards[l]["order"], l) if l in cards else
                      ([99], l))

    def cards_line(self, labels: list, *, group: bool = False, keep: int = 0) -> Line:
        """Cards as pieces: grouped (sorted by group, copies as 'x2') or in order; with
        `keep`, only the last `keep` (the top of a pile)."""
        pieces: Line = []
        if not labels:
            return [("(empty)", "dim")]
        if group:
            items, counts = [], {}
            for l in self.sort_cards(labels):
                if l not in counts:
                    items.append(l)
                counts[l] = counts.get(l, 0) + 1
        else:
            items, counts = list(labels), {}
            if keep and len(items) > keep:
                pieces.append((f"{len(items) - keep} earlier cards, ", "dim"))
                items = items[-keep:]
        for k, l in enumerate(items):
            if k:
                pieces.append((", ", None))
            pieces.append((l, self.card_style(l)))
            if counts.get(l, 1) > 1:
                pieces.append((f" x{counts[l]}", "bold"))
        return pieces

    def cells_named(self, label: str) -> set:
        """The cells of a drawn board (a grid or a laid-out board) a label names ("c3 to
        d4": c3 and d4)."""
        words = set(re.findall(r"\w+", label or ""))
        return {c for board in self.drawn_boards()
                for c in self.info.get("boards", {}).get(board, ()) if c in words}

    def drawn_boards(self) -> list:
        """The boards drawn as they lie on the table: grids, hexes and laid-out boards."""
        return list(self.info.get("grids", {})) + list(self.info.get("layouts", {}))

    # -- names as the rules file calls them
    def title(self, name: str) -> str:
        return self.info.get("titles", {}).get(name, name)

    def board_heading(self, base: str, board: str) -> str:
        """What a board drawn with a zone's or variable's values is headed: the title the
        rules give it ("men on the board"), else its name and the board's ("man (Point)")."""
        titles = self.info.get("titles", {})
        return titles[base] if base in titles else f"{base} ({self.title(board)})"

    def zone_title(self, name: str) -> str:
        """hand[P1] -> its title ("hand"), with the keys other than its owner: a zone per
        enum value keeps the value ("row (hearts)")."""
        zinfo = self.info["zones"].get(name)
        if not zinfo or "titles" not in self.info:
            return name
        keys = [k for k in _keys_of(name) if zinfo.get("owner") is None or
                k != f"P{zinfo['owner'] + 1}"]
        base = self.title(zinfo.get("zone", name))
        return f"{base} ({', '.join(keys)})" if keys else base

    def enum_text(self, value: str) -> str:
        for titles in self.info.get("enum_titles", {}).values():
            if value in titles:
                return f"{value} ({titles[value]})"
        return value

    # -- the view
    def zone_pieces(self, name: str, value, *, mine: bool, compact: bool) -> Line:
        zinfo = self.info["zones"].get(name, {})
        name = self.zone_title(name)
        if isinstance(value, dict) and set(value) == {"count"}:
            n = value["count"]
            return [(f"{name}: ", "bold"), (f"{count_text(n)}, hidden" if n else "(empty)",
                                            "dim")]
        if not isinstance(value, list):
            return [(f"{name}: {value_text(value)}", None)]
        # a hand (private, or any unordered zone) grouped and sorted; a long shared pile
        # shows its top cards
        grouped = bool(zinfo.get("unordered")) or (mine and zinfo.get("visibility") != "public")
        keep = 8 if compact and zinfo.get("owner") is None else 0
        head = [(f"{name}: ", "bold")]
        return head + self.cards_line(value, group=grouped, keep=keep)

    def var_items(self, variables: dict) -> dict:
        """Variables gathered per owner (None: the table): {owner: [pieces, ...]}, with
        instances of one variable folded into one item (a board's owners by owner)."""
        per: dict = {}
        folded: dict = {}
        internal = set(self.info.get("internal", ()))
        for name, value in variables.items():
            vinfo = self.info["vars"].get(name)
            if vinfo is not None and vinfo["var"] in internal:
                continue                          # bookkeeping the rules keep to themselves
            if vinfo is None:
                per.setdefault(None, []).append([(f"{name}={value_text(value)}", None)])
                continue
            base, owner = vinfo["var"], vinfo["owner"]
            keys = _keys_of(name)
            if owner is not None and keys:
                own = f"P{owner + 1}"
                if own in keys:
                    keys.remove(own)
            folded.setdefault((owner, base, vinfo["board"], vinfo["type"]), []).append(
                (keys, value))
        for (owner, base, board, typ), entries in folded.items():
            var = base
            base = self.title(base)
            if len(entries) == 1 and not entries[0][0]:
                shown = value_text(entries[0][1])
                item = [(f"{base.replace('_', ' ')}: ", None), (self.enum_text(shown), "bold")]
            elif board is not None and "borders" in self.info and owner is None:
                item = [(BOARD, None), (base, board, entries)]  # the table's: a map
            elif board is not None:
                item = owners_item(base, board, entries)
            elif typ == "bool":
                on = [", ".join(k) for k, v in entries if v]
                item = [(f"{base}: ", None), (", ".join(on) if on else "none",
                                              "bold" if on else "dim")]
            else:
                item = [(f"{base}: ", None),
                        (", ".join(f"{', '.join(k)} {value_text(v)}" for k, v in entries),
                         None)]
            per.setdefault(owner, []).append(item)
        return per

    def split_grids(self, variables: dict) -> tuple:
        """Variables of the table indexed by a grid board's cells, taken out to be drawn
        as grids: (the other variables, {(variable, board): {cell: value}})."""
        rest, grids = {}, {}
        for name, value in variables.items():
            vinfo = self.info["vars"].get(name) or {}
            place = self.grid_cell(vinfo, name)
            if place is None:
                rest[name] = value
                continue
            board, cell = place
            grids.setdefault((vinfo["var"], board), {})[cell] = value
        return rest, grids

    def split_zone_grids(self, zones: dict) -> tuple:
        """Zones of the table, one per cell of a grid board (`zone square per Cell`), taken
        out to be drawn as grids: each cell shows its top piece, "+N" for N more under it,
        "#N" for N hidden ones, none for an empty cell."""
        rest, grids = {}, {}
        for name, value in zones.items():
            zinfo = self.info["zones"].get(name) or {}
            place = self.grid_cell(zinfo, name)
            if place is None:
                rest[name] = value
                continue
            board, cell = place
            if isinstance(value, dict):
                shown = f"#{value.get('count', 0)}" if value.get("count") else None
            elif value:
                shown = value[-1] + (f"+{len(value) - 1}" if len(value) > 1 else "")
            else:
                shown = None
            grids.setdefault((zinfo["zone"], board), {})[cell] = shown
        return rest, grids

    def grid_cell(self, facts: dict, name: str):
        """(board, cell) when a variable or zone of the table (`facts`: what the game says
        of it) is kept one per cell of a drawn board, else None."""
        board = facts.get("board")
        keys = _keys_of(name)
        if board in self.drawn_boards() and facts.get("owner") is None and len(keys) == 1:
            return board, keys[0]
        return None

    def grid_lines(self, base: str, board: str, values: dict, marked=()) -> list:
        """A grid variable as rows of cells, the top row first, with column letters and
        row numbers; an empty (none) cell is '.'. A seat's piece is its seat's sign in its
        seat's colour (see piece_sign), with a legend under the grid; the cells in
        `marked` (the last move) stand in brackets. A hex board is drawn as a rhombus."""
        width, height = self.info["grids"][board]
        texts = {k: ("." if v is None else value_text(v)) for k, v in values.items()}
        signs = {k: piece_sign(t) for k, t in texts.items()}
        w = max([len(sign) for sign, _ in signs.values()] + [1])
        letters = [chr(97 + x) for x in range(width)]
        margin = len(str(height))
        # a hex board: each row half a cell right of the one below, as its cells touch
        hexagons = board in self.info.get("hex", ())
        if hexagons and w % 2 == 0:
            w += 1  # a cell and its space an even width: half of it is a whole shift
        out = [[(f"  {self.board_heading(base, board)}", "bold blue")]]
        for y in range(height, 0, -1):
            shift = " " * ((w + 1) // 2 * (y - 1)) if hexagons else ""
            line = [(f"  {y:>{margin}}" + shift, "dim")]
            for k, x in enumerate(letters):
                cell = f"{x}{y}"
                sign, style = signs.get(cell, ("?", None))
                before = "[" if cell in marked else \
                    "]" if k and f"{letters[k - 1]}{y}" in marked else " "
                line += [(before, "bold"), (f"{sign:>{w}}", style)]
            last = f"{letters[-1]}{y}" if letters else ""
            line.append(("]" if last in marked else " ", "bold"))
            out.append(line)
        out.append([(" " * (margin + 3) + "".join(f"{x:>{w}} " for x in letters), "dim")])
        return out + legend_lines(signs, texts)

    def layout_lines(self, base: str, board: str, values: dict, marked=(),
                     merged: bool = False) -> list:
        """A laid-out board's variable or zone as its rows show it at the table, the top
        row first: each row a line of cell names over a line of what lies on them ('.'
        for none), each column as wide as its widest; a gap is blank; the cells in
        `marked` (the last move) stand in brackets. `merged`: a line a row, an empty
        cell by its name (dim) and a filled one by what lies on it: half the lines, for
        a screen too small for both."""
        rows = self.info["layouts"][board]
        texts = {k: ("." if v is None else value_text(v)) for k, v in values.items()}
        signs = {k: piece_sign(t) for k, t in texts.items()}
        widths = [max([len(c) for c in column if c] +
                      [len(signs.get(c, ("?",))[0]) for c in column if c] + [1])
                  for column in itertools.zip_longest(*rows)]
        out = [[(f"  {self.board_heading(base, board)}", "bold blue")]]
        for row in rows:
            names, cells = [("  ", None)], [("  ", None)]
            for k, (cell, w) in enumerate(zip(row, widths)):
                after_marked = k > 0 and row[k - 1] in marked and row[k - 1] is not None
                before = "[" if cell is not None and cell in marked else \
                    "]" if after_marked else " "
                sign, style = signs.get(cell, ("?", None)) if cell else ("", None)
                names.append((f" {cell or '':>{w}}", "dim"))
                if merged and cell is not None and values.get(cell) is None:
                    sign, style = cell, "dim"  # an empty cell reads as its name
                cells += [(before, "bold"), (f"{sign:>{w}}", style)]
            last = row[-1] if row else None
            cells.append(("]" if last is not None and last in marked else " ", "bold"))
            out += [cells] if merged else [names, cells]
        return out + legend_lines(signs, texts)

    def view_lines(self, view: dict, seat: Optional[int], compact: bool = True,
                   width: int = 10_000, shown: Optional[list] = None, marked=()) -> list:
        """The seat's view: the table (boards, shared zones, variables), then each seat's
        zones and variables (the viewer's own first), then the scores."""
        return [line for _, lines in self.view_parts(view, seat, compact, width, shown,
                                                     marked=marked) for line in lines]

    def view_parts(self, view: dict, seat: Optional[int], compact: bool = True,
                   width: int = 10_000, shown: Optional[list] = None,
                   maps: str = "full", marked=()) -> list:
        """The seat's view in parts, in the order they are drawn: [("map", lines),
        ("table", lines), ("you", lines), ("others", lines), ("scores", lines)]. `maps`:
        "full" draws a map of nodes a node a line with its neighbours, "owners" on one
        line (who holds what) and a laid-out board a line a row (its empty cells by name). `marked`: the cells of the last move, marked on a grid."""
        zones, grids = self.split_zone_grids(view.get("zones") or {})
        per_zone: dict = {}
        for name, value in zones.items():
            owner = self.info["zones"].get(name, {}).get("owner")
            vis = self.info["zones"].get(name, {}).get("visibility")
            if compact and isinstance(value, list) and not value and \
                    (owner != seat or vis == "public"):
                continue                          # an empty zone on the table: clutter
            per_zone.setdefault(owner, []).append((name, value))
        variables, var_grids = self.split_grids(view.get("vars") or {})
        grids.update(var_grids)
        per_var = self.var_items(variables)

        on_maps: list = []
        for item in shown or ():               # the rules' `show` values
            if isinstance(item, ShownOnBoard):  # worked out for every cell: drawn as the board
                if item.board in self.drawn_boards():
                    grids[(item.title, item.board)] = item.cells
                else:
                    on_maps.append((item.title, item.board,
                                    [([c], v) for c, v in item.cells.items()]))
                continue
            for owner, text in item.values.items():
                per_var.setdefault(owner, []).append([(f"{item.title}: ", None),
                                                      (number_text(text), "bold")])
        maps_found = [v for v in per_var.get(None, []) if v and v[0][0] is BOARD]
        per_var[None] = [v for v in per_var.get(None, []) if not (v and v[0][0] is BOARD)]
        boards = [v for v in per_var.get(None, []) if v and v[0][1] == "bold blue"]
        table = [self.zone_pieces(n, v, mine=False, compact=compact)
                 for n, v in per_zone.get(None, [])] + \
            [v for v in per_var.get(None, []) if not any(v is b for b in boards)]
        map_lines: list = []
        for title, board, entries in [m for _, m in maps_found] + on_maps:
            if maps == "full":
                map_lines += self.board_lines(title, board, entries)
            else:
                map_lines += _joined([owners_item(title, board, entries)], "", width)
        grid_lines: list = []
        for (base, board), values in grids.items():
            if board in self.info.get("layouts", {}):
                grid_lines += self.layout_lines(base, board, values, marked,
                                                merged=maps != "full")
            else:
                grid_lines += self.grid_lines(base, board, values, marked)
        table_lines: list = []
        if table or boards:
            table_lines.append([("table", "bold underline")])
            for b in boards:                      # a board on lines of its own
                table_lines += _joined([b], "  ", width)
            table_lines += _joined(table, "  ", width)
        mine_lines, other_lines = [], []
        order = ([seat] if seat is not None else []) + \
            [s for s in range(self.players) if s != seat]
        label_w = len(f"P{self.players}") + (6 if seat is not None else 0)
        for s in order:
            items = [self.zone_pieces(n, v, mine=(s == seat), compact=compact)
                     for n, v in per_zone.get(s, [])]
            if s == seat:
                # the viewer's own hidden-to-others zones on lines of their own
                mine = [i for i, (n, v) in enumerate(per_zone.get(s, []))
                        if self.info["zones"].get(n, {}).get("visibility") != "public"]
                head = f"P{s + 1} (you)"
                rest = [it for i, it in enumerate(items) if i not in mine] + per_var.get(s, [])
                if rest or not compact:
                    mine_lines += _joined(rest, f"{head:<{label_w}} ", width,
                                          style="bold green")
                elif mine:
                    mine_lines.append([(head, "bold green")])
                for i in mine:
                    mine_lines.append([("  ", None)] + items[i])
            else:
                rest = items + per_var.get(s, [])
                if rest:
                    other_lines += _joined(rest, f"{f'P{s + 1}':<{label_w}} ", width,
                                           style="bold")
        score_lines = []
        scores = view.get("scores")
        if isinstance(scores, dict) and scores:
            score_lines.append([("scores: ", "bold")] + [
                (("  " if k else "") + f"{p} {number_text(v)}", "bold green" if p == f"P{(seat or 0) + 1}"
                 and seat is not None else None) for k, (p, v) in enumerate(scores.items())])
        return [("map", map_lines), ("board", grid_lines), ("table", table_lines),
                ("you", mine_lines),
                ("others", other_lines), ("scores", score_lines)]

    def board_lines(self, title: str, board: str, entries: list) -> list:
        """A region map: one line a region, in the order the rules declare them, with its
        owner (the variable's value) and its neighbours."""
        nodes = self.info["boards"].get(board, [])
        near = self.info.get("borders", {}).get(board, [[] for _ in nodes])
        value_of = {keys[0]: value for keys, value in entries if keys}
        wide = max((len(n) for n in nodes), default=0)
        owners = [value_text(value_of.get(n)) for n in nodes]
        owide = max((len(o) for o in owners), default=1)
        lines = [[(f"{self.title(board)}", "bold underline"),
                  (f" ({title} and neighbours)", "dim")]]
        for n, o, nb in zip(nodes, owners, near):
            lines.append([(f"  {n:<{wide}}  ", None), (f"{o:<{owide}}", "bold" if o != "-"
                                                       else "dim"),
                          (f"  next to {', '.join(nb)}" if nb else "", "dim")])
        return lines


def owners_item(title: str, board: str, entries: list) -> Line:
    """A board's variable on one line, its nodes gathered by value: "holder (Town): P1:
    Ash, Elm; 15 with none"."""
    by_value: dict = {}
    for keys, value in entries:
        by_value.setdefault(value_text(value), []).append(", ".join(keys))
    parts = [f"{v}: {', '.join(ks)}" for v, ks in by_value.items() if v != "-"]
    free = len(by_value.get("-", []))
    if free and parts:
        parts.append(f"{free} with none")
    elif free:
        parts.append("none yet")
    return [(f"{title} ({board}): ", "bold blue"), ("; ".join(parts) or "-", None)]


BOARD = object()   # marks a board item in var_items: (BOARD, None), (title, board, entries)


def _joined(items: list, head: str, width: int, style: Optional[str] = None) -> list:
    """Items (piece lists) after `head`, separated by ' · ', wrapped at `width`."""
    if not items:
        return [[(head.rstrip(), style)]] if head.strip() else []
    lines, cur, n = [], [(head, style)], len(head)
    indent = " " * len(head)
    for k, item in enumerate(items):
        size = sum(len(t) for t, _ in item)
        if k and n + 3 + size > width:
            lines.append(cur)
            cur, n = [(indent, None)], len(indent)
        elif k:
            cur.append((" · ", "dim"))
            n += 3
        cur += item
        n += size
    lines.append(cur)
    return lines


# a seat's sign on a board, told apart without colour: P1 filled, P2 hollow, ...
SEAT_SIGNS = ["●", "○", "▲", "△", "■", "□", "◆", "◇"]
SEAT_STYLES = ["bold red", "bold cyan", "bold yellow", "bold magenta", "bold green",
               "bold blue", "bold bright_red", "bold bright_cyan"]
_SEAT_PIECE = re.compile(r"^P([1-9])(?: (\d+|\w)\w*)?(\+\d+)?$")


def legend_lines(signs: dict, texts: dict) -> list:
    """Under a drawn board, what each seat's sign stands for ("● P1   ○ P2"), when a
    sign is not the text itself; no line when none is."""
    legend = {}
    for k in sorted(texts):
        (sign, style), text = signs[k], texts[k]
        counted = _SEAT_PIECE.match(text)
        if counted and (counted.group(2) or "").isdigit():
            sign, text = sign[0], f"P{counted.group(1)}"   # "●12": the seat, not the count
        if sign != text:
            legend[sign] = (text, style)
    if not legend:
        return []
    return [[("  ", None)] + [piece for k, (sign, (text, style)) in
                              enumerate(sorted(legend.items(), key=lambda i: i[1][0]))
                              for piece in ((("   " if k else ""), None),
                                            (sign, style), (f" {text}", "dim"))]]


def piece_sign(text: str) -> tuple:
    """How a cell shows what lies on it: (sign, style). A seat ("P2") is its seat's sign, a
    seat's piece ("P2 rook") the sign and the piece's initial ("○r"), a seat's number of
    pieces ("P2 12") the sign and the number ("○12"), with "+N" for N more under it;
    anything else as it reads."""
    m = _SEAT_PIECE.match(text)
    if not m or int(m.group(1)) > len(SEAT_SIGNS):
        return text, None if text == "." else "bold"
    seat = int(m.group(1)) - 1
    return SEAT_SIGNS[seat] + (m.group(2) or "") + (m.group(3) or ""), SEAT_STYLES[seat]


def _keys_of(name: str) -> list:
    if name.endswith("]") and "[" in name:
        return [k.strip() for k in name[name.index("[") + 1:-1].split(",") if k.strip()]
    return []


def _colour_name(name: str) -> Optional[str]:
    """`name` itself when it is a colour rich knows (an enum of colours colours itself)."""
    low = str(name).lower()
    if low in ("black", "white"):             # unreadable on one background or the other
        return "bright_black" if low == "black" else "bold"
    try:
        from rich.color import Color
        Color.parse(low)
        return low
    except Exception:
        return None


# ---------------------------------------------------------------- the rules

def rules_summary(game, players: int) -> list:
    """A summary of the rules from the checked model: players, options, enums and boards,
    the cards (how many of each), zones with who sees them, variables, phases."""
    m = game.model
    lines = [f"{game.name}: {m.min_players}" + (f" to {m.max_players}" if m.max_players !=
                                                 m.min_players else "") + " players"]
    if m.options:
        lines.append("options:")
        for name, o in m.options.items():
            doc = f"  ({o.doc})" if getattr(o, "doc", "") else ""
            lines.append(f"  {name} = {game.options.get(name)!r}{doc}")
    for name, e in m.enums.items():
        what = "board" if getattr(e, "is_board", False) else "enum"
        if getattr(e, "grid", ()):
            w, h = e.grid
            lines.append(f"board {name}: a grid of {w} x {h} cells, a1 to {e.values[-1]}")
            continue
        lines.append(f"{what} {name}: " + ", ".join(e.values))
        if getattr(e, "is_board", False) and getattr(e, "borders", None):
            lines.append(f"  {len(e.borders)} borders between neighbouring {name} values")
    try:
        prog = game.program(players)
        per_kind: dict = {}
        for c, label in enumerate(prog.card_label):
            kind = prog.kind_names[prog.card_kind[c]]
            per_kind.setdefault(kind, {}).setdefault(label, 0)
            per_kind[kind][label] += 1
        lines.append(f"cards ({len(prog.card_label)}):")
        for kind, labels in per_kind.items():
            items = [f"{l} x{n}" if n > 1 else l for l, n in labels.items()]
            shown = ", ".join(items[:12]) + (f", ... ({len(items)} kinds)" if len(items) > 12
                                             else "")
            lines.append(f"  {kind}: {shown}")
    except Exception:
        pass
    lines.append("zones:")
    for name, z in m.zones.items():
        dims = "".join(f" per {d}" for d in z.dims)
        vis = {"public": "everyone sees it", "private": "only its owner sees it",
               "hidden": "nobody sees it",
               "others": "everyone but its owner sees it"}.get(z.visibility, z.visibility)
        lines.append(f"  {name}{dims}: {vis}" + (", unordered" if z.unordered else "")
                     + (f", holds at most {z.capacity}" if z.capacity else ""))
    if m.vars:
        lines.append("variables: " + ", ".join(m.vars))
    if m.phases:
        lines.append("phases (the flow): " + ", ".join(m.phases))
    lines.append("the full rules are in " + str(game.path))
    return lines
