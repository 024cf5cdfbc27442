"""The running game: a State of plain data, the loop that runs the rules to the next
decision, the random numbers, and what each seat may see.

State holds zones (lists of card ids), where each card is, variables, the RNG, the frame
stack (the position in the rules), the pending decision, the history and the log. Nothing
in it is a Python object that JSON cannot hold, so `to_json` / `restore` round-trip at any
decision and `clone` is a handful of list copies."""

from __future__ import annotations

from operator import attrgetter, itemgetter
from typing import Optional

from rulesdsl.engine.compile.program import Program
from rulesdsl.engine.runtime.seats import seat_label
from rulesdsl.engine.journal import EventLog, Journal
from rulesdsl.engine.payoffs import checked_zero_sum, win_payoffs
from rulesdsl.lang.errors import IllegalAction
from rulesdsl.engine.runtime.truths import keep_truths
from rulesdsl.engine.state.machine import _NATIVE, Machine
from rulesdsl.engine.sequences import adopt, narrow, shared
from rulesdsl.engine.state.views import Views
from rulesdsl.engine.state.saving import Saving
from rulesdsl.engine.state.chance import (Chance, begin as begin_segment, choose_outcome,
                                          drawn as _drawn)
# what saves, scenarios and determinization read from here
from rulesdsl.engine.state.data import (
    FORMAT, FORMAT_VERSION, REPLAY_SPAN, Action, _ACTIONS, copy_frames,
    _key_value, _split_name, _version, source_hash)
from rulesdsl.engine.runtime.seats import owner_of as _owner_of

_label_of = itemgetter(0)  # an option (label, alternative, value) -> its label
_action_of = _ACTIONS.__getitem__  # a label -> its one Action (data._Actions)


class State(Machine, Views, Saving):
    """One game in progress. Mutate it only through `apply`."""

    __slots__ = ("game", "prog", "zones", "loc", "vars", "rng", "frames", "over", "winners",
                 "_history", "_events", "cancelled", "effect_depth", "pending", "seed",
                 "_actions", "_origin", "_origin_due", "memo", "scenario", "inferred",
                 "exploring", "chance", "searched")

    def __init__(self, game, prog: Program):
        self.game = game
        self.prog = prog
        self.zones: list = []
        self.loc: list = []
        self.vars: list = []
        self.rng = 0
        self.frames: list = []
        self.over = False
        self.winners: list = []
        self._history = Journal()  # labels chosen; shared with clones (see journal.py)
        self._events = EventLog()  # raw log entries; `log` renders them
        self.cancelled = False
        self.effect_depth = 0
        self.pending = None  # (seat, options) while waiting for a decision
        self.seed = 0
        # (the pending it was made for, its options' Action objects), made on first request;
        # (None, None) before (never None: one test less per action)
        self._actions = (None, None)  # type: tuple
        self._origin = None  # a snapshot to replay from after an interrupted apply
        # the length of the history at which an apply takes the next snapshot: that
        # snapshot's length + REPLAY_SPAN, 0 while there is none (one comparison per apply)
        self._origin_due = 0
        self.memo = None  # while a decision's options are computed: pure calls' results
        self.scenario = None  # type: dict | None  # the scenario it started from (saved)
        self.inferred = None  # a sample's (seat, moves, exclusions, requirements, amounts, start)
        # in a sequence's trial: (its frame, its Region, options up to the first?), sequences.py
        self.exploring = None
        # at a decision inside a sequence: (its pending, the options tried, from where)
        self.searched = None  # type: tuple | None
        # explicit chance (state/chance.py); None: the seeded generator draws
        self.chance = None  # type: Chance | None

    # ------------------------------------------------------------------ history and log
    @property
    def history(self) -> list:
        """The labels applied so far, oldest first (read it; do not change it)."""
        return self._history.tolist()

    @history.setter
    def history(self, items) -> None:
        self._history = Journal(items)

    @property
    def events(self) -> EventLog:
        """Raw log entries (append-only); `log` renders them."""
        return self._events

    @events.setter
    def events(self, items) -> None:
        self._events = EventLog(items)

    # ------------------------------------------------------------------ public API
    @property
    def is_over(self) -> bool:
        """Has the game ended? (a playout reads it after every action)"""
        return self.over

    @property
    def to_move(self) -> Optional[int]:
        if self.over:
            return None
        return self._pending()[0]

    @property
    def players(self) -> int:
        return self.prog.nplayers

    @property
    def is_chance(self) -> bool:
        """Does a random event wait for its outcome (only with explicit chance)?"""
        return self.chance is not None and self.chance.outcomes is not None

    def chance_outcomes(self) -> list:
        """The waiting random event's outcomes, (label, probability) each; [] at a
        decision. `apply(label)` resolves it (alike cards are one outcome)."""
        chance = self.chance
        return [] if chance is None or chance.outcomes is None else list(chance.outcomes)

    def legal_actions(self) -> list:
        pending = self.pending
        if pending is None:  # (nothing is pending in a game that is over)
            if self.over:
                return []
            pending = self._pending()
        cached = self._actions
        if cached[0] is not pending:
            # each option's Action: a loop in C where built, else maps (no Python frame)
            cached = self._actions = (pending, [_ACTIONS[o[0]] for o in pending[1]] if _NATIVE
                                      else list(map(_action_of, map(_label_of, pending[1]))))
        return cached[1][:]

    def apply(self, action) -> None:
        """Apply an Action or a label. Illegal -> IllegalAction, and the state is unchanged."""
        pending = self.pending
        if pending is None:  # (nothing is pending in a game that is over)
            if self.over:
                raise IllegalAction("the game is over; no more actions", ["start a new game"])
            pending = self._pending()
        if type(action) is not Action:
            label = action.label if isinstance(action, Action) else action
            if not isinstance(label, str):
                raise IllegalAction(f"an action is a label (text), not {type(label).__name__}")
            action = Action(label)
        seat, opts = pending
        cached = self._actions
        if cached[0] is not pending:
            cached = self._actions = (pending, [_ACTIONS[o[0]] for o in opts] if _NATIVE
                                      else list(map(_action_of, map(_label_of, opts))))
        try:
            chosen = opts[cached[1].index(action)]  # labels are unique within a decision
        except ValueError:
            shown = ", ".join(o[0] for o in opts[:12]) + (", ..." if len(opts) > 12 else "")
            who = "the random event's outcome" if seat is None else \
                f"a legal action for {seat_label(seat)}"
            raise IllegalAction(f"'{action[0][:80]}' is not {who} now",
                                [f"legal actions: {shown}"]) from None
        if self.prog.truths and self.inferred is None:  # a sample is a guess: not checked
            before = len(self._history)
            self._apply_chosen(seat, chosen)
            keep_truths(self, before)
            return
        self._apply_chosen(seat, chosen)

    def playout(self, rng, limit: Optional[int] = None) -> int:
        """Play uniformly random legal actions until the game ends or `limit` have been
        played; returns how many. The same as applying
        `legal_actions()[rng.randrange(len(legal_actions()))]` each time, without making
        the Action objects: the fast path for search agents."""
        played = 0
        while not self.over and (limit is None or played < limit):
            pending = self.pending
            seat, opts = pending if pending is not None else self._pending()
            if seat is None:  # a random event (explicit chance): drawn by its probabilities
                self._apply_chosen(seat, opts[_drawn(rng, self.chance_outcomes())])
                continue
            self._apply_chosen(seat, opts[rng.randrange(len(opts))])
            played += 1
        return played

    def options(self) -> tuple:
        """The fast path for search agents: (seat to move, the pending options), each option
        a tuple whose first item is its label. Read them; apply one with `apply_option`."""
        pending = self.pending
        return pending if pending is not None else self._pending()

    def apply_option(self, seat: int, option: tuple) -> None:
        """Apply one of `options()`'s options as it is, with no Action made or looked up."""
        self._apply_chosen(seat, option)

    def _apply_chosen(self, seat: Optional[int], chosen: tuple) -> None:
        """Apply one of the pending options (label, alternative, value); seat None: a
        random event's outcome (explicit chance)."""
        if self.chance is not None:
            if seat is None:
                choose_outcome(self, chosen[0])
            else:
                begin_segment(self, (seat, chosen))
            return
        self.memo = None  # left over only if Ctrl-C hit an options run or the test before it
        history = self._history
        before = history._frozen + len(history._tail)  # len(history), without a Python call
        if before >= self._origin_due:  # none yet, or REPLAY_SPAN actions since it
            self._origin = self._snapshot()  # bounds the replay after an error
            self._origin_due = before + REPLAY_SPAN
        try:
            if self.searched is None or not adopt(self, seat, chosen):
                self.pending = None
                history.append(chosen[0])
                self.run(seat, chosen)  # resumed at the option first (Machine.resume_at)
        except BaseException:  # a rules error, or Ctrl-C anywhere: back to before
            self._rewind(before)
            raise

    def _choose(self, seat: Optional[int], chosen: tuple) -> None:
        """Carry out the pending decision's option and record it (the run comes after)."""
        self.pending = None
        self.resume_at(self.frames[-1], seat, chosen)
        self._history.append(chosen[0])

    @property
    def scores(self) -> list:
        if self.prog.score is None:
            return []
        self.memo = None
        return [self.prog.score(self, p) for p in range(self.prog.nplayers)]

    @property
    def payoffs(self) -> list:
        """Per seat, what the finished game pays (rulesdsl.engine.payoffs): the file's
        `payoff` where it declares one (checked to sum to 0 where it is declared
        `zero-sum`: C022), else by who won; 0s while the game goes on."""
        n = self.prog.nplayers
        if not self.over:
            return [0.0] * n
        payoff = self.prog.payoff
        if payoff is None:
            return win_payoffs(self.winners, n, self.prog.cooperative)
        self.memo = None
        paid = [float(payoff(self, p)) for p in range(n)]
        if self.game.model.payoff.zero_sum:
            return checked_zero_sum(paid, self, "in the file")
        return paid

    def evaluation(self) -> list:
        """Per seat, how well it stands as the file's `evaluate` estimates it (for computer
        players: it may read anything, so only a sampled state's is theirs to read); the
        scores where the file declares no evaluation, [] where it declares neither."""
        evaluate = self.prog.evaluate
        if evaluate is None:
            return self.scores
        self.memo = None
        return [evaluate(self, p) for p in range(self.prog.nplayers)]

    def zone(self, name: str, seat: Optional[int] = None, key=None) -> list:
        """Omniscient: the labels of the cards in a zone, bottom first."""
        zi = self._zone_index(name, seat, key)
        return [self.prog.card_label[c] for c in self.zones[zi]]

    def var(self, name: str, key=None):
        """Omniscient: a variable's value (players as seats, enum values as names)."""
        lay, i = self._var_index(name, key)
        v = self.vars[i]
        if v is None:
            return None
        t = lay.type
        if t in self.prog.enums:
            return self.prog.enums[t][v]
        if t == "card":
            return self.prog.card_label[v]
        return v

    def clone(self) -> "State":
        s = self._copy(self._history.copy(), self._events.copy(), self.pending,
                       self._actions, None if self.chance is None else self.chance.copy())
        s.searched = shared(self)  # what was tried holds where the position is the same
        # the copy replays from this state's snapshot as well as this state does (the same
        # position, history and rules): no snapshot of its own at its first apply. Code that
        # changes a copy other than through `apply` (a sample's deal) calls
        # changed_outside_apply()
        s._origin = self._origin
        s._origin_due = self._origin_due
        return s

    def take_over(self, src: "State", copies: list) -> None:
        """Become `src`, a clone of this state that has applied an option since (a
        playout's look-ahead rated it; the rules draw from the state's own seeded numbers,
        so it stands where applying the option here would): its fields taken as they are,
        so `src` must not be used after. `copies`: src's frames as the clone made them
        (`src.frames[:]` before the option); those still at the bottom of its stack are
        this state's own frames again, brought up to date (a frame is a round's mark
        by identity: playout.Horizon). `src` this state itself: nothing to do."""
        if src is self:
            return
        frames, own = src.frames, self.frames
        for j in range(min(len(copies), len(frames), len(own))):
            copy = frames[j]
            if copy is not copies[j]:
                break  # a stack: every frame above a new one is new
            mine = own[j]
            mine[:] = copy
            frames[j] = mine
        self.zones, self.loc, self.vars, self.rng, self.frames = \
            src.zones, src.loc, src.vars, src.rng, frames
        self.over, self.winners, self._history, self._events = \
            src.over, src.winners, src._history, src._events
        self.cancelled, self.effect_depth, self.pending, self._actions = \
            src.cancelled, src.effect_depth, src.pending, src._actions
        self._origin, self._origin_due, self.memo, self.inferred = \
            src._origin, src._origin_due, src.memo, src.inferred
        self.exploring, self.chance, self.searched = src.exploring, src.chance, src.searched

    def changed_outside_apply(self) -> None:
        """Say that this copy was changed other than through `apply` (a sample's deal, two
        cards swapped): it no longer replays from the snapshot of the state it was copied
        from, but takes one of its own at its next apply."""
        self._origin = None
        self._origin_due = 0

    def keep_origin(self) -> None:
        """Take now the snapshot this state's next apply would take (it has none of its own:
        a sample, changed outside apply), so that the clones about to be made of it share
        it instead of taking one each at their first apply (a search's look-ahead clones a
        fresh sample once per option). Nothing else changes: it is the same snapshot."""
        if self._origin is None:
            self._origin = self._snapshot()
            self._origin_due = self._history._frozen + len(self._history._tail) + REPLAY_SPAN

    def trial_copy(self) -> "State":
        """A copy for trying moves (engine/sequences.py): the game's data and position,
        with a log of its own and the history shared (a trial applies nothing, and draws
        nothing: R033)."""
        return self._copy(self._history, EventLog(), None, (None, None), None)

    def _copy(self, history, events, pending, actions, chance) -> "State":
        s = State.__new__(State)
        s.game = self.game
        s.prog = self.prog
        s.zones = self._zones_copy(chance)
        s.loc = self.loc[:]
        s.vars = self.vars[:]
        s.rng = self.rng
        s.frames = copy_frames(self.frames)
        s.over = self.over
        s.winners = self.winners[:]
        s._history = history
        s._events = events
        s.cancelled = self.cancelled
        s.effect_depth = self.effect_depth
        s.pending = pending
        s.seed = self.seed
        s._actions = actions
        s._origin = None  # its own, at its first apply: a copy may be changed before it
        s._origin_due = 0
        s.memo = None
        s.scenario = self.scenario
        s.inferred = self.inferred
        s.exploring = None
        s.chance = chance
        s.searched = None
        return s

    def take_position(self, src: "State", only_here: bool) -> None:
        """Become the position of `src`, a trial's copy of this game (sequences.adopt):
        its data and frames, copied where a clone may take it on too (else taken as they
        are: `only_here`), nothing pending."""
        if only_here:
            self.zones, self.loc, self.vars, self.frames = src.zones, src.loc, src.vars, \
                src.frames
        else:
            self.zones = [z[:] for z in src.zones]
            self.loc = src.loc[:]
            self.vars = src.vars[:]
            self.frames = copy_frames(src.frames)
        self.over = src.over
        self.winners = src.winners[:]
        self.cancelled = src.cancelled
        self.effect_depth = src.effect_depth
        self.pending = None
        self._actions = (None, None)

    def determinize(self, seat: int, seed: int) -> "State":
        """A complete state `seat` cannot tell from this one, sampled from what it knows
        (see rulesdsl/engine/determinize.py); same observations and seed, same result."""
        from rulesdsl.engine.determinize import determinize
        return determinize(self, seat, seed)

    # ------------------------------------------------------------------ running
    def _pending(self):
        if self.pending is None and not self.over:
            self.memo = None
            self.prog.budget.refill()
            fr = self.frames[-1]
            ins = self.prog.procs[fr[0]].code[fr[1]]
            seat = ins.who(self, fr[2])
            self.pending = (seat, ins.options(self, fr))
            if self.prog.sequences and self.exploring is None:
                narrow(self)
        return self.pending


if not _NATIVE:  # in Python a property of attrgetter makes no Python call: quicker
    State.is_over = property(  # type: ignore[method-assign,assignment]
        attrgetter("over"), doc=State.is_over.__doc__)
    # and a search's apply_option is _apply_chosen itself: no call in between
    State.apply_option = State._apply_chosen  # type: ignore[method-assign,assignment]
