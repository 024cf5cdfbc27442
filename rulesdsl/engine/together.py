"""Decisions beyond one player and one value: simultaneous choices (`ask together`) and
options that bind several values at once (`(q, f) in A, B`).

`AskTogether` wraps an ordinary decision instruction. Each listed player is asked in turn,
but a choice changes nothing when it is made: it is kept in a hidden local and the log only
says "P2 has chosen". When the last player has chosen, the choices take effect one after
another, in the order of the list, and only then are they logged or seen through the moves
they make. So every player chooses from the same state, and nobody (no view, no log line,
no legal action) learns another's choice before the reveal.
"""

from __future__ import annotations

import ast

from rulesdsl.lang.errors import RuntimeRulesError


def bind_tuple(L, slots, values) -> None:
    for s, v in zip(slots, values):
        L[s] = v


class AskTogether:
    """The decision instruction of `ask together`: who is asked now, their options, and the
    recording of a choice (see the module's docstring). Hidden locals: the list of seats,
    how many have chosen, the choices as [seat, label, alt, value], and how many of those
    have taken effect."""

    __slots__ = ("inner", "binder", "seats", "k", "picks", "done", "span", "fast",
                 "who_source", "bind_source")
    secret = True  # State.apply logs nothing: the choice is hidden until the reveal
    optional = False  # (like Ask: every listed player must choose)

    def targets(self) -> list:
        return self.inner.targets()

    def __init__(self, inner, binder, seats, k, picks, done, span):
        self.inner = inner
        self.binder = binder
        self.seats, self.k, self.picks, self.done = seats, k, picks, done
        self.span = span
        # as generated code (generate._inline_decision): the inner decision's options,
        # who is asked, and that player bound to the question's name first
        self.fast = inner.fast
        L = ast.Name("L", ast.Load())
        self.who_source = ast.Subscript(ast.Subscript(L, ast.Constant(seats), ast.Load()),
                                        ast.Subscript(L, ast.Constant(k), ast.Load()),
                                        ast.Load()) if inner.fast is not None else None
        self.bind_source = [ast.Assign([ast.Subscript(L, ast.Constant(binder), ast.Store())],
                                       ast.Name("_s", ast.Load()))]

    def no_option(self, seat):
        self.inner.no_option(seat)

    @property
    def alts(self):
        return self.inner.alts

    @property
    def question(self):  # the question of the decision (a closure (st, L)), or None
        return self.inner.question

    def chosen_card(self, option):
        return self.inner.chosen_card(option)

    @property
    def question_by_seat(self):
        return self.inner.question_by_seat

    def who(self, st, L):
        return L[self.seats][L[self.k]]

    def options(self, st, fr) -> list:
        L = fr[2]
        L[self.binder] = self.who(st, L)
        return self.inner.options(st, fr)

    def __call__(self, st, fr):
        L = fr[2]
        L[self.binder] = self.who(st, L)
        return self.inner(st, fr)

    def choose(self, st, fr, option) -> bool:
        L = fr[2]
        seat = L[self.seats][L[self.k]]  # self.who's, without its call
        label, ai, value = option
        L[self.picks] = L[self.picks] + [[seat, label, ai, value]]
        L[self.k] += 1
        st._events.append(("chosen", seat, label))  # the others read only "P2 has chosen"
        if L[self.k] >= len(L[self.seats]):  # the last one: to the reveal
            fr[1] = self.inner.decline_pc
        # else fr[1] still points here: the next seat is asked
        return False  # logged by the reveal, not now


def compile_ask_together(c, s) -> None:
    """Emit `ask together q in SOURCE [where C] { OPTIONS }` through `c`, the compiler's
    Decisions (compile/decisions.py):

        init    the seats, no choices yet (none listed: straight to the end)
        at      AskTogether: asks each seat in turn, keeps the choices
        bodies  the options' bodies, each ending at the reveal
        reveal  the next kept choice: log it, bind it, run its body; none left: the end
    """
    binder = c.m.slots[id(s)]
    src = c.exprs.expr(s.source)
    where = c.exprs.expr(s.where) if s.where is not None else None
    seats, k, picks, done = (c.flow.hidden_slot() for _ in range(4))
    span = s.span

    def init(st, fr):
        L = fr[2]
        chosen = []
        for q in list(src(st, L)):
            L[binder] = q
            if q is None:
                raise RuntimeRulesError("R018", "a decision for none: nobody to ask", span)
            if where is None or where(st, L):
                chosen.append(q)
        L[seats], L[k], L[picks], L[done] = chosen, 0, [], 0
        if not chosen:
            fr[1] = end_pc[0]
    c.flow.emit(init, span)
    at = c.flow.here()
    def who(st, L):
        return L[seats][L[k]]
    c.ask(s, who, c.compiled_part(s, who), s.choices, optional=False)
    inner = c.flow.code[at]
    reveal_pc = c.flow.here()  # where every body ends (the inner decision's decline_pc)
    assert inner.decline_pc == reveal_pc
    end_pc = [reveal_pc + 1]

    def reveal(st, fr):
        L = fr[2]
        j = L[done]
        if j >= len(L[picks]):
            fr[1] = reveal_pc + 1
            return
        L[done] = j + 1
        seat, label, ai, value = L[picks][j]
        L[binder] = seat
        alt = inner.alts[ai]
        if not (alt[0] == "binder" and alt[6] == "card"):  # a card shows through its move
            st._events.append(("choice", seat, label))
        inner.choose(st, fr, (label, ai, value))
    c.flow.emit(reveal, span)
    c.flow.code[at] = AskTogether(inner, binder, seats, k, picks, done, span)


# id(a procedure's code) -> (the code, its AskTogether instructions): a search samples
# thousands of times, each asking every frame's procedure for them
_TOGETHER: dict = {}


def _kept(of, make):
    """`make(of)`, worked out once per object `of` (a procedure's code, a program's
    procedures) and kept while that object lives."""
    got = _TOGETHER.get(id(of))
    if got is None or got[0] is not of:
        if len(_TOGETHER) > 4096:
            _TOGETHER.clear()
        got = _TOGETHER[id(of)] = (of, make(of))
    return got[1]


def _asks_together(code: list) -> tuple:
    return _kept(code, lambda c: tuple(ins for ins in c if isinstance(ins, AskTogether)))


def _any_together(procs: list) -> bool:
    """Does any of a program's procedures hold an `ask together`?"""
    return _kept(procs, lambda ps: any(_asks_together(p.code) for p in ps))


def cards_chosen_together(st) -> set:
    """The cards (and other numbered values) chosen in the secret choices of the `ask
    together`s on `st`'s frames: at a table they lie face down apart from the hand."""
    out: set = set()
    for fr in st.frames:
        L = fr[2]
        for ins in _asks_together(st.prog.procs[fr[0]].code):
            if isinstance(L[ins.picks], list):
                out.update(p[3] for p in L[ins.picks] if isinstance(p[3], int))
    return out


def hide_pending_choices(st, seat: int, rnd) -> int:
    """In `st` (a copy being sampled for `seat`, as a determinizing agent does), replace
    every secret choice of another player that has not taken effect yet by a random
    option of that player: what `seat` knows is only that they have chosen. Returns how
    many choices were replaced."""
    replaced = 0
    procs = st.prog.procs
    if not _any_together(procs):  # (most games: nothing to walk)
        st.pending = None
        return 0
    for fr in st.frames:
        L = fr[2]
        for ins in _asks_together(procs[fr[0]].code):
            if not isinstance(L[ins.picks], list):
                continue
            picks = list(L[ins.picks])
            for j in range(L[ins.done] or 0, len(picks)):
                who = picks[j][0]
                if who == seat:
                    continue
                saved = L[ins.binder]
                L[ins.binder] = who
                options = ins.inner.options(st, fr)
                L[ins.binder] = saved
                if options:
                    label, ai, value = options[rnd.randrange(len(options))]
                    picks[j] = [who, label, ai, value]
                    replaced += 1
            L[ins.picks] = picks
    st.pending = None
    return replaced


def withdraw_pending_choices(st, seat: int) -> int:
    """In `st` (a sample being searched for `seat`, whose turn it is in an `ask together`),
    take back the secret choices the others made before `seat` was asked: the decision
    goes back to its first player, and those players choose again where the sample is
    played. A search then models their choices as its own trees play them, not as one
    drawn at random (`hide_pending_choices`: the second to bid would answer a random bid).
    Nothing is withdrawn where some choice has taken effect or `seat` has chosen.
    Returns how many choices were withdrawn."""
    if not st.frames:
        return 0
    fr = st.frames[-1]
    ins = st.prog.procs[fr[0]].code[fr[1]]
    if not isinstance(ins, AskTogether):
        return 0
    L = fr[2]
    picks = L[ins.picks]
    if not isinstance(picks, list) or not picks or (L[ins.done] or 0) or \
            any(p[0] == seat for p in picks):
        return 0
    L[ins.picks], L[ins.k] = [], 0
    st.pending = None
    st.changed_outside_apply()
    return len(picks)
