"""An append-only list that clones share: the history and the event log of a game.

Items live in immutable chunks linked from the newest back, plus a short mutable tail, so
`copy()` costs the same at item 10 and at item 10,000 and appending never disturbs a copy.
Reading it as a whole (`tolist`, iteration, indexing) builds a plain list once and keeps it
until the next append.
"""

from __future__ import annotations

CHUNK = 64


class Journal:
    __slots__ = ("_chunks", "_tail", "_n", "_flat")

    def __init__(self, items=()):
        self._chunks = None  # (tuple of CHUNK items, older chunks) or None
        self._tail: list = []
        self._n = 0
        self._flat = None
        for x in items:
            self.append(x)

    def append(self, x) -> None:
        tail = self._tail
        tail.append(x)
        self._n += 1
        self._flat = None
        if len(tail) >= CHUNK:
            self._chunks = (tuple(tail), self._chunks)
            self._tail = []

    def copy(self) -> "Journal":
        j = Journal.__new__(Journal)
        j._chunks = self._chunks
        j._tail = self._tail[:]
        j._n = self._n
        j._flat = self._flat
        return j

    def tolist(self) -> list:
        """Every item, oldest first (a cached list: read it, do not change it)."""
        flat = self._flat
        if flat is None:
            parts = []
            c = self._chunks
            while c is not None:
                parts.append(c[0])
                c = c[1]
            flat = []
            for p in reversed(parts):
                flat.extend(p)
            flat.extend(self._tail)
            self._flat = flat
        return flat

    def __len__(self) -> int:
        return self._n

    def __iter__(self):
        return iter(self.tolist())

    def __getitem__(self, i):
        if type(i) is slice and i.step is None and i.stop is None and i.start is not None \
                and i.start >= 0:
            return self.since(i.start)  # the newest items: no copy of the whole journal
        return self.tolist()[i]

    def since(self, start: int) -> list:
        """The items from `start` on, reading back only as far as the chunks they are in
        (what a search asks after each move: the events it made)."""
        if self._flat is not None or start <= 0:
            return self.tolist()[start:]
        tail = self._tail
        first = self._n - len(tail)  # the index of tail[0]
        if start >= first:
            return tail[start - first:]
        parts = [tail]
        c = self._chunks
        while c is not None and first > start:
            parts.append(c[0])
            first -= len(c[0])
            c = c[1]
        out = []
        for p in reversed(parts):
            out.extend(p)
        return out[start - first:]

    def __eq__(self, other) -> bool:
        if isinstance(other, Journal):
            return self._n == other._n and self.tolist() == other.tolist()
        if isinstance(other, list):
            return self.tolist() == other
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"Journal({self.tolist()!r})"
