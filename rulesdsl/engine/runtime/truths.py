"""The file's invariants (`invariant NAME(params) = COND`): conditions the rules keep true
for every value of their parameters, and that every player knows.

The engine checks them after every action it is given (`State.apply`: the runner,
`simulate`, the adapters), so rules that break one stop with R034 and the state as it was
before the action; the search's own playouts skip the check, and so does play on a
sample (a guess at the hidden cards, which keeps them only as far as it could be
mended). `determinize` keeps them in its samples (engine/knowledge.py), since a seat may
rely on what every player knows."""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang.errors import RuntimeRulesError


def broken(st, most: Optional[int] = None) -> list:
    """(truth, arguments) of every case that does not hold now, up to `most`."""
    out: list = []
    st.memo = None  # definitions remembered before the cards changed are stale
    for t in st.prog.truths:
        for args in t.cases():
            if not t.holds(st, args):
                out.append((t, args))
                if most is not None and len(out) >= most:
                    return out
    return out


def count_broken(st) -> int:
    return len(broken(st))


def keep_truths(st, before: Optional[int] = None) -> None:
    """After an action: every invariant still holds, or R034 and the state goes back to
    before the action (`before`: the history's length then; None at the start)."""
    found = broken(st, 1)
    if not found:
        return
    t, args = found[0]
    if before is not None:
        st._rewind(before)
    raise RuntimeRulesError("R034", f"the rules broke their invariant {t.shown(args)}",
                            t.span, ["look at what the last action changed that the "
                                     "invariant reads", "or correct the invariant: every "
                                     "player relies on it"])
