"""Grid boards at run time: tables of each cell's neighbour and ray in every direction,
built once per program, and the built-ins that read them. A cell is an enum index, row by
row from a1 (index = row * width + column, both from 0); directions are in the order of
check.DIRECTIONS.
"""

from __future__ import annotations

from typing import Callable, Optional

import attrs

from rulesdsl.lang import ast
from rulesdsl.lang.check import DIRECTIONS
from rulesdsl.lang.check.model import HEX_DIRECTIONS
from rulesdsl.engine.ir import nodes
from rulesdsl.engine.runtime.errors import none_for


@attrs.define
class GridTables:
    width: int
    height: int
    step: list  # [cell][direction] -> the next cell, or None at the edge
    rays: list  # [cell][direction] -> the cells from there (excluded) to the edge
    around: list  # [cell] -> the up to 8 cells touching it, in direction order
    hex: bool = False  # hexagonal cells: six directions (check.HEX_DIRECTIONS)


def grid_tables(width: int, height: int, hex: bool = False) -> GridTables:
    n = width * height
    step, rays, around = [], [], []
    for c in range(n):
        x, y = c % width, c // width
        row_step, row_rays = [], []
        for _, dx, dy in (HEX_DIRECTIONS if hex else DIRECTIONS):
            ray = []
            cx, cy = x + dx, y + dy
            while 0 <= cx < width and 0 <= cy < height:
                ray.append(cy * width + cx)
                cx, cy = cx + dx, cy + dy
            row_step.append(ray[0] if ray else None)
            row_rays.append(ray)
        step.append(row_step)
        rays.append(row_rays)
        around.append([s for s in row_step if s is not None])
    return GridTables(width, height, step, rays, around, hex)


def grid_builtin(name: str, tables: GridTables, args: list, span) -> Callable:
    """The closure of a grid built-in (column_of, row_of, neighbour, ray, around, distance,
    opposite) over argument closures; a none cell or direction is an error (R013)."""
    def need(v, what):
        if v is None:
            none_for(name, what, span)
        return v
    if name == "opposite":
        f = args[0]
        count = len(HEX_DIRECTIONS if tables.hex else DIRECTIONS)
        half = count // 2
        return lambda st, L: (need(f(st, L), "a direction") + half) % count
    w = tables.width
    a = args[0]
    if name == "column_of":
        return lambda st, L: need(a(st, L), "a cell") % w + 1
    if name == "row_of":
        return lambda st, L: need(a(st, L), "a cell") // w + 1
    if name == "around":
        around = tables.around
        return lambda st, L: around[need(a(st, L), "a cell")]
    b = args[1]
    if name == "distance":
        def distance(st, L):
            p, q = need(a(st, L), "a cell"), need(b(st, L), "a cell")
            dx, dy = p % w - q % w, p // w - q // w
            if tables.hex:  # steps between hexagons: axial coordinates
                return (abs(dx) + abs(dy) + abs(dx + dy)) // 2
            return max(abs(dx), abs(dy))
        return distance
    table = tables.step if name == "neighbour" else tables.rays

    def lookup(st, L):  # (boards ask this of every cell and direction: no helper calls)
        c, d = a(st, L), b(st, L)
        if c is None or d is None:
            need(c, "a cell")
            need(d, "a direction")
        return table[c][d]
    return lookup


def joins_closure(adj: list, args: list, budget, span) -> Callable:
    """`joins(nodes, a, b)`: does a chain of neighbouring nodes of the list link a node of
    a to a node of b (a chain of one node if it lies in both)? a connection game's "a line
    of your stones from your one side to the other"."""
    f, fa, fb = args

    def joins(st, L):
        nodes = set(f(st, L))
        goal = set(fb(st, L)) & nodes
        todo = [x for x in set(fa(st, L)) if x in nodes]
        budget.spend(len(nodes), span)
        seen = set(todo)
        while todo:
            x = todo.pop()
            if x in goal:
                return True
            for y in adj[x]:
                if y in nodes and y not in seen:
                    seen.add(y)
                    todo.append(y)
        return False
    return joins


def var_prefix(exprs, e: ast.Prefix, span=None) -> Optional[Callable]:
    """`[x in L while v[x] == E]` (or `!=`), E not using x: the common "cells from here
    while they hold the other colour", read straight from the variable's values with no
    call per cell (a nodes.Run, which both back ends run); with `span`, the count of
    those cells (`count(...)`, spent from the work budget as `count` spends a list's
    length: "how many discs does this line close"). None for any other
    condition."""
    return _run(exprs, e.binder, e.cond, e.source, "cells" if span is None else "count",
                e.span if span is None else span, prefix=True)


def var_filter_aggregate(exprs, name: str, a) -> Optional[Callable]:
    """`any`, `all` or `count` of `x in L where v[x] == E` (or `!=`), E not using x: the
    variable's values are compared directly, with no closure per element. Board games ask
    this of every cell and its neighbours, at every decision."""
    if name not in ("any", "all", "count") or not isinstance(a, ast.Comprehension) or \
            a.value is not None or a.where is None:
        return None
    return _run(exprs, a.binder, a.where, a.source, name, a.span, prefix=False)


def _run(exprs, binder: str, cond, source, gives: str, span, prefix: bool) -> Optional[Callable]:
    """The nodes.Run of `binder in source` against `cond`, compiled as a lowered node is;
    None where `cond` is not `v[binder] == E`. A `where` is the loop the compiler has
    open (Expressions.expr): its list and E, read once before it starts, are compiled
    outside that loop's memo of invariants (a memo there would only cost), so it keeps
    none."""
    if not (isinstance(cond, ast.Binary) and cond.op in ("==", "!=")):
        return None
    left, right = cond.left, cond.right
    if _mentions(left, binder):
        left, right = right, left
    if not (isinstance(right, ast.Index) and len(right.args) == 1 and
            isinstance(right.args[0], ast.Name) and right.args[0].name == binder):
        return None
    kind, var = exprs.m.resolved.get(id(right), ("", None))
    if kind != "var" or _mentions(left, binder):
        return None
    layout = exprs.p.vars[var]
    if len(layout.dims) != 1:
        return None
    loops = exprs.loop_stack
    if not prefix:
        exprs.loop_stack = loops[:-1]
    try:
        cells = exprs.known_part(source, exprs.source_of(source), "list")
        want = exprs.known_part(left, exprs.expr(left), exprs.m.types.get(id(left), "any"))
    finally:
        exprs.loop_stack = loops
    t = {"cells": "list", "count": "int"}.get(gives, "bool")
    return exprs.compiled(nodes.Run(t, cells, layout.base, want, cond.op == "==", prefix,
                                    gives, span), cond)


def _mentions(node, name: str) -> bool:
    if isinstance(node, ast.Name):
        return node.name == name
    if isinstance(node, tuple):
        return any(_mentions(x, name) for x in node)
    if attrs.has(type(node)):
        return any(_mentions(getattr(node, f.name), name)
                   for f in attrs.fields(type(node)) if f.name != "span")
    return False
