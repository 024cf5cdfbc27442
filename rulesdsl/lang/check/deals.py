"""Deals in setup that the pile cannot fit (E611), found by `check` instead of at run time.

Setup usually begins by shuffling the decks and dealing from them. While it does only that,
the cards in each pile are known from the decks: `deal 11 from stock to hand` with
`players 2..5` needs 55 cards at five players. Only such a beginning is read: the first
statement that is neither a shuffle nor a deal of a written number of cards from a pile
ends it (what comes after may move cards anywhere).
"""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang import ast
from rulesdsl.lang.limits import values_made


def deal_errors(checker) -> None:
    m = checker.m
    if m.setup is None or m.setup.body is None:
        return
    left: dict = {}  # pile -> cards still in it, at the most players
    for s in m.setup.body.stmts:
        if isinstance(s, ast.Shuffle):
            continue
        if not isinstance(s, ast.Deal) or type(s.count) is not ast.Int or \
                type(s.source) is not ast.Name or s.source.name not in m.zones or \
                m.zones[s.source.name].dims:
            return
        pile = s.source.name
        held = left[pile] if pile in left else cards_in(m, pile)
        if held is None:
            return
        needed = s.count.value * m.max_players
        if needed > held:
            fits = held // s.count.value if s.count.value else m.max_players
            checker.err("E611", f"deal {s.count.value} to each of {m.max_players} players "
                        f"needs {needed} cards, and {pile} holds {held} then", s.span,
                        [f"it fits {fits} players or fewer: deal fewer cards, or say "
                         f"players {m.min_players}..{max(fits, m.min_players)}"]
                        if fits >= m.min_players else ["deal fewer cards"])
            return
        left[pile] = held - needed


def cards_in(m, zone: str) -> Optional[int]:
    """The cards the decks start in `zone` with the most players; None where the file
    does not say how many (an argument whose size is not written)."""
    total = 0
    for deck in m.decks:
        if deck.zone != zone:
            continue
        copies = max(1, m.max_players) if deck.per_player else 1
        for entry in deck.entries:
            made, known = values_made(m, entry.args, deck.per_player)
            if not known:
                return None
            total += copies * entry.count * made
    return total


