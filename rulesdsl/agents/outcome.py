"""How good an outcome is for each seat: win shares at the end, the evaluation before it.

Games declare a score but not whether more is better, nor whether the players win or
lose together; `traits` learns these once per game and player count from a few random
games from new deals only, so it never depends on a game in progress:
- the score's direction: do the winners hold the higher or the lower scores?
- cooperation: every finished game ended with all players winning or none, and some
  with all (a cooperative game, where everyone plays for the shared result); a file that
  says so (`players 2..5 cooperative`) is cooperative without looking;
- whether the evaluation (the file's `evaluate`, else its score) tells the seats apart
  before the end: one that is the same for everyone almost everywhere mid-game (a connection
  score of "linked or not") cannot judge a cut playout, so the search plays to the end.
  In a cooperative game every seat shares one value, so there it is whether that value
  moves away from where the game began (fireworks grow, fuses burn).

A file's `evaluate` is read as "higher is better" always; only a score's direction is
learned.
"""

from __future__ import annotations

import random
from operator import itemgetter
from typing import NamedTuple


class Traits(NamedTuple):
    sign: int           # +1: a higher score is better; -1: lower
    cooperative: bool   # all players win or lose together
    informative: bool   # the evaluation tells the seats apart mid-game

LOST_TOGETHER = 0.9  # a cooperative game lost at its best score is still worse than won
INFORMATIVE = 0.2  # the share of mid-game positions whose evaluation differs between seats


_TRAITS: dict = {}


def traits(state, games: int = 16, max_actions: int = 3000) -> Traits:
    """The game's traits at this player count and options (learned once, then kept)."""
    game, n = state.game, state.players
    key = (getattr(game, "source_hash", id(game)), repr(getattr(game, "options", None)), n)
    found = _TRAITS.get(key)
    if found is not None:
        return found
    rnd = random.Random(12345)
    lead = 0.0
    all_won = some_won = 0
    looked = apart = moved = 0
    for _ in range(games):
        try:
            st = game.new_game(players=n, seed=rnd.randrange(1 << 30))
            start = sum(st.evaluation())
            for step in range(max_actions):
                if st.is_over:
                    break
                if step % 7 == 3:
                    values = st.evaluation()
                    looked += 1
                    apart += len(set(values)) > 1
                    moved += sum(values) != start
                st.apply(rnd.choice(st.legal_actions()))
            if not st.is_over:
                continue
            scores, winners = st.scores, set(st.winners)
        except Exception:  # a game that cannot be dealt afresh: no evidence
            continue
        if len(winners) == n:
            all_won += 1
        elif winners:
            some_won += 1
        if not scores or not winners or len(winners) == n:
            continue
        won = [s for p, s in enumerate(scores) if p in winners]
        lost = [s for p, s in enumerate(scores) if p not in winners]
        lead += sum(won) / len(won) - sum(lost) / len(lost)
    declared = bool(getattr(game, "cooperative", False))
    cooperative = declared or n > 1 and all_won > 0 and not some_won
    # a team's evaluation is the same for every seat: it informs where it changes
    telling = moved if cooperative else apart
    found = _TRAITS[key] = Traits(-1 if lead < 0 else 1, cooperative,
                                  looked > 0 and telling >= INFORMATIVE * looked)
    return found


def score_sign(state) -> int:
    """+1 when a higher score is better in this game, -1 when lower is; +1 when unclear."""
    return traits(state).sign


def rewards(state, sign: int) -> list:
    """Per seat, in [0, 1]: the share of the win once over; else the score, scaled so the
    best seat gets 1 and the worst 0 (all equal, or no score: 1/n each)."""
    n = state.players
    if state.is_over:
        return _final(state, False)
    scores = state.scores
    if not scores:
        return [1.0 / n] * n
    vals = [sign * float(s) for s in scores]
    lo, hi = min(vals), max(vals)
    if hi == lo:
        return [1.0 / n] * n
    return [(v - lo) / (hi - lo) for v in vals]


def leads_over_mean(values: list) -> list:
    """Each seat's value less the others' mean (two seats or more): how far ahead it is."""
    n, total = len(values), sum(values)
    return [v - (total - v) / (n - 1) for v in values]


def _final(state, cooperative: bool) -> list:
    n = state.players
    w = state.winners
    if cooperative:
        return [1.0 if w else 0.0] * n
    if not w:
        return [1.0 / n] * n
    share = 1.0 / len(w)
    return [share if p in w else 0.0 for p in range(n)]


KNOWN_MAX = 4096  # positions whose evaluation a search keeps
_LISTS = frozenset((list,))


def _items(indices: tuple):
    """A function reading the items at `indices` of a list, as a tuple."""
    if len(indices) == 1:
        k = indices[0]
        return lambda seq: (seq[k],)
    return itemgetter(*indices) if indices else lambda seq: ()


# with three or more players, the share of the searcher's lead taken over the best other
# seat rather than over the others' mean (`Judge`)
RIVAL = 0.5


class Judge:
    """Rewards in [0, 1] for one search: win shares (or the shared result) at the end;
    before it, the evaluation relative to the others, scaled by the widest lead seen so far
    in this search so that margins count (a lead of 10 is worth more than a lead of 1).

    With three or more players the searcher's own lead (`me`, the seat to move where the
    search starts) is taken over a blend of the others' mean and the best other seat
    (`rival`: the best's share; 0: the mean alone): only the best wins, and a lead over
    the mean alone is the same whichever rival gains, so the searcher handed its best
    places to whoever came and made that rival the one to beat. The others' leads stay
    over the mean: as models of the other players they are as before (a host takes the
    higher payer rather than playing kingmaker as the searcher would)."""

    __slots__ = ("traits", "declared", "informed", "scale", "low", "high", "reads", "known",
                 "me", "rival")

    def __init__(self, state, rival: float = RIVAL):
        self.me = state.to_move
        self.rival = float(rival)
        self.traits = traits(state)
        self.declared = state.prog.evaluate is not None
        # what the evaluation reads of a state (variables, zones), where that is all it
        # reads: per position so read, the evaluation worked out once in this search
        reads = getattr(state.prog, "evaluate_reads", None) if self.declared else None
        self.reads = None if reads is None else (_items(reads[0]), _items(reads[1]))
        self.known: dict = {}
        # nothing judges a position before the end where the evaluation is the same for
        # every seat almost everywhere (or there is neither an evaluation nor a score)
        self.informed = self.traits.informative
        self.scale = 1.0           # the widest |own - others' mean| seen
        # cooperative: the range of the shared value seen
        self.low: float | None = None
        self.high: float | None = None

    def rewards(self, state) -> list:
        return self.scaled(self.measure(state))

    def measure(self, state) -> tuple:
        """What `rewards` reads of `state`, the judge's scale widened to it: (n, the
        rewards as they are) at the end or where nothing tells the seats apart; (n, None,
        the shared value, lost?) in a cooperative game; else (n, None, each seat's lead
        over the others' mean) for `scaled` to put on the scale as it stands then. Worked
        out once per position as far as the evaluation reads it (`_key`): the same tuple
        for the same position (read it, do not change it)."""
        n = state.players
        if state.is_over:
            if self.traits.cooperative and not state.winners:
                # a team that lost still played for its shared score: more is better
                v = self._team_value(state)
                self._shared(v)
                return (n, None, v, True)
            return (n, _final(state, self.traits.cooperative))
        if self.traits.cooperative:
            values = self._evaluation(state)
            if not values:
                return (n, [1.0 / n] * n)
            sign = 1 if self.declared else self.traits.sign
            v = sum([sign * float(x) for x in values]) / n
            self._shared(v)
            return (n, None, v, False)
        key = self._key(state)
        if key is not None:
            try:
                found = self.known.get(key)
            except TypeError:  # a variable holding a list
                key = found = None
            if found is not None:
                measured, widest = found
                if widest > self.scale:
                    self.scale = widest
                return measured
        measured, widest = self._leads(state.evaluation(), n)
        if widest > self.scale:
            self.scale = widest
        if key is not None:
            if len(self.known) >= KNOWN_MAX:
                self.known.clear()
            self.known[key] = (measured, widest)
        return measured

    def _leads(self, values: list, n: int) -> tuple:
        """(what `measure` returns, the widest lead in it: 0 where it holds none) for an
        evaluation `values`, not cooperative."""
        if not values:
            return (n, [1.0 / n] * n), 0.0
        if n == 1:
            return (1, [0.5]), 0.0
        # sign * float(v) with a sign of 1 or -1, and leads_over_mean, worked out alike
        vals = list(map(float, values))
        if not self.declared and self.traits.sign != 1:
            vals = [-x for x in vals]
        total = sum(vals)
        d = len(vals) - 1
        leads = [v - (total - v) / d for v in vals]
        me, rival = self.me, self.rival
        if n > 2 and rival and me is not None:
            v = vals[me]
            best = max(vals[:me] + vals[me + 1:])
            leads[me] = v - (1.0 - rival) * (total - v) / (n - 1) - rival * best
        return (n, None, leads), max(map(abs, leads))

    def scaled(self, measured: tuple) -> list:
        """Rewards per seat of a state `measure`d, on the scale as it stands now."""
        if measured[1] is not None:
            return measured[1]
        if len(measured) == 4:
            n, _, v, lost = measured
            shared = self._shared(v)
            return [LOST_TOGETHER * shared if lost else shared] * n
        half = 0.5 / self.scale
        return [0.5 + x * half for x in measured[2]]

    def _key(self, state):
        """What the evaluation reads of `state` (its variables and zones), as a key; None
        where it may read more, or where that cannot be a key (a pile whose order chance
        decides as it is read; a variable holding a list makes one that cannot be hashed)."""
        reads = self.reads
        if reads is None:
            return None
        zones = reads[1](state.zones)
        if not set(map(type, zones)) <= _LISTS:
            return None  # a pile whose order chance decides as it is read
        return (reads[0](state.vars), tuple(map(tuple, zones)))

    def _evaluation(self, state) -> list:
        """state.evaluation(), kept per position as far as the evaluation reads it (the
        same list for the same position: read it, do not change it)."""
        key = self._key(state)
        if key is None:
            return state.evaluation()
        try:
            values = self.known.get(key)
        except TypeError:  # a variable holding a list
            return state.evaluation()
        if values is None:
            values = state.evaluation()
            if len(self.known) >= KNOWN_MAX:
                self.known.clear()
            self.known[key] = values
        return values

    def rewards_all(self, states: list) -> list:
        """`rewards` of each state, all on one scale: the widest lead among them widens the
        scale before any is judged (judged one by one, an earlier state's rewards would be
        on a narrower scale than a later one's)."""
        measured = [self.measure(state) for state in states]
        return [self.scaled(m) for m in measured]

    def _team_value(self, state) -> float:
        """The shared result of a cooperative game: the mean of the evaluation (or score)."""
        values = state.evaluation()
        if not values:
            return 0.0
        sign = 1 if self.declared else self.traits.sign
        return sign * sum(float(v) for v in values) / len(values)

    def _shared(self, v: float) -> float:
        if self.low is None or v < self.low:
            self.low = v
        if self.high is None or v > self.high:
            self.high = v
        span = self.high - self.low
        return 0.5 if span == 0 else (v - self.low) / span
