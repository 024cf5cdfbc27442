"""`sequence longest { ... }` and `sequence most KEY { ... }`: rules over whole sequences of
moves ("use as many dice as you can", "take the most pieces").

The player still decides one move at a time, so agents, the runner, determinization and
the adapters see ordinary decisions. What changes is which options are open: at a decision
inside a sequence, each option is tried on a copy of the state, and every decision after
it up to the sequence's end, depth first; an option stays open only where the best
sequence it begins is as good as the best of all (the most decisions, or the most KEY read
at the end). Trials never replay the game: a copy runs on from the decision, and the
sequence's end instruction stops it there (`State.exploring` names the frame and region).

`sequence most KEY up to BOUND` tells the most KEY can be: a trial stops at the first way
that reaches it, which makes the usual case (every die can be used) cheap.

Every move tried spends one unit of the decision's work budget (R005), a trial runs no
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


def narrow(st) -> None:
    """Keep, of the pending decision's options, those that begin a best sequence."""
    found = innermost(st)
    if found is None:
        return
    seat, options = st.pending
    if len(options) < 2:
        return
    depth, region = found
    bound = None if region.bound_slot is None else st.frames[depth][2][region.bound_slot]
    values = [_best_after(st, seat, o, depth, region, 0, bound) for o in options]
    best = max(values)
    kept = [o for o, v in zip(options, values) if v == best]
    if len(kept) < len(options):
        st.pending = (seat, kept)
        st._actions = None


def _best_after(st, seat: int, option: tuple, depth: int, region: Region, made: int,
                bound=None):
    """The best goal any sequence reaches that goes on with `option` from st, where `made`
    decisions of the sequence are behind: (reached, value), so that none is the least.
    With a bound, the first way found that reaches it is the best: no other is tried."""
    st.prog.budget.spend(1, region.span)
    if made >= DEEPEST:
        _refuse(f"a sequence's trial went on past {DEEPEST} decisions", region,
                "end the loop inside the sequence when nothing is left to do")
    trial = st.trial_copy()
    fr = trial.frames[-1]
    trial.exploring = (trial.frames[depth], region)
    locals_ = trial.frames[depth][2]  # kept: the game may end inside the sequence
    trial.prog.procs[fr[0]].code[fr[1]].choose(trial, fr, option)
    trial.run()
    if trial.rng != st.rng:
        _refuse("a sequence's moves drew a random number while they were tried", region,
                "draw before the sequence (roll the dice first), or after it")
    if trial.over or trial.pending is None:  # at the sequence's end (or the game's)
        if region.key is None:
            return (True, made + 1)
        value = region.key(trial, locals_)
        if bound is not None and value is not None and value > bound:
            _refuse(f"a sequence made {value}, more than the {bound} it can make at most "
                    "(its `up to`)", region, "give a bound no way of playing can pass")
        return (value is not None, value or 0)
    who, options = trial.pending
    if who != seat:
        _refuse(f"a sequence of {seat_label(seat)}'s moves reached a decision of "
                f"{seat_label(who)}'s", region,
                "a sequence is one player's moves: let the others decide after it")
    best = (False, 0)
    for o in options:
        value = _best_after(trial, seat, o, depth, region, made + 1, bound)
        if value > best:
            best = value
            if bound is not None and value == (True, bound):
                break  # none can do better
    return best


def _refuse(message: str, region: Region, hint: str):
    raise RuntimeRulesError("R033", message, region.span, [hint])
