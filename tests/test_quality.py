"""The linter and the type checker, over the packages pyproject.toml names for each
([tool.ruff], [tool.mypy]: the language, the engine and the agents), as part of the one
test command."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_tool(module: str, *args: str) -> subprocess.CompletedProcess:
    if importlib.util.find_spec(module) is None:
        if os.environ.get("CI"):  # .ci/run installs the test extra: a missing tool is a failure
            pytest.fail(f"{module} is not installed: pip install '.[test]'")
        pytest.skip(f"{module} is not installed (the `test` extra has it)")
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, check=False)


def test_ruff_finds_nothing():
    done = run_tool("ruff", "check", "--no-cache", "--output-format", "concise")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing():
    # its cache outside the checkout: a second run takes seconds, not a minute
    cache = Path(tempfile.gettempdir()) / "rulesdsl-mypy-cache"
    done = run_tool("mypy", "--cache-dir", str(cache))
    assert done.returncode == 0, done.stdout + done.stderr
