"""The grammar/rules.lark parser, built once: LALR, positions kept, two starts (a file, an
expression inside a string). Building its tables takes ~2 s, so they are kept between
runs in the user's cache folder as JSON data (lang/syntax/tables.py: checked against the
grammar and Lark's version, built afresh when they differ, cannot be read or are not the
user's own)."""

from __future__ import annotations

import functools
import os
from typing import Optional

from lark import Lark

from rulesdsl.cache import cache_folder
from rulesdsl.lang.resources import grammar_text
from rulesdsl.lang.syntax.tables import cached_parser

OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True,
           "start": ["start", "expr"]}


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return build_parser(cache_file())


def build_parser(cache: Optional[str]) -> Lark:
    return cached_parser(cache, grammar_text(), OPTIONS)


def cache_file(name: str = "grammar-tables.json") -> Optional[str]:
    """A parser's tables' file, in rulesdsl's cache folder (rulesdsl/cache.py); None when
    there is no cache."""
    folder = cache_folder()
    return None if folder is None else os.path.join(folder, name)
