"""Procedures as generated Python functions: straight-line code per procedure, resumable.

A procedure stays a flat list of instructions with positions (pc), so the position in the
rules is still plain data in the frame `[proc, pc, locals, is_effect]` and saves, clones
and replays do not change. What changes is how it runs: each procedure also becomes one
Python function that starts at the frame's pc and runs on, block after block, until it
must leave the procedure (a decision, a call of a card effect or by table, a return, the
end of the game). A phase it calls by name it runs at once, on the frame it has just
pushed, and goes on after it where it comes back (`_run_called`): the machine's loop
only takes over where the game waits, or the frames change otherwise:

    def phase_round(st, fr, called, seat, chosen):    # the phase's statements as Python
        L = fr[2]
        pc = fr[1]
        while True:
            if pc == 0:
                ...                      # statements up to the next jump target
                pc = 4
            if pc == 4:
                ...

Instructions with a source form (`Statement`, recorded by the compiler next to their
closure) are inlined; the others are called as their closure, with the pc set as the
interpreter sets it. A frame resumed at a position that starts no block runs one
instruction by its closure and returns: the two ways are interchangeable at every pc,
which is what keeps the generated code honest (tests run both).

All of it is built as `ast` nodes: each procedure one `FunctionDef` (`_Proc`), the
procedures one `Module`, laid out (`lay_out`) on the lines `ast.unparse` writes, which is
how `--show` prints it (`listing`) and how a traceback's line finds its instruction.
"""

from __future__ import annotations

import ast as py
import copy
import os
from typing import Optional

import attrs

from rulesdsl.engine.ir import python
from rulesdsl.engine.ir.python import (assign, call, clone, compare, const, index, name)
from rulesdsl.engine.ir.python_options import first_option_only, template
from rulesdsl.engine.compile.show import ShowNames
from rulesdsl.engine.runtime.errors import runaway
from rulesdsl.engine.runtime.places import comment_text, rules_place


_trees: dict = {}  # (mode, the text a tree writes) -> its code object
_counts = {"hits": 0, "misses": 0}


def compiled_tree(tree: py.Module | py.Expression, text: str, mode: str):
    """The code object of a generated tree laid out as `ast.unparse` writes it (lay_out):
    `text`, that writing, determines it, positions included, so loading a game twice
    compiles it once."""
    key = (mode, text)
    code = _trees.get(key)
    if code is None:
        if len(_trees) >= 8192:
            _trees.clear()
        code = _trees[key] = compile(tree, "<rulesdsl generated>", mode)
        _counts["misses"] += 1
    else:
        _counts["hits"] += 1
    return code


def cache_info() -> dict:
    """How often compiled_tree found a piece's code in its cache, and how often not."""
    return dict(_counts)


@attrs.define
class Statement:
    """An instruction's source form, as Python trees. kind:
    - "do": `body` runs and falls through to the next instruction;
    - "jump": go to `target`;
    - "unless": `body` runs (the work its test spends first), then if `cond` is false go
      to `target`, else fall through;
    - "leave": `body` changes the frames (a call, a return, the end): the function returns.
    `body` holds `ast` statements, and may hold a `Goto` as a statement of its own."""
    kind: str
    body: tuple = ()
    cond: Optional[py.expr] = None
    target: Optional[int] = None
    closure: object = None  # the instruction it stands for: replaced instructions fall back
    hands_memo: bool = False  # "unless" before a decision: its test reads the decision's memo
    # "leave" that pushes the frame of this phase (its number): the phase is run at once,
    # here, and the procedure goes on after it where it returns without waiting
    calls: Optional[int] = None
    # "leave" that returns from the procedure: run by Machine.run, it goes on with the
    # frame under it itself (`_resume_under`)
    returns: bool = False


@attrs.frozen(eq=False)
class Goto:
    """Among a statement's body: where `test` holds, `then` runs and the procedure goes on
    at instruction `target` (the way out of a loop); else the next statement. Kept as
    data, so the blocks it starts are found without reading code."""
    target: int
    test: py.expr
    then: tuple = ()


class Runaway:
    """The step limit inside generated code: a loop that never asks anyone ends with R003."""

    def __init__(self, prog):
        self.prog = prog

    def __call__(self, span):
        runaway(self.prog.step_limit, span)


# ---------------------------------------------------------------------- layout
_BLOCKS = ("body", "orelse", "handlers", "finalbody")
_DEFS = (py.FunctionDef, py.AsyncFunctionDef, py.ClassDef)


# fields that hold no node with a place or a child (names, operators, contexts, flags)
_LEAF_FIELDS = {"ctx", "op", "ops", "id", "attr", "arg", "name", "type_comment", "kind",
                "conversion", "is_async", "level", "module"}
_CHILD_FIELDS: dict = {py.Constant: ()}  # node class -> the fields that may hold nodes


def _child_fields(cls: type) -> tuple:
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        fields = _CHILD_FIELDS[cls] = tuple(f for f in cls._fields  # type: ignore[attr-defined]
                                            if f not in _LEAF_FIELDS)
    return fields


def _at(node: py.AST, line: int, seen: set) -> None:
    """Every node of `node` (a statement's header, or all of a simple statement) on
    `line`. A node met already (`seen`: built once, used in two places) is copied first:
    each place keeps its own line."""
    todo = [node]
    pop, push, add = todo.pop, todo.append, seen.add
    fields_of, AST = _CHILD_FIELDS.get, py.AST
    while todo:
        x = pop()
        d = x.__dict__
        if x._attributes:  # (arguments, comprehensions ... have no place of their own)
            d["lineno"] = d["end_lineno"] = line
            d["col_offset"] = d["end_col_offset"] = 0
        cls = type(x)
        fields = fields_of(cls)
        if fields is None:
            fields = _child_fields(cls)
        for field in fields:
            value = d.get(field)
            if type(value) is list:
                for k, child in enumerate(value):
                    if isinstance(child, AST):
                        if id(child) in seen:
                            child = value[k] = clone(child)
                        add(id(child))
                        push(child)
            elif isinstance(value, AST):
                if id(value) in seen:
                    value = d[field] = clone(value)
                add(id(value))
                push(value)


def lay_out(body: list, line: int = 1, started: bool = False,
            seen: Optional[set] = None) -> int:
    """Give the statements of `body`, from `line`, the lines `ast.unparse` writes them on
    (one line a simple statement, a line per header, `elif`, `else`, `except`, `finally`,
    a blank line before a `def` but the first of the text); the line after them.
    `started`: text comes before them. Every node gets the line it is written on (where
    one is used twice, each place a copy of its own), so that a traceback's line is the
    line of the text, for the generated code and the native module built from it alike."""
    seen = set() if seen is None else seen
    for k, stmt in enumerate(body):
        if id(stmt) in seen:
            stmt = body[k] = clone(stmt)
        seen.add(id(stmt))
        line = _lay_out_one(stmt, line, started, seen)
        started = True
    return line


def _header(stmt: py.AST, line: int, seen: set) -> None:
    """The header of a compound statement (every part but its blocks) on `line`."""
    header = copy.copy(stmt)
    for field in _BLOCKS + ("decorator_list",):
        if hasattr(header, field):
            setattr(header, field, [])
    _at(header, line, seen)
    for field in stmt._fields:
        if field not in _BLOCKS and field != "decorator_list":
            setattr(stmt, field, getattr(header, field))
    stmt.lineno, stmt.col_offset = line, 0  # type: ignore[attr-defined]


def _lay_out_one(stmt: py.stmt, line: int, started: bool, seen: set) -> int:
    if isinstance(stmt, _DEFS):
        line += started  # unparse's blank line before a definition
        for deco in stmt.decorator_list:
            _at(deco, line, seen)
            line += 1
    blocks = [f for f in _BLOCKS if getattr(stmt, f, None)]
    if not blocks:
        _at(stmt, line, seen)
        return line + 1
    first = line
    _header(stmt, line, seen)
    line = lay_out(stmt.body, line + 1, True, seen)  # type: ignore[attr-defined]
    orelse = getattr(stmt, "orelse", None)
    while isinstance(stmt, py.If) and orelse and len(orelse) == 1 and \
            isinstance(orelse[0], py.If):  # `elif`
        elif_ = orelse[0]
        _header(elif_, line, seen)
        end = lay_out(elif_.body, line + 1, True, seen)
        elif_.end_lineno, elif_.end_col_offset = end - 1, 0
        orelse, line = elif_.orelse, end
    for handler in getattr(stmt, "handlers", ()):
        _header(handler, line, seen)
        end = lay_out(handler.body, line + 1, True, seen)
        handler.end_lineno, handler.end_col_offset = end - 1, 0
        line = end
    if orelse:
        line = lay_out(orelse, line + 1, True, seen)  # `else:`
    final = getattr(stmt, "finalbody", None)
    if final:
        line = lay_out(final, line + 1, True, seen)  # `finally:`
    stmt.lineno, stmt.col_offset = first, 0
    stmt.end_lineno, stmt.end_col_offset = line - 1, 0
    return line


# ---------------------------------------------------------------------- procedures
def _filled(statements: list, **holes: py.expr) -> list:
    """A copy of a template's statements (python_options.template), each hole (a name)
    the tree given for it, as it is: `fill` without its deep copies (a tree given twice
    is copied where the module is laid out)."""
    return [_copied(stmt, holes) for stmt in statements]


def _copied(node: py.AST, holes: dict) -> py.AST:
    cls = type(node)
    if isinstance(node, py.Name) and node.id in holes:
        return holes[node.id]
    if not node._fields:  # a context or an operator: shared as the parser shares them
        return node
    new = cls.__new__(cls)
    d = new.__dict__
    for field, value in node.__dict__.items():
        if type(value) is list:
            d[field] = [_copied(x, holes) if isinstance(x, py.AST) else x for x in value]
        elif isinstance(value, py.AST):
            d[field] = _copied(value, holes)
        else:
            d[field] = value
    return new


def _leaders(proc, stmts: list) -> list:
    """The positions a block starts at: where control may arrive other than by falling
    through (a jump target, a resumption after a call or a decision, the start)."""
    n = len(proc.code)
    starts = {0}
    for pc, (ins, st) in enumerate(zip(proc.code, stmts)):
        if st is None:  # an instruction run as its closure: it may resume or jump anywhere
            starts.update((pc, pc + 1))
            if hasattr(ins, "targets"):  # a decision: where its choices go on
                starts.update(ins.targets())
            continue
        if st.target is not None:
            starts.add(st.target)
        starts.update(x.target for x in st.body if type(x) is Goto)
        if st.kind in ("leave", "unless", "jump"):
            starts.add(pc + 1)
    return sorted(k for k in starts if 0 <= k < n)


def _store(id_: str) -> py.Name:
    return py.Name(id_, py.Store())


def _pc_is(pc: int) -> py.expr:
    return compare(name("pc"), "==", const(pc))


_COUNTED = template("""
    jumps += STEPS
    if jumps > LIMIT:
        RUNAWAY(SPAN)
""")


def _goto(target: int, here: int, span: py.expr, ends_block: bool = False) -> list:
    """Go to `target`; a jump backwards counts the instructions it repeats toward the
    step limit (as the interpreter counts them, one per instruction). A jump forwards
    that ends its block (`ends_block`) falls through the blocks before its target, each
    of which tests `pc` and is passed over, rather than testing them all from the first."""
    out: list = []
    if target <= here:
        out = _filled(_COUNTED, STEPS=const(here - target + 1), SPAN=span)
    elif ends_block:
        return [assign(name("pc"), const(target))]
    return out + [assign(name("pc"), const(target)), py.Continue()]


# an instruction run by its closure, the interpreter's way, inside the generated function
_BY_CLOSURE = template("""
    fr[1] = NEXT
    if INS(st, fr) is not None:
        fr[1] = HERE
        return True
    F = st.frames
    if not F or F[-1] is not fr:
        return None
    if fr[1] != NEXT:
        jumps += 1
        if jumps > LIMIT:
            RUNAWAY(SPAN)
        pc = fr[1]
        continue
""")


class _Proc:
    """One procedure's function as a tree, with the comments `--show` writes beside its
    statements (by the statement they follow) and the places its statements come from."""

    def __init__(self, pid: int, proc, stmts: list, ref):
        self.pid, self.proc, self.stmts, self.ref = pid, proc, stmts, ref
        self.notes: list = []  # (statement, the comment on its line)
        # (pc, the block its statements are in, where they start there, how many)
        self.owned: list = []
        self.fn = self.build()

    def note(self, stmt: py.stmt, comment: str) -> py.stmt:
        self.notes.append((stmt, comment))
        return stmt

    def build(self) -> py.FunctionDef:
        proc, stmts = self.proc, self.stmts
        head = [assign(name("L"), index(name("fr"), const(2))),
                assign(name("pc"), index(name("fr"), const(1))),
                assign(name("jumps"), const(0)),
                *self.resumed()]
        blocks: list = []
        leaders = _leaders(proc, stmts)
        n = len(proc.code)
        for b, start in enumerate(leaders):
            end = leaders[b + 1] if b + 1 < len(leaders) else n
            block: list = []
            for pc in range(start, end):
                made = self.instruction(pc)
                self.owned.append((pc, block, len(block), len(made)))
                block += made
            last = stmts[end - 1] if end > start else None
            falls = last is None or last.kind == "do" or \
                (last.kind == "unless" and last.target <= end - 1) or \
                (last.kind == "leave" and last.calls is not None)
            if falls and end < n:
                block.append(assign(name("pc"), const(end)))  # on into the next block
            blocks.append(py.If(_pc_is(start), block, []))
        blocks += [py.Assign([py.Subscript(name("fr"), const(1), py.Store())], name("pc")),
                   self.note(py.Return(call("STEP", name("st"), name("fr"))),
                             "a position inside a block: one instruction")]
        loop = py.While(const(True), blocks, [])
        fn = python.function_def(f"proc_{self.pid}", ["st", "fr", "called", "seat", "chosen"],
                                 head + [loop])
        comment = comment_text(proc.name) + (f" ({rules_place(proc.span)})" if proc.span
                                              else "")
        self.note(fn, comment)
        return fn

    def instruction(self, pc: int) -> list:
        proc, st = self.proc, self.stmts[pc]
        span = proc.spans[pc]
        span_ref = name(self.ref(span, "S")) if span is not None else const(None)
        n = len(proc.code)
        if st is None:
            ins = self.ref(proc.code[pc], "I")
            return self.inline_decision(proc.code[pc], pc, ins) + _filled(
                _BY_CLOSURE, NEXT=const(pc + 1), HERE=const(pc), INS=name(ins), SPAN=span_ref)
        if st.kind == "do":
            out: list = []
            for x in st.body:
                if type(x) is Goto:
                    then = list(x.then) + _goto(x.target, pc, span_ref)
                    out.append(py.If(x.test, then, []))
                else:
                    out.append(x)
            return out
        if st.kind == "jump":  # (the last of its block: the next one starts after it)
            return _goto(st.target, pc, span_ref, ends_block=True)
        if st.kind == "unless":  # (the last of its block, as a jump)
            out = list(st.body)  # the work its test spends first
            away = _goto(st.target, pc, span_ref, ends_block=True)
            on: list = [assign(name("pc"), const(pc + 1))] if st.target > pc else []
            if st.hands_memo:
                return out + self.test_handing_memo(st.cond, away, on)
            return out + [py.If(py.UnaryOp(py.Not(), st.cond), away, on)]
        if st.kind == "leave":
            out = [py.Assign([py.Subscript(name("fr"), const(1), py.Store())],
                             const(pc + 1))] + list(st.body)
            if st.calls is not None and pc + 1 < n:
                return out + _filled(_RUN_CALLED, PROC=name(f"proc_{st.calls}"))
            if st.returns:
                return out + _filled(_RESUME_UNDER)
            return out + [py.Return(const(None))]
        raise AssertionError(st.kind)

    def resumed(self) -> list:
        """Where the machine hands the procedure the option `chosen` by `seat` at the
        decision it waits at (Machine.run): the decision resumed (nodes.Resume, as the
        Python back end writes it: it sets `pc`); a secret choice (ask together, never
        logged when it is made) by its instruction's `choose`, which moves the frame; any
        other by the machine's own way (`Machine.resume_at`)."""
        proc = self.proc
        if not any(hasattr(ins, "choose") for ins in proc.code):
            return []  # no decision: never handed one
        cases: list = []
        for pc, ins in enumerate(proc.code):
            resume = getattr(ins, "resume_body", None)
            if resume is None and getattr(ins, "secret", False):
                resume = _filled(_CHOOSE, INS=name(self.ref(ins, "I")))
            if resume is not None:
                cases.append((pc, list(resume)))
        tail = _filled(_RESUME_AT)
        for pc, resume in reversed(cases):
            tail = [py.If(_pc_is(pc), resume, tail)]
        return [self.note(py.If(python.is_none(name("chosen"), negated=True), tail, []),
                          "a decision resumed at the option chosen")]

    def test_handing_memo(self, cond: py.expr, away: list, on: list) -> list:
        """The test before a decision (nodes.JumpUnless.hands_memo), read with the memo the
        decision's options go on with where it holds."""
        out = _filled(_HANDING_MEMO, COND=cond)
        self.note(out[0], "the decision's, from here")
        failed = [assign(python.state("memo"), const(None))]
        return out + [py.If(py.UnaryOp(py.Not(), name("_holds")), failed + away, on)]

    def inline_decision(self, ins, pc: int, ins_name: str) -> list:
        """A decision inline (Ask.__call__ without its calls): who decides, the options,
        and the game waits. Nobody to ask or no option: the statements after it run the
        instruction, which says why or declines."""
        if getattr(ins, "fast", None) is None or getattr(ins, "who_source", None) is None:
            return []
        body: list = list(getattr(ins, "bind_source", None) or ())  # ask together
        if getattr(ins, "memo_handed", False):
            pass  # the test's (test_handing_memo)
        elif getattr(ins, "memo_may_be_handed", False):
            body += [self.note(_filled(_MEMO_IF_NONE)[0],
                               "else a test before the call began it")]
        else:
            body += [self.note(_filled(_MEMO)[0],
                               "the state stands still: pure definitions are memoised")]
        body += _filled(_ASK, OPTIONS=self.options_call(ins), HERE=const(pc))
        if not ins.optional:
            body.append(py.Expr(python.method(name(ins_name), "no_option", name("_s"))))
        return [assign(name("_s"), ins.who_source),
                py.If(python.is_none(name("_s"), negated=True), body, [])]

    def options_call(self, ins) -> py.expr:
        """The call that lists a decision's options; in a program with sequences, only the
        first while a trial that stops at its bound asks (State.exploring, sequences.py)."""
        fast = call(self.ref(ins.fast, "O"), name("st"), name("L"))
        first = getattr(ins, "first", None)
        if first is None:
            return fast
        exploring = py.Attribute(name("st"), "exploring", py.Load())
        return python.if_else(
            python.both(python.is_none(exploring, negated=True), index(exploring, const(2))),
            call(self.ref(first, "O"), name("st"), name("L")), fast)


# After a call has pushed the frame of phase `pid`: its function run on that frame here,
# as Machine.run would run it next. The game waits at a decision in it: so does this
# procedure. It returned to this frame: this procedure goes on (its pc is the one after
# the call already; the next block starts there), else Machine.run carries on from the
# frames as they are (the game ended, or another call was pushed to run).
_RUN_CALLED = template("""
    if PROC(st, _F[-1], True, None, None) is not None:
        return True
    if not _F or _F[-1] is not fr:
        return None
""")
# After a return has taken the frames off (`_F`, the frames): a procedure another
# procedure's code ran at once (`called`) goes back into that code, which goes on
# (_RUN_CALLED). One Machine.run ran goes on with the frame now on top itself, as
# Machine.run would next: no trip through its loop. (A chain of such returns is as deep as
# the frames it takes off, at most the depth limit.)
_RESUME_UNDER = template("""
    if called or not _F:
        return None
    return st.prog.procs[_F[-1][0]].run(st, _F[-1], False, None, None)
""")
_CHOOSE = template("""
    INS.choose(st, fr, chosen)
    pc = fr[1]
""")
_RESUME_AT = template("""
    st.resume_at(fr, seat, chosen)
    pc = fr[1]
""")
_HANDING_MEMO = template("""
    st.memo = {}
    try:
        _holds = COND
    except BaseException:
        st.memo = None
        raise
""")
_MEMO_IF_NONE = template("""
    if st.memo is None:
        st.memo = {}
""")
_MEMO = template("""
    st.memo = {}
""")
_ASK = template("""
    try:
        _o = OPTIONS
    finally:
        st.memo = None
    if _o:
        st.pending = (_s, _o)
        fr[1] = HERE
        return True
""")


def step_one(st, fr):
    """Run the single instruction at the frame's pc by its closure, as the interpreter
    does; the machine then carries on from wherever that left the frames."""
    pc = fr[1]
    fr[1] = pc + 1
    r = st.prog.procs[fr[0]].code[pc](st, fr)
    if r is not None:
        fr[1] = pc
    return r


@attrs.frozen
class ProcsListing:
    """What `--show` needs of the procedures' module beside its text: the comments on its
    lines (line from 1 -> comment) and the rules' place a comment line goes before
    (line from 1 -> span), and the place the comment at a line's end names (line -> span)."""
    notes: dict
    before: dict
    placed: dict


def generate_procs(source) -> None:
    """Give every procedure of the compiled program its generated function (`source`:
    compile/source.py's Source, which holds the generated code's namespace)."""
    prog = source.p
    ns = source.ns
    ns.update({"LIMIT": prog.step_limit, "RUNAWAY": Runaway(prog), "STEP": step_one})
    for proc in prog.procs:
        for ins in proc.code:
            tree = getattr(ins, "tree", None)
            if tree is None:
                continue
            ins.tree = None  # kept only for this
            if prog.sequences:
                ins.first = source.generated_function(
                    first_option_only(tree),
                    f"the first option of the decision at {rules_place(ins.span)}", ins.span)
    made_procs = []
    for pid, proc in enumerate(prog.procs):
        stmts = [s if s is not None and s.closure is ins else None
                 for ins, s in zip(proc.code, getattr(proc, "stmts", None) or
                                   [None] * len(proc.code))]
        made_procs.append(_Proc(pid, proc, stmts, source.ref))
    fill_pads(source.pads, prog, ns)
    module = py.Module([p.fn for p in made_procs], [])
    try:
        made = source.materialize(module, "procs")  # (laid out there)
    except (SyntaxError, RecursionError, MemoryError):  # rules nested past what Python
        return  # compiles: the closures run them, as they would without generation
    owners: dict = {}  # line of the module (from 1) -> pc
    before: dict = {}  # line of the module -> the rules' span to name on a line before it
    notes: dict = {}  # line of the module -> a comment at its end
    placed: dict = {}  # line of the module -> the rules' span its comment names
    for p in made_procs:
        for pc, block, at, count in p.owned:
            if count:
                first, last = block[at].lineno, block[at + count - 1].end_lineno
                owners.update((line, pc) for line in range(first, last + 1))
                span = p.proc.spans[pc]
                if span is not None:
                    before[first] = span
        notes.update((stmt.lineno, comment) for stmt, comment in p.notes)
        if p.proc.span is not None:
            placed[p.fn.lineno] = p.proc.span
    ns.update(made)
    for pid, proc in enumerate(prog.procs):
        proc.run = made[f"proc_{pid}"]
        proc.owner_lines = owners
    procs_listing = ProcsListing(notes, before, placed)
    listed = source.listing
    if not listed.show:
        prog.generated, prog.generated_places = listing(
            prog, listed.listed(), source.pieces[-1][1], procs_listing)
        return
    names = ShowNames(prog, set(ns))  # every name the code binds is known now
    names.proc_frames = listed.proc_frames
    parts = listed.listed(names)
    procs_text = py.unparse(names.renamed(module, ()))
    prog.generated, prog.generated_places = listing(prog, parts, procs_text, procs_listing,
                                                    names.legend())


def pad_name(pads: set, pid, nargs: int) -> str:
    """The name of the padding that makes a call's `nargs` arguments the locals of phase
    `pid` (an int), or of whichever phase a call by table names (`pid` None: a list by
    phase). Noted in `pads`: the phases' sizes are known once every phase is compiled
    (fill_pads)."""
    pads.add((pid, nargs))
    return f"PAD{pid}_{nargs}" if pid is not None else f"PADS_{nargs}"


def fill_pads(pads: set, prog, ns: dict) -> None:
    """Bind the paddings the generated calls named, now every phase's size is known."""
    def pad(proc, nargs):
        return [None] * max(0, proc.nslots - nargs)
    for pid, nargs in pads:
        ns[pad_name(set(), pid, nargs)] = pad(prog.procs[pid], nargs) if pid is not None \
            else [pad(proc, nargs) for proc in prog.procs]


def listing(prog, parts: list, procs_text: str, procs: ProcsListing,
            legend: Optional[list] = None) -> tuple:
    """The whole generated program as one readable text (`rulesdsl compile --show`), and
    {line number from 0: the span of the rules a comment on that line names}, for
    `annotate`. `procs_text`: the procedures' module as `ast.unparse` writes it, its
    comments placed by `procs`. `legend`: where the texts name the rules' zones and
    variables (show.py), those names bound to their numbers, for the header."""
    out = [f'# {comment_text(prog.title)}, {int(prog.nplayers)} players: generated by '
           'rulesdsl from the rules.',
           "# st: the state (zones, loc, vars, events); fr: the frame [proc, pc, locals,",
           "# is_effect]; L: its locals. Kn, In: closures and instructions the compiler",
           "# kept; <FIELD>_OF_CARD: a card field per card id; LINE_<n>, S<n>: places in",
           "# the rules; En: an expression, its locals and variables named as the rules",
           "# name them (written inline elsewhere, over L).", ""]
    if legend is not None:
        out[-1:] = ["# Listed with the rules' names where the code reads numbers: L[name] is",
                    "# the frame's local of that name (L[k] left a number: the compiler's",
                    "# own); st.zones[NAME] and st.vars[NAME] the zone or variable, NAME + k",
                    "# the k-th of a family (by seat, by enum value). Their numbers:",
                    *legend, ""]
    places = {}
    for name_, span, text, placed in parts:
        if text.startswith("def "):
            if span is not None:  # a line of the function, counted from its title's
                places[len(out) + placed] = span
            out += [f"# {comment_text(name_)}", *text.split("\n"), ""]
        else:
            if span is not None:
                places[len(out) + text.count("\n")] = span
                text += f"  # {rules_place(span)}"
            out += f"{name_} = {text}".split("\n")
    out.append("")
    for i, line in enumerate(procs_text.split("\n"), 1):
        span = procs.before.get(i)
        if span is not None:  # the rules' line its statements come from, above them
            places[len(out)] = span
            out.append(f"{line[:len(line) - len(line.lstrip())]}# {rules_place(span)}")
        note = procs.notes.get(i)
        if note is not None:
            if i in procs.placed:
                places[len(out)] = procs.placed[i]
            line += f"  # {note}"
        out.append(line)
    return "\n".join(out + [""]), places


def annotate(prog, sources: dict) -> str:
    """The generated listing with each comment that names a line of the rules followed by
    that line's text."""
    lines_of = {os.path.basename(path): src.splitlines() for path, src in sources.items()}
    out = prog.generated.split("\n")
    for i, span in prog.generated_places.items():
        rules = lines_of.get(os.path.basename(span.path)) or []
        said = rules[span.line - 1].strip() if 0 < span.line <= len(rules) else ""
        if said:
            out[i] += f"  {said}"
    return "\n".join(out)


def summary(prog) -> str:
    """One paragraph on what was generated for a program (`rulesdsl compile GAME`)."""
    total = sum(len(proc.code) for proc in prog.procs)
    inline = sum(1 for proc in prog.procs for st in proc.stmts if st is not None)
    lines = len(prog.generated.splitlines())
    if not prog.generated:
        return f"{prog.title}, {prog.nplayers} players: run by closures, nothing generated."
    return (f"{prog.title}, {prog.nplayers} players: {len(prog.procs)} procedures, "
            f"{inline} of {total} instructions as inline Python, {lines} lines generated "
            f"(rulesdsl compile --show prints them).")
