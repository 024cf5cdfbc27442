"""Decisions: `ask`, `ask each` and `ask together`, compiled to the Ask instruction, its
options made by both back ends of engine/ir from one node (nodes.Ask)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.lang.check import elem_of
from rulesdsl.lang.limits import limit
from rulesdsl.engine.together import compile_ask_together
from rulesdsl.engine.compile.program import Ask
from rulesdsl.engine.ir import nodes
from rulesdsl.engine.ir.python import index, state
from rulesdsl.engine.ir.python_options import OptionsBackEnd
from rulesdsl.engine.runtime.places import rules_place
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.expressions import Expressions
    from rulesdsl.engine.compile.flow import Flow
    from rulesdsl.engine.compile.seat_words import SeatWords
    from rulesdsl.engine.compile.source import Source


class Decisions:
    """Compiles the statements that ask a player to decide."""

    def __init__(self, unit: Unit):
        self.unit = unit
        self.m, self.p, self.b = unit.m, unit.p, unit.b

    def connect(self, exprs: Expressions, flow: Flow, seat_words: SeatWords,
                source: Source) -> None:
        self.exprs, self.flow, self.seat_words, self.source = exprs, flow, seat_words, source

    def s_Ask(self, s: ast.Ask):
        who = self.exprs.expr(s.who)
        self.ask(s, who, self.flow.value_part(s.who, who), s.choices, optional=False)

    def s_AskEach(self, s: ast.AskEach):
        # for q in source where cond: ask q, optionally; a break inside ends the round
        slot = self.m.slots[id(s)]
        who = nodes.Local("player", slot, s.binder)
        self.flow.each(s, self.flow.value_part(s.source),
                       lambda: self.ask(s, self.exprs.interpreter.closure(who), who, s.choices,
                                        optional=True, openly=s.openly))

    def s_AskTogether(self, s: ast.AskTogether):
        compile_ask_together(self, s)

    def tuple_alt(self, ch: ast.TupleChoice, body_pc: int) -> tuple:
        """The decision's entry for `(a, b) in A, B`: one slot, source and type per name;
        and its node."""
        srcs, ets = [], []
        for src in ch.sources:
            f = self.exprs.expr(src)
            if self.m.types.get(id(src)) == "zone":
                f = (lambda zf: lambda st, L: st.zones[zf(st, L)])(f)
            srcs.append(f)
            ets.append(elem_of(self.m.types.get(id(src), "any")) or "any")
        where = self.exprs.expr(ch.where) if ch.where is not None else None
        text = self.exprs.text(ch.label) if ch.label is not None else None
        slots = self.m.slots[id(ch)]
        node = nodes.Choice(
            "tuple", body_pc, self.text_part(ch.label, text), self.compiled_part(ch.where, where),
            tuple(slots), tuple(self.compiled_part(e, f) for e, f in zip(ch.sources, srcs)),
            tuple(self.shown_part(et, slot) for et, slot in zip(ets, slots)))
        return ("tuple", text, where, body_pc, slots, srcs, ets), node

    def binder_alt(self, ch: ast.BinderChoice, body_pc: int) -> tuple:
        """The decision's entry for `x in SOURCE where ...` and its node: the candidates
        read once, the condition and label compiled as a loop's (invariants computed once
        per decision)."""
        slot = self.m.slots[id(ch)]
        et = elem_of(self.m.types.get(id(ch.source), "any")) or "any"
        src = self.exprs.expr(ch.source)
        from_zone = self.m.types.get(id(ch.source)) == "zone"
        if from_zone:
            zf = src
            src = _cards_of_zone(zf)
            if self.unit.generate:
                self.source.known_as(src, index(state("zones"), self.source.xs_or(ch.source, zf)))
        self.exprs.lowering.loop_bound(slot, (ch.where, ch.label), ch.source)
        self.exprs.lowering.body_bound(slot, (ch.body,), ch.source)  # the chosen element
        ctx = self.exprs.open_loop(slot, (ch.where, ch.label))
        where = self.exprs.expr(ch.where) if ch.where is not None else None
        text = self.exprs.text(ch.label) if ch.label is not None else None
        self.exprs.close_loop(ctx)
        src = self.exprs.fresh_memo_on(ctx, src)
        table, ids = None, False  # the labels by value, where worked out here
        resolved = tuple(self.m.resolved.get(id(ch.source), ()))
        if self.unit.generate and et in self.m.enums and text is None and \
                resolved[:1] == ("enum_all",):
            table, ids = list(self.m.enums[et].values), True  # each value once
        if self.unit.generate and et == "card" and text is not None and ch.label is not None:
            table = self.card_label_table(ch.label, slot)
            ids = from_zone or resolved == ("builtin", "cards")  # cards' ids, never none
        node = nodes.Choice(
            "binder", body_pc, self.text_part(ch.label, text), self.compiled_part(ch.where, where),
            (slot,), (self.compiled_part(ch.source, src),), (self.shown_part(et, slot),),
            table, table is not None and ids, type(ch.source) is ast.Range, from_zone)
        return ("binder", text, where, body_pc, slot, src, et), node

    def compiled_part(self, e, f: Optional[Callable]) -> Optional[nodes.Node]:
        """A part of a decision compiled already (`f`; None: no part) as a node both back
        ends take as it is: the interpreter its closure, the Python back end its call (or
        its expression inline), reading a loop's invariants as the closure was compiled to."""
        if f is None:
            return None
        return self.flow.compiled_part(e, f, self.m.types.get(id(e), "any"))

    def text_part(self, text: Optional[ast.Text], f: Optional[Callable]) -> Optional[nodes.Node]:
        """An option's label: a constant where it has no holes, else its compiled text."""
        if text is None:
            return None
        if all(isinstance(part, str) for part in text.parts):
            return nodes.Const("text", "".join(text.parts))
        return self.compiled_part(text, f)

    def shown_part(self, t: str, slot: int) -> nodes.Shown:
        """How the value in `slot`, of type `t`, reads as an option's label."""
        names = self.p.card_label if t == "card" and self.p.pieces is None else \
            self.m.enums[t].values if t in self.m.enums else None
        return nodes.Shown("text", t, nodes.Local(t, slot, ""), names, self.p.labeller)

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

    def ask(self, s, who: Callable, who_node: nodes.Node, choices, optional: bool,
            openly: bool = False):
        """A decision point: compute the options, suspend, resume in the chosen body."""
        alts, made = [], []
        at = self.flow.jump_placeholder(s.span)
        bodies_end = []
        for ch in choices:
            body_pc = self.flow.here()
            if isinstance(ch, ast.NamedChoice):
                assert ch.label is not None  # the grammar gives a named option its label
                label = self.exprs.text(ch.label)
                cond = self.exprs.expr(ch.cond) if ch.cond is not None else None
                alt = ("named", label, cond, body_pc, None, None, None)
                node = nodes.Choice("named", body_pc, self.text_part(ch.label, label),
                                    self.compiled_part(ch.cond, cond))
            elif isinstance(ch, ast.TupleChoice):
                alt, node = self.tuple_alt(ch, body_pc)
            else:
                alt, node = self.binder_alt(ch, body_pc)
            alts.append(alt)
            made.append(node)
            chosen = self.cards_chosen(ch, who_node)
            self.flow.named_cards.extend(chosen)
            self.flow.block(ch.body)
            del self.flow.named_cards[len(self.flow.named_cards) - len(chosen):]
            bodies_end.append(self.flow.jump_placeholder(ch.span))
        decline_pc = self.flow.here()  # declining an optional ask continues after the bodies
        for j in bodies_end:
            self.flow.patch_jump(j)
        ins = self.flow.code[at] = Ask(who, alts, optional, decline_pc, self.p.labeller, s.span,
                                       openly)
        op = nodes.Ask(s.span, who_node, tuple(made), optional, openly,
                       self.p.card_label if self.p.pieces is None else None,
                       self.p.zone_unordered)
        ins.build = self.exprs.interpreter.options(op)
        ins.choose = self.exprs.interpreter.operation(ins.resume)
        if getattr(s, "question", None) is not None:
            ins.question = self.exprs.text(s.question)
            by_seat = self.seat_words.seat_text(s.question)
            if by_seat is not None:
                ins.question_by_seat = self.exprs.interpreter.part(by_seat)
        if self.unit.generate:
            ins.who_source = self.source.to_python.emit(who_node, 0)
            ins.resume_body = self.source.to_python.statements(ins.resume)
            tree = ins.tree = OptionsBackEnd(self.source.to_python).function(op)
            ins.fast = self.source.generated_function(
                tree, f"the options of the decision at {rules_place(s.span)}",
                s.span)

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
