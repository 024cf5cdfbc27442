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

import hashlib
import os
import sys
import tempfile
from types import CodeType
from typing import Callable, Optional

from rulesdsl.cache import cache_folder
from rulesdsl.engine import cython_build
from rulesdsl.engine.budget import Budget
from rulesdsl.engine.compile import program
from rulesdsl.engine.compile.generate import compiled
from rulesdsl.engine.cython_build import NativeUnavailable  # (compile_program's too)


def requested() -> bool:
    return os.environ.get("RULESDSL_ENGINE") == "native"


def engine_is_native() -> bool:
    """Is the engine itself built (native_engine.py)? Then State is a C type whose fields
    the game's module reads directly; a module built so loads only beside that engine."""
    return program.ENGINE_BUILT  # built with the state (native_engine.HOT)


def _code(mode: str, text: str) -> CodeType:
    """A piece's code object: what Python made of its text when the compiler compiled it
    (cached by its text), which says what it defines and reads."""
    return compiled(text, "eval" if mode == "eval" else "exec")


def _functions(code: CodeType) -> list:
    """The code of every function `code` defines (by `def`, at any depth)."""
    out = []
    for c in code.co_consts:
        if isinstance(c, CodeType):
            if not c.co_name.startswith("<"):  # not a lambda or a comprehension
                out.append(c)
            out += _functions(c)
    return out


def _names_read(code: CodeType) -> set:
    """The global (and attribute) names `code` and the functions inside it read."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, CodeType):
            out |= _names_read(c)
    return out


def _with_heads(text: str, code: CodeType, typed: bool, rename: str = "") -> str:
    """`text` with its functions' `def` lines as the module needs them: the first one
    named `rename` (if given); with `typed`, every function's `st` the engine's State and
    the frame's list a list. Each line is found by its function's code (its first line,
    its name and parameters), not by reading the text."""
    lines = text.split("\n")
    for k, fn in enumerate(_functions(code)):
        params = fn.co_varnames[:fn.co_argcount]
        line = lines[fn.co_firstlineno - 1]
        indent = line[:len(line) - len(line.lstrip())]
        head = f"{indent}def {fn.co_name}({', '.join(params)})"
        if not line.startswith(head):  # a head this module does not write (a decorator)
            raise NativeUnavailable(f"no `def` line for {fn.co_name} where its code says")
        name = rename if rename and k == 0 else fn.co_name
        if typed and params[:1] == ("st",):
            listed = params[1:] in (("L",), ("fr",), ("fr", "called", "seat", "chosen"))
            params = ("State st",) + (("list " + params[1],) + params[2:] if listed
                                      else params[1:])
        lines[fn.co_firstlineno - 1] = f"{indent}def {name}({', '.join(params)})" + \
            line[len(head):]
    return "\n".join(lines)


def module_text(pieces: list, namespace: dict, typed: bool = False) -> tuple[str, int]:
    """The module for a program's pieces, and the line its procedures start on. `typed`:
    Cython source (.pyx) in which every function's `st` is the engine's State type."""
    codes = [_code(mode, text) for mode, text in pieces]
    used = set().union(*map(_names_read, codes))
    made_by_procs = {fn.co_name for (mode, _), code in zip(pieces, codes) if mode == "procs"
                     for fn in _functions(code)}
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
    for i, ((mode, text), code) in enumerate(zip(pieces, codes)):
        if mode == "eval":
            text = f"def _p{i}(st, L):\n    return ({text[len('lambda st, L: '):]})"
            code = _code("exec", text)
            made.append(f"_p{i}")
        elif mode == "exec":
            made.append(f"_p{i}")
        else:
            first_line = len(out) + 1
            made.append("{" + ", ".join(f"{n!r}: {n}" for n in sorted(made_by_procs)) + "}")
        text = _with_heads(text, code, typed, f"_p{i}" if mode == "exec" else "")
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


def built_module(pieces: list, namespace: dict) -> Module:
    """The module for these pieces: from the cache, else built now (4-30 s per game)."""
    typed = engine_is_native()
    text, first_line = module_text(pieces, namespace, typed)
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
