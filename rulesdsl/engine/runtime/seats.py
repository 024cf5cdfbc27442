"""How the rules' text names a seat."""

from __future__ import annotations


def seat_label(s) -> str:
    """Seat 0 is "P1"; none is "none"."""
    return "none" if s is None else f"P{s + 1}"


def owner_of(lay, k: int):
    """The seat that owns slot `k` of a variable laid out as `lay` (its `player` index), or
    None where the variable has no player index."""
    if "player" not in lay.dims:
        return None
    # decode the flat offset into keys
    keys = []
    for s in reversed(lay.sizes):
        keys.append(k % s)
        k //= s
    keys.reverse()
    return keys[lay.dims.index("player")]
