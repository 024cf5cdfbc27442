"""Statements that change the game: set, move, deal, reveal, log; playing cards, responses and decisions."""

from __future__ import annotations

from typing import Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.lang.check import elem_of
from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.engine.together import compile_ask_together
from rulesdsl.engine.pieces import field_setter, reveal_pieces, roller
from rulesdsl.engine.compile.program import Ask, MASK, MAX_INT, _holds_respond, mask_cards, moves_cost
from rulesdsl.engine.compile.generate import Statement


class Effects:
    """Compiles the statements that change the state or ask a player."""

    def s_Let(self, s: ast.Let):
        slot = self.m.slots[id(s)]
        f = self.expr(s.value)

        def let(st, fr):
            fr[2][slot] = f(st, fr[2])
        self.emit(let, s.span, Statement("do", (f"L[{slot}] = {self.xs_or(s.value, f)}",)))

    def s_Set(self, s: ast.Set):
        kind, payload = self.m.resolved[id(s)]
        f = self.expr(s.value)
        op = s.op
        span = s.span
        value = self.xs_or(s.value, f)
        if kind == "local":
            slot = payload
            if op == "=":
                def set_local(st, fr):
                    fr[2][slot] = f(st, fr[2])
                lines = (f"L[{slot}] = {value}",)
            else:
                sign = 1 if op == "+=" else -1

                def set_local(st, fr):
                    L = fr[2]
                    v = L[slot] + sign * f(st, L)
                    if not -MAX_INT <= v <= MAX_INT:
                        raise RuntimeRulesError("R030", f"a number grew past {MAX_INT}", span)
                    L[slot] = v
                lines = (f"_v = L[{slot}] + {sign} * {value}",
                         "if not -MAX_INT <= _v <= MAX_INT:",
                         f"    _too_big({self.ref(span, 'S')})",
                         f"L[{slot}] = _v")
            self.emit(set_local, span, Statement("do", lines))
            return
        layout = self.p.vars[payload]
        indexes = [self.expr(a) for a in s.index]
        idx = self.instance(layout, indexes, span)
        where = self.index_source(layout, s.index, indexes, idx, span)
        if op == "=":
            def set_var(st, fr):
                L = fr[2]
                st.vars[idx(st, L)] = f(st, L)
            lines = (f"_k = {where}", f"st.vars[_k] = {value}")
        else:
            sign = 1 if op == "+=" else -1

            def set_var(st, fr):
                L = fr[2]
                i = idx(st, L)
                v = st.vars[i] + sign * f(st, L)
                if not -MAX_INT <= v <= MAX_INT:
                    raise RuntimeRulesError("R030", f"a number grew past {MAX_INT}", span)
                st.vars[i] = v
            lines = (f"_k = {where}", f"_v = st.vars[_k] + {sign} * {value}",
                     "if not -MAX_INT <= _v <= MAX_INT:",
                     f"    _too_big({self.ref(span, 'S')})",
                     "st.vars[_k] = _v")
        self.emit(set_var, span, Statement("do", lines))

    def s_SetField(self, s: ast.SetField):
        setter = field_setter(self, s)
        self.emit(setter, s.span, self.plain(setter))

    def s_Roll(self, s: ast.Roll):
        roll = roller(self, s)
        self.emit(roll, s.span, self.plain(roll))

    def cards_of(self, e) -> Callable:
        """A closure giving a fresh list of card ids for a card, a list or a zone."""
        t = self.m.types.get(id(e), "any")
        f = self.expr(e)
        if t == "card":
            def one(st, L):
                c = f(st, L)
                return [] if c is None else [c]
            return one
        if t == "zone":
            return lambda st, L: list(st.zones[f(st, L)])
        return lambda st, L: list(f(st, L))

    def s_Move(self, s: ast.Move):
        what = self.cards_of(s.what)
        to = self.expr(s.to)
        bottom = s.bottom
        if s.words is not None:
            self.move_with_words(s, what, to)
            return

        b, span = self.b, s.span

        def move(st, fr):
            L = fr[2]
            cards = what(st, L)
            b.moves -= moves_cost(st, cards)
            if b.moves < 0:
                b.move(0, span)
            st.move_cards(cards, to(st, L), bottom)
        budget = self.ref(b, "BUDGET")
        fast = self.one_card_move(s, to, None, budget)
        if fast is not None:
            self.emit(move, s.span, Statement("do", fast))
            return
        general = (f"_c = {self.cards_source(s.what, what)}",
                   f"{budget}.moves -= moves_cost(st, _c)",
                   f"if {budget}.moves < 0:",
                   f"    {budget}.move(0, {self.ref(span, 'S')})",
                   f"st.move_cards(_c, {self.xs_or(s.to, to)}, {bottom!r})")
        self.emit(move, s.span, Statement("do", self.pile_move(s, to, budget, general)))

    def pile_move(self, s: ast.Move, to, budget: str, general: tuple) -> tuple:
        """`move ZONE to PILE` (the trick to the won pile) as generated lines doing what
        State.move_cards does for a whole pile, with the same cost; `general` otherwise
        (a card effect running, a pile moved onto itself, a zone kept in order or full)."""
        dest = self.xs_or(s.to, to)
        if self.m.types.get(id(s.what)) != "zone" or s.bottom or not dest.isdigit():
            return general
        d = int(dest)
        if self.p.zone_unordered[d] or self.p.zone_capacity[d]:
            return general
        return (f"_k = {self.xs(s.what)}",
                "_z = st.zones[_k]",
                f"if _k != {d} and not st.effect_depth:",
                "    _n = len(_z)",
                f"    {budget}.moves -= _n + _n * _n // 1000",
                f"    if {budget}.moves < 0:",
                f"        {budget}.move(0, {self.ref(s.span, 'S')})",
                "    if _n:",
                f"        st.zones[{d}].extend(_z)",
                "        for _c in _z:",
                f"            st.loc[_c] = {d}",
                f"        st.events.append(('move', tuple(_z), _k, {d}))",
                "        _z.clear()",
                "else:") + tuple("    " + line for line in general)

    def move_with_words(self, s: ast.Move, what, to):
        """`move ... as "{p} plays {c}"`: the move's log entry carries the words, once as
        everyone may read them and once with the moved cards masked ("a card"), for a seat
        that sees neither place."""
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
        words = (f"({self.call_source(full)}, {self.call_source(masked)}.replace("
                 f"{MASK!r}, 'a card'))")
        fast = self.one_card_move(s, to, words, None)
        if fast is not None:
            self.emit(move, s.span, Statement("do", fast))
            return
        n = self.temp()
        self.emit(move, s.span, Statement("do", (
            f"_c = {self.cards_source(s.what, what)}",
            f"{n} = len(_c)",
            f"st.move_cards(_c, {self.xs_or(s.to, to)}, {bottom!r}, words=("
            f"{self.call_source(full)}, {self.call_source(masked)}.replace("
            f"{MASK!r}, 'a card' if {n} == 1 else f'{{{n}}} cards')))")))

    def one_card_move(self, s: ast.Move, to, words, budget):
        """`move CARD to ZONE` onto an ordered pile without a limit, as generated lines
        doing what State.move_cards does for one card (it still does it while a card
        effect runs: `keeps N` zones hold their cards then). None where that does not
        apply."""
        dest = self.xs_or(s.to, to)
        if self.m.types.get(id(s.what)) != "card" or s.bottom or not dest.isdigit():
            return None
        d = int(dest)
        if self.p.zone_unordered[d] or self.p.zone_capacity[d]:
            return None
        lines = [f"_c = {self.xs(s.what)}"]
        if words is not None:
            lines.append(f"_w = {words}")
        extra = ", words=_w" if words is not None else ""
        lines += ["if _c is None:", "    pass"]
        if budget is not None:
            lines += ["else:",
                      f"    {budget}.moves -= 1 + len(st.zones[st.loc[_c]]) // 1000",
                      f"    if {budget}.moves < 0:",
                      f"        {budget}.move(0, {self.ref(s.span, 'S')})",
                      "if _c is None:", "    pass"]
        return tuple(lines + [
            "elif st.effect_depth:",
            f"    st.move_cards([_c], {d}, False{extra})",
            "else:",
            "    _f = st.loc[_c]",
            "    _z = st.zones[_f]",
            "    if _z[-1] == _c:",
            "        _z.pop()",
            "    else:",
            "        _z.remove(_c)",
            f"    st.zones[{d}].append(_c)",
            f"    st.loc[_c] = {d}",
            f"    if _f != {d}:",
            f"        st.events.append(('move', (_c,), _f, {d})" +
            (" + _w)" if words is not None else ")")])

    def s_Shuffle(self, s: ast.Shuffle):
        z = self.expr(s.zone)
        b, span = self.b, s.span

        def shuffle(st, fr):
            zi = z(st, fr[2])
            b.move(len(st.zones[zi]), span)
            st.shuffle(zi)
        self.emit(shuffle, s.span, self.plain(shuffle))

    def s_Deal(self, s: ast.Deal):
        count = self.expr(s.count) if s.count is not None else None
        source = self.expr(s.source)
        family = self.p.zones[s.family].base
        start = self.expr(s.start) if s.start is not None else None
        b, span = self.b, s.span

        def deal(st, fr):
            L = fr[2]
            n = count(st, L) if count is not None else None
            first = start(st, L) if start is not None else 0
            b.move(len(st.zones[source(st, L)]), span)
            st.deal(source(st, L), family, n, first)
        self.emit(deal, s.span, self.plain(deal))

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
            reveal = (lambda st, fr: st.reveal(what(st, fr[2])))
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

    def reveal_value(self, s: ast.Reveal):
        """`reveal v[i] [to P]`: a variable's value shown in the log, named by its instance."""
        kind, name = self.m.resolved[id(s.what)]
        layout = self.p.vars[name]
        args = [self.expr(a) for a in s.what.args] if isinstance(s.what, ast.Index) else []
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
            st.events.append(("reveal_value", names[i], label(t, st.vars[i], st), seats))
        self.emit(reveal, s.span, self.plain(reveal))

    def s_Log(self, s: ast.Log):
        text = self.text(s.text)
        self.emit(lambda st, fr: st.events.append(("text", text(st, fr[2]))), s.span,
                  Statement("do", (f"st.events.append(('text', {self.call_source(text)}))",)))

    def s_Cancel(self, s: ast.Cancel):
        def cancel(st, fr):
            st.cancelled = True
            st.return_from(fr)
        self.emit(cancel, s.span)

    def s_Swap(self, s: ast.Swap):
        a, b = self.expr(s.a), self.expr(s.b)
        swap = (lambda st, fr: st.swap(a(st, fr[2]), b(st, fr[2])))
        self.emit(swap, s.span, self.plain(swap))

    def s_Play(self, s: ast.Play):
        card, by, to = self.expr(s.card), self.expr(s.by), self.expr(s.to)
        cs, ps, cancelled = self.hidden_slot(), self.hidden_slot(), self.hidden_slot()
        span = s.span

        def begin(st, fr):
            L = fr[2]
            c, p = card(st, L), by(st, L)
            if c is None or p is None:
                raise RuntimeRulesError("R012", "play needs a card and a player, got none", span)
            L[cs], L[ps], L[cancelled] = c, p, False
            st.events.append(("play", p, c))
            st.move_cards([c], to(st, L), False, log=False)
        self.emit(begin, span)
        defers = self.responds_in_effect()
        kind_of = self.p.card_kind
        for rid in self.response_ids:
            def respond(st, fr, rid=rid):
                L = fr[2]
                if not L[cancelled] and not defers[kind_of[L[cs]]]:
                    st.call(rid, [L[cs], L[ps]], False)
            self.emit(respond, span)

            def after(st, fr):
                if st.cancelled:
                    fr[2][cancelled] = True
                    st.cancelled = False
                    st.events.append(("cancelled", fr[2][cs]))
            self.emit(after, span)
        on_play = self.p.on_play
        kind_of = self.p.card_kind

        def effect(st, fr):
            L = fr[2]
            if L[cancelled]:
                return
            pid = on_play[kind_of[L[cs]]]
            if pid is not None:
                st.call(pid, [L[cs], L[ps]], True)
        self.emit(effect, span)

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
        # the effect's frame holds the card and its player in its first two slots
        for rid in self.response_ids:
            def respond(st, fr, rid=rid):
                st.call(rid, [fr[2][0], fr[2][1]], False)
            self.emit(respond, s.span)

            def after(st, fr):
                if st.cancelled:
                    st.cancelled = False
                    st.events.append(("cancelled", fr[2][0]))
                    st.return_from(fr)  # a cancelled card's effect stops here
            self.emit(after, s.span)

    def s_Ask(self, s: ast.Ask):
        who = self.expr(s.who)
        self.ask(s, who, s.choices, optional=False,
                 who_source=self.xs_or(s.who, who) if self.generate else None)

    def s_AskEach(self, s: ast.AskEach):
        # for q in source where cond: ask q, optionally; a break inside ends the round
        slot = self.m.slots[id(s)]
        self.each(s, self.expr(s.source),
                  lambda: self.ask(s, lambda st, L: L[slot], s.choices, optional=True,
                                   openly=s.openly, who_source=f"L[{slot}]"))

    def s_AskTogether(self, s: ast.AskTogether):
        compile_ask_together(self, s)

    def tuple_alt(self, ch: ast.TupleChoice, body_pc: int) -> tuple:
        """The decision's entry for `(a, b) in A, B`: one slot, source and type per name."""
        srcs, ets = [], []
        for src in ch.sources:
            f = self.expr(src)
            if self.m.types.get(id(src)) == "zone":
                f = (lambda zf: lambda st, L: st.zones[zf(st, L)])(f)
            srcs.append(f)
            ets.append(elem_of(self.m.types.get(id(src), "any")) or "any")
        where = self.expr(ch.where) if ch.where is not None else None
        text = self.text(ch.label) if ch.label is not None else None
        return ("tuple", text, where, body_pc, self.m.slots[id(ch)], srcs, ets)

    def ask(self, s, who, choices, optional: bool, openly: bool = False,
            who_source: Optional[str] = None):
        """A decision point: compute the options, suspend, resume in the chosen body."""
        alts = []
        from_zone = []
        at = self.jump_placeholder(s.span)
        bodies_end = []
        for ch in choices:
            body_pc = self.here()
            if isinstance(ch, ast.NamedChoice):
                label = self.text(ch.label)
                cond = self.expr(ch.cond) if ch.cond is not None else None
                alts.append(("named", label, cond, body_pc, None, None, None))
            elif isinstance(ch, ast.TupleChoice):
                alts.append(self.tuple_alt(ch, body_pc))
            else:
                slot = self.m.slots[id(ch)]
                et = elem_of(self.m.types.get(id(ch.source), "any")) or "any"
                src = self.expr(ch.source)
                if self.m.types.get(id(ch.source)) == "zone":
                    from_zone.append(len(alts))
                    zf = src
                    src = (lambda zf: lambda st, L: st.zones[zf(st, L)])(zf)
                ctx = self.open_loop(slot, (ch.where, ch.label))
                where = self.expr(ch.where) if ch.where is not None else None
                text = self.text(ch.label) if ch.label is not None else None
                self.close_loop(ctx)
                src = ctx.reset_on(src)
                alts.append(("binder", text, where, body_pc, slot, src, et))
            self.block(ch.body)
            bodies_end.append(self.jump_placeholder(ch.span))
        decline_pc = self.here()  # declining an optional ask continues after the bodies
        for j in bodies_end:
            self.patch_jump(j)
        self.code[at] = Ask(who, alts, optional, decline_pc, self.p.labeller, s.span, openly)
        self.code[at].from_zone = tuple(from_zone)
        self.code[at].who_source = who_source
        if getattr(s, "question", None) is not None:
            self.code[at].question = self.text(s.question)
        if self.generate:
            self.generate_options(self.code[at])

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
            return lambda st, L: s
        if self.generate:
            f = self.generated_lambda(text, self.text_source(text))
            if f is not None:
                return f

        b, span = self.b, text.span

        def render(st, L):
            s = "".join(x if t is None else label(t, x(st, L), st) for t, x in parts)
            return s if len(s) <= b.text_length else b.check_text(s, span)
        return render
