"""Where the grammar and the bundled games live, in a source checkout and in an installed wheel."""

from __future__ import annotations

import functools
from pathlib import Path

_HERE = Path(__file__).resolve().parent.parent  # the rulesdsl package


def _first_existing(*candidates: Path) -> Path:
    for c in candidates:
        if c.exists():
            return c
    return candidates[0]


def grammar_path() -> Path:
    return _first_existing(_HERE / "data" / "grammar" / "rules.lark",
                           _HERE.parent / "grammar" / "rules.lark")


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


def games_dir() -> Path:
    return _first_existing(_HERE / "data" / "games", _HERE.parent / "games")


def examples_dir() -> Path:
    return _first_existing(_HERE / "data" / "examples", _HERE.parent / "examples")


def _names_in(d: Path) -> list[str]:
    return sorted(p.stem for p in d.glob("*.rules")) if d.exists() else []


def bundled_games() -> list[str]:
    """Names of the bundled games (the rulebooks' games), sorted."""
    return _names_in(games_dir())


def example_games() -> list[str]:
    """Names of the bundled examples (small classic games), sorted."""
    return [n for n in _names_in(examples_dir()) if n not in bundled_games()]


def bundled_path(name: str) -> Path | None:
    """The file of a bundled game or example by its name; a game before an example."""
    for d in (games_dir(), examples_dir()):
        p = d / f"{name}.rules"
        if p.exists():
            return p
    return None
