"""Calls of definitions (engine/ir DefCall nodes, run by the interpreter), aggregates and
built-in functions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.engine.grid import grid_builtin, joins_closure, var_filter_aggregate, var_prefix
from rulesdsl.engine.ir import passes
from rulesdsl.engine.pieces import number_words
from rulesdsl.engine.runtime.numbers import MAX_RANGE
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.expressions import Expressions
    from rulesdsl.engine.compile.functions import Functions


class Calls:
    """Compiles calls: definitions, aggregates, built-ins."""

    def __init__(self, unit: Unit):
        self.unit = unit
        self.m, self.p, self.b, self.scanner = unit.m, unit.p, unit.b, unit.scanner
        self.define_bodies: dict = {}  # definition -> (its value on a filled frame, frame size)

    def connect(self, exprs: Expressions, functions: Functions,
                define_bodies: Optional[dict] = None) -> None:
        """The parts it uses; `define_bodies`: another Calls' bodies, to share them."""
        self.exprs, self.functions = exprs, functions
        if define_bodies is not None:
            self.define_bodies = define_bodies

    def define_call(self, name: str, args: list, span=None) -> Callable:
        """A call of a definition on `args` (nodes), as the interpreter runs it
        (Interpreter.c_DefCall: its unit of work, its frame, its modifiers, the memo while
        options are computed, recursion); the bodies compiled are shared (define_bodies)."""
        lowering = self.exprs.lowering
        return self.exprs.interpreter.closure(passes.inline(
            lowering.define_call(name, tuple(args), span), lowering.inline_body))

    def aggregate(self, e: ast.Call):
        name = e.name
        a = e.args[0]
        if name == "count" and type(a) is ast.Prefix:
            run = var_prefix(self.exprs, a, e.span)
            if run is not None:
                return run
        fast = var_filter_aggregate(self.exprs, name, a)
        if fast is not None:
            return fast
        t = self.m.types.get(id(e), "any")
        if isinstance(a, ast.Comprehension):  # its source's length is spent in the loop
            return self.exprs.loop(name, a, a.source, self.exprs.source_of(a.source),
                                   e.span, t)
        return self.exprs.loop(name, None, a, self.exprs.source_of(a), e.span, t)

    def builtin(self, e: ast.Call):
        """Built-in calls engine/ir does not lower yet (lower.BUILTINS are lowered)."""
        name = e.name
        span = e.span
        args = [self.exprs.expr(a) for a in e.args]
        if name in ("top", "bottom"):  # the top or bottom k cards (one card: engine/ir)
            z, k = args
            if name == "top":
                # all of them when the zone holds fewer than k
                return lambda st, L: (lambda s, j: s[max(0, len(s) - j):] if j > 0 else [])(
                    st.zones[z(st, L)], k(st, L))
            return lambda st, L: st.zones[z(st, L)][:max(0, k(st, L))]
        if name == "abs":
            f = args[0]
            return lambda st, L: abs(f(st, L))
        if name == "random":
            src = self.exprs.source_of(e.args[0])
            return lambda st, L: st.random_choice(src(st, L))
        if name in ("column_of", "row_of", "neighbour", "ray", "around", "distance",
                    "opposite"):
            board = self.m.types.get(id(e.args[0]))
            tables = self.p.grids.get(board) or next(iter(self.p.grids.values()), None)
            assert tables is not None  # the checker allows these only where a board has a grid
            return grid_builtin(name, tables, args, span)
        if name == "sorted":  # numbers and enum values by value, cards in deck order
            src = self.exprs.source_of(e.args[0])
            return lambda st, L: sorted(src(st, L), key=lambda x: (x is not None, x))
        if name == "roll":
            count, sides = args

            def roll(st, L):
                k, d = count(st, L), sides(st, L)
                if k is None or d is None or not 0 <= k <= MAX_RANGE or d < 1:
                    raise RuntimeRulesError("R016", f"cannot roll {k} dice of {d} sides", span,
                                            [f"roll 0 to {MAX_RANGE} dice of at least 1 side"])
                return [st.next_random(d) + 1 for _ in range(k)]
            return roll
        if name == "words":
            f = args[0]
            return lambda st, L: number_words(f(st, L))
        if name == "playable":
            checks = self.p.playable
            kind_of = self.p.card_kind
            card, seat = args

            def playable(st, L):
                c = card(st, L)
                if c is None:
                    return False
                check = checks[kind_of[c]]
                return True if check is None else bool(check(st, c, seat(st, L)))
            return playable
        if name == "neighbours":
            board = self.m.types.get(id(e.args[0]))
            adj = self.p.adjacency[board]
            f = args[0]
            return lambda st, L: adj[f(st, L)]
        if name == "connected":
            board = self.m.types.get(id(e.args[0]))
            adj = self.p.adjacency[board]
            a, b = args
            return lambda st, L: b(st, L) in adj[a(st, L)]
        if name == "largest_group":
            board = self.m.types.get(id(e.args[0]), "list of ?")[8:]
            adj = self.p.adjacency.get(board) or []  # (an empty list literal: no board)
            f = args[0]

            def largest(st, L):
                nodes = set(f(st, L))
                best = 0
                seen = set()
                for start in nodes:
                    if start in seen:
                        continue
                    size, todo = 0, [start]
                    seen.add(start)
                    while todo:
                        x = todo.pop()
                        size += 1
                        for y in adj[x]:
                            if y in nodes and y not in seen:
                                seen.add(y)
                                todo.append(y)
                    best = max(best, size)
                return best
            return largest
        if name == "joins":
            board = next((t[8:] for t in (self.m.types.get(id(x), "") for x in e.args)
                          if t[8:] in self.p.adjacency), None)
            return joins_closure(self.p.adjacency.get(board, []), args, self.b, span)
        raise AssertionError(name)
