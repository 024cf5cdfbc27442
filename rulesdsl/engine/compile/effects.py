"""Statements that change the game: let, set, roll, reveal, log, cancel; playing cards and
responses. Moves of cards are in moves.py, decisions in decisions.py."""

from __future__ import annotations

from typing import Callable

from rulesdsl.lang import ast
from rulesdsl.engine.pieces import field_setter, reveal_pieces, roller
from rulesdsl.engine.compile.program import _holds_respond
from rulesdsl.engine.ir import nodes
from rulesdsl.engine.runtime.errors import no_play, untrue_fact
from rulesdsl.engine.compile.generate import Statement, pad_name
from rulesdsl.engine.runtime.places import quoted


class Effects:
    """Compiles the statements that change the state."""

    def s_Let(self, s: ast.Let):
        self.emit_operation(nodes.SetLocal(s.span, self.m.slots[id(s)],
                                           self.value_part(s.value)))

    def s_Set(self, s: ast.Set):
        kind, payload = self.m.resolved[id(s)]
        sign = 0 if s.op == "=" else 1 if s.op == "+=" else -1
        value = self.value_part(s.value)
        if kind == "local":
            self.emit_operation(nodes.SetLocal(s.span, payload, value, sign))
            return
        at = self.lowering.instance(self.p.vars[payload], s.index, s.span)
        self.emit_operation(nodes.SetVar(s.span, at, value, sign))

    def s_SetField(self, s: ast.SetField):
        setter = field_setter(self, s)
        self.emit(setter, s.span, self.plain(setter))

    def s_Roll(self, s: ast.Roll):
        roll = roller(self, s)
        self.emit(roll, s.span, self.plain(roll))

    def s_Reveal(self, s: ast.Reveal):
        if self.m.types.get(id(s.what)) not in ("card", "zone", "list of card", "any"):
            return self.reveal_value(s)
        what = self.cards_of(s.what)
        if s.to is None:
            if self.p.pieces is not None:  # pieces are shown as they are now (pieces.py)
                def reveal_all(st, fr):
                    cards = what(st, fr[2])
                    rest = reveal_pieces(st, cards, None)
                    if rest or not cards:
                        st.reveal(rest)
                self.emit(reveal_all, s.span, self.plain(reveal_all))
                return
            def reveal(st, fr):
                st.reveal(what(st, fr[2]))
            self.emit(reveal, s.span, self.plain(reveal))
            return
        to = self.expr(s.to)

        def reveal_to(st, fr):
            seats = to(st, fr[2])
            seats = [seats] if isinstance(seats, int) else [q for q in seats if q is not None]
            cards = what(st, fr[2])
            if st.prog.pieces is not None and cards:
                cards = reveal_pieces(st, cards, tuple(sorted(set(seats))))
                if not cards:
                    return
            st.reveal(cards, seats)
        self.emit(reveal_to, s.span, self.plain(reveal_to))

    def s_RevealFact(self, s: ast.RevealFact):
        # every card the condition admits is worked out once, when the fact is told: a
        # computer seat samples the zone holding one of them (or none), inference.py
        zone, cond, slot, lacks, span = self.expr(s.zone), self.expr(s.cond), \
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
        self.emit(reveal_fact, s.span)

    def reveal_value(self, s: ast.Reveal):
        """`reveal v[i] [to P]`: a variable's value shown in the log, named by its instance."""
        kind, name = self.m.resolved[id(s.what)]
        layout = self.p.vars[name]
        args = s.what.args if isinstance(s.what, ast.Index) else []
        idx = self.instance(layout, args, s.span)
        t = layout.type
        names, label = self.p.var_names, self.p.labeller
        to = self.expr(s.to) if s.to is not None else None

        def reveal(st, fr):
            L = fr[2]
            i = idx(st, L)
            seats = None
            if to is not None:
                seats = to(st, L)
                seats = (seats,) if isinstance(seats, int) else \
                    tuple(sorted({q for q in seats if q is not None}))
            st._events.append(("reveal_value", names[i], label(t, st.vars[i], st), seats))
        self.emit(reveal, s.span, self.plain(reveal))

    def s_Log(self, s: ast.Log):
        by_seat = self.seat_text(s.text)
        if by_seat is not None:  # a hole not every seat may read: words for each seat
            def log(st, fr):
                full, words = by_seat(st, fr[2])
                st._events.append(("text", full) if len(set(words)) == 1 and words[0] == full
                                  else ("text", full, words))
            self.emit(log, s.span, self.plain(log))
            return
        text = self.value_part(s.text, self.text(s.text))
        if self.generate:
            self.written_as(text, self.later_words([s.text]))
        self.emit_operation(nodes.Log(s.span, text))

    def s_Cancel(self, s: ast.Cancel):
        def cancel(st, fr):
            st.cancelled = True
            st.return_from(fr)
        self.emit(cancel, s.span)

    def unlogged_move(self, e, to) -> tuple:
        """Lines moving card `_c` to zone `e` without a log entry (`play` logs the play):
        what State.move_cards does for one card, written out where the zone (a family's
        first) has no limit and no card effect runs."""
        dest = self.xs_or(e, to)
        general = f"st.move_cards([_c], {dest}, False, log=False)"
        first = self.zone_like(e)  # (Moves, as card_moved_lines)
        if first is None or self.p.zone_capacity[first]:
            return (general,)
        return (f"_d = {dest}",
                "if st.effect_depth:",
                "    st.move_cards([_c], _d, False, log=False)",
                "else:") + tuple("    " + line for line in self.card_moved_lines("_d", first))

    def s_Play(self, s: ast.Play):
        card, by, to = self.expr(s.card), self.expr(s.by), self.expr(s.to)
        cs, ps, cancelled = self.hidden_slot(), self.hidden_slot(), self.hidden_slot()
        span = s.span

        def begin(st, fr):
            L = fr[2]
            c, p = card(st, L), by(st, L)
            if c is None or p is None:
                no_play(span)
            L[cs], L[ps], L[cancelled] = c, p, False
            st._events.append(("play", p, c))
            st.move_cards([c], to(st, L), False, log=False)
        # the same four steps as generated lines (the closures above and below, inline)
        kind_of = self.p.card_kind
        kinds, where = self.ref(kind_of, "KIND_OF"), self.ref(span, "S")
        self.emit(begin, span, Statement("do", (
            f"_c = {self.xs_or(s.card, card)}",
            f"_p = {self.xs_or(s.by, by)}",
            "if _c is None or _p is None:",
            f"    _no_play({where})",
            f"L[{cs}], L[{ps}], L[{cancelled}] = _c, _p, False",
            "st._events.append(('play', _p, _c))") + self.unlogged_move(s.to, to)))
        defers = self.responds_in_effect()
        for rid in self.response_ids:
            def respond(st, fr, rid=rid):
                L = fr[2]
                if not L[cancelled] and not defers[kind_of[L[cs]]]:
                    st.call(rid, [L[cs], L[ps]], False)
            self.emit(respond, span, Statement("leave", (
                f"if not L[{cancelled}] and not {self.ref(defers, 'DEFERS')}[{kinds}[L[{cs}]]]:",
            ) + self.call_lines(str(rid), f"[L[{cs}], L[{ps}]]", False,
                              pad_name(self.pads, rid, 2))))

            def after(st, fr):
                if st.cancelled:
                    fr[2][cancelled] = True
                    st.cancelled = False
                    st._events.append(("cancelled", fr[2][cs]))
            self.emit(after, span, Statement("do", (
                "if st.cancelled:",
                f"    L[{cancelled}] = True",
                "    st.cancelled = False",
                f"    st._events.append(('cancelled', L[{cs}]))")))
        on_play = self.p.on_play

        def effect(st, fr):
            L = fr[2]
            if L[cancelled]:
                return
            pid = on_play[kind_of[L[cs]]]
            if pid is not None:
                st.call(pid, [L[cs], L[ps]], True)
        self.emit(effect, span, Statement("leave", (
            f"if not L[{cancelled}]:",
            f"    _k = {self.ref(on_play, 'ON_PLAY')}[{kinds}[L[{cs}]]]",
            "    if _k is not None:") + tuple(
                "    " + line for line in self.call_lines("_k", f"[L[{cs}], L[{ps}]]", True,
                                                         pad_name(self.pads, None, 2) + "[_k]"))))

    def call_lines(self, pid: str, args: str, effect: bool, pad: str) -> tuple:
        """Machine.call inline, indented under an `if`: the frame with its locals padded
        to the phase's slots (`pad`, from pad_name: generate_procs fills them in
        once every phase is compiled); too deep, call says so."""
        return ("    _F = st.frames",
                f"    if len(_F) >= {self.p.depth_limit}:",
                f"        st.call({pid}, {args}, {effect})",
                f"    _F.append([{pid}, 0, {args} + {pad}, {int(effect)}])") + (
                    ("    st.effect_depth += 1",) if effect else ())

    def responds_in_effect(self) -> list:
        """Per kind id: does its `on play` hold a `respond`? Then the responses run there,
        not before the effect."""
        found = getattr(self, "_responds_in_effect", None)
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
        if self.response_ids and self.named_cards:
            chosen = tuple(self.named_cards)

            def name_chosen(st, fr):
                L = fr[2]
                for who, slot in chosen:
                    c = L[slot]
                    if c is not None:
                        st._events.append(("named", who(st, L), c, st.loc[c]))
            self.emit(name_chosen, s.span)
        # the effect's frame holds the card and its player in its first two slots
        for rid in self.response_ids:
            def respond(st, fr, rid=rid):
                st.call(rid, [fr[2][0], fr[2][1]], False)
            self.emit(respond, s.span)

            def after(st, fr):
                if st.cancelled:
                    st.cancelled = False
                    st._events.append(("cancelled", fr[2][0]))
                    st.return_from(fr)  # a cancelled card's effect stops here
            self.emit(after, s.span)

    # ------------------------------------------------------------------ expressions
    def text(self, text: ast.Text) -> Callable:
        parts = []
        label = self.p.labeller
        for part in text.parts:
            if isinstance(part, str):
                parts.append((None, part))
            else:
                parts.append((self.m.types.get(id(part), "any"), self.expr(part)))
        if all(t is None for t, _ in parts):
            s = "".join(x for _, x in parts)
            return self.known_as(lambda st, L: s, quoted(s))
        if self.generate:
            f = self.generated_lambda(text, self.text_source(text))
            if f is not None:
                return f

        b, span = self.b, text.span

        def render(st, L):
            s = "".join(x if t is None else label(t, x(st, L), st) for t, x in parts)
            return s if len(s) <= b.short_text else b.check_text(s, span)
        return render
