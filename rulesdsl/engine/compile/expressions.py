"""Expressions as closures over the state and the frame's locals, with loop-invariant parts
hoisted."""

from __future__ import annotations

from typing import Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.engine.hoist import MISSING, LoopContext
from rulesdsl.engine.grid import prefix_closure
from rulesdsl.engine.pieces import field_reader
from rulesdsl.engine.runtime import errors
from rulesdsl.engine.runtime.numbers import MAX_INT, range_list, too_big


class Expressions:
    """Compiles an expression once into a closure."""

    def expr(self, e) -> Callable:
        t = type(e)
        if self.loop_stack and (t is ast.Call or t is ast.Comprehension or t is ast.Name):
            f = self.hoisted(e)
            if f is not None:
                return f
        if t is ast.Comprehension or (t is ast.Call and e.args and
                                      type(e.args[0]) is ast.Comprehension and
                                      self.m.resolved.get(id(e), ("",))[0] == "aggregate"):
            c = e if t is ast.Comprehension else e.args[0]
            ctx = self.open_loop(self.m.slots[id(c)], (c.where, c.value), c.source)
            try:
                f = getattr(self, "e_" + t.__name__)(e)
            finally:
                self.close_loop(ctx)
            if getattr(f, "memo_of", None) is ctx:
                return f  # generated: it empties the memo itself
            return ctx.run_with_memo(f)
        if self.generate:
            f = self.inline_root(e)
            if f is not None:
                return f
        f = getattr(self, "e_" + t.__name__)(e)
        if self.generate and t is ast.Name and self.m.resolved[id(e)][0] in (
                "local", "var", "zone", "enum_all", "builtin", "enum_value", "option",
                "define"):
            text = self.xs_Name(e)  # a name generated code reads directly, not through f
            if text is not None:
                self.known_as(f, text)
        elif self.generate and t in (ast.Int, ast.Bool, ast.NoneLit):
            self.known_as(f, repr(f(None, None)))  # a constant: written as itself
        return f

    # ------------------------------------------------------------------ loop invariants
    def open_loop(self, slot, parts, source=None) -> LoopContext:
        """Start compiling the condition/value of a loop over candidates bound to `slot`
        (and its `source`, read once before it runs)."""
        bound = {slot}
        for part in parts:
            bound |= self.scanner.scan(part)[1]
        ctx = LoopContext(frozenset(bound), source)
        self.loop_stack.append(ctx)
        return ctx

    def close_loop(self, ctx: LoopContext) -> None:
        assert self.loop_stack.pop() is ctx

    def fresh_memo_on(self, ctx: LoopContext, source):
        """`ctx.reset_on(source)`, and in generated code the same as one expression: the
        loop's memo emptied, then its candidates."""
        wrapped = ctx.reset_on(source)
        known = self.source_text(source) if self.generate and wrapped is not source else None
        if known is not None:
            self.ns.setdefault("MISSING", MISSING)
            self.known_as(wrapped, f"({self.ref(ctx.cell, 'CELL')}.__setitem__(0, [MISSING] * "
                                   f"{ctx.size}) or {known})")
        return wrapped

    def hoisted(self, e) -> Optional[Callable]:
        """A pure sub-expression that no enclosing loop changes: computed once per run of
        the outermost such loop (see hoist.py)."""
        if type(e) is ast.Name and self.m.resolved.get(id(e), ("",))[0] != "define":
            return None
        reads, _, pure = self.scanner.scan(e)
        if not pure:
            return None
        for ctx in self.loop_stack:
            if not reads & ctx.bound:
                if ctx.source is e:  # a loop's own list: read once anyway
                    return None
                saved, self.loop_stack = self.loop_stack, []
                try:
                    f = self.expr(e)
                finally:
                    self.loop_stack = saved
                invariant = ctx.memoised(f)
                known = self.source_text(f) if self.generate else None
                if known is not None:  # read from the memo inline; computed on first use
                    cell, i, t = self.ref(ctx.cell, "CELL"), ctx.size - 1, self.temp()
                    self.ns.setdefault("MISSING", MISSING)
                    self.known_as(invariant, f"({t} if ({t} := {cell}[0][{i}]) is not MISSING "
                                             f"else {cell}[0].__setitem__({i}, ({t} := {known})) "
                                             f"or {t})")
                return invariant
        return None

    def e_Int(self, e):
        v = e.value
        if not -MAX_INT <= v <= MAX_INT:
            too_big(e.span, v)
        return lambda st, L: v

    def e_Bool(self, e):
        v = e.value
        return lambda st, L: v

    def e_NoneLit(self, e):
        return lambda st, L: None

    def e_Text(self, e):
        return self.text(e)

    def e_Name(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind == "local":
            slot = payload
            return lambda st, L: L[slot]
        if kind == "var":
            i = self.p.vars[payload].base
            return lambda st, L: st.vars[i]
        if kind == "zone":
            i = self.p.zones[payload].base
            return lambda st, L: i
        if kind == "option":
            v = self.options[payload]
            return lambda st, L: v
        if kind == "define":
            return self.define_call(payload, [], e.span)
        if kind == "builtin":
            if payload == "players":
                seats = list(range(self.n))
                return lambda st, L: seats
            if payload == "player_count":
                n = self.n
                return lambda st, L: n
            if payload == "cards":
                return lambda st, L: list(range(len(st.loc)))
        if kind == "enum_all":
            values = list(range(len(self.m.enums[payload].values)))
            return lambda st, L: values
        if kind == "enum_value":
            v = payload[1]
            return lambda st, L: v
        if kind == "self_field":  # inside a kind's label; compiled directly by card_label
            return lambda st, L: None
        raise AssertionError(kind)

    def e_LetIn(self, e):
        slot = self.m.slots[id(e)]
        value, body = self.expr(e.value), self.expr(e.body)

        def let_in(st, L):
            L[slot] = value(st, L)
            return body(st, L)
        return let_in

    def e_Prefix(self, e):
        if self.generate:
            f = self.generated_prefix(e)
            if f is not None:
                return f
        return prefix_closure(self, e)

    def e_ListLit(self, e):
        items = [self.expr(i) for i in e.items]
        return lambda st, L: [f(st, L) for f in items]

    def source_of(self, e) -> Callable:
        """A closure giving the elements of a collection (a zone's live list: do not mutate)."""
        f = self.expr(e)
        if self.m.types.get(id(e)) == "zone":
            g = lambda st, L: st.zones[f(st, L)]  # noqa: E731
            text = self.source_text(f)
            return g if text is None else self.known_as(g, f"st.zones[{text}]")
        return f

    def counted(self, src: Callable, span) -> Callable:
        """A source whose length is spent from the work budget each time it is visited."""
        b = self.b

        def visit(st, L):
            s = src(st, L)
            b.spend(len(s), span)
            return s
        return visit

    def e_Comprehension(self, e):
        slot = self.m.slots[id(e)]
        src = self.source_of(e.source)
        if self.generate and (e.where is not None or e.value is not None):
            f = self.generated_comprehension(e, e.span)
            if f is not None:
                return f
        where = self.expr(e.where) if e.where is not None else None
        value = self.expr(e.value) if e.value is not None else None
        b, span = self.b, e.span
        if value is None and where is None:
            return self.counted(lambda st, L: list(src(st, L)), span)

        def comp(st, L):
            out = []
            s = src(st, L)
            b.spend(len(s), span)
            for x in s:
                L[slot] = x
                if where is None or where(st, L):
                    out.append(x if value is None else value(st, L))
            return out
        return comp

    def e_Attr(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind == "enum_value":
            v = payload[1]
            return lambda st, L: v
        obj = self.expr(e.obj)
        span = e.span
        if kind == "card_field" and self.p.pieces is not None and payload in self.p.pieces.base:
            return field_reader(self.p.pieces, payload, obj, span)
        if kind == "card_field":
            values = self.p.fields[payload]
            name = payload
            leaf = self.simple(e.obj)
            if leaf is not None and leaf[0] == "local":
                slot = leaf[1]

                def local_field(st, L):
                    c = L[slot]
                    if c is None:
                        errors.none_field(name, span)
                    return values[c]
                return local_field

            def field(st, L):
                c = obj(st, L)
                if c is None:
                    errors.none_field(name, span)
                return values[c]
            return field
        values = self.enum_fields[payload]

        def efield(st, L):
            v = obj(st, L)
            if v is None:
                errors.none_enum_field(payload[1], span)
            return values[v]
        return efield

    def e_Index(self, e):
        kind, payload = self.m.resolved[id(e)]
        args = [self.expr(a) for a in e.args]
        if kind == "zone":
            return self.instance(self.p.zones[payload], args, e.span)
        if kind == "var":
            idx = self.instance(self.p.vars[payload], args, e.span)
            return lambda st, L: st.vars[idx(st, L)]
        src = self.source_of(e.obj)
        i = args[0]
        span = e.span

        def item(st, L):
            seq = src(st, L)
            k = i(st, L)
            if not -len(seq) <= k < len(seq):
                errors.bad_item(k, seq, span)
            return seq[k]
        return item

    def equality(self, e) -> Optional[Callable]:
        """`x == 3`, `c.colour == led.colour`...: no closure call for a constant or a local."""
        left, right = self.simple(e.left), self.simple(e.right)
        if left is not None and right is None:
            left, right = right, left
            e = ast.Binary(e.span, e.op, e.right, e.left)
        if right is None:
            return None
        a = self.expr(e.left)
        kind, v = right
        if e.op == "==":
            if kind == "const":
                return lambda st, L: a(st, L) == v
            return lambda st, L: a(st, L) == L[v]
        if kind == "const":
            return lambda st, L: a(st, L) != v
        return lambda st, L: a(st, L) != L[v]

    def e_Unary(self, e):
        f = self.expr(e.operand)
        if e.op == "not":
            return lambda st, L: not f(st, L)
        return lambda st, L: -f(st, L)

    def simple(self, e):
        """("const", value) or ("local", slot) for the leaves the hot paths inline."""
        t = type(e)
        if t is ast.Int and -MAX_INT <= e.value <= MAX_INT or t is ast.Bool:
            return ("const", e.value)
        if t is ast.NoneLit:
            return ("const", None)
        if t is ast.Name or t is ast.Attr:
            r = self.m.resolved.get(id(e))
            if r is not None:
                if r[0] == "local" and t is ast.Name:
                    return r
                if r[0] == "enum_value":
                    return ("const", r[1][1])
                if r[0] == "option" and t is ast.Name:
                    return ("const", self.options[r[1]])
        return None

    def e_Binary(self, e):
        if e.op in ("==", "!="):
            f = self.equality(e)
            if f is not None:
                return f
        a, b = self.expr(e.left), self.expr(e.right)
        op = e.op
        if op == "and":
            return lambda st, L: a(st, L) and b(st, L)
        if op == "or":
            return lambda st, L: a(st, L) or b(st, L)
        if op == "==":
            return lambda st, L: a(st, L) == b(st, L)
        if op == "!=":
            return lambda st, L: a(st, L) != b(st, L)
        span = e.span
        lt = self.m.types.get(id(e.left), "int")
        rt = self.m.types.get(id(e.right), "int")
        if op == "+" and (lt == "zone" or lt.startswith("list") or rt == "zone" or
                          rt.startswith("list")):
            sa = self.source_of(e.left)
            sb = self.source_of(e.right)
            b = self.b
            return lambda st, L: b.check_list(list(sa(st, L)) + list(sb(st, L)), span)
        import operator
        fn = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge,
              "+": operator.add, "-": operator.sub, "*": operator.mul}.get(op)
        if fn is not None and op in ("+", "-", "*"):
            def checked(st, L):
                x, y = a(st, L), b(st, L)
                if x is None or y is None:
                    errors.none_operand(op, span)
                v = fn(x, y)
                # repeated doubling must stop here, not grow until memory runs out
                if type(v) is int and not -MAX_INT <= v <= MAX_INT:
                    too_big(span)
                return v
            return checked
        if fn is not None:
            def arith(st, L):
                x, y = a(st, L), b(st, L)
                if x is None or y is None:
                    errors.none_operand(op, span)
                return fn(x, y)
            return arith

        def div(st, L):
            x, y = a(st, L), b(st, L)
            if not y:
                errors.by_zero(op, span)
            return x // y if op == "/" else x % y
        return div

    def e_IsKind(self, e):
        f = self.expr(e.expr)
        members = self.p.members[e.kind]
        if e.negated:
            return lambda st, L: (lambda c: c is None or not members[c])(f(st, L))
        return lambda st, L: (lambda c: c is not None and members[c])(f(st, L))

    def e_IsIn(self, e):
        f = self.expr(e.expr)
        src = self.counted(self.source_of(e.collection), e.span)
        if e.negated:
            return lambda st, L: f(st, L) not in src(st, L)
        return lambda st, L: f(st, L) in src(st, L)

    def e_IfExpr(self, e):
        c, a, b = self.expr(e.cond), self.expr(e.then), self.expr(e.else_)
        return lambda st, L: a(st, L) if c(st, L) else b(st, L)

    def e_Range(self, e):
        a, b = self.expr(e.start), self.expr(e.stop)
        step = self.expr(e.step) if e.step is not None else (lambda st, L: 1)
        span, budget = e.span, self.b
        return lambda st, L: range_list(a(st, L), b(st, L), step(st, L), budget, span)

    def e_Call(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind == "define":
            return self.define_call(payload, [self.expr(a) for a in e.args], e.span)
        if kind == "aggregate":
            return self.aggregate(e)
        return self.builtin(e)
