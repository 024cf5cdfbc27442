"""Procedures as flat instruction lists: emitting, jumps, loops, turns and the end of a game."""

from __future__ import annotations

import ast as py
from typing import TYPE_CHECKING, Callable, Optional, cast

from rulesdsl.lang import ast
from rulesdsl.lang.errors import Span
from rulesdsl.engine.compile.program import Ask, Proc
from rulesdsl.engine.compile.generate import Goto, Statement
from rulesdsl.engine.ir import nodes, python
from rulesdsl.engine.ir.passes import folded
from rulesdsl.engine.sequences import Region, SequenceEnd
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.expressions import Expressions
    from rulesdsl.engine.compile.source import Source
    from rulesdsl.engine.compile.effects import Effects
    from rulesdsl.engine.compile.moves import Moves
    from rulesdsl.engine.compile.decisions import Decisions


class Flow:
    """Turns phases and blocks into instructions with resumable positions."""

    def __init__(self, unit: Unit):
        self.unit = unit
        self.m, self.n, self.p = unit.m, unit.n, unit.p
        self.proc_ids: dict = {}  # phase name -> its procedure's id
        self.phases: dict = {}  # phase name -> its node
        self.calls_at: dict = {}  # in the procedure being compiled: position -> phase called
        self.memo_callees: set = set()  # phases whose first decision a test's call hands its memo
        self.pending: list = []  # (procedure id, its node): declared, to be compiled
        self.response_ids: list = []  # the procedures of the responses, in order
        self.playable_sources: dict = {}  # id(check) -> (its condition's closure, slots)
        self.statements: dict = {}  # statement class name -> the part's method compiling it
        # the procedure being compiled (compile_proc starts each afresh)
        self.code: list[Optional[Callable]] = []  # its instructions
        self.spans: list[Optional[Span]] = []  # each instruction's place in the rules
        self.stmts: list[Optional[Statement]] = []  # each instruction's source form, or None
        self.loops: list[list[int]] = []  # each open loop's `break` jumps, to patch at its end
        self.named_cards: list = []  # the card choices around the statement compiled (respond)
        self.sequences: list[Region] = []  # its `sequence` statements
        self.nslots = 0  # its locals, hidden ones included

    def connect(self, exprs: Expressions, source: Source,
                statements: tuple[Effects, Moves, Decisions]) -> None:
        """`statements`: the parts whose `s_` methods compile statements, beside its own."""
        self.exprs, self.source = exprs, source
        for part in (self, *statements):
            for name in dir(part):
                if name.startswith("s_"):
                    self.statements[name[2:]] = getattr(part, name)

    # ------------------------------------------------------------------ procs
    def declare_proc(self, name: str, node) -> int:
        pid = len(self.p.procs)
        self.p.procs.append(Proc(name, [], [], 0, 0, getattr(node, "span", None)))
        if isinstance(node, ast.Phase):
            self.proc_ids[node.name] = pid
            self.phases[node.name] = node
            self.p.proc_index[node.name] = pid
        self.pending.append((pid, node))
        return pid

    def compile_proc(self, pid: int, node):
        """Phase, response, setup or card effect `node` as procedure `pid`."""
        self.source.listing.proc_frames[pid] = self.m.slot_names.get(id(node), ())
        with self.source.listing.frame_of(node):
            self.compile_body(pid, node)

    def compile_body(self, pid: int, node):
        m = self.m
        proc = self.p.procs[pid]
        self.code, self.spans, self.stmts = [], [], []
        self.loops, self.named_cards, self.sequences = [], [], []
        self.calls_at = {}
        if isinstance(node, ast.Phase):
            body = node.body
            nslots = m.nslots.get(id(node), 0)
            proc.nparams = len(node.params)
        elif isinstance(node, ast.Response):
            body = node.body
            nslots = m.nslots.get(id(node), 2)
            proc.nparams = 2
            if node.where is not None:
                cond = self.exprs.expr(node.where)

                def guard(st, fr, cond=cond):
                    if not cond(st, fr[2]):
                        st.return_from(fr)
                self.emit(guard, span_of(node.where))
        elif isinstance(node, ast.Setup):
            body = node.body
            nslots = m.nslots.get(id(node), 0)
        else:  # on play: (binder, block)
            body = node[1]
            nslots = m.nslots.get(id(node), 2)
            proc.nparams = 2
        self.nslots = nslots
        self.block(body)
        self.emit_operation(nodes.Return(getattr(body, "span", None)))
        proc.code = self.code
        proc.spans = self.spans
        proc.stmts = self.stmts
        proc.nslots = self.nslots
        proc.sequences = self.sequences
        self.p.sequences = self.p.sequences or bool(self.sequences)

    def hidden_slot(self) -> int:
        s = self.nslots
        self.nslots += 1
        return s

    def emit(self, ins, span, stmt: Optional[Statement] = None) -> int:
        """Add an instruction (a closure) and, where it has one, its source form."""
        self.code.append(ins)
        self.spans.append(span)
        self.stmts.append(self.generating(ins, stmt))
        return len(self.code) - 1

    def value_part(self, e, compiled: Optional[Callable] = None) -> nodes.Node:
        """A statement's value as a node, its closure (`compiled`, or compiled here as
        `expr` compiles it) kept for both back ends, which then compile it no second
        time."""
        f = self.exprs.expr(e) if compiled is None else compiled
        node = folded(self.exprs.lowering.part(e))  # (`seat(1)` is 1: passes.folded)
        self.source.known_parts[id(node)] = (node, f, None)
        return node

    def compiled_part(self, e, f: Callable, t: str) -> nodes.Opaque:
        """`e` compiled already, as closure `f` giving a value of type `t`, as a node both
        back ends take as it is: the interpreter its closure, the Python back end its
        call (or its expression inline)."""
        node = nodes.Opaque(t, e)
        tree = self.source.call_source(f) if self.unit.generate else None
        self.source.known_parts[id(node)] = (node, f, tree)
        return node

    def collection_part(self, e) -> nodes.Node:
        """The elements of a list, or the cards of a zone, as a statement's value
        (value_part)."""
        node = self.value_part(e)
        return nodes.Pile("list of card", node) if self.m.types.get(id(e)) == "zone" else node

    def written_as(self, node: nodes.Node, tree: Optional[py.expr]) -> None:
        """Where the program is generated, `node` (a statement's value) as `tree`, which
        computes it in another form (a log's words written when read), if given."""
        if tree is not None:
            self.source.known_parts[id(node)] = self.source.known_parts[id(node)][:2] + (tree,)

    def emit_operation(self, op: nodes.Operation, at: Optional[int] = None) -> None:
        """An operation as an instruction (placed at `at`, a placeholder, if given): the
        interpreter's closure and, where the program is generated, its Python, both made
        from the one node."""
        closure = self.exprs.interpreter.operation(op)
        stmt = self.operation_statement(op) if self.unit.generate else None
        if at is None:
            self.emit(closure, op.span, stmt)
        else:
            self.place(at, closure, stmt)

    def operation_statement(self, op: nodes.Operation) -> Statement:
        """An operation's Python as generate.py runs it: a jump (which counts its steps
        there) or statements that fall through."""
        if type(op) is nodes.Jump:
            return Statement("jump", target=op.target)
        if type(op) is nodes.JumpUnless:
            cond = self.source.to_python.emit(op.cond, 0)
            # the units of work the test spends first (a definition it calls, written
            # there) taken as statements before it: no budget call inside the test
            first, cond = python.spends_first(cond) if not op.hands_memo else ([], cond)
            spent = tuple(python.spent_in_turn(
                python.name(self.source.ref(self.unit.b, "BUDGET")), first)) if first else ()
            return Statement("unless", spent, cond=cond, target=op.target,
                             hands_memo=op.hands_memo)
        if type(op) is nodes.CallPhase:  # the phase run at once (generate._RUN_CALLED)
            return Statement("leave", tuple(self.source.to_python.statements(op)),
                             calls=op.proc)
        if type(op) is nodes.Return:  # the frame under goes on (generate._RESUME_UNDER)
            return Statement("leave", tuple(self.source.to_python.statements(op)),
                             returns=True)
        if op.leaves:
            return Statement("leave", tuple(self.source.to_python.statements(op)))
        return Statement("do", self.operation_body(op))

    def operation_body(self, op: nodes.Operation) -> tuple:
        """An operation that falls through as statements, each way out of a loop (an
        ExitIf) as a Goto, which generate.py writes as a test and a jump."""
        return tuple(Goto(stmt.target, stmt.test, tuple(stmt.then))
                     if isinstance(stmt, python.ExitIf) else stmt
                     for stmt in self.source.to_python.statements(op))

    def place(self, at: int, ins, stmt: Optional[Statement] = None) -> None:
        """Fill a placeholder (a jump or test whose target was not known yet)."""
        self.code[at] = ins
        self.stmts[at] = self.generating(ins, stmt)

    def generating(self, ins, stmt: Optional[Statement]) -> Optional[Statement]:
        if stmt is None or not self.unit.generate:
            return None
        stmt.closure = ins
        return stmt

    def here(self) -> int:
        return len(self.code)

    def patch_jump(self, at: int, target: Optional[int] = None):
        """Replace the placeholder at `at` with a jump to target (default: here)."""
        t = self.here() if target is None else target
        self.emit_operation(nodes.Jump(self.spans[at], t), at)

    def jump_placeholder(self, span) -> int:
        return self.emit(None, span)

    def compile_playable(self, playable):
        who, cond = playable
        with self.source.listing.frame_of(playable):
            f = self.exprs.expr(cond)
        size = max(2, self.m.nslots.get(id(playable), 2))

        def check(st, card, seat, f=f, size=size):
            L = [None] * size
            L[0] = card
            L[1] = seat
            return f(st, L)
        self.playable_sources[id(check)] = (f, size)
        return check

    # ------------------------------------------------------------------ statements
    def block(self, block: Optional[ast.Block]) -> None:
        """The statements of a block (the checker gives every statement its block)."""
        for s in block.stmts if block is not None else ():
            self.stmt(s)

    def stmt(self, s):
        self.statements[type(s).__name__](s)

    def s_If(self, s: ast.If):
        ends = []
        for cond, block in s.branches:
            c = self.value_part(cond)
            test_at = self.jump_placeholder(cond.span)
            self.block(block)
            ends.append(self.jump_placeholder(block.span))
            self.emit_operation(self.test_before(cond, c, test_at), test_at)
        if s.else_ is not None:
            self.block(s.else_)
        for at in ends:
            self.patch_jump(at)

    def loop_begin(self):
        self.loops.append([])

    def loop_end(self, continue_target: int):
        for at in self.loops.pop():
            self.patch_jump(at)

    def s_Repeat(self, s: ast.Repeat):
        start = self.here()
        self.loop_begin()
        self.block(s.body)
        self.emit_operation(nodes.JumpUnless(span_of(s.until), self.value_part(s.until), start))
        self.loop_end(start)

    def s_While(self, s: ast.While):
        start = self.here()
        c = self.value_part(s.cond)
        test_at = self.jump_placeholder(span_of(s.cond))
        self.loop_begin()
        self.block(s.body)
        self.emit_operation(nodes.Jump(s.span, start))
        self.emit_operation(self.test_before(s.cond, c, test_at), test_at)
        self.loop_end(start)

    def test_before(self, test: object, cond: nodes.Node, test_at: int) -> nodes.JumpUnless:
        """The test at `test_at` that skips the block after it to here; where that block
        starts with a decision, or with a call of a phase that starts with one (`while
        can_move(p) { one_move(p) }`: the call's arguments and frame change no variable),
        and the test calls a definition the decision's memo keeps, the test hands it its
        memo (nodes.JumpUnless.hands_memo)."""
        decision = self.code[test_at + 1]
        callee = self.calls_at.get(test_at + 1)
        if not self.unit.scanner.calls_memoised(test):
            hands = False
        elif isinstance(decision, Ask):
            hands = True
            decision.memo_handed = True  # reached from the test alone, its memo begun there
        else:
            hands = callee is not None and self.begins_with_ask(callee)
            if hands:
                self.memo_callees.add(callee)
        return nodes.JumpUnless(span_of(test), cond, self.here(), hands_memo=hands)

    def begins_with_ask(self, phase: str) -> bool:
        """Is the first instruction of the phase an `ask` (Decisions.ask places it first)?"""
        stmts = self.phases[phase].body.stmts
        return bool(stmts) and type(stmts[0]) is ast.Ask

    def hand_memos(self) -> None:
        """Once every procedure is compiled: the first decision of each phase that a test
        calls handing its memo goes on with the memo it finds (it begins one where none
        was handed: a call without a test, a game loaded at the decision)."""
        for phase in self.memo_callees:
            ask = self.p.procs[self.proc_ids[phase]].code[0]
            assert isinstance(ask, Ask), phase  # as begins_with_ask foresaw
            ask.memo_may_be_handed = True

    def s_For(self, s: ast.For):
        self.exprs.lowering.body_bound(self.m.slots[id(s)], (s.where, s.body), s.source)
        memo = not self.unit.facts_kept and self.unit.scanner.keeps_facts(s)
        self.unit.facts_kept += memo  # the body's statements then set no memo of their own
        try:
            self.each(s, self.collection_part(s.source), lambda: self.block(s.body), memo)
        finally:
            self.unit.facts_kept -= memo

    def each(self, s, items: nodes.Node, body: Callable[[], None], memo: bool = False) -> None:
        """A loop over a list taken when the loop starts: bind each element that meets
        `s.where` to `s`'s slot and run `body`; `break` inside leaves it. `memo`: one memo
        for the whole loop (nodes.EachStart.memo)."""
        where = self.value_part(s.where) if s.where is not None else None
        lst, idx = self.hidden_slot(), self.hidden_slot()
        self.emit_operation(nodes.EachStart(s.span, lst, idx, items, memo))
        head = self.jump_placeholder(s.span)
        self.loop_begin()
        body()
        self.emit_operation(nodes.Jump(s.span, head))
        self.emit_operation(nodes.EachStep(s.span, self.m.slots[id(s)], lst, idx, where,
                                           self.here(), memo), head)
        self.loop_end(head)

    def s_Turns(self, s: ast.Turns):
        start = self.value_part(s.start)
        skip = self.value_part(s.skip) if s.skip is not None else None
        until = self.value_part(s.until) if s.until is not None else None
        cur = self.hidden_slot()
        self.emit_operation(nodes.TurnsStart(s.span, cur, start))
        head = self.jump_placeholder(s.span)
        self.loop_begin()
        self.block(s.body)
        self.emit_operation(nodes.Jump(s.span, head))
        self.emit_operation(nodes.TurnsStep(s.span, self.m.slots[id(s)], cur, self.n, skip,
                                            until, self.here()), head)
        self.loop_end(head)

    def s_Sequence(self, s: ast.Sequence):
        """The block as it runs in play, ended by an instruction a trial stops at; the
        decisions inside are narrowed by the machine (engine/sequences.py)."""
        bound_slot = None
        if s.bound is not None:  # worked out once, as the sequence starts
            bound_slot = self.hidden_slot()
            self.emit_operation(nodes.SetLocal(span_of(s.bound), bound_slot,
                                               self.value_part(s.bound)))
        key = self.exprs.expr(s.key) if s.key is not None else None
        region = Region(self.here(), key, s.span, bound_slot)
        self.block(s.body)
        region.end = self.emit(SequenceEnd(region), s.span)
        self.sequences.append(region)

    def s_Break(self, s: ast.Break):
        self.loops[-1].append(self.jump_placeholder(s.span))

    def s_Return(self, s: ast.Return):
        self.emit_operation(nodes.Return(s.span))

    def s_CallStmt(self, s: ast.CallStmt):
        args = tuple(self.value_part(a) for a in s.args)
        self.calls_at[self.here()] = s.name
        self.emit_operation(nodes.CallPhase(s.span, self.proc_ids[s.name], args,
                                            self.p.depth_limit))

    def s_Win(self, s: ast.Win):
        one = self.m.types.get(id(s.who), "player") == "player"
        self.emit_operation(nodes.Finish(s.span, self.value_part(s.who), one))

    def s_EndGame(self, s: ast.EndGame):
        self.emit_operation(nodes.Finish(s.span, None))


def span_of(e: object) -> Span:
    """The place of a checked expression (the tree types a statement's expressions as
    `object`)."""
    return cast("ast.Expr", e).span
