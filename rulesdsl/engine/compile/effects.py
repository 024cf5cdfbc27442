"""Statements that change the game: let, set, roll, reveal, log, cancel; playing cards and
responses. Moves of cards are in moves.py, decisions in decisions.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from rulesdsl.lang import ast
from rulesdsl.engine.pieces import field_setter, reveal_pieces, roller
from rulesdsl.engine.compile.program import _holds_respond
from rulesdsl.engine.ir import nodes
from rulesdsl.engine.runtime.errors import untrue_fact
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.expressions import Expressions
    from rulesdsl.engine.compile.flow import Flow
    from rulesdsl.engine.compile.layout import Layout
    from rulesdsl.engine.compile.moves import Moves
    from rulesdsl.engine.compile.seat_words import SeatWords
    from rulesdsl.engine.compile.source import Source


class Effects:
    """Compiles the statements that change the state."""

    def __init__(self, unit: Unit):
        self.unit = unit
        self.m, self.p, self.b, self.kinds = unit.m, unit.p, unit.b, unit.kinds
        self._responds_in_effect: Optional[list] = None

    def connect(self, exprs: Expressions, flow: Flow, layout: Layout, moves: Moves,
                seat_words: SeatWords, source: Source) -> None:
        self.exprs, self.flow, self.layout = exprs, flow, layout
        self.moves, self.seat_words, self.source = moves, seat_words, source

    def s_Let(self, s: ast.Let):
        self.flow.emit_operation(nodes.SetLocal(s.span, self.m.slots[id(s)],
                                                self.flow.value_part(s.value),
                                                memo=self.repeats_a_fact(s.value)))

    def s_Set(self, s: ast.Set):
        kind, payload = self.m.resolved[id(s)]
        sign = 0 if s.op == "=" else 1 if s.op == "+=" else -1
        value = self.flow.value_part(s.value)
        memo = self.repeats_a_fact(s.value)
        if kind == "local":
            self.flow.emit_operation(nodes.SetLocal(s.span, payload, value, sign, memo))
            return
        at = self.exprs.lowering.instance(self.p.vars[payload], s.index, s.span)
        self.flow.emit_operation(nodes.SetVar(s.span, at, value, sign, memo))

    def repeats_a_fact(self, value) -> bool:
        """Is a statement's value computed with a memo of its own (nodes.SetVar.memo)? Not
        inside a loop whose memo serves it already."""
        return not self.unit.facts_kept and self.unit.scanner.repeats_a_fact(value)

    def s_SetField(self, s: ast.SetField):
        setter = field_setter(self, s)
        self.flow.emit(setter, s.span, self.source.plain(setter))

    def s_Roll(self, s: ast.Roll):
        roll = roller(self, s)
        self.flow.emit(roll, s.span, self.source.plain(roll))

    def s_Reveal(self, s: ast.Reveal):
        if self.m.types.get(id(s.what)) not in ("card", "zone", "list of card", "any"):
            return self.reveal_value(s)
        what = self.moves.cards_of(s.what)
        if s.to is None:
            if self.p.pieces is not None:  # pieces are shown as they are now (pieces.py)
                def reveal_all(st, fr):
                    cards = what(st, fr[2])
                    rest = reveal_pieces(st, cards, None)
                    if rest or not cards:
                        st.reveal(rest)
                self.flow.emit(reveal_all, s.span, self.source.plain(reveal_all))
                return
            def reveal(st, fr):
                st.reveal(what(st, fr[2]))
            self.flow.emit(reveal, s.span, self.source.plain(reveal))
            return
        to = self.exprs.expr(s.to)

        def reveal_to(st, fr):
            seats = to(st, fr[2])
            seats = [seats] if isinstance(seats, int) else [q for q in seats if q is not None]
            cards = what(st, fr[2])
            if st.prog.pieces is not None and cards:
                cards = reveal_pieces(st, cards, tuple(sorted(set(seats))))
                if not cards:
                    return
            st.reveal(cards, seats)
        self.flow.emit(reveal_to, s.span, self.source.plain(reveal_to))

    def s_RevealFact(self, s: ast.RevealFact):
        # every card the condition admits is worked out once, when the fact is told: a
        # computer seat samples the zone holding one of them (or none), inference.py
        zone, cond, slot, lacks, span = self.exprs.expr(s.zone), self.exprs.expr(s.cond), \
            self.m.slots[id(s)], s.lacks, s.span

        def reveal_fact(st, fr):
            L = fr[2]
            z = zone(st, L)
            kept = L[slot]
            admitted = []
            for c in range(len(st.loc)):
                L[slot] = c
                if cond(st, L):
                    admitted.append(c)
            L[slot] = kept
            held = any(st.loc[c] == z for c in admitted)
            if held == lacks:
                untrue_fact(st.prog.zone_names[z], lacks, span)
            st._events.append(("fact", z, tuple(admitted), lacks))
        self.flow.emit(reveal_fact, s.span)

    def reveal_value(self, s: ast.Reveal):
        """`reveal v[i] [to P]`: a variable's value shown in the log, named by its instance."""
        kind, name = self.m.resolved[id(s.what)]
        layout = self.p.vars[name]
        args = s.what.args if isinstance(s.what, ast.Index) else []
        idx = self.layout.instance(layout, args, s.span)
        t = layout.type
        names, label = self.p.var_names, self.p.labeller
        to = self.exprs.expr(s.to) if s.to is not None else None

        def reveal(st, fr):
            L = fr[2]
            i = idx(st, L)
            seats = None
            if to is not None:
                seats = to(st, L)
                seats = (seats,) if isinstance(seats, int) else \
                    tuple(sorted({q for q in seats if q is not None}))
            st._events.append(("reveal_value", names[i], label(t, st.vars[i], st), seats))
        self.flow.emit(reveal, s.span, self.source.plain(reveal))

    def s_Log(self, s: ast.Log):
        assert s.text is not None  # the grammar gives a log its text
        by_seat = self.seat_words.seat_text(s.text)
        if by_seat is not None:  # a hole not every seat may read: words for each seat
            self.flow.emit_operation(nodes.LogBySeat(s.span, by_seat))
            return
        text = self.flow.value_part(s.text, self.exprs.text(s.text))
        if self.unit.generate:
            self.flow.written_as(text, self.source.later_words([s.text]))
        self.flow.emit_operation(nodes.Log(s.span, text))

    def s_Cancel(self, s: ast.Cancel):
        def cancel(st, fr):
            st.cancelled = True
            st.return_from(fr)
        self.flow.emit(cancel, s.span)

    def s_Play(self, s: ast.Play):
        """The play's start, then each response (unless the card is cancelled, or its
        `on play` responds itself), noting a cancel after each, then the card's effect."""
        slots = (self.flow.hidden_slot(), self.flow.hidden_slot(), self.flow.hidden_slot())
        cs, ps, cancelled = slots
        first = self.moves.zone_like(s.to)  # a zone without a limit: one card moved inline
        shape = ("general", False) if first is None or self.p.zone_capacity[first] else \
            ("card", bool(self.p.zone_unordered[first]))
        value = self.flow.value_part
        self.flow.emit_operation(nodes.Play(s.span, value(s.card), value(s.by), value(s.to),
                                            *slots, *shape))
        defers, kind_of = self.responds_in_effect(), self.p.card_kind
        for rid in self.flow.response_ids:
            self.flow.emit_operation(nodes.CallResponse(s.span, rid, cs, ps, self.p.depth_limit,
                                                        cancelled, defers, kind_of))
            self.flow.emit_operation(nodes.Cancelled(s.span, cs, cancelled))
        self.flow.emit_operation(nodes.CallEffect(s.span, cs, ps, cancelled, self.p.on_play,
                                                  kind_of, self.p.depth_limit))

    def responds_in_effect(self) -> list:
        """Per kind id: does its `on play` hold a `respond`? Then the responses run there,
        not before the effect."""
        found = self._responds_in_effect
        if found is None:
            by_name = {k: _holds_respond(self.m.kinds[k].decl.on_play) for k in self.kinds}
            found = self._responds_in_effect = [
                next((by_name[a] for a in self.m.kinds[k].ancestors
                      if self.m.kinds[a].decl.on_play is not None), False)
                for k in self.kinds]
        return found

    def s_Respond(self, s: ast.Respond):
        # the answers come after the table knows what the card does: the cards its options
        # chose are named first, each as its place lets a seat see it
        if self.flow.response_ids and self.flow.named_cards:
            self.flow.emit_operation(nodes.NameChosen(s.span, tuple(self.flow.named_cards)))
        # the effect's frame holds the card and its player in its first two slots
        for rid in self.flow.response_ids:
            self.flow.emit_operation(nodes.CallResponse(s.span, rid, 0, 1, self.p.depth_limit))
            self.flow.emit_operation(nodes.StopIfCancelled(s.span, 0))
