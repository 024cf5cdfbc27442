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

A shuffle is resolved from the top down, card by card (the pile's Fisher-Yates order):
each step is a chance event over the cards that may come next, alike cards (one label)
being one outcome weighted by how many there are. Where every card left is alike, the
step is no event at all.
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

    __slots__ = ("origin", "start", "chosen", "taken", "outcomes")

    def __init__(self):
        self.origin = None  # the state's snapshot where the segment starts
        self.start = None  # None: the game's start; else (seat, option) of a choice
        self.chosen: list = []  # the outcomes chosen in the segment, as indices
        self.taken: list = []  # the labels of those this run has taken, in order
        self.outcomes: Optional[list] = None  # (label, probability) while stopped

    def copy(self) -> "Chance":
        out = Chance.__new__(Chance)
        out.origin, out.start = self.origin, self.start  # a snapshot is never changed
        out.chosen = self.chosen[:]
        out.taken = self.taken[:]
        out.outcomes = self.outcomes
        return out

    # ------------------------------------------------------------ inside a run
    def draw(self, labels: list, weights: list) -> int:
        """The index of this event's outcome: the one chosen for it, or a stop. An event
        with one outcome is none."""
        if len(labels) <= 1:
            return 0
        taken = self.taken
        if len(taken) < len(self.chosen):
            k = self.chosen[len(taken)]
            taken.append(labels[k])
            return k
        total = sum(weights)
        raise ChanceStop([(label, w / total) for label, w in zip(labels, weights)])

    def uniform(self, n: int, first: int) -> int:
        """A uniform integer in [0, n) whose outcomes read first, first + 1, ..."""
        return self.draw([str(first + k) for k in range(n)], [1] * n)

    def shuffle(self, z: list, card_label: list) -> None:
        """Shuffle pile z in place, the top card first: each step picks, among the cards
        not placed yet, which comes next, alike cards being one outcome."""
        for i in range(len(z) - 1, 0, -1):
            rest = z[:i + 1]
            counts = Counter(card_label[c] for c in rest)
            firsts = sorted({card_label[c]: c for c in reversed(rest)}.items(),
                            key=lambda item: item[1])  # each label's first card, deck order
            k = self.draw([label for label, _ in firsts],
                          [counts[label] for label, _ in firsts])
            j = z.index(firsts[k][1])
            z[i], z[j] = z[j], z[i]


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
    ch.origin = st._snapshot()
    ch.start = start
    ch.chosen = []
    play_segment(st)


def choose_outcome(st, index: int) -> None:
    """Resolve the waiting random event with its outcome `index` and play on."""
    ch = st.chance
    ch.chosen.append(index)
    try:
        play_segment(st)
    except BaseException:
        ch.chosen.pop()
        play_segment(st)  # back to where it stood: the rules are deterministic
        raise


def play_segment(st) -> None:
    """Play the segment from its snapshot with the outcomes chosen so far, to the next
    decision, the end, or the next random event not resolved (a chance stop). The
    outcomes' labels go into the history after whatever was chosen before them."""
    ch = st.chance
    st._restore_snapshot(ch.origin)
    ch.taken = []
    ch.outcomes = None
    try:
        if ch.start is None:
            st.game.start(st)
        else:
            st._choose(*ch.start)
            st.run()
    except ChanceStop as stop:
        ch.outcomes = stop.outcomes
        st.pending = (None, tuple((label, None, k) for k, (label, _) in
                                  enumerate(stop.outcomes)))
        st._actions = None
    except BaseException:
        st._restore_snapshot(ch.origin)
        raise
    for label in ch.taken:  # the run took the outcomes as indices; the history names them
        st._history.append(label)
    if ch.outcomes is None:  # the segment is over: the next one starts at the decision
        ch.origin, ch.start, ch.chosen = None, None, []
