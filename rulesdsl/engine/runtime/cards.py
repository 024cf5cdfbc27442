"""Moving cards: the rule for one card, and what moves cost.

`move_card` is the one place a card leaves its pile and lands on another: State.move_cards
calls it for a single card, and so does the generated code of `move CARD to ZONE`
(engine/ir/python.py, MoveCards); the log entry is the caller's."""

from __future__ import annotations

from bisect import insort

MASK = "\x00card\x00"  # stands for the moved cards in words a seat may not read


def told(count: int) -> str:
    """What MASK reads as for `count` cards moved: "a card", "3 cards"."""
    return "a card" if count == 1 else f"{count} cards"

try:  # True where this module is built by Cython (RULESDSL_ENGINE=native)
    import cython
    _COMPILED = cython.compiled
except ImportError:
    _COMPILED = False


def move_card(zones: list, loc: list, c: int, dest: int, unordered: bool,
              bottom: bool = False) -> int:
    """Move card `c` from its pile onto `dest`: on top, or at the bottom, or into its place
    where `dest` keeps its cards sorted (an unordered zone: card ids in order). Returns the
    zone it left."""
    src = loc[c]
    z = zones[src]
    if type(z) is list and z[-1] == c:  # the usual case: the top card
        z.pop()  # (a hidden pile, state/piles.py, takes any card out without reading it)
    else:
        z.remove(c)
    if bottom:
        zones[dest].insert(0, c)
    elif unordered:
        insort(zones[dest], c)
    else:
        zones[dest].append(c)
    loc[c] = dest
    return src


def pile_cards(z) -> list:
    """A fresh list of a zone's cards about to move. A hidden pile (state/piles.py) gives a
    copy that reads as a list and decides nothing: State.move_cards carries its undecided
    places onto another hidden pile, or decides them there as a read would."""
    return list(z) if type(z) is list else z.moving()


def moves_cost(st, cards: list) -> int:
    """What moving `cards` costs: one each, plus a thousandth of the pile each leaves (taking
    a card out of a long list shifts the rest: a loop of single moves is quadratic). The
    generated code of a move (engine/ir/python.py, MoveCards) computes the first branch
    inline: a call per move would cost measurable speed."""
    if len(cards) == 1:
        return 1 + len(st.zones[st.loc[cards[0]]]) // 1000
    if _COMPILED:  # a loop in C; in Python, maps make no Python call per card
        zones, loc = st.zones, st.loc
        piles = 0
        for c in cards:
            piles += len(zones[loc[c]])
        return len(cards) + piles // 1000
    return len(cards) + sum(map(len, map(st.zones.__getitem__,
                                         map(st.loc.__getitem__, cards)))) // 1000
