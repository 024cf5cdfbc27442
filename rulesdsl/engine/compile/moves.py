"""Statements that move cards: move (one card, a whole pile, anything), shuffle, deal, swap."""

from __future__ import annotations

from typing import Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.engine.compile.program import MASK, mask_cards
from rulesdsl.engine.compile.generate import Statement
from rulesdsl.engine.ir import nodes


class Moves:
    """Compiles the statements that move cards between zones."""

    def cards_of(self, e) -> Callable:
        """A closure giving a fresh list of card ids for a card, a list or a zone."""
        t = self.m.types.get(id(e), "any")
        f = self.expr(e)
        if t == "card":
            def one(st, L):
                c = f(st, L)
                return [] if c is None else [c]
            return one
        text = self.source_text(f)
        if t == "zone":
            g = lambda st, L: list(st.zones[f(st, L)])  # noqa: E731
            return g if text is None else self.known_as(g, f"list(st.zones[{text}])")
        g = lambda st, L: list(f(st, L))  # noqa: E731
        return g if text is None else self.known_as(g, f"list({text})")

    def s_Move(self, s: ast.Move):
        if s.words is not None:
            self.move_with_words(s, self.cards_of(s.what), self.expr(s.to))
            return
        one = self.m.types.get(id(s.what)) == "card"
        what = self.value_part(s.what) if one else self.collection_part(s.what)
        shape = ("general", False) if s.openly else self.move_shape(s)
        self.emit_operation(nodes.MoveCards(s.span, what, one, self.value_part(s.to), s.bottom,
                                            *shape, openly=s.openly))

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
        if not self.lowering.handles(e) or self.kept(e):
            return None
        node = self.lowering.lower(e)
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

    def move_with_words(self, s: ast.Move, what, to):
        """`move ... as "{p} plays {c}"`: the move's log entry carries the words, once as
        everyone may read them and once with the moved cards masked ("a card"), for a seat
        that sees neither place."""
        by_seat = self.seat_text(s.words, in_move_words=True)
        if by_seat is not None:
            self.move_with_seat_words(s, what, to, by_seat)
            return
        full = self.text(s.words)
        masked = self.text(mask_cards(s.words, self.m.types))
        bottom = s.bottom

        def move(st, fr):
            L = fr[2]
            cards = what(st, L)
            n = len(cards)
            words = (full(st, L), masked(st, L).replace(MASK, "a card" if n == 1 else
                                                        f"{n} cards"))
            st.move_cards(cards, to(st, L), bottom, words=words)
        if not self.generate:
            self.emit(move, s.span)
            return
        # the words, written when the log is read where they can be (source.later_words)
        one = self.m.types.get(id(s.what)) == "card"  # then "a card": never more than one
        n = self.temp()
        later = self.later_words([s.words, mask_cards(s.words, self.m.types)],
                                 count=None if one else n)
        many = "'a card'" if one else f"'a card' if {n} == 1 else f'{{{n}}} cards'"
        words = f"({later},)" if later is not None else (
            f"({self.call_source(full)}, {self.call_source(masked)}.replace({MASK!r}, {many}))")
        fast = self.one_card_move(s, to, words, deferred=later)
        if fast is not None:
            self.emit(move, s.span, Statement("do", fast))
            return
        self.emit(move, s.span, Statement("do", (
            f"_c = {self.cards_source(s.what, what)}",
            f"{n} = len(_c)",
            f"st.move_cards(_c, {self.xs_or(s.to, to)}, {bottom!r}, words={words})")))

    def move_with_seat_words(self, s: ast.Move, what, to, full):
        """move_with_words where a hole reads what not every seat may (seat_words.py):
        the full and the masked words, each also as every seat reads it."""
        masked = self.seat_text_always(mask_cards(s.words, self.m.types), in_move_words=True)
        bottom = s.bottom

        def move(st, fr):
            L = fr[2]
            cards = what(st, L)
            n = len(cards)
            told = "a card" if n == 1 else f"{n} cards"
            words, words_by_seat = full(st, L)
            hid, hid_by_seat = masked(st, L)
            st.move_cards(cards, to(st, L), bottom, words=(
                words, hid.replace(MASK, told), words_by_seat,
                tuple(w.replace(MASK, told) for w in hid_by_seat)))
        self.emit(move, s.span, self.plain(move))

    def one_card_move(self, s: ast.Move, to, words, deferred=None):
        """`move CARD to ZONE` into a zone without a limit, as generated lines
        doing what State.move_cards does for one card (it still does it while a card
        effect runs: `keeps N` zones hold their cards then). None where that does not
        apply. Words written when the log is read (`deferred`, source.later_words) cannot
        fail: made only where the entry is, in it."""
        dest = self.xs_or(s.to, to)
        if self.m.types.get(id(s.what)) != "card" or s.bottom:
            return None
        place = []  # the zone of a family (hand[p]) is found after the card and its cost
        first = self.zone_like(s.to)
        if first is None or self.p.zone_capacity[first]:
            return None
        if self.known_zone(s.to) is None:
            place, dest = [f"_d = {dest}"], "_d"
        lines = [f"_c = {self.xs(s.what)}"]
        if words is not None and deferred is None:
            lines.append(f"_w = {words}")  # now: an error in them comes with the move
        extra = "" if words is None else f", words={words}" if deferred else ", words=_w"
        entry = f"(('move', (_c,), _f, {dest}" + ("))" if words is None else
                                                 f", {deferred}))" if deferred else ") + _w)")
        lines += place + ["if _c is None:", "    pass"]
        return tuple(lines + [
            "elif st.effect_depth:",
            f"    st.move_cards([_c], {dest}, False{extra})",
            "else:"] + ["    " + line for line in self.card_moved_lines(dest, first)] + [
            f"    if _f != {dest}:",
            f"        st._events.append{entry}"])

    def card_moved_lines(self, dest: str, first: int) -> list:
        """Card `_c` moved to `dest` (a zone like `first`) as State.move_cards moves one
        card (runtime/cards.py), the zone it left in `_f`; without the log entry."""
        unordered = bool(self.p.zone_unordered[first])
        return [f"_f = _move_card(st.zones, st.loc, _c, {dest}, {unordered})"]

    def s_Shuffle(self, s: ast.Shuffle):
        self.emit_operation(nodes.Shuffle(s.span, self.value_part(s.zone)))

    def s_Deal(self, s: ast.Deal):
        count = self.value_part(s.count) if s.count is not None else None
        source = self.value_part(s.source)
        start = self.value_part(s.start) if s.start is not None else None
        self.emit_operation(nodes.Deal(s.span, source, self.p.zones[s.family].base, count,
                                       start))

    def s_Swap(self, s: ast.Swap):
        self.emit_operation(nodes.Swap(s.span, self.value_part(s.a), self.value_part(s.b)))
