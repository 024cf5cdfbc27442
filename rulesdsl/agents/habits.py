"""What the others' earlier small choices tell of how they choose.

With three or more players the search models another seat's small decisions (a seat
choosing between two rivals' offers, a place for a piece among the last free ones) by
the one-move look-ahead on that seat's evaluation: it takes what gives it most (the offer
that paid more). Players differ: one that chooses such things at random (or by a rule the
evaluation does not know) is not swayed by what sways the model, and a search that
expects it to be pays for nothing (a higher offer to a seat that takes either at random).

So the searcher looks back over the game as it saw it: at every decision of another seat
of 2 to `few` options where the look-ahead preferred one option strictly, did the seat
take it? Against what a seat choosing at random would have matched (one in k of k
options), `follows` tells how far the seat is the model's: 1 where it followed the
look-ahead always (or nothing was seen yet), 0 where it matched it no more than chance.
The search then lets such a seat choose at random that much of the time (ismcts.py).

Only what the searcher saw enters: the game is played again from a start it guessed (its
own view of the deal, as inference.py's replay does), and a decision counts only where
the searcher saw which option was taken.
"""

from __future__ import annotations

from rulesdsl.agents.outcome import leads_over_mean
from rulesdsl.engine.inference import start_guess
from rulesdsl.lang.errors import RulesError

# pseudo-decisions counted as followed before any is seen: two of two options each, so a
# seat is the model's until a few of its choices say otherwise
PRIOR = 2
STRICT = 1e-9  # the share of the evaluation's size by which the best must lead the next


class Habits:
    """Per other seat, its small decisions so far against the look-ahead: (followed,
    counted, matched by chance), kept up to date along one game's history."""

    __slots__ = ("seat", "few", "key", "labels", "guess", "counts", "broken")

    def __init__(self, seat: int, few: int):
        self.seat = seat
        self.few = few
        self._start_over(None)

    def _start_over(self, key: tuple | None) -> None:
        """Nothing read yet, of the game `key` names."""
        self.key = key
        self.labels: list = []
        self.guess = None
        self.counts: dict = {}
        self.broken = False

    def __getstate__(self):
        """Pickled (an agent sent to a worker process and back) without its replay, a
        State of compiled rules: the counts are read again from the history, to the same."""
        return (self.seat, self.few)

    def __setstate__(self, state) -> None:
        self.seat, self.few = state
        self._start_over(None)

    def update(self, state) -> None:
        """Read the moves of `state`'s history not read yet (from its start where it is
        another game, or not this one's continuation)."""
        key = (id(state.prog), state.seed, repr(state.scenario), state.players)
        history = state.history
        labels = self.labels
        if key != self.key or len(labels) > len(history) or \
                history[:len(labels)] != labels:
            self._start_over(key)
            labels = self.labels
        if self.broken:
            return
        try:
            if self.guess is None:
                start = start_guess(state, self.seat)
                if start is None:  # a sample made for another seat: its past is not known
                    self.broken = True
                    return
                self.guess = start.clone()
            guess = self.guess
            for label in history[len(labels):]:
                guess = self.guess = self._read(guess, label)
                labels.append(label)
        except Exception:  # the guessed world parts from the real moves: no more to learn
            self.broken = True

    def _read(self, s, label: str):
        """Apply `label` to the replay `s`, counting the decision first where it tells;
        returns the replay to go on with."""
        mover, options = s.options()
        k = len(options)
        if mover == self.seat or not 2 <= k <= self.few or \
                not any(o[0] == label for o in options):
            s.apply(label)
            return s
        leads: list = []
        for o in options:
            after = s.clone()
            try:
                after.apply_option(mover, o)
            except RulesError:
                leads.append(None)
                continue
            values = [float(v) for v in after.evaluation()]
            if not values:
                leads.append(None)
                continue
            leads.append(leads_over_mean(values)[mover] if len(values) > 1 else values[mover])
        before = len(s.events)
        s.apply(label)
        rated = sorted((v for v in leads if v is not None), reverse=True)
        if len(rated) < 2 or rated[0] - rated[1] <= STRICT * (1.0 + abs(rated[0])):
            return s  # no option stood out: the choice tells nothing
        if not all(s.seen_alike(e, self.seat) for e in s.events[before:]):
            return s  # the searcher did not see what was taken
        taken = leads[[o[0] for o in options].index(label)]
        counts = self.counts
        followed, counted, chance = counts.get(mover, (0, 0, 0.0))
        counts[mover] = (followed + (taken == rated[0]), counted + 1, chance + 1.0 / k)
        return s

    def follows(self) -> dict:
        """Seat -> how far its small choices followed the look-ahead beyond chance, in
        [0, 1), for the seats where that is short of 1 (the others are left out)."""
        found = {}
        for q, (followed, counted, chance) in self.counts.items():
            f, n, c = followed + PRIOR, counted + PRIOR, chance + PRIOR / 2
            w = (f - c) / (n - c)
            if w < 1.0:
                found[q] = max(0.0, w)
        return found
