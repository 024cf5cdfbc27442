"""Statements that move cards: move (one card, a whole pile, anything), shuffle, deal, swap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.engine.compile.program import mask_cards
from rulesdsl.engine.ir import nodes
from rulesdsl.engine.ir.passes import folded
from rulesdsl.engine.ir.python import call, index, name, state
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.expressions import Expressions
    from rulesdsl.engine.compile.flow import Flow
    from rulesdsl.engine.compile.seat_words import SeatWords
    from rulesdsl.engine.compile.source import Source


class Moves:
    """Compiles the statements that move cards between zones."""

    def __init__(self, unit: Unit):
        self.unit = unit
        self.m, self.p = unit.m, unit.p

    def connect(self, exprs: Expressions, flow: Flow, seat_words: SeatWords,
                source: Source) -> None:
        self.exprs, self.flow, self.seat_words, self.source = exprs, flow, seat_words, source

    def cards_of(self, e) -> Callable:
        """A closure giving a fresh list of card ids for a card, a list or a zone."""
        t = self.m.types.get(id(e), "any")
        f = self.exprs.expr(e)
        if t == "card":
            def one(st, L):
                c = f(st, L)
                return [] if c is None else [c]
            return one
        known = self.source.source_tree(f) if self.unit.generate else None
        if t == "zone":
            g = lambda st, L: list(st.zones[f(st, L)])  # noqa: E731
            return g if known is None else \
                self.source.known_as(g, call("list", index(state("zones"), known)))
        g = lambda st, L: list(f(st, L))  # noqa: E731
        return g if known is None else self.source.known_as(g, call("list", known))

    def s_Move(self, s: ast.Move):
        if s.words is not None:
            by_seat = self.seat_words.seat_text(s.words, in_move_words=True)
            if by_seat is not None:
                self.move_with_seat_words(s, by_seat)
                return
        one = self.m.types.get(id(s.what)) == "card"
        what = self.flow.value_part(s.what) if one else self.flow.collection_part(s.what)
        shape = ("general", False) if s.openly else self.move_shape(s)
        if s.words is not None and shape[0] not in ("card", "general"):
            shape = ("general", False)  # the words go in the entry State.move_cards makes
        to = self.flow.value_part(s.to)
        fields: dict[str, Any] = {**self.move_words(s, one), "openly": s.openly,
                                  "short_piles": len(self.p.card_label) < 1000}
        self.flow.emit_operation(nodes.MoveCards(s.span, what, one, to, s.bottom, *shape,
                                                 **fields))

    def move_words(self, s: ast.Move, one: bool) -> dict:
        """The words of `move ... as "{p} plays {c}"` for MoveCards: once as everyone may
        read them and once with the moved cards masked ("a card"), for a seat that sees
        neither place; and, where the program is generated and they cannot fail, as
        values whose words the log writes when it is read (source.later_words)."""
        if s.words is None:
            return {}
        hidden = mask_cards(s.words, self.m.types)
        words = self.flow.value_part(s.words, self.exprs.text(s.words))
        masked = self.flow.value_part(hidden, self.exprs.text(hidden))
        count = None if one else call("len", name("_c"))  # the cards moved
        later = self.source.later_words([s.words, hidden], count) if self.unit.generate else None
        if later is None:
            return {"words": words, "masked": masked}
        node = nodes.Opaque("text", s.words, never_none=True)
        self.source.known_parts[id(node)] = (node, None, later)
        return {"words": words, "masked": masked, "later": node}

    def move_shape(self, s: ast.Move) -> tuple:
        """(shape, unordered) of MoveCards for `s`: how its Python may move the cards
        where no card effect runs. Onto the bottom, into a zone with a limit or one not
        known here: State.move_cards ("general")."""
        t = self.m.types.get(id(s.what))
        first = self.zone_like(s.to)
        if s.bottom or first is None or self.p.zone_capacity[first]:
            return ("general", False)
        if t == "card":
            return ("card", bool(self.p.zone_unordered[first]))
        if tuple(self.m.resolved.get(id(s.what), ())) == ("builtin", "cards") and \
                self.known_zone(s.to) is not None:
            return ("all", False)
        if t == "zone" and not self.p.zone_unordered[first]:
            return ("pile", False)
        return ("general", False)

    def known_zone(self, e) -> Optional[int]:
        """The zone `e` names where that is known when the game loads (its lowered node
        is a constant), else None."""
        if not self.exprs.lowering.handles(e) or self.exprs.kept(e):
            return None
        node = folded(self.exprs.lowering.lower(e))
        return node.value if type(node) is nodes.Const and type(node.value) is int else None

    def zone_like(self, e) -> Optional[int]:
        """The zone a move to `e` lands in, or one just like it: itself where known, a
        family's first instance (a family's are alike); None where `e` is neither."""
        known = self.known_zone(e)
        if known is not None:
            return known
        kind, name = self.m.resolved.get(id(e), (None, None))
        if kind != "zone" or type(e) not in (ast.Index, ast.Name):
            return None
        return self.p.zones[name].base

    def move_with_seat_words(self, s: ast.Move, full: nodes.SeatWords) -> None:
        """A move whose words have a hole not every seat may read (seat_words.py): the
        full and the masked words, each also as every seat reads it (MoveBySeat)."""
        assert s.words is not None  # called for a move with words only
        hidden = mask_cards(s.words, self.m.types)
        masked: Optional[nodes.Node] = self.seat_words.seat_text(hidden, in_move_words=True)
        if masked is None:  # every seat reads the masked words whole
            masked = self.flow.value_part(hidden, self.exprs.text(hidden))
        what = self.flow.compiled_part(s.what, self.cards_of(s.what), "list of card")
        self.flow.emit_operation(nodes.MoveBySeat(s.span, what, self.flow.value_part(s.to),
                                                  s.bottom, full, masked))

    def s_Shuffle(self, s: ast.Shuffle):
        self.flow.emit_operation(nodes.Shuffle(s.span, self.flow.value_part(s.zone)))

    def s_Deal(self, s: ast.Deal):
        count = self.flow.value_part(s.count) if s.count is not None else None
        source = self.flow.value_part(s.source)
        start = self.flow.value_part(s.start) if s.start is not None else None
        self.flow.emit_operation(nodes.Deal(s.span, source, self.p.zones[s.family].base, count,
                                            start))

    def s_Swap(self, s: ast.Swap):
        self.flow.emit_operation(nodes.Swap(s.span, self.flow.value_part(s.a),
                                            self.flow.value_part(s.b)))
