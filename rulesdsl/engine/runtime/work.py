"""The work budget (engine/budget.py) as generated code spends it.

`Budget.spend` and `Budget.move` are the rule: take n from the counter, and past zero fail
with R005 / R006. Closures call them. Generated code takes from the counter inline (in the
native build the counters are C integers: no call at all) and calls them with 0 only on the
failing path, so the message stays theirs. These builders are the only place that writes
those lines as text; a move's and a run of cells' are built as trees by engine/ir/python.py
(spent)."""

from __future__ import annotations


def spend_lines(budget: str, amount: str, span: str, pad: str = "") -> list:
    """Lines spending `amount` units of work from the budget named `budget`."""
    return [f"{pad}{budget}.work -= {amount}",
            f"{pad}if {budget}.work < 0:",
            f"{pad}    {budget}.spend(0, {span})"]


