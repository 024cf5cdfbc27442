"""Formatting and verifying a rules text: the full parse (every token, every
comment), the walk and the print, then a parse of the result that must give the same tree
and the same comments."""

from __future__ import annotations

import functools
import re
import threading

from lark import Lark, Token

from rulesdsl.lang import syntax
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.fmt.printer import Printer
from rulesdsl.lang.fmt.walker import Walker
from rulesdsl.lang.resources import grammar_text
from rulesdsl.lang.syntax.grammar import cache_file
from rulesdsl.lang.syntax.tables import cached_parser

_lock = threading.Lock()
_collected: list = []


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    """A second parser over the same grammar that keeps every token and hands over
    comments; its tables kept as the main parser's are (lang/syntax/tables.py)."""
    return cached_parser(cache_file("fmt-grammar-tables.json"), grammar_text(),
                         {"parser": "lalr", "propagate_positions": True,
                          "maybe_placeholders": True, "keep_all_tokens": True,
                          "start": "start"},
                         at_load={"lexer_callbacks": {"COMMENT": _collect}})


def _collect(token: Token) -> Token:
    _collected.append(token)
    return token


class FormatError(RuntimeError):
    """The formatter would have changed a file's meaning or lost a comment: a bug."""


def parse_with_comments(text: str, path: str = "<rules>", checked: bool = False):
    """The full parse tree (all tokens kept) and the comment tokens, in order.

    Bad input raises the same RulesError `rulesdsl.lang.syntax.parse` raises (pass
    `checked=True` when the text is known to parse).
    """
    if not checked:
        syntax.parse(text, path)  # every syntax error, as the rest of the system reports it
    with _lock:
        _collected.clear()
        tree = _parser().parse(text, start="start")
        comments = list(_collected)
        _collected.clear()
    return tree, comments


def format_source(text: str, path: str = "<rules>", *, verify: bool = True) -> str:
    """The text in the canonical layout. Raises RulesError if the text does not parse.

    With `verify` (the default) the result is parsed again and compared with the input:
    same syntax tree, same comments in the same order, else FormatError (a bug).
    """
    original = syntax.parse(text, path)
    tree, comments = parse_with_comments(text, path, checked=True)
    walker = Walker(comments)
    walker.emit(tree)
    result = Printer(text, comments).run(walker.out)
    if verify:
        _verify(original, comments, result, path)
    return result


_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*')


def comments_of(text: str) -> list:
    """The text of every comment in a rules text that parses, in order.

    In such a text a '"' outside comments always opens a string and a '#' outside strings
    always opens a comment, so a scan for the two finds what the lexer finds.
    """
    return [m.group().rstrip() for m in _STRING_OR_COMMENT.finditer(text)
            if m.group().startswith("#")]


def _verify(original, comments, result: str, path: str) -> None:
    try:
        again = syntax.parse(result, path)
    except RulesError as e:
        raise FormatError(f"the formatted text of {path} does not parse: {e}") from None
    if again != original:
        raise FormatError(f"formatting {path} would change its meaning")
    if [str(c).rstrip() for c in comments] != comments_of(result):
        raise FormatError(f"formatting {path} would lose or reorder comments")
