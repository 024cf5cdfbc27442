"""Lowering: a checked expression (rulesdsl.lang.ast, resolved and typed by the checker)
to the typed nodes of nodes.py, against the program's layout (where each variable, zone
and field lives). What is not lowered yet becomes an `Opaque` node the compiler compiles
itself (`Rules.kept`)."""

from __future__ import annotations

from typing import Any, Optional, Protocol

import attrs

from rulesdsl.lang import ast
from rulesdsl.engine.ir import nodes as n
from rulesdsl.engine.ir.interpret import Interpreter
from rulesdsl.engine.ir.passes import folded, known_not_none
from rulesdsl.engine.runtime.numbers import MAX_INT, too_big

ARITH = {"+", "-", "*"}
COMPARE = {"<", ">", "<=", ">="}
DIVIDE = {"/", "%"}
# built-in calls of one argument lowered here; the others are still the compiler's
BUILTINS = {"next", "previous", "size", "seat", "top", "bottom", "others"}
# calls the compiler keeps that never give none: numbers and truths over a list, lists
SURE_CALLS = {"count", "sum", "any", "all", "ray", "around", "size"}


class Rules(Protocol):
    """What lowering reads: the checked model, the program's layout, the options."""
    m: Any  # the checked Model: resolved names, types, slots, enums
    p: Any  # the Program being built: vars, zones, fields, pieces, members
    n: int  # players
    options: dict
    enum_fields: dict  # (enum, field) -> its values by enum value
    scanner: Any  # hoist.Scanner: which definitions are simple, which pure
    loop_stack: list  # the candidate loops being compiled (a definition's body: none)

    def kept(self, e: Any) -> bool:
        """Whether the compiler compiles `e` itself here (a loop invariant, a memo)."""


class Lowering:
    def __init__(self, rules: Rules):
        self.rules = rules
        self.tables: dict = {}  # name -> its list 0..k-1, one list however often it is read
        # reads of locals (ids of Name nodes) whose value is never none -> the number their
        # value is below (a card id, an enum value, a seat), 0 where not known
        self.sure_reads: dict = {}
        self.tables_without_none: dict = {}  # id(table) -> (table, holds no none?)
        self.definitions: dict = {}  # name -> its Definition node
        self.inline_bodies: dict = {}  # name -> its value to inline (inline_body), or None
        self.calls = False  # lowering a value to inline: definitions' calls too (DefCall)
        self.per_card_values: dict = {}  # name -> a card's own value per card id (per_card)

    def table(self, t: str, name: str, size: int) -> n.Node:
        """The numbers 0..size-1 under the rules' `name` (the seats, the cards, an enum's
        values): one shared list, never changed."""
        values = self.tables.get(name)
        if values is None or len(values) != size:
            values = self.tables[name] = list(range(size))
        return n.Table(t, values, name)

    # ------------------------------------------------------------------ what is lowered
    def handles(self, e: Any) -> bool:
        """Whether `e` itself is lowered (its parts may still be Opaque)."""
        t = type(e)
        if t in (ast.Int, ast.Bool, ast.NoneLit, ast.Attr, ast.Index, ast.Unary,
                 ast.Binary, ast.IfExpr, ast.IsKind, ast.LetIn, ast.ListLit, ast.Range,
                 ast.IsIn):
            return True
        resolved = self.rules.m.resolved.get(id(e), ("", None))
        if t is ast.Name:
            return resolved[0] != "define" or self.calls
        if t is ast.Call:
            return resolved[0] == "define" and self.calls or \
                resolved[0] not in ("define", "aggregate") and \
                e.name in BUILTINS and len(e.args) == 1
        return False

    def lower(self, e: Any) -> n.Node:
        """`e`, which `handles`, as a node."""
        return getattr(self, "lower_" + type(e).__name__)(e)

    def root(self, e: Any) -> n.Node:
        """`e`, which `handles`, as a node of its own (not a part of a lowered parent):
        lowered, then rewritten by the passes (passes.py)."""
        return known_not_none(folded(self.lower(e)))

    def part(self, e: Any) -> n.Node:
        """A part of a lowered expression: lowered too, or Opaque (but a constant
        definition's value: `colours_to_win` read in a loop is 4, never none)."""
        if not self.handles(e) or self.rules.kept(e):
            known = self.constant(e)
            if known is not None:
                return known
            return n.Opaque(self.type_of(e), e, never_none=self.sure_opaque(e))
        return self.lower(e)

    def constant(self, e: Any) -> Optional[n.Const]:
        """The value of `e` where it names a definition of no parameters whose value is
        a constant once folded (passes.folded), else None."""
        kind, payload = self.rules.m.resolved.get(id(e), ("", None))
        if type(e) is not ast.Name or kind != "define" or self.rules.m.defines[payload].params:
            return None
        body = self.inline_body(self.definition(payload))
        return body if isinstance(body, n.Const) else None

    def sure_opaque(self, e: Any) -> bool:
        """Whether an expression the compiler keeps never gives none (a list built, a count)."""
        t = type(e)
        return t is ast.Comprehension or t is ast.Prefix or \
            t is ast.Call and e.name in SURE_CALLS and \
            self.rules.m.resolved.get(id(e), ("",))[0] != "define"

    def loop_bound(self, slot: int, parts: tuple, source: Any) -> None:
        """Before the parts of a loop over `source` binding `slot` are compiled (a list's
        `where` and value, an option's condition and label): where no element of the source
        can be none (a zone's cards, an enum's values, the seats, a range, a board's cells),
        the parts' reads of the element are known never none, and known below a bound
        where the elements are (sure_elements)."""
        below = self.sure_elements(source)
        if below is not None:
            self.sure(parts, slot, below)

    def sure_elements(self, e: Any) -> Optional[int]:
        """Whether no element of the list `e` gives can be none: None if one may be; else
        the number every element is below (0: not known). A zone holds card ids."""
        rules = self.rules
        if self.type_of(e) == "zone":
            return len(rules.p.card_label)
        if type(e) is ast.Range:
            return range_below(e)
        resolved = rules.m.resolved.get(id(e), ("", None))
        if type(e) is ast.Name:
            kind, payload = resolved
            if kind == "enum_all":
                return len(rules.m.enums[payload].values)
            return {("builtin", "players"): rules.n,
                    ("builtin", "cards"): len(rules.p.card_label)}.get(resolved)
        if type(e) is ast.Call and resolved[0] != "define":
            return {"ray": 0, "around": 0, "others": rules.n}.get(e.name)
        return None

    def body_bound(self, slot: int, parts: tuple, source: Any) -> None:
        """Before a loop's body or a decision's option's body (`parts`: statements, and a
        `where`) that runs with an element of `source` bound to `slot` is compiled: as
        loop_bound, where the parts never set the local (`set c = ...`), so that every
        read of it in them reads the element."""
        resolved = self.rules.m.resolved
        if not any(resolved.get(id(s)) == ("local", slot) for s in _nodes(parts, ast.Set)):
            self.loop_bound(slot, parts, source)

    def sure(self, parts: tuple, slot: int, below: int) -> None:
        """The reads of local `slot` in `parts` known never none (and below `below`)."""
        resolved = self.rules.m.resolved
        for part in parts:
            for x in _names(part):
                if resolved.get(id(x)) == ("local", slot):
                    self.sure_reads[id(x)] = below

    def let_bound(self, e: Any) -> None:
        """Before the body of `let x = v in body` is compiled: where v is never none, the
        body's reads of x are known never none (their none checks are dropped). A `let`
        local is never set again, and no local hides another (E502)."""
        if not self.part(e.value).may_be_none:
            self.sure((e.body,), self.rules.m.slots[id(e)], 0)

    # ------------------------------------------------------------------ definitions
    def definition(self, name: str) -> n.Definition:
        """Definition `name` as a node, made once: its parts are the compiler's (Opaque),
        compiled on a frame of their own."""
        known = self.definitions.get(name)
        if known is not None:
            return known
        m, scanner = self.rules.m, self.rules.scanner
        d = m.defines[name]
        size = max([m.nslots.get(id(d.decl), 0), len(d.params) + 1, 1] +
                   [m.nslots.get(id(mod), 0) for mod in d.modifiers])
        made = self.definitions[name] = n.Definition(
            name, tuple(p[0] for p in d.params), d.type, n.Opaque(d.type, d.decl.body),
            tuple((n.Opaque("bool", mod.cond), n.Opaque(d.type, mod.value))
                  for mod in d.modifiers),
            size, 0 if scanner.simple_define(name) else 1,
            len(d.params) <= 2 and scanner.memoised_define(name), d.decl.span)
        return made

    def define_call(self, name: str, args: tuple, span: Any = None) -> n.DefCall:
        """A call of definition `name` on `args` (nodes: checked arguments as Opaque; a
        local or a constant lowered, to be read where an inlined value reads it)."""
        d = self.definition(name)
        return n.DefCall(d.type, d, tuple(map(self.argument, args)), span)

    def argument(self, node: n.Node) -> n.Node:
        """An argument of a definition's call: an Opaque local or constant (an enum's
        value, an option) lowered."""
        e = node.source if isinstance(node, n.Opaque) else None
        kind = self.rules.m.resolved.get(id(e), ("",))[0]
        if (type(e) in (ast.Int, ast.Bool, ast.NoneLit) or type(e) is ast.Name or
                type(e) is ast.Attr and kind == "enum_value") and self.handles(e):
            made = self.lower(e)
            if isinstance(made, (n.Const, n.Local)):
                return made
        return node

    def inline_body(self, d: n.Definition) -> Optional[n.Node]:
        """Definition `d`'s value to write where it is called (passes.inline), lowered
        whole (its calls of definitions too) over its parameters and lets, made once: for
        one that spends no work and has no modifier (hoist.Scanner.simple_define: it calls
        no definition but such ones, never itself); else None."""
        if d.name in self.inline_bodies:
            return self.inline_bodies[d.name]
        self.inline_bodies[d.name] = None
        e = self.rules.m.defines[d.name].decl.body
        if d.unit != 0 or d.modifiers:
            return None
        saved = self.calls, self.rules.loop_stack
        self.calls, self.rules.loop_stack = True, []  # a body has its own locals
        try:
            body = self.lower(e) if self.handles(e) else None
        finally:
            self.calls, self.rules.loop_stack = saved
        if body is None:
            return None
        slots = set(range(len(d.params)))
        for x in n.walk(body):
            if isinstance(x, n.Let):
                slots.add(x.slot)
        if any(isinstance(x, n.Opaque) or isinstance(x, n.Local) and x.slot not in slots
               for x in n.walk(body)):
            return None
        body = known_not_none(folded(body))
        table = self.per_card(d)
        if table is not None:  # its table read at the card, the value itself for none
            card = n.Local("card", 0, d.params[0])
            body = n.IfElse(d.type, n.Equal("bool", "!=", card, n.Const("none", None)),
                            n.Field(d.type, d.name, table, "card",
                                    attrs.evolve(card, never_none=True), d.span, True), body)
        made = self.inline_bodies[d.name] = body
        return made

    def per_card(self, d: n.Definition) -> Optional[list]:
        """Definition `d`'s value for each card id, worked out once by the interpreter (the
        reference) over its lowered value, where `d` spends no work, has one parameter, a
        card, no modifier and no `let`, its value reads nothing but that card's fields
        (and constants) and gives a number or a truth for each card; else None."""
        if d.name in self.per_card_values:
            return self.per_card_values[d.name]
        self.per_card_values[d.name] = None
        rules = self.rules
        decl = rules.m.defines[d.name]
        e = decl.decl.body
        if d.unit or d.modifiers or [t for _, t in decl.params] != ["card"] or \
                type(e) is ast.LetIn or not self.handles(e):
            return None
        saved, rules.loop_stack = rules.loop_stack, []
        try:
            body = self.root(e)
        finally:
            rules.loop_stack = saved
        parts = list(n.walk(body))
        if not all(isinstance(x, _OWN) and (not isinstance(x, n.Local) or x.slot == 0)
                   for x in parts) or \
                not any(isinstance(x, n.Field) and x.of == "card" for x in parts):
            return None
        run = Interpreter(_Plain()).closure(body)
        out = []
        for c in range(len(rules.p.card_label)):
            try:
                v = run(None, [c] + [None] * (d.size - 1))  # (no state: it reads none)
            except Exception:  # a rules error for some card: written out as it is
                return None
            if type(v) not in (int, bool):
                return None
            out.append(v)
        self.per_card_values[d.name] = out
        return out

    def type_of(self, e: Any, default: str = "any") -> str:
        return self.rules.m.types.get(id(e), default)

    def collection(self, e: Any) -> n.Node:
        """The elements of a list, or the cards of a zone."""
        node = self.part(e)
        return n.Pile("list of card", node) if self.type_of(e) == "zone" else node

    # ------------------------------------------------------------------ leaves
    def lower_Int(self, e: Any) -> n.Node:
        if not -MAX_INT <= e.value <= MAX_INT:
            too_big(e.span, e.value)
        return n.Const("int", e.value)

    def lower_Bool(self, e: Any) -> n.Node:
        return n.Const("bool", e.value)

    def lower_NoneLit(self, e: Any) -> n.Node:
        return n.Const("none", None)

    def lower_Name(self, e: Any) -> n.Node:
        rules = self.rules
        kind, payload = rules.m.resolved[id(e)]
        t = self.type_of(e)
        if kind == "define":  # (inline_body's)
            return self.define_call(payload, (), e.span)
        if kind == "local":
            below = self.sure_reads.get(id(e))
            return n.Local(t, payload, e.name, below is not None, below or 0)
        if kind == "var":
            return n.Var(t, rules.p.vars[payload].base, e.name)
        if kind == "zone":
            return n.Const("zone", rules.p.zones[payload].base)
        if kind == "option":
            return n.Const(t, rules.options[payload])
        if kind == "enum_value":
            return n.Const(t, payload[1])
        if kind == "builtin" and payload == "player_count":
            return n.Const("int", rules.n)
        if kind == "builtin" and payload == "players":
            return self.table(t, "players", rules.n)
        if kind == "builtin" and payload == "cards":  # a program's cards are fixed
            return self.table(t, "cards", len(rules.p.card_label))
        if kind == "enum_all":
            return self.table(t, payload, len(rules.m.enums[payload].values))
        if kind == "self_field":  # inside a kind's label, which card_label compiles
            return n.Const(t, None)
        raise AssertionError(kind)

    # ------------------------------------------------------------------ reads
    def lower_Attr(self, e: Any) -> n.Node:
        rules = self.rules
        kind, payload = rules.m.resolved[id(e)]
        t = self.type_of(e)
        if kind == "enum_value":
            return n.Const(t, payload[1])
        obj = self.part(e.obj)
        pieces = rules.p.pieces
        if kind == "card_field" and pieces is not None and payload in pieces.base:
            return n.PieceField(t, payload, pieces.base[payload], obj, e.span)
        table = rules.p.fields[payload] if kind == "card_field" else rules.enum_fields[payload]
        name, of = (payload, "card") if kind == "card_field" else (payload[1], payload[0])
        return n.Field(t, name, table, of, obj, e.span, self.holds_no_none(table))

    def holds_no_none(self, table: list) -> bool:
        """Whether no value of a field's table (by card or enum value) is none: worked
        out once per table (a deck may have many cards)."""
        known = self.tables_without_none.get(id(table))
        if known is None or known[0] is not table:
            known = self.tables_without_none[id(table)] = (table, None not in table)
        return known[1]

    def lower_Index(self, e: Any) -> n.Node:
        rules = self.rules
        kind, payload = rules.m.resolved[id(e)]
        t = self.type_of(e)
        if kind == "zone":
            return self.instance(rules.p.zones[payload], e.args, e.span)
        if kind == "var":
            at = self.instance(rules.p.vars[payload], e.args, e.span)
            if isinstance(at, n.Instance):
                return n.VarAt(t, at)
            assert isinstance(at, n.Const)
            return n.Var(t, at.value, payload)
        return n.Item(t, self.collection(e.obj), self.part(e.args[0]), e.span)

    def instance(self, layout: Any, args: Any, span: Any) -> n.Node:
        """The flat number of a zone or variable instance (`layout`: its ZoneLayout or
        VarLayout) at keys `args`: a constant without keys."""
        if not args:
            return n.Const("zone", layout.base)
        keys = tuple(self.part(a) for a in args)
        return n.Instance("int", layout.name, layout.base, tuple(layout.sizes), keys, span)

    # ------------------------------------------------------------------ operators
    def lower_Unary(self, e: Any) -> n.Node:
        operand = self.part(e.operand)
        if e.op == "not":
            return n.Not("bool", operand)
        return n.Neg(self.type_of(e, "int"), operand)

    def lower_Binary(self, e: Any) -> n.Node:
        op, t = e.op, self.type_of(e)
        lt, rt = self.type_of(e.left, "int"), self.type_of(e.right, "int")
        if op == "+" and any(x == "zone" or x.startswith("list") for x in (lt, rt)):
            return n.Join(t, self.collection(e.left), self.collection(e.right), e.span)
        left, right = self.part(e.left), self.part(e.right)
        if op in ("and", "or"):
            return n.Logic(t, op, left, right)
        if op in ("==", "!="):
            return n.Equal("bool", op, left, right)
        if op in COMPARE:
            return n.Compare("bool", op, left, right, e.span)
        ints = lt == "int" and rt == "int"
        if op in ARITH:
            return n.Arith(t, op, left, right, e.span, ints)
        assert op in DIVIDE, op
        return n.Divide(t, op, left, right, e.span, ints)

    def lower_IfExpr(self, e: Any) -> n.Node:
        return n.IfElse(self.type_of(e), self.part(e.cond), self.part(e.then),
                        self.part(e.else_))

    def lower_IsKind(self, e: Any) -> n.Node:
        return n.IsKind("bool", e.kind, self.rules.p.members[e.kind], self.part(e.expr),
                        e.negated)

    def lower_LetIn(self, e: Any) -> n.Node:
        self.let_bound(e)
        return n.Let(self.type_of(e), self.rules.m.slots[id(e)], e.name, self.part(e.value),
                     self.part(e.body))

    def lower_ListLit(self, e: Any) -> n.Node:
        return n.ListOf(self.type_of(e), tuple(self.part(i) for i in e.items))

    def lower_Range(self, e: Any) -> n.Node:
        step = self.part(e.step) if e.step is not None else n.Const("int", 1)
        return n.Range(self.type_of(e), self.part(e.start), self.part(e.stop), step, e.span)

    def lower_IsIn(self, e: Any) -> n.Node:
        return n.IsIn("bool", self.part(e.expr), self.collection(e.collection), e.negated,
                      e.span)

    def lower_Call(self, e: Any) -> n.Node:
        name, t, span = e.name, self.type_of(e), e.span
        kind, payload = self.rules.m.resolved.get(id(e), ("", None))
        if kind == "define":  # (inline_body's)
            return self.define_call(payload, tuple(self.part(a) for a in e.args), span)
        if name == "size":
            return n.Size("int", self.collection(e.args[0]))
        arg = self.part(e.args[0])
        if name in ("next", "previous"):
            return n.NextSeat(t, name, 1 if name == "next" else -1, self.rules.n, arg, span)
        if name == "seat":
            return n.Seat(t, self.rules.n, arg, span)
        if name == "others":
            return n.Others(t, self.rules.n, arg)
        return n.End(t, -1 if name == "top" else 0, n.Pile("list of card", arg))


# what a card's own value (Lowering.per_card) is made of
_OWN = (n.Const, n.Table, n.Local, n.Field, n.Not, n.Neg, n.Logic, n.Equal, n.Compare,
        n.Arith, n.Divide, n.IfElse, n.IsKind, n.Item)


class _Plain:
    """The interpreter's host for a value worked out while compiling (Lowering.per_card):
    each part its own closure, nothing generated nor noted for --show."""
    b = None  # (a card's own value spends no work)
    definitions: dict = {}  # (nor calls a definition)

    def expr(self, e: Any) -> Any:
        raise NotImplementedError("a part not lowered: not a card's own value")

    def closure_part(self, node: n.Node) -> Any:
        return Interpreter(self).closure(node)

    frame_part = closure_part


def _names(node: Any):
    """Every Name node in a checked expression (or statement)."""
    return _nodes(node, ast.Name)


def _nodes(node: Any, kind: type):
    """Every node of class `kind` in a checked expression or statement."""
    if isinstance(node, kind):
        yield node
    elif isinstance(node, (tuple, list)):
        for x in node:
            yield from _nodes(x, kind)
    elif attrs.has(type(node)):
        for f in attrs.fields(type(node)):
            if f.name != "span":
                yield from _nodes(getattr(node, f.name), kind)


def range_below(e: Any) -> int:
    """The number every element of range `e` is below, where its bounds are constants
    that are not negative (the elements lie between them, whichever is the larger and
    whatever the step: `1..25`, `25..1 step -1`); else 0, not known."""
    bounds = [b.value for b in (e.start, e.stop) if type(b) is ast.Int]
    if len(bounds) < 2 or min(bounds) < 0:
        return 0
    return max(bounds) + 1
