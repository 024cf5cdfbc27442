"""Expressions as closures over the state and the frame's locals, with loop-invariant parts
hoisted. What engine/ir lowers (names, reads, operators, a few built-ins) is lowered to its
typed nodes and run by one of its back ends; the rest is compiled here."""

from __future__ import annotations

import ast as py
from typing import TYPE_CHECKING, Any, Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.engine.hoist import MISSING, LoopContext
from rulesdsl.engine.grid import var_prefix
from rulesdsl.engine.ir import nodes, python
from rulesdsl.engine.ir.python import const, if_else, index, method, name, state, walrus
from rulesdsl.engine.ir.interpret import Interpreter
from rulesdsl.engine.ir.lower import Lowering
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.calls import Calls
    from rulesdsl.engine.compile.functions import Functions
    from rulesdsl.engine.compile.source import Source
    from rulesdsl.engine.compile.layout import Layout


class Expressions:
    """Compiles an expression once into a closure."""

    def __init__(self, unit: Unit):
        self.unit = unit
        self.m, self.n, self.p, self.b = unit.m, unit.n, unit.p, unit.b
        self.options, self.scanner = unit.options, unit.scanner
        self.loop_stack: list[LoopContext] = []  # the candidate loops being compiled
        # lowered to engine/ir's typed nodes, then run as closures or written as Python
        self.lowering = Lowering(self)
        self.interpreter = Interpreter(self)
        self.parts_of: Optional[dict] = None  # id(a definition's value, a modifier's part) -> it

    def connect(self, calls: Calls, functions: Functions, source: Source,
                layout: Layout) -> None:
        self.calls, self.functions, self.source = calls, functions, source
        self.enum_fields = layout.enum_fields  # for lowering: filled as it lays out

    def in_loops_of(self, other: Expressions) -> Expressions:
        """This compiler, compiling inside the loops `other` has open (the compiler of
        closures only, taking over a part from the generating one)."""
        self.loop_stack = other.loop_stack
        return self

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
            self.lowering.loop_bound(self.m.slots[id(c)], (c.where, c.value), c.source)
            ctx = self.open_loop(self.m.slots[id(c)], (c.where, c.value), c.source)
            try:
                f = getattr(self, "e_" + t.__name__)(e)
            finally:
                self.close_loop(ctx)
            if getattr(f, "memo_of", None) is ctx:
                return f  # generated: it empties the memo itself
            return ctx.run_with_memo(f)
        if self.lowering.handles(e):
            return self.compiled(self.lowering.root(e), e)
        if self.unit.generate:
            f = self.source.inline_root(e)
            if f is not None:
                return f
        f = getattr(self, "e_" + t.__name__)(e)
        if self.unit.generate and t is ast.Name:  # a definition: generated code calls it directly
            tree = self.functions.define_call_source(self.m.resolved[id(e)][1], [])
            if tree is not None:
                self.source.known_as(f, tree)
        return f

    def const(self, e):
        """The value of an expression that reads no state and no local (a count, an
        enum's field), worked out once while compiling."""
        return self.expr(e)(None, [None] * 4)

    def compiled(self, node: nodes.Node, e) -> Callable:
        """A lowered expression as a closure: generated (one lambda over the node's Python
        tree) where the program is generated and the node is more than a leaf, else the
        interpreter's (a leaf's is as quick, and known by its Python form)."""
        if self.unit.generate and not node.is_leaf:
            tree = self.source.to_python.root(node, 1)  # a function of its own: depth from 1
            called = self.source.called(tree) if tree is not None else None
            if called is not None:  # the node is a generated function's call: that function
                return called
            if tree is not None:
                f = self.source.generated_expression(e, tree, python.reads(node))
                if f is not None:
                    return f
        f = self.interpreter.closure(node)
        if self.unit.generate and node.is_leaf:
            self.source.known_as(f, self.source.to_python.emit(node, 0))
        return f

    def known_part(self, e, f: Callable, t: str) -> nodes.Opaque:
        """`e`, compiled already as closure `f` giving a value of type `t` (a list is never
        none), as a part of a node both back ends take as it is: the interpreter its
        closure, the Python back end its call (or its expression inline)."""
        node = nodes.Opaque(t, e, never_none=t.startswith("list"))
        tree = self.source.call_source(f) if self.unit.generate else None
        self.source.known_parts[id(node)] = (node, f, tree)
        return node

    def closure_part(self, node: nodes.Node) -> Callable:
        """For the interpreter: the closure of a part of a node, generated where the
        program is (as `expr` would compile it)."""
        known = self.source.known_parts.get(id(node))
        if known is not None and known[0] is node and known[1] is not None:  # a statement's value
            return known[1]
        if self.unit.generate and not node.is_leaf and not isinstance(node, nodes.Opaque):
            return self.compiled(node, node)
        return self.interpreter.closure(node)

    def frame_part(self, node: nodes.Node) -> Callable:
        """For the interpreter: a part of a definition, compiled on a frame of its own (no
        loop of the caller open)."""
        outer, self.loop_stack = self.loop_stack, []  # a body has its own locals
        d = self.definition_of(node)
        try:
            with self.source.listing.frame_of(*((d.decl, *d.modifiers) if d is not None else ())):
                return self.closure_part(node)
        finally:
            self.loop_stack = outer

    def definition_of(self, node: nodes.Node):
        """The checked definition whose value or modifier `node` is, if it is one."""
        if not isinstance(node, nodes.Opaque):
            return None
        if self.parts_of is None:
            self.parts_of = {}
            for d in self.m.defines.values():
                for part in (d.decl.body, *(x for mod in d.modifiers
                                            for x in (mod.cond, mod.value))):
                    self.parts_of[id(part)] = d
        return self.parts_of.get(id(node.source))

    @property
    def definitions(self) -> dict:
        """For the interpreter: the definitions' compiled parts (Calls.define_bodies)."""
        return self.calls.define_bodies

    def kept(self, e) -> bool:
        """For lowering: is `e` compiled here rather than lowered into its parent (a loop's
        invariant read from its memo or a local, a call a loop may hoist)?"""
        if self.source.local_invariants and id(e) in self.source.local_invariants:
            return True
        return bool(self.loop_stack) and type(e) is ast.Call

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
        known = self.source.source_tree(source) \
            if self.unit.generate and wrapped is not source else None
        if known is not None:
            self.source.ns.setdefault("MISSING", MISSING)
            cell = name(self.source.ref(ctx.cell, "CELL"))
            fresh = py.BinOp(py.List([name("MISSING")], py.Load()), py.Mult(), const(ctx.size))
            self.source.known_as(wrapped, py.BoolOp(py.Or(), [
                method(cell, "__setitem__", const(0), fresh), known]))
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
                known = self.source.source_tree(f) if self.unit.generate else None
                if known is not None:  # read from the memo inline; computed on first use
                    self.source.known_as(invariant, self.memo_read(ctx, known))
                return invariant
        return None

    def memo_read(self, ctx: LoopContext, known: py.expr) -> py.expr:
        """The loop invariant `known` (the last one of loop `ctx`) read from the loop's memo,
        computed and kept there on its first read."""
        cell = index(name(self.source.ref(ctx.cell, "CELL")), const(0))
        i, t = const(ctx.size - 1), self.source.temp()
        self.source.ns.setdefault("MISSING", MISSING)
        kept = method(cell, "__setitem__", i, walrus(t, known))
        return if_else(py.Compare(walrus(t, index(cell, i)), [py.IsNot()], [name("MISSING")]),
                       name(t), py.BoolOp(py.Or(), [kept, name(t)]))

    def e_Text(self, e):
        return self.text(e)

    def e_Name(self, e):
        """A definition without arguments (every other name is lowered)."""
        return self.calls.define_call(self.m.resolved[id(e)][1], [], e.span)

    def e_Prefix(self, e):
        fast = var_prefix(self, e)
        if fast is not None:
            return fast
        return self.loop("prefix", e, e.source, None, e.span)

    def loop(self, gives: str, e, items, src: Optional[Callable], span,
             t: str = "list") -> Callable:
        """A loop over the elements of `items` (a nodes.Aggregate): `e` the comprehension
        (or prefix) it loops for, None for an aggregate of a whole list; `src` its items'
        closure, compiled already (None: a prefix's, compiled only for the closures).
        Generated as a function of its own where the program is generated (the Python back
        end asks Source.loop_parts for its parts, compiled then, inside the loop's
        memo); else, or where Python cannot have it, the interpreter's closure over the
        parts' closures. `t`: the type of its value."""
        where = getattr(e, "cond", None) if gives == "prefix" else getattr(e, "where", None)
        value = getattr(e, "value", None) if gives != "prefix" else None
        slot = self.m.slots[id(e)] if e is not None else 0
        sure = self.lowering.sure_elements(items) if e is not None else None
        if self.unit.generate and _generated(gives, where, value):
            tree = self.source.collection_source(items) if src is None or \
                gives in ("list", "prefix") else self.source.call_source(src)
            node = nodes.Aggregate(t, gives, slot, self.given_part(items, None, tree),
                                   None if where is None else nodes.Opaque("any", where),
                                   None if value is None else nodes.Opaque("any", value),
                                   span, sure)
            inline = value is None and where is not None and \
                gives in ("any", "all", "count", "list") and \
                slot in self.scanner.scan(where)[0]  # (not a loop invariant)
            self.functions.loops[id(node)] = (node, e, inline)
            made = self.source.to_python.root(node, 1)
            f: Any = self.source.called(made) if made is not None else None
            if f is not None:
                if gives != "prefix" and (where is not None or value is not None) and \
                        self.loop_stack:
                    f.memo_of = self.loop_stack[-1]  # it empties the memo itself
                return f
        if src is None:
            src = self.source_of(items)
        node = nodes.Aggregate(t, gives, slot, self.given_part(items, src, None),
                               None if where is None else
                               self.given_part(where, self.expr(where), None),
                               None if value is None else
                               self.given_part(value, self.expr(value), None), span, sure)
        return self.interpreter.closure(node)

    def given_part(self, e, f: Optional[Callable], tree) -> nodes.Opaque:
        """`e` as a part of a node both back ends take as it is: the interpreter its
        closure `f`, the Python back end its tree."""
        node = nodes.Opaque(self.m.types.get(id(e), "any"), e)
        self.source.known_parts[id(node)] = (node, f, tree)
        return node

    def source_of(self, e) -> Callable:
        """A closure giving the elements of a collection (a zone's live list: do not mutate)."""
        f = self.expr(e)
        if self.m.types.get(id(e)) == "zone":
            g = lambda st, L: st.zones[f(st, L)]  # noqa: E731
            known = self.source.source_tree(f) if self.unit.generate else None
            return g if known is None else self.source.known_as(g, index(state("zones"), known))
        return f

    def e_Comprehension(self, e):
        return self.loop("list", e, e.source, self.source_of(e.source), e.span)

    def e_Call(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind == "define":
            return self.calls.define_call(payload, [nodes.Opaque(self.m.types.get(id(a), "any"), a)
                                                    for a in e.args], e.span)
        if kind == "aggregate":
            return self.calls.aggregate(e)
        return self.calls.builtin(e)

    # ------------------------------------------------------------------ texts
    def text(self, text: ast.Text) -> Callable:
        parts: list[tuple] = []  # (None, its text) or (its type, its closure) per part
        label = self.p.labeller
        for part in text.parts:
            if isinstance(part, str):
                parts.append((None, part))
            else:
                parts.append((self.m.types.get(id(part), "any"), self.expr(part)))
        if all(t is None for t, _ in parts):
            s = "".join(x for _, x in parts)
            constant = lambda st, L: s  # noqa: E731
            return self.source.known_as(constant, const(s)) if self.unit.generate else constant
        if self.unit.generate:
            f = self.source.generated_lambda(text, self.source.text_source(text))
            if f is not None:
                return f

        b, span = self.b, text.span

        def render(st, L):
            s = "".join(x if t is None else label(t, x(st, L), st) for t, x in parts)
            return s if len(s) <= b.short_text else b.check_text(s, span)
        return render


def _generated(gives: str, where, value) -> bool:
    """Does the Python back end write a loop of this form (nodes.Aggregate), rather than
    call the interpreter's closure? Not a list copied whole, nor a count of values, nor
    the last of a where."""
    if gives == "prefix":
        return True
    if where is None and value is None:
        return gives != "list"
    return gives in ("list", "any", "all", "first", "sum", "max", "min") or \
        gives == "count" and where is not None and value is None
