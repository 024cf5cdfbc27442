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

from typing import TYPE_CHECKING, Callable, Optional

from rulesdsl.lang import ast
from rulesdsl.lang.secrets import hole_reads
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.expressions import Expressions


class SeatWords:
    """Compiles texts into closures `(st, L) -> (full words, the words by seat)`."""

    def __init__(self, unit: Unit):
        self.m, self.n, self.p, self.b = unit.m, unit.n, unit.p, unit.b

    def connect(self, exprs: Expressions) -> None:
        self.exprs = exprs

    def seat_text(self, text: ast.Text, in_move_words: bool = False) -> Optional[Callable]:
        """The text as each seat may read it; None where every seat may read all of it.
        In a move's words a hole that tells a card is masked by the move's places instead
        (moves.py), so it is left as it is here."""
        parts: list[tuple] = []  # (type, text or closure, readers) per part
        for part in text.parts:
            if isinstance(part, str):
                parts.append((None, part, None))
                continue
            parts.append((self.m.types.get(id(part), "any"), self.exprs.expr(part),
                          self.readers(part, in_move_words)))
        if all(readers is None for _, _, readers in parts):
            return None
        return self.render_by_seat(parts, text.span)

    def seat_text_always(self, text: ast.Text, in_move_words: bool = False) -> Callable:
        """seat_text, also where every seat reads the same (each then reads it all)."""
        by_seat = self.seat_text(text, in_move_words)
        if by_seat is not None:
            return by_seat
        full, n = self.exprs.text(text), self.n
        return lambda st, L: (lambda words: (words, (words,) * n))(full(st, L))

    def render_by_seat(self, parts: list, span) -> Callable:
        """Each hole's value is taken once: the same for every seat and the full words."""
        label, n, b = self.p.labeller, self.n, self.b
        everyone = range(n)

        def render(st, L):
            full: list[str] = []
            by_seat: list[list[str]] = [[] for _ in everyone]
            for t, x, readers in parts:
                if t is None:
                    shown = hidden = x
                    who = everyone
                else:
                    value = x(st, L)
                    shown, hidden = label(t, value, st), masked(t, value)
                    who = everyone if readers is None else readers(st, L)
                full.append(shown)
                for seat, words in enumerate(by_seat):
                    words.append(shown if seat in who else hidden)
            text = "".join(full)
            if len(text) > b.text_length:
                text = b.check_text(text, span)
            return text, tuple("".join(words) for words in by_seat)
        return render

    def readers(self, part, in_move_words: bool) -> Optional[Callable]:
        """A closure `(st, L) -> the seats that may read the hole`, or None where every
        seat may: the seats that see every secret it reads (a private one: its owner; one
        of an `others` zone: everyone but its owner), else nobody."""
        reads = hole_reads(part, self.m, in_move_words)
        if not reads:
            return None
        if any(r.owner is None for r in reads):
            return lambda st, L: ()
        owners = [(self.exprs.expr(r.owner), r.others) for r in reads]
        everyone = frozenset(range(self.n))

        def readers(st, L):
            seats = everyone
            for owner, others in owners:
                seat = owner(st, L)
                seats = seats - {seat} if others else seats & {seat}
            return seats
        return readers


def masked(t: str, value) -> str:
    """What a seat that may not read a hole reads in its place."""
    if t == "card":  # even for none: that a secret card is none is a secret too
        return "a card"
    if t == "list of card":
        return "some cards"
    return "?"
