"""The generated code built as a C extension by Cython: `RULESDSL_ENGINE=native`.

The same generated text, compiled by a C compiler instead of run by the interpreter (with
the engine's hot modules, native_engine.py: 1.8-2.6x the speed of the pure-Python path on
the bundled card games; benchmarks/results.md). It is an opt-in extra
(`pip install "rulesdsl[native]"`, and a C compiler); the pure-Python path is the default
and the reference the tests compare with.

How: a game is compiled as always, which records every generated piece in order
(`Source.materialize`). The pieces become one module: each a function inside
`make(G)`, reading the names the compiler's namespace G gives them as closure variables,
so every program (player count, options, budget) has functions of its own. The module is
built once per text, in the cache folder (engine/cython_build.py), and loaded only where
its bytes have the digest its build recorded (a planted or damaged one is built again). Then the
game is compiled a second time (a few milliseconds), taking each piece's function from the
module where its text is the one built."""

from __future__ import annotations

import ast as py
import copy
import hashlib
import os
import sys
import tempfile
from typing import Callable, Optional

from rulesdsl.cache import cache_folder
from rulesdsl.engine import cython_build
from rulesdsl.engine.budget import Budget
from rulesdsl.engine.compile import program
from rulesdsl.engine.ir import python
from rulesdsl.engine.cython_build import NativeUnavailable  # (compile_program's too)


def requested() -> bool:
    return os.environ.get("RULESDSL_ENGINE") == "native"


def engine_is_native() -> bool:
    """Is the engine itself built (native_engine.py)? Then State is a C type whose fields
    the game's module reads directly; a module built so loads only beside that engine."""
    return program.ENGINE_BUILT  # built with the state (native_engine.HOT)


def _functions(tree: py.AST) -> list:
    """Every function `tree` defines (by `def`, at any depth), the outermost first."""
    return [node for node in python.walk(tree) if isinstance(node, py.FunctionDef)]


def _names_read(tree: py.AST) -> set:
    """The names (and attributes) `tree` reads."""
    return {node.id if isinstance(node, py.Name) else node.attr for node in python.walk(tree)
            if isinstance(node, (py.Name, py.Attribute))}


def _headed(tree: py.Module, typed: bool, rename: str = "") -> list:
    """The statements of `tree` (a piece) with its functions' heads as the module needs
    them: the first one named `rename` (if given); with `typed`, every function's `st`
    annotated as the engine's State and the frame's list as a list (Cython reads
    annotations as C types: `st: State | None` is `State st`, None allowed). The piece's
    own tree is left as it is: only the statements down to each function and its
    parameters are copied (the expressions are shared)."""
    first = [bool(rename)]

    def fresh(stmts: list) -> list:
        out = []
        for stmt in stmts:
            blocks = [f for f in ("body", "orelse", "handlers", "finalbody")
                      if getattr(stmt, f, None)]
            if not blocks and not isinstance(stmt, py.ExceptHandler):
                out.append(stmt)
                continue
            stmt = copy.copy(stmt)
            if isinstance(stmt, py.FunctionDef):
                head(stmt)
            for f in blocks:
                setattr(stmt, f, fresh(getattr(stmt, f)))
            out.append(stmt)
        return out

    def head(fn: py.FunctionDef) -> None:
        if first[0]:
            fn.name, first[0] = rename, False
        params = [a.arg for a in fn.args.args]
        if typed and params[:1] == ["st"]:
            fn.args = copy.copy(fn.args)
            fn.args.args = [copy.copy(a) for a in fn.args.args]
            fn.args.args[0].annotation = _or_none("State")
            if tuple(params[1:]) in (("L",), ("fr",), ("fr", "called", "seat", "chosen")):
                fn.args.args[1].annotation = _or_none("list")
    return fresh(tree.body)


def _lines(text: str, stmt: py.stmt) -> int:
    """The lines a piece's first statement and the rest take inside `make` (`text`: the
    piece as ast.unparse wrote it alone): unparse writes a blank line before a `def` but
    the first of a text."""
    return text.count("\n") + 1 + isinstance(stmt, (py.FunctionDef, py.ClassDef))


def _or_none(type_: str) -> py.expr:
    """`type_ | None`: a value of that C type, or None."""
    return py.BinOp(py.Name(type_, py.Load()), py.BitOr(), py.Constant(None))


def _as_function(i: int, tree: py.Expression) -> py.Module:
    """A lambda piece (`lambda st, L: value`) as `def _p{i}(st, L): return value` (two
    lines: unparse writes an expression on one)."""
    lam = tree.body
    assert isinstance(lam, py.Lambda)
    return py.Module([_placed(py.FunctionDef(f"_p{i}", lam.args, [py.Return(lam.body)], [],
                                             None))], [])


def _placed(stmt):
    """A statement this module adds, with the place ast.unparse asks of it (any)."""
    stmt.lineno = 0
    return stmt


def module_text(pieces: list, trees: list, namespace: dict,
                typed: bool = False) -> tuple[str, int]:
    """The module for a program's pieces ((mode, text), the text `ast.unparse` wrote of
    each tree of `trees`), and the line its procedures start on: `ast.unparse` of one tree,
    under the header of Cython's directives. `typed`: every function's `st` is the engine's
    State type, and the budget a Budget (pure-Python mode: annotations and cimports)."""
    used = set().union(*map(_names_read, trees))
    made_by_procs = {fn.name for (mode, _), tree in zip(pieces, trees) if mode == "procs"
                     for fn in _functions(tree)}
    names = sorted(n for n in namespace if n in used and not n.startswith("__")
                   and n not in made_by_procs)
    header = ["# cython: language_level=3, binding=True" +
              (", nonecheck=True, annotation_typing=True" if typed else ""),
              "# A game's generated code for Cython, made by rulesdsl/engine/compile/native.py."]
    top: list[py.stmt] = []
    if typed:  # st's fields and the budget's counters read as C struct members
        top += [py.ImportFrom("cython.cimports.rulesdsl.engine.state",
                              [py.alias("State")], 0),
                py.ImportFrom("cython.cimports.rulesdsl.engine.budget",
                              [py.alias("Budget")], 0)]
    budgets = {name for name, value in namespace.items() if type(value) is Budget}
    # the names the code reads, bound from the compiler's namespace
    make: list[py.stmt] = [
        py.AnnAssign(py.Name(n, py.Store()), py.Name("Budget", py.Load()), py.Constant(None), 1)
        if typed and n in budgets else py.Assign([py.Name(n, py.Store())], py.Constant(None))
        for n in names]
    make = [_placed(stmt) for stmt in make]
    made: list[py.expr] = []
    # the line each statement of `make` starts on: after the header, the imports, a blank
    # line and `def make(G):`, one line per name
    line, first_line = len(header) + len(top) + bool(top) + 2 + len(make), 0
    for i, ((mode, text), tree) in enumerate(zip(pieces, trees)):
        if mode == "eval":
            tree = _as_function(i, tree)
            text = "\n"  # its two lines
            made.append(py.Name(f"_p{i}", py.Load()))
        elif mode == "exec":
            made.append(py.Name(f"_p{i}", py.Load()))
        else:
            made.append(py.Dict([py.Constant(n) for n in sorted(made_by_procs)],
                                [py.Name(n, py.Load()) for n in sorted(made_by_procs)]))
        body = _headed(tree, typed, f"_p{i}" if mode == "exec" else "")
        if not body:
            continue
        lines = _lines(text, body[0])
        if mode == "procs":
            first_line = line + lines - text.count("\n") - 1  # (after its blank line)
        line += lines
        make += body
    bind: list[py.stmt] = [py.Nonlocal(names)] if names else []
    bind += [py.Assign([py.Name(n, py.Store())], method_get(n)) for n in names]
    bind.append(py.Return(py.Constant(None)))
    bind = [_placed(stmt) for stmt in bind]
    make += [_placed(python.function_def("bind", [], bind)),
             _placed(py.Return(py.Tuple([py.List(made, py.Load()),
                                         py.Name("bind", py.Load())], py.Load())))]
    module = py.Module(top + [_placed(python.function_def("make", ["G"], make))], [])
    return "\n".join(header) + "\n" + py.unparse(module) + "\n", first_line


def method_get(n: str) -> py.Call:
    """`G.get('n')`: a name's value in the compiler's namespace."""
    return py.Call(py.Attribute(py.Name("G", py.Load()), "get", py.Load()), [py.Constant(n)], [])


class Module:
    """A built module's functions for one program, handed out piece by piece."""

    def __init__(self, module, pieces: list, first_line: int):
        self.module = module
        self.expected = pieces
        self.first_line = first_line  # the procedures' first line in the module's text
        self.functions: Optional[list] = None  # from the module's make(G), when first asked
        self.bind: Callable[[], None] = lambda: None
        self.live = True

    def take(self, i: int, mode: str, text: str, namespace: dict):
        """Piece i's function (or the procedures' functions), or None to compile it: where
        the text differs from the one built, from there on."""
        if not self.live or i >= len(self.expected) or self.expected[i] != (mode, text):
            self.live = False
            return None
        if self.functions is None:
            self.functions, self.bind = self.module.make(namespace)
        self.bind()  # names made since the last piece (a piece may run while compiling)
        return self.functions[i]


def _state_types() -> str:
    """The C layouts of State and Budget a typed module is built against (.pxd files),
    which must be the ones the running engine was built from: where they changed on disk
    since it loaded (a checkout updated under a long run), a module built now could not
    load beside it (NativeUnavailable: the pure-Python code runs, with a warning)."""
    from rulesdsl.engine.native_engine import BUILT_FROM
    engine = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = []
    for path in ("state/__init__.pxd", "state/machine.pxd", "budget.pxd"):
        with open(os.path.join(engine, path), encoding="utf-8") as f:
            text = f.read()
        if BUILT_FROM.get(path, text) != text:
            raise NativeUnavailable(f"engine/{path} changed since this process built its "
                                    "engine: start it again to build against the new one")
        out.append(text)
    return "\n".join(out)


_loaded: dict = {}  # module name -> module: an extension loads once per process


def built_module(pieces: list, trees: list, namespace: dict) -> Module:
    """The module for these pieces (and their trees): from the cache, else built now
    (4-30 s per game)."""
    typed = engine_is_native()
    text, first_line = module_text(pieces, trees, namespace, typed)
    version = cython_build.cython_version()
    key = f"{version}\n{text}" + (_state_types() if typed else "")
    name = "rulesdsl_native_" + hashlib.sha256(key.encode()).hexdigest()[:24]
    module = _loaded.get(name)
    if module is None:
        folder = cache_folder("native", sys.implementation.cache_tag) or tempfile.mkdtemp(
            prefix="rulesdsl-native-")
        path = cython_build.verified_library(folder, name)
        if path is None:
            source = os.path.join(folder, name + ".py")  # pure-Python mode, typed or not
            with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".tmp", delete=False) as f:
                f.write(text)
            os.replace(f.name, source)  # every builder writes the same text: either lands
            cython_build.build(folder, {name: source})
            path = cython_build.verified_library(folder, name)
            if path is None:
                raise NativeUnavailable(f"the build left no module in {folder}")
        module = _loaded[name] = cython_build.load(name, path)
    return Module(module, [tuple(p) for p in pieces], first_line)
