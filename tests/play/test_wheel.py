"""The wheel ships the grammar, the rulebooks' games and the examples, and an installed copy
finds them by name from any folder: `rulesdsl play reversi` after `pip install .`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # built from a copy: a build leaves build/ and *.egg-info beside the sources
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md", "rulesdsl", "grammar", "games", "examples"):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name, **({"ignore": shutil.ignore_patterns(
            "__pycache__", "*.so", "*.c")} if (ROOT / name).is_dir() else {}))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                    str(source)], check=True, cwd=out,
                   env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"))
    return next(out.glob("rulesdsl-*.whl"))


def test_the_wheel_holds_every_game_and_example(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("games", "examples"):
        for path in (ROOT / folder).glob("*.rules"):
            assert f"rulesdsl/data/{folder}/{path.name}" in names, path.name
    assert "rulesdsl/data/grammar/rules.lark" in names


def test_an_installed_copy_plays_an_example_from_an_empty_folder(wheel, tmp_path):
    # a fresh environment: nothing of the source tree on its path
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    clean.update(PIP_DISABLE_PIP_VERSION_CHECK="1", HOME=str(tmp_path))
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True,
                   env=clean, cwd=tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run([str(env_dir / "bin" / "rulesdsl"), "play", "reversi", "--seats",
                           "random,random", "--seed", "1", "--plain"], cwd=empty, env=clean,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "game over after" in done.stdout
    assert not list(empty.iterdir())
