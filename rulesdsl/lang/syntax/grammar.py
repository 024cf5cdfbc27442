"""The grammar/rules.lark parser, built once: LALR, positions kept, two starts (a file, an
expression inside a string). Building its tables takes ~2 s, so Lark keeps them between
runs in the user's cache folder (it checks them against the grammar and its own version,
and builds afresh when they differ or cannot be read)."""

from __future__ import annotations

import functools
import os
from typing import Optional

from lark import Lark

from rulesdsl.cache import cache_folder
from rulesdsl.lang.resources import grammar_text


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return build_parser(cache_file())


def build_parser(cache: Optional[str]) -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True,
                maybe_placeholders=True, start=["start", "expr"], cache=cache or False)


def cache_file() -> Optional[str]:
    """The parse tables' file, in rulesdsl's cache folder (rulesdsl/cache.py); None when
    there is no cache."""
    folder = cache_folder()
    return None if folder is None else os.path.join(folder, "grammar.lark-tables")
