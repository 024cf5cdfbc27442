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
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Optional

import attrs

from rulesdsl.engine.ir import python
from rulesdsl.engine.ir.python_options import first_option_only
from rulesdsl.engine.runtime.errors import runaway
from rulesdsl.engine.runtime.places import comment_text, rules_place

INDENT = " " * 12  # a statement inside `while True:` / `if pc == k:`


@lru_cache(maxsize=8192)
def compiled(text: str, mode: str = "eval"):
    """The code object of a generated text: loading a game twice compiles it once."""
    return compile(text, "<rulesdsl generated>", mode)


@attrs.define
class Statement:
    """An instruction's source form. kind:
    - "do": `lines` run and fall through to the next instruction;
    - "jump": go to `target`;
    - "unless": `lines` run (the work its test spends first), then if `cond` is false
      go to `target`, else fall through;
    - "leave": `lines` change the frames (a call, a return, the end): the function returns.
    Lines may hold a `Goto` as a statement of its own: go to its instruction."""
    kind: str
    lines: tuple = ()
    cond: Optional[str] = None
    target: Optional[int] = None
    closure: object = None  # the instruction it stands for: replaced instructions fall back
    hands_memo: bool = False  # "unless" before a decision: its test reads the decision's memo
    # "leave" that pushes the frame of this phase (its number): the phase is run at once,
    # here, and the procedure goes on after it where it returns without waiting
    calls: Optional[int] = None
    # "leave" that returns from the procedure: run by Machine.run, it goes on with the
    # frame under it itself (`_resume_under`)
    returns: bool = False


@attrs.frozen
class Goto:
    """A line of a statement that goes to instruction `target`, indented by `pad` under the
    statement's own lines: kept as data, so the blocks it starts are found without reading
    text."""
    target: int
    pad: str = ""


class Runaway:
    """The step limit inside generated code: a loop that never asks anyone ends with R003."""

    def __init__(self, prog):
        self.prog = prog

    def __call__(self, span):
        runaway(self.prog.step_limit, span)


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
        starts.update(line.target for line in st.lines if type(line) is Goto)
        if st.kind in ("leave", "unless", "jump"):
            starts.add(pc + 1)
    return sorted(k for k in starts if 0 <= k < n)


def _goto(target: int, here: int, span_ref: str, pad: str, ends_block: bool = False) -> list:
    """Go to `target`; a jump backwards counts the instructions it repeats toward the
    step limit (as the interpreter counts them, one per instruction). A jump forwards
    that ends its block (`ends_block`) falls through the blocks before its target, each
    of which tests `pc` and is passed over, rather than testing them all from the first."""
    out = []
    if target <= here:
        out += [f"{pad}jumps += {here - target + 1}",
                f"{pad}if jumps > LIMIT:",
                f"{pad}    RUNAWAY({span_ref})"]
    elif ends_block:
        return [f"{pad}pc = {target}"]
    return out + [f"{pad}pc = {target}", f"{pad}continue"]


def proc_source(pid: int, proc, stmts: list, ref) -> tuple:
    """The generated function of one procedure: (name, lines, {line offset: pc},
    {line offset: the span of the rules its comment names})."""
    name = f"proc_{pid}"
    lines = [f"def {name}(st, fr, called, seat, chosen):  # {comment_text(proc.name)}" +
             (f" ({rules_place(proc.span)})" if proc.span else ""),
             "    L = fr[2]",
             "    pc = fr[1]",
             "    jumps = 0",
             *_resumed(proc, ref),
             "    while True:"]
    where = {}
    places = {0: proc.span} if proc.span else {}
    leaders = _leaders(proc, stmts)
    n = len(proc.code)
    for b, start in enumerate(leaders):
        end = leaders[b + 1] if b + 1 < len(leaders) else n
        lines.append(f"        if pc == {start}:")
        for pc in range(start, end):
            st = stmts[pc]
            span = proc.spans[pc]
            span_ref = ref(span, "S") if span is not None else "None"
            if span is not None:
                places[len(lines)] = span
                lines.append(f"{INDENT}# {rules_place(span)}")
            first = len(lines)
            if st is None:
                ins = ref(proc.code[pc], "I")
                lines += _inline_decision(proc.code[pc], pc, ins, ref)
                lines += [f"{INDENT}fr[1] = {pc + 1}",
                          f"{INDENT}if {ins}(st, fr) is not None:",
                          f"{INDENT}    fr[1] = {pc}",
                          f"{INDENT}    return True",
                          f"{INDENT}F = st.frames",
                          f"{INDENT}if not F or F[-1] is not fr:",
                          f"{INDENT}    return None",
                          f"{INDENT}if fr[1] != {pc + 1}:",
                          f"{INDENT}    jumps += 1",
                          f"{INDENT}    if jumps > LIMIT:",
                          f"{INDENT}        RUNAWAY({span_ref})",
                          f"{INDENT}    pc = fr[1]",
                          f"{INDENT}    continue"]
            elif st.kind == "do":
                for line in st.lines:
                    if type(line) is Goto:
                        lines += _goto(line.target, pc, span_ref, INDENT + line.pad)
                    else:
                        lines.append(INDENT + line)
            elif st.kind == "jump":  # (the last of its block: the next one starts after it)
                lines += _goto(st.target, pc, span_ref, INDENT, ends_block=True)
            elif st.kind == "unless":  # (the last of its block, as a jump)
                lines += [INDENT + line for line in st.lines]  # the work its test spends
                lines += [INDENT + line for line in _test_handing_memo(st.cond)] \
                    if st.hands_memo else [f"{INDENT}if not {st.cond}:"]
                lines += _goto(st.target, pc, span_ref, INDENT + "    ", ends_block=True)
                if st.target > pc:  # on below, at the next block or the target's
                    lines += [f"{INDENT}else:", f"{INDENT}    pc = {pc + 1}"]
            elif st.kind == "leave":
                lines.append(f"{INDENT}fr[1] = {pc + 1}")
                lines += [INDENT + line for line in st.lines]
                if st.calls is not None and pc + 1 < n:
                    lines += _run_called(st.calls)
                elif st.returns:
                    lines += _resume_under()
                else:
                    lines.append(f"{INDENT}return None")
            else:
                raise AssertionError(st.kind)
            for i in range(first, len(lines)):
                where[i] = pc
        last = stmts[end - 1] if end > start else None
        falls = last is None or last.kind == "do" or \
            (last.kind == "unless" and last.target <= end - 1) or \
            (last.kind == "leave" and last.calls is not None)
        if falls and end < n:
            lines.append(f"{INDENT}pc = {end}")  # on into the next block
    lines += ["        fr[1] = pc",
              "        return STEP(st, fr)  # a position inside a block: one instruction"]
    return name, lines, where, places


def _resumed(proc, ref) -> list:
    """Where the machine hands the procedure the option `chosen` by `seat` at the decision
    it waits at (Machine.run): the decision resumed (nodes.Resume, as the Python back end
    writes it: it sets `pc`); a secret choice (ask together, never logged when it is made)
    by its instruction's `choose`, which moves the frame; any other by the machine's own
    way (`Machine.resume_at`)."""
    if not any(hasattr(ins, "choose") for ins in proc.code):
        return []  # no decision: never handed one
    out, word = ["    if chosen is not None:  # a decision resumed at the option chosen"], "if"
    for pc, ins in enumerate(proc.code):
        resume = getattr(ins, "resume_lines", None)
        if resume is None and getattr(ins, "secret", False):
            resume = (f"{ref(ins, 'I')}.choose(st, fr, chosen)", "pc = fr[1]")
        if resume is None:
            continue
        out.append(f"        {word} pc == {pc}:")
        out += [INDENT + line for line in resume]
        word = "elif"
    fallback = ["st.resume_at(fr, seat, chosen)", "pc = fr[1]"]
    if word == "if":
        return out + ["        " + line for line in fallback]
    return out + ["        else:"] + [INDENT + line for line in fallback]


def _run_called(pid: int) -> list:
    """After a call has pushed the frame of phase `pid`: its function run on that frame
    here, as Machine.run would run it next. The game waits at a decision in it: so does
    this procedure. It returned to this frame: this procedure goes on (its pc is the one
    after the call already; the next block starts there), else Machine.run carries on
    from the frames as they are (the game ended, or another call was pushed to run)."""
    return [f"{INDENT}if proc_{pid}(st, _F[-1], True, None, None) is not None:",
            f"{INDENT}    return True",
            f"{INDENT}if not _F or _F[-1] is not fr:",
            f"{INDENT}    return None"]


def _resume_under() -> list:
    """After a return has taken the frames off (`_F`, the frames): a procedure another
    procedure's code ran at once (`called`) goes back into that code, which goes on
    (`_run_called`). One Machine.run ran goes on with the frame now on top itself, as
    Machine.run would next: no trip through its loop. (A chain of such returns is as deep
    as the frames it takes off, at most the depth limit.)"""
    return [f"{INDENT}if called or not _F:",
            f"{INDENT}    return None",
            f"{INDENT}return st.prog.procs[_F[-1][0]].run(st, _F[-1], False, None, None)"]


def _test_handing_memo(cond: str) -> list:
    """The test before a decision (nodes.JumpUnless.hands_memo), read with the memo the
    decision's options go on with where it holds; the lines end in `if not ...:`."""
    return ["st.memo = {}  # the decision's, from here",
            "try:",
            f"    _holds = {cond}",
            "except BaseException:",
            "    st.memo = None",
            "    raise",
            "if not _holds:",
            "    st.memo = None"]


def _inline_decision(ins, pc: int, name: str, ref) -> list:
    """A decision as lines (Ask.__call__ without its calls): who decides, the options, and
    the game waits. Nobody to ask or no option: the lines after it run the instruction,
    which says why or declines."""
    if getattr(ins, "fast", None) is None or getattr(ins, "who_source", None) is None:
        return []
    bind = getattr(ins, "bind_source", None)  # ask together: the player's name first
    lines = [f"_s = {ins.who_source}",
             "if _s is not None:"] + ([f"    {bind}"] if bind else []) + [
             *([] if getattr(ins, "memo_handed", False) else  # the test's (_test_handing_memo)
               ["    if st.memo is None:  # else a test before the call began it",
                "        st.memo = {}"] if getattr(ins, "memo_may_be_handed", False) else
               ["    st.memo = {}  # the state stands still: pure definitions are memoised"]),
             "    try:",
             f"        _o = {_options_call(ins, ref)}",
             "    finally:",
             "        st.memo = None",
             "    if _o:",
             "        st.pending = (_s, _o)",
             f"        fr[1] = {pc}",
             "        return True"]
    if not ins.optional:
        lines.append(f"    {name}.no_option(_s)")
    return [INDENT + line for line in lines]


def _options_call(ins, ref) -> str:
    """The call that lists a decision's options; in a program with sequences, only the
    first while a trial that stops at its bound asks (State.exploring, sequences.py)."""
    fast = f"{ref(ins.fast, 'O')}(st, L)"
    first = getattr(ins, "first", None)
    if first is None:
        return fast
    return f"{ref(first, 'O')}(st, L) if st.exploring is not None and st.exploring[2] else {fast}"


def step_one(st, fr):
    """Run the single instruction at the frame's pc by its closure, as the interpreter
    does; the machine then carries on from wherever that left the frames."""
    pc = fr[1]
    fr[1] = pc + 1
    r = st.prog.procs[fr[0]].code[pc](st, fr)
    if r is not None:
        fr[1] = pc
    return r


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
                    python.text(first_option_only(tree).body),
                    f"the first option of the decision at {rules_place(ins.span)}", ins.span)
    text: list = []  # every procedure's lines
    owners: dict = {}  # line of the module (from 1) -> pc
    places: dict = {}  # line of `text` (from 0) -> the rules' span its comment names
    for pid, proc in enumerate(prog.procs):
        stmts = [s if s is not None and s.closure is ins else None
                 for ins, s in zip(proc.code, getattr(proc, "stmts", None) or
                                   [None] * len(proc.code))]
        name, lines, where, comments = proc_source(pid, proc, stmts, source.ref)
        offset = len(text) + 1  # line numbers of the module count from 1
        for i, pc in where.items():
            owners[offset + i] = pc
        places.update((len(text) + i, span) for i, span in comments.items())
        text += lines + [""]
    fill_pads(source.pads, prog, ns)
    try:
        made = source.materialize("\n".join(text), "procs")
    except (SyntaxError, RecursionError, MemoryError):  # rules nested past what Python
        return  # compiles: the closures run them, as they would without generation
    ns.update(made)
    for pid, proc in enumerate(prog.procs):
        proc.run = made[f"proc_{pid}"]
        proc.owner_lines = owners
    prog.generated, prog.generated_places = listing(prog, source.generated, text, places)


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


def listing(prog, parts: list, procs: list, procs_places: dict) -> tuple:
    """The whole generated program as one readable text (`rulesdsl compile --show`), and
    {line number from 0: the span of the rules a comment on that line names}, for
    `annotate`. `procs`: the procedures' lines, with their own such places."""
    out = [f'# {comment_text(prog.title)}, {int(prog.nplayers)} players: generated by '
           'rulesdsl from the rules.',
           "# st: the state (zones, loc, vars, events); fr: the frame [proc, pc, locals,",
           "# is_effect]; L: its locals. Kn, In: closures and instructions the compiler",
           "# kept; <FIELD>_OF_CARD: a card field per card id; LINE_<n>, S<n>: places in",
           "# the rules; En: an expression, its locals and variables named as the rules",
           "# name them (written inline elsewhere, over L).", ""]
    places = {}
    for name, span, text, placed in parts:
        if text.startswith("def "):
            if span is not None:  # a line of the function, counted from its title's
                places[len(out) + placed] = span
            out += [f"# {comment_text(name)}", *text.split("\n"), ""]
        else:
            if span is not None:
                places[len(out) + text.count("\n")] = span
                text += f"  # {rules_place(span)}"
            out += f"{name} = {text}".split("\n")
    out.append("")
    places.update((len(out) + i, span) for i, span in procs_places.items())
    return "\n".join(out + procs), places


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
