"""`sequence longest { ... }` and `sequence most KEY { ... }`: rules over whole sequences of
moves ("use as many dice as you can", "take the most pieces").

The player still decides one move at a time, so agents, the runner, determinization and
the adapters see ordinary decisions. What changes is which options are open: at a decision
inside a sequence, each option is tried on a copy of the state, and every decision after
it up to the sequence's end, depth first; an option stays open only where the best
sequence it begins is as good as the best of all (the most decisions, or the most KEY read
at the end). Trials never replay the game: a copy runs on from the decision, and the
sequence's end instruction stops it there (`State.exploring` names the frame and region,
and whether a decision lists its options up to the first).

`sequence most KEY up to BOUND` tells the most KEY can be: a trial stops at the first way
that reaches it, which makes the usual case (every die can be used) cheap; its trials list
a decision's options up to the first (generated code), the rest only when that one falls
short.

What was tried is kept (`Tried`, on the state as `searched`): a move the player makes that
leads to another decision of the sequence is the copy its trial left, not run again
(`adopt`), and that decision tries only the options the trial had not. Clones share it,
so a search agent's samples that come to a position again find it tried; a state changed
since (a sample's guess of hidden cards) takes on nothing.

Every move tried spends one unit of the decision's work budget (R005), a move reused spends
again what trying it cost (the budget does not depend on what was kept), a trial runs no
deeper than 200 decisions, and a trial that draws a random number or reaches another
player's decision is an error in the rules (R033): it would tell the player what chance or
another player does next.
"""

from __future__ import annotations

from typing import Callable, Optional

from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.engine.runtime.seats import seat_label

SUSPEND = True
DEEPEST = 200  # decisions in one sequence's trial, as phases nest


class Region:
    """One `sequence` statement of a procedure: its instructions start..end (end is its
    SequenceEnd), and its goal: None for the longest, else KEY as a closure (st, L); with
    `up to`, the local slot that holds the most KEY can be."""

    __slots__ = ("start", "end", "key", "span", "bound_slot")

    def __init__(self, start: int, key: Optional[Callable], span,
                 bound_slot: Optional[int] = None):
        self.start = start
        self.end = start
        self.key = key
        self.span = span
        self.bound_slot = bound_slot

    def holds(self, pc: int) -> bool:
        """Is a frame at pc inside it? (a caller's pc is where it resumes: at most end)"""
        return self.start <= pc <= self.end


class SequenceEnd:
    """The instruction at a sequence's end: nothing in play; in a trial of this very
    sequence (this frame, this region) it stops the run, so the trial can read the end."""

    __slots__ = ("region",)

    def __init__(self, region: Region):
        self.region = region

    def __call__(self, st, fr):
        trying = st.exploring
        if trying is not None and trying[0] is fr and trying[1] is self.region:
            return SUSPEND
        return None


def innermost(st) -> Optional[tuple]:
    """(the frame's depth, the Region) of the sequence the pending decision stands in, or
    None. A frame called from inside a sequence is inside it too."""
    frames = st.frames
    procs = st.prog.procs
    for depth in range(len(frames) - 1, -1, -1):
        fr = frames[depth]
        for region in procs[fr[0]].sequences:
            if region.holds(fr[1]):
                return depth, region
    return None


class Tried:
    """One option tried at a decision inside a sequence: the copy of the game its move
    left at the next decision of the sequence (none where the sequence or the game
    ended), the best goal the sequence reaches through it, what trying it cost (work, moves, long
    texts: the same again when it is reused), and the options tried after it."""

    __slots__ = ("state", "logged", "value", "cost", "move_cost", "after", "partial")

    def __init__(self, state, logged: bool):
        self.state = state
        self.logged = logged  # is the choice written in the log (Ask.choose)
        self.value: tuple = (False, 0)
        self.cost = (0, 0, 0)  # the whole trial: this move and every move tried after it
        self.move_cost = (0, 0, 0)  # this move alone, up to where its copy stopped
        self.after: dict = {}  # label -> Tried, at the copy's decision (none at an end)
        self.partial = False  # does the copy's decision list its first option only?


def narrow(st, known: Optional[dict] = None) -> None:
    """Keep, of the pending decision's options, those that begin a best sequence.
    `known`: the options already tried at this very position (label -> Tried), by the
    search of an earlier decision of the same sequence; they are not tried again. What
    was tried stays with the state (`searched`) for `adopt`, and joins `known`: clones
    that come to this position later (a search agent's) find it tried."""
    found = innermost(st)
    if found is None:
        return
    seat, options = st.pending
    if len(options) < 2:
        if known:
            st.searched = (st.pending, known, None)
        return
    depth, region = found
    bound = None if region.bound_slot is None else st.frames[depth][2][region.bound_slot]
    tried = {} if known is None else known  # shared with whoever searched it: kept
    for o in options:
        tried[o[0]] = _try(st, seat, o, depth, region, 0, bound, tried)
    best = max(tried[o[0]].value for o in options)
    kept = [o for o in options if tried[o[0]].value == best]
    if len(kept) < len(options):
        st.pending = (seat, kept)
        st._actions = (None, None)
    st.searched = (st.pending, tried, None)


def shared(st) -> Optional[tuple]:
    """st's search, for a clone to share: with a copy of the position it was made from
    (taken at the first clone), so that a clone changed since (a sample's guess of hidden
    cards) takes on none of it. The state itself changes only through `apply`."""
    searched = st.searched
    if searched is not None and searched[2] is None:
        searched = st.searched = (searched[0], searched[1], _position(st))
    return searched


def _position(st) -> tuple:
    return (st.vars[:], [z[:] for z in st.zones], st.loc[:],
            [[f[0], f[1], f[2][:], f[3]] for f in st.frames], st.cancelled, st.effect_depth)


def _at(st, position: Optional[tuple]) -> bool:
    """Does st stand where `position` was copied (None: it was not, st searched itself)?"""
    return position is None or (
        st.vars == position[0] and st.zones == position[1] and st.loc == position[2] and
        st.frames == position[3] and st.cancelled == position[4] and
        st.effect_depth == position[5])


def adopt(st, seat: Optional[int], chosen: tuple) -> bool:
    """Apply `chosen` by taking on the copy its trial left, when the search of this very
    decision tried it: the moves it made, its log and the position it stopped at are the
    game's own (the rules are deterministic and a trial draws nothing), so they are not
    run again. False where nothing was tried: the caller runs the move."""
    searched = st.searched
    st.searched = None
    if searched is None or searched[0] is not st.pending or not _at(st, searched[2]):
        return False
    tried = searched[1].get(chosen[0])
    if tried is None or tried.state is None:
        return False
    copy = tried.state
    st.take_position(copy, searched[2] is None)  # no clone shares it: its lists are st's
    st._history.append(chosen[0])
    if tried.logged:
        st._events.append(("choice", seat, chosen[0]))
    st._events.extend(copy._events)
    budget = st.prog.budget
    budget.refill()
    _spend_again(budget, tried.move_cost, None)  # what the run up to this decision spends
    st.pending = copy.pending  # all of its options: narrowed here, as a run would
    if tried.partial:
        _list_every_option(st)
    st._actions = (None, None)
    narrow(st, tried.after)
    if searched[2] is not None:  # clones share what was tried here: so, what comes after
        shared(st)
    return True


def _try(st, seat: int, option: tuple, depth: int, region: Region, made: int,
         bound=None, known: Optional[dict] = None) -> Tried:
    """Try `option` from st, and every sequence that goes on with it: its Tried, whose
    value is the best goal reached, (reached, value), so that none is the least (for the
    longest, the value is the decisions made from here on). With a bound, the first way
    found that reaches it is the best: no other is tried. An option in `known` was tried
    from this position before: its work is spent again, its moves are not made again."""
    budget = st.prog.budget
    tried = known.get(option[0]) if known else None
    if tried is not None:
        _spend_again(budget, tried.cost, region.span)
        return tried
    before = _left(budget)
    budget.spend(1, region.span)
    moved = _left(budget)
    if made >= DEEPEST:
        _refuse(f"a sequence's trial went on past {DEEPEST} decisions", region,
                "end the loop inside the sequence when nothing is left to do")
    trial = st.trial_copy()
    fr = trial.frames[-1]
    # under a bound the options are tried one by one: the first is listed, then the rest
    trial.exploring = (trial.frames[depth], region, bound is not None)
    locals_ = trial.frames[depth][2]  # kept: the game may end inside the sequence
    tried = Tried(trial, trial.prog.procs[fr[0]].code[fr[1]].choose(trial, fr, option))
    trial.run()
    tried.move_cost = _spent(budget, moved)
    if trial.rng != st.rng:
        _refuse("a sequence's moves drew a random number while they were tried", region,
                "draw before the sequence (roll the dice first), or after it")
    if trial.over or trial.pending is None:  # at the sequence's end (or the game's)
        tried.value = _goal_at_end(trial, locals_, region, bound)
        # not kept: the rest of a move is cheap to run again, and copies kept alive by
        # the hundred (a board of many zones) cost the garbage collector more
        tried.state = None
    else:
        tried.value = _best_after(trial, seat, depth, region, made, bound, tried)
    tried.cost = _spent(budget, before)
    return tried


def _goal_at_end(trial, locals_, region: Region, bound):
    if region.key is None:
        return (True, 1)
    trial.memo = {}  # the position stands still: KEY's definitions once per arguments
    try:
        value = region.key(trial, locals_)
    finally:
        trial.memo = None
    if bound is not None and value is not None and value > bound:
        _refuse(f"a sequence made {value}, more than the {bound} it can make at most "
                "(its `up to`)", region, "give a bound no way of playing can pass")
    return (value is not None, value or 0)


def _best_after(trial, seat: int, depth: int, region: Region, made: int, bound,
                tried: Tried):
    """The best goal of the sequences that go on from the trial's decision, each of its
    options tried (into tried.after) until one reaches the bound."""
    who, options = trial.pending
    if who != seat:
        _refuse(f"a sequence of {seat_label(seat)}'s moves reached a decision of "
                f"{seat_label(who)}'s", region,
                "a sequence is one player's moves: let the others decide after it")
    tried.partial = bound is not None and len(options) == 1
    best = (False, 0)
    for o in _one_by_one(trial, tried):
        after = tried.after[o[0]] = _try(trial, seat, o, depth, region, made + 1, bound)
        if after.value > best:
            best = after.value
            if bound is not None and best == (True, bound):
                break  # none can do better
    return best if region.key is not None else (best[0], best[1] + 1)


def _one_by_one(trial, tried: Tried):
    """The options of the trial's decision in order; where only the first was listed,
    the others once it has been tried (and has not reached the bound)."""
    yield from trial.pending[1]
    if tried.partial:
        _list_every_option(trial)
        tried.partial = False
        for o in trial.pending[1]:
            if o[0] not in tried.after:
                yield o


def _list_every_option(st) -> None:
    """List every option of st's decision, which a trial under a bound listed up to its
    first (the generated decision's `first` options, compile/generate.py)."""
    fr = st.frames[-1]
    st.pending = (st.pending[0], st.prog.procs[fr[0]].code[fr[1]].options(st, fr))


def _left(budget) -> tuple:
    return (budget.work, budget.moves, budget.texts)


def _spent(budget, before: tuple) -> tuple:
    return (before[0] - budget.work, before[1] - budget.moves, before[2] - budget.texts)


def _spend_again(budget, cost: tuple, span) -> None:
    """Spend again what a trial cost when it was made (R005, R006, R031 as it would)."""
    budget.spend(cost[0], span)
    budget.move(cost[1], span)
    budget.texts -= cost[2]
    budget.check_text("", span)


def _refuse(message: str, region: Region, hint: str):
    raise RuntimeRulesError("R033", message, region.span, [hint])
