"""The parse tree -> the token stream with layout markers, one mixin by what it lays out."""

from __future__ import annotations

from rulesdsl.lang.fmt.bodies import BodyLayout
from rulesdsl.lang.fmt.expressions import ExpressionLayout
from rulesdsl.lang.fmt.lists import ListLayout


class Walker(BodyLayout, ListLayout, ExpressionLayout):
    """Turns the parse tree into tokens and layout markers; one method per shaped rule."""
