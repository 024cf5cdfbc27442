"""Whole functions generated from the rules: definitions (their `let ... in` chains as
statements), and the parts of a loop over a list that the Python back end asks for
(ir/python_loops.py builds the loop: its where and value, their loop invariants read from
locals, a definition's call written in the loop as statements). Each does what the
closures of the same construct do, in the same order, spending the same work; a function
Python cannot compile is left to the closures (Source.generated_function returns None)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import ast as py
from ast import literal_eval

from rulesdsl.lang import ast
from rulesdsl.lang.reads import fixed_by_arguments, visits_lists
from rulesdsl.engine.runtime.fixed import remembered
from rulesdsl.engine.runtime.places import rules_place
from rulesdsl.engine.hoist import MISSING
from rulesdsl.engine.ir import nodes, passes, python, python_defs
from rulesdsl.engine.ir.python import (bound, both, const, if_else, name, walk, walrus)
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.calls import Calls
    from rulesdsl.engine.compile.expressions import Expressions
    from rulesdsl.engine.compile.source import Source


class Functions:
    """Generated functions for definitions, and the parts of loops over lists, written
    through Source (its `xs`, `ref` and `generated_function`)."""

    def __init__(self, unit: Unit):
        self.m, self.b, self.scanner = unit.m, unit.b, unit.scanner
        self.define_fns: dict = {}  # definition -> its generated function's name (or None)
        # definition written where it is called -> (its value's tree, parameters, lets,
        # the place its unit of work is spent for, None for a simple one, its frame's size)
        self.define_inline: dict = {}
        self.memo_fns: dict = {}  # "memo_<definition>_<arity>" -> its generated memo function
        # id(loop node) -> (it, the checked expression it loops for, is its where a
        # definition's call to write as statements), for loop_parts
        self.loops: dict[int, tuple] = {}

    def connect(self, calls: Calls, exprs: Expressions, source: Source) -> None:
        self.calls, self.exprs, self.source = calls, exprs, source

    # ------------------------------------------------------------------ loops
    def loop_parts(self, node: nodes.Aggregate) -> tuple:
        """For the Python back end: the parts of a loop over a list (LoopHost.loop_parts),
        from the checked expression it was built from (Expressions.loop): a prefix's
        condition; a where that is a definition's call as its body's statements and a
        test (inline_statements); else the where and the value, their plain
        loop invariants read from locals of the loop's function (loop_sources)."""
        known = self.loops.get(id(node))
        assert known is not None and known[0] is node
        _, comp, inline = known
        if node.gives == "prefix":
            return None, self.source.xs(comp.cond), None, []
        made = self.inline_statements(comp.where) if inline else None
        if made is not None:
            return made[0], made[1], None, []
        where, value, starts = self.loop_sources(comp)
        return None, where, value, starts

    def loop_memo(self) -> Optional[tuple]:
        """For the Python back end: the memo of the loop being compiled (LoopHost.loop_memo)."""
        ctx = self.exprs.loop_stack[-1] if self.exprs.loop_stack else None
        if ctx is None or not ctx.size:
            return None
        return self.source.ref(ctx.cell, "CELL"), ctx.size

    def loop_sources(self, comp) -> tuple:
        """The where's and the value's trees for a generated loop over `comp`, and the
        names of the locals they read their loop invariants from (each to start as
        MISSING): a plain part
        (reads, fields, arithmetic) or a pure definition's call that reads nothing the
        loop binds is computed the first time a candidate needs it and kept in a local of
        the loop's function (as lazily as the expression would compute it: no error comes
        sooner)."""
        slot = self.m.slots[id(comp)]
        bound = {slot}
        for part in (comp.where, comp.value):
            bound |= self.scanner.scan(part)[1]
        found: list = []
        for part in (comp.where, comp.value):
            self.find_local_invariants(part, bound, found)
        starts = []
        own = self.exprs.loop_stack
        self.exprs.loop_stack = own[:-1]  # not in its memo
        try:
            trees = [self.source.xs(node) for node in found]
        finally:
            self.exprs.loop_stack = own
        for node, tree in zip(found, trees):
            if _constant(tree):
                continue
            t = self.source.temp()
            self.source.local_invariants[id(node)] = if_else(
                py.Compare(name(t), [py.IsNot()], [name("MISSING")]), name(t), walrus(t, tree))
            starts.append(t)
        if starts:
            self.source.ns.setdefault("MISSING", MISSING)
        try:
            where = self.source.xs(comp.where) if comp.where is not None else None
            value = self.source.xs(comp.value) if comp.value is not None else None
        finally:
            for node in found:
                self.source.local_invariants.pop(id(node), None)
        return where, value, starts

    def find_local_invariants(self, e, bound: set, found: list) -> None:
        """The largest plain parts of `e` that read no slot in `bound`. Only through
        operators: a call or a list inside is a function of its own, where no local of
        this loop's function can be read."""
        kind = type(e)
        if kind in (ast.Binary, ast.Attr, ast.Index, ast.Unary) and self.source.plain_value(e) or \
                kind is ast.Call and self.m.resolved.get(id(e), ("",))[0] == "define":
            reads, _, pure = self.scanner.scan(e)
            if pure and not reads & bound:
                found.append(e)
                return
        if kind is ast.Binary:
            self.find_local_invariants(e.left, bound, found)
            self.find_local_invariants(e.right, bound, found)
        elif kind is ast.Unary:
            self.find_local_invariants(e.operand, bound, found)
        elif kind is ast.IfExpr:
            for part in (e.cond, e.then, e.else_):
                self.find_local_invariants(part, bound, found)

    # ------------------------------------------------------------------ definitions
    def define_call_source(self, name: str, args: list) -> Optional[py.expr]:
        """A call of a definition: its generated function on a fresh frame of locals.
        Where the closures memoise it (a pure definition of up to two arguments, none a
        card, while a decision's options are computed: Scanner.memoised_define), the memo
        answers then."""
        fn = self.define_function(name)
        if fn is None:
            return None
        lowering = self.exprs.lowering
        d = lowering.definition(name)
        node = passes.inline(lowering.define_call(name, tuple(
            nodes.Opaque(self.m.types.get(id(a), "any"), a, never_none=lowering.sure_opaque(a))
            for a in args)), lowering.inline_body)
        if not isinstance(node, nodes.DefCall):  # written where it is called
            return self.source.to_python.emit(node, self.source.xs_depth)
        inline = self.define_inline.get(name)
        if inline is not None:
            return self.inline_call(inline, args)
        called = python_defs.frame_call(fn, [self.source.xs(a) for a in args], d.size)
        if d.memo:
            # the closures' call
            self.calls.define_call(name, [nodes.Opaque(self.m.types.get(id(a), "any"), a)
                                          for a in args], d.span)
            m = self.source.temp()
            if all(self.hashable(a) for a in args):
                return self.memo_inline(d, fn, args, m)
            memo = self.memo_function(d, fn)
            return python_defs.memo_or_call(memo, called, m, [self.source.xs(a) for a in args])
        return called

    def note_inline(self, name: str, value: py.expr, nparams: int, lets: list,
                    spend: Optional[py.expr] = None) -> None:
        """Keep a definition's value, as Python over its parameters and its lets, to be
        written where it is called: where it reads no slot of its frame but those and
        nests shallowly (Python's parser nests 200 parentheses at most; an expression's
        brackets nest no deeper than its tree). A simple one is passes.inline's, but where
        lowering leaves a part of it to the compiler (a grid's built-in): it reads its
        frame only so (no closure, no loop over its locals); one that spends work
        (`spend`: the place it is spent for) may also hand its frame to a generated loop or
        a closure (an aggregate, a run of cells), which is then given a fresh list of its
        parameters and lets where it is called, and is not remembered while options are
        computed (a memo's answer spends nothing) nor called with a list (each call spends
        1, so a definition that calls itself or others over and over is still caught by
        the budget at the same step: inlining keeps the count, not the frames)."""
        trees = [tree for _, tree in lets] + [value]
        known = set(range(nparams)) | {slot for slot, _ in lets}
        if spend is None:
            reads = [python.frame_slots(tree) for tree in trees]
        else:
            reads = [set(python.slot_reads([tree])) for tree in trees]
            if any(isinstance(node, py.Lambda) for tree in trees for node in walk(tree)) or \
                    python.size_of(trees) > 1000:
                return
        if any(slots is None or not slots <= known for slots in reads) or \
                max(python.nesting(tree) for tree in trees) > 40 or len(lets) > 4:
            return
        self.define_inline[name] = (value, nparams, lets, spend, self.define_frame_size(name))

    def inline_call(self, inline: tuple, args: list) -> py.expr:
        """A definition's value where it is called: each argument computed once, in order,
        then its unit of work (one that spends), then its lets, then the value over them."""
        value, _, lets, spend, _ = inline
        computed, names, local = self.inlined(inline, args)
        body = local(value, len(lets))
        tests = [bound(names[slot], local(tree, k)) for k, (slot, tree) in enumerate(lets)]
        if spend is not None:  # its unit of work, after the arguments, before the lets
            tests.insert(0, python.spend_one(python.name(self.source.ref(self.b, "BUDGET")),
                                             spend))
        if tests:  # each let once, after the arguments, in order
            body = if_else(both(*tests), body, const(None))
        return with_arguments(body, computed)

    def inline_statements(self, e) -> Optional[tuple]:
        """(statements, the value) of a call `e` of a definition that spends work, written
        as statements where a loop's test is that call and reads the loop's element (a
        loop invariant is computed once per loop instead): its arguments into temporaries,
        its unit of work, each let (a let's loop, a run of cells, as its own statements,
        its names made fresh so they meet none of the loop's), then its value as an
        expression over them; None where the call is written otherwise."""
        resolved = self.m.resolved.get(id(e), ("",))
        if type(e) is not ast.Call or resolved[0] != "define" or \
                self.define_function(resolved[1]) is None:
            return None
        inline = self.define_inline.get(resolved[1])
        if inline is None or inline[3] is None:
            return None
        value, _, lets, spend, _ = inline
        computed, names, local = self.inlined(inline, list(e.args))
        out: list[py.stmt] = [python.assign(python.name(x), tree) for x, tree in computed]
        value_tree = local(value, len(lets))
        # with no let between, the units the value spends first (a definition it calls,
        # under tests that cannot fail) are taken with this one: one check for all
        first, rest = python.spends_first(value_tree) if not lets else ([], value_tree)
        out += python.spent_in_turn(python.name(self.source.ref(self.b, "BUDGET")),
                                    [spend, *first])
        for k, (slot, tree) in enumerate(lets):
            target = python.name(names[slot])
            made = self.source.set_to_call(target, tree)
            reads = [python.frame_slots(st) for st in made or ()]
            if made is None or any(x is None or not x <= names.keys() for x in reads) or \
                    any(isinstance(x, py.Subscript) and isinstance(x.ctx, py.Store)
                        for st in made for x in walk(st)):  # (a slot of its own)
                out.append(python.assign(target, local(tree, k)))
            else:  # its own names made fresh: a run's `s` and `x` are the loop's too
                out += python.renamed([local(st, k) for st in made], self.source.temp,
                                      keep={names[slot], "st"})
        return out, rest

    def inlined(self, inline: tuple, args: list) -> tuple:
        """The parts of a definition written where it is called: the arguments to compute
        first ((temporary, tree), in order), the name or tree of each slot of its frame,
        and a function writing one of its trees over those (`upto`: the lets bound when it
        runs)."""
        value, nparams, lets, spend, size = inline
        names: dict = {}
        computed: list = []  # (temporary, the argument's tree) of each argument computed first
        reads = python.slot_reads([value] + [tree for _, tree in lets])
        for k, a in enumerate(args):  # a constant, or a local read at most twice, is read
            tree = self.source.xs(a)  # where used (python.operand)
            again = python.read_again(tree) and (isinstance(tree, py.Constant) or
                                                 reads.get(k, 0) <= 2)
            names[k] = tree if again else self.source.temp()
            if not again:
                computed.append((names[k], tree))
        names.update((k, self.source.temp()) for k in range(len(args), nparams))
        names.update((slot, self.source.temp()) for slot, _ in lets)

        within = self.arguments_within(args, names)
        sure = self.arguments_sure(args, names)

        def local(tree: py.expr, upto: int) -> py.expr:
            if spend is not None and python.frame_handed(tree):
                # a function handed the frame gets one of its own: the parameters and the
                # lets bound so far, as the definition's frame holds them at that point
                frame: list[py.expr] = [const(None)] * size
                for k in [*range(min(len(args), nparams)), *(slot for slot, _ in lets[:upto])]:
                    frame[k] = python.frame_local(k)  # read as the inlined value is below
                tree = python.with_frame(tree, py.List(frame, py.Load()))
            # no item checks on arguments known to lie within a table (a range's element),
            # no none checks on those known never none (a zone's card bound by a loop)
            return python.nones_dropped(python.items_within(
                python.with_locals(tree, names), within, self.source.ns), sure)
        return computed, names, local

    def arguments_sure(self, args: list, names: dict) -> set:
        """The arguments of an inlined call known never none (a local bound to a zone's
        card, a seat of the players: Lowering.sure_reads), as python.nones_dropped takes
        them."""
        sure = self.exprs.lowering.sure_reads
        return {py.dump(python.name(names[k]) if isinstance(names[k], str) else names[k])
                for k, a in enumerate(args) if type(a) is ast.Name and id(a) in sure}

    def arguments_within(self, args: list, names: dict) -> dict:
        """The arguments of an inlined call known to be numbers from 0 to a bound less one
        (a range's element: Lowering.sure_elements), as python.items_within takes them."""
        sure = self.exprs.lowering.sure_reads
        out = {}
        for k, a in enumerate(args):
            below = sure.get(id(a), 0) if type(a) is ast.Name else 0
            if below:
                tree = names[k]
                out[py.dump(python.name(tree) if isinstance(tree, str) else tree)] = below
        return out

    def hashable(self, e) -> bool:
        """Is `e` a value a memo's key may hold (never a list)?"""
        t = self.m.types.get(id(e), "any")
        return t != "any" and not t.startswith("list")

    def memo_inline(self, d: nodes.Definition, fn: str, args: list, m: str) -> py.expr:
        """A pure definition's call with the memo read inline (python_defs.memo_read): the
        arguments once, then the memo's answer, else the definition's."""
        xs = [self.source.temp() for _ in args]
        key, v = self.source.temp(), self.source.temp()
        self.source.ns.setdefault("MISSING", MISSING)
        tree = python_defs.memo_read(d, fn, xs, m, key, v)
        return with_arguments(tree, list(zip(xs, [self.source.xs(a) for a in args])))

    def memo_function(self, d: nodes.Definition, fn: str) -> str:
        """A pure definition while a decision's options are computed: once per arguments,
        through its generated function (python_defs.memo_function)."""
        key_name = f"memo_{d.name}_{len(d.params)}"
        made = self.memo_fns.get(key_name)
        if made is not None:
            return made
        tree = python_defs.memo_function(d, fn, self.source.named(MISSING, "MISSING"))
        made = self.source.generated_function(
            tree, f"define {d.name}, remembered while options are computed "
            f"({rules_place(d.span)})", d.span)
        self.memo_fns[key_name] = self.source.ref(made, f"memo_{d.name}_")
        return self.memo_fns[key_name]

    def define_frame_size(self, name: str) -> int:
        return self.exprs.lowering.definition(name).size

    def define_function(self, name: str):
        """The name of the generated function of definition `name` (locals in, value out;
        it spends one unit of work per call, as the closures do), or None where the
        closures keep it: modifiers, and calls of a definition from inside itself."""
        made = self.define_fns.get(name)
        if made is not None or name in self.define_fns:
            return made
        d = self.m.defines[name]
        with self.source.listing.frame_of(d.decl, *d.modifiers):
            return self.new_define_function(name, d)

    def new_define_function(self, name: str, d):
        """define_function's function, made (once)."""
        node = self.exprs.lowering.definition(name)
        self.define_fns[name] = None  # while its body is generated: a call of itself
        budget = python.name(self.source.ref(self.b, "BUDGET"))
        simple = node.unit == 0  # spends no work: no statements for it
        place = None if simple else python.name(self.source.ref(d.decl.span, "S"))
        body: list[py.stmt] = []  # the lets' statements
        outer, self.exprs.loop_stack = self.exprs.loop_stack, []  # a body has its own locals
        saved, self.source.xs_depth = self.source.xs_depth, 0
        try:
            e = d.decl.body
            lets = []  # (slot, its value as a Python tree)
            while type(e) is ast.LetIn:  # `let x = v in ...` as statements
                self.exprs.lowering.let_bound(e)
                lets.append((self.m.slots[id(e)], self.source.xs(e.value)))
                target = python.frame_local(lets[-1][0])
                inline = self.source.set_to_call(target, lets[-1][1])  # a run: no call
                body += inline if inline else [python.assign(target, lets[-1][1])]
                e = e.body
            value = self.source.xs(e)
            if simple and not lets and not d.modifiers and len(d.params) == 1 and \
                    d.params[0][1] == "card":  # a card's own value: a table of it per card
                table = self.exprs.lowering.per_card(node) \
                    if python.cards_read(value, self.source.ns) is not None else None
                if table is not None:
                    value = python.read_per_card(self.source.named(table, f"{name}_of_card"),
                                                 value)
            loop = self.source.body_of_call(value) if not d.modifiers else None
            # a value fixed by the arguments that visits lists: remembered, not inlined
            fixed = not simple and bool(d.params) and fixed_by_arguments(name, self.m) and \
                visits_lists(name, self.m)
            if simple and self.exprs.lowering.inline_body(node) is None:
                self.note_inline(name, value, len(d.params), lets)  # (else passes.inline's)
            elif not (simple or fixed or d.modifiers or loop is not None or node.memo):  # (a
                # loop of its own: no call saved)
                self.note_inline(name, value, len(d.params), lets,
                                 python.name(self.source.ref(d.decl.span, "S")))
            mods = []
            for mod in (d.modifiers if loop is None else ()):  # (in the order they run)
                cond = self.source.xs(mod.cond)
                mods.append((cond, self.source.xs(mod.value)))
            tree = python_defs.function(node, budget, place, body, value, loop, mods)
        finally:
            self.exprs.loop_stack, self.source.xs_depth = outer, saved
        made = self.source.generated_function(
            tree, f"define {name} ({rules_place(d.decl.span)})" +
            (", remembered per arguments: fixed by them" if fixed else ""), d.decl.span)
        if made is None:
            return None
        if fixed:  # called through its memory (runtime/fixed.py), the function kept for --show
            self.source.ref(made, f"define_{name}_")
            made = remembered(made, len(d.params), self.b)
        fn = self.define_fns[name] = self.source.ref(made, f"define_{name}_")
        return fn


def with_arguments(tree: py.expr, computed: list) -> py.expr:
    """`tree` over temporaries, each first set to its argument's value, in order
    (`computed`: (temporary, the argument's tree))."""
    if not computed:
        return tree
    return if_else(both(*[bound(x, value) for x, value in computed]), tree, const(None))


def _constant(tree: py.expr) -> bool:
    """Is `tree` a constant (a literal Python evaluates without running anything)?"""
    try:
        literal_eval(tree)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True

