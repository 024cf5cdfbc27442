"""Calls of definitions (memoised where pure), aggregates and built-in functions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.engine.hoist import MISSING
from rulesdsl.engine.recursion import recursive_call
from rulesdsl.engine.grid import grid_builtin, joins_closure, var_filter_aggregate, var_prefix
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
        self.define_bodies: dict = {}  # definition -> (body, modifiers, frame size)
        self._plain_call = False  # compiling a memoised call as it is, for outside options

    def connect(self, exprs: Expressions, functions: Functions,
                define_bodies: Optional[dict] = None) -> None:
        """The parts it uses; `define_bodies`: another Calls' bodies, to share them."""
        self.exprs, self.functions = exprs, functions
        if define_bodies is not None:
            self.define_bodies = define_bodies

    def define_call(self, name: str, args: list, span=None) -> Callable:
        """A call of a definition. Each call spends one unit of work, counted inline (no
        extra call): a chain of definitions can call each other 3^40 times in one step. A
        simple definition (hoist.Scanner.simple_define) spends none: it calls no other."""
        d = self.m.defines[name]
        cache = self.define_bodies
        if name in cache and cache[name] is None:  # a call from inside its own body
            return recursive_call(cache, name, args, len(d.params), d.decl.span)
        if name not in cache:
            cache[name] = None  # placeholder while compiling: a call from the body recurses
            outer, self.exprs.loop_stack = self.exprs.loop_stack, []  # a body has its own locals
            body = self.exprs.expr(d.decl.body)
            mods = []
            size = max([self.m.nslots.get(id(d.decl), 0)] +
                       [self.m.nslots.get(id(mod), 0) for mod in d.modifiers] + [1])
            for mod in d.modifiers:
                mods.append((self.exprs.expr(mod.cond), self.exprs.expr(mod.value)))
            self.exprs.loop_stack = outer
            cache[name] = (body, mods, size)
        body, mods, size = cache[name]
        k = len(d.params)
        if len(args) <= 2 and self.scanner.memoised_define(name) and \
                not self._plain_call:
            self._plain_call = True  # first the call as it is, for outside options
            try:
                plain = self.define_call(name, args, span)
            finally:
                self._plain_call = False
            return self.memo_define_call(name, args, plain, body, mods, size, k,
                                         span or d.decl.span)
        b, span = self.b, span or d.decl.span
        unit = 0 if self.scanner.simple_define(name) else 1  # (hoist.Scanner.simple_define)
        # one closure for every arity: the generated code calls definitions directly
        # (compile/functions.py); this serves the closures engine and the fallbacks

        def call(st, L):
            b.spend(unit, span)
            env = [None] * size
            for i, a in enumerate(args):
                env[i] = a(st, L)
            v = body(st, env)
            for cond, value in mods:
                env[k] = v
                if cond(st, env):
                    v = value(st, env)
            return v
        return call

    def memo_define_call(self, name: str, args: list, plain, body, mods, size: int,
                         k: int, span) -> Callable:
        """A pure definition called while a decision's options are computed (the state
        stands still then) is computed once per arguments: `st.memo` is a dict during
        `Ask.options`, else None. Not one over a card (Scanner.memoised_define)."""
        b = self.b
        unit = 0 if self.scanner.simple_define(name) else 1

        def invoke(st, values):
            b.spend(unit, span)  # as a call outside options spends (and the generated code)
            env = [None] * size
            env[:len(values)] = values
            v = body(st, env)
            for cond, value in mods:
                env[k] = v
                if cond(st, env):
                    v = value(st, env)
            return v

        if not args:
            def call0(st, L):
                m = st.memo
                if m is None:
                    return plain(st, L)
                v = m.get(name, MISSING)
                if v is MISSING:
                    v = m[name] = invoke(st, ())
                return v
            return call0
        if len(args) == 1:
            a0 = args[0]

            def memo1(st, L):
                m = st.memo
                if m is None:
                    return plain(st, L)
                x = a0(st, L)
                if type(x) is list:
                    return invoke(st, (x,))
                key = (name, x)
                v = m.get(key, MISSING)
                if v is MISSING:
                    v = m[key] = invoke(st, (x,))
                return v
            return memo1
        a0, a1 = args

        def memo2(st, L):
            m = st.memo
            if m is None:
                return plain(st, L)
            x = a0(st, L)
            y = a1(st, L)
            if type(x) is list or type(y) is list:
                return invoke(st, (x, y))
            key = (name, x, y)
            v = m.get(key, MISSING)
            if v is MISSING:
                v = m[key] = invoke(st, (x, y))
            return v
        return memo2

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
