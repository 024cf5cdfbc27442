"""The engine's hot modules as C too, under RULESDSL_ENGINE=native: the state, the machine
that runs the rules, actions, the journal, the decision instructions (with `ask
together`'s), the budget, the runtime's card moves and random numbers, and the compiler's
mixins whose closures run where no generated source stands in. Their Python source is built
as it is by Cython (engine/cython_build.py), once per version of their text, into the cache
folder; an import finder then serves the built modules in place of the .py files,
each only where its bytes have the digest its build recorded (cython_build.py).

It must run before any of them is imported, so `rulesdsl/engine/__init__.py` calls
`install()` first thing; a process that imported the engine before setting the variable
keeps the pure modules (the games' generated code is still native: compile/native.py)."""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from importlib.abc import MetaPathFinder
from importlib.util import spec_from_file_location

from rulesdsl.cache import cache_folder
from rulesdsl.engine import cython_build

ENGINE = os.path.dirname(os.path.abspath(__file__))
HOT = {  # module -> its file, below rulesdsl/engine/
    "rulesdsl.engine.state": "state/__init__.py",
    "rulesdsl.engine.state.machine": "state/machine.py",
    "rulesdsl.engine.state.data": "state/data.py",
    "rulesdsl.engine.journal": "journal.py",
    "rulesdsl.engine.compile.program": "compile/program.py",
    # the instructions' closures where no generated source stands in for them
    "rulesdsl.engine.compile.moves": "compile/moves.py",
    "rulesdsl.engine.compile.calls": "compile/calls.py",
    "rulesdsl.engine.compile.expressions": "compile/expressions.py",
    "rulesdsl.engine.compile.effects": "compile/effects.py",
    "rulesdsl.engine.compile.flow": "compile/flow.py",
    "rulesdsl.engine.compile.decisions": "compile/decisions.py",
    "rulesdsl.engine.ir.interpret": "ir/interpret.py",  # the closures of lowered expressions
    "rulesdsl.engine.together": "together.py",  # ask together: its choose and reveal
    "rulesdsl.engine.budget": "budget.py",
    # the rules' runtime the machine and the generated code call on their usual paths
    "rulesdsl.engine.runtime.cards": "runtime/cards.py",
    "rulesdsl.engine.runtime.randoms": "runtime/randoms.py",
}


class NativeFinder(MetaPathFinder):
    """Finds the built hot modules; every other module is left to the usual finders."""

    def __init__(self, libraries: dict):
        self.libraries = libraries

    def find_spec(self, fullname, path, target=None):
        lib = self.libraries.get(fullname)
        if lib is None:
            return None
        rel = HOT[fullname]  # a package's own module keeps its folder for the others
        package = [os.path.dirname(os.path.join(ENGINE, rel))] \
            if rel.endswith("__init__.py") else None
        return spec_from_file_location(fullname, lib, submodule_search_locations=package)


def install() -> bool:
    """Serve the built hot modules (building them first if this version has none: one to
    two minutes, once). False, with a warning, where they cannot be built."""
    if any(isinstance(f, NativeFinder) for f in sys.meta_path):
        return True
    try:
        libraries = _libraries()
    except cython_build.NativeUnavailable as e:
        warnings.warn(f"RULESDSL_ENGINE=native: {e}; the engine runs as pure Python",
                      RuntimeWarning, stacklevel=2)
        return False
    sys.meta_path.insert(0, NativeFinder(libraries))
    return True


# the .pxd files (path below rulesdsl/engine/ -> text) the engine in this process was built
# from: a game's module must be built against the same C layouts (compile/native.py)
BUILT_FROM: dict = {}


def _libraries() -> dict:
    version = cython_build.cython_version()
    digest = hashlib.sha256(version.encode())
    for name, rel in sorted(HOT.items()):
        with open(os.path.join(ENGINE, rel), "rb") as f:
            digest.update(name.encode() + b"\0" + f.read())
        pxd = rel[:-3] + ".pxd"  # C types for the module, if any
        if os.path.isfile(os.path.join(ENGINE, pxd)):
            with open(os.path.join(ENGINE, pxd), "rb") as f:
                text = f.read()
            digest.update(b"\0pxd\0" + text)
            BUILT_FROM[pxd] = text.decode("utf-8")
    folder = cache_folder("native", sys.implementation.cache_tag, "engine-" +
                          digest.hexdigest()[:24])
    if folder is None:
        raise cython_build.NativeUnavailable("there is no cache folder to build into "
                                             "(RULESDSL_CACHE=off, or not writable)")
    found = {name: cython_build.verified_library(folder, name) for name in HOT}
    missing = {name: os.path.join(ENGINE, HOT[name]) for name, lib in found.items() if lib is None}
    if missing:
        print("rulesdsl: building the native engine (once per version, one to two minutes)...",
              file=sys.stderr)
        cython_build.build(folder, missing)
        found = {name: cython_build.verified_library(folder, name) for name in HOT}
        if None in found.values():
            raise cython_build.NativeUnavailable(f"the build left no module in {folder}")
    return found
