"""Expression nodes: names, literals, texts with holes, operators, calls, comprehensions."""

from __future__ import annotations

from typing import Union

from rulesdsl.lang.errors import Span
from rulesdsl.lang.ast.node import node, span_field


@node
class Name:
    """A name: a local, a variable, an option, an enum value, a zone. Example: `dealer`"""
    span: Span = span_field()
    name: str = ""


@node
class Int:
    """An integer literal. Example: `320_000`"""
    span: Span = span_field()
    value: int = 0


@node
class Bool:
    """A truth value. Example: `true`"""
    span: Span = span_field()
    value: bool = False


@node
class NoneLit:
    """The absent value of a player, card or enum variable. Example: `none`"""
    span: Span = span_field()


@node
class Text:
    """A string with `{expr}` holes, for labels and the log. Example: `"{p} wins"`"""
    span: Span = span_field()
    parts: tuple = ()  # str or expression nodes, in order


@node
class ListLit:
    """A list. Example: `[7, 5, 3]`"""
    span: Span = span_field()
    items: tuple = ()


@node
class Comprehension:
    """A filtered list, or a list of values. Examples: `[c in hand[p] where c is joker]`,
    `sum(c.value for c in tableau[p] where c is treasure)`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    where: object = None
    value: object = None  # None for a filter, else the mapped expression


@node
class Prefix:
    """The leading elements of a list that satisfy a condition, up to the first that does
    not. Example: `[x in ray(c, d) while disc[x] == other]`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    cond: object = None


@node
class Attr:
    """An attribute of a card or enum value. Example: `c.colour`"""
    span: Span = span_field()
    obj: object = None
    name: str = ""


@node
class Index:
    """One instance of a per-player or per-enum zone or variable. Example: `hand[p]`"""
    span: Span = span_field()
    obj: object = None
    args: tuple = ()


@node
class Call:
    """A call of a definition or a built-in. Example: `count(c in hand[p] where c is joker)`"""
    span: Span = span_field()
    name: str = ""
    args: tuple = ()


@node
class Unary:
    """`not` or unary minus. Example: `not passed[p]`"""
    span: Span = span_field()
    op: str = ""
    operand: object = None


@node
class Binary:
    """Arithmetic, comparison, `and`, `or`. Example: `tricks[c] + 1 == 3`"""
    span: Span = span_field()
    op: str = ""
    left: object = None
    right: object = None


@node
class IsKind:
    """Tests a card's kind (or a parent kind). Example: `c is not joker`"""
    span: Span = span_field()
    expr: object = None
    kind: str = ""
    negated: bool = False


@node
class IsIn:
    """Membership in a list or zone. Example: `c is in hand[p]`"""
    span: Span = span_field()
    expr: object = None
    collection: object = None
    negated: bool = False


@node
class IfExpr:
    """A conditional value. Example: `if doubled then 2 * c.value else c.value`"""
    span: Span = span_field()
    cond: object = None
    then: object = None
    else_: object = None


@node
class Range:
    """Integers from start to stop inclusive, counting down where the step is negative.
    Example: `10_000..money[p] step 10_000`, `25..1 step -1`"""
    span: Span = span_field()
    start: object = None
    stop: object = None
    step: object = None


@node
class LetIn:
    """A name for a value inside an expression. Example:
    `let run = size(line_of(c, d)) in run > 0 and run < 4`"""
    span: Span = span_field()
    name: str = ""
    value: object = None
    body: object = None


Expr = Union[Name, Int, Bool, NoneLit, Text, ListLit, Comprehension, Attr, Index, Call, Unary,
             Binary, IsKind, IsIn, IfExpr, Range, LetIn, Prefix]
