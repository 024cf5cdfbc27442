"""What a browser receives: the declared display of a game (no state in it) and, for one
seat, the table as that seat may see it.

Everything here is computed from the public API's per-seat accessors (State.view, story,
shown, question) and State.describe(); nothing reads the omniscient state. A spectator
(seat None) sees what every seat sees alike: a zone, variable, score or log line is shown
to it only where all the seats' views agree on it.
"""

from __future__ import annotations

from typing import Optional, Sequence

from rulesdsl.engine.words import beside, story_line, story_lines
from rulesdsl.lang.look import empty_look
from rulesdsl.lang.errors import RulesError

# describe() keys that say how to lay the table out; its "cards" (every label of the
# deck) stays on the server: a seat is told about the cards it sees, one by one
DISPLAY_KEYS = ("zones", "vars", "boards", "grids", "hex", "layouts", "enums", "titles",
                "internal", "borders", "enum_titles")


def display(game, state) -> dict:
    """The game's declared display, the same for every seat: where each zone and variable
    belongs, the boards (grid, hex, laid out in rows or a graph of named places), the names'
    titles and the file's `look` (checked values: colours and sides, no state, so nothing to hide)."""
    info = state.describe()
    out = {key: info.get(key) for key in DISPLAY_KEYS}
    out["name"] = getattr(game, "name", "")
    out["players"] = state.players
    present = getattr(getattr(game, "model", None), "present", None)
    out["look"] = getattr(present, "look", None) or empty_look()
    return out


class GameFacts:
    """What every message of one game needs and nothing in the game changes: the
    declarations, the terminal's layout (to sort a hand as it does) and each card's kind
    and fields. Made once per game: State.describe() is worked out again at each call."""

    def __init__(self, state):
        from rulesdsl.play.screen import Layout
        self.info = state.describe()
        self.layout = Layout(state)
        self.cards = card_facts(state, self.info)


def card_facts(state, info: dict) -> dict:
    """{label: {"kind", "group", "fields": {field: value}}} for every card of the game, the
    enum fields by their value's name. Public knowledge (the rules list the deck), but a
    seat is sent only the entries of cards it sees (see `seat_message`)."""
    prog = state.prog
    groups = info["cards"]
    kinds = getattr(getattr(state.game, "model", None), "kinds", {}) or {}
    facts = {}
    for c, label in enumerate(prog.card_label):
        if label in facts:
            continue
        kind = prog.kind_names[prog.card_kind[c]]
        declared = getattr(kinds.get(kind), "fields", {}) or {}
        fields = {}
        for name, values in prog.fields.items():
            if name not in declared:
                continue
            value, enum = values[c], declared[name][0]
            if enum in prog.enums and isinstance(value, int) and \
                    0 <= value < len(prog.enums[enum]):
                value = prog.enums[enum][value]
            if isinstance(value, (int, str, bool)) or value is None:
                fields[name] = value
        facts[label] = {"kind": kind, "group": groups.get(label, {}).get("group", kind),
                        "fields": fields}
    return facts


def seat_message(state, seat: Optional[int], names: Sequence[str],
                 stories: Optional["Stories"] = None,
                 facts: Optional[GameFacts] = None) -> dict:
    """The table as `seat` sees it (None: a spectator), JSON-ready. `stories` keeps the
    logs of one game between its messages, `facts` what never changes in it."""
    facts = facts or GameFacts(state)
    view = state.view(seat) if seat is not None else public_view(state)
    mine = seat is not None and not state.is_over and state.to_move == seat
    actions = [a.label for a in state.legal_actions()] if mine else []
    zones = view.get("zones") or {}
    message = {
        "type": "table",
        "seat": seat,
        "over": bool(state.is_over),
        "winners": list(view.get("winners") or []),
        "to_move": None if state.is_over else state.to_move,
        "names": list(names),
        "phase": _phase(state),
        "zones": _sorted_hands(facts, zones, seat),
        "vars": view.get("vars") or {},
        "scores": view.get("scores"),
        "shown": _shown(state, seat),
        "on_boards": _shown_on_boards(state),
        "question": _question(state) if mine else None,
        "actions": actions,
        "log": stories.lines(state, seat) if stories is not None else story_of(state, seat),
        "moves": len(state.history),
    }
    message["cards"] = _facts_for(facts, zones, actions)
    return message


def story_of(state, seat: Optional[int]) -> list:
    """The log in the game's words as `seat` reads it; a spectator's: the lines every seat
    reads alike, a move as the seats that see neither of its places read it, the other
    lines left out."""
    if seat is not None:
        return [str(line) for line in state.story(seat)]
    out = []
    for i in range(len(state.events)):
        line = _public_line(state, i)
        if line is not None:
            out.append(line)
    return out


class Stories:
    """Each seat's log of one game kept as it grows, so a message costs the new events
    only. A log line of a game without pieces never changes once written (a card's label
    and a zone's visibility are fixed); a game with pieces names a piece by its state now,
    so its log is told again each time. The game replayed to an earlier point (undo)
    holds the same events up to there: the lines of the events past it are dropped."""

    def __init__(self):
        self.kept: dict = {}          # seat -> (events told, lines)

    def lines(self, state, seat: Optional[int]) -> list:
        if state.prog.pieces is not None:
            return story_of(state, seat)
        told, lines = self.kept.get(seat, (0, []))
        events = state.events
        if told > len(events):
            told, lines = 0, []
        if seat is not None:
            lines += [str(line) for line in story_lines(state, seat, told)]
        else:
            for i in range(told, len(events)):
                line = _public_line(state, i)
                if line is not None:
                    lines.append(line)
        self.kept[seat] = (len(events), lines)
        return list(lines)


def _public_line(state, i: int) -> Optional[str]:
    """Entry i as every seat reads it alike, or None."""
    entry = state.events[i]
    lines = {_line_or_none(state, i, s) for s in range(state.players)}
    if len(lines) == 1:
        return lines.pop()
    if entry and entry[0] == "move":
        # a move between places some seats cannot look into: as those seats read it
        # ("7 cards: from the stock to P2's hand"), where they all read it alike
        outside = {_line_or_none(state, i, s) for s in range(state.players)
                   if not state.can_see(entry[2], s) and not state.can_see(entry[3], s)}
        if len(outside) == 1:
            return outside.pop()
    return None   # seats read it differently: someone saw more than the table


def _line_or_none(state, i: int, seat) -> Optional[str]:
    line = story_line(state, state.events[i], seat, *beside(state.events, i))
    return None if line is None else str(line)


def public_view(state) -> dict:
    """What every seat sees alike: public zones, a count for the others, the variables,
    scores and winners that all the seats' views hold with one value."""
    views = [state.view(s) for s in range(state.players)]
    first = views[0]
    zones = {}
    for name, cards in (first.get("zones") or {}).items():
        same = all(v["zones"].get(name) == cards for v in views[1:])
        zones[name] = cards if same else {"count": _count(cards)}
    variables = {name: value for name, value in (first.get("vars") or {}).items()
                 if all(name in v["vars"] and v["vars"][name] == value for v in views[1:])}
    out = {"zones": zones, "vars": variables, "winners": first.get("winners")}
    scores = first.get("scores")
    if scores is not None and all(v.get("scores") == scores for v in views[1:]):
        out["scores"] = scores
    return out


def _count(cards) -> int:
    return cards["count"] if isinstance(cards, dict) else len(cards)


def _sorted_hands(facts: GameFacts, zones: dict, seat: Optional[int]) -> dict:
    """The seat's own hidden-to-others and unordered zones sorted as the terminal sorts a
    hand (by the group then the fields); others as they lie."""
    info = facts.info["zones"]
    out = {}
    for name, cards in zones.items():
        z = info.get(name, {})
        if isinstance(cards, list) and (z.get("unordered") or (
                seat is not None and z.get("owner") == seat and z.get("visibility") != "public")):
            cards = facts.layout.sort_cards(cards)
        out[name] = cards
    return out


def _facts_for(facts: GameFacts, zones: dict, actions: list) -> dict:
    seen = {label for cards in zones.values() if isinstance(cards, list) for label in cards}
    seen.update(actions)
    return {label: facts.cards[label] for label in seen if label in facts.cards}


def _shown(state, seat: Optional[int]) -> list:
    """The rules' `show` values: [[title, {seat label or "": text}]]; a spectator gets the
    ones every seat reads alike."""
    def as_json(rows):
        return [[title, {("" if owner is None else f"P{owner + 1}"): str(text)
                         for owner, text in values.items()}] for title, values in rows]
    try:
        if seat is not None:
            return as_json(state.shown(seat))
        each = [as_json(state.shown(s)) for s in range(state.players)]
    except RulesError:
        return []
    return [row for row in each[0] if all(row in rows for rows in each[1:])]


def _shown_on_boards(state) -> list:
    """The rules' public `show`s worked out for each cell of a board: [[title, board,
    {cell: text or null}]], the same for every seat."""
    try:
        return [[title, board, {cell: None if text is None else str(text)
                                for cell, text in cells.items()}]
                for title, board, cells in state.shown_on_boards()]
    except RulesError:
        return []


def _question(state) -> Optional[str]:
    try:
        return state.question()
    except RulesError:
        return None


def _phase(state) -> list:
    try:
        return [p.replace("_", " ") for p in state.phase_path()]
    except (RulesError, AttributeError):
        return []
