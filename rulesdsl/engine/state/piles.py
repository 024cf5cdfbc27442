"""A lazily shuffled pile: with explicit chance (state/chance.py), a pile nobody sees is
not put in order when it is shuffled. Its order is decided card by card as the rules read
it: the top card when it is drawn, the bottom one when it is slid out, the whole pile when
the rules go through it in order. Each decision is a random event over the cards that may
lie there (alike cards, one label, being one outcome weighted by their number), so a game
that draws three cards of a deck of fifty has three random events, not fifty. A card
picked at random (`random(pile)`) is one event over its cards and decides no place; the
pile moved whole onto another hidden pile with no undecided place becomes that pile's top,
its places still undecided (State.move_cards).

The pile is a list, so the generated code and the engine read it as any zone; the list
holds the cards decided at the bottom, then the undecided ones in card id order, then the
cards decided at the top. Where nothing runs the rules (a view, a save, a sample for a
search) it reads as that list and decides nothing: the undecided cards' order is unknown to
everyone, so any order tells as little."""

from __future__ import annotations

import operator
from typing import Optional, SupportsIndex

_ALL = slice(None)


class HiddenPile(list):
    """A pile whose cards below `above` from the top and above `below` from the bottom are
    not in any order yet; `chance` decides them while it runs the rules."""

    __slots__ = ("chance", "labels", "below", "above")

    @classmethod
    def shuffled(cls, cards: list, chance, labels: list) -> "HiddenPile":
        """The pile `cards`, shuffled: none of its places decided yet; `labels`, each
        card's label (alike cards are one outcome)."""
        # read as a list: a pile shuffled again decides nothing of the order it had
        return _rebuilt(sorted(list.__iter__(cards)), labels, 0, 0, chance)

    def linked(self, chance) -> "HiddenPile":
        """A copy of its own, decided by `chance` (a state's copy has a chance of its own)."""
        pile = HiddenPile(list.__getitem__(self, _ALL))  # a plain list: copied in C
        pile.chance, pile.labels, pile.below, pile.above = \
            chance, self.labels, self.below, self.above
        return pile

    def __reduce__(self):  # pickled or deep-copied with its state, its chance is the state's
        return (_rebuilt, (list(list.__iter__(self)), self.labels, self.below, self.above,
                           self.chance))

    # ------------------------------------------------------------ deciding places
    def _deciding(self) -> bool:
        chance = self.chance
        return chance is not None and chance.running and \
            len(self) - self.above - self.below > 1

    def _decide(self, low: int, high: int) -> None:
        """Decide places low..high (0 the bottom), from whichever end is nearer: every
        place from there up to them is decided on the way, as cards leave a pile."""
        if low > high or not self._deciding():
            return
        n = len(self)
        first, last = self.below, n - self.above  # the undecided places: first..last-1
        if low >= last or high < first:
            return
        if last - low <= high - first + 1:
            while self.above < n - low and self._deciding():
                self._decide_one(top=True)
        else:
            while self.below <= high and self._deciding():
                self._decide_one(top=False)
        if len(self) - self.above - self.below <= 1 or not self._undecided_differ():
            self.below = len(self) - self.above  # alike or alone: no order left to decide

    def _decide_all(self) -> None:
        self._decide(0, len(self) - 1)

    def in_order(self) -> list:
        """Its cards with every place decided, as a plain list (a pile somebody sees)."""
        self._decide_all()
        return list(list.__iter__(self))

    def _undecided_differ(self) -> bool:
        labels = self.labels
        first, last = self.below, len(self) - self.above
        return len({labels[c] for c in list.__getitem__(self, slice(first, last))}) > 1

    def _decide_one(self, top: bool) -> None:
        """Decide the top (or bottom) undecided place: a random event over the cards."""
        first, last = self.below, len(self) - self.above
        undecided = list.__getitem__(self, slice(first, last))
        card = self.chance.card(undecided, self.labels)
        undecided.remove(card)
        if top:
            list.__setitem__(self, slice(first, last), undecided + [card])
            self.above += 1
        else:
            list.__setitem__(self, slice(first, last), [card] + undecided)
            self.below += 1

    def _places(self, index) -> range:
        if isinstance(index, slice):
            return range(*index.indices(len(self)))
        k = index + len(self) if index < 0 else index
        return range(k, k + 1)

    def _decide_places(self, places: range) -> None:
        if places:
            self._decide(min(places[0], places[-1]), max(places[0], places[-1]))

    def _forget(self, places: range) -> None:
        """Places about to leave the pile: count the decided ones out."""
        n = len(self)
        self.above -= sum(1 for k in places if k >= n - self.above)
        self.below -= sum(1 for k in places if k < self.below)

    # ------------------------------------------------------------ reading it
    def __getitem__(self, index):
        if self.chance is not None and self.chance.running:
            self._decide_places(self._places(index))
        return list.__getitem__(self, index)

    def __iter__(self):
        self._decide_all()
        return list.__iter__(self)

    def __reversed__(self):
        self._decide_all()
        return list.__reversed__(self)

    def index(self, card, *args):
        k = list.index(self, card)
        if self.below <= k < len(self) - self.above:
            self._decide_all()
        return list.index(self, card, *args)

    def __eq__(self, other):
        self._decide_all()
        return list.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other):
        self._decide_all()
        return list(list.__iter__(self)) + list(other)

    def copy(self) -> "HiddenPile":
        return self.linked(self.chance)

    def moving(self) -> "HiddenPile":
        """A copy that decides nothing (no chance): the cards of a move (State.move_cards)."""
        return self.linked(None)

    def undecided(self) -> int:
        """How many of its places are not decided (none while nothing decides them)."""
        n = len(self) - self.above - self.below
        return n if n > 1 and self._undecided_differ() else 0

    def landed_on(self, under: list, chance) -> "HiddenPile":
        """This pile put whole on top of the cards `under` (a pile with no undecided
        place): its undecided places stay undecided there, decided by `chance`."""
        return _rebuilt(list(list.__iter__(under)) + list(list.__iter__(self)), self.labels,
                        len(under) + self.below, self.above, chance)

    def picked(self):
        """`random(pile)`: a card picked at random, one event over the cards (alike cards
        one outcome weighted by their number) that decides no place. A pick among the
        undecided cards may be any of them of its label: their places are all alike."""
        cards = list.__getitem__(self, _ALL)
        if not cards:
            return None
        labels = self.labels
        card = self.chance.card(cards, labels)
        first, last = (self.below, len(cards) - self.above) if self._deciding() else (0, 0)
        alike = [c for c in cards if labels[c] == labels[card]]
        undecided = [c for c in cards[first:last] if labels[c] == labels[card]]
        decided = [c for c in alike if c not in undecided]
        if not decided:
            return undecided[0]
        if len(alike) == 1:
            return card
        # alike cards whose places are told apart: which of them is one more event
        k = self.chance.uniform(len(alike), 1)
        return undecided[0] if k < len(undecided) else decided[k - len(undecided)]

    # ------------------------------------------------------------ changing it
    def append(self, card) -> None:
        list.append(self, card)
        self.above += 1  # a card put on top is where it was put

    def extend(self, cards) -> None:
        cards = list(cards)
        list.extend(self, cards)
        self.above += len(cards)

    def __iadd__(self, cards):
        self.extend(cards)
        return self

    def insert(self, index: SupportsIndex, card) -> None:
        n = len(self)
        index = operator.index(index)
        k = max(0, min(n, index + n if index < 0 else index))
        if k <= self.below:
            self.below += 1
        elif k >= n - self.above:
            self.above += 1
        else:
            self._decide_all()
            self.below = n + 1 - self.above
        list.insert(self, index, card)

    def pop(self, index: SupportsIndex = -1):
        index = operator.index(index)
        places = self._places(index)
        self._decide_places(places)
        self._forget(places)
        return list.pop(self, index)

    def remove(self, card) -> None:
        """Take out a card known by itself (not by its place): nothing is decided."""
        k = list.index(self, card)
        if k >= len(self) - self.above:
            self.above -= 1
        elif k < self.below:
            self.below -= 1
        list.remove(self, card)

    def __delitem__(self, index) -> None:
        places = self._places(index)
        self._decide_places(places)
        self._forget(places)
        list.__delitem__(self, index)

    def __setitem__(self, index, value) -> None:
        if isinstance(index, slice):
            self._decide_all()
            list.__setitem__(self, index, value)
            self.below, self.above = 0, len(self)  # every place is decided now
            return
        self._decide_places(self._places(index))
        list.__setitem__(self, index, value)

    def clear(self) -> None:
        list.clear(self)
        self.below = self.above = 0

    def sort(self, *args, **kwargs) -> None:
        list.sort(self, *args, **kwargs)
        self.below, self.above = 0, len(self)

    def reverse(self) -> None:
        self._decide_all()
        list.reverse(self)
        self.below, self.above = self.above, self.below


def _rebuilt(cards: list, labels: list, below: int, above: int,
             chance=None) -> HiddenPile:
    pile = HiddenPile(cards)
    pile.chance, pile.labels = chance, labels
    pile.below, pile.above = below, above
    return pile


def copy_zones(zones: list, chance: Optional[object]) -> list:
    """The zones copied, a hidden pile's undecided places kept and decided by `chance`."""
    return [z[:] if type(z) is list else z.linked(chance) for z in zones]
