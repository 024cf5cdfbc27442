"""What makes a class a node of the syntax tree: frozen attrs, its span left out of equality."""

from __future__ import annotations

import attrs


def node(cls):
    """Make `cls` a frozen attrs node; its `span` field is excluded from eq and repr."""
    return attrs.frozen(cls, eq=True, repr=True)


def span_field():
    return attrs.field(eq=False, repr=False)
