"""The Python back end: each node as a Python expression tree (`ast`), over `st` (the
state) and `L` (the frame's locals), computing what the interpreter's closure computes,
with the same errors. Failing paths call engine/runtime's helpers by the names in HELPERS;
tables are read by names made from the rules' own (`SUIT_OF_CARD`, `IS_TRUMP`, `LINE_12`
for a place on line 12 an error names, `LINE_12_2` for the next), temporaries are named
after what they hold.

A none check is written only where the operand's node says it may be none; a node
without a Python form (arithmetic that is not on numbers) is a call of its closure."""

from __future__ import annotations

import ast as py
import builtins
import copy
import keyword
from collections import deque
from typing import Any, Callable, Optional, Protocol

import attrs

from rulesdsl.engine.ir import nodes as n
from rulesdsl.engine.pieces import reveal_pieces
from rulesdsl.engine.runtime import errors
from rulesdsl.engine.runtime.cards import MASK, move_card, moves_cost, pile_cards
from rulesdsl.engine.runtime.numbers import MAX_INT, known_range, range_list
from rulesdsl.engine.runtime.options import (alike_in_zone, by_position, first_of_each_label,
                                             unique_label)


def _subclasses(cls: type) -> set:
    out: set = set()
    sub: type
    for sub in cls.__subclasses__():
        out |= {sub} | _subclasses(sub)
    return out


# the classes of `ast` nodes `clone` copies (a context, Load or Store, holds nothing: shared)
_NODES = frozenset(c for c in _subclasses(py.AST) if not issubclass(c, py.expr_context))
_COPIED = _NODES | {list}


def clone(tree: Any) -> Any:
    """A copy of an `ast` tree (or a list of them) as `copy.deepcopy` makes it, each node
    new with its fields and places, but cheaper: only nodes and lists are walked (every
    other field, a name or a constant, is immutable and shared, as are contexts), and a
    node used twice is copied twice (lay_out gives each place a copy of its own anyway)."""
    cls: Any = type(tree)
    if cls is list:
        return [clone(x) if type(x) in _COPIED else x for x in tree]
    if cls not in _NODES:
        return copy.deepcopy(tree) if isinstance(tree, py.AST) and \
            not isinstance(tree, py.expr_context) else tree
    new = cls.__new__(cls)
    new.__dict__.update({k: clone(v) if type(v) in _COPIED else v
                         for k, v in tree.__dict__.items()})
    return new


def walk(tree: py.AST):
    """Every node of `tree`, as `ast.walk` gives them (in the same order: the tree, then
    its children breadth first, each node's fields in order), with no generator per node:
    the compiler walks trees often."""
    todo = deque([tree])
    pop, push, fields_of, AST = todo.popleft, todo.append, _FIELDS.get, py.AST
    while todo:
        node = pop()
        d = node.__dict__
        for field in fields_of(type(node)) or node._fields:
            value = d.get(field)
            if type(value) is list:
                for x in value:
                    if isinstance(x, AST):
                        push(x)
            elif isinstance(value, AST):
                push(value)
        yield node


_FIELDS = {c: c._fields for c in _NODES}


# the helpers generated code calls, by the names it calls them
HELPERS = {"_bad_indexes": errors.bad_indexes, "_bad_item": errors.bad_item,
           "_none_call": errors.none_call, "_none_field": errors.none_field,
           "_none_enum_field": errors.none_enum_field, "_none_operand": errors.none_operand,
           "_too_big": errors.too_big, "_bad_index": errors.bad_index,
           "_by_zero": errors.by_zero, "_no_seat": errors.no_seat, "MAX_INT": MAX_INT,
           "_range_list": range_list, "_known_range": known_range,
           "_turns_from_none": errors.turns_from_none, "moves_cost": moves_cost,
           "_move_card": move_card, "_reveal_pieces": reveal_pieces,
           "_unique_label": unique_label, "_by_position": by_position,
           "_alike_in_zone": alike_in_zone, "_first_of_each_label": first_of_each_label,
           "_no_play": errors.no_play,
           "_pile_cards": pile_cards}

MAX_DEPTH = 24  # operators nested in one expression (Python's parser nests 200 brackets)

_BINOP = {"+": py.Add, "-": py.Sub, "*": py.Mult, "/": py.FloorDiv, "%": py.Mod}
_CMPOP = {"<": py.Lt, ">": py.Gt, "<=": py.LtE, ">=": py.GtE, "==": py.Eq, "!=": py.NotEq}


class Host(Protocol):
    """What the back end asks of the compiler."""
    b: Any  # the program's work budget

    def named(self, obj: Any, stem: str) -> str:
        """The global name under which generated code reads `obj`."""

    def temp(self, stem: str = "t") -> str:
        """A fresh temporary's name."""

    def opaque_ast(self, node: n.Opaque, depth: int) -> py.expr:
        """A checked expression not lowered yet (an Opaque node), as Python."""

    def opaque_statements(self, node: n.Opaque, slot: int) -> Optional[tuple]:
        """(statements, a test) where an Opaque part that is the whole test of a loop
        binding `slot` is best written as statements before a test, else None."""

    def pad(self, proc: Optional[int], nargs: int) -> str:
        """The name of the Nones that make `nargs` arguments phase `proc`'s locals (`proc`
        None: a list of those, by procedure)."""

    def closure_of(self, node: n.Node) -> Callable:
        """The interpreter's closure of `node`."""

    def function(self, fn: py.FunctionDef, title: str, span: Any,
                 as_statements: bool = True) -> Optional[py.expr]:
        """`fn(st, L)`, a function of its own over the frame (listed under `title` and
        the place of `span`): its call, or None where Python cannot compile it.
        `as_statements`: a definition's `let` of it may take its body as statements."""


# ---------------------------------------------------------------- tree builders
def name(id_: str) -> py.Name:
    return py.Name(id_, py.Load())


def const(v: Any) -> py.Constant:
    return py.Constant(v)


def walrus(target: str, value: py.expr) -> py.NamedExpr:
    return py.NamedExpr(py.Name(target, py.Store()), value)


def call(fn: str, *args: py.expr) -> py.Call:
    return py.Call(name(fn), list(args), [])


def index(value: py.expr, key: py.expr) -> py.Subscript:
    return py.Subscript(value, key, py.Load())


def compare(left: py.expr, op: str, right: py.expr) -> py.Compare:
    return py.Compare(left, [_CMPOP[op]()], [right])


def chain(low: py.expr, mid: py.expr, high: py.expr, op: str = "<") -> py.Compare:
    """low <= mid < high (op: the second comparison)."""
    return py.Compare(low, [py.LtE(), _CMPOP[op]()], [mid, high])


def is_none(x: py.expr, negated: bool = False) -> py.Compare:
    return py.Compare(x, [py.IsNot() if negated else py.Is()], [const(None)])


def both(*tests: py.expr) -> py.expr:
    return tests[0] if len(tests) == 1 else py.BoolOp(py.And(), list(tests))


def either(*tests: py.expr) -> py.expr:
    return py.BoolOp(py.Or(), list(tests))


def if_else(test: py.expr, then: py.expr, else_: py.expr) -> py.IfExp:
    return py.IfExp(test, then, else_)


def state(attr: str) -> py.Attribute:
    return py.Attribute(name("st"), attr, py.Load())


def frame_local(slot: int) -> py.Subscript:
    return index(name("L"), const(slot))


def bound(x: str, value: py.expr) -> py.expr:
    """`(x := value) is None or True`: `value` computed into `x`, whatever it is."""
    return either(is_none(walrus(x, value)), const(True))


def bound_test(first: py.expr) -> py.expr:
    """`first is None or True`: an operand computed into its temporary, whatever it is."""
    return either(is_none(first), const(True))


def nesting(tree: py.expr) -> int:
    """How deep expressions nest in `tree` (1: a leaf): its brackets, as written, nest no
    deeper."""
    deepest = 0
    todo: list[tuple[py.AST, int]] = [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        deepest = max(deepest, depth)
        todo.extend((child, depth + isinstance(child, py.expr))
                    for child in py.iter_child_nodes(node))
    return deepest


def lambda_of(tree: py.expr) -> py.Lambda:
    """`lambda st, L: tree`."""
    args = py.arguments(posonlyargs=[], args=[py.arg("st"), py.arg("L")], vararg=None,
                        kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return py.Lambda(args, tree)


def _stem(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text).upper()


@attrs.frozen(eq=False)
class ExitIf:
    """Among an operation's statements: where `test` holds, `then` runs and the procedure
    goes on at instruction `target` (the end of a loop); else the next statement."""
    test: py.expr
    then: list
    target: int


def assign(target: py.expr, value: py.expr) -> py.Assign:
    """`target = value`, `target` a name, `L[k]` or `st.x` read as a place to store into."""
    if isinstance(target, py.Name):
        target = py.Name(target.id, py.Store())
    elif isinstance(target, py.Subscript):
        target = py.Subscript(target.value, target.slice, py.Store())
    elif isinstance(target, py.Attribute):
        target = py.Attribute(target.value, target.attr, py.Store())
    return py.Assign([target], value)


def with_memo(statements: list, memo: bool = True) -> list:
    """`statements` run with a memo of their own (nodes.SetVar.memo): `st.memo = {}`, and
    none again after, also after an error."""
    if not memo:
        return statements
    return [assign(state("memo"), py.Dict([], [])),
            py.Try(statements, [], [], [assign(state("memo"), const(None))])]


def function_def(fn: str, params: list, body: list) -> py.FunctionDef:
    """`def fn(params): body`."""
    args = py.arguments(posonlyargs=[], args=[py.arg(x) for x in params], vararg=None,
                        kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return py.FunctionDef(fn, args, body, [], None)


class PythonBackEnd:
    def __init__(self, host: Host):
        self.host = host
        self.composed: dict = {}  # (an enum's table, a card's) -> the enum's field per card
        self.temps: dict = {}  # id(a Bind's cell) -> the name of its temporary
        self.closures: list = []  # the nodes written as their closure's call, in turn

    def root(self, node: n.Node, depth: int = 0) -> Optional[py.expr]:
        """`node` as Python, or None where its Python form would only call its closure."""
        if depth >= MAX_DEPTH:
            return None
        return getattr(self, "p_" + type(node).__name__)(node, depth + 1)

    def emit(self, node: n.Node, depth: int) -> py.expr:
        tree = self.root(node, depth)
        return tree if tree is not None else self.closure_call(node)

    def closure_call(self, node: n.Node) -> py.expr:
        self.closures.append(node)
        return call(self.host.named(self.host.closure_of(node), "K"), name("st"), name("L"))

    def place(self, span: Any) -> py.expr:
        """The place in the rules an error names, as generated code reads it."""
        return name(self.host.named(span, f"LINE_{span.line}"))

    def operand(self, node: n.Node, depth: int, stem: str = "x", twice: bool = False) -> tuple:
        """(how the value is read again, how it is computed first) for an operand used more
        than once: a constant written again, a local read again where it is read `twice`
        only (measured: quicker than a temporary), else computed into a temporary."""
        tree = self.emit(node, depth)
        if isinstance(node, n.Const) or twice and isinstance(node, (n.Local, n.Temp)):
            return tree, tree
        t = self.host.temp(_temp_stem(node, stem))
        return name(t), walrus(t, tree)

    # ------------------------------------------------------------------ leaves
    def p_Const(self, node: n.Const, depth: int) -> py.expr:
        v = node.value
        if v is None or isinstance(v, (bool, int, str)):
            return const(v)
        return name(self.host.named(v, "OPTION"))

    def p_Table(self, node: n.Table, depth: int) -> py.expr:
        return name(self.host.named(node.value, node.name))

    def p_Local(self, node: n.Local, depth: int) -> py.expr:
        return frame_local(node.slot)

    def p_Var(self, node: n.Var, depth: int) -> py.expr:
        return index(state("vars"), const(node.index))

    def p_Opaque(self, node: n.Opaque, depth: int) -> py.expr:
        return self.host.opaque_ast(node, depth)

    # ------------------------------------------------------------------ reads
    def p_Instance(self, node: n.Instance, depth: int) -> py.expr:
        span = self.place(node.span)
        if len(node.keys) == 1:
            key = node.keys[0]
            if n.within(key, node.sizes[0]):
                return const(node.base + key.value) if isinstance(key, n.Const) else \
                    _flat_number(node.base, [self.emit(key, depth)], [1])
            again, first = self.operand(key, depth, "key")
            in_range = chain(const(0), again, const(node.sizes[0]))
            ok = both(is_none(first, negated=True), in_range) if key.may_be_none else \
                both(bound_test(first), in_range) if first is not again else in_range
            return if_else(ok, _flat_number(node.base, [again], [1]),
                           call("_bad_index", const(node.name), again, span))
        base, strides = node.base, []
        keys: list = []  # the keys' temporaries, or trees
        checks = []
        last = len(node.keys) - 1
        for i, (k, size, stride) in enumerate(zip(node.keys, node.sizes,
                                                  n.strides(node.sizes))):
            # a key sure to be in range goes into the sum as it is: a constant anywhere, an
            # item of a table last (computed after the others' checks, as in the closures)
            if n.within(k, size) and isinstance(k, n.Const):
                base += k.value * stride
                continue
            strides.append(stride)
            if n.within(k, size) and i == last:
                keys.append(self.emit(k, depth))
                continue
            t = self.host.temp(_temp_stem(k, "key"))
            keys.append(t)
            computed = walrus(t, self.emit(k, depth))
            checks.append(is_none(computed, negated=True) if k.may_be_none else
                          bound_test(computed))
            if not n.within(k, size):
                checks.append(chain(const(0), name(t), const(size)))
        total = _flat_number(base, keys, strides)
        if not checks:
            return total
        return if_else(both(*checks), total, call("_bad_indexes", const(node.name), span))

    def p_VarAt(self, node: n.VarAt, depth: int) -> py.expr:
        at = self.p_Instance(node.at, depth)
        if len(node.at.keys) == 1 and isinstance(at, py.IfExp):  # st.vars[base + k] inside
            at.body = index(state("vars"), at.body)  # the test, as one read
            return at
        return index(state("vars"), at)

    def p_Pile(self, node: n.Pile, depth: int) -> py.expr:
        return index(state("zones"), self.emit(node.zone, depth))

    def p_Item(self, node: n.Item, depth: int) -> py.expr:
        if isinstance(node.seq, n.Table):  # its length known: no len() at each read
            table, size = self.emit(node.seq, depth), len(node.seq.value)
            if n.within(node.key, size):  # `Pip[k]`, k from `1..25`: no check
                return _item_within(table, self.emit(node.key, depth), node.seq.value)
            k = self.host.temp("k")
            ok = chain(const(-size), walrus(k, self.emit(node.key, depth)), const(size))
            return if_else(ok, index(table, name(k)),
                           call("_bad_item", name(k), table, self.place(node.span)))
        if node.in_range:  # the expression found k within the list before (passes.py)
            return index(self.emit(node.seq, depth), self.emit(node.key, depth))
        seq, k = self.host.temp("seq"), self.host.temp("k")
        length = call("len", name(seq))
        ok = chain(py.UnaryOp(py.USub(), call("len", walrus(seq, self.emit(node.seq, depth)))),
                   walrus(k, self.emit(node.key, depth)), length)
        return if_else(ok, index(name(seq), name(k)),
                       call("_bad_item", name(k), name(seq), self.place(node.span)))

    def p_Field(self, node: n.Field, depth: int) -> py.expr:
        stem, values = f"{node.name}_of_{node.of}", node.table
        inner = node.obj
        if isinstance(inner, n.Field) and inner.of == "card" and inner.never_none and \
                node.of != "card":  # `c.rank.value`: the enum's field read per card, at once
            key = (id(node.table), id(inner.table))
            if key not in self.composed:
                self.composed[key] = (node.table, inner.table,
                                      [node.table[v] for v in inner.table])
            values, stem, node = self.composed[key][2], f"{inner.name}_{node.name}_of_card", \
                inner  # (the card's own none check, as reading its field makes it)
        table = name(self.host.named(values, stem))
        if not node.obj.may_be_none:
            read = index(table, self.emit(node.obj, depth))
            if node.never_none:  # (a table that holds no none: never_none reads it)
                read.never_none = True  # type: ignore[attr-defined]
            return read
        again, first = self.operand(node.obj, depth, node.of, twice=True)
        fail = "_none_field" if node.of == "card" else "_none_enum_field"
        return if_else(is_none(first, negated=True), index(table, again),
                       call(fail, const(node.name), self.place(node.span)))

    def p_PieceField(self, node: n.PieceField, depth: int) -> py.expr:
        again, first = self.operand(node.obj, depth, "piece")
        at = py.BinOp(const(node.base), py.Add(), again)
        return if_else(is_none(first, negated=True), index(state("vars"), at),
                       call("_none_field", const(node.name), self.place(node.span),
                            const("piece")))

    # ------------------------------------------------------------------ operators
    def p_Not(self, node: n.Not, depth: int) -> py.expr:
        return py.UnaryOp(py.Not(), self.emit(node.operand, depth))

    def p_Neg(self, node: n.Neg, depth: int) -> py.expr:
        return py.UnaryOp(py.USub(), self.emit(node.operand, depth))

    def p_Logic(self, node: n.Logic, depth: int) -> py.expr:
        op = py.And() if node.op == "and" else py.Or()
        return py.BoolOp(op, [self.emit(node.left, depth), self.emit(node.right, depth)])

    def p_Equal(self, node: n.Equal, depth: int) -> py.expr:
        if isinstance(node.right, n.Const) and node.right.value is None:  # (as nones_dropped
            return is_none(self.emit(node.left, depth), node.op == "!=")  # reads a check)
        return compare(self.emit(node.left, depth), node.op, self.emit(node.right, depth))

    def checked_operands(self, node: Any, depth: int) -> tuple:
        """(left, right, the test that neither is none) for a comparison or arithmetic:
        each computed once, left first; the test None where neither can be none."""
        left, right = node.left, node.right
        if not left.may_be_none and not right.may_be_none:
            return self.emit(left, depth), self.emit(right, depth), None
        x, first_x = self.operand(left, depth)
        y, first_y = self.operand(right, depth)
        tests: list[py.expr] = []
        for node_, again, first in ((left, x, first_x), (right, y, first_y)):
            if node_.may_be_none:
                tests.append(is_none(first, negated=True))
            elif first is not again:  # computed into its temporary, in its turn
                tests.append(either(is_none(first), const(True)))
        return x, y, both(*tests)

    def p_Compare(self, node: n.Compare, depth: int) -> py.expr:
        x, y, test = self.checked_operands(node, depth)
        if test is None:
            return compare(x, node.op, y)
        return if_else(test, compare(x, node.op, y),
                       call("_none_operand", const(node.op), self.place(node.span)))

    def p_Arith(self, node: n.Arith, depth: int) -> Optional[py.expr]:
        if not node.ints:
            return None  # texts: the closure checks the value's kind
        x, y, test = self.checked_operands(node, depth)
        v = self.host.temp("v")
        value = if_else(chain(py.UnaryOp(py.USub(), name("MAX_INT")),
                              walrus(v, py.BinOp(x, _BINOP[node.op](), y)), name("MAX_INT"),
                              "<="),
                        name(v), call("_too_big", self.place(node.span)))
        if test is None:
            return value
        return if_else(test, value,
                       call("_none_operand", const(node.op), self.place(node.span)))

    def p_Divide(self, node: n.Divide, depth: int) -> Optional[py.expr]:
        """None on the right is by zero (R015), as `not y` finds it; none on the left fails
        in the operator itself."""
        if not node.ints:
            return None
        op = _BINOP[node.op]
        right = node.right
        if isinstance(right, n.Const) and right.value:  # never by zero
            return py.BinOp(self.emit(node.left, depth), op(), self.emit(right, depth))
        y = self.host.temp("divisor")
        divisor: py.expr = walrus(y, self.emit(right, depth))
        if isinstance(node.left, n.Const):
            left, test = self.emit(node.left, depth), divisor
        else:
            x = self.host.temp(_temp_stem(node.left, "x"))
            left, test = name(x), both(bound(x, self.emit(node.left, depth)), divisor)
        return if_else(test, py.BinOp(left, op(), name(y)),
                       call("_by_zero", const(node.op), self.place(node.span)))

    def p_Join(self, node: n.Join, depth: int) -> py.expr:
        joined = py.BinOp(call("list", self.emit(node.left, depth)), py.Add(),
                          call("list", self.emit(node.right, depth)))
        check = py.Attribute(self.budget(), "check_list", py.Load())
        return py.Call(check, [joined, self.place(node.span)], [])

    def p_IfElse(self, node: n.IfElse, depth: int) -> py.expr:
        return if_else(self.emit(node.cond, depth), self.emit(node.then, depth),
                       self.emit(node.else_, depth))

    def p_IsKind(self, node: n.IsKind, depth: int) -> py.expr:
        members = name(self.host.named(node.members, f"IS_{node.kind}"))
        if not node.operand.may_be_none:
            of = index(members, self.emit(node.operand, depth))
            return py.UnaryOp(py.Not(), of) if node.negated else of
        again, first = self.operand(node.operand, depth, "card")
        if node.negated:
            return either(is_none(first), py.UnaryOp(py.Not(), index(members, again)))
        return both(is_none(first, negated=True), index(members, again))

    def p_Let(self, node: n.Let, depth: int) -> Optional[py.expr]:
        return None  # a frame's slot set inside an expression: the closure's (definitions
        # write their lets as statements, compile/functions.py)

    def p_Bind(self, node: n.Node, depth: int) -> Optional[py.expr]:
        """`body if (t := value) is None or True ... else None`: the values of a run of
        Binds into their temporaries, in order, then the body over them; the closure's
        where a part that reads them is written as a closure's call (it cannot see them)."""
        first = len(self.closures)
        binds: list = []
        while isinstance(node, n.Bind):
            t = self.temps[id(node.cell)] = self.host.temp()
            binds.append((node.cell, bound(t, self.emit(node.value, depth))))
            node = node.body
        tree = if_else(both(*[test for _, test in binds]), self.emit(node, depth), const(None))
        cells = {id(cell) for cell, _ in binds}
        if any(isinstance(x, n.Temp) and id(x.cell) in cells
               for part in self.closures[first:] for x in n.walk(part)):
            return None
        return tree

    def p_Temp(self, node: n.Temp, depth: int) -> Optional[py.expr]:
        t = self.temps.get(id(node.cell))
        return name(t) if t is not None else None

    def p_ListOf(self, node: n.ListOf, depth: int) -> py.expr:
        return py.List([self.emit(i, depth) for i in node.items], py.Load())

    def p_Range(self, node: n.Range, depth: int) -> py.expr:
        values = _known_values(node)
        if values is not None:  # made once, here
            return call("_known_range", const(values), self.budget(), self.place(node.span))
        return call("_range_list", self.emit(node.start, depth), self.emit(node.stop, depth),
                    self.emit(node.step, depth), self.budget(), self.place(node.span))

    def p_IsIn(self, node: n.IsIn, depth: int) -> py.expr:
        """The element first, then the list, its length spent each time it is searched."""
        x = self.host.temp(_temp_stem(node.element, "x"))
        s = self.host.temp("among")
        spend = py.Call(py.Attribute(self.budget(), "spend", py.Load()),
                        [call("len", walrus(s, self.emit(node.collection, depth))),
                         self.place(node.span)], [])
        test = py.Compare(name(x), [py.NotIn() if node.negated else py.In()], [name(s)])
        return if_else(both(bound(x, self.emit(node.element, depth)), is_none(spend)), test,
                       const(None))

    def budget(self) -> py.expr:
        return name(self.host.named(self.host.b, "BUDGET"))

    # ------------------------------------------------------------------ built-in calls
    def p_Others(self, node: n.Others, depth: int) -> py.expr:
        """As the closure: none fails in the `+` (R001)."""
        again, first = self.operand(node.operand, depth, "seat")
        seats = py.List([py.BinOp(py.BinOp(again, py.Add(), const(i)), py.Mod(),
                                  const(node.seats)) for i in range(1, node.seats)], py.Load())
        if first is again:
            return seats
        return if_else(bound_test(first), seats, const(None))

    def p_NextSeat(self, node: n.NextSeat, depth: int) -> py.expr:
        if not node.operand.may_be_none:
            step_ = py.Add() if node.step > 0 else py.Sub()
            return py.BinOp(py.BinOp(self.emit(node.operand, depth), step_, const(1)),
                            py.Mod(), const(node.seats))
        again, first = self.operand(node.operand, depth, "seat")
        step = py.BinOp(again, py.Add() if node.step > 0 else py.Sub(), const(1))
        value = py.BinOp(step, py.Mod(), const(node.seats))
        return if_else(is_none(first, negated=True), value,
                       call("_none_call", const(node.name), self.place(node.span)))

    def p_Seat(self, node: n.Seat, depth: int) -> py.expr:
        again, first = self.operand(node.operand, depth, "seat")
        return if_else(chain(const(0), first, const(node.seats)), again,
                       call("_no_seat", again, const(node.seats), self.place(node.span)))

    def p_Size(self, node: n.Size, depth: int) -> py.expr:
        return call("len", self.emit(node.of, depth))

    def p_End(self, node: n.End, depth: int) -> py.expr:
        s = self.host.temp("pile")
        return if_else(walrus(s, self.emit(node.pile, depth)),
                       index(name(s), const(node.index)), const(None))

    def p_Run(self, node: n.Run, depth: int) -> Optional[py.expr]:
        """The loop over the cells as a function of its own (a loop is no expression):
        the cells, then E and the variable's values where there is a cell; each cell
        compared in place, with no call."""
        x, s, want, values = name("x"), name("s"), name("want"), name("values")
        cell = index(values, x if not node.base else py.BinOp(const(node.base), py.Add(), x))
        meets = compare(cell, "==" if node.same else "!=", want)
        misses = compare(cell, "!=" if node.same else "==", want)
        gives, found = node.gives, name("out" if node.gives == "cells" else "n")
        loop: list[py.stmt]
        start: list[py.stmt] = []
        end: py.expr = found
        if gives == "any":
            loop, end = [py.If(meets, [py.Return(const(True))], [])], const(False)
        elif gives == "all":
            loop, end = [py.If(misses, [py.Return(const(False))], [])], const(True)
        else:
            step: py.stmt = py.Expr(method(found, "append", x)) if gives == "cells" else \
                py.AugAssign(py.Name(found.id, py.Store()), py.Add(), const(1))
            loop = [py.If(misses, [py.Break()], []), step] if node.prefix else \
                [py.If(meets, [step], [])]
            start = [assign(found, py.List([], py.Load()) if gives == "cells" else const(0))]
        body: list[py.stmt] = start + [
            assign(s, self.emit(node.cells, depth)), py.If(s, [
                assign(want, self.emit(node.want, depth)), assign(values, state("vars")),
                py.For(py.Name("x", py.Store()), s, loop, [])], [])]
        if node.prefix and gives == "count":
            body += self.spent("work", found, node.span)
        body.append(py.Return(end))
        args = lambda_of(const(None)).args
        fn = py.FunctionDef("run", args, body, [], None)
        return self.host.function(fn, node.title, node.span)

    def p_Shown(self, node: n.Shown, depth: int) -> py.expr:
        if not _own_words(node):
            return self.shown(node, self.emit(node.value, depth))
        again, first = self.operand(node.value, depth, node.of, twice=True)
        words = self.shown(node, again)
        assert isinstance(words, py.IfExp)
        words.test = is_none(first)  # the value computed into its temporary first
        return words

    def shown(self, node: n.Shown, x: py.expr) -> py.expr:
        """How the value `x` (read as often as needed) reads, as Shown says: its word from
        the node's table, a seat's name, a number's digits, else the labeller's."""
        if node.names is not None:
            stem = "CARD_LABELS" if node.of == "card" else f"NAMES_{node.of}"
            words: py.expr = index(name(self.host.named(node.names, stem)), x)
        elif node.of == "player":  # as runtime.seats.seat_label writes it
            words = py.BinOp(const("P"), py.Add(), call("str", py.BinOp(x, py.Add(),
                                                                         const(1))))
        elif node.of in ("int", "text"):  # as the labeller writes them
            words = call("str", x)
        else:
            return call(self.host.named(node.labeller, "LABEL"), const(node.of), x, name("st"))
        return if_else(is_none(x), const("none"), words)

    def p_SeatWords(self, node: n.SeatWords, depth: int) -> py.expr:
        """`(full, (what seat 0 reads, ...))`: each hole's words and owners first into
        temporaries, in order (a test that always holds), then the words unrolled by seat;
        the full words past the text limit fail as Budget.check_text says."""
        taken: list[py.expr] = []  # each hole's words, then its owners, into temporaries
        words: dict = {}  # id(hole) -> (its words' temporary, its owners' temporaries)
        for hole in node.parts:
            if isinstance(hole, str):
                continue
            said = self.host.temp("words")
            taken.append(bound(said, self.emit(hole.shown, depth)))
            owners = []
            for owner, others in hole.readers or ():
                o = self.host.temp("owner")
                taken.append(bound(o, self.emit(owner, depth)))
                owners.append((o, others))
            words[id(hole)] = (said, owners)

        def piece(part: Any, seat: Optional[int]) -> py.expr:
            if isinstance(part, str):
                return const(part)
            said, owners = words[id(part)]
            if seat is None or part.readers is None:
                return name(said)
            if not part.readers:
                return const(part.mask)
            may = both(*[compare(name(o), "!=" if others else "==", const(seat))
                         for o, others in owners])
            return if_else(may, name(said), const(part.mask))

        t = self.host.temp("text")
        full = _joined([piece(p, None) for p in node.parts])
        limit = py.Attribute(self.budget(), "text_length", py.Load())
        checked = if_else(compare(call("len", walrus(t, full)), ">", limit),
                          method(self.budget(), "check_text", name(t), self.place(node.span)),
                          name(t))
        by_seat = py.Tuple([_joined([piece(p, seat) for p in node.parts])
                            for seat in range(node.seats)], py.Load())
        return if_else(both(*taken), py.Tuple([checked, by_seat], py.Load()), const(None))

    # ------------------------------------------------------------------ operations
    def statements(self, op: n.Operation) -> list:
        """An operation as Python statements over `st`, `fr` and its locals `L`."""
        return getattr(self, "s_" + type(op).__name__)(op)

    def changed(self, target: py.expr, old: py.expr, op: n.SetLocal | n.SetVar) -> list:
        """`target = old + value` (`- value` for `-=`), the sum checked against the bound
        first."""
        v = py.Name("_v", py.Store())
        total = py.BinOp(old, py.Add() if op.sign > 0 else py.Sub(), self.emit(op.value, 0))
        within = chain(py.UnaryOp(py.USub(), name("MAX_INT")), name("_v"), name("MAX_INT"),
                       "<=")
        return [py.Assign([v], total),
                py.If(py.UnaryOp(py.Not(), within),
                      [py.Expr(call("_too_big", self.place(op.span)))], []),
                py.Assign([target], name("_v"))]

    def s_SetLocal(self, op: n.SetLocal) -> list:
        target = py.Subscript(name("L"), const(op.slot), py.Store())
        if not op.sign:
            return with_memo([py.Assign([target], self.emit(op.value, 0))], op.memo)
        return with_memo(self.changed(target, frame_local(op.slot), op), op.memo)

    def s_SetVar(self, op: n.SetVar) -> list:
        at = self.emit(op.at, 0)
        if isinstance(at, py.Constant):  # `set leader = ...`: the variable's place as it is
            out: list = []
            key: py.expr = at
        else:
            out = [py.Assign([py.Name("_k", py.Store())], at)]
            key = name("_k")
        target = py.Subscript(state("vars"), key, py.Store())
        if not op.sign:
            return with_memo(out + [py.Assign([target], self.emit(op.value, 0))], op.memo)
        return with_memo(out + self.changed(target, index(state("vars"), copy.copy(key)), op),
                         op.memo)

    def s_Return(self, op: n.Return) -> list:
        """Machine.return_from inline for the usual return (this frame on top, not a card
        effect's: nothing to count down); anything else goes through it."""
        frames = name("_F")
        usual = both(py.Compare(index(frames, const(-1)), [py.Is()], [name("fr")]),
                     py.UnaryOp(py.Not(), index(name("fr"), const(3))))
        return [py.Assign([py.Name("_F", py.Store())], state("frames")),
                py.If(usual, [py.Expr(py.Call(py.Attribute(frames, "pop", py.Load()), [], []))],
                      [py.Expr(py.Call(state("return_from"), [name("fr")], []))])]

    def s_Resume(self, op: n.Resume) -> list:
        """In the generated phase, which is handed `chosen` and `seat`: bind the chosen
        option and set `pc` to where the phase goes on (its block is run next)."""
        chosen = name("chosen")
        here = py.Name("pc", py.Store())

        def alternative(slot: Any, tupled: bool, body: int, logged: bool) -> list:
            out: list = []
            if slot is not None:
                value = index(chosen, const(2))
                target = py.Tuple([py.Subscript(name("L"), const(s), py.Store())
                                   for s in slot], py.Store()) if tupled else \
                    py.Subscript(name("L"), const(slot), py.Store())
                out.append(py.Assign([target], value))
            if logged:
                entry = py.Tuple([const("choice"), name("seat"), index(chosen, const(0))],
                                 py.Load())
                out.append(py.Expr(method(state("_events"), "append", entry)))
            return out + [py.Assign([here], const(body))]
        declined = [py.Expr(method(state("_events"), "append", py.Tuple(
            [const("choice"), name("seat"), index(chosen, const(0))], py.Load()))),
            py.Assign([here], const(op.decline))]
        which = name("_a")
        branches = [alternative(*b) for b in op.binds]
        tail = branches[-1]
        for k in range(len(branches) - 2, -1, -1):
            tail = [py.If(compare(which, "==", const(k)), branches[k], tail)]
        if op.optional:
            tail = [py.If(compare(which, "<", const(0)), declined, tail)]
        if len(branches) == 1 and not op.optional:
            return tail
        return [py.Assign([py.Name("_a", py.Store())], index(chosen, const(1)))] + tail

    def s_CallPhase(self, op: n.CallPhase) -> list:
        args = [self.emit(a, 0) for a in op.args]
        return pushed(const(op.proc), args, False, name(self.host.pad(op.proc, len(args))),
                      op.depth_limit)

    def s_Log(self, op: n.Log) -> list:
        entry = py.Tuple([const("text"), self.emit(op.text, 0)], py.Load())
        return [py.Expr(py.Call(py.Attribute(state("_events"), "append", py.Load()), [entry],
                                []))]

    def s_LogBySeat(self, op: n.LogBySeat) -> list:
        """The entry with the words by seat, unless every seat reads the full words."""
        full, said = name("_w"), name("_s")
        every = py.BinOp(py.Tuple([full], py.Load()), py.Mult(), const(op.words.seats))
        entry = if_else(compare(said, "==", every), py.Tuple([const("text"), full], py.Load()),
                        py.Tuple([const("text"), full, said], py.Load()))
        return [unpack(("_w", "_s"), self.emit(op.words, 0)),
                py.Expr(method(state("_events"), "append", entry))]

    def s_Finish(self, op: n.Finish) -> list:
        finish = py.Attribute(name("st"), "finish", py.Load())
        if op.who is None:
            return [py.Expr(py.Call(finish, [py.List([], py.Load())], []))]
        who = self.emit(op.who, 0)
        if op.one and not op.who.may_be_none:
            return [py.Expr(py.Call(finish, [py.List([who], py.Load())], []))]
        w = name("_w")
        winners = py.List([w], py.Load()) if op.one else call("list", w)
        return [assign(w, who),
                py.Expr(py.Call(finish, [if_else(is_none(w), py.List([], py.Load()),
                                                 winners)], []))]

    # ------------------------------------------------------------------ loops
    def s_EachStart(self, op: n.EachStart) -> list:
        items = self.emit(op.items, 0)
        return [assign(frame_local(op.seq),
                       items if n.makes_a_new_list(op.items) else call("list", items)),
                assign(frame_local(op.at), const(0))] + \
            ([assign(state("memo"), py.Dict([], []))] if op.memo else [])

    def s_EachStep(self, op: n.EachStep) -> list:
        """The next element that meets the condition, or the loop's end (ExitIf)."""
        seq, i, slot = name("_seq"), name("_i"), frame_local(op.slot)
        out: list = [assign(seq, frame_local(op.seq)), assign(i, frame_local(op.at))]
        length = call("len", seq)
        ended = [assign(state("memo"), const(None))] if op.memo else []
        if op.where is None:  # the position is never past the end: no need to write it
            return out + [ExitIf(compare(i, ">=", length), ended, op.end),
                          assign(slot, index(seq, i)),
                          assign(frame_local(op.at), py.BinOp(i, py.Add(), const(1)))]
        search = py.While(compare(i, "<", length), [
            assign(slot, index(seq, i)),
            py.AugAssign(py.Name("_i", py.Store()), py.Add(), const(1)),
            py.If(self.emit(op.where, 0), [py.Break()], [])],
            [assign(i, const(-1))])
        return out + [search,
                      ExitIf(compare(i, "<", const(0)),
                             [assign(frame_local(op.at), length)] + ended, op.end),
                      assign(frame_local(op.at), i)]

    def s_TurnsStart(self, op: n.TurnsStart) -> list:
        cur = frame_local(op.cur)
        if not op.start.may_be_none:
            return [assign(cur, self.emit(op.start, 0))]
        first = name("_first")
        return [assign(first, self.emit(op.start, 0)),
                py.If(is_none(first), [py.Expr(call("_turns_from_none",
                                                    self.place(op.span)))], []),
                assign(cur, first)]

    def s_TurnsStep(self, op: n.TurnsStep) -> list:
        """The turns end where `until` holds; else the next seat not skipped, or the end
        where every seat is (ExitIf)."""
        slot, cur, seats = frame_local(op.slot), frame_local(op.cur), const(op.seats)
        out: list = []
        if op.until is not None:
            out.append(ExitIf(self.emit(op.until, 0), [], op.end))
        if op.skip is None:
            return out + [assign(slot, cur),
                          assign(cur, py.BinOp(py.BinOp(slot, py.Add(), const(1)), py.Mod(),
                                               seats))]
        c, found = name("_c"), name("_n")
        search = py.For(py.Name("_k", py.Store()), call("range", seats), [
            assign(slot, py.BinOp(py.BinOp(c, py.Add(), name("_k")), py.Mod(), seats)),
            py.If(py.UnaryOp(py.Not(), self.emit(op.skip, 0)),
                  [assign(found, slot), py.Break()], [])], [])
        return out + [assign(c, cur), assign(found, const(-1)), search,
                      ExitIf(compare(found, "<", const(0)), [], op.end),
                      assign(cur, py.BinOp(py.BinOp(found, py.Add(), const(1)), py.Mod(),
                                           seats))]

    # ------------------------------------------------------------------ moving cards
    def moves_spent(self, amount: py.expr, span: Any) -> list:
        """`amount` card moves taken from the budget (Budget.move: past zero, R006)."""
        return self.spent("moves", amount, span)

    def spent(self, counter: str, amount: py.expr, span: Any) -> list:
        """`amount` taken from the budget's counter ("work" or "moves") inline: Budget.spend
        and Budget.move are the rule (past zero they fail with R005 / R006), called with 0
        on that path only, so the message stays theirs."""
        return spent(self.budget(), counter, amount, self.place(span))

    def s_MoveCards(self, op: n.MoveCards) -> list:
        moved = getattr(self, "move_" + op.shape)(op)
        if not op.openly:
            return moved
        assert op.shape == "general"  # the cards moved are `_c`, shown where they lie now
        rest = name("_shown")
        return moved + [
            assign(rest, if_else(py.Compare(py.Attribute(state("prog"), "pieces", py.Load()),
                                            [py.IsNot()], [const(None)]),
                                 call("_reveal_pieces", name("st"), name("_c"), const(None)),
                                 name("_c"))),
            py.If(rest, [py.Expr(method(name("st"), "reveal", rest))], [])]

    def cards(self, op: n.MoveCards) -> py.expr:
        """A fresh list of the cards a move moves (Interpreter.cards)."""
        value = self.emit(op.what, 0)
        if not op.one:  # a hidden pile's order may travel (Interpreter.cards)
            pile = isinstance(op.what, n.Pile) and not op.openly
            return call("_pile_cards" if pile else "list", value)
        if not op.what.may_be_none:
            return py.List([value], py.Load())
        c = self.host.temp("card")
        return if_else(is_none(walrus(c, value)), py.List([], py.Load()),
                       py.List([name(c)], py.Load()))

    def move_general(self, op: n.MoveCards) -> list:
        """State.move_cards, the cost of one card (moves_cost's first branch) inline."""
        c = name("_c")
        one = self.card_cost(op, index(c, const(0)))
        cost = if_else(compare(call("len", c), "==", const(1)), one,
                       call("moves_cost", name("st"), c))
        moved = method(name("st"), "move_cards", c, self.emit(op.to, 0), const(op.bottom))
        return [assign(c, self.cards(op)), *self.words(op, call("len", c)),
                *self.moves_spent(cost, op.span), py.Expr(with_words(moved, op))]

    def card_cost(self, op: n.MoveCards, card: py.expr) -> py.expr:
        """What moving one card costs (moves_cost's first branch): 1, plus a thousandth of
        the pile it leaves, which no pile reaches where the game has fewer cards."""
        if op.short_piles:
            return const(1)
        return py.BinOp(const(1), py.Add(), py.BinOp(
            call("len", index(state("zones"), index(state("loc"), card))), py.FloorDiv(),
            const(1000)))

    def words(self, op: n.MoveCards, count: py.expr) -> list:
        """`_w = ...`, the words of a worded move (of `count` cards), as State.move_cards
        takes them; nothing for a move without words."""
        if op.words is None:
            return []
        if op.later is not None:  # written when the log is read: one value (words_of)
            return [assign(name("_w"), self.emit(op.later, 0))]
        assert op.masked is not None
        if isinstance(count, py.Constant):
            told: py.expr = const("a card")
        else:  # runtime/cards.py's told, inline
            told = if_else(compare(count, "==", const(1)), const("a card"),
                           py.BinOp(call("str", clone(count)), py.Add(),
                                    const(" cards")))
        masked = method(self.emit(op.masked, 0), "replace", const(MASK), told)
        return [assign(name("_w"), py.Tuple([self.emit(op.words, 0), masked], py.Load()))]

    def move_card(self, op: n.MoveCards) -> list:
        """One card as State.move_cards moves it (runtime/cards.py's move_card, the log
        entry here); State.move_cards itself while a card effect runs."""
        c, zone_left = name("_c"), name("_f")
        out: list = [assign(c, self.emit(op.what, 0)), *self.words(op, const(1))]
        spend = self.moves_spent(self.card_cost(op, c), op.span)
        dest = self.emit(op.to, 0)
        known = isinstance(op.to, n.Const)
        if not known:  # a family's zone: found after the card and its cost
            out += [py.If(is_none(c, negated=True), spend, [])] if op.what.may_be_none else \
                spend
            out.append(assign(name("_d"), dest))
            dest = name("_d")
        later = [name("_w")] if op.later is not None else []  # in the entry as one value
        entry: py.expr = py.Tuple([const("move"), py.Tuple([c], py.Load()), zone_left, dest,
                                   *later], py.Load())
        if op.words is not None and not later:
            entry = py.BinOp(entry, py.Add(), name("_w"))
        moved = [assign(zone_left, call("_move_card", state("zones"), state("loc"), c, dest,
                                        const(op.unordered))),
                 py.If(compare(zone_left, "!=", dest),
                       [py.Expr(method(state("_events"), "append", entry))], [])]
        in_effect = py.If(state("effect_depth"), [py.Expr(with_words(method(
            name("st"), "move_cards", py.List([c], py.Load()), dest, const(False)), op))], moved)
        if known:  # nothing to compute between the cost and the move
            moving = spend + [in_effect]
            return out + ([py.If(is_none(c, negated=True), moving, [])]
                          if op.what.may_be_none else moving)
        if not op.what.may_be_none:
            return out + [in_effect]
        return out + [py.If(is_none(c), [py.Pass()], [in_effect])]

    def move_all(self, op: n.MoveCards) -> list:
        """Every card into one zone: State.move_all_cards, at the same cost."""
        every = self.moves_spent(method(name("st"), "all_cards_cost"), op.span) + [
            py.Expr(method(name("st"), "move_all_cards", self.emit(op.to, 0)))]
        return [py.If(py.UnaryOp(py.Not(), state("effect_depth")), every,
                      self.move_general(op))]

    def move_pile(self, op: n.MoveCards) -> list:
        """A zone's cards onto a zone that keeps them in order (the trick to the won pile)
        as State.move_cards moves them, at the same cost, charged first, the destination
        read after; State.move_cards while a card effect runs or onto itself."""
        k, z, count, d = name("_k"), name("_z"), name("_n"), name("_d")
        assert isinstance(op.what, n.Pile)
        cost = py.BinOp(count, py.Add(), py.BinOp(py.BinOp(count, py.Mult(), count),
                                                   py.FloorDiv(), const(1000)))
        moved = [py.Expr(method(index(state("zones"), d), "extend", z)),
                 py.For(py.Name("_c", py.Store()), z,
                        [assign(index(state("loc"), name("_c")), d)], []),
                 py.Expr(method(state("_events"), "append", py.Tuple(
                     [const("move"), call("tuple", z), k, d], py.Load()))),
                 py.Expr(method(z, "clear"))]
        # a hidden pile (engine/state/piles.py) is State.move_cards's: its order may travel
        itself = either(compare(k, "==", d), state("effect_depth"),
                        py.Compare(call("type", z), [py.IsNot()], [name("list")]))
        return [assign(k, self.emit(op.what.zone, 0)), assign(z, index(state("zones"), k)),
                assign(count, call("len", z)), *self.moves_spent(cost, op.span),
                assign(d, self.emit(op.to, 0)),
                py.If(itself, [py.Expr(method(name("st"), "move_cards", call("_pile_cards", z),
                                              d, const(False)))],
                      [py.If(count, moved, [])])]

    def s_MoveBySeat(self, op: n.MoveBySeat) -> list:
        """The cards, MASK's words for them, the words, the masked words, then the
        destination, as Interpreter.o_MoveBySeat reads them."""
        c, said, hid, hid_by_seat = name("_c"), name("_t"), name("_h"), name("_hs")
        count = call("len", c)
        told = if_else(compare(count, "==", const(1)), const("a card"),
                       py.BinOp(call("str", clone(count)), py.Add(), const(" cards")))
        masked = self.emit(op.masked, 0)
        out = [assign(c, self.emit(op.what, 0)), assign(said, told),
               unpack(("_w", "_ws"), self.emit(op.words, 0))]
        if isinstance(op.masked, n.SeatWords):
            out.append(unpack(("_h", "_hs"), masked))
            hidden_by_seat: py.expr = py.Tuple([
                method(index(hid_by_seat, const(k)), "replace", const(MASK), said)
                for k in range(op.words.seats)], py.Load())
        else:
            out.append(assign(hid, masked))
            hidden_by_seat = py.BinOp(py.Tuple([method(hid, "replace", const(MASK), said)],
                                               py.Load()), py.Mult(), const(op.words.seats))
        words = py.Tuple([name("_w"), method(hid, "replace", const(MASK), said), name("_ws"),
                          hidden_by_seat], py.Load())
        move = method(name("st"), "move_cards", c, self.emit(op.to, 0), const(op.bottom))
        move.keywords.append(py.keyword("words", words))
        return out + [py.Expr(move)]

    def s_Shuffle(self, op: n.Shuffle) -> list:
        z = name("_z")
        return [assign(z, self.emit(op.zone, 0)),
                *self.moves_spent(call("len", index(state("zones"), z)), op.span),
                py.Expr(method(name("st"), "shuffle", z))]

    def s_Deal(self, op: n.Deal) -> list:
        """The count, the first seat, then the source (as the closure reads them)."""
        k, first, z = name("_n"), name("_first"), name("_z")
        return [assign(k, self.emit(op.count, 0) if op.count is not None else const(None)),
                assign(first, self.emit(op.start, 0) if op.start is not None else const(0)),
                assign(z, self.emit(op.source, 0)),
                *self.moves_spent(call("len", index(state("zones"), z)), op.span),
                py.Expr(method(name("st"), "deal", z, const(op.family), k, first))]

    def s_Swap(self, op: n.Swap) -> list:
        return [py.Expr(method(name("st"), "swap", self.emit(op.a, 0), self.emit(op.b, 0)))]

    # ------------------------------------------------------------------ playing a card
    def s_Play(self, op: n.Play) -> list:
        """The card and its player checked and kept, the play logged, the card moved
        without an entry of its own (as `move_card` does where the shape allows)."""
        c, p, L = name("_c"), name("_p"), name("L")
        slots = py.Tuple([py.Subscript(L, const(k), py.Store())
                          for k in (op.card_slot, op.by_slot, op.cancelled)], py.Store())
        out = [assign(c, self.emit(op.card, 0)), assign(p, self.emit(op.by, 0)),
               py.If(either(is_none(c), is_none(p)),
                     [py.Expr(call("_no_play", self.place(op.span)))], []),
               py.Assign([slots], py.Tuple([c, p, const(False)], py.Load())),
               py.Expr(method(state("_events"), "append",
                              py.Tuple([const("play"), p, c], py.Load())))]
        dest = self.emit(op.to, 0)
        if op.shape != "card":
            return out + [py.Expr(unlogged(dest))]
        d = name("_d")
        moved = assign(name("_f"), call("_move_card", state("zones"), state("loc"), c, d,
                                        const(op.unordered)))
        return out + [assign(d, dest),
                      py.If(state("effect_depth"), [py.Expr(unlogged(d))], [moved])]

    def played(self, op: Any) -> list:
        """The played card and its player, as a call's arguments."""
        return [frame_local(op.card_slot), frame_local(op.by_slot)]

    def s_CallResponse(self, op: n.CallResponse) -> list:
        call_it = pushed(const(op.proc), self.played(op), False,
                         name(self.host.pad(op.proc, 2)), op.depth_limit)
        if op.cancelled is None:
            return call_it
        kind = index(name(self.host.named(op.kind_of, "KIND_OF")), frame_local(op.card_slot))
        defers = index(name(self.host.named(op.defers, "RESPONDS_IN_EFFECT")), kind)
        return [py.If(both(py.UnaryOp(py.Not(), frame_local(op.cancelled)),
                           py.UnaryOp(py.Not(), defers)), call_it, [])]

    def cancelled(self, op: Any, then: list) -> list:
        """Where the response cancelled the card: the flag cleared, the log told, `then`."""
        flag = py.Attribute(name("st"), "cancelled", py.Store())
        told = py.Expr(method(state("_events"), "append", py.Tuple(
            [const("cancelled"), frame_local(op.card_slot)], py.Load())))
        return [py.If(state("cancelled"), then + [py.Assign([flag], const(False)), told], [])]

    def s_Cancelled(self, op: n.Cancelled) -> list:
        return self.cancelled(op, [assign(frame_local(op.cancelled), const(True))])

    def s_StopIfCancelled(self, op: n.StopIfCancelled) -> list:
        out = self.cancelled(op, [])
        out[0].body.append(py.Expr(method(name("st"), "return_from", name("fr"))))
        return out

    def s_CallEffect(self, op: n.CallEffect) -> list:
        k = name("_k")
        kind = index(name(self.host.named(op.kind_of, "KIND_OF")), frame_local(op.card_slot))
        effect = index(name(self.host.named(op.on_play, "ON_PLAY")), kind)
        pads = index(name(self.host.pad(None, 2)), k)
        call_it = pushed(k, self.played(op), True, pads, op.depth_limit)
        return [py.If(py.UnaryOp(py.Not(), frame_local(op.cancelled)),
                      [assign(k, effect), py.If(is_none(k, negated=True), call_it, [])], [])]

    def s_NameChosen(self, op: n.NameChosen) -> list:
        out: list = []
        c = name("_c")
        for who, slot in op.chosen:
            entry = py.Tuple([const("named"), self.emit(who, 0), c,
                              index(state("loc"), c)], py.Load())
            out += [assign(c, frame_local(slot)),
                    py.If(is_none(c, negated=True),
                          [py.Expr(method(state("_events"), "append", entry))], [])]
        return out

def _known_values(node: n.Range) -> Optional[tuple]:
    """The values of a range of a few numbers whose bounds are constants, else None (a
    step of 0 fails where the range is made, as range_list says)."""
    bounds = [v for v in map(_constant_int, (node.start, node.stop, node.step))
              if v is not None]
    if len(bounds) < 3 or bounds[2] == 0 or (bounds[1] - bounds[0]) // bounds[2] >= 64:
        return None
    start, stop, step = bounds
    return tuple(range(start, stop + 1, step) if step > 0 else range(start, stop - 1, step))


def _constant_int(node: n.Node) -> Optional[int]:
    """The number a constant (`3`) or a negated one (`-1`) is, else None."""
    if isinstance(node, n.Neg):
        inner = _constant_int(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, n.Const) and type(node.value) is int else None


def _flat_number(base: int, keys: list, strides: list) -> py.expr:
    """base + key * stride + ..., over the keys (temporaries' names, or trees): no `0 +`,
    no `* 1`."""
    keys = [name(k) if isinstance(k, str) else k for k in keys]
    terms: list = [k if stride == 1 else py.BinOp(k, py.Mult(), const(stride))
                   for k, stride in zip(keys, strides)]
    if base or not terms:
        terms.insert(0, const(base))
    total = terms[0]
    for term in terms[1:]:
        total = py.BinOp(total, py.Add(), term)
    return total


def pushed(proc: py.expr, args: list, effect: bool, pad: py.expr, depth_limit: int) -> list:
    """Machine.call inline: the frame of `proc` (a card effect's where `effect`) with its
    locals, `args` padded to the procedure's slots by `pad` (too deep: Machine.call says
    so)."""
    def values() -> py.List:
        return py.List([clone(v) for v in args], py.Load())
    frames = name("_F")
    frame = py.List([proc, const(0), py.BinOp(values(), py.Add(), pad), const(int(effect))],
                    py.Load())
    out = [assign(frames, state("frames")),
           py.If(compare(call("len", frames), ">=", const(depth_limit)),
                 [py.Expr(method(name("st"), "call", clone(proc), values(),
                                 const(effect)))], []),
           py.Expr(method(frames, "append", frame))]
    if effect:
        out.append(py.AugAssign(py.Attribute(name("st"), "effect_depth", py.Store()), py.Add(),
                                const(1)))
    return out

def with_words(move: py.Call, op: n.MoveCards) -> py.Call:
    """State.move_cards's call `move`, with the move's words where it has words."""
    if op.words is not None:
        move.keywords.append(py.keyword("words", words_of(op)))
    return move


def words_of(op: n.MoveCards) -> py.expr:
    """The words of a worded move as State.move_cards takes them: `_w`, or where the words
    are written when the log is read, the one value `_w` in a tuple."""
    return py.Tuple([name("_w")], py.Load()) if op.later is not None else name("_w")


def unlogged(dest: py.expr) -> py.Call:
    """State.move_cards of card `_c` onto `dest`, with no entry in the log."""
    return py.Call(py.Attribute(name("st"), "move_cards", py.Load()),
                   [py.List([name("_c")], py.Load()), dest, const(False)],
                   [py.keyword("log", const(False))])


def _own_words(node: n.Shown) -> bool:
    """Does the Python back end write the words itself (not the labeller)?"""
    return node.names is not None or node.of in ("player", "int", "text")


def _joined(pieces: list) -> py.expr:
    """Texts one after the other: `a + b + c` (one alone: itself)."""
    total = pieces[0]
    for piece in pieces[1:]:
        total = py.BinOp(total, py.Add(), piece)
    return total


def unpack(targets: tuple, value: py.expr) -> py.Assign:
    """`a, b = value`."""
    return py.Assign([py.Tuple([py.Name(t, py.Store()) for t in targets], py.Store())], value)


def method(obj: py.expr, attr: str, *args: py.expr) -> py.Call:
    """`obj.attr(args)`."""
    return py.Call(py.Attribute(obj, attr, py.Load()), list(args), [])


def _temp_stem(node: n.Node, default: str) -> str:
    return n.leaf_name(node) or default


class _NamedReads(py.NodeTransformer):
    """Each read of a frame slot (`L[k]`) or of a variable (`st.vars[k]`) in an
    expression as the name the rules give it."""

    def __init__(self, names: dict):
        self.names = names  # ("L" or "vars", k) -> name

    def visit_Subscript(self, node: py.Subscript) -> py.expr:
        key = _read_key(node)
        if key is not None and key in self.names:
            read = self.names[key]
            return name(read) if isinstance(read, str) else clone(read)
        self.generic_visit(node)
        return node


def _read_key(node: py.Subscript) -> Optional[tuple]:
    """("L", k) for `L[k]`, ("vars", k) for `st.vars[k]`, else None."""
    if not (isinstance(node.slice, py.Constant) and type(node.slice.value) is int):
        return None
    value = node.value
    if isinstance(value, py.Name) and value.id == "L":
        return ("L", node.slice.value)
    if isinstance(value, py.Attribute) and value.attr == "vars" and \
            isinstance(value.value, py.Name) and value.value.id == "st":
        return ("vars", node.slice.value)
    return None


def read_again(tree: py.expr) -> bool:
    """Is `tree` read again as cheaply as a temporary, with the same value whenever an
    expression reads it (a constant, a slot of the frame: an expression writes none it
    reads)? An argument such as this is written where a definition inlined reads it."""
    if isinstance(tree, py.Constant):
        return True
    key = _read_key(tree) if isinstance(tree, py.Subscript) else None
    return key is not None and key[0] == "L"


def slot_reads(trees: list) -> dict:
    """How often the trees read each slot of the frame (`L[k]`): slot -> reads."""
    counts: dict = {}
    for tree in trees:
        for node in walk(tree):
            key = _read_key(node) if isinstance(node, py.Subscript) else None
            if key is not None and key[0] == "L":
                counts[key[1]] = counts.get(key[1], 0) + 1
    return counts


def frame_slots(tree: py.expr) -> Optional[set]:
    """The slots of the frame `tree` reads (`L[k]`), or None where it reaches the frame
    otherwise (hands `L` to a closure, reads a slot it computes)."""
    slots, others = set(), 0
    for node in walk(tree):
        if isinstance(node, py.Name) and node.id == "L":
            others += 1
        elif isinstance(node, py.Subscript):
            key = _read_key(node)
            if key is not None and key[0] == "L":
                slots.add(key[1])
                others -= 1  # its `L` is this read's
    return slots if others == 0 else None


def frame_handed(tree: py.expr) -> bool:
    """Does `tree` hand the frame `L` itself to a function (a closure, a generated loop),
    beside reading its slots?"""
    return frame_slots(tree) is None


def with_frame(tree: py.expr, frame: py.expr) -> py.expr:
    """A copy of `tree` with the frame `L` it hands to functions (not its reads of a slot,
    `L[k]`) replaced by the tree `frame` (a fresh list, made where each such call is)."""
    class _Frame(py.NodeTransformer):
        def visit_Subscript(self, node: py.Subscript) -> py.expr:
            key = _read_key(node)
            if key is not None and key[0] == "L":
                return node
            self.generic_visit(node)
            return node

        def visit_Name(self, node: py.Name) -> py.expr:
            return clone(frame) if node.id == "L" else node
    return _Frame().visit(clone(tree))


def spent(budget: py.expr, counter: str, amount: py.expr, place: py.expr) -> list:
    """`amount` taken from the budget's counter ("work" or "moves") inline, as statements:
    Budget.spend and Budget.move are the rule (past zero they fail with R005 / R006),
    called with 0 on that path only, so the message stays theirs."""
    left = py.Attribute(budget, counter, py.Load())
    rule = "spend" if counter == "work" else "move"
    return [py.AugAssign(py.Attribute(clone(budget), counter, py.Store()), py.Sub(),
                         amount),
            py.If(compare(left, "<", const(0)),
                  [py.Expr(method(clone(budget), rule, const(0), place))], [])]


def renamed(statements: list, fresh: Callable[[], str], keep: set) -> list:
    """Copies of `statements` (a function's body written inside another) with each name
    they store into, but those in `keep`, renamed to a `fresh()` one throughout."""
    stored = {node.id for st in statements for node in walk(st)
              if isinstance(node, py.Name) and isinstance(node.ctx, py.Store)} - keep
    new = {old: fresh() for old in sorted(stored)}

    class _Renamed(py.NodeTransformer):
        def visit_Name(self, node: py.Name) -> py.Name:
            return py.Name(new[node.id], node.ctx) if node.id in new else node
    return [_Renamed().visit(clone(st)) for st in statements]


def spend_one(budget: py.expr, place: py.expr) -> py.expr:
    """One unit of work taken from the budget inline, as an expression whose value is
    true (`setattr(B, "work", B.work - 1) or B.work >= 0 or B.spend(0, place)`): the
    statements `spent` writes, for a definition's call written where it is called.
    Budget.spend is the rule, called with 0 only where the counter went below zero."""
    left = py.Attribute(budget, "work", py.Load())
    return either(call("setattr", clone(budget), const("work"),
                       py.BinOp(clone(left), py.Sub(), const(1))),
                  compare(clone(left), ">=", const(0)),
                  method(clone(budget), "spend", const(0), place))


# the helpers of generated code that fail with a rules error, never giving a value
RAISING = ("_none_", "_bad_", "_too_big", "_grid_none")


def never_none(tree: py.expr) -> bool:
    """Is the value of `tree`, a generated expression, never none? A constant other than
    none, a comparison, a `not`, arithmetic (its operands are checked before, a result too
    big fails), a choice between such values, or where its other branch fails (an error
    helper); a local it binds to such a value. Anything else may be none."""
    bound: dict = {}
    for node in walk(tree):
        if isinstance(node, py.NamedExpr):
            bound.setdefault(node.target.id, []).append(node.value)

    def never(t: py.expr, depth: int) -> bool:
        if depth > 50:
            return False
        if getattr(t, "never_none", False):  # a table of numbers (read_per_card)
            return True
        if isinstance(t, py.Constant):
            return t.value is not None
        if isinstance(t, (py.Compare, py.BinOp)) or \
                isinstance(t, py.UnaryOp) and isinstance(t.op, py.Not):
            return True
        if isinstance(t, py.NamedExpr):
            return never(t.value, depth + 1)
        if isinstance(t, py.Name):
            values = bound.get(t.id, [])
            return bool(values) and all(never(v, depth + 1) for v in values)
        if isinstance(t, py.IfExp):
            fails = isinstance(t.orelse, py.Call) and isinstance(t.orelse.func, py.Name) \
                and t.orelse.func.id.startswith(RAISING)
            return never(t.body, depth + 1) and (fails or never(t.orelse, depth + 1))
        return False
    return never(tree, 0)


def cards_read(value: py.expr, ns: dict) -> Optional[int]:
    """How many cards there are, where `value`, a simple definition's over its one
    parameter, a card (slot 0 of its frame), reads nothing but that card's fields (tables
    of `ns` read at it, constants; error helpers only where the card is none): its value
    is the card's own, one per card id. Else None."""
    size = None
    bound = {node.target.id for node in walk(value) if isinstance(node, py.NamedExpr)}
    for node in walk(value):
        if isinstance(node, py.Name):
            if node.id == "L" or node.id in bound or node.id.startswith(RAISING):
                continue
            obj = ns.get(node.id, ns)
            if obj is ns or callable(obj):
                return None  # a local, the state, a closure: not the card's alone
            if isinstance(obj, (list, tuple)) and node.id.endswith("_OF_CARD"):
                size = len(obj)
        elif isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and \
                node.value.id == "L" and _read_key(node) != ("L", 0):
            return None
        elif isinstance(node, py.Call) and not (isinstance(node.func, py.Name) and
                                                node.func.id.startswith(RAISING)):
            return None
        elif isinstance(node, (py.Lambda, py.ListComp, py.GeneratorExp, py.Attribute)):
            return None
    return size


def read_per_card(table: str, value: py.expr) -> py.expr:
    """`value` (over a card, slot 0) read from its table (`cards_read`), the card's none
    check first: `T[L[0]] if L[0] is not None else value` (which then fails as before)."""
    read = index(name(table), frame_local(0))
    read.never_none = True  # type: ignore[attr-defined]  # (never_none reads it)
    return if_else(is_none(frame_local(0), negated=True), read, value)


def spend_one_place(tree: py.expr) -> Optional[py.expr]:
    """The place of the unit of work `tree` spends, where `tree` is `spend_one`'s."""
    if isinstance(tree, py.BoolOp) and isinstance(tree.op, py.Or) and len(tree.values) == 3:
        first, _, last = tree.values
        if isinstance(first, py.Call) and isinstance(first.func, py.Name) and \
                first.func.id == "setattr" and len(first.args) == 3 and \
                isinstance(first.args[1], py.Constant) and first.args[1].value == "work" and \
                isinstance(last, py.Call) and isinstance(last.func, py.Attribute) and \
                last.func.attr == "spend" and len(last.args) == 2:
            return last.args[1]
    return None


def cannot_fail(tree: py.expr, late: set, card: Optional[int] = None) -> bool:
    """Can `tree` neither fail nor change anything, whatever the state, and be worked out
    again before the expression it is part of (no name in `late`, those that expression
    binds)? Only reads of a state's or frame's list at a constant index (a place the
    compiler laid out), `len`, and tests of equality and truth over them; where slot `card`
    of the frame holds a zone's card (a loop's candidate, never none), also a card table
    read at it and its none check (`T[L[k]] if L[k] is not None else _none_field(...)`)."""
    def ok(t: py.expr) -> bool:
        return cannot_fail(t, late, card)
    if isinstance(tree, py.Constant):
        return True
    if isinstance(tree, py.Name):
        return tree.id not in late and not tree.id.startswith("BUDGET")
    if isinstance(tree, py.Attribute):
        return isinstance(tree.value, py.Name) and tree.value.id == "st" and \
            tree.attr in ("zones", "vars", "loc")
    if isinstance(tree, py.Subscript):
        if card is not None and _read_key_of(tree.slice) == ("L", card) and \
                isinstance(tree.value, py.Name) and \
                (tree.value.id.endswith("_OF_CARD") or tree.value.id.startswith("IS_")):
            return True  # a card table, at a card
        return isinstance(tree.slice, py.Constant) and type(tree.slice.value) is int and \
            (_read_key(tree) is not None or isinstance(tree.value, py.Attribute)) and \
            ok(tree.value)
    if isinstance(tree, py.Call):
        return isinstance(tree.func, py.Name) and tree.func.id == "len" and \
            len(tree.args) == 1 and not tree.keywords and ok(tree.args[0])
    if isinstance(tree, py.Compare):
        return all(isinstance(op, (py.Eq, py.NotEq, py.Is, py.IsNot)) for op in tree.ops) \
            and all(ok(x) for x in [tree.left, *tree.comparators])
    if isinstance(tree, py.BoolOp):
        return all(ok(x) for x in tree.values)
    if isinstance(tree, py.UnaryOp):
        return isinstance(tree.op, py.Not) and ok(tree.operand)
    if isinstance(tree, py.IfExp):
        if card is not None and isinstance(tree.test, py.Compare) and \
                isinstance(tree.test.ops[0], py.IsNot) and \
                _read_key_of(tree.test.left) == ("L", card):
            return ok(tree.body)  # never none: the failing branch is never taken
        return all(ok(x) for x in (tree.test, tree.body, tree.orelse))
    if isinstance(tree, py.NamedExpr):  # bound again to the same value: no harm
        return ok(tree.value)
    return False


def _read_key_of(tree: py.expr) -> Optional[tuple]:
    return _read_key(tree) if isinstance(tree, py.Subscript) else None


def _always_true(test: py.expr) -> bool:
    """Is `test` the form `(t := a) is None or True` a value is bound by, always true?"""
    return isinstance(test, py.BoolOp) and isinstance(test.op, py.Or) and \
        isinstance(test.values[-1], py.Constant) and test.values[-1].value is True


def spends_first(tree: py.expr) -> tuple:
    """(places, rest): the units of work `tree` always spends before anything else it does
    that could fail or change the state (each a `spend_one` of a definition written where
    it is called, under tests that cannot), and `tree` without them: a value whose units
    a caller takes at once. A place that depends on a branch is a test choosing it."""
    places: list = []
    late = {node.target.id for node in walk(tree) if isinstance(node, py.NamedExpr)}
    while (one := _spends_one_first(tree, late)) is not None:
        place, tree = one
        places.append(place)
    return places, tree


def _spends_one_first(tree: py.expr, late: set) -> Optional[tuple]:
    """(place, rest) of the first unit of work `tree` always spends first, else None."""
    if not isinstance(tree, py.IfExp):
        return None
    if isinstance(tree.orelse, py.Constant) and tree.orelse.value is None:
        place = spend_one_place(tree.test)
        if place is not None:
            return place, tree.body
    if not cannot_fail(tree.test, late):
        return None
    yes = _spends_one_first(tree.body, late)
    if yes is not None and _always_true(tree.test):  # an argument bound: `(t := a) is None or True`
        return yes[0], if_else(tree.test, yes[1], tree.orelse)
    no = _spends_one_first(tree.orelse, late)
    if yes is None or no is None:
        return None
    return (if_else(clone(tree.test), yes[0], no[0]),
            if_else(tree.test, yes[1], no[1]))


def spent_in_turn(budget: py.expr, places: list) -> list:
    """A unit of work per place taken from the budget at once, as statements: past zero,
    each given back and spent again one at a time by Budget.spend, so that the place named
    is the one where the unit that went past zero was spent, as if spent one by one."""
    if len(places) == 1:
        return spent(budget, "work", const(1), places[0])
    n = const(len(places))
    counter = lambda: py.Attribute(clone(budget), "work", py.Store())  # noqa: E731
    again: list[py.stmt] = [py.AugAssign(counter(), py.Add(), clone(n))]
    again += [py.Expr(method(clone(budget), "spend", const(1), place))
              for place in places]
    return [py.AugAssign(counter(), py.Sub(), n),
            py.If(compare(py.Attribute(clone(budget), "work", py.Load()), "<",
                          const(0)), again, [])]


def size_of(trees: list) -> int:
    """How many nodes the trees hold."""
    return sum(1 for tree in trees for _ in walk(tree))


def with_locals(tree: py.expr, names: dict) -> py.expr:
    """A copy of `tree` reading slot k of the frame as the name `names[k]` (or as the
    tree `names[k]`, written again at each read)."""
    return _NamedReads({("L", k): local for k, local in names.items()}).visit(
        clone(tree))


def identifier_part(stem: str) -> str:
    """`stem` with every character but ASCII letters, digits and `_` made `_`: a part
    of a name in generated code, whatever the rules named."""
    return "".join(ch if ch.isalnum() and ch.isascii() else "_" for ch in stem)


def identifier(name: str) -> str:
    """A rules' name as a Python name of its own (the rules' names mostly are one
    already; a keyword or a leading digit gets a `_`)."""
    out = identifier_part(name)
    return f"{out}_" if not out or out[0].isdigit() or keyword.iskeyword(out) else out


def named_function(fn: str, tree: py.expr, names: dict) -> py.Module:
    """`def fn(st, L): return tree`, where each local and variable `tree` reads is first
    read into a name of its own (`names`: ("L" or "vars", k) -> the rules' name for it).
    An expression writes no slot it reads and no variable (a `let`, a loop's element go
    to slots of their own, inside the functions that bind them), so reading them first
    reads what the expression would."""
    taken = {node.id for node in walk(tree) if isinstance(node, py.Name)} | \
        set(dir(builtins)) | {"st", "L", fn}
    chosen: dict = {}
    for node in walk(tree):
        key = _read_key(node) if isinstance(node, py.Subscript) else None
        if key is None or key in chosen or key not in names:
            continue
        base = identifier(names[key])
        local, k = base, 2
        while local in taken:
            local, k = f"{base}_{k}", k + 1
        taken.add(local)
        chosen[key] = local
    body: list[py.stmt] = [py.Assign([py.Name(local, py.Store())],
                      frame_local(key[1]) if key[0] == "L" else index(state("vars"),
                                                                       const(key[1])))
            for key, local in chosen.items()]
    body.append(py.Return(_NamedReads(chosen).visit(clone(tree))))
    args = lambda_of(const(None)).args
    return py.fix_missing_locations(py.Module([py.FunctionDef(fn, args, body, [], None)], []))


def reads(node: n.Node) -> dict:
    """("L", slot) or ("vars", index) -> the rules' name, for the locals and variables
    `node` reads directly (not inside an Opaque part: those are the compiler's)."""
    found: dict = {}
    written = set()  # a `let`'s slot is set inside the expression: never read ahead
    todo = [node]
    while todo:
        x = todo.pop()
        if isinstance(x, n.Local):
            found.setdefault(("L", x.slot), x.name)
        elif isinstance(x, n.Var):
            found.setdefault(("vars", x.index), x.name)
        else:
            if isinstance(x, n.Let):
                written.add(("L", x.slot))
            todo.extend(n.children(x))
    return {key: name for key, name in found.items() if key not in written}


def _item_within(table: py.expr, key: py.expr, values: list) -> py.expr:
    """Item `key` of a table known to hold it: the value itself where the key is a
    constant and the value a number, the key where each value is its own position (an
    enum's values: `Pip[k]` is k), else the table's item."""
    k = key.value if isinstance(key, py.Constant) else None
    if isinstance(k, int) and type(values[k]) is int:
        return const(values[k])
    if values == list(range(len(values))):
        return key
    return index(table, key)


def items_within(tree: py.expr, within: dict, tables: dict) -> py.expr:
    """`tree` (a definition's value with its arguments written in) without the checks of
    items of tables (Python.p_Item) whose key is a constant within the table, or an
    argument `within` says lies within it: `within` maps py.dump of an argument's tree to
    the number it is below (0 to that less one), as lower.Lowering.sure_elements knows
    of a range's element; `tables`, the generated code's names (a table's name to its
    values). `tree` is changed in place; returns it."""
    return _ItemsWithin(within, tables).visit(tree)


def nones_dropped(tree: py.expr, sure: set) -> py.expr:
    """`tree` (a definition's value with its arguments written in) without the none
    checks of the arguments `sure` holds (py.dump of each one's tree), known never none
    where it is called (a zone's card bound by a loop or a decision: Lowering.sure_reads):
    `T[a] if a is not None else _none_field(...)` is `T[a]`. Changed in place; returns it."""
    return _NonesDropped(sure).visit(tree) if sure else tree


class _NonesDropped(py.NodeTransformer):
    def __init__(self, sure: set):
        self.sure = sure

    def visit_IfExp(self, node: py.IfExp):
        self.generic_visit(node)
        test, orelse = node.test, node.orelse
        if isinstance(test, py.Compare) and len(test.ops) == 1 and \
                isinstance(test.ops[0], py.IsNot) and isinstance(test.comparators[0], py.Constant) \
                and test.comparators[0].value is None and py.dump(test.left) in self.sure and \
                isinstance(orelse, py.Call) and isinstance(orelse.func, py.Name) and \
                orelse.func.id.startswith("_none_"):
            return node.body
        return node


class _ItemsWithin(py.NodeTransformer):
    def __init__(self, within: dict, tables: dict):
        self.within = within
        self.tables = tables

    def visit_IfExp(self, node: py.IfExp):
        self.generic_visit(node)
        test, body, orelse = node.test, node.body, node.orelse
        if not (isinstance(orelse, py.Call) and isinstance(orelse.func, py.Name) and
                orelse.func.id == "_bad_item" and isinstance(test, py.Compare) and
                isinstance(body, py.Subscript) and isinstance(body.slice, py.Name) and
                len(test.comparators) == 2 and isinstance(test.left, py.Constant) and
                isinstance(test.comparators[0], py.NamedExpr) and
                isinstance(test.comparators[1], py.Constant) and
                test.comparators[0].target.id == body.slice.id):
            return node
        size, key = test.comparators[1].value, test.comparators[0].value
        if not isinstance(size, int) or test.left.value != -size:
            return node
        if isinstance(key, py.Constant):
            ok = type(key.value) is int and 0 <= key.value < size
        else:
            ok = 0 < self.within.get(py.dump(key), 0) <= size
        if not ok:
            return node
        table = body.value
        values = self.tables.get(table.id) if isinstance(table, py.Name) else None
        if not isinstance(values, list) or len(values) != size:
            return index(table, key)
        return _item_within(table, key, values)
