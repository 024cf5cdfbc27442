"""Decisions: `ask`, `ask each` and `ask together`, compiled to the Ask instruction (and
its options as generated code)."""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang import ast
from rulesdsl.lang.check import elem_of
from rulesdsl.lang.limits import limit
from rulesdsl.engine.together import compile_ask_together
from rulesdsl.engine.compile.program import Ask


class Decisions:
    """Compiles the statements that ask a player to decide."""

    def s_Ask(self, s: ast.Ask):
        who = self.expr(s.who)
        self.ask(s, who, s.choices, optional=False,
                 who_source=self.xs_or(s.who, who) if self.generate else None)

    def s_AskEach(self, s: ast.AskEach):
        # for q in source where cond: ask q, optionally; a break inside ends the round
        slot = self.m.slots[id(s)]
        self.each(s, self.value_part(s.source),
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

    def card_label_table(self, label: ast.Text, slot: int) -> Optional[list]:
        """The label of each card's option, by card id, where a binder's label reads only
        the card it names (the card, its fields): worked out once, here, as `text` writes
        it, not per decision. None where it reads anything else, a piece's label may
        change, or a label would pass the text limit (that error comes when the decision
        is made, as ever), or the table's labels would pass the card_labels limit."""
        if self.p.pieces is not None:
            return None
        parts = []  # (text, None) or (type, values by card id)
        ids = list(range(len(self.p.card_label)))
        for part in label.parts:
            if isinstance(part, str):
                parts.append((part, None))
                continue
            t = self.m.types.get(id(part), "any")
            kind, payload = self.m.resolved.get(id(part), ("", None))
            if type(part) is ast.Attr and kind == "card_field":
                part, values = part.obj, self.p.fields[payload]
            else:
                values = ids
            if type(part) is not ast.Name or tuple(self.m.resolved.get(id(part), ())) != \
                    ("local", slot):
                return None
            parts.append((t, values))
        name = self.p.labeller
        table, room = [], limit("card_labels")  # a table per decision: as bounded as the cards'
        for c in ids:
            table.append("".join(t if values is None else name(t, values[c])
                                 for t, values in parts))
            room -= len(table[-1])
            if room < 0 or len(table[-1]) > self.b.text_length:
                return None  # built per decision instead, where long texts are counted
        return table

    def ask(self, s, who, choices, optional: bool, openly: bool = False,
            who_source: Optional[str] = None):
        """A decision point: compute the options, suspend, resume in the chosen body."""
        alts = []
        from_zone = []
        tables = {}  # alternative -> (its labels by card id, ids?), where worked out here
        ranges = set()  # alternatives over a range of numbers: no two alike, never none
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
                    src = _cards_of_zone(zf)
                    if self.generate:
                        self.known_as(src, f"st.zones[{self.xs_or(ch.source, zf)}]")
                ctx = self.open_loop(slot, (ch.where, ch.label))
                where = self.expr(ch.where) if ch.where is not None else None
                text = self.text(ch.label) if ch.label is not None else None
                self.close_loop(ctx)
                src = self.fresh_memo_on(ctx, src)
                if self.generate and et in self.m.enums and text is None and tuple(
                        self.m.resolved.get(id(ch.source), ()))[:1] == ("enum_all",):
                    tables[len(alts)] = (list(self.m.enums[et].values), True)  # each once
                if self.generate and et == "card" and text is not None:
                    table = self.card_label_table(ch.label, slot)
                    if table is not None:  # and are the cards ids, never none?
                        tables[len(alts)] = (table, self.m.types.get(id(ch.source)) == "zone"
                                             or tuple(self.m.resolved.get(id(ch.source), ()))
                                             == ("builtin", "cards"))
                if type(ch.source) is ast.Range:
                    ranges.add(len(alts))
                alts.append(("binder", text, where, body_pc, slot, src, et))
            chosen = self.cards_chosen(ch, who)
            self.named_cards.extend(chosen)
            self.block(ch.body)
            del self.named_cards[len(self.named_cards) - len(chosen):]
            bodies_end.append(self.jump_placeholder(ch.span))
        decline_pc = self.here()  # declining an optional ask continues after the bodies
        for j in bodies_end:
            self.patch_jump(j)
        self.code[at] = Ask(who, alts, optional, decline_pc, self.p.labeller, s.span, openly)
        self.code[at].from_zone = tuple(from_zone)
        self.code[at].who_source = who_source
        if getattr(s, "question", None) is not None:
            self.code[at].question = self.text(s.question)
            self.code[at].question_by_seat = self.seat_text(s.question)
        if self.generate:
            self.generate_options(self.code[at], tables, ranges)


    def cards_chosen(self, ch, who) -> list:
        """(who chooses, the slot) of each card an option binds: `respond` in its body names
        them to the table before anyone answers (a chosen card is otherwise told only by
        the move it makes, which may come after the answers)."""
        if isinstance(ch, ast.NamedChoice):
            return []
        if isinstance(ch, ast.TupleChoice):
            return [(who, slot) for slot, src in zip(self.m.slots[id(ch)], ch.sources)
                    if elem_of(self.m.types.get(id(src), "any")) == "card"]
        if elem_of(self.m.types.get(id(ch.source), "any")) == "card":
            return [(who, self.m.slots[id(ch)])]
        return []


def _cards_of_zone(zone):
    """A zone's closure (st, L) -> its index, as the closure of the zone's cards."""
    return lambda st, L: st.zones[zone(st, L)]
