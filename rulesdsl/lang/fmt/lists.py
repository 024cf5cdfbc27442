"""The layout of comma-separated lists the author groups on lines: enum values, a board's
nodes and borders."""

from __future__ import annotations

from lark import Token, Tree

from rulesdsl.lang.fmt.emitter import Emitter
from rulesdsl.lang.fmt.stream import Tok, NL, INDENT, DEDENT, first_line, last_line, is_token


class ListLayout(Emitter):
    """Enum values and a board's nodes and borders, grouped as the author wrote them."""

    def r_enum_decl(self, tree: Tree) -> None:
        kids = self.kids(tree)
        i = self.brace_at(kids)
        if i is None:
            return self.generic(tree)
        for c in kids[:i]:
            self.emit(c)
        lbrace, rbrace = kids[i], kids[-1]
        items = [c for c in kids[i + 1:-1] if not is_token(c, "COMMA")]
        one_line = lbrace.line == rbrace.end_line and \
            not self.comment_within(lbrace.start_pos, rbrace.end_pos)
        self.tok(lbrace)
        if one_line:
            for k, item in enumerate(items):
                if k:
                    self.comma()
                self.emit(item)
            self.tok(rbrace)
            return
        self.out.append(INDENT)
        self.grouped(items, trailing_comma=True)
        self.out.append(DEDENT)
        self.out.append(NL)
        self.tok(rbrace).closes_block = True

    def grouped(self, items: list, trailing_comma: bool) -> None:
        """Comma-separated items, a line for each group the author wrote on one line."""
        for k, item in enumerate(items):
            if k == 0 or first_line(item) > last_line(items[k - 1]):
                if k:
                    self.comma()
                self.out.append(NL)
            else:
                self.comma()
            self.emit(item)
        if trailing_comma and items:
            self.comma()

    def comma(self) -> None:
        t = Tok(Token("COMMA", ","))
        t.line = t.end_line = t.column = t.start = None
        t.brk = None
        self.out.append(t)

    def r_board_decl(self, tree: Tree) -> None:
        kids = self.kids(tree)
        i = self.brace_at(kids)
        j = next((k for k, c in enumerate(kids) if is_token(c, "BORDERS")), None)
        if i is None or j is None or j < i:
            return self.generic(tree)
        for c in kids[:i]:
            self.emit(c)
        nodes = [c for c in kids[i + 1:j] if not is_token(c, "COMMA")]
        borders = [c for c in kids[j + 1:-1] if not is_token(c, "COMMA")]
        self.tok(kids[i])
        self.out.append(INDENT)
        self.grouped(nodes, trailing_comma=False)
        self.out.append(NL)
        self.tok(kids[j])
        if borders and first_line(borders[0]) == kids[j].line and \
                last_line(borders[-1]) == kids[j].line:
            for k, b in enumerate(borders):
                if k:
                    self.comma()
                self.emit(b)
        else:
            self.out.append(INDENT)
            self.grouped(borders, trailing_comma=False)
            self.out.append(DEDENT)
        self.out.append(DEDENT)
        self.out.append(NL)
        self.tok(kids[-1]).closes_block = True
