"""How a search plays on from where its tree ends: an informed policy, a horizon, a value.

Uniform random playouts to the end of a game carry little signal: a card game's hundred
random moves decide its winner more than the move being judged. So a playout here

- chooses by move-average sampling (MAST, Finnsson and Björnsson 2008): the search keeps,
  per seat and action label, the mean reward of every iteration in which that seat took
  it, anywhere in the tree or a playout; a playout takes the best-rated option, or with
  probability `epsilon` (and for options never rated yet) one at random; with three or
  more players, another seat's decision of a few options (`few`) goes by the evaluation
  one move on, the move averages breaking ties, bought with a clone and an evaluation
  per option rated;
- stops at a horizon: when the phase the rules' own flow runs below its outermost one
  (a round, a battle, a hand, a tournament, a turn: see `Horizon`) has ended since the
  search's position, or after `decisions` choices, whichever comes first;
- is valued where it stops by the game's evaluation (outcome.py): the file's `evaluate`
  where it declares one, else its score.
"""

from __future__ import annotations

from itertools import repeat
from operator import itemgetter
from typing import Optional

from rulesdsl.lang.errors import RulesError


first = itemgetter(0)  # an option's label
_HALVES = repeat(0.5)  # what an option never rated is worth, to a map


class Horizon:
    """Where playouts from one position stop: at the first end of a round (the phase the
    flow runs one level below its own: a battle, a hand, a tournament, a turn) once at
    least `at_least` decisions were taken, or after `decisions` decisions. A flow with no
    such phase has no rounds: only the count stops it. No count and `at_least` None: play to
    the end (where nothing could judge a position before it)."""

    __slots__ = ("decisions", "at_least", "anchor")

    def __init__(self, state, decisions: Optional[int], at_least: Optional[int]):
        self.decisions = decisions
        # read only where there is an anchor, which there is only with at_least given
        self.at_least = 0 if at_least is None else at_least
        frames = state.frames
        # the round's frame
        self.anchor = frames[1] if len(frames) >= 2 and at_least is not None else None

    def reached(self, state, done: int) -> bool:
        """Has the playout gone far enough, `done` decisions in?"""
        if self.decisions is not None and done >= self.decisions:
            return True
        anchor = self.anchor
        if anchor is None:
            return False
        frames = state.frames
        if len(frames) >= 2 and frames[1] is anchor:
            return False
        if done >= self.at_least:
            return True
        self.anchor = frames[1] if len(frames) >= 2 else None  # too early: the next round
        return False


class MoveAverages:
    """Mean reward per (seat, label) over a search: the playout policy's knowledge."""

    __slots__ = ("table", "means", "rng", "epsilon", "judge", "few", "searcher", "ahead",
                 "follow")

    def __init__(self, rng, epsilon: float, shared: Optional["MoveAverages"] = None,
                 judge=None, few: int = 0, searcher: Optional[int] = None,
                 follow: Optional[dict] = None):
        # (seat, label) -> [total, count]; and per seat, label -> total / count, what a
        # playout reads for each option (shared: another policy's, read with other luck)
        self.table: dict = {} if shared is None else shared.table
        self.means: dict = {} if shared is None else shared.means
        self.rng = rng
        self.epsilon = epsilon
        self.judge = judge  # with `few`: rates options by the evaluation one move on
        # with `few` > 0: a seat other than `searcher` rates every option of a decision of
        # at most `few` options by the evaluation one move on (a choice between two rivals'
        # offers, where only what each paid tells them apart)
        self.few = few
        self.searcher = searcher
        # seat -> how far its small decisions follow the look-ahead (habits.py): the rest
        # of the time it takes one at random (`strays`); seats not named always follow
        self.follow = follow
        self.ahead: Optional[tuple] = None  # what `pick`'s last look-ahead left (`look_ahead`)

    def value(self, seat: int, label: str, unknown: float = 0.5) -> float:
        return self.means.get(seat, {}).get(label, unknown)

    def learn(self, taken: list, reward: list) -> None:
        table, means = self.table, self.means
        for key in taken:
            entry = table.get(key)
            seat = key[0]
            if entry is None:
                entry = table[key] = [reward[seat], 1]
            else:
                entry[0] += reward[seat]
                entry[1] += 1
            mine = means.get(seat)
            if mine is None:
                mine = means[seat] = {}
            mine[key[1]] = entry[0] / entry[1]

    def pick(self, seat: int, options, state=None) -> int:
        """The index of the option a playout takes: the best-rated, ties and exploration
        at random. `options` are tuples whose first item is the label. Given the `state`
        (and a judge), another seat's decision of at most `few` options is rated by the
        evaluation one move on, the move averages breaking ties (and `ahead` is left
        holding the chosen option's position one move on: `look_ahead`). Given the state,
        the caller takes `ahead` over into it, or applies the option chosen to it where
        `ahead` is None: the look-ahead may have spent it (`look_ahead`'s `spend`)."""
        rng = self.rng
        n = len(options)
        if n == 1:
            return 0
        if rng.random() < self.epsilon:
            return rng.randrange(n)
        if state is not None and self.judge is not None and n <= self.few and \
                seat != self.searcher:
            if self.strays(seat, n):
                return rng.randrange(n)
            best, self.ahead = self.look_ahead(state, seat, options, None, True)
            return best
        mine = self.means.get(seat)
        get = mine.get if mine is not None else {}.get
        best, best_value, ties = 0, -1.0, 1
        # one pass, no list (the cheapest in time for a few options), the values read by maps
        for i, v in enumerate(map(get, map(first, options), _HALVES)):
            if v > best_value:
                best, best_value, ties = i, v, 1
            elif v == best_value:
                ties += 1  # reservoir sampling among equals
                if rng.randrange(ties) == 0:
                    best = i
        return best

    def strays(self, seat: int, n: int) -> bool:
        """Does `seat`, at a decision of `n` options (2 to `few`), choose at random this time
        rather than by the look-ahead? Only a seat named in `follow` (a random number drawn
        for it alone), at a decision of a seat other than the searcher."""
        follow = self.follow
        if not follow or seat == self.searcher or not 2 <= n <= self.few:
            return False
        w = follow.get(seat)
        return w is not None and self.rng.random() >= w

    def looks(self) -> bool:
        """May `pick`, given a state, look one move on (and leave `ahead`)?"""
        return self.judge is not None and bool(self.few)

    def look_ahead(self, state, seat: int, options, drawn=None, spend: bool = False) -> tuple:
        """(index, ahead): the index of the option best for `seat` by the evaluation one
        move on among those `drawn` (indices; None: all), the move averages breaking ties;
        an option that breaks the rules on this sample is passed over. `ahead`: the best's
        position one move on and the frames it was cloned with, the arguments of
        `State.take_over` (None where none is best: then the index is one at random).

        `spend`: the caller takes `ahead` over into `state` or, where there is none,
        applies the index's option to it, or drops `state`: then the last option is
        applied to `state` itself, not to a clone (`ahead` is then `state` where that one
        is best, and `state`'s own frames are put back under it where another is, for
        `take_over` to bring them up to date as it does a state never applied)."""
        rng, judge = self.rng, self.judge
        assert judge is not None
        afters = []
        indices = range(len(options)) if drawn is None else drawn
        last = len(indices) - 1 if spend and state.chance is None and \
            state.searched is None and state.exploring is None else -1
        own = None  # with the last option applied to `state`: its frames before
        state.keep_origin()  # one snapshot for the clones, not one each
        for k, i in enumerate(indices):
            if k == last:
                after = state
                copies = own = state.frames[:]
                try:
                    after.apply_option(seat, options[i])
                except RulesError:  # rewound: the same position, its frames new lists
                    _frames_back(state, own)
                    own = None
                    continue
            else:
                after = state.clone()
                copies = after.frames[:]
                try:
                    after.apply_option(seat, options[i])
                except RulesError:
                    continue
            # measured once: widens the judge's scale to them all
            afters.append((i, after, copies, judge.measure(after)))
        best, best_value, ahead = -1, (-1.0, -1.0), None
        for i, after, copies, measured in afters:  # then compares them on one scale
            v = (judge.scaled(measured)[seat], self.value(seat, options[i][0]))
            if v > best_value:
                best, best_value, ahead = i, v, (after, copies)
        if own is not None and (ahead is None or ahead[0] is not state):
            state.frames = own  # the frames a round is known by, for take_over
        return (best, ahead) if best >= 0 else (rng.randrange(len(options)), None)


def _frames_back(state, own: list) -> None:
    """`state`, rewound to where it stood before an apply that failed (its frames new
    lists alike), given back its own frame objects `own`, holding the same."""
    frames = state.frames
    if len(frames) == len(own):
        for mine, now in zip(own, frames):
            mine[:] = now
        state.frames = own


class NoOption(Exception):
    """A sample reached a decision that offers nothing: the world a seat's guess dealt
    (another seat's hand re-dealt as it sees it) is one the rules cannot go on from. The
    search drops such a sample and counts it, as one whose play breaks the rules."""


def options_of(state) -> tuple:
    """(seat, options) of `state`'s decision; NoOption where it offers none."""
    seat, options = state.options()
    if not options:
        raise NoOption(f"a sample reached a decision of seat {seat} with nothing to choose")
    return seat, options


def play_on(state, policy: MoveAverages, horizon: Horizon, taken: list, done: int) -> None:
    """Play `state` on with the policy until it is over or the horizon is reached; `done`
    decisions were already taken since the search's position. Appends (seat, label) of
    every choice to `taken`."""
    reached, pick, apply, took = horizon.reached, policy.pick, state.apply_option, taken.append
    looks = policy.looks()
    policy.ahead = None
    while not state.is_over and not reached(state, done):
        pending = state.pending  # what `options_of` reads, without its two calls
        seat, options = pending if pending is not None and pending[1] else options_of(state)
        chosen = options[pick(seat, options, state)]
        took((seat, chosen[0]))
        if looks and policy.ahead is not None:  # the look-ahead applied it already
            ahead, policy.ahead = policy.ahead, None
            state.take_over(*ahead)
        else:
            apply(seat, chosen)
        done += 1
