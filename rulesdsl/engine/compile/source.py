"""Expressions as Python: one generated function per expression tree instead of a
closure per node.

`xs(e)` gives a Python expression tree (`ast`) over `st` (the state) and `L` (the frame's
locals) that computes what the closure `expr(e)` computes, with the same errors. Nodes it
has no Python form for (comprehensions, most built-ins ...) stay closures, named in the
generated code and called as `K7(st, L)`; loop invariants stay hoisted because those nodes
go through `expr`. Texts and card labels are here too; whole generated functions are in
functions.py. Trees are only ever built, never read back from text: each is compiled as a tree
(`materialize`), and its text, written once by `ast.unparse`, is kept for `rulesdsl compile
GAME --show` and the native build and keys the cache of compiled code."""

from __future__ import annotations

import ast as py
import builtins
from typing import TYPE_CHECKING, Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.lang.limits import limit
from rulesdsl.engine.compile.program import MASK
from rulesdsl.engine.runtime import errors
from rulesdsl.engine.runtime.numbers import MAX_INT
from rulesdsl.engine.ir import nodes, python
from rulesdsl.engine.ir.python_loops import LoopsBackEnd
from rulesdsl.engine.ir.python import (MAX_DEPTH, both, call, clone, const, walk, if_else,
                                       identifier_part, index, is_none, method, name, state,
                                       walrus)
from rulesdsl.engine.compile.native import Module
from rulesdsl.engine.compile.unit import Unit
from rulesdsl.engine.compile.generate import pad_name
from rulesdsl.engine.compile.show import Listing
from rulesdsl.engine.journal import Later
from rulesdsl.engine.compile.generate import Statement, compiled_tree, lay_out
from rulesdsl.engine.runtime.places import rules_place

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.expressions import Expressions
    from rulesdsl.engine.compile.flow import Flow
    from rulesdsl.engine.compile.functions import Functions


# helpers the generated code calls (the errors on its failing paths only), by the names
# it has always called them
HELPERS = {**python.HELPERS, "_grid_none": errors.grid_none,
           "LATER": Later}

LEAVES = (ast.Int, ast.Bool, ast.NoneLit, ast.Name)
_ARITH = {"+", "-", "*"}


class GeneratedTooLarge(Exception):
    """The rules would generate more Python than the generated_code limit: compiling it
    would take memory out of all proportion to the file, so the closures run the game."""


class Source:
    """Compiles expression trees to generated Python functions."""

    def __init__(self, unit: Unit, native: Optional[Module] = None):
        self.m, self.n, self.p, self.b = unit.m, unit.n, unit.p, unit.b
        # the generated code's globals: tables and closures by name (with the builtins
        # from the start, as exec would add them: names are numbered by the namespace's size)
        self.ns = {"__builtins__": builtins, **HELPERS}
        self.native = native  # a built module's functions to use instead (native.py)
        self.pieces: list[tuple[str, str]] = []  # (mode, text) of every generated piece, in order
        self.piece_trees: list[py.Module | py.Expression] = []  # and its tree (materialize)
        self.ns_ids: dict[int, str] = {}  # id(object) -> its name in ns
        # what --show lists: every generated definition, and the frames' names
        self.listing = Listing(self.m, self.pieces, self.piece_trees)
        # id(generated lambda or closure) -> (it, the Python tree of what it computes)
        self.lambda_sources: dict[int, tuple[Callable, py.expr]] = {}
        # id(generated function) -> (it, the module defining it)
        self.function_modules: dict[int, tuple[Callable, py.Module]] = {}
        # id(generated function) -> (it, its tree, may a `let` of it take its statements),
        # for those built as trees
        self.function_trees: dict[int, tuple[Callable, py.FunctionDef, bool]] = {}
        self.temps = 0
        # id(node) -> (node, its closure, its Python or None)
        self.known_parts: dict[int, tuple[nodes.Node, Optional[Callable], Optional[py.expr]]] = {}
        self.frame_calls: dict[str, Callable] = {}  # "Kn" of a call `Kn(st, L)` -> what it calls
        # (phase or None, arguments): paddings the calls name (pad_name)
        self.pads: set[tuple[Optional[int], int]] = set()
        self.xs_depth = 0  # operators nested in the expression being generated
        self.playable_fn = None  # playable(c, p) as one generated function, once made
        self.local_invariants: dict[int, py.expr] = {}  # id(node) -> its read as a loop's local
        self.generated_room = limit("generated_code")  # characters still to generate
        self.to_python = LoopsBackEnd(self)

    def connect(self, exprs: Expressions, closures: Expressions, flow: Flow,
                functions: Functions) -> None:
        """`closures`: the expressions' compiler that generates no Python, for the parts
        left to closures (Compiler.__init__)."""
        self.exprs, self.closures, self.flow, self.functions = exprs, closures, flow, functions
        self.to_python.loops = functions  # the parts of loops over lists

    # ------------------------------------------------------------------ names
    def ref(self, obj, stem: str = "K") -> str:
        """The name under which the generated code reaches a table or a closure."""
        key = id(obj)
        name = self.ns_ids.get(key)
        if name is None:  # letters of the rules' names only: the text is Python
            name = identifier_part(stem) + str(len(self.ns))
            while name in self.ns:
                name += "_"
            self.ns[name] = obj
            self.ns_ids[key] = name
        return name

    def named(self, obj, stem: str) -> str:
        """A name for `obj` made from the rules' own (`SUIT_OF_CARD`, `IS_TRUMP`): capitals,
        so no local of a generated function hides it; numbered only where two things
        would share it."""
        name = self.ns_ids.get(id(obj))
        if name is None:
            base = identifier_part(stem).upper().strip("_") or "K"
            if base[0].isdigit():
                base = "_" + base
            name, k = base, 2
            while name in self.ns and self.ns[name] is not obj:  # (one put there by name)
                name, k = f"{base}_{k}", k + 1
            self.ns[name] = obj
            self.ns_ids[id(obj)] = name
        return name

    def pad(self, proc: Optional[int], nargs: int) -> str:
        return pad_name(self.pads, proc, nargs)

    def temp(self, stem: str = "t") -> str:
        """A fresh temporary of generated code, named after what it holds."""
        self.temps += 1
        return f"_{identifier_part(stem)}{self.temps}"

    def closure_of(self, node: nodes.Node):
        """The interpreter's closure of a lowered node, with no Python generated beneath it
        (for the Python back end, where a node has no Python form or nests too deep)."""
        return self.closures.in_loops_of(self.exprs).interpreter.closure(node)

    def opaque_ast(self, node: nodes.Opaque, depth: int) -> py.expr:
        """An Opaque part as a Python tree: a statement's value as the compiler chose to
        write it (Flow.written_as), else as `xs_or` builds it over the closure compiled
        for it already (Flow.value_part); any other as `source_ast`."""
        known = self.known_parts.get(id(node))
        if known is not None and known[0] is node:
            return known[2] if known[2] is not None else self.xs_or(node.source, known[1])
        return self.source_ast(node.source, depth)

    def opaque_statements(self, node: nodes.Opaque, slot: int) -> Optional[tuple]:
        """(statements, a test) for an Opaque part that is the whole test of a loop binding
        `slot`, a call of a definition that spends work and reads the loop's element (not
        a loop invariant, computed once per loop): its body written before the test
        (Functions.inline_statements); None where it is written as an expression."""
        e = node.source
        if type(e) is not ast.Call or slot not in self.functions.scanner.scan(e)[0] or any(
                # arguments read from no loop's memo
                type(a) is not ast.Name or self.m.resolved.get(id(a), ("",))[0] not in
                ("local", "var") for a in e.args):
            return None
        return self.functions.inline_statements(e)

    def source_ast(self, e, depth: int) -> py.expr:
        """A part of a lowered expression that lowering left to the compiler (`xs`), as a
        Python tree for the back end, nested `depth` deep."""
        saved, self.xs_depth = self.xs_depth, depth
        try:
            return self.xs(e)
        finally:
            self.xs_depth = saved

    def closure_call(self, e) -> py.expr:
        return self.frame_call(self.exprs.expr(e))

    # ------------------------------------------------------------------ entry points
    def generated_lambda(self, e, tree: py.expr):
        """`lambda st, L: tree` in the program's namespace (noted for --show)."""
        try:
            f = self.materialize(py.Expression(python.lambda_of(tree)), "eval")
        except (SyntaxError, RecursionError, MemoryError):
            return None  # past what Python compiles: the closures do it
        self.listing.note(f"E{self.listing.count}", getattr(e, "span", None), None)
        self.lambda_sources[id(f)] = (f, tree)
        return f

    def generated_expression(self, e, tree: py.expr, names: dict):
        """A lowered expression's own generated function (noted for --show), its locals
        and variables read under the rules' names; elsewhere its Python is written inline
        (`call_source`), over the frame."""
        title, span = f"E{self.listing.count}", getattr(e, "span", None)
        try:
            f = self.materialize(python.named_function(title, tree, names), "exec")
        except (SyntaxError, RecursionError, MemoryError):
            return None  # past what Python compiles: the closures do it
        where = f"  # {rules_place(span)}" if span is not None else ""
        self.listing.note(title, span, 1, where)  # the rules' place beside the `def` line
        self.lambda_sources[id(f)] = (f, tree)
        return f

    def materialize(self, tree: py.Module | py.Expression, mode: str):
        """A generated tree made a function ("eval": an `ast.Expression`, a lambda;
        "exec": an `ast.Module` of one `def`) or, for "procs", the procedures' functions by
        name. The tree is laid out as `ast.unparse` writes it (generate.lay_out) and
        compiled as it is; that text is written for --show and the native build (in
        `pieces`, with the tree). Compiled here, or taken from the game's native module
        (native.py) where that was built from the same text."""
        if isinstance(tree, py.Expression):
            lay_out([py.Expr(tree.body)])
        else:
            lay_out(tree.body)
        text = py.unparse(tree)
        self.generated_room -= len(text)
        if self.generated_room < 0:  # before compiling: Python takes ~65 bytes per character
            raise GeneratedTooLarge
        code = compiled_tree(tree, text, "eval" if mode == "eval" else "exec")  # SyntaxError
        self.pieces.append((mode, text))
        self.piece_trees.append(tree)
        self.listing.piece_frames.append(self.listing.frame_names)
        made = self.native.take(len(self.pieces) - 1, mode, text, self.ns) \
            if self.native is not None else None
        if made is not None:
            return made
        if mode == "eval":
            return eval(code, self.ns)
        scope: dict = {}  # what the text defines, in the namespace it reads
        exec(code, self.ns, scope)
        return scope if mode == "procs" else next(iter(scope.values()))

    def known_as(self, f, tree: py.expr):
        """Note that closure `f` computes the expression `tree`: call_source writes that
        instead of calling it (where the program is generated). Returns f."""
        self.lambda_sources[id(f)] = (f, tree)
        return f

    def source_tree(self, f) -> Optional[py.expr]:
        """The expression closure `f` is known to compute, or None."""
        known = self.lambda_sources.get(id(f))
        return known[1] if known is not None and known[0] is f else None

    def call_source(self, f) -> py.expr:
        """A call of closure `f` as Python: a generated lambda's own expression inline
        (no call at run time), else `Kn(st, L)`."""
        known = self.lambda_sources.get(id(f))
        if known is not None and known[0] is f:
            return known[1]
        return self.frame_call(f)

    def frame_call(self, f) -> py.Call:
        """`Kn(st, L)`: a call of `f` over the state and the frame's locals, noted so that
        body_of_call knows what a call of this form calls."""
        fn = self.ref(f)
        self.frame_calls[fn] = f
        return call(fn, name("st"), name("L"))

    def generated_function(self, fn: py.FunctionDef | py.Module, title: str, span):
        """The one function `fn` is (or a module of it defines), compiled in the program's
        namespace and noted for --show under `title` (which names the place of `span` in
        the rules, if any); None if Python cannot compile it (then the closures do the
        work)."""
        module = fn if isinstance(fn, py.Module) else py.Module([fn], [])
        try:
            f = self.materialize(module, "exec")
        except (SyntaxError, RecursionError, MemoryError):
            return None
        self.listing.note(title, span, 0)  # its place in its title
        self.function_modules[id(f)] = (f, module)
        return f

    def function(self, fn: py.FunctionDef, title: str, span,
                 as_statements: bool = True) -> Optional[py.expr]:
        """For the Python back end: `fn(st, L)` as a generated function of its own (its
        lines kept, so a definition whose value it is takes them as its own body), called
        as `Kn(st, L)`; None where Python cannot compile it. `as_statements`: its tree
        kept too, so that a `let` of it takes its statements (set_to_call)."""
        place = f" at {rules_place(span)}" if span is not None else ""
        made = self.generated_function(fn, f"{title}{place}", span)
        if made is None:
            return None
        self.function_trees[id(made)] = (made, fn, as_statements)
        return self.frame_call(made)

    def set_to_call(self, target: py.expr, tree: py.expr) -> Optional[list]:
        """`target = tree`, where `tree` calls a function the Python back end built whose
        one `return` is its last statement, as that function's statements with the return
        made the assignment (no call); None for any other tree."""
        f = self.called(tree)
        known = self.function_trees.get(id(f)) if f is not None else None
        if known is None or known[0] is not f or not known[2]:
            return None
        body = known[1].body
        if sum(isinstance(x, py.Return) for x in walk(known[1])) != 1 or \
                not isinstance(body[-1], py.Return) or body[-1].value is None:
            return None
        return body[:-1] + [python.assign(target, body[-1].value)]

    def called(self, tree: py.expr) -> Optional[Callable]:
        """The generated function a call `Kn(st, L)` calls, or None."""
        if not (isinstance(tree, py.Call) and isinstance(tree.func, py.Name) and
                not tree.keywords and [getattr(a, "id", None) for a in tree.args] == ["st", "L"]):
            return None
        f = self.frame_calls.get(tree.func.id)
        made = self.function_modules.get(id(f))
        return f if made is not None and made[0] is f else None

    def body_of_call(self, tree: py.expr) -> Optional[list]:
        """The body of the generated function a call `Kn(st, L)` calls (copied), where it
        was built as a tree; else None."""
        f = self.called(tree)
        known = self.function_trees.get(id(f)) if f is not None else None
        if known is None or known[0] is not f:
            return None
        return clone(known[1].body)

    def hooked_source(self, e) -> Optional[py.expr]:
        """`e` where a loop already has it: a local of the loop's function, or a loop
        invariant read from the loop's memo (a comprehension in a loop: its closure)."""
        if self.local_invariants:
            local = self.local_invariants.get(id(e))
            if local is not None:
                return local
        if self.exprs.loop_stack and type(e) in (ast.Call, ast.Comprehension, ast.Name):
            f = self.exprs.hoisted(e)  # a loop invariant: computed once per run of the loop
            if f is not None:
                return self.call_source(f)
            if type(e) is ast.Comprehension:
                return self.closure_call(e)
        return None

    def xs(self, e) -> py.expr:
        """Python for `e`, a tree; a closure call where it has no Python form."""
        text = self.hooked_source(e)
        if text is not None:
            return text
        if self.xs_depth >= MAX_DEPTH:  # Python's parser nests 200 parentheses at most
            return self.frame_call(self.closures.in_loops_of(self.exprs).expr(e))
        if self.exprs.lowering.handles(e):
            return self.lowered_source(e)
        build = getattr(self, "xs_" + type(e).__name__, None)
        if build is not None:
            self.xs_depth += 1
            try:
                tree = build(e)
            finally:
                self.xs_depth -= 1
            if tree is not None:
                return tree
        return self.closure_call(e)

    def lowered_source(self, e) -> py.expr:
        """An expression engine/ir lowers, through its Python back end."""
        return self.to_python.emit(self.exprs.lowering.root(e), self.xs_depth)

    def collection_source(self, e) -> py.expr:
        """The elements of a list or a zone (its live list: read it, do not change it)."""
        tree = self.xs(e)
        return index(state("zones"), tree) if self.m.types.get(id(e)) == "zone" else tree

    def xs_or(self, e, f) -> py.expr:
        """Python for `e` whose closure `f` is compiled already: reuse it where `e` has no
        Python form, rather than compiling it twice."""
        if self.exprs.lowering.handles(e):
            return self.lowered_source(e)
        build = getattr(self, "xs_" + type(e).__name__, None)
        tree = build(e) if build is not None else None
        return tree if tree is not None else self.call_source(f)

    def plain(self, closure):
        """The source form of an instruction that only changes the game (never the frames,
        never a decision): a call of its closure, without the interpreter around it."""
        return Statement("do", (py.Expr(call(self.ref(closure, "I"), name("st"),
                                             name("fr"))),))

    def label_source(self, t: str, e) -> py.expr:
        """How a value of type `t` reads in a text (the labeller, inlined)."""
        x = self.temp()
        value = self.xs(e)
        shown = self.shown(t, name(x))
        if shown is None:
            return call("LABEL", const(t), value, name("st"))
        return if_else(is_none(walrus(x, value)), const("none"), shown)

    def shown(self, t: str, x: py.expr) -> Optional[py.expr]:
        """The label of the value `x` (a name, not none) of type `t`, or None where the
        labeller must say."""
        if t == "card" and self.p.pieces is None:  # a piece's label follows its state
            return index(name(self.ref(self.p.card_label, "CARD_LABELS")), x)
        if t == "player":
            return py.BinOp(const("P"), py.Add(), call("str", py.BinOp(x, py.Add(), const(1))))
        if t in self.m.enums:
            return index(name(self.ref(list(self.m.enums[t].values), "NAMES_" + t + "_")), x)
        if t in ("int", "text"):  # as the labeller writes them
            return call("str", x)
        return None

    def text_source(self, text) -> py.expr:
        """A text with holes as one expression; the limits as `text()` checks them (a long
        text is counted against the decision's long_texts)."""
        self.ns.setdefault("LABEL", self.p.labeller)
        pieces = [const(part) if isinstance(part, str) else
                  self.label_source(self.m.types.get(id(part), "any"), part)
                  for part in text.parts]
        joined = _sum(pieces) if len(pieces) > 1 else call("str", pieces[0])
        budget, span, t = self.ref(self.b, "BUDGET"), self.ref(text.span, "S"), self.temp()
        short = py.Attribute(name(budget), "short_text", py.Load())
        return if_else(py.Compare(call("len", walrus(t, joined)), [py.LtE()], [short]), name(t),
                       method(name(budget), "check_text", name(t), name(span)))

    def later_words(self, texts: list, count: Optional[py.expr] = None) -> Optional[py.expr]:
        """Texts for a log entry, written when the log is read: `(LATER, Wn, (values))`,
        where the holes' values are taken now and `Wn(*values)` gives the texts (the last
        one masked: MASK reads "a card", or "N cards" with `count`). None where a hole could
        fail or spend work, or the words could pass the text limit: those are written now,
        as `text_source` writes them, so every error still comes when the move is made."""
        holes: dict = {}  # id(hole) -> (its parameter, its value's expression)
        rendered: list[py.expr] = []
        for text in texts:
            pieces: list[py.expr] = []
            longest = 0
            for part in text.parts:
                if isinstance(part, str):
                    pieces.append(const(part))
                    longest += len(part)
                    continue
                t = self.m.types.get(id(part), "any")
                width = self.label_width(t, part)
                if width is None:
                    return None
                longest += width
                if id(part) not in holes:
                    holes[id(part)] = (f"a{len(holes)}", part)
                a = name(holes[id(part)][0])
                shown = self.shown(t, a)
                assert shown is not None  # label_width knows the words of the type
                pieces.append(if_else(is_none(a), const("none"), shown))
            if longest > self.b.text_length:
                return None
            rendered.append(_sum(pieces) if pieces else const(""))
        if not holes:
            return None  # a constant text costs nothing now
        if count is not None:  # `'a card' if n == 1 else f'{n} cards'`
            cards = py.JoinedStr([py.FormattedValue(name("n"), -1, None), const(" cards")])
            told: py.expr = if_else(py.Compare(name("n"), [py.Eq()], [const(1)]),
                                    const("a card"), cards)
            rendered[-1] = method(rendered[-1], "replace", const(MASK), told)
        elif len(texts) > 1:
            rendered[-1] = method(rendered[-1], "replace", const(MASK), const("a card"))
        params = [a for a, _ in holes.values()] + (["n"] if count is not None else [])
        title = f"W{self.listing.count}"
        render = self.generated_function(
            python.function_def(title, params, [py.Return(py.Tuple(rendered, py.Load()))]),
            f"{title}, words at {rules_place(texts[0].span)}", texts[0].span)
        if render is None:
            return None
        values = [self.xs(part) for _, part in holes.values()] + \
            ([count] if count is not None else [])
        return py.Tuple([name("LATER"), name(self.ref(render, "W")),
                         py.Tuple(values, py.Load())], py.Load())

    def label_width(self, t: str, e) -> Optional[int]:
        """The longest text a hole of type `t` can read as, when its value is plain data
        read without work or failure; else None."""
        if not self.plain_value(e):
            return None
        if t == "card" and self.p.pieces is None:
            return max([4] + [len(x) for x in self.p.card_label])
        if t == "player":
            return max(4, 1 + len(str(self.n)))
        if t in self.m.enums:
            return max([4] + [len(x) for x in self.m.enums[t].values])
        if t != "int":
            return None
        kind = type(e)
        if kind is ast.Int and -MAX_INT <= e.value <= MAX_INT:
            return len(str(e.value))
        if kind is ast.Binary:
            return len(str(-MAX_INT))  # arithmetic is checked to stay within MAX_INT
        if kind in (ast.Name, ast.Index) and self.m.resolved[id(e)][0] == "var":
            return len(str(-MAX_INT))  # so are `set`, scenarios and saves
        if kind is ast.Attr and self.m.resolved[id(e)][0] == "card_field" and \
                self.p.pieces is None:
            return max([4] + [len(str(v)) for v in self.p.fields[self.m.resolved[id(e)][1]]])
        return None  # a local or a sum may hold any number: its text is checked now

    def plain_value(self, e) -> bool:
        """Whether `e` only reads: names, variables, fields, arithmetic of them, and the
        top card of a zone (what is never a definition call, an aggregate or a list)."""
        kind = type(e)
        if kind in (ast.Int, ast.Bool, ast.NoneLit):
            return True
        if kind is ast.Name:
            return self.m.resolved[id(e)][0] in ("local", "var", "enum_value", "zone")
        if kind is ast.Attr:
            return self.m.resolved[id(e)][0] in ("card_field", "enum_field", "enum_value") \
                and self.plain_value(e.obj)
        if kind is ast.Index:  # a variable's value, or which zone of a family
            return self.m.resolved[id(e)][0] in ("var", "zone") and \
                all(map(self.plain_value, e.args))
        if kind is ast.Binary:
            return e.op in _ARITH and self.plain_value(e.left) and self.plain_value(e.right)
        if kind is ast.Call:  # the top or bottom card of a zone: a read that spends no work
            return e.name in ("top", "bottom") and len(e.args) == 1 and \
                self.m.resolved.get(id(e), ("",))[0] not in ("define", "aggregate") and \
                self.m.types.get(id(e.args[0])) == "zone" and self.plain_value(e.args[0])
        return False

    def inline_root(self, e):
        """For `expr`: a generated function for `e`, or None to use the closures."""
        build = getattr(self, "xs_" + type(e).__name__, None)
        if build is None or type(e) in LEAVES:
            return None  # a leaf's closure is as quick as a generated one
        saved, self.xs_depth = self.xs_depth, 1  # a function of its own: depth from 1
        try:
            tree = build(e)
        finally:
            self.xs_depth = saved
        if tree is None:
            return None
        return self.generated_lambda(e, tree)

    def xs_Name(self, e):
        """A definition without arguments (every other name is lowered; xs hoists it in
        loops)."""
        return self.functions.define_call_source(self.m.resolved[id(e)][1], [])

    # ------------------------------------------------------------------ operators
    def xs_Call(self, e):
        """Definitions, the grid and `playable` (engine/ir lowers the one-card built-ins);
the others stay closures."""
        kind, payload = self.m.resolved.get(id(e), ("", None))
        if kind == "define":
            return self.functions.define_call_source(payload, e.args)
        if kind == "aggregate":
            return None
        if e.name in ("neighbour", "ray", "around", "column_of", "row_of") and self.p.grids:
            return self.grid_source(e)
        if e.name == "playable" and len(e.args) == 2:
            return self.playable_source(e)
        return None

    def playable_source(self, e):
        """`playable(c, p)`: one generated function that tests the card's kind and runs its
        kind's `playable by` condition inline (as the closure: none is not playable, a
        kind without a condition always is). None where the seat is not a plain local
        (the closure reads it only for kinds with a condition)."""
        who = e.args[1]
        if type(who) is not ast.Name or self.m.resolved[id(who)][0] != "local" or \
                self.xs_depth >= MAX_DEPTH:
            return None
        seat = self.xs(who)
        fn = self.playable_fn
        if fn is None:
            kinds: dict = {}  # (condition, slots) -> the kinds it decides
            for k, check in enumerate(self.p.playable):
                got = self.flow.playable_sources[id(check)] if check is not None else None
                kinds.setdefault(got, []).append(k)
            kind, c = name("k"), name("c")
            body: list[py.stmt] = [
                py.If(is_none(c), [py.Return(const(False))], []),
                python.assign(kind, index(name(self.ref(self.p.card_kind, "KIND_OF")), c))]
            for got, ks in kinds.items():
                test = py.Compare(kind, [py.Eq()], [const(ks[0])]) if len(ks) == 1 else \
                    py.Compare(kind, [py.In()], [py.Tuple([const(x) for x in ks], py.Load())])
                if got is None:
                    body.append(py.If(test, [py.Return(const(True))], []))
                    continue
                cond, size = got
                frame: list[py.expr] = [c, name("seat")] + [const(None)] * (size - 2)
                body.append(py.If(test, [
                    python.assign(name("L"), py.List(frame, py.Load())),
                    py.Return(call("bool", self.call_source(cond)))], []))
            body.append(py.Return(const(True)))
            fn = self.playable_fn = self.generated_function(
                python.function_def("playable", ["st", "c", "seat"], body),
                "playable", None)
            if fn is None:
                return None
        return call(self.ref(fn, "PLAYABLE"), name("st"), self.xs(e.args[0]), seat)

    def grid_source(self, e):
        """neighbour(c, d), ray(c, d), around(c): a lookup in the grid's tables;
        column_of(c), row_of(c): arithmetic on the cell's number."""
        board = self.m.types.get(id(e.args[0]))
        tables = self.p.grids.get(board) or next(iter(self.p.grids.values()))
        span, c, d = name(self.ref(e.span, "S")), self.temp(), self.temp()
        cell = is_none(walrus(c, self.xs(e.args[0])), negated=True)
        if e.name in ("column_of", "row_of"):  # 1-based, as the closures count
            op = py.Mod() if e.name == "column_of" else py.FloorDiv()
            rule = py.BinOp(py.BinOp(name(c), op, const(tables.width)), py.Add(), const(1))
            return if_else(cell, rule, call("_grid_none", const(e.name), name(c), const(0), span))
        if e.name == "around":
            table = name(self.ref(tables.around, "AROUND"))
            return if_else(cell, index(table, name(c)),
                           call("_grid_none", const("around"), name(c), const(0), span))
        table = name(self.ref(tables.step if e.name == "neighbour" else tables.rays,
                              "NEIGHBOUR" if e.name == "neighbour" else "RAYS"))
        way = is_none(walrus(d, self.xs(e.args[1])), negated=True)
        return if_else(both(cell, way), index(index(table, name(c)), name(d)),
                       call("_grid_none", const(e.name), name(c), name(d), span))


def _sum(pieces: list) -> py.expr:
    """`a + b + c`: the texts joined, left to right."""
    total = pieces[0]
    for piece in pieces[1:]:
        total = py.BinOp(total, py.Add(), piece)
    return total
