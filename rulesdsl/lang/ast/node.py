"""What makes a class a node of the syntax tree: frozen attrs, its span left out of equality."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:  # tells the type checker that a node's fields make its __init__
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_):
        return lambda f: f


@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field,))
def node(cls):
    """Make `cls` a frozen attrs node; its `span` field is excluded from eq and repr."""
    return attrs.frozen(cls, eq=True, repr=True)


def span_field():
    return attrs.field(eq=False, repr=False)
