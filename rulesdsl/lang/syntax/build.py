"""The transformer from a Lark tree to ast nodes: the rule mixins of each grammar section."""

from __future__ import annotations

from rulesdsl.lang.syntax.declarations import DeclarationRules
from rulesdsl.lang.syntax.expressions import ExpressionRules
from rulesdsl.lang.syntax.statements import StatementRules


class Build(DeclarationRules, StatementRules, ExpressionRules):
    """One method per grammar rule, each making one ast node; lark calls the method named
    like the rule. Each mixin is `v_args(inline=True, meta=True)` itself: lark applies
    `v_args` only to the methods a class defines, not to those it inherits."""
