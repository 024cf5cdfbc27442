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
from rulesdsl.engine.compile.generate import lay_out
from rulesdsl.engine.cython_build import NativeUnavailable  # (compile_program's too)


def requested() -> bool:
    return os.environ.get("RULESDSL_ENGINE") == "native"


def engine_is_native() -> bool:
    """Is the engine itself built (native_engine.py)? Then State is a C type whose fields
    the game's module reads directly; a module built so loads only beside that engine."""
    return program.ENGINE_BUILT  # built with the state (native_engine.HOT)


def _functions(tree: py.AST) -> list:
    """Every function `tree` defines (by `def`, at any depth), the outermost first."""
    return [node for node in py.walk(tree) if isinstance(node, py.FunctionDef)]


def _names_read(tree: py.AST) -> set:
    """The names (and attributes) `tree` reads."""
    return {node.id if isinstance(node, py.Name) else node.attr for node in py.walk(tree)
            if isinstance(node, (py.Name, py.Attribute))}


def _with_heads(text: str, tree: py.AST, typed: bool, rename: str = "") -> str:
    """`text` (`tree` as ast.unparse wrote it) with its functions' `def` lines as the
    module needs them: the first one named `rename` (if given); with `typed`, every
    function's `st` the engine's State and the frame's list a list. Each line is the one
    its function's tree is laid out on (generate.lay_out), not found by reading the text."""
    lines = text.split("\n")
    for k, fn in enumerate(_functions(tree)):
        params = tuple(a.arg for a in fn.args.args)
        line = lines[fn.lineno - 1]
        indent = line[:len(line) - len(line.lstrip())]
        head = f"{indent}def {fn.name}({', '.join(params)})"
        if not line.startswith(head):  # a head this module does not write (a decorator)
            raise NativeUnavailable(f"no `def` line for {fn.name} where its tree says")
        name = rename if rename and k == 0 else fn.name
        if typed and params[:1] == ("st",):
            listed = params[1:] in (("L",), ("fr",), ("fr", "called", "seat", "chosen"))
            params = ("State st",) + (("list " + params[1],) + params[2:] if listed
                                      else params[1:])
        lines[fn.lineno - 1] = f"{indent}def {name}({', '.join(params)})" + \
            line[len(head):]
    return "\n".join(lines)


def _as_function(i: int, tree: py.Expression) -> tuple[str, py.Module]:
    """A lambda piece (`lambda st, L: value`) as `def _p{i}(st, L): return value`: its
    text and tree."""
    lam = tree.body
    assert isinstance(lam, py.Lambda)
    fn = py.Module([py.FunctionDef(f"_p{i}", copy.deepcopy(lam.args),
                                   [py.Return(copy.deepcopy(lam.body))], [], None)], [])
    lay_out(fn.body)
    return py.unparse(fn), fn


def module_text(pieces: list, trees: list, namespace: dict,
                typed: bool = False) -> tuple[str, int]:
    """The module for a program's pieces ((mode, text), the text `ast.unparse` wrote of
    each tree of `trees`), and the line its procedures start on. `typed`: Cython source
    (.pyx) in which every function's `st` is the engine's State type."""
    used = set().union(*map(_names_read, trees))
    made_by_procs = {fn.name for (mode, _), tree in zip(pieces, trees) if mode == "procs"
                     for fn in _functions(tree)}
    names = sorted(n for n in namespace if n in used and not n.startswith("__")
                   and n not in made_by_procs)
    out = ["# cython: language_level=3, binding=True" + (", nonecheck=True" if typed else ""),
           "# A game's generated code for Cython, made by rulesdsl/engine/compile/native.py.",
           ""]
    if typed:  # st's fields and the budget's counters read as C struct members
        out += ["from rulesdsl.engine.state cimport State",
                "from rulesdsl.engine.budget cimport Budget", ""]
    out += ["def make(G):", "    # the names the code reads, bound from the compiler's namespace"]
    budgets = {name for name, value in namespace.items() if type(value) is Budget}
    out += [f"    cdef Budget {n}" if typed and n in budgets else
            f"    {n} = None" for n in names]
    made, first_line = [], 0
    for i, ((mode, text), tree) in enumerate(zip(pieces, trees)):
        if mode == "eval":
            text, tree = _as_function(i, tree)
            made.append(f"_p{i}")
        elif mode == "exec":
            made.append(f"_p{i}")
        else:
            first_line = len(out) + 1
            made.append("{" + ", ".join(f"{n!r}: {n}" for n in sorted(made_by_procs)) + "}")
        text = _with_heads(text, tree, typed, f"_p{i}" if mode == "exec" else "")
        out += ["    " + line if line else line for line in text.split("\n")] + [""]
    out += ["    def bind():"]
    out += ["        nonlocal " + ", ".join(names)] if names else []
    out += [f"        {n} = G.get({n!r})" for n in names] + ["        return None"]
    out += ["    return [" + ", ".join(made) + "], bind", ""]
    return "\n".join(out), first_line


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
            source = os.path.join(folder, name + (".pyx" if typed else ".py"))
            with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".tmp", delete=False) as f:
                f.write(text)
            os.replace(f.name, source)  # every builder writes the same text: either lands
            cython_build.build(folder, {name: source})
            path = cython_build.verified_library(folder, name)
            if path is None:
                raise NativeUnavailable(f"the build left no module in {folder}")
        module = _loaded[name] = cython_build.load(name, path)
    return Module(module, [tuple(p) for p in pieces], first_line)
