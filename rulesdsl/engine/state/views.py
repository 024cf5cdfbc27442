"""What a seat may see: views, the log as text, the game's words, and what the runner needs
to lay out a screen."""

from __future__ import annotations

import math
from typing import Optional

from rulesdsl.lang.limits import brief
from rulesdsl.engine.runtime.seats import seat_label
from rulesdsl.lang.errors import RulesError
from rulesdsl.engine.state.data import _flat, _jsonable, _split_name
from rulesdsl.engine.runtime.seats import owner_of
from rulesdsl.engine.pieces import card_text


def with_article(noun: str) -> str:
    """ "a queen", "an ace", "an 8": the article a reader says before the word."""
    spoken_vowel = noun[:1].lower() in "aeiou" or noun.startswith("8") or noun in ("11", "18")
    return ("an " if spoken_vowel else "a ") + noun



# the events render_log writes alike for every seat (a search asks seen_alike of each move
# for each seat): a choice made in the open, a shuffle, the end, a zone's fact
_READ_ALIKE = frozenset(("choice", "shuffle", "end", "fact"))


class Views:
    """Derives each seat's view from the declared visibility."""

    __slots__ = ()

    # ------------------------------------------------------------------ seeing
    def can_see(self, zi: int, seat: Optional[int]) -> bool:
        if seat is None:
            return True
        vis = self.prog.zone_vis[zi]
        if vis == "public":
            return True
        if vis == "private":
            return self.prog.zone_owner[zi] == seat
        if vis == "others":  # held facing out: everyone but its owner
            return self.prog.zone_owner[zi] != seat
        return False

    def chosen_card(self, label: str) -> Optional[int]:
        """The card id the pending option `label` chooses; None for an option that chooses
        no card (a number, a player, a colour, "pass") or for no such option."""
        if self.over:
            return None
        seat, options = self._pending()
        option = next((o for o in options if o[0] == label), None)
        if option is None:
            return None
        fr = self.frames[-1]
        return self.prog.procs[fr[0]].code[fr[1]].chosen_card(option)

    def named_card(self, entry, seat: Optional[int]) -> str:
        """The card of a "named" entry as `seat` reads it: by its label where the seat sees
        the zone it lies in, else as "a card"."""
        return card_text(self, entry[2], seat) if self.can_see(entry[3], seat) else "a card"

    def fact_text(self, entry) -> str:
        """What a "fact" entry tells of its zone: "holds a queen" (or "holds no queen")
        where the cards it admits are those of one value of a card field, else "holds one
        of: red 7, blue 7" (or "holds none of: ..."), each label once, in deck order."""
        admitted, lacks = entry[2], entry[3]
        value = self.shared_field_value(admitted)
        if value is not None:
            return f"holds no {value}" if lacks else f"holds {with_article(value)}"
        labels = list(dict.fromkeys(self.prog.card_label[c] for c in admitted))
        return ("holds none of: " if lacks else "holds one of: ") + \
            (", ".join(labels) or "nothing")

    def shared_field_value(self, cards) -> Optional[str]:
        """The text of the value of one card field that `cards`, and no other card, have
        (the rank asked for), or None where no field says just these cards."""
        if not cards:
            return None
        chosen = set(cards)
        for field, values in self.prog.fields.items():
            value = values[cards[0]]
            if value is None or isinstance(value, bool):
                continue
            if all((v == value) == (c in chosen) for c, v in enumerate(values)):
                kinds = getattr(getattr(self.game, "model", None), "kinds", None) or {}
                typ = next((k.fields[field][0] for k in kinds.values() if field in k.fields),
                           None)
                return None if typ is None else self.prog.label(typ, value)
        return None

    def seen_alike(self, entry, seat: int) -> bool:
        """Does `seat` read `entry` as it is (`render_log(entry, seat)` the same as
        `render_log(entry)`)? A move of cards without pieces that the seat sees leave or
        arrive is read alike without being written out twice (a search asks this of each
        move for each seat), and so is a logged text."""
        if type(entry) is tuple:
            kind = entry[0]
            if kind == "move":
                if self.prog.pieces is None and \
                        (self.can_see(entry[2], seat) or self.can_see(entry[3], seat)):
                    return True
            elif kind == "text":  # as render_log reads it: one text, or each seat's own
                return len(entry) <= 2 or seat is None or entry[2][seat] == entry[1]
            elif kind in _READ_ALIKE:  # render_log writes them with no regard to the seat
                return True
            elif kind == "play" or kind == "cancelled":  # a card's label, unless a piece's
                return self.prog.pieces is None
        return self.render_log(entry, seat) == self.render_log(entry)

    def render_log(self, entry, seat: Optional[int] = None) -> str:
        """One event as text, as `seat` may see it (None: everything)."""
        if isinstance(entry, str):
            return entry
        prog = self.prog
        kind = entry[0]
        if kind == "text":  # (text, full[, what each seat reads]: see compile/seat_words.py)
            return entry[2][seat] if len(entry) > 2 and seat is not None else entry[1]
        if kind == "move":
            cards, src, dst = entry[1], entry[2], entry[3]
            if self.can_see(src, seat) or self.can_see(dst, seat):
                # (a search renders each move per seat: a card without pieces by its label)
                what = ", ".join([prog.card_label[c] if prog.pieces is None else
                                  card_text(self, c, seat) for c in cards])
            else:
                what = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
            return f"{prog.zone_names[src]} -> {prog.zone_names[dst]}: {what}"
        if kind == "play":
            return f"{seat_label(entry[1])} plays {card_text(self, entry[2], seat)}"
        if kind == "cancelled":
            return f"{card_text(self, entry[1], seat)} is cancelled"
        if kind == "rolled":  # (zone, the faces as text, seats that read them or None, count)
            mine = entry[3] is None or seat is None or seat in entry[3]
            return f"{prog.zone_names[entry[1]]} rolled" + (f": {entry[2]}" if mine else
                                                            f" {entry[4]}")
        if kind == "shown":  # pieces revealed: (zone, their labels then, seats or None)
            to = "" if entry[3] is None else \
                " " + (", ".join(seat_label(q) for q in entry[3]) or "nobody")
            mine = entry[3] is None or seat is None or seat in entry[3]
            return f"{prog.zone_names[entry[1]]} shows{to}" + (f": {entry[2]}" if mine else "")
        if kind == "shuffle":
            return f"{prog.zone_names[entry[1]]} is shuffled"
        if kind == "reveal":
            shown = ", ".join(prog.card_label[c] for c in entry[1]) or "nothing"
            where = prog.zone_names[entry[2]] if len(entry) > 2 and entry[2] >= 0 else "revealed"
            if len(entry) > 3:  # shown to some players only
                to = ", ".join(seat_label(q) for q in entry[3]) or "nobody"
                if not (seat is None or seat in entry[3] or
                        (entry[2] >= 0 and self.can_see(entry[2], seat))):
                    n = len(entry[1])
                    shown = f"{n} card{'s' if n != 1 else ''}"
                return f"{where} shows {to}: {shown}"
            return f"{where} shows: {shown}"
        if kind == "choice":
            return f"{seat_label(entry[1])} chooses {entry[2]}"
        if kind == "fact":  # a zone holds a card of a kind, or none: (zone, admitted, lacks)
            return f"{prog.zone_names[entry[1]]} {self.fact_text(entry)}"
        if kind == "named":  # a card an effect chose, told before the answers: (seat, card, zone)
            return f"{seat_label(entry[1])} names {self.named_card(entry, seat)} in " \
                f"{prog.zone_names[entry[3]]}"
        if kind == "chosen":  # a secret choice (ask together): its label for its player only
            who = seat_label(entry[1])
            return f"{who} has chosen" + ("" if seat is not None and seat != entry[1] else
                                          f": {entry[2]}")
        if kind == "reveal_value":  # (name, value as text, seats shown to or None)
            name, text, seats = entry[1], entry[2], entry[3]
            if seats is None:
                return f"{name} shows: {text}"
            to = ", ".join(seat_label(q) for q in seats) or "nobody"
            return f"{name} shows {to}" + (f": {text}" if seat is None or seat in seats else "")
        if kind == "end":
            w = entry[1]
            if not w:
                return "the game ends without a winner"
            return "the game ends; " + ", ".join(seat_label(s) for s in w) + \
                (" wins" if len(w) == 1 else " share the win")
        return str(entry)

    @property
    def log(self) -> list:
        """Omniscient: every event so far, as text. A seat's own log is `view(seat)["log"]`."""
        return [self.render_log(e) for e in self.events]

    def view(self, seat: int) -> dict:
        """What `seat` may see, as JSON-ready data."""
        prog = self.prog
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < prog.nplayers:
            raise RulesError("A002", f"there is no seat {brief(seat)} in a game of "
                             f"{prog.nplayers}", None, ["a seat is a number from 0"])
        zones: dict = {}
        for zi, name in enumerate(prog.zone_names):
            cards = self.zones[zi]
            if self.can_see(zi, seat):
                zones[name] = [card_text(self, c) for c in cards] if prog.pieces else \
                    [prog.card_label[c] for c in cards]
            else:
                zones[name] = {"count": len(cards)}
        variables = {}
        for lay in prog.vars.values():
            for k in range(math.prod(lay.sizes)):
                i = lay.base + k
                name = prog.var_names[i]
                if lay.visibility == "hidden":
                    continue
                if lay.visibility == "private":
                    owner = owner_of(lay, k)
                    if owner != seat:
                        continue
                variables[name] = _jsonable(prog, lay.type, self.vars[i])
        out = {
            "game": prog.title,
            "seat": seat,
            "you": seat_label(seat),
            "players": prog.nplayers,
            "over": self.over,
            "winners": [seat_label(w) for w in self.winners],
            "to_move": None if self.over else seat_label(self.to_move),
            "zones": zones,
            "vars": variables,
            "log": [self.render_log(e, seat) for e in self.events],
        }
        if prog.score is not None:
            if prog.score_visibility == "public":
                out["scores"] = {seat_label(p): s for p, s in enumerate(self.scores)}
            elif prog.score_visibility == "private":
                out["scores"] = {seat_label(seat): self.scores[seat]}
        if not self.over and self.to_move == seat:
            out["actions"] = [a.label for a in self.legal_actions()]
        return out

    # ------------------------------------------------------------------ the game's words
    def question(self) -> Optional[str]:
        """The pending decision's question (`ask p "..."`), its names filled in; else None."""
        from rulesdsl.engine.words import question
        return question(self)

    def story(self, seat: Optional[int] = None) -> list:
        """The log in the game's words, as `seat` may read it (None: everything)."""
        from rulesdsl.engine.words import story
        return story(self, seat)

    def shown(self, seat: Optional[int] = None) -> list:
        """The declared `show` values `seat` may see: [(title, {owner or None: text})]."""
        from rulesdsl.engine.words import shown
        return shown(self, seat)

    def shown_on_boards(self) -> list:
        """The declared `show`s worked out for each cell of a board, public ones only:
        [(title, board, {cell: text or None})], drawn as the board."""
        from rulesdsl.engine.words import shown_on_boards
        return shown_on_boards(self)

    def phase_path(self) -> list:
        """The names of the phases being run, outermost first (e.g. ["game", "tournament",
        "turn"]): where in the flow the pending decision stands. Empty once over."""
        return [self.prog.procs[f[0]].name for f in self.frames]

    def describe(self) -> dict:
        """What the declarations say about each zone, variable and card, for showing a view
        (no game state in it): {"zones": {instance name: {"zone", "owner" (seat or None),
        "visibility", "unordered", "board" (the board it is indexed by, or None)}}, "vars":
        {instance name: {"var", "owner" (seat or None), "board" (the board enum it is
        indexed by, or None), "type"}}, "boards": {board: [nodes]}, "grids": {grid board:
        [width, height]}, "hex": [hex boards], "layouts": {laid-out board: [rows, the top
        first, of cell names or None for a gap]}, "enums": {enum: [values]} (boards too),
        "cards": {label: {"kind", "group", "order"}}}. A card's group is the value of its
        first enum field (e.g. its colour) or else its root kind; "order" sorts a hand."""
        prog = self.prog
        cached = getattr(prog, "_describe", None)
        if cached is not None:
            return cached
        zones = {}
        for zi, name in enumerate(prog.zone_names):
            dims = prog.zones[prog.zone_layout_of[zi]].dims
            zones[name] = {"zone": prog.zone_layout_of[zi], "owner": prog.zone_owner[zi],
                           "visibility": prog.zone_vis[zi],
                           "unordered": prog.zone_unordered[zi],
                           "board": next((d for d in dims if d in prog.adjacency), None)}
        variables = {}
        for lay in prog.vars.values():
            board = next((d for d in lay.dims if d in prog.adjacency), None)
            for k in range(math.prod(lay.sizes)):
                variables[prog.var_names[lay.base + k]] = {
                    "var": lay.name, "owner": owner_of(lay, k), "board": board,
                    "type": lay.type}
        kinds = getattr(getattr(self.game, "model", None), "kinds", {}) or {}
        enum_fields = []
        for f in prog.fields:
            for kinfo in kinds.values():
                t = getattr(kinfo, "fields", {}).get(f)
                if t and t[0] in prog.enums:
                    enum_fields.append((f, t[0]))
                    break
        roots = {}
        for kname in prog.kind_names:
            anc = getattr(kinds.get(kname), "ancestors", None) or [kname]
            roots[kname] = anc[-1]
        root_order = list(dict.fromkeys(roots[k] for k in prog.kind_names))
        cards = {}
        for c, label in enumerate(prog.card_label):
            if label in cards:
                continue
            kname = prog.kind_names[prog.card_kind[c]]
            group, gkey = roots[kname], (1, root_order.index(roots[kname]), 0)
            for f, enum in enum_fields:
                v = prog.fields[f][c]
                if isinstance(v, int) and not isinstance(v, bool) and \
                        0 <= v < len(prog.enums[enum]):
                    group, gkey = prog.enums[enum][v], (0, list(prog.enums).index(enum), v)
                    break
            rest = tuple(v if isinstance(v, int) else 0 for v in
                         (prog.fields[f][c] for f in prog.fields))
            cards[label] = {"kind": kname, "group": group,
                            "order": list(gkey + rest + (prog.card_kind[c],))}
        out = {"zones": zones, "vars": variables,
               "boards": {b: list(prog.enums[b]) for b in prog.adjacency},
               "grids": {b: [g.width, g.height] for b, g in prog.grids.items()},
               "hex": [b for b, g in prog.grids.items() if g.hex],
               "layouts": {b: [list(row) for row in rows] for b, rows in prog.layouts.items()},
               "enums": {e: list(v) for e, v in prog.enums.items()},
               "cards": cards}
        from rulesdsl.engine.words import presentation
        out.update(presentation(self))
        try:
            prog._describe = out
        except AttributeError:
            pass
        return out

    # ------------------------------------------------------------------ names
    def _zone_index(self, name: str, seat=None, key=None) -> int:
        if seat is None and key is None and type(name) is str:
            # tests and scripts ask for the same few zones by name over and over
            zi = self.prog.name_cache.get(name)
            if zi is None:
                zi = self.prog.name_cache[name] = self._find_zone(name, None, None)
            return zi
        return self._find_zone(name, seat, key)

    def _find_zone(self, name: str, seat, key) -> int:
        name, keys = _split_name(name)
        prog = self.prog
        lay = prog.zones.get(name)
        if lay is None:
            from rulesdsl.lang.errors import did_you_mean
            raise RulesError("A003", f"no zone named '{brief(name)}'", None,
                             did_you_mean(name, prog.zones))
        if seat is not None:
            keys = [seat] + ([] if key is None else (list(key) if isinstance(key, (list, tuple))
                                                    else [key]))
        elif key is not None:
            keys = list(key) if isinstance(key, (list, tuple)) else [key]
        return lay.base + _flat(prog, lay, keys, name)

    def _var_index(self, name: str, key=None):
        name, keys = _split_name(name)
        prog = self.prog
        lay = prog.vars.get(name)
        if lay is None:
            from rulesdsl.lang.errors import did_you_mean
            raise RulesError("A003", f"no variable named '{brief(name)}'", None,
                             did_you_mean(name, prog.vars))
        if key is not None:
            keys = list(key) if isinstance(key, (list, tuple)) else [key]
        return lay, lay.base + _flat(prog, lay, keys, name)
