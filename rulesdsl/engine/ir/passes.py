"""Rewrites of a lowered expression that keep what it computes.

`known_not_none`: a read of a local that an earlier part of the same expression has
already checked for none, on every path to the read (`answer.colour == led.colour then
answer.value > led.value`: `answer.colour` fails where answer is none, so the reads of
answer after it cannot be none), is marked never none, and the back ends write no check
for it. Likewise an item `r[k]` of a local list at a local key read where the expression
has found `k > 0` (or `>= 0`) and `k < size(r)` true (the right of an `and`, the branch
an `if` takes where its test holds: Reversi's `k > 0 and k < size(r) and disc[r[k]]`)
is marked in range, and the Python back end writes no range check for it. A local keeps
its value while an expression is computed: the expression sets no local it reads (a
`let` and a list's element have slots of their own, E502).

`folded`: a part whose operands are all constants known when the game loads (the player
count, an option, an enum value, an argument inlined) worked out then, as the back ends
would work it out each time (`if player_count <= 3 then 5 else 4` is 5 at two players);
a part that would fail (none compared, a sum past MAX_INT, by zero) is left to fail
where the rules say."""

from __future__ import annotations

from typing import Callable, Optional, TypeGuard, Union

import operator

import attrs

from rulesdsl.engine.ir import nodes as n
from rulesdsl.engine.runtime.numbers import MAX_INT

# how deep an inlined definition's value may nest (as nodes): the Python back end writes
# it as one expression, and Python's parser nests 200 brackets at most
MAX_INLINED_DEPTH = 40

# nodes that compute each of their parts, in the order nodes.children gives them
_IN_ORDER = (n.Instance, n.VarAt, n.Pile, n.Item, n.Field, n.PieceField, n.Not, n.Neg,
             n.Equal, n.Compare, n.Arith, n.Divide, n.Join, n.IsKind, n.ListOf, n.Range,
             n.IsIn, n.Others, n.NextSeat, n.Size, n.End, n.Shown)


def known_not_none(node: n.Node) -> n.Node:
    """`node` with each read of a local checked already on every path marked never none
    (the node itself where nothing changes)."""
    return _Known().visit(node, frozenset())[0]


class _Known:
    def visit(self, node: n.Node, known: frozenset) -> tuple:
        """(the node rewritten, the locals known not none once it is computed)."""
        if isinstance(node, n.Local):
            if node.slot in known and not node.never_none:
                return attrs.evolve(node, never_none=True), known
            return node, known
        if isinstance(node, n.IfElse):  # the test, then one branch or the other
            cond, known = self.visit(node.cond, known)
            then, after_then = self.visit(node.then, known | _truths(cond))
            else_, after_else = self.visit(node.else_, known)
            return _with(node, cond=cond, then=then, else_=else_), \
                known | (after_then & after_else)
        if isinstance(node, n.Logic):  # the right only where the left does not decide
            left, known = self.visit(node.left, known)
            right, _ = self.visit(node.right, known | (_truths(left) if node.op == "and"
                                                       else frozenset()))
            return _with(node, left=left, right=right), known
        if isinstance(node, n.Let):
            value, known = self.visit(node.value, known)
            body, known = self.visit(node.body, known)
            return _with(node, value=value, body=body), known
        if not isinstance(node, _IN_ORDER):  # not looked into (an Opaque part, a loop)
            return node, known
        changed: dict = {}
        for f in attrs.fields(type(node)):
            value = getattr(node, f.name)
            if isinstance(value, n.Node):
                changed[f.name], known = self.visit(value, known)
            elif f.name in ("keys", "items") and isinstance(value, tuple):
                parts = []
                for part in value:
                    part, known = self.visit(part, known)
                    parts.append(part)
                changed[f.name] = tuple(parts)
        out = _with(node, **changed)
        if isinstance(out, n.Item) and not out.in_range and isinstance(out.seq, n.Local) and \
                isinstance(out.key, n.Local) and ("pos", out.key.slot) in known and \
                ("below", out.key.slot, out.seq.slot) in known:
            out = attrs.evolve(out, in_range=True)
        return out, known | _checked(node)


def _truths(node: n.Node) -> frozenset:
    """What holds where `node`, a test, is true: ("pos", k) for a local k at least 0
    (`k > 0`, `k >= 0`, a constant at least 0 on the other side), ("below", k, r) for a
    local k less than the size of a local list r (`k < size(r)`); both of an `and`'s."""
    if isinstance(node, n.Logic) and node.op == "and":
        return _truths(node.left) | _truths(node.right)
    if not isinstance(node, n.Compare):
        return frozenset()
    left, op, right = node.left, node.op, node.right
    if isinstance(right, n.Local):  # `0 < k`, `size(r) > k`: the local on the left
        left, right, op = right, left, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}[op]
    if not isinstance(left, n.Local):
        return frozenset()
    if op in (">", ">=") and isinstance(right, n.Const) and type(right.value) is int and \
            right.value >= 0:
        return frozenset({("pos", left.slot)})
    if op == "<" and isinstance(right, n.Size) and isinstance(right.of, n.Local):
        return frozenset({("below", left.slot, right.of.slot)})
    return frozenset()


def _checked(node: n.Node) -> frozenset:
    """The locals that computing `node` fails on where they are none (it got past them):
    a field's card or enum value, a comparison's or a sum's operands, a divisor, a seat
    stepped from, an instance's keys."""
    if isinstance(node, (n.Field, n.PieceField)):
        parts: tuple = (node.obj,)
    elif isinstance(node, (n.Compare, n.Arith)):
        parts = (node.left, node.right)
    elif isinstance(node, n.Divide):
        parts = (node.right,)
    elif isinstance(node, n.NextSeat):
        parts = (node.operand,)
    elif isinstance(node, n.Instance):
        parts = node.keys
    else:
        return frozenset()
    return frozenset(p.slot for p in parts if isinstance(p, n.Local))


def _with(node: n.Node, **parts) -> n.Node:
    """`node` with `parts`, itself where none of them changed."""
    if all(getattr(node, k) is v for k, v in parts.items()):
        return node
    return attrs.evolve(node, **parts)


def folded(node: n.Node) -> n.Node:
    """`node` with each part whose operands are constants made the constant it gives
    (the node itself where nothing folds)."""
    out = _parts_visited(node, folded)
    fold = _FOLDS.get(type(out))
    return fold(out) if fold is not None else out


_OPERATORS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
              "<=": operator.le, ">=": operator.ge, "+": operator.add, "-": operator.sub,
              "*": operator.mul, "/": operator.floordiv, "%": operator.mod}


def _number(node: n.Node) -> TypeGuard[n.Const]:
    return isinstance(node, n.Const) and type(node.value) is int


def _truth(node: n.Node) -> TypeGuard[n.Const]:
    return isinstance(node, n.Const) and type(node.value) is bool


def _fold_equal(node: n.Equal) -> n.Node:
    if isinstance(node.left, n.Const) and isinstance(node.right, n.Const):
        return n.Const(node.type, _OPERATORS[node.op](node.left.value, node.right.value))
    return node


def _fold_compare(node: n.Compare) -> n.Node:  # (none on either side fails: R013)
    if _number(node.left) and _number(node.right):
        return n.Const(node.type, _OPERATORS[node.op](node.left.value, node.right.value))
    return node


def _fold_arith(node: Union[n.Arith, n.Divide]) -> n.Node:
    """(past MAX_INT, by zero: left to fail where it stands)"""
    left, right = node.left, node.right
    if not (node.ints and _number(left) and _number(right)) or \
            isinstance(node, n.Divide) and right.value == 0:
        return node
    value = _OPERATORS[node.op](left.value, right.value)
    return n.Const(node.type, value) if -MAX_INT <= value <= MAX_INT else node


def _fold_logic(node: n.Logic) -> n.Node:  # Python's: the operand that decided
    if not _truth(node.left):
        return node
    decided = node.left.value if node.op == "or" else not node.left.value
    return node.left if decided else node.right


def _fold_if(node: n.IfElse) -> n.Node:
    if not _truth(node.cond):
        return node
    return node.then if node.cond.value else node.else_


def _fold_not(node: n.Not) -> n.Node:
    return n.Const(node.type, not node.operand.value) if _truth(node.operand) else node


def _fold_neg(node: n.Neg) -> n.Node:
    return n.Const(node.type, -node.operand.value) if _number(node.operand) else node


def _fold_seat(node: n.Seat) -> n.Node:  # (no such seat: R017 where it stands)
    if _number(node.operand) and 0 <= node.operand.value < node.seats:
        return n.Const(node.type, node.operand.value)
    return node


def _fold_next_seat(node: n.NextSeat) -> n.Node:
    if _number(node.operand):
        return n.Const(node.type, (node.operand.value + node.step) % node.seats)
    return node


_FOLDS: dict = {n.Equal: _fold_equal, n.Compare: _fold_compare, n.Arith: _fold_arith,
                n.Divide: _fold_arith, n.Logic: _fold_logic, n.IfElse: _fold_if,
                n.Not: _fold_not, n.Neg: _fold_neg, n.Seat: _fold_seat,
                n.NextSeat: _fold_next_seat}


def inline(node: n.Node, body_of: Callable[[n.Definition], Optional[n.Node]]) -> n.Node:
    """`node` with each call of a definition whose value `body_of` gives (lower.inline_body:
    one that spends no work, has no modifier and calls none but such ones, lowered whole
    over its parameters and lets) rewritten into that value where it nests no deeper than
    MAX_INLINED_DEPTH: each argument computed once, in order, into a temporary (Bind; a
    constant, or a local read at most twice, is read where used instead), then the value
    over them, each `let` a Bind too; only where every call inside is inlined too. A call
    spending no work, its memo never matters (it is pure and free); a definition is never
    inlined into itself."""
    return _Inline(body_of).visit(node)


class _Inline:
    def __init__(self, body_of: Callable[[n.Definition], Optional[n.Node]]):
        self.body_of = body_of
        self.open: list = []  # the definitions being inlined (none into itself)

    def visit(self, node: n.Node) -> n.Node:
        out = _parts_visited(node, self.visit)
        if isinstance(out, n.DefCall) and out.definition not in self.open:
            body = self.body_of(out.definition)
            if body is not None:
                self.open.append(out.definition)
                try:
                    made = folded(self.visit(_called(out, body)))
                finally:
                    self.open.pop()
                if depth(made) <= MAX_INLINED_DEPTH and \
                        not any(isinstance(x, n.DefCall) for x in n.walk(made)):
                    return made  # (a call left inside: the definition's own function)
        return out


def _called(call: n.DefCall, body: n.Node) -> n.Node:
    """`body`, definition `call.definition`'s value over its frame, with the call's
    arguments bound: each computed into a temporary (in order, before the value) but a
    constant or a local read at most twice (written where read), each `let` a Bind."""
    counts: dict = {}
    for x in n.walk(body):
        if isinstance(x, n.Local):
            counts[x.slot] = counts.get(x.slot, 0) + 1
    given: dict = {}  # slot -> the node read there
    binds = []
    for k, (param, arg) in enumerate(zip(call.definition.params, call.args)):
        if isinstance(arg, n.Const) or \
                isinstance(arg, (n.Local, n.Temp)) and counts.get(k, 0) <= 2:
            given[k] = arg
        else:
            cell: list = [None]
            below = arg.below if isinstance(arg, (n.Local, n.Temp)) else 0
            given[k] = n.Temp(arg.type, cell, param, not arg.may_be_none, below)
            binds.append((cell, param, arg))
    out = _Bound(given).visit(body)
    for cell, param, arg in reversed(binds):
        out = n.Bind(out.type, cell, param, arg, out)
    return out


class _Bound:
    """A definition's value with its frame's slots read from what `given` says (a
    parameter's argument or temporary), each `let` made a Bind."""

    def __init__(self, given: dict):
        self.given = given

    def visit(self, node: n.Node) -> n.Node:
        if isinstance(node, n.Local):
            x = self.given[node.slot]
            if node.never_none and isinstance(x, (n.Local, n.Temp)) and x.may_be_none:
                # (checked already in the value: known_not_none)
                x = attrs.evolve(x, never_none=True)
            return x
        if isinstance(node, n.Let):
            value = self.visit(node.value)
            cell: list = [None]
            self.given[node.slot] = n.Temp(value.type, cell, node.name, not value.may_be_none)
            return n.Bind(node.type, cell, node.name, value, self.visit(node.body))
        out = _parts_visited(node, self.visit)
        if isinstance(out, n.IfElse) and isinstance(out.cond, n.Equal) and \
                isinstance(out.cond.right, n.Const) and out.cond.right.value is None and \
                not out.cond.left.may_be_none:  # a none check of an argument never none
            return out.then if out.cond.op == "!=" else out.else_
        return out


def _parts_visited(node: n.Node, visit: Callable[[n.Node], n.Node]) -> n.Node:
    """`node` with each of its parts (a node, or a tuple of nodes) made what `visit` makes
    of it; itself where none changed."""
    changed: dict = {}
    for f in attrs.fields(type(node)):
        value = getattr(node, f.name)
        if isinstance(value, n.Node):
            changed[f.name] = visit(value)
        elif isinstance(value, tuple) and value and all(isinstance(x, n.Node) for x in value):
            parts = tuple(map(visit, value))
            if any(x is not y for x, y in zip(parts, value)):
                changed[f.name] = parts
    return _with(node, **changed)


def depth(node: n.Node) -> int:
    """How deep `node`'s parts nest, about as deep as the Python back end's brackets would
    (checked arithmetic nests 4 deep: `t if -M <= (t := a + b) <= M else ...`; 1: a leaf)."""
    return _NESTS.get(type(node), 1) + max(map(depth, n.children(node)), default=0)


_NESTS = {n.Arith: 4, n.Divide: 4, n.Compare: 2, n.Field: 2, n.Item: 2, n.Instance: 2}
