"""Games are data: the package names no bundled game and none of its kinds of card (the
grep docs/design.md describes; .githooks/pre-commit runs this file before a commit)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rulesdsl"
# Kinds named as the language or Python name things: the language's own base kind, the
# API's word for a choice, matplotlib's figures.
GENERAL_WORDS = {"card", "action", "figure"}


def game_words(games: Path) -> set:
    """Each bundled game's file name and title words, and the kinds its file declares."""
    words = set()
    for path in games.glob("*.rules"):
        text = path.read_text(encoding="utf-8")
        words.add(path.stem)
        title = re.search(r'^game "([^"]*)"', text, re.MULTILINE)
        words |= {w.lower() for w in re.findall(r"[A-Za-z]{5,}", title.group(1) if title
                                                 else "")} - {"second", "edition"}
        words |= set(re.findall(r"^kind ([a-z_]+)", text, re.MULTILINE))
    return words - GENERAL_WORDS


def named_in(package: Path, words: set) -> list:
    """file:line: word for every whole word of `words` in the package's source, but for
    attributes of Python's own objects (`asyncio.shield`): a game is named by a string or
    a name of ours, never after a dot."""
    # a word between non-letters: also inside a name joined by underscores (rulesdsl_name)
    found = re.compile(r"(?<![A-Za-z0-9.])(" + "|".join(sorted(map(re.escape, words))) +
                       r")(?![A-Za-z0-9])", re.I)
    out = []
    for path in sorted(package.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd", ".lark", ".js", ".html", ".css"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            out += [f"{path.relative_to(package.parent)}:{n}: {m}" for m in found.findall(line)]
    return out


def test_the_package_names_no_bundled_game_nor_its_cards():
    words = game_words(ROOT / "games")
    assert {"ivanhoe", "condottiere", "intrige", "triumvirat", "drummer"} <= words
    assert named_in(PACKAGE, words) == []


def test_the_grep_finds_a_planted_name(tmp_path):
    package = tmp_path / "rulesdsl"
    package.mkdir()
    (package / "special.py").write_text("if game.name == 'Ivanhoe':  # the unhorse card\n",
                                        encoding="utf-8")
    assert named_in(package, game_words(ROOT / "games")) == ["rulesdsl/special.py:1: Ivanhoe",
                                                             "rulesdsl/special.py:1: unhorse"]
