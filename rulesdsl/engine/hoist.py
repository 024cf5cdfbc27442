"""Loop-invariant parts of a `where` / value expression, evaluated once per loop.

Inside a loop over candidates (a comprehension, an aggregate, the options of a decision)
the game state does not change, so a sub-expression that reads no variable the loop binds
and draws no random number has the same value for every candidate (e.g. "does the player
hold the led colour?" in a follow-suit test). The compiler wraps such a sub-expression in
a memo that the loop empties when it starts; it is still evaluated lazily, the first time
a candidate needs it, so short-circuits and errors happen exactly as before.
"""

from __future__ import annotations

from rulesdsl.lang import ast
from rulesdsl.lang.reads import state_reads

MISSING = object()

# expression nodes whose value depends only on the state and the locals they read
_PLAIN = (ast.Int, ast.Bool, ast.NoneLit, ast.Text, ast.ListLit, ast.Attr, ast.Index,
          ast.Unary, ast.Binary, ast.IsKind, ast.IsIn, ast.IfExpr, ast.Range, ast.Name,
          ast.Call, ast.Comprehension)
_PURE_BUILTINS = frozenset(["size", "next", "previous", "others", "seat", "top", "bottom",
                            "abs", "neighbours", "connected", "largest_group", "words",
                            "joins"])
_PURE_NAMES = frozenset(["var", "zone", "option", "builtin", "enum_all", "enum_value",
                         "self_field"])


# what a simple definition's value may hold: reads, arithmetic, comparisons, no lists visited
_SIMPLE = (ast.Int, ast.Bool, ast.NoneLit, ast.Attr, ast.Index, ast.Unary, ast.Binary,
           ast.IsKind, ast.IfExpr, ast.Name, ast.Call, ast.LetIn)
_SIMPLE_BUILTINS = frozenset(["size", "next", "previous", "seat", "top", "bottom",
                              "neighbour", "column_of", "row_of"])
_SIMPLE_NAMES = frozenset(["local", "var", "zone", "option", "builtin", "enum_value", "enum_all"])


class Scanner:
    """What an expression reads and binds (local slots), and whether it is pure."""

    def __init__(self, model):
        self.m = model
        self.memo = {}
        self.define_pure = {}
        self.define_simple = {}
        self.define_facts: dict = {}
        self._playable_pure = None

    def simple_define(self, name: str) -> bool:
        """Is the definition a few reads, sums and comparisons (with `let`): no modifier,
        no list visited, nothing drawn at random, and no definition called but such a one
        that calls none itself? It spends no work (it costs no more than the expression it
        stands for: calls two deep cannot multiply), and generated code writes it where it
        is called (compile/functions.py)."""
        return self._simple_level(name) > 0

    def _simple_level(self, name: str) -> int:
        """0: not simple; 1: simple, calling no definition; 2: calling only those."""
        got = self.define_simple.get(name)
        if got is None:
            self.define_simple[name] = 0  # while scanning: one that calls itself is not
            d = self.m.defines[name]
            body = d.decl.body
            got = 0 if d.modifiers else 1 if self._simple(body, False) else \
                2 if self._simple(body, True) else 0
            self.define_simple[name] = got
        return got

    def _simple(self, e, calls: bool) -> bool:
        if not isinstance(e, _SIMPLE):
            return False
        resolved = self.m.resolved.get(id(e))
        kind = resolved[0] if resolved is not None else None
        if kind == "define" and isinstance(e, (ast.Name, ast.Call)):
            if not calls or self._simple_level(resolved[1]) != 1:
                return False
        elif isinstance(e, ast.LetIn):
            return self._simple(e.value, calls) and self._simple(e.body, calls)
        elif isinstance(e, ast.Name):
            return kind in _SIMPLE_NAMES
        elif isinstance(e, ast.Call) and (kind == "aggregate" or e.name not in _SIMPLE_BUILTINS):
            return False
        if isinstance(e, ast.Binary) and e.op == "+" and any(  # joined lists visit items
                t == "zone" or t.startswith("list") for t in
                (self.m.types.get(id(e.left), "any"), self.m.types.get(id(e.right), "any"))):
            return False
        parts = _children(e)
        if isinstance(e, ast.Index) and kind in ("zone", "var"):
            parts = list(e.args)
        return all(p is None or self._simple(p, calls) for p in parts)

    def scan(self, e):
        """(slots read from outside, slots bound inside, pure) for an expression node."""
        key = id(e)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self._scan(e)
        return got

    def _scan(self, e):
        if e is None or isinstance(e, str):
            return frozenset(), frozenset(), True
        if not isinstance(e, _PLAIN):
            return frozenset(), frozenset(), False  # a construct this module does not know
        reads, binds, pure = set(), set(), True
        resolved = self.m.resolved.get(id(e))
        if isinstance(e, ast.Name):
            kind = resolved[0] if resolved is not None else None
            if kind == "local":
                reads.add(resolved[1])
            elif kind == "define":
                pure = self.pure_define(resolved[1])
            elif kind not in _PURE_NAMES:
                pure = False
            return frozenset(reads), frozenset(), pure
        if isinstance(e, ast.Call):
            kind = resolved[0] if resolved is not None else None
            if kind == "define":
                pure = self.pure_define(resolved[1])
            elif kind == "aggregate":
                pass
            elif e.name == "playable":
                pure = self.pure_playable()
            elif e.name not in _PURE_BUILTINS:  # random, and anything new
                pure = False
        if isinstance(e, ast.Comprehension):
            slot = self.m.slots.get(id(e))
            r, b, p = self.scan(e.source)
            reads |= r
            binds |= b
            pure &= p
            inner = set()
            for part in (e.where, e.value):
                r, b, p = self.scan(part)
                inner |= r
                binds |= b
                pure &= p
            inner.discard(slot)
            reads |= inner
            binds.add(slot)
            return frozenset(reads), frozenset(binds), pure
        parts = _children(e)
        if isinstance(e, ast.Index) and resolved is not None and resolved[0] in ("zone", "var"):
            parts = list(e.args)  # the zone's or variable's own name is no expression
        for part in parts:
            r, b, p = self.scan(part)
            reads |= r
            binds |= b
            pure &= p
        return frozenset(reads), frozenset(binds), pure

    def pure_define(self, name: str) -> bool:
        got = self.define_pure.get(name)
        if got is None:
            self.define_pure[name] = False  # while scanning (definitions never recurse)
            d = self.m.defines[name]
            parts = [d.decl.body] + [x for mod in d.modifiers for x in (mod.cond, mod.value)]
            got = all(self.scan(x)[2] for x in parts)
            self.define_pure[name] = got
        return got

    def memoised_define(self, name: str) -> bool:
        """Is a call of this definition, while a decision's options are computed, answered
        from the memo (once per arguments)? A pure one, unless a card is among its
        parameters: it is asked per card (`c in hand[p] where may_play(p, c)`), each card
        once, so keeping its answers costs more than it saves."""
        return self.pure_define(name) and all(
            t != "card" for _, t in self.m.defines[name].params)

    def calls_memoised(self, e) -> bool:
        """Does the expression call a definition that a decision's memo answers (directly;
        a definition's own calls are its business)? A test before a decision hands it the
        memo only then (compile/flow.py test_before)."""
        if e is None or isinstance(e, str):
            return False
        resolved = self.m.resolved.get(id(e))
        if isinstance(e, (ast.Name, ast.Call)) and resolved is not None and \
                resolved[0] == "define" and self.memoised_define(resolved[1]):
            return True
        parts = [e.source, e.where, e.value] if isinstance(e, ast.Comprehension) else \
            _children(e)
        return any(self.calls_memoised(part) for part in parts)

    def repeats_a_fact(self, e) -> bool:
        """May computing the expression work out one of the position's facts (a pure
        definition of no parameters, such as `season_in_play`) more than once: in a loop,
        at two places, or through the definitions it calls (a strength summed card by card,
        each card asking whether the season is in play)? A statement whose value
        does is computed with a memo of its own (nodes.SetVar.memo): the state stands
        still while it is, so each fact is worked out once."""
        return self._fact_calls(e) >= 2

    def keeps_facts(self, loop) -> bool:
        """May one memo serve a whole `for` loop (nodes.EachStart.memo)? Where its body
        only sets variables and locals, each value works out one of the position's facts,
        and no variable it sets is read by anything its parts read (through the
        definitions they call): `for q in players { set power[q] = strength(q) }` works
        out `season_in_play` once, not once per player."""
        stmts = loop.body.stmts if loop.body is not None else ()
        if not stmts or not all(isinstance(st, (ast.Set, ast.Let)) for st in stmts):
            return False
        parts = [loop.where] + [st.value for st in stmts] + \
            [k for st in stmts if isinstance(st, ast.Set) for k in st.index]
        if not any(self._fact_calls(st.value) for st in stmts) or \
                not all(self.scan(x)[2] for x in parts):
            return False
        found = state_reads(parts, self.m)
        if found is None:
            return False
        written = {self.m.resolved[id(st)][1] for st in stmts
                   if isinstance(st, ast.Set) and self.m.resolved[id(st)][0] == "var"}
        return not written & found[0]

    def _fact_calls(self, e) -> int:
        """How often `e` may work out a fact: 0, 1, or 2 for more than once."""
        if e is None or isinstance(e, str):
            return 0
        found = 0
        resolved = self.m.resolved.get(id(e))
        if isinstance(e, (ast.Name, ast.Call)) and resolved is not None and \
                resolved[0] == "define":
            found = self._fact_calls_of(resolved[1])
        if isinstance(e, ast.Comprehension):
            inner = self._fact_calls(e.where) + self._fact_calls(e.value)
            return min(2, self._fact_calls(e.source) + (2 if inner else 0))
        parts = [e.value, e.body] if isinstance(e, ast.LetIn) else _children(e)
        if isinstance(e, ast.Index) and resolved is not None and resolved[0] in ("zone", "var"):
            parts = list(e.args)
        for part in parts:
            found += self._fact_calls(part)
            if found >= 2:
                return 2
        return min(2, found)

    def _fact_calls_of(self, name: str) -> int:
        """How often a call of definition `name` may work out a fact (itself one or not)."""
        got = self.define_facts.get(name)
        if got is None:
            self.define_facts[name] = 0  # while scanning: a call back to it adds nothing
            d = self.m.defines[name]
            # a fact that visits no list costs less worked out again than looked up
            got = 1 if not d.params and self.memoised_define(name) and \
                not self.simple_define(name) else 0
            for part in [d.decl.body] + [x for mod in d.modifiers for x in (mod.cond, mod.value)]:
                got = min(2, got + self._fact_calls(part))
            self.define_facts[name] = got
        return got

    def pure_playable(self) -> bool:
        if self._playable_pure is None:
            self._playable_pure = False
            ok = True
            for k in self.m.kinds.values():
                if k.decl.playable is not None:
                    ok = ok and self.scan(k.decl.playable[1])[2]
            self._playable_pure = ok
        return self._playable_pure


def _children(e):
    if isinstance(e, ast.Text):
        return [p for p in e.parts if not isinstance(p, str)]
    if isinstance(e, ast.ListLit):
        return list(e.items)
    if isinstance(e, ast.Attr):
        return [e.obj]
    if isinstance(e, ast.Index):
        return [e.obj] + list(e.args)
    if isinstance(e, ast.Call):
        return list(e.args)
    if isinstance(e, ast.Unary):
        return [e.operand]
    if isinstance(e, ast.Binary):
        return [e.left, e.right]
    if isinstance(e, (ast.IsKind,)):
        return [e.expr]
    if isinstance(e, ast.IsIn):
        return [e.expr, e.collection]
    if isinstance(e, ast.IfExpr):
        return [e.cond, e.then, e.else_]
    if isinstance(e, ast.Range):
        return [e.start, e.stop, e.step]
    return []


class LoopContext:
    """One loop being compiled: the slots it binds, the expression it runs over (read
    once, before the loop: nothing to keep in its memo), and the memo of its invariants."""

    __slots__ = ("bound", "source", "cell", "size")

    def __init__(self, bound, source=None):
        self.bound = bound
        self.source = source
        self.cell = [None]  # the current loop run's memo list
        self.size = 0

    def memoised(self, f):
        cell, i = self.cell, self.size
        self.size += 1

        def invariant(st, L):
            m = cell[0]
            v = m[i]
            if v is MISSING:
                v = m[i] = f(st, L)
            return v
        return invariant

    def run_with_memo(self, loop):
        """Wrap a loop closure so each run starts with an empty memo (and nests safely)."""
        if not self.size:
            return loop
        cell, size = self.cell, self.size

        def fresh_memo(st, L):
            saved = cell[0]
            cell[0] = [MISSING] * size
            try:
                return loop(st, L)
            finally:
                cell[0] = saved
        return fresh_memo

    def reset_on(self, source):
        """Wrap a decision's candidate source: taking the candidates empties the memo."""
        if not self.size:
            return source
        cell, size = self.cell, self.size

        def source_fresh_memo(st, L):
            cell[0] = [MISSING] * size
            return source(st, L)
        return source_fresh_memo
