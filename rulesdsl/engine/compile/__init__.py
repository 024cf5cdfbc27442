"""Checked model -> an executable Program, once per load and player count.

Expressions become Python closures `f(st, L)` over the state and the frame's locals list;
statements become flat lists of instructions with jumps, so the position in the rules is
plain data: a stack of frames `[proc, pc, locals, is_effect]`. An instruction is called as
`ins(st, frame)` after the pc has moved past it; it returns None, or SUSPEND when a player
must decide. The compiler never imports the engine: instructions call the state's methods."""

from __future__ import annotations

import math
import os
import warnings

from typing import Callable, Optional, Sequence

from rulesdsl.lang.check import Model
from rulesdsl.lang.reads import state_reads
from rulesdsl.engine.pieces import layout_pieces
from rulesdsl.engine.compile.unit import Unit
from rulesdsl.engine.ir import nodes
from rulesdsl.engine.compile.layout import Layout
from rulesdsl.engine.compile.flow import Flow
from rulesdsl.engine.compile.effects import Effects
from rulesdsl.engine.compile.moves import Moves
from rulesdsl.engine.compile.decisions import Decisions
from rulesdsl.engine.compile.expressions import Expressions
from rulesdsl.engine.compile.calls import Calls
from rulesdsl.engine.compile.source import GeneratedTooLarge, Source
from rulesdsl.lang.limits import ENV, limit
from rulesdsl.engine.compile.functions import Functions
from rulesdsl.engine.compile.seat_words import SeatWords
from rulesdsl.engine.compile.generate import generate_procs
from rulesdsl.engine.compile import native
from rulesdsl.engine.compile.native import Module
# the program and the decision instruction are this package's API to the engine
from rulesdsl.engine.compile.program import Ask, Program, ProgramShow, Truth
from rulesdsl.engine.runtime.seats import seat_label


class Compiler:
    """The parts that compile one game, each an object with its own state, and the order
    they run in. A part reads the others through `connect`: what it names there is all
    it uses of them."""

    def __init__(self, model: Model, nplayers: int, options: dict, generate: bool = True,
                 native: Optional[Module] = None):
        unit = self.unit = Unit(model, nplayers, options, generate)
        self.m, self.n, self.p = model, nplayers, unit.p
        self.layout = Layout(unit)
        self.exprs = Expressions(unit)
        self.calls = Calls(unit)
        self.functions = Functions(unit)
        self.source = Source(unit, native)
        self.flow = Flow(unit)
        self.effects = Effects(unit)
        self.moves = Moves(unit)
        self.decisions = Decisions(unit)
        self.seat_words = SeatWords(unit)
        # what generated code leaves to closures is compiled by parts that generate none
        # (sharing the definitions' bodies compiled already); without generated code, the
        # parts themselves
        closures, closure_calls = self.exprs, self.calls
        if generate:
            quiet = unit.closures_only()
            closures, closure_calls = Expressions(quiet), Calls(quiet)
            closures.connect(closure_calls, self.functions, self.source, self.layout)
            closure_calls.connect(closures, self.functions, self.calls.define_bodies)
        self.layout.connect(self.exprs)
        self.exprs.connect(self.calls, self.functions, self.source, self.layout)
        self.calls.connect(self.exprs, self.functions)
        self.functions.connect(self.calls, self.exprs, self.source)
        self.source.connect(self.exprs, closures, self.flow, self.functions)
        self.flow.connect(self.exprs, self.source, (self.effects, self.moves, self.decisions))
        self.effects.connect(self.exprs, self.flow, self.layout, self.moves, self.seat_words,
                             self.source)
        self.moves.connect(self.exprs, self.flow, self.seat_words, self.source)
        self.decisions.connect(self.exprs, self.flow, self.seat_words, self.source)
        self.seat_words.connect(self.exprs)
        self.p.labeller = self.layout.make_labeller()

    def build(self) -> Program:
        m, p, layout, flow = self.m, self.p, self.layout, self.flow
        layout.layout_zones()
        layout.layout_vars()
        layout.layout_boards()
        # procs first get ids, so calls can refer to them before they are compiled
        for name, ph in m.phases.items():
            flow.declare_proc(name, ph.decl)
        kinds = self.unit.kinds
        for r in m.responses:
            flow.response_ids.append(flow.declare_proc(f"response {r.name}", r))
        p.on_play = [None] * len(kinds)
        p.playable = [None] * len(kinds)
        handler_of = {}
        for k in m.kinds.values():
            if k.decl.on_play is not None:
                handler_of[k.name] = flow.declare_proc(f"on play of {k.name}", k.decl.on_play)
        for i, kname in enumerate(kinds):
            for anc in m.kinds[kname].ancestors:
                if anc in handler_of:
                    p.on_play[i] = handler_of[anc]
                    break
        if m.setup is not None:
            p.setup = flow.declare_proc("setup", m.setup)
        p.flow = flow.proc_ids[m.flow]
        layout.build_cards()
        p.pieces = layout_pieces(layout)
        # playability conditions
        for i, kname in enumerate(kinds):
            for anc in m.kinds[kname].ancestors:
                d = m.kinds[anc].decl
                if d.playable is not None:
                    p.playable[i] = flow.compile_playable(d.playable)
                    break
        # compile bodies
        for pid, node in flow.pending:
            flow.compile_proc(pid, node)
        flow.hand_memos()
        if m.score is not None:
            p.score = self.per_seat(m.score)
            p.score_visibility = m.score.visibility
        if m.evaluate is not None:
            p.evaluate = self.per_seat(m.evaluate)
            p.evaluate_reads = self.state_read(m.evaluate.value)
        if m.payoff is not None:
            p.payoff = self.per_seat(m.payoff)
        p.cooperative = m.cooperative
        p.truths = tuple(self.truth(d) for d in m.truths.values())
        for v in p.vars.values():
            d = m.vars[v.name].decl
            v.default = self.exprs.expr(d.default)
        self.compile_shows()
        if self.unit.generate:
            generate_procs(self.source)
        return p

    def state_read(self, e) -> Optional[tuple]:
        """(variable indices, zone indices) of all that expression `e` reads of a state, or
        None where it may read more (lang/reads.py), or where pieces change cards' fields."""
        names = state_reads(e, self.m) if self.p.pieces is None else None
        if names is None:
            return None
        p = self.p
        variables = [k for name in sorted(names[0]) for k in
                     range(p.vars[name].base, p.vars[name].base + math.prod(p.vars[name].sizes))]
        zones = [k for name in sorted(names[1]) for k in
                 range(p.zones[name].base, p.zones[name].base + math.prod(p.zones[name].sizes))]
        return tuple(variables), tuple(zones)

    def per_seat(self, decl) -> Callable:
        """`score(p: player) = ...`, `evaluate(...)` or `payoff(...)` as f(st, seat)."""
        with self.source.listing.frame_of(decl):
            f = self.exprs.expr(decl.value)
        size = self.m.nslots.get(id(decl), 1)

        def per_seat(st, seat, f=f, size=size):
            st.prog.budget.refill()  # asked for outside any run: its own budget
            L = [None] * size
            L[0] = seat
            return f(st, L)
        return per_seat

    def truth(self, decl) -> Truth:
        """`invariant NAME(params) = COND` as a Truth: COND as f(st, args), and the values
        each parameter is tried with."""
        with self.source.listing.frame_of(decl):
            f = self.exprs.expr(decl.value)
        size = self.m.nslots.get(id(decl), 1)

        def holds(st, args, f=f, size=size):
            st.prog.budget.refill()  # asked for outside any run: its own budget
            L = [None] * size
            L[:len(args)] = args
            return f(st, L)
        domains, words = [], []
        for prm in decl.params:
            t = prm.type
            values: Sequence
            said: dict
            if t.name == "player":
                values = range(self.n)
                said = {s: seat_label(s) for s in values}
            elif t.name == "bool":
                values, said = (False, True), {False: "false", True: "true"}
            elif t.name == "range":
                values = range(t.low, t.high + 1)
                said = {v: str(v) for v in values}
            else:  # an enum or board
                names = self.m.enums[t.name].values
                values, said = range(len(names)), dict(enumerate(names))
            domains.append(tuple(values))
            words.append(said)
        return Truth(decl.name, decl.span, holds, tuple(domains), tuple(words))

    def compile_shows(self) -> None:
        """`show` declarations: each a closure (state, seat) -> the definition's value."""
        present = getattr(self.m, "present", None)
        self.p.present = present
        for show in (present.shows if present else ()):
            if show.cond is not None and not self.exprs.const(show.cond):
                continue  # not in a game of this many players, or with these options
            per = show.per_player or show.board is not None
            d = self.m.defines[show.name]
            seat = [nodes.Local(d.params[0][1], 0, d.params[0][0])] if per else []
            with self.source.listing.frame_of(d.decl):  # (its frame: the seat, as `p` for --show)
                call = self.calls.define_call(show.name, seat)
            self.p.shows.append(ProgramShow(show, _for_seat(call),
                                            self.m.defines[show.name].type))


def _for_seat(call):
    """A definition's closure (st, L) as (st, seat or cell): that its only local."""
    return lambda st, seat: call(st, [seat])


def compile_program(model: Model, nplayers: int, options: dict,
                    step_limit: int = 1_000_000) -> Program:
    compiler = Compiler(model, nplayers, options, generate=generating())
    compiler.p.step_limit = step_limit  # the generated code's loops count against it
    try:
        prog = compiler.build()
    except GeneratedTooLarge:
        return closures_only(model, nplayers, options, step_limit)
    if native.requested() and prog.generated:
        try:
            module = native.built_module(compiler.source.pieces, compiler.source.piece_trees,
                                          compiler.source.ns)
        except native.NativeUnavailable as e:
            warnings.warn(f"RULESDSL_ENGINE=native: {e}; running the pure-Python code",
                          RuntimeWarning, stacklevel=2)
            return prog
        again = Compiler(model, nplayers, options, native=module)
        again.p.step_limit = step_limit
        prog = again.build()
        runs = [proc for proc in prog.procs if proc.run is not None]
        if module.live and runs:  # errors find their rules line through the module's lines
            offset = module.first_line - 1
            lines = {k + offset: pc for k, pc in runs[0].owner_lines.items()}  # one, shared
            for proc in runs:
                proc.owner_lines = lines
    return prog


def shown_program(model: Model, nplayers: int, options: dict,
                  step_limit: int = 1_000_000) -> Program:
    """The program compiled again for `rulesdsl compile --show`: the same code, its
    listing (`generated`) naming the frames' locals, the zones and the variables as the
    rules do (show.py). Not run: a game runs compile_program's."""
    compiler = Compiler(model, nplayers, options, generate=True)
    compiler.source.listing.show = True
    compiler.p.step_limit = step_limit
    try:
        return compiler.build()
    except GeneratedTooLarge:
        return closures_only(model, nplayers, options, step_limit)


def closures_only(model: Model, nplayers: int, options: dict, step_limit: int) -> Program:
    """The program run by its closures (the reference the generated code is compared with),
    for rules that would generate more Python than the generated_code limit."""
    warnings.warn(f"{model.title}: the rules would generate more than "
                  f"{limit('generated_code'):,} characters of Python; the closures run them "
                  f"(slower); raise the limit with {ENV}=generated_code=N",
                  RuntimeWarning, stacklevel=3)
    compiler = Compiler(model, nplayers, options, generate=False)
    compiler.p.step_limit = step_limit
    return compiler.build()


def generating() -> bool:
    """Generated code unless RULESDSL_ENGINE=closures (kept to compare the two);
    RULESDSL_ENGINE=native builds it with Cython as well (native.py)."""
    return os.environ.get("RULESDSL_ENGINE", "generated") != "closures"
