"""The Python back end for definitions (nodes.Definition, nodes.DefCall): a definition's
function, its memo function and a call of either, built as `ast` trees. What a call does is
the interpreter's `c_DefCall` (the reference): its unit of work, then its value on a fresh
frame of its arguments, then each modifier in turn; while a decision's options are
computed (`st.memo` a dict), a pure one's answer is kept per arguments, never keyed by a
list. The compiler (compile/functions.py) hands in the parts' trees and the names it
gave the budget, the places and the temporaries."""

from __future__ import annotations

import ast as py
from typing import Optional

from rulesdsl.engine.ir import nodes as n
from rulesdsl.engine.ir.python import (assign, call, const, either, frame_local, function_def,
                                       if_else, is_none, method, name, spent, state, walrus)


def frame_call(fn: str, values: list, size: int) -> py.Call:
    """`fn(st, [values..., None, ...])`: a definition's function on a fresh frame of
    `size` slots, its arguments first."""
    frame = list(values) + [const(None)] * (size - len(values))
    return call(fn, name("st"), py.List(frame, py.Load()))


def function(d: n.Definition, budget: py.expr, place: Optional[py.expr], lets: list,
             value: py.expr, loop: Optional[list], modifiers: list) -> py.FunctionDef:
    """Definition `d`'s function `define(st, L)` (its frame in, its value out): its unit of
    work (none for a simple one), its lets' statements (`lets`), then its value, or the
    statements of a loop of its own whose returns are its value (`loop`), then each
    modifier ((condition, value) trees) over the value so far, in slot k."""
    body: list[py.stmt] = [] if d.unit == 0 or place is None else \
        spent(budget, "work", const(1), place)
    body += lets
    if loop is not None:  # a generated loop over these locals (`any(...)`): its
        body += loop      # statements here, its returns this one's: one call, not two
    else:
        v = name("v")
        body.append(assign(v, value))
        k = len(d.params)
        for cond, changed in modifiers:  # each modifier sees the value so far as its last name
            body += [assign(frame_local(k), v), py.If(cond, [assign(v, changed)], [])]
        body.append(py.Return(v))
    return function_def("define", ["st", "L"], body)


def memo_function(d: n.Definition, fn: str, missing: str) -> py.FunctionDef:
    """`memo(st, m, x0, ...)`: definition `d` on its arguments, its answer kept in the memo
    `m` under (its name, the arguments) (its name alone without any), computed each time
    where an argument is a list (the keys interpret.memo_call uses)."""
    k = len(d.params)
    xs = [f"x{i}" for i in range(k)]
    m, key, v = name("m"), name("key"), name("v")

    def called() -> py.expr:  # the definition on a frame of its arguments
        return frame_call(fn, [name(x) for x in xs], d.size)
    body: list[py.stmt] = []
    if xs:
        lists = [py.Compare(call("type", name(x)), [py.Is()], [name("list")]) for x in xs]
        body += [py.If(either(*lists) if k > 1 else lists[0], [py.Return(called())], []),
                 assign(key, py.Tuple([const(d.name), *map(name, xs)], py.Load()))]
    else:
        body.append(assign(key, const(d.name)))
    body += [assign(v, method(m, "get", key, name(missing))),
             py.If(py.Compare(v, [py.Is()], [name(missing)]), [py.Assign(
                 [py.Name("v", py.Store()), py.Subscript(m, key, py.Store())], called())], []),
             py.Return(v)]
    return function_def("memo", ["st", "m", *xs], body)


def memo_read(d: n.Definition, fn: str, xs: list, m: str, key: str, v: str) -> py.expr:
    """A call of pure definition `d` with the memo read inline, its arguments in the
    temporaries `xs` (the keys memo_function uses): outside options the definition's, else
    the memo's answer, else the definition's, kept."""
    def frame() -> py.expr:  # the definition called on its arguments' temporaries
        return frame_call(fn, [name(x) for x in xs], d.size)
    keyed = py.Tuple([const(d.name), *map(name, xs)], py.Load()) if xs else const(d.name)
    found = method(name(m), "get", walrus(key, keyed), name("MISSING"))
    remembered = py.BoolOp(py.Or(), [
        method(name(m), "__setitem__", name(key), walrus(v, frame())), name(v)])
    return if_else(is_none(walrus(m, state("memo"))), frame(), if_else(
        py.Compare(walrus(v, found), [py.IsNot()], [name("MISSING")]), name(v), remembered))


def memo_or_call(memo: str, called: py.expr, m: str, args: list) -> py.expr:
    """A call of a pure definition through its memo function `memo` while options are
    computed (`st.memo` not none, kept in `m`), else `called` (the call as it is)."""
    return if_else(is_none(walrus(m, state("memo"))), called,
                   call(memo, name("st"), name(m), *args))
