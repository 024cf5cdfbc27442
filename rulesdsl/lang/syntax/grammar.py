"""The grammar/rules.lark parser, built once: LALR, positions kept, two starts (a file, an
expression inside a string). Building its tables takes ~2 s, so Lark keeps them between
runs in the user's cache folder (it checks them against the grammar and its own version,
and builds afresh when they differ or cannot be read)."""

from __future__ import annotations

import functools
import os
from typing import Optional

from lark import Lark

from rulesdsl.lang.resources import grammar_text


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return build_parser(cache_file())


def build_parser(cache: Optional[str]) -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True,
                maybe_placeholders=True, start=["start", "expr"], cache=cache or False)


def cache_file() -> Optional[str]:
    """The parse tables' file: $RULESDSL_CACHE, else $XDG_CACHE_HOME/rulesdsl, else
    ~/.cache/rulesdsl; None (no cache) when that folder cannot be made or written, or when
    RULESDSL_CACHE is "off"."""
    folder = os.environ.get("RULESDSL_CACHE")
    if folder == "off":
        return None
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
        folder = os.path.join(base, "rulesdsl")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    return os.path.join(folder, "grammar.lark-tables")
