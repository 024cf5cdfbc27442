"""An append-only list that clones share: the history and the event log of a game.

Items live in chunks linked from the newest back, which no journal appends to again, plus a
mutable tail that only this journal writes. `append` is the tail's own `list.append` (no
Python call per item). A copy first freezes a long tail into a chunk both share, so
`copy()` costs the same at item 10 and at item 10,000 and appending never disturbs a copy.
Reading it as a whole (`tolist`, iteration, indexing) builds a plain list once and keeps
it until it grows.

The event log (`EventLog`) may hold entries whose words are written only when somebody
reads them (`Later`): a random playout never reads its log, so it never renders it. The
first read writes them out in place, in the tail or in a shared chunk alike: every
journal would write the same words, so sharing the result changes nothing any of them
reads.
"""

from __future__ import annotations

CHUNK = 64  # a copy shares a tail this long by freezing it; a shorter one it copies


class Journal:
    __slots__ = ("_chunks", "_frozen", "_tail", "append", "_flat")
    deferred = False  # may items wait to be written out (see EventLog)?

    def __init__(self, items=()):
        self._chunks = None  # [items, older chunk, written out?] or None
        self._frozen = 0  # how many items the chunks hold
        self._tail: list = list(items)
        self.append = self._tail.append
        self._flat = None  # the whole list as last read, while nothing was added

    def _freeze(self) -> None:
        tail = self._tail
        self._chunks = [tail[:], self._chunks, not self.deferred]
        self._frozen += len(tail)
        tail.clear()  # the same list: `append` stays bound to it

    def _chunk_items(self, chunk) -> list:
        if not chunk[2]:
            self._resolve(chunk[0], 0)
            chunk[2] = True
        return chunk[0]

    def copy(self) -> "Journal":
        if len(self._tail) >= CHUNK:
            self._freeze()
        j = self.__class__.__new__(self.__class__)
        j._chunks = self._chunks
        j._frozen = self._frozen
        j._tail = self._tail[:]
        j.append = j._tail.append
        j._flat = self._flat
        return j

    def extend(self, other: "Journal") -> None:
        """Append `other`'s items as they stand (words not yet written stay so)."""
        parts = [other._tail]
        c = other._chunks
        while c is not None:
            parts.append(c[0])
            c = c[1]
        for items in reversed(parts):
            self._tail.extend(items)

    @staticmethod
    def _resolve(items: list, start: int) -> None:
        """Write out deferred items in place (an event log's words; nothing in a history)."""

    def tolist(self) -> list:
        """Every item, oldest first (a cached list: read it, do not change it)."""
        flat = self._flat
        tail = self._tail
        if flat is None or len(flat) != self._frozen + len(tail):
            self._resolve(tail, 0)
            parts = []
            c = self._chunks
            while c is not None:
                parts.append(self._chunk_items(c))
                c = c[1]
            flat = []
            for p in reversed(parts):
                flat.extend(p)
            flat.extend(tail)
            self._flat = flat
        return flat

    def __len__(self) -> int:
        return self._frozen + len(self._tail)

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
        tail = self._tail
        first = self._frozen  # the index of tail[0]
        if start >= first:
            self._resolve(tail, start - first)
            return tail[start - first:]
        if self._flat is not None or start <= 0:
            return self.tolist()[start:]
        self._resolve(tail, 0)
        parts = [tail]
        c = self._chunks
        while c is not None and first > start:
            parts.append(self._chunk_items(c))
            first -= len(c[0])
            c = c[1]
        out = []
        for p in reversed(parts):
            out.extend(p)
        return out[start - first:]

    def __eq__(self, other) -> bool:
        if isinstance(other, Journal):
            return len(self) == len(other) and self.tolist() == other.tolist()
        if isinstance(other, list):
            return self.tolist() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal by contents, so not hashable

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.tolist()!r})"


class Later:
    """Marks the words of a log entry that are written when first read: the entry's last
    item is the plain tuple (Later, render, values), where `render(*values)` gives the
    entry's last items (a move's full and masked words, a logged line). The values are
    taken when the entry is made; only the text waits. The generated code makes one where
    the words can neither fail nor pass the text limit. (A plain tuple: a tuple subclass
    would cost a type call per entry, a third of a playout's logging.)"""


class EventLog(Journal):
    """The raw log: a Journal whose entries may end in words written later (`Later`)."""

    __slots__ = ()
    deferred = True

    @staticmethod
    def _resolve(items: list, start: int) -> None:
        for i in range(start, len(items)):
            e = items[i]
            if e.__class__ is tuple and e:
                w = e[-1]
                if w.__class__ is tuple and w and w[0] is Later:
                    items[i] = e[:-1] + w[1](*w[2])
