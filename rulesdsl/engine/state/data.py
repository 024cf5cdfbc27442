"""The plain-data pieces of a state: actions, and the helpers that name zones, variables
and versions."""

from __future__ import annotations

from operator import itemgetter

import hashlib

from rulesdsl.lang.limits import bounded_int, brief
from rulesdsl.engine.runtime.seats import seat_label
from rulesdsl.lang.errors import RulesError


FORMAT = "rulesdsl-state"


FORMAT_VERSION = 1




REPLAY_SPAN = 256  # a failed apply replays at most this many actions (see _rewind)


class Action(tuple):
    """One legal choice of the current decision; `label` is unique within the decision.
    A 1-tuple (label,): one Action per label, shared by every decision that offers it, so
    `legal_actions` finds them in one C-level pass. Equality and hash are the tuple's own
    (by label), so finding an action among the options needs no Python call either."""

    __slots__ = ()

    def __new__(cls, label: str):
        return tuple.__new__(cls, (label,))

    label = property(itemgetter(0), doc="the action's label, unique within the decision")

    def __getnewargs__(self):
        return tuple(self)

    def __repr__(self) -> str:
        return f"Action({self.label!r})"

    def __str__(self) -> str:
        return self.label


class _Actions(dict):
    """label -> its Action, made on first use, so the same label is the same Action object
    every time (they are immutable), found without a Python call; emptied when it grows
    large (a game whose labels never repeat, such as free amounts)."""

    def __missing__(self, label):
        if len(self) >= 100_000:
            self.clear()
        action = self[label] = tuple.__new__(Action, (label,))
        return action


_ACTIONS = _Actions()


def fold_repeats(chain: list) -> list:
    """A call chain with its repeating stretch told once: runaway recursion shows
    "a -> b" and "... a -> b again 99 more times", not 200 lines."""
    out: list = []
    k = 0
    n = len(chain)
    while k < n:
        best = None
        for size in range(1, min(8, (n - k) // 2) + 1):
            unit = chain[k:k + size]
            reps = 1
            while chain[k + reps * size:k + (reps + 1) * size] == unit:
                reps += 1
            if reps >= 3 and (best is None or reps * size > best[0] * best[1]):
                best = (reps, size)
        if best is None:
            out.append(chain[k])
            k += 1
            continue
        reps, size = best
        out += chain[k:k + size]
        out.append(f"... the {'call' if size == 1 else f'{size} calls'} above again "
                   f"{reps - 1} more times")
        k += reps * size
    return out


def copy_frames(frames: list) -> list:
    """The frame stack copied: each frame [procedure, pc, locals, is_effect] a new list,
    its locals copied, each list among them copied too. Most locals hold no list: then one
    slice (the test runs in C, no bytecode per slot: a search copies frames per clone),
    and no Python call per frame."""
    return [[p, pc, L[:] if list not in map(type, L) else _lists_copied(L), e]
            for p, pc, L, e in frames]


def _lists_copied(L: list) -> list:
    """A frame's locals copied, each list among them copied too (found by C-level
    searches, no bytecode per slot)."""
    out = L[:]
    types = list(map(type, L))
    i = -1
    for _ in range(types.count(list)):
        i = types.index(list, i + 1)
        out[i] = out[i][:]
    return out


def _jsonable(prog, t: str, v):
    if v is None:
        return None
    if t == "player":
        return seat_label(v)
    if t in prog.enums:
        return prog.enums[t][v]
    if t == "card":
        return prog.card_label[v]
    return v


def _split_name(name: str):
    """'hand[P1]' -> ('hand', ['P1']); 'hand' -> ('hand', [])."""
    if not isinstance(name, str):
        raise RulesError("A003", f"a zone or variable name is text, not {brief(name)}")
    name = name.strip()
    if name.endswith("]") and "[" in name:
        base, rest = name.split("[", 1)
        keys = [k.strip() for k in rest[:-1].split(",") if k.strip()]
        return base.strip(), keys
    return name, []


def _flat(prog, lay, keys: list, name: str) -> int:
    if len(keys) != len(lay.dims):
        raise RulesError("A004", f"{name} is indexed by {', '.join(lay.dims) or 'nothing'}; "
                         f"got {len(keys)} index{'es' if len(keys) != 1 else ''}", None,
                         [f"write {name}[" + ", ".join("P1" if d == "player" else
                                                       prog.enums[d][0] for d in lay.dims) + "]"]
                         if lay.dims else [])
    flat = 0
    for dim, size, key in zip(lay.dims, lay.sizes, keys):
        k = _key_value(prog, dim, key, name)
        if not 0 <= k < size:
            raise RulesError("A004", f"{name}[{brief(key)}] is out of range")
        flat = flat * size + k
    return flat


def _key_value(prog, dim: str, key, name: str) -> int:
    if dim == "player":
        if isinstance(key, bool):
            raise RulesError("A004", f"{name}: a seat is a number or P1..P{prog.nplayers}")
        if isinstance(key, int):
            return key
        s = str(key).strip()
        if s.upper().startswith("P") and s[1:].isdecimal():
            return bounded_int(s[1:]) - 1
        if s.isdecimal():
            return bounded_int(s)
        raise RulesError("A004", f"{name}: '{brief(key)}' is not a seat", None,
                         [f"seats are 0..{prog.nplayers - 1} or P1..P{prog.nplayers}"])
    values = prog.enums[dim]
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if str(key) in values:
        return values.index(str(key))
    from rulesdsl.lang.errors import did_you_mean
    raise RulesError("A004", f"{name}: '{brief(key)}' is not a value of {dim}", None,
                     did_you_mean(str(key), values))


def _version() -> str:
    from rulesdsl._version import __version__
    return __version__


def source_hash(sources: dict) -> str:
    h = hashlib.sha256()
    for path in sorted(sources):
        h.update(sources[path].encode("utf-8"))
    return h.hexdigest()[:16]
