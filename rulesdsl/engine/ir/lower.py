"""Lowering: a checked expression (rulesdsl.lang.ast, resolved and typed by the checker)
to the typed nodes of nodes.py, against the program's layout (where each variable, zone
and field lives). What is not lowered yet becomes an `Opaque` node the compiler compiles
itself (`Rules.kept`)."""

from __future__ import annotations

from typing import Any, Protocol

from rulesdsl.lang import ast
from rulesdsl.engine.ir import nodes as n
from rulesdsl.engine.runtime.numbers import MAX_INT, too_big

ARITH = {"+", "-", "*"}
COMPARE = {"<", ">", "<=", ">="}
DIVIDE = {"/", "%"}
# built-in calls of one argument lowered here; the others are still the compiler's
BUILTINS = {"next", "previous", "size", "seat", "top", "bottom", "others"}


class Rules(Protocol):
    """What lowering reads: the checked model, the program's layout, the options."""
    m: Any  # the checked Model: resolved names, types, slots, enums
    p: Any  # the Program being built: vars, zones, fields, pieces, members
    n: int  # players
    options: dict
    enum_fields: dict  # (enum, field) -> its values by enum value

    def kept(self, e: Any) -> bool:
        """Whether the compiler compiles `e` itself here (a loop invariant, a memo)."""


class Lowering:
    def __init__(self, rules: Rules):
        self.rules = rules
        self.tables: dict = {}  # name -> its list 0..k-1, one list however often it is read

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
            return resolved[0] != "define"
        if t is ast.Call:
            return resolved[0] not in ("define", "aggregate") and \
                e.name in BUILTINS and len(e.args) == 1
        return False

    def lower(self, e: Any) -> n.Node:
        """`e`, which `handles`, as a node."""
        return getattr(self, "lower_" + type(e).__name__)(e)

    def part(self, e: Any) -> n.Node:
        """A part of a lowered expression: lowered too, or Opaque."""
        if not self.handles(e) or self.rules.kept(e):
            return n.Opaque(self.type_of(e), e)
        return self.lower(e)

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
        if kind == "local":
            return n.Local(t, payload, e.name)
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
        if kind == "card_field":
            return n.Field(t, payload, rules.p.fields[payload], "card", obj, e.span)
        return n.Field(t, payload[1], rules.enum_fields[payload], payload[0], obj, e.span)

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
