"""Explicit chance: a state that stops at each random event instead of drawing it.

In ordinary play every random event (a shuffle, a roll, `random`) draws from the seeded
generator (machine.py). A state made with `chance="explicit"` carries a `Chance` instead:
each random event asks it for an outcome, and when no outcome has been chosen yet the run
stops with the event's outcomes and their probabilities (`ChanceStop`).

The frame stack resumes only at decisions, not in the middle of a statement, so a chance
stop is resumed by running again: each stretch of play between two decisions (a segment:
the game's start, or one player's choice and what follows it) starts from a snapshot, and
choosing an outcome runs the segment again from that snapshot with every outcome chosen
so far. The rules are deterministic, so the run retraces its steps to the next random
event. A segment holds few random events (a shuffle is one per card), so the reruns cost
little beside the search that asks for them.

A shuffled pile nobody sees is resolved lazily (state/piles.py): its order is decided
card by card as the rules read it, a card drawn from it being a random event over the
cards that may lie on top. A pile somebody sees is decided at once, from the top down.
Either way each step is a chance event over the cards that may come next, alike cards (one
label) being one outcome weighted by how many there are; where every card left is alike,
the step is no event at all.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional


class ChanceStop(Exception):
    """Raised inside a run at a random event whose outcome is not chosen yet: carries its
    outcomes, (label, probability) each. Not an error: the state stops there."""

    def __init__(self, outcomes: list):
        super().__init__("a random event waits for its outcome")
        self.outcomes = outcomes


class Chance:
    """A state's explicit chance: the segment being played (its snapshot and how it
    starts), the outcomes chosen in it so far, and the event waiting for one."""

    __slots__ = ("origin", "start", "chosen", "taken", "outcomes", "running")

    def __init__(self):
        self.origin = None  # the state's snapshot where the segment starts
        self.start = None  # None: the game's start; else (seat, option) of a choice
        self.chosen: list = []  # the labels of the outcomes chosen in the segment
        self.taken = 0  # how many of them this run has taken
        self.outcomes: Optional[list] = None  # (label, probability) while stopped
        self.running = False  # while it plays a segment: a hidden pile read decides places

    def copy(self) -> "Chance":
        out = Chance.__new__(Chance)
        out.origin, out.start = self.origin, self.start  # a snapshot is never changed
        out.chosen = self.chosen[:]
        out.taken = self.taken
        out.outcomes = self.outcomes
        out.running = False
        return out

    # ------------------------------------------------------------ inside a run
    def _next_chosen(self) -> Optional[str]:
        """The label chosen for this event, taken; None where none is chosen yet."""
        k = self.taken
        if k < len(self.chosen):
            self.taken = k + 1
            return self.chosen[k]
        return None

    def uniform(self, n: int, first: int) -> int:
        """A uniform integer in [0, n) whose outcomes read first, first + 1, ..."""
        if n <= 1:  # one outcome is no event
            return 0
        label = self._next_chosen()
        if label is None:
            raise ChanceStop([(str(first + k), 1 / n) for k in range(n)])
        return int(label) - first

    def card(self, cards: list, card_label: list) -> int:
        """Which of `cards` (in id order) comes next: an event over their labels, alike
        cards (one label) one outcome weighted by their number, its card the first of them.
        Cards all alike are no event."""
        names = list(map(card_label.__getitem__, cards))  # in C: a replay asks again and again
        if len(set(names)) == 1:
            return cards[0]
        label = self._next_chosen()
        if label is None:  # the labels in the order of their first cards, by their number
            raise ChanceStop([(label, k / len(cards)) for label, k in Counter(names).items()])
        return cards[names.index(label)]


def drawn(rng, outcomes: list) -> int:
    """An outcome's index drawn by its probability with `rng` (random.Random's interface)."""
    x = rng.random()
    for k, (_, p) in enumerate(outcomes):
        x -= p
        if x < 0:
            return k
    return len(outcomes) - 1


def begin(st, start) -> None:
    """Start a segment at the state as it is: `start` is None for the game's start (the
    game plays its setup and flow), else a player's (seat, option)."""
    ch = st.chance
    st.memo = None  # as State._apply_chosen: left over only after an interrupted run
    ch.origin = st._snapshot()
    ch.start = start
    ch.chosen = []
    play_segment(st, fresh=True)


def choose_outcome(st, label: str) -> None:
    """Resolve the waiting random event with its outcome `label` and play on."""
    ch = st.chance
    ch.chosen.append(label)
    try:
        play_segment(st)
    except BaseException:
        ch.chosen.pop()
        play_segment(st)  # back to where it stood: the rules are deterministic
        raise


def play_segment(st, fresh: bool = False) -> None:
    """Play the segment from its snapshot with the outcomes chosen so far, to the next
    decision, the end, or the next random event not resolved (a chance stop); `fresh`:
    the state is the snapshot still. The outcomes' labels go into the history after
    whatever was chosen before them."""
    ch = st.chance
    if not fresh:
        st._restore_snapshot(ch.origin)
    ch.taken = 0
    ch.outcomes = None
    ch.running = True
    try:
        if ch.start is None:
            st.game.start(st)
        else:
            st._choose(*ch.start)
            st.run()
        st._pending()  # a decision's options may read a hidden pile: decided in the run
    except ChanceStop as stop:
        ch.outcomes = stop.outcomes
        st.pending = (None, tuple((label, None, k) for k, (label, _) in
                                  enumerate(stop.outcomes)))
        st._actions = (None, None)
    except BaseException:
        st._restore_snapshot(ch.origin)
        raise
    finally:
        ch.running = False
    for label in ch.chosen:  # each chosen outcome joins the history, after the choice
        st._history.append(label)
    if ch.outcomes is None:  # the segment is over: the next one starts at the decision
        ch.origin, ch.start, ch.chosen = None, None, []
