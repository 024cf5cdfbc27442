"""A definition whose value is fixed by its arguments, remembered for the loaded program's
life: a board's side (`[c in Cell where column_of(c) == 7]`), a card's worth from a fixed
table. It reads no variable, zone or option, draws nothing and runs no rules
(rulesdsl.lang.reads.fixed_by_arguments), so the same arguments give the same value in
every position of every game of the program.

A remembered answer costs what computing it did: its units of work (and long texts) are
spent again, and where the budget has less left than that, the definition is computed
after all, so that it runs out where it always did (R005 at the same place, whatever the
process computed before). Nothing else a call does depends on the position."""

from __future__ import annotations

from typing import Callable

# answers kept per definition (a game of free amounts calls one with many numbers)
KEPT = 4096


def remembered(define: Callable, nparams: int, budget) -> Callable:
    """`define(st, L)` (a definition's generated function, its arguments in L[:nparams]),
    its answers kept per arguments, each with the work and long texts it spent. Arguments
    that are lists are never keys (computed each time); a list answer is handed out as a
    copy, as computing it would have made a new one."""
    kept: dict = {}

    def call(st, L):
        key = tuple(L[:nparams])
        if list not in map(type, key):
            hit = kept.get(key)
            if hit is not None:
                value, work, texts = hit
                if budget.work >= work and budget.texts >= texts:
                    budget.work -= work
                    budget.texts -= texts
                    return value[:] if type(value) is list else value
            work, texts = budget.work, budget.texts
            value = define(st, L)
            if len(kept) < KEPT:
                kept[key] = (value[:] if type(value) is list else value,
                             work - budget.work, texts - budget.texts)
            return value
        return define(st, L)
    return call
