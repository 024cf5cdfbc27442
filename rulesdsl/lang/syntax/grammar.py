"""The grammar/rules.lark parser, built once: LALR, positions kept, two starts (a file, an
expression inside a string)."""

from __future__ import annotations

import functools

from lark import Lark

from rulesdsl.lang.resources import grammar_text


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True,
                maybe_placeholders=True, start=["start", "expr"])
