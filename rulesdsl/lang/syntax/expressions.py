"""Tree -> ast for the expressions: the section "expressions" of grammar/rules.lark, from
`if ... then ... else` and `let ... in` down to literals and comprehensions."""

from __future__ import annotations

from lark import v_args

from rulesdsl.lang import ast
from rulesdsl.lang.syntax.base import Rules, whole


@v_args(inline=True, meta=True)
class ExpressionRules(Rules):
    """One method per rule of that section of grammar/rules.lark, each making one node."""

    def if_expr(self, meta, cond, then, else_):
        return ast.IfExpr(self._span(meta), cond, then, else_)

    def let_expr(self, meta, name, value, body):
        return ast.LetIn(self._span(meta), str(name), value, body)

    def or_op(self, meta, a, b):
        return ast.Binary(self._span(meta), "or", a, b)

    def and_op(self, meta, a, b):
        return ast.Binary(self._span(meta), "and", a, b)

    def not_op(self, meta, a):
        return ast.Unary(self._span(meta), "not", a)

    def compare(self, meta, a, op, b):
        return ast.Binary(self._span(meta), str(op), a, b)

    def binary(self, meta, a, op, b):
        return ast.Binary(self._span(meta), str(op), a, b)

    def is_kind(self, meta, a, kind):
        return ast.IsKind(self._span(meta), a, str(kind), False)

    def is_not_kind(self, meta, a, kind):
        return ast.IsKind(self._span(meta), a, str(kind), True)

    def is_in(self, meta, a, coll):
        return ast.IsIn(self._span(meta), a, coll, False)

    def is_not_in(self, meta, a, coll):
        return ast.IsIn(self._span(meta), a, coll, True)

    def range(self, meta, start, stop, step):
        return ast.Range(self._span(meta), start, stop, step)

    def neg(self, meta, _minus, a):
        return ast.Unary(self._span(meta), "-", a)

    def attr(self, meta, obj, name):
        return ast.Attr(self._span(meta), obj, str(name))

    def index(self, meta, obj, args):
        return ast.Index(self._span(meta), obj, tuple(args))

    def call(self, meta, name, args):
        return ast.Call(self._span(meta), str(name), tuple(args or ()))

    def call_args(self, meta, args):
        if args is None:
            return ()
        if isinstance(args, (ast.Comprehension, ast.Prefix)):
            return (args,)
        return args

    def args(self, meta, *items):
        return tuple(items)

    def name(self, meta, tok):
        return ast.Name(self._span(meta), str(tok))

    def int_lit(self, meta, tok):
        return ast.Int(self._span(meta), whole(tok))

    def true_lit(self, meta):
        return ast.Bool(self._span(meta), True)

    def false_lit(self, meta):
        return ast.Bool(self._span(meta), False)

    def none_lit(self, meta):
        return ast.NoneLit(self._span(meta))

    def str_lit(self, meta, tok):
        return self._text(tok)

    def list_lit(self, meta, args):
        return ast.ListLit(self._span(meta), tuple(args or ()))

    def list_comp(self, meta, comp):
        return comp

    def filter_comp(self, meta, binder, source, where):
        return ast.Comprehension(self._span(meta), str(binder), source, where, None)

    def prefix_comp(self, meta, binder, source, cond):
        return ast.Prefix(self._span(meta), str(binder), source, cond)

    def map_comp(self, meta, value, binder, source, where):
        return ast.Comprehension(self._span(meta), str(binder), source, where, value)
