"""Words each seat reads as it may: a `log` line, a move's `as` words or a question whose
holes read a private or hidden zone or variable (lang/secrets.py: hole_reads).

Such a hole is read only by the player the secret belongs to (`{secret[p]}`: p;
`{top(hand[p])}`: p; of an `others` zone, every seat but p); where no one player can be
told from the hole (a hidden pile, a sum over every player's secret, a definition), by
nobody. Everyone else reads a mask in its place: "a card", "some cards", or "?" for any
other value. The words are made once per
seat when the entry is made (the secret may change later) and kept in the log entry
beside the full words, which the omniscient log reads:

    ("text", full, (what P1 reads, what P2 reads, ...))
    ("move", cards, src, dst, full, masked, full by seat, masked by seat)

A text whose every hole every seat may read keeps the plain forms."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from rulesdsl.lang import ast
from rulesdsl.lang.secrets import hole_reads
from rulesdsl.engine.ir import nodes
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.expressions import Expressions


class SeatWords:
    """Lowers texts to nodes.SeatWords: `(full words, the words by seat)`, which both back
    ends run (engine/ir)."""

    def __init__(self, unit: Unit):
        self.m, self.n, self.p = unit.m, unit.n, unit.p

    def connect(self, exprs: Expressions) -> None:
        self.exprs = exprs

    def seat_text(self, text: ast.Text, in_move_words: bool = False) -> Optional[nodes.SeatWords]:
        """The text as each seat may read it; None where every seat may read all of it.
        In a move's words a hole that tells a card is masked by the move's places instead
        (moves.py), so it is left as it is here."""
        parts: list = []
        for part in text.parts:
            if isinstance(part, str):
                parts.append(part)
                continue
            t = self.m.types.get(id(part), "any")
            parts.append(nodes.Hole(self.shown(t, part), masked(t),
                                    self.readers(part, in_move_words)))
        if all(isinstance(part, str) or part.readers is None for part in parts):
            return None
        return nodes.SeatWords("seat words", tuple(parts), self.n, text.span)

    def shown(self, t: str, e) -> nodes.Shown:
        """The words of hole `e` of type `t`, as the labeller writes them (a card's label
        and an enum's names from their tables where they are fixed)."""
        names = self.p.card_label if t == "card" and self.p.pieces is None else \
            self.m.enums[t].values if t in self.m.enums else None
        return nodes.Shown("text", t, self.exprs.lowering.part(e), names, self.p.labeller)

    def readers(self, part, in_move_words: bool) -> Optional[tuple]:
        """Who may read the hole (nodes.Hole.readers): None where every seat may; else the
        seats that see every secret it reads (a private one: its owner; one of an `others`
        zone: everyone but its owner), no seat where one of them has no owner."""
        reads = hole_reads(part, self.m, in_move_words)
        if not reads:
            return None
        if any(r.owner is None for r in reads):
            return ()
        return tuple((self.exprs.lowering.part(r.owner), r.others) for r in reads)


def masked(t: str) -> str:
    """What a seat that may not read a hole of type `t` reads in its place."""
    if t == "card":  # even for none: that a secret card is none is a secret too
        return "a card"
    if t == "list of card":
        return "some cards"
    return "?"
