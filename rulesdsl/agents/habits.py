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

Decisions of more options (a card from a hand of ten, a place among five) are counted
apart (`wide`, up to WIDE options), per seat and per question of the rules asked
(`decision_site`): a seat that plays its cards at random (a player whose look-ahead reads
only the score, which most plays do not move) is modelled so at that question, rather
than as a searcher of its own, while the same seat's answers to another question stay
the model's. With five or six players most of the others' decisions are such, and a
searcher that expects careful rivals to hold their cards, where they throw them away
early, spent its own hand to meet them (benchmarks/results-arena.md, sixteenth session).

Only what the searcher saw enters: the game is played again from a start it guessed (its
own view of the deal, as inference.py's replay does), and a decision counts only where
the searcher saw which option was taken.
"""

from __future__ import annotations

from rulesdsl.agents.outcome import leads_over_mean
from rulesdsl.engine.inference import start_guess
from rulesdsl.engine.pieces import card_text
from rulesdsl.lang.errors import RulesError

# pseudo-decisions counted as followed before any is seen: two of two options each, so a
# seat is the model's until a few of its choices say otherwise
PRIOR = 2
STRICT = 1e-9  # the share of the evaluation's size by which the best must lead the next
WIDE = 16      # the most options of a decision counted among the wide ones (each is tried)


class Habits:
    """Per other seat, its small decisions so far against the look-ahead: (followed,
    counted, matched by chance), kept up to date along one game's history."""

    __slots__ = ("seat", "few", "key", "labels", "guess", "counts", "wide", "broken",
                 "widely")

    def __init__(self, seat: int, few: int, widely: bool = False):
        self.seat = seat
        self.few = few
        self.widely = widely  # count the decisions of more than `few` options too (`wide`)
        self._start_over(None)

    def _start_over(self, key: tuple | None) -> None:
        """Nothing read yet, of the game `key` names."""
        self.key = key
        self.labels: list = []
        self.guess = None
        self.counts: dict = {}
        # the same for decisions of few+1 to WIDE options, per seat and question asked
        # (`site`): a seat that places pieces at random may still answer another question
        # by its look-ahead
        self.wide: dict = {}
        self.broken = False

    def __getstate__(self):
        """Pickled (an agent sent to a worker process and back) without its replay, a
        State of compiled rules: the counts are read again from the history, to the same."""
        return (self.seat, self.few, self.widely)

    def __setstate__(self, state) -> None:
        self.seat, self.few, self.widely = state
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
        if self.widely and mover is not None and options and \
                not any(o[0] == label for o in options):
            return _agree(s, mover, options, label, self.seat)
        k = len(options)
        most = WIDE if self.widely else self.few
        if mover == self.seat or not 2 <= k <= most or \
                not any(o[0] == label for o in options):
            s.apply(label)
            return s
        site = decision_site(s)
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
        counts, key = (self.counts, mover) if k <= self.few else (self.wide, (mover, site))
        followed, counted, chance = counts.get(key, (0, 0, 0.0))
        counts[key] = (followed + (taken == rated[0]), counted + 1, chance + 1.0 / k)
        return s

    def follows(self, wide: bool = False) -> dict:
        """Seat -> how far its small choices followed the look-ahead beyond chance, in
        [0, 1), for the seats where that is short of 1 (the others are left out); `wide`:
        the same of its choices of more options, per (seat, `decision_site`)."""
        found = {}
        for q, (followed, counted, chance) in (self.wide if wide else self.counts).items():
            f, n, c = followed + PRIOR, counted + PRIOR, chance + PRIOR / 2
            w = (f - c) / (n - c)
            if w < 1.0:
                found[q] = max(0.0, w)
        return found


def decision_site(state) -> tuple:
    """Where in the rules `state`'s decision is asked (the procedure and the step of its
    question): the same question at every turn, whatever it names."""
    frame = state.frames[-1]
    return (frame[0], frame[1])


def _agree(s, mover: int, options: list, label: str, seat: int):
    """The replay `s` on past a move `label` of `mover` (another seat, or `seat` itself
    after a deal the guess made otherwise) that its guessed world does not offer
    (`options`): where `seat` reads the first two options' moves alike (a card
    kept face down), the second, as `seat` cannot tell which was taken (the real label is
    not read: what `seat` did not see stays out); else the card played exchanged into the
    mover's hand first (`_fit`). Not counted. A RulesError where neither agrees."""
    if len(options) > 1:
        seen = []
        for option in options[:2]:
            trial = s.clone()
            before = len(trial.events)
            trial.apply_option(mover, option)
            seen.append([trial.render_log(e, seat) for e in trial.events[before:]])
        if seen[0] == seen[1]:
            return trial
    before = len(s.events)
    if not _fit(s, mover, label, seat):
        raise RulesError("C002", "the guessed world parts from the real moves")
    s.apply(label)
    if not all(s.seen_alike(e, seat) for e in s.events[before:]):
        raise RulesError("C002", "a move the guessed world cannot follow unseen")
    return s


def _fit(s, mover: int, label: str, seat: int) -> bool:
    """Where the guessed world `s` does not offer `mover` the option `label` that was
    taken (a card played that the guess dealt elsewhere), exchange that card, from where
    the guess hid it from `seat`, with one of the mover's own cards `seat` cannot see (or,
    `seat`'s own move, one of its own hidden cards, which the guess dealt otherwise):
    the guess made to agree with what was seen, nothing `seat` sees moved. False where no
    exchange has it offered (`s` then as it was). The move is taken as it was not counted
    (the mover's options were not the guess's)."""
    zones, loc = s.zones, s.loc
    unordered = s.prog.zone_unordered
    hidden = [zi for zi in range(len(zones)) if zones[zi] and not s.can_see(zi, seat)]
    if mover != seat:
        own = [zi for zi in hidden if s.can_see(zi, mover)]
    else:  # the seat's own hand, dealt otherwise in the guess after a shuffle
        own = [zi for zi in range(len(zones)) if zones[zi] and s.can_see(zi, seat) and
               not all(s.can_see(zi, q) for q in range(s.players))]
    wanted = [c for zi in hidden for c in zones[zi] if card_text(s, c) == label]

    def exchange(c: int, d: int) -> None:
        zc, zd = loc[c], loc[d]
        lc, ld = zones[zc], zones[zd]
        lc[lc.index(c)], ld[ld.index(d)] = d, c
        loc[c], loc[d] = zd, zc
        for zi in (zc, zd):
            if unordered[zi]:
                zones[zi].sort()
        s.pending = None
        s.searched = None

    tried: set = set()
    for c in wanted:
        for zo in own:
            if zo == loc[c]:
                continue
            for d in list(zones[zo]):
                if (loc[c], card_text(s, d)) in tried:
                    continue
                tried.add((loc[c], card_text(s, d)))
                exchange(c, d)
                if any(o[0] == label for o in s.options()[1]):
                    return True
                exchange(c, d)
    return False
