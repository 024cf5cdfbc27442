"""Building Python modules as C extensions with Cython, for RULESDSL_ENGINE=native: the
games' generated code (compile/native.py) and the engine's hot modules (native_engine.py).

A built module is loaded only when its bytes have the digest its build recorded beside it
(`NAME.sha256`, written by the building process before the module lands): a module
someone else planted, or one damaged on disk (which would kill the process with SIGBUS
when loaded), is removed and built again, with a warning naming it. The folder and both
files must be the user's own (rulesdsl/cache.py).

Imports nothing of the engine: native_engine runs before the engine is imported."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
import tempfile
import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Optional

# the folder holding the rulesdsl package: where `cimport rulesdsl...` finds its .pxd files
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

INSTALL_HINT = 'pip install "rulesdsl[native]" (Cython), and a C compiler such as gcc'


class NativeUnavailable(Exception):
    """A native module could not be built: what failed, for a person."""


def cython_version() -> str:
    try:
        import Cython
    except ImportError:
        raise NativeUnavailable(f"Cython is not installed: {INSTALL_HINT}") from None
    return Cython.__version__


def library(folder: str, name: str) -> Optional[str]:
    """The built extension for module `name` in `folder`, if there is one."""
    for suffix in EXTENSION_SUFFIXES:
        path = os.path.join(folder, name + suffix)
        if os.path.isfile(path):
            return path
    return None


def digest_path(folder: str, name: str) -> str:
    return os.path.join(folder, name + ".sha256")


def verified_library(folder: str, name: str) -> Optional[str]:
    """The built extension for `name` in `folder` where its digest is the one its build
    recorded; else None (a module that is there but does not match is removed, with a
    warning, so that it is built again)."""
    from rulesdsl.cache import read_trusted
    path = library(folder, name)
    if path is None:
        return None
    recorded = read_trusted(digest_path(folder, name))
    data = read_trusted(path)
    if data is not None and recorded is not None and \
            hashlib.sha256(data).hexdigest() == recorded.decode("ascii", "replace").strip():
        return path
    said = "has no digest recorded by its build" if recorded is None else \
        "does not match the digest its build recorded (damaged, or not built by rulesdsl)"
    warnings.warn(f"rulesdsl: the native module {path!r} {said}: it is not loaded, and is "
                  "built again", RuntimeWarning, stacklevel=2)
    for stale in (path, digest_path(folder, name)):
        try:
            os.unlink(stale)
        except OSError:
            pass
    return None


def build(folder: str, modules: dict) -> None:
    """Build {module name: its .py file} into `folder`, in a child process: Cython's and
    the C compiler's output, and setuptools' changes to the interpreter, stay out of this
    one. Several processes may build the same modules at once: each result lands whole."""
    folder = os.path.abspath(folder)  # the child runs there: every path absolute
    args = [f"{name}={os.path.abspath(path)}" for name, path in modules.items()]
    env = {k: v for k, v in os.environ.items() if k != "RULESDSL_ENGINE"}
    # this file as a script: the child imports no rulesdsl (whose import would build again);
    # run in the build folder: Cython looks for .pxd files in the working folder too
    done = subprocess.run([sys.executable, os.path.abspath(__file__), folder, *args],
                          capture_output=True, text=True, env=env, cwd=folder)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()[-12:]
        raise NativeUnavailable("building a native module failed:\n  " + "\n  ".join(said) +
                                f"\n(needs {INSTALL_HINT})")


def load(name: str, path: str):
    """Import the extension at `path` as module `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a module Python can load")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _build_here(folder: str, modules: dict) -> None:
    """The child process."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    with tempfile.TemporaryDirectory(dir=folder) as work:
        # -O2: a third of -O3's build time, as fast; no -g: a tenth of the size.
        # annotation_typing off: annotations are documentation here, never checks
        exts = cythonize([Extension(name, [path], extra_compile_args=["-O2", "-g0"])
                          for name, path in modules.items()],
                         build_dir=work, quiet=True, include_path=[ROOT],
                         compiler_directives={
                             "language_level": 3, "binding": True, "annotation_typing": False})
        dist = Distribution({"ext_modules": exts, "script_name": "rulesdsl-native"})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib, cmd.build_temp = work, work
        cmd.ensure_finalized()
        cmd.run()
        for name in modules:
            built = cmd.get_ext_fullpath(name)
            base = os.path.basename(built)  # machine.cpython-311-x86_64-linux-gnu.so
            _record_digest(built, digest_path(folder, name))
            os.replace(built, os.path.join(folder, name + base[base.index("."):]))


def _record_digest(built: str, path: str) -> None:
    """The built module's sha256, beside where it lands, written whole before it lands."""
    with open(built, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    fd, temp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")  # mode 0600
    with os.fdopen(fd, "w") as f:
        f.write(digest + "\n")
    os.replace(temp, path)


if __name__ == "__main__":
    _build_here(sys.argv[1], dict(arg.split("=", 1) for arg in sys.argv[2:]))
