"""Pieces at run time: cards whose kind declares changing fields (`var rank: Rank = man`).

A changing field's values live in the state's variables, one per card, after the declared
variables (`Pieces.base[field] + card`), so clone, saves, restore and replays keep them as
they keep any variable; views never list them as variables. A piece is shown by its label
worked out from its state now, and only where it is seen: a zone's view shows it to a seat
that sees the zone; a log line about it names it so to a seat that sees it now and by its
kind's name to the others; showing pieces (`reveal`) and rolling them write the labels of
that moment, for the seats that may read them. A seat that samples what it cannot see
(determinize) forgets the state of every piece it does not see.
"""

from __future__ import annotations

from typing import Callable, Optional

import attrs

from rulesdsl.lang import ast
from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.engine.runtime.errors import none_field
from rulesdsl.engine.runtime.numbers import checked


@attrs.define
class Pieces:
    first: int  # the index in State.vars of the first piece value
    base: dict  # changing field -> index in State.vars of card 0's value
    types: dict  # changing field -> type
    ranges: dict  # changing field declared with a range of numbers -> (low, high)
    start: list  # the values every game starts with, from `first` on
    rolled: list  # per card: the (base, low, high) of its fields a `roll` draws
    parts: list  # per card: its label's parts (text, or (base, type)), or None if fixed
    changes: list  # per card: is it a piece (a kind with changing fields)?
    neutral: list  # per card: what a seat that does not see it reads (its kind's name)

    def label(self, st, c: int, labeller) -> str:
        parts = self.parts[c]
        values = st.vars
        return "".join(p if type(p) is str else labeller(p[1], values[p[0] + c]) for p in parts)


def layout_pieces(layout) -> Optional[Pieces]:
    """After the cards are made: a block of variables per changing field, each card's
    starting value taken from its deck entry (or the field's default)."""
    m, p = layout.m, layout.p
    if not m.piece_fields:
        return None
    ncards = len(p.card_kind)
    first = p.nvars
    base: dict = {}
    start: list = []
    for name in m.piece_fields:
        base[name] = p.nvars + len(start)
        start += p.fields[name]
    p.nvars += len(start)
    kinds = list(m.kinds.values())
    rolled, parts, neutral, changes = [], [], [], []
    label_parts = {}
    for k in kinds:
        label_parts[k.name] = _label_parts(layout, k, base)
    for c in range(ncards):
        k = kinds[p.card_kind[c]] if p.card_kind[c] < len(kinds) else None
        own = k.changing if k is not None else set()
        rolled.append([(base[f], *m.piece_ranges[f]) for f in m.piece_ranges if f in own])
        mine = label_parts.get(k.name) if k is not None and own else None
        parts.append(mine if mine is not None and
                     any(type(x) is tuple and x[0] is not None for x in mine) else None)
        changes.append(bool(own))
        neutral.append(k.name.replace("_", " ") if k is not None else "card")
    for c in range(ncards):  # a label's fixed holes are the card's own values
        own_parts = parts[c]
        if own_parts is not None:
            parts[c] = [x if type(x) is not tuple or x[0] is not None else
                        p.labeller(x[1], p.fields[x[2]][c]) for x in own_parts]
    return Pieces(first, base, dict(m.piece_fields), dict(m.piece_ranges), start, rolled,
                  parts, changes, neutral)


def _label_parts(layout, k, base) -> list:
    """A kind's label as parts: text, (base, type) for a changing field, (None, type, field)
    for a fixed one. Without a label: the kind's name and its fields' values."""
    text = layout.kind_label(k)
    if text is not None:
        out: list = []
        for part in text.parts:
            if isinstance(part, str):
                out.append(part)
            elif isinstance(part, ast.Name) and part.name in k.fields:
                t = k.fields[part.name][0]
                out.append((base[part.name], t) if part.name in k.changing else
                           (None, t, part.name))
            else:
                out.append(str(layout.exprs.expr(part)(None, [None])))
        return out
    out = [k.name.replace("_", " ")]  # (and the fields' parts after it)
    for f, (t, _) in k.fields.items():
        out += [" ", (base[f], t) if f in k.changing else (None, t, f)]
    return out


def card_text(st, c: int, seat: Optional[int] = None) -> str:
    """A card's label as `seat` reads it now (None: everything): a piece by its state where
    the seat sees it, else by its kind's name."""
    prog = st.prog
    pieces = prog.pieces
    if pieces is None or pieces.parts[c] is None:
        return prog.card_label[c]
    if seat is not None and not st.can_see(st.loc[c], seat):
        return pieces.neutral[c]
    return pieces.label(st, c, prog.labeller)


def field_reader(pieces: Pieces, name: str, obj: Callable, span) -> Callable:
    """`c.rank` of a piece: its value now."""
    base = pieces.base[name]

    def read(st, L):
        c = obj(st, L)
        if c is None:
            none_field(name, span, "piece")
        return st.vars[base + c]
    return read


def field_setter(effects, s: ast.SetField) -> Callable:
    """`set c.rank = king`, `set d.face += 1`: the instruction."""
    pieces = effects.p.pieces
    base = pieces.base[s.name]
    piece, value = effects.exprs.expr(s.piece), effects.exprs.expr(s.value)
    sign = 0 if s.op == "=" else (1 if s.op == "+=" else -1)
    kinds = _kinds_with(effects, s.name)
    kind_of = effects.p.card_kind
    name, span = s.name, s.span

    def set_field(st, fr):
        L = fr[2]
        c = piece(st, L)
        if c is None:
            raise RuntimeRulesError("R012", f"there is no piece to set the {name} of (none)",
                                    span)
        if not kinds[kind_of[c]]:
            raise RuntimeRulesError("R012", f"{st.prog.card_label[c]} has no changing field "
                                    f"{name}", span, ["test the kind first: if c is ..."])
        v = value(st, L)
        if sign:
            v = checked(st.vars[base + c] + sign * v, span)
        st.vars[base + c] = v
    return set_field


def _kinds_with(effects, field: str) -> list:
    """Per kind id: does it have the changing field?"""
    return [field in effects.m.kinds[k].changing for k in effects.kinds]


def roller(effects, s: ast.Roll) -> Callable:
    """`roll cup[p]`: each piece's ranged changing fields take a random value; the log
    tells the faces to the seats that see them (the zone's), and how many to the others."""
    what = effects.moves.cards_of(s.what)
    prog = effects.p
    span = s.span

    def roll(st, fr):
        cards = what(st, fr[2])
        pieces = st.prog.pieces
        by_zone = {}
        for c in cards:
            if not pieces.rolled[c]:
                raise RuntimeRulesError("R012", f"{prog.card_label[c]} cannot be rolled: its "
                                        "kind has no changing field of a range of numbers",
                                        span, ["roll only dice: kind die { var face: 1..6 = 1 }"])
            for base, low, high in pieces.rolled[c]:
                st.vars[base + c] = low + st.next_random(high - low + 1, low)
            by_zone.setdefault(st.loc[c], []).append(c)
        for zi, cs in sorted(by_zone.items()):
            text = ", ".join(card_text(st, c) for c in cs)
            st._events.append(("rolled", zi, text, _readers(st, zi), len(cs)))
    return roll


def _readers(st, zi: int):
    """Who may read what lies in a zone: None (everyone), or a tuple of seats."""
    vis = st.prog.zone_vis[zi]
    if vis == "public":
        return None
    owner = st.prog.zone_owner[zi]
    if vis == "others":
        return tuple(q for q in range(st.prog.nplayers) if q != owner)
    return (owner,) if vis == "private" and owner is not None else ()


def reveal_pieces(st, cards: list, seats) -> list:
    """`reveal` of pieces: one log entry per zone with their labels of this moment (a
    later change must not rewrite what was shown); returns the cards that are not pieces."""
    pieces = st.prog.pieces
    rest: list = []
    by_zone: dict = {}
    for c in cards:
        if not pieces.changes[c]:
            rest.append(c)
        else:
            by_zone.setdefault(st.loc[c], []).append(c)
    for zi, cs in by_zone.items():
        text = ", ".join(card_text(st, c) for c in cs)
        st._events.append(("shown", zi, text, seats))
    return rest


def forget_unseen(d, see: list, rnd) -> None:
    """Determinize: a piece the seat does not see takes its starting state (a ranged
    field, a die's face: a random number in its range)."""
    pieces = d.prog.pieces
    if pieces is None:
        return
    for c in range(len(d.loc)):
        if not pieces.changes[c] or see[d.loc[c]]:
            continue
        drawn = {b: (low, high) for b, low, high in pieces.rolled[c]}
        for b in pieces.base.values():
            r = drawn.get(b)
            d.vars[b + c] = rnd.randint(*r) if r is not None else \
                pieces.start[b - pieces.first + c]


_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
         "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """3 -> "three", 21 -> "twenty-one", 1204 -> "one thousand two hundred four"."""
    if n is None:
        return "none"
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("-" + _ONES[n % 10] if n % 10 else "")
    for size, word in ((10 ** 12, "trillion"), (10 ** 9, "billion"), (10 ** 6, "million"),
                       (1000, "thousand"), (100, "hundred")):
        if n >= size:
            head, rest = divmod(n, size)
            return number_words(head) + " " + word + ("" if not rest else
                                                      " " + number_words(rest))
    return str(n)  # (not reached)
