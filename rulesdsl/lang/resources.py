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


def bundled_games() -> list[str]:
    """Names of the bundled games, sorted."""
    d = games_dir()
    return sorted(p.stem for p in d.glob("*.rules")) if d.exists() else []


def bundled_path(name: str) -> Path | None:
    p = games_dir() / f"{name}.rules"
    return p if p.exists() else None
