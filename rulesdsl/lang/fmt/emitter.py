"""The walk's primitives every layout mixin uses: put a token in the stream, walk a subtree
by its rule's method (`r_<rule>`) or plainly, ask whether a comment lies in a range."""

from __future__ import annotations

import bisect

from lark import Token, Tree

from rulesdsl.lang.fmt.stream import Tok


class Emitter:
    """Writes the stream `out`; a subtree goes to the method named after its rule, if any."""

    def __init__(self, comments: list):
        self.out: list = []
        self.comment_starts = sorted(c.start_pos for c in comments)

    def comment_within(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.comment_starts, start)
        return i < len(self.comment_starts) and self.comment_starts[i] < end

    def tok(self, token: Token) -> Tok:
        t = Tok(token)
        self.out.append(t)
        return t

    def emit(self, x) -> None:
        if x is None:
            return
        if isinstance(x, Token):
            self.tok(x)
            return
        handler = getattr(self, "r_" + str(x.data), None)
        if handler is not None:
            handler(x)
        else:
            self.generic(x)

    @staticmethod
    def kids(tree: Tree) -> list:
        return [c for c in tree.children if c is not None]

    def generic(self, tree: Tree) -> None:
        for c in tree.children:
            self.emit(c)
