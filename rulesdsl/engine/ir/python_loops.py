"""Loops over a list's elements (nodes.Aggregate: `[x in L where ...]`, `count(...)`,
`any(...)`, `sum(...)` ...) as Python functions of their own, built as `ast` trees: the
list read into `s` and its length spent from the work budget, then one loop with the
where and the value inline, doing what the interpreter's closure does (Interpreter.c_Aggregate),
in the same order, spending the same work.

The compiler hands the loop's parts as Python trees (LoopHost.loop_parts): the where and the
value, with their loop invariants read from locals of the function (`starts`: the names to
set to MISSING before the loop, each computed when first needed), or the where as
statements (a definition's body written in the loop) and a test. Where those read the
locals one by one, they read the element as `x` (python_options.read_as_candidate), the
slot set once on the way out; a loop inside a loop of candidates empties that loop's memo
of invariants itself (LoopHost.loop_memo)."""

from __future__ import annotations

import ast as py
from typing import Optional, Protocol

from rulesdsl.engine.hoist import MISSING
from rulesdsl.engine.ir import nodes as n
from rulesdsl.engine.ir.invariants import hoisted
from rulesdsl.engine.ir.python import (PythonBackEnd, assign, call, const, frame_local,
                                       index, is_none, lambda_of, method, name, never_none)
from rulesdsl.engine.ir.python_options import is_zone, read_as_candidate

# the value of an aggregate of a whole list `s`, as an expression over it
_WHOLE = {
    "count": lambda s: call("len", s),
    "sum": lambda s: call("sum", py.ListComp(name("x"), [py.comprehension(
        py.Name("x", py.Store()), s, [is_none(name("x"), negated=True)], 0)])),
    "max": lambda s: py.Call(name("max"), [s], [py.keyword("default", const(0))]),
    "min": lambda s: py.Call(name("min"), [s], [py.keyword("default", const(0))]),
    "any": lambda s: call("any", s),
    "all": lambda s: call("all", s),
    "first": lambda s: py.IfExp(s, index(s, const(0)), const(None)),
    "last": lambda s: py.IfExp(s, index(s, const(-1)), const(None)),
}


class LoopHost(Protocol):
    """What the loops ask of the compiler (compile/functions.py)."""

    def loop_parts(self, node: n.Aggregate) -> tuple:
        """The parts of a loop over a list as Python: (statements or None, the where or
        the test after those statements, the value or None, the names of the loop
        invariants' locals to start as MISSING)."""

    def loop_memo(self) -> Optional[tuple]:
        """(the name of its cell, its size) of the memo of invariants of the loop of
        candidates being compiled, where it holds any; else None."""


class LoopsBackEnd(PythonBackEnd):
    """The Python back end, with loops over lists as functions of their own."""
    loops: LoopHost  # set once the compiler's parts are connected

    def p_Aggregate(self, node: n.Aggregate, depth: int) -> Optional[py.expr]:
        if node.gives == "prefix":
            return self.prefix(node, depth)
        source = self.emit(node.items, depth)
        if node.where is None and node.value is None:
            if node.gives not in _WHOLE:
                return None  # (a list copied: the closure's)
            body = self.spent_list(source, node) + [py.Return(_WHOLE[node.gives](name("s")))]
            return self.function("aggregate", body, node, fresh=False)
        if node.gives == "count" and (node.where is None or node.value is not None):
            return None  # the values counted: the closure's
        stmts, where, value, starts = self.loops.loop_parts(node)
        if stmts is not None:
            return self.over_statements(node, source, stmts, where)
        (where, value), bind, keep = self.candidate(node, source, [where, value])
        head = self.spent_list(source, node) + self.starts(starts) + keep[:1]
        x = name("x")

        def give(result: py.expr) -> list:  # the slot left as the loop leaves it
            return [*keep[1:], py.Return(result)]

        def loop(found: list) -> list:  # each element, `found` where it meets the where
            if where is None:
                return [py.For(py.Name("x", py.Store()), name("s"), [*bind, *found], [])]
            return self.hoisted([*bind, py.If(where, found, [])], node)
        gives = node.gives
        if gives == "list":
            return self.function("comprehension", head + [
                assign(name("out"), py.List([], py.Load())),
                *loop([py.Expr(method(name("out"), "append", value or x))]),
                *keep[1:], py.Return(name("out"))], node)
        if gives == "count":
            return self.function("aggregate", head + [
                assign(name("n"), const(0)), *loop([_add_one("n")]), *give(name("n"))], node)
        if gives in ("max", "min"):  # the values first, then compared, as the closure does
            return self.function("aggregate", head + [
                assign(name("vs"), py.List([], py.Load())),
                *loop([py.Expr(method(name("vs"), "append", value or x))]),
                *give(py.Call(name(gives), [name("vs")], [py.keyword("default", const(0))]))],
                node)
        start: list = []
        if gives == "any":
            found = [py.If(value, give(const(True)), [])] if value is not None else \
                give(const(True))
            end: py.expr = const(False)
        elif gives == "all":
            if value is None:  # all(x in L where c): every x meets c
                assert where is not None
                where, found = py.UnaryOp(py.Not(), where), give(const(False))
            else:
                found = [py.If(py.UnaryOp(py.Not(), value), give(const(False)), [])]
            end = const(True)
        elif gives == "first":
            found, end = give(value or x), const(None)
        elif gives == "sum":  # a term never none added as it is (else a none is left out)
            start, end = [assign(name("n"), const(0))], name("n")
            if value is not None and never_none(value):
                found = [py.AugAssign(py.Name("n", py.Store()), py.Add(), value)]
            else:
                found = [assign(name("v"), value or x), py.If(
                    is_none(name("v"), negated=True),
                    [py.AugAssign(py.Name("n", py.Store()), py.Add(), name("v"))], [])]
        else:
            return None  # (`last` of a where: the closure's)
        return self.function("aggregate", head + start + [*loop(found), *give(end)], node)

    def over_statements(self, node: n.Aggregate, source: py.expr, stmts: list,
                        test: py.expr) -> Optional[py.expr]:
        """A loop whose where is a definition's call written as statements (its unit of
        work spent as its own function would) and then a test: no frame, no call."""
        (*stmts, test), bind, keep = self.candidate(node, source, [*stmts, test])
        head = self.spent_list(source, node) + keep[:1]
        gives = node.gives
        end: py.expr
        if gives == "list":
            found: list = [py.Expr(method(name("out"), "append", name("x")))]
            start, end = [assign(name("out"), py.List([], py.Load()))], name("out")
        elif gives == "count":
            found = [_add_one("n")]
            start, end = [assign(name("n"), const(0))], name("n")
        else:
            found = [*keep[1:], py.Return(const(gives == "any"))]
            start, end = [], const(gives == "all")
            if gives == "all":
                test = py.UnaryOp(py.Not(), test)
        loop = self.hoisted([*bind, *stmts, py.If(test, found, [])], node)
        name_ = "comprehension" if gives == "list" else "aggregate"
        return self.function(name_, head + start + [*loop, *keep[1:], py.Return(end)], node)

    def prefix(self, node: n.Aggregate, depth: int) -> Optional[py.expr]:
        """`[x in L while COND]`: the leading elements for which COND holds."""
        stmts, cond, _, _ = self.loops.loop_parts(node)
        assert stmts is None
        source = self.emit(node.items, depth)
        out = name("out")
        body = [assign(out, py.List([], py.Load())), py.For(
            py.Name("x", py.Store()), source, [
                assign(frame_local(node.slot), name("x")),
                py.If(py.UnaryOp(py.Not(), cond), [py.Break()], []),
                py.Expr(method(out, "append", name("x")))], []), py.Return(out)]
        return self.host.function(_function("prefix", body), node.title, node.span,
                                  as_statements=False)

    # ------------------------------------------------------------------ parts
    def hoisted(self, body: list, node: n.Aggregate) -> list:
        """The loop over `s` of `body` (its last statement the test of the where), the
        test's parts that no element changes kept in locals, each computed where an
        element first needs it (invariants.py: those the compiler's loop invariants do
        not reach, such as the parts of a definition written in the loop that read only
        its arguments); not one that calls a definition (the memo may not be set: each
        call spends its work) nor one that reads the budget."""
        missing = self.host.named(MISSING, "MISSING")
        starts, body = hoisted(body, range(len(body) - 1, len(body)), node.slot, {"x"},
                               lambda: self.host.temp("once"), missing, memo=False)
        return [*starts, py.For(py.Name("x", py.Store()), name("s"), body, [])]

    def spent_list(self, source: py.expr, node: n.Aggregate) -> list:
        """The list read into `s`, its length spent from the work budget."""
        return [assign(name("s"), source), *self.spent("work", call("len", name("s")),
                                                       node.span)]

    def starts(self, names: list) -> list:
        """The loop invariants' locals, not computed yet."""
        if not names:
            return []
        missing = self.host.named(MISSING, "MISSING")
        return [assign(name(t), name(missing)) for t in names]

    def candidate(self, node: n.Aggregate, source: py.expr, trees: list) -> tuple:
        """How the loop binds its element `x` to the node's slot: (`trees` as the loop
        reads them, the statements binding it per element, the statements keeping the slot
        as the loop leaves it: the first before the loop, the others before each return).
        Where the trees (expressions such as a where and a value, or statements; None:
        none) read the locals only one by one, they read `x` itself (its none checks gone
        where no element is none: a zone's cards, or `node.sure`), and the slot is set
        once, on the way out, from `x` (which starts as the slot, for a loop over nothing);
        else they are as given and the slot is bound per element."""
        slot, sure = node.slot, node.sure
        given = [t if isinstance(t, py.stmt) else py.Expr(t) for t in trees if t is not None]
        body = read_as_candidate(given, slot, "x", sure is not None or is_zone(source),
                                 sure or 0) if given else None
        if body is None:
            return trees, [assign(frame_local(slot), name("x"))], []
        read = iter(body)
        return [None if t is None else next(read) if isinstance(t, py.stmt) else
                next(read).value for t in trees], [], \
            [assign(name("x"), frame_local(slot)), assign(frame_local(slot), name("x"))]

    def function(self, fn: str, body: list, node: n.Aggregate,
                 fresh: bool = True) -> Optional[py.expr]:
        """`fn(st, L)` of `body` as a generated function, called where the node is read;
        inside a loop of candidates, it empties that loop's memo of invariants itself
        (what LoopContext.run_with_memo does around a closure), so no wrapper runs
        around it."""
        memo = self.loops.loop_memo() if fresh else None
        if memo is not None:
            cell, size = memo
            missing = self.host.named(MISSING, "MISSING")
            kept = index(name(cell), const(0))
            body = [assign(name("saved"), kept), assign(
                index(name(cell), const(0)),
                py.BinOp(py.List([name(missing)], py.Load()), py.Mult(), const(size))),
                py.Try(body, [], [], [assign(index(name(cell), const(0)), name("saved"))])]
        return self.host.function(_function(fn, body), node.title, node.span,
                                  as_statements=False)


def _function(fn: str, body: list) -> py.FunctionDef:
    return py.FunctionDef(fn, lambda_of(const(None)).args, body, [], None)


def _add_one(target: str) -> py.AugAssign:
    return py.AugAssign(py.Name(target, py.Store()), py.Add(), const(1))
