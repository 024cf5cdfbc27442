"""Type nodes: a written type and a parameter with its type."""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang.errors import Span
from rulesdsl.lang.ast.node import node, span_field


@node
class TypeRef:
    """A type: `int`, `bool`, `player`, `card`, an enum or board name, `list of T`, or an
    integer range for options. Example: `list of player`"""
    span: Span = span_field()
    name: str = ""  # "int", "bool", "player", "card", enum name, "list", "range"
    of: Optional["TypeRef"] = None
    low: int = 0
    high: int = 0


@node
class Param:
    """A typed parameter. Example: `p: player`"""
    span: Span = span_field()
    name: str = ""
    type: Optional[TypeRef] = None
