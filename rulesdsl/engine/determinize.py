"""Determinization: a complete State sampled from what one seat knows.

`Knowledge(state, seat)` reads only what the seat may see: the cards in zones visible to
it, the sizes of the others, the variables it may read, and the events of the log as the
seat saw them. From the log it learns which cards it saw go into a zone hidden from it
(a card passed face down, a hand shown to it); it forgets that when a hidden move takes
cards out of that zone (it cannot tell which) or a card of it is played.

`Knowledge.sample(seed)` then deals the cards it does not know, in a seat-independent
order, over the places it cannot see, keeping every zone's size; puts hidden variables
back to their declared values; and gives the new state its own random numbers. Two states
that look the same to the seat give the same sample for the same seed, and sampling an
already sampled state again gives the same result as sampling the real one.
"""

from __future__ import annotations

import math
import random

from rulesdsl.engine.state import splitmix64
from rulesdsl.engine.together import hide_pending_choices

MASK64 = (1 << 64) - 1


class Knowledge:
    """What `seat` knows about the cards and variables of `state` (computed once)."""

    def __init__(self, state, seat: int):
        self.state = state
        self.seat = seat
        prog = state.prog
        see = [state.can_see(zi, seat) for zi in range(len(prog.zone_names))]
        self.see = see
        known = _known_places(state, seat, see)
        # cards a readable card variable names are known cards; keep them where they lie
        for i in self._card_vars_read():
            c = state.vars[i]
            if isinstance(c, int) and 0 <= c < len(state.loc) and not see[state.loc[c]]:
                known[c] = state.loc[c]
        zones = state.zones
        visible = {c for zi, z in enumerate(zones) if see[zi] for c in z}
        # pin known cards to their hidden zone, never more than the zone holds
        pinned = {}
        for c in sorted(known):
            zi = known[c]
            if zi is None or see[zi] or c in visible:
                continue
            got = pinned.setdefault(zi, [])
            if len(got) < len(zones[zi]):
                got.append(c)
        self.pinned = pinned
        pinned_set = {c for cs in pinned.values() for c in cs}
        placed = [c for c in range(len(state.loc)) if 0 <= state.loc[c] < len(zones)]
        # the cards the seat cannot place, sorted by id: never by where they truly lie
        self.pool = sorted(c for c in placed if c not in visible and c not in pinned_set)
        self.hidden_zones = [zi for zi in range(len(zones)) if not see[zi] and zones[zi]]
        self.slots = {zi: len(zones[zi]) - len(pinned.get(zi, ())) for zi in self.hidden_zones}

    def _card_vars_read(self):
        prog = self.state.prog
        for lay in prog.vars.values():
            if lay.type != "card":
                continue
            for k in range(math.prod(lay.sizes)):
                if _may_read(lay, k, self.seat):
                    yield lay.base + k

    def sample(self, seed: int):
        """A full State consistent with this knowledge, the same for the same seed."""
        state = self.state
        prog = state.prog
        rnd = random.Random(seed & MASK64)
        d = state.clone()
        pool = self.pool[:]
        rnd.shuffle(pool)
        at = 0
        for zi in self.hidden_zones:
            n = self.slots[zi]
            cards = self.pinned.get(zi, []) + pool[at:at + n]
            at += n
            if prog.zone_unordered[zi]:
                cards.sort()
            else:
                rnd.shuffle(cards)
            d.zones[zi] = cards
            for c in cards:
                d.loc[c] = zi
        # variables the seat may not read take their declared starting values
        for lay in prog.vars.values():
            hidden = [k for k in range(math.prod(lay.sizes)) if not _may_read(lay, k, self.seat)]
            if not hidden:
                continue
            try:
                v = lay.default(d, [None] * 8)
            except Exception:  # a starting value that needs the game running: unknown
                v = None
            for k in hidden:
                d.vars[lay.base + k] = list(v) if isinstance(v, list) else v
        d.rng = splitmix64(seed & MASK64 ^ 0x5DEECE66D)[1]
        d.seed = seed
        # the others' secret choices not yet revealed (ask together): known only to be made
        hide_pending_choices(d, self.seat, rnd)
        d.pending = None
        return d


def determinize(state, seat: int, seed: int):
    """A complete state `seat` cannot tell from `state`, sampled from what it knows."""
    return Knowledge(state, seat).sample(seed)


def _may_read(lay, k: int, seat: int) -> bool:
    if lay.visibility == "hidden":
        return False
    if lay.visibility == "private":
        return _owner_of(lay, k) == seat
    return True


def _owner_of(lay, k: int):
    if "player" not in lay.dims:
        return None
    keys = []
    for s in reversed(lay.sizes):
        keys.append(k % s)
        k //= s
    keys.reverse()
    return keys[lay.dims.index("player")]


def _known_places(state, seat: int, see: list) -> dict:
    """Replay the log as `seat` saw it: card -> the zone it was last seen go into (None:
    seen, but where it went is not known)."""
    known = {}
    for e in state.events:
        if isinstance(e, str):
            continue
        kind = e[0]
        if kind == "move":
            cards, src, dst = e[1], e[2], e[3]
            if see[src] or see[dst]:
                for c in cards:
                    known[c] = dst
            else:
                # some cards left src for dst; the seat cannot tell which
                for c, zi in list(known.items()):
                    if zi == src:
                        known[c] = None
        elif kind == "play":
            known[e[2]] = None  # moved without a logged move: its place is not known
        elif kind == "reveal":
            zi = e[2]
            if zi < 0:
                continue
            if len(e) <= 3 or seat in e[3] or see[zi]:
                for c in e[1]:
                    known[c] = zi
    return known
