"""The game told in its own words: the pending question, the log as a player reads it and
the values the rules file declares for the screen (`show`).

The raw log (State.render_log) names zone instances and arrows; here a move told with
`move ... as "..."` reads as written (masked for a seat that sees neither place), any other
move names its places by their titles ("from P1's hand to the trick"), and nothing a seat
may not see is named.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from rulesdsl.engine.runtime.seats import seat_label
from rulesdsl.engine.pieces import card_text


def question(state) -> Optional[str]:
    if state.over or not state.frames:
        return None
    state._pending()
    fr = state.frames[-1]
    ins = state.prog.procs[fr[0]].code[fr[1]]
    by_seat = getattr(ins, "question_by_seat", None)
    if by_seat is not None:  # as the player asked may read it
        return by_seat(state, fr[2])[1][state.pending[0]]
    ask = getattr(ins, "question", None)  # an Ask, or an ask together's decision
    if ask is None:
        return None
    return ask(state, fr[2])


def title_of(prog, name: str) -> str:
    present = prog.present
    if present is not None and name in present.titles:
        return present.titles[name]
    return name.replace("_", " ")


def place(prog, zi: int) -> str:
    """A zone instance as a player says it: "P1's hand", "the trick", "the red expedition"."""
    layout = prog.zone_layout_of[zi]
    title = title_of(prog, layout)
    owner = prog.zone_owner[zi]
    name = prog.zone_names[zi]
    keys = name[name.index("[") + 1:-1].split(",") if "[" in name else []
    keys = [k.strip() for k in keys if k.strip() != seat_label(owner)]
    if keys:
        title = f"{title} ({', '.join(keys)})"
    return f"{seat_label(owner)}'s {title}" if owner is not None else f"the {title}"


def _cards(state, cards, seat) -> str:
    return ", ".join(card_text(state, c, seat) for c in cards)


def _count(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def story_line(state, entry, seat: Optional[int], before=None, after=None) -> Optional[str]:
    """One log entry in words for `seat`, or None when it adds nothing (the rest of a
    worded move, or a showing its move told). `before` and `after`: the entries beside it,
    for a move made openly, told as one line that names the cards for every seat."""
    if after is not None and _shown_by_move(entry, after):
        return f"{_cards(state, entry[1], None)}: from {place(state.prog, entry[2])} to " \
            f"{place(state.prog, entry[3])}"
    if before is not None and _shown_by_move(before, entry):
        return None
    prog = state.prog
    if isinstance(entry, str) or not entry:
        return str(entry)
    kind = entry[0]
    if kind == "move":
        cards, src, dst = entry[1], entry[2], entry[3]
        sees = state.can_see(src, seat) or state.can_see(dst, seat)
        if len(entry) >= 6:
            if entry[4] is None:
                return None
            if len(entry) >= 8 and seat is not None:  # holes read by some seats only
                return (entry[6] if sees else entry[7])[seat]
            return entry[4] if sees else entry[5]
        what = _cards(state, cards, seat) if sees else _count(len(cards))
        return f"{what}: from {place(prog, src)} to {place(prog, dst)}"
    if kind == "fact":
        return f"{place(prog, entry[1])[0].upper()}{place(prog, entry[1])[1:]} " \
            f"{state.fact_text(entry)}"
    if kind == "named":
        return f"{seat_label(entry[1])} names {state.named_card(entry, seat)} in " \
            f"{place(prog, entry[3])}"
    if kind == "shuffle":
        return f"{place(prog, entry[1])[0].upper()}{place(prog, entry[1])[1:]} is shuffled"
    if kind == "reveal" and len(entry) > 2 and entry[2] >= 0 or kind in ("rolled", "shown"):
        zi = entry[1] if kind in ("rolled", "shown") else entry[2]
        raw = state.render_log(entry, seat)
        head = prog.zone_names[zi]
        return place(prog, zi) + raw[len(head):] if raw.startswith(head) else raw
    return state.render_log(entry, seat)


def story(state, seat: Optional[int] = None) -> list:
    return story_lines(state, seat)


def story_lines(state, seat: Optional[int], start: int = 0) -> list:
    """The lines of the log entries from `start` on, as `seat` reads them (story_line)."""
    events = state.events
    out = []
    for i in range(start, len(events)):
        line = story_line(state, events[i], seat, *beside(events, i))
        if line is not None:
            out.append(line)
    return out


def beside(events, i: int) -> tuple:
    """The entries before and after entry i (None past either end)."""
    return (events[i - 1] if i > 0 else None, events[i + 1] if i + 1 < len(events) else None)


def _shown_by_move(move, after) -> bool:
    """`after` shows every seat exactly the cards the unworded `move` put where they lie."""
    return (isinstance(move, tuple) and isinstance(after, tuple) and len(move) == 4
            and move[0] == "move" and len(after) == 3 and after[0] == "reveal"
            and after[2] == move[3] and set(after[1]) == set(move[1]))


class ShownValues(NamedTuple):
    """A `show`'s value for the table (owner None) or for each player a seat may see."""
    title: str
    values: dict  # owner seat or None -> the value's text


class ShownOnBoard(NamedTuple):
    """A `show` of a definition of one board cell, worked out for every cell."""
    title: str
    board: str
    cells: dict  # cell name -> the value's text, or None


def shown(state, seat: Optional[int] = None) -> list:
    """[ShownValues] for the declared `show`s `seat` may see (None: every seat's), but
    those worked out for each cell of a board (`shown_on_boards`)."""
    prog = state.prog
    out = []
    for ps in prog.shows:
        show, vis = ps.show, ps.show.visibility
        values: dict = {}
        if show.per_player:
            for p in range(prog.nplayers):
                if vis == "public" or (vis == "private" and p == seat) or seat is None \
                        and vis != "hidden":
                    values[p] = prog.label(ps.type, ps.value(state, p))
        elif show.board is None and vis == "public":
            values[None] = prog.label(ps.type, ps.value(state, None))
        if values:
            out.append(ShownValues(show.title, values))
    return out


def shown_on_boards(state) -> list:
    """[ShownOnBoard] for the public `show`s worked out for each cell of a board: every
    seat sees them alike, drawn as the board."""
    prog = state.prog
    out = []
    for ps in prog.shows:
        board = ps.show.board
        if board is None or ps.show.visibility != "public":
            continue
        cells = {}
        for k, cell in enumerate(prog.enums[board]):
            v = ps.value(state, k)
            cells[cell] = None if v is None else prog.label(ps.type, v)
        out.append(ShownOnBoard(ps.show.title, board, cells))
    return out


def presentation(state) -> dict:
    """What State.describe() adds for the screen: "titles" (declared name -> title),
    "internal" (variables never shown), "borders" ({board: [[neighbour names]]}, in
    declaration order) and "enum_titles" ({enum: {value: title}})."""
    prog = state.prog
    present = prog.present
    model = getattr(state.game, "model", None)
    enum_titles: dict = {}
    for name, e in (getattr(model, "enums", None) or {}).items():
        items = getattr(getattr(e, "decl", None), "items", ()) or ()
        titled = {i.name: i.title for i in items if getattr(i, "title", "")}
        if titled:
            enum_titles[name] = titled
    return {"titles": dict(present.titles) if present else {},
            "internal": sorted(present.internal) if present else [],
            "borders": {b: [[prog.enums[b][k] for k in near] for near in adj]
                        for b, adj in prog.adjacency.items()},
            "enum_titles": enum_titles}


__all__ = ["presentation", "question", "story", "story_lines", "story_line", "beside", "shown",
           "shown_on_boards", "ShownValues", "ShownOnBoard", "place", "title_of"]
