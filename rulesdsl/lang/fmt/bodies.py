"""The layout of what holds lines: the file's declarations (blank lines between sorts), bodies
in braces (`{ }` on one line or one item a line), and the strings of `about` and `text`."""

from __future__ import annotations

from typing import Optional

from lark import Token, Tree

from rulesdsl.lang.fmt.emitter import Emitter
from rulesdsl.lang.fmt.stream import NL, BLANK, INDENT, DEDENT, is_token, has_block

# the sorts of declarations kept apart by a blank line; others are a sort each
_SORTS = {"game_decl": "header", "extends_decl": "header", "players_decl": "header",
          "option_decl": "header", "define_decl": "define", "modifier_decl": "define",
          "truth_decl": "define",
          "title_decl": "present", "text_decl": "present", "internal_decl": "present",
          "show_decl": "present", "look_decl": "present"}


class BodyLayout(Emitter):
    """The file, bodies in braces, and lines of strings."""

    def r_start(self, tree: Tree) -> None:
        prev = None
        for decl in self.kids(tree):
            sort = self.sort(decl)
            if prev is not None:
                self.out.append(NL)
                if sort != prev:
                    self.out.append(BLANK)
            self.emit(decl)
            prev = sort

    @staticmethod
    def sort(decl) -> str:
        body = [c for c in decl.children if isinstance(c, Tree)] if isinstance(decl, Tree) else []
        name = str(body[-1].data) if body else str(getattr(decl, "data", decl))
        return _SORTS.get(name, name)

    def body(self, lbrace: Token, items: list, rbrace: Token, emit_item=None,
             one_line_ok: bool = True) -> None:
        """`{ items }`: on one line when short and written so, else one item per line."""
        emit_item = emit_item or self.emit
        one_line = one_line_ok and not self.comment_within(lbrace.start_pos, rbrace.end_pos) \
            and (not items or (len(items) == 1 and lbrace.line == rbrace.end_line
                               and not has_block(items[0])))
        self.tok(lbrace)
        if one_line:
            for item in items:
                emit_item(item)
            self.tok(rbrace)
            return
        self.out.append(INDENT)
        for item in items:
            self.out.append(NL)
            emit_item(item)
        self.out.append(DEDENT)
        self.out.append(NL)
        self.tok(rbrace).closes_block = True

    @staticmethod
    def brace_at(kids: list) -> Optional[int]:
        """Where the `{ ... }` that ends a rule opens, if it does end so."""
        if not kids or not is_token(kids[-1], "RBRACE"):
            return None
        return next((k for k, c in enumerate(kids) if is_token(c, "LBRACE")), None)

    def braced(self, tree: Tree, emit_item=None, skip=()) -> None:
        """A rule whose last part is `{ ... }`: the head as usual, then the body."""
        kids = self.kids(tree)
        i = self.brace_at(kids)
        if i is None:  # a shape this formatter does not know: lay it out plainly
            return self.generic(tree)
        for c in kids[:i]:
            self.emit(c)
        items = [c for c in kids[i + 1:-1] if not any(is_token(c, s) for s in skip)]
        self.body(kids[i], items, kids[-1], emit_item)

    def r_block(self, tree: Tree) -> None:
        self.braced(tree)

    def r_kind_body(self, tree: Tree) -> None:
        self.braced(tree)

    def r_look_decl(self, tree: Tree) -> None:
        self.braced(tree)

    def r_layout_decl(self, tree: Tree) -> None:
        """A laid-out board: a row or a track a line, as the table shows them."""
        self.braced(tree)

    def lines_of_text(self, tree: Tree) -> None:
        """`about` and `text NAME`: one string stays on the head's line if written so;
        several go one a line, indented."""
        kids = self.kids(tree)
        strings = [c for c in kids if is_token(c, "STRING")]
        for c in kids:
            if not is_token(c, "STRING"):
                self.emit(c)
        if len(strings) == 1 and strings[0].line == tree.meta.line:
            self.tok(strings[0])
            return
        self.out.append(INDENT)
        for c in strings:
            self.out.append(NL)
            self.tok(c)
        self.out.append(DEDENT)

    def r_about_decl(self, tree: Tree) -> None:
        self.lines_of_text(tree)

    def r_text_decl(self, tree: Tree) -> None:
        self.lines_of_text(tree)

    def r_ask_stmt(self, tree: Tree) -> None:
        self.braced(tree)

    def r_ask_each_stmt(self, tree: Tree) -> None:
        self.braced(tree)

    def r_ask_together_stmt(self, tree: Tree) -> None:
        self.braced(tree)

    def r_deck_decl(self, tree: Tree) -> None:
        self.braced(tree)

    def r_deck_entry(self, tree: Tree) -> None:
        for c in self.kids(tree):
            if not is_token(c, "COMMA"):
                self.emit(c)
