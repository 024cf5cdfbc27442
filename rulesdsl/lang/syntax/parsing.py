"""Text -> syntax tree: the Lark parse of a file or of an expression inside a string.

Before building, it refuses what no later stage should see: a file past the size limit,
control characters, a tree nested deeper than the limit. Parse errors become RulesErrors
(`errors`); the tree becomes ast nodes through `Build`.
"""

from __future__ import annotations

import re

from lark import Tree
from lark.exceptions import UnexpectedInput, VisitError

from rulesdsl.lang import ast
from rulesdsl.lang.errors import RulesError, Span
from rulesdsl.lang.limits import limit, nesting_error, read_bytes
from rulesdsl.lang.safefile import shown_path
from rulesdsl.lang.syntax.build import Build
from rulesdsl.lang.syntax.errors import syntax_error
from rulesdsl.lang.syntax.grammar import parser

MAX_SOURCE_BYTES = 2_000_000


def parse(text: str, path: str = "<rules>") -> ast.File:
    """Parse a whole rules file into an ast.File, or raise a RulesError pointing at the place."""
    most = limit("source_chars")  # MAX_SOURCE_BYTES unless RULESDSL_LIMITS raises it
    if len(text) > most:
        raise RulesError("E104", f"the file is {len(text):,} characters long; the limit is "
                         f"{most:,}", Span(path, 1, 1, 1, 2), ["split the game into "
                         "smaller files with 'extends'"])
    _refuse_control_characters(text, path)
    try:
        tree = parser().parse(text, start="start")
    except UnexpectedInput as e:
        raise syntax_error(e, text, path) from None
    except RecursionError:
        raise nesting_error(path, 1, 1) from None
    _check_nesting(tree, path)
    try:
        return Build(path).transform(tree)
    except VisitError as e:  # a RulesError raised while building (a bad string template)
        raise _unwrap(e) from None


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _refuse_control_characters(text: str, path: str) -> None:
    """E108 for ESC, BEL and other control characters anywhere in a rules file: printed
    raw they could retitle or recolour a terminal and fake what a player sees."""
    m = _CONTROL.search(text)
    if m is None:
        return
    line = text.count("\n", 0, m.start()) + 1
    column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    raise RulesError("E108", f"a control character (U+{ord(m.group()):04X}) in the file",
                     Span(path, line, column, line, column + 1),
                     ["remove it; in a string, write \\n or \\t for a new line or a tab"])


def _check_nesting(tree, path: str, line_offset: int = 0, column_offset: int = 0) -> None:
    """E106 where the tree is deeper than the nesting limit; every later stage recurses."""
    most = limit("nesting")
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > most:
            meta = getattr(node, "meta", None)
            line = getattr(meta, "line", None) or getattr(node, "line", 1) or 1
            column = getattr(meta, "column", None) or getattr(node, "column", 1) or 1
            raise nesting_error(path, line + line_offset,
                                column + (column_offset if line == 1 else 0))
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in node.children)


def _unwrap(e: VisitError) -> Exception:
    """The exception a transformer method raised, out of lark's (possibly nested) wrappers."""
    orig: Exception = e
    while isinstance(orig, VisitError):
        orig = orig.orig_exc
    return orig if isinstance(orig, RulesError) else e


def parse_expression(text: str, path: str, line: int, column: int):
    """Parse an expression embedded in a string template at the given place."""
    try:
        tree = parser().parse(text, start="expr")
        _check_nesting(tree, path, line - 1, column - 1)
    except RecursionError:
        raise nesting_error(path, line, column) from None
    except UnexpectedInput as e:
        err = syntax_error(e, text, path)
        col = column + (err.span.column - 1 if err.span else 0)
        message, hints = err.message, list(err.hints)
        if err.code == "E102":
            message = message.replace("the file ends too early", "the expression ends too early")
            hints = ["complete the expression before the closing '}'"]
        raise RulesError("E103", f"in a {{...}} of a string: {message}",
                         Span(path, line, col, line, col + 1), hints) from None
    return Build(path, line - 1, column - 1).transform(tree)


def read_source(path: str, hint: str = "check the path") -> str:
    """A rules file's text; unreadable or non-UTF-8 files are reported as RulesErrors
    (`hint` says what to check when the file cannot be read)."""
    try:
        data = read_bytes(path, "E107", "rules file").removeprefix(b"\xef\xbb\xbf")  # BOM
    except OSError as e:
        raise RulesError("E001", f"cannot read {shown_path(path)}: {e.strerror or e}", None,
                         [hint]) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        raise RulesError("E105", "the file is not valid UTF-8 text",
                         Span(path, line, col, line, col + 1),
                         ["save the file as UTF-8"]) from None


def parse_file(path: str) -> ast.File:
    """Read and parse a file; unreadable or non-UTF-8 files are reported as RulesErrors."""
    return parse(read_source(path, "check the path; bundled games can be named without "
                                   "'.rules'"), path)
