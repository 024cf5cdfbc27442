"""The stream the walk writes and the printer reads: tokens that know how they join their
neighbours, layout markers, and where a token or subtree stands in the source."""

from __future__ import annotations

from lark import Token, Tree

STEP = 2  # spaces per indentation level


class Tok:
    """A token to print, with its place in the source and how it joins its neighbours."""

    __slots__ = ("text", "line", "end_line", "column", "start", "glue_left", "glue_right",
                 "brk", "closes_block", "chain")

    def __init__(self, token: Token):
        self.text = str(token)
        self.line = token.line
        self.end_line = token.end_line
        self.column = token.column
        self.start = token.start_pos
        plain = token.type in ("NAME", "STRING", "INT")
        self.glue_left = not plain and self.text in _GLUE_LEFT
        self.glue_right = not plain and self.text in _GLUE_RIGHT
        self.brk = "after" if token.type in _BREAK_AFTER else \
            "before" if token.type in _BREAK_BEFORE else None
        self.closes_block = False
        self.chain = False  # the `if` or an `else` of a conditional laid out over lines

    def __repr__(self) -> str:
        return f"Tok({self.text!r})"


_GLUE_LEFT = {")", "]", ",", ":", ".", ".."}
_GLUE_RIGHT = {"(", "[", ".", ".."}
_BREAK_AFTER = {"AND", "OR", "PLUS", "MINUS", "MUL_OP", "COMP_OP", "COMMA", "EQUAL", "ASSIGN_OP"}
_BREAK_BEFORE = {"WHERE"}

# markers in the stream
NL, SOFT, BLANK, INDENT, DEDENT = "nl", "soft", "blank", "indent", "dedent"


def first_line(x) -> int:
    return x.line if isinstance(x, Token) else x.meta.line


def last_line(x) -> int:
    return x.end_line if isinstance(x, Token) else x.meta.end_line


def is_token(x, type_: str) -> bool:
    return isinstance(x, Token) and x.type == type_


def has_block(x) -> bool:
    if not isinstance(x, Tree):
        return False
    return any(isinstance(t, Tree) and t.data in ("block", "kind_body")
               for t in x.iter_subtrees())
