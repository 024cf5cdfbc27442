"""The layout inside expressions and heads: brackets glued to what they follow, signs,
`let ... in`, and conditional values laid out over lines."""

from __future__ import annotations

from typing import Optional

from lark import Token, Tree

from rulesdsl.lang.fmt.emitter import Emitter
from rulesdsl.lang.fmt.stream import first_line, last_line, is_token


class ExpressionLayout(Emitter):
    """Glued brackets and signs, `let ... in`, and conditional values."""

    def glued_open(self, tree: Tree, opener: str) -> None:
        first = True
        for c in self.kids(tree):
            if first and is_token(c, opener):
                self.tok(c).glue_left = True
                first = False
            else:
                self.emit(c)

    def r_call_args(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_param_list(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_field_list(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_score_decl(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_evaluate_decl(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_payoff_decl(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_index(self, tree: Tree) -> None:
        self.glued_open(tree, "LSQB")

    def r_target(self, tree: Tree) -> None:
        self.glued_open(tree, "LSQB")

    def r_piece_index(self, tree: Tree) -> None:
        self.glued_open(tree, "LSQB")

    def r_neg(self, tree: Tree) -> None:
        kids = self.kids(tree)
        if len(kids) != 2 or not is_token(kids[0], "MINUS"):
            return self.generic(tree)
        t = self.tok(kids[0])
        t.glue_right, t.brk = True, None
        self.emit(kids[1])

    def r_border(self, tree: Tree) -> None:
        for c in self.kids(tree):
            if isinstance(c, Token):
                self.tok(c).brk = None
            else:
                self.emit(c)

    def r_let_expr(self, tree: Tree) -> None:
        """`let x = v in body`: a break the author made after `in` is kept."""
        for c in tree.children:
            if isinstance(c, Token) and c.type == "IN":
                self.tok(c).brk = "after"
            else:
                self.emit(c)

    def r_if_expr(self, tree: Tree, broken: Optional[bool] = None) -> None:
        if not self.is_if_expr(tree):
            return self.generic(tree)
        if broken is None:
            broken = self.chain_broken(tree)
        _if, cond, then, a, else_, b = self.kids(tree)
        self.tok(_if).chain = broken
        self.emit(cond)
        self.tok(then)
        self.emit(a)
        t = self.tok(else_)
        t.brk = "always" if broken else None
        t.chain = broken
        if self.is_if_expr(b):
            self.r_if_expr(b, broken)
        else:
            self.emit(b)

    @classmethod
    def is_if_expr(cls, x) -> bool:
        """`if C then A else B`, in the shape this formatter knows."""
        if not (isinstance(x, Tree) and x.data == "if_expr"):
            return False
        kids = cls.kids(x)
        return len(kids) == 6 and [is_token(kids[k], t) for k, t in
                                   ((0, "IF"), (2, "THEN"), (4, "ELSE"))] == [True] * 3

    @classmethod
    def chain_broken(cls, tree: Tree) -> bool:
        """Whether the author wrote this `if ... then ... else if ...` over several lines."""
        node = tree
        while cls.is_if_expr(node):
            _if, cond, then, a, else_, b = cls.kids(node)
            if last_line(cond) < then.line or then.end_line < first_line(a) or \
                    last_line(a) < else_.line or else_.end_line < first_line(b):
                return True
            node = b
        return False
