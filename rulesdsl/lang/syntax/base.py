"""What every rule method of the transformer shares: the place of the text it reads
(spans) and the strings with `{expr}` holes."""

from __future__ import annotations

import re
from typing import Optional

from lark import Token, Transformer

from rulesdsl.lang import ast
from rulesdsl.lang.errors import RulesError, Span
from rulesdsl.lang.limits import whole_number

_PLAIN_RUN = re.compile(r"[^\\{]*")  # text up to the next escape or hole


def whole(tok) -> int:
    """A number token's value; past 30 digits a stand-in past every limit (int() of more
    than 4,300 digits raises ValueError, and the checks report any number past 2^53)."""
    return whole_number(str(tok))


def unescape(raw: str) -> str:
    body = raw[1:-1]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


class Rules(Transformer):
    """The base of the rule mixins: the file's path, and the offsets of an expression
    parsed from inside a string."""

    def __init__(self, path: str, line_offset: int = 0, column_offset: int = 0):
        super().__init__()
        self.path = path
        self.line_offset = line_offset
        self.column_offset = column_offset

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 1 + self.line_offset, 1, 1 + self.line_offset, 1)
        col_off = self.column_offset if meta.line == 1 else 0
        return Span(self.path, meta.line + self.line_offset, meta.column + col_off,
                    meta.end_line + self.line_offset,
                    meta.end_column + (self.column_offset if meta.end_line == 1 else 0),
                    meta.start_pos, meta.end_pos)

    def _tok_span(self, tok: Token) -> Span:
        col_off = self.column_offset if tok.line == 1 else 0
        return Span(self.path, tok.line + self.line_offset, tok.column + col_off,
                    tok.end_line + self.line_offset, tok.end_column + col_off,
                    tok.start_pos, tok.end_pos)

    def _text(self, tok: Token) -> ast.Text:
        """A string token as a Text with its {expr} holes parsed."""
        raw = str(tok)
        body = raw[1:-1]
        parts = []
        i = 0
        buf: list = []  # pieces of plain text, joined once: '+=' per character was quadratic
        base_col = tok.column + (self.column_offset if tok.line == 1 else 0) + 1
        line = tok.line + self.line_offset
        while i < len(body):
            m = _PLAIN_RUN.match(body, i)
            assert m is not None  # it matches the empty text at least
            if m.end() > i:
                buf.append(m.group())
                i = m.end()
                continue
            ch = body[i]
            if ch == "\\" and i + 1 < len(body):
                buf.append({"n": "\n", "t": "\t"}.get(body[i + 1], body[i + 1]))
                i += 2
                continue
            if ch == "{":
                close = body.find("}", i)
                if close < 0:
                    raise RulesError("E103", "a '{' in this string is not closed",
                                     Span(self.path, line, base_col + i, line, base_col + i + 1),
                                     ["write '{expression}', or '\\{' for a brace"])
                inner = body[i + 1:close]
                if not inner.strip():
                    raise RulesError("E103", "an empty '{}' in this string",
                                     Span(self.path, line, base_col + i, line, base_col + i + 2),
                                     ["put an expression between the braces, like {p}"])
                if buf:
                    parts.append("".join(buf))
                    buf = []
                # at call time: `parsing` imports the transformer built on this class
                from rulesdsl.lang.syntax.parsing import parse_expression
                parts.append(parse_expression(inner, self.path, line, base_col + i + 1))
                i = close + 1
                continue
            buf.append(ch)
            i += 1
        if buf:
            parts.append("".join(buf))
        return ast.Text(self._tok_span(tok), tuple(parts))

    @staticmethod
    def _plain(tok: Optional[Token]) -> str:
        return unescape(str(tok)) if tok is not None else ""
