"""Native modules are loaded from the cache only when their bytes have the digest their
build recorded (engine/cython_build.py, `verified_library`): a module planted under the
name anyone can compute is never imported, a damaged one (which killed every later run
with SIGBUS) is rebuilt, each with a warning naming it. Real builds: a tiny game's module
takes a few seconds, the engine's one module (a copy of the built engine) some more."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import warnings
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine import cython_build, native_engine
from rulesdsl.engine.compile import native
from test_native import engine, is_native  # noqa: F401  (engine: skip, or fail in CI)

ROOT = Path(__file__).resolve().parents[2]
TINY = """game "Tiny"
players 2
var n: int = 0
flow main
phase main {
  while n < 3 { set n += 1 }
  win seat(0)
}
"""
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def _game_folder(cache: Path) -> Path:
    return cache / "native" / sys.implementation.cache_tag


def _load(tmp_path: Path, cache: Path, monkeypatch):
    """The tiny game loaded natively with `cache` as the cache folder, and the warnings."""
    monkeypatch.setenv("RULESDSL_CACHE", str(cache))
    monkeypatch.setattr(native, "_loaded", {})  # as a new process: import from the folder
    path = tmp_path / "tiny.rules"
    path.write_text(TINY, encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        game = rulesdsl.load(str(path))
        prog = game.program(2)
        assert game.new_game(players=2, seed=1).winners == [0]
    return prog, [str(w.message) for w in caught]


def _replace(path: Path, data: bytes) -> None:
    """A new file in place of `path` (as a planted or half-written file would be): this
    process may have the old one mapped, and writing into that would crash it."""
    fresh = path.with_name(path.name + ".new")
    fresh.write_bytes(data)
    os.replace(fresh, path)


def _built(cache: Path) -> Path:
    [lib] = _game_folder(cache).glob("rulesdsl_native_*" + SUFFIX)
    return lib


@pytest.fixture
def planted(tmp_path_factory):
    """Build a module under `name` whose import makes the marker file: what someone who
    can compute the name would put in a shared cache."""
    def make(name: str, marker: Path) -> Path:
        folder = tmp_path_factory.mktemp("planted")
        source = folder / f"{name}.py"
        source.write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
        cython_build.build(str(folder), {name: str(source)})
        return Path(cython_build.library(str(folder), name))
    return make


def test_a_built_module_is_recorded_and_loaded_quietly(tmp_path, monkeypatch, engine):
    cache = tmp_path / "cache"
    prog, said = _load(tmp_path, cache, monkeypatch)
    assert is_native(prog) and said == [], said
    lib = _built(cache)
    recorded = (lib.parent / (lib.name.split(".")[0] + ".sha256")).read_text().strip()
    assert recorded == hashlib.sha256(lib.read_bytes()).hexdigest()
    made = lib.stat().st_mtime_ns
    prog, said = _load(tmp_path, cache, monkeypatch)  # from the cache, not built again
    assert is_native(prog) and said == [] and lib.stat().st_mtime_ns == made


def test_a_planted_module_is_never_imported(tmp_path, monkeypatch, engine, planted):
    """Planted where a build would put it, with no digest (before the first build) or
    over a built module (its digest then differs): not imported, rebuilt, a warning."""
    ours = tmp_path / "ours"
    _load(tmp_path, ours, monkeypatch)
    lib = _built(ours)
    marker = tmp_path / "MARKER"
    fake = planted(lib.name.split(".")[0], marker)

    theirs = tmp_path / "theirs"  # planted before anything was built
    _game_folder(theirs).mkdir(parents=True, mode=0o700)
    for folder in (theirs, theirs / "native"):
        folder.chmod(0o700)
    _replace(_game_folder(theirs) / lib.name, fake.read_bytes())
    prog, said = _load(tmp_path, theirs, monkeypatch)
    assert not marker.exists()
    assert is_native(prog)
    assert any(lib.name in s and "has no digest" in s for s in said), said

    _replace(lib, fake.read_bytes())  # over a built one
    prog, said = _load(tmp_path, ours, monkeypatch)
    assert not marker.exists()
    assert is_native(prog)
    assert any(lib.name in s and "does not match the digest" in s for s in said), said
    assert hashlib.sha256(lib.read_bytes()).digest() != hashlib.sha256(fake.read_bytes()).digest()


def test_a_damaged_module_is_rebuilt_not_a_crash(tmp_path, monkeypatch, engine):
    """A module cut short on disk: loading it killed the process (SIGBUS); now a warning
    and a new build, in a process of its own as a run would be."""
    cache = tmp_path / "cache"
    _load(tmp_path, cache, monkeypatch)
    lib = _built(cache)
    data = lib.read_bytes()
    _replace(lib, data[:len(data) * 2 // 3])
    script = textwrap.dedent(f"""
        import os
        import rulesdsl.engine  # imported first, the engine stays pure: only the game's
        os.environ["RULESDSL_ENGINE"] = "native"  # module is native
        game = rulesdsl.load({str(tmp_path / "tiny.rules")!r})
        assert type(game.program(2).procs[0].run).__name__ == "cython_function_or_method"
        print(game.new_game(players=2, seed=1).winners)
    """)
    env = {**os.environ, "RULESDSL_CACHE": str(cache), "PYTHONPATH": str(ROOT)}
    env.pop("RULESDSL_ENGINE", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, (done.returncode, done.stderr[-3000:])
    assert done.stdout.strip() == "[0]"
    assert lib.name in done.stderr and "does not match the digest" in done.stderr
    assert lib.read_bytes() != data[:len(data) * 2 // 3]


def test_a_damaged_engine_module_is_rebuilt_alone(tmp_path, engine):
    """The engine's own modules are verified the same way: a copy of the built engine
    with one module cut short builds that one again and imports it."""
    built = native_engine._libraries()  # the shared cache's engine, built if missing
    source = Path(next(iter(built.values()))).parent
    cache = tmp_path / "cache"
    copy = cache / source.relative_to(source.parents[2])
    shutil.copytree(source, copy)
    for folder in (cache, cache / "native", copy.parent, copy):
        folder.chmod(0o700)
    victim = Path(built["rulesdsl.engine.budget"]).name
    data = (copy / victim).read_bytes()
    _replace(copy / victim, data[:len(data) // 2])
    others = {p.name: p.stat().st_mtime_ns for p in copy.glob("*" + SUFFIX) if p.name != victim}
    script = textwrap.dedent("""
        import rulesdsl
        from rulesdsl.engine import budget
        assert budget.__loader__.__class__.__name__ == "ExtensionFileLoader", budget.__file__
        print(budget.Budget.__module__)
    """)
    env = {**os.environ, "RULESDSL_CACHE": str(cache), "RULESDSL_ENGINE": "native",
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=900)
    assert done.returncode == 0, (done.returncode, done.stderr[-3000:])
    assert victim in done.stderr and "does not match the digest" in done.stderr
    assert (copy / victim).read_bytes() != data[:len(data) // 2]
    assert {p: (copy / p).stat().st_mtime_ns for p in others} == others  # only it rebuilt
