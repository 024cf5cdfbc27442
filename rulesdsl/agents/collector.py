"""Python's cyclic garbage collector, kept to a search's own objects while it runs.

A search makes and drops many small lists (a copy of the game per sample and per
look-ahead), so the collector runs often, and each of its full passes walks every object
alive in the process: tens of thousands once a game is loaded (about 80,000 once its
Python back end is built). Measured on six fixed positions per game (ismcts_speed.py, 300
iterations each), those passes took from 5% to 29% of a search's CPU time in the bundled
games (benchmarks/results.md, twenty-third session).

While a search runs, the objects alive before it (the program, the game, the caller's) are
set aside from the collector (`gc.freeze`) and given back after (`gc.unfreeze`), and the
youngest objects are collected less often. The collector decides nothing a game or an
agent does: no object of the engine has a finaliser or a weak reference, so the moves are
the same with or without this, only cheaper.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

# net allocations between two collections of the youngest objects while a search runs
# (CPython's default is 700): a search's copies are mostly dropped before they count
YOUNG = 10_000


@contextmanager
def searching() -> Iterator[None]:
    """Run the body with the objects alive now out of the collector's passes. Does nothing
    where the collector is off or somebody else froze objects (a server that forks its
    workers: theirs must stay frozen), and nothing more in a search begun inside another
    (a look-ahead's, another thread's): the outer one gives the objects back."""
    threshold = gc.get_threshold()
    if not gc.isenabled() or not threshold[0] or gc.get_freeze_count():  # (0: off too)
        yield
        return
    gc.freeze()
    gc.set_threshold(max(threshold[0], YOUNG), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()
