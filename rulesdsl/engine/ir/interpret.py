"""The reference back end: each node made once into a closure `f(st, L)` over the state and
the frame's locals, which computes the node's value each time it is called (what
RULESDSL_ENGINE=closures runs, and what the generated code falls back to)."""

from __future__ import annotations

import operator
from typing import Any, Callable, Protocol

from rulesdsl.engine.hoist import MISSING
from rulesdsl.engine.ir import nodes as n
from rulesdsl.engine.pieces import reveal_pieces
from rulesdsl.engine.recursion import recursive_call
from rulesdsl.engine.runtime import errors
from rulesdsl.engine.runtime.cards import MASK, moves_cost, pile_cards, told
from rulesdsl.engine.runtime.numbers import MAX_INT, checked, range_list, too_big
from rulesdsl.engine.runtime.options import by_position, unique_label
from rulesdsl.engine.together import bind_tuple

Closure = Callable[[Any, Any], Any]

_OPS = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge,
        "+": operator.add, "-": operator.sub, "*": operator.mul}


class Host(Protocol):
    """What the interpreter asks of the compiler."""
    b: Any  # the program's work budget

    def expr(self, e: Any) -> Closure:
        """The closure of a checked expression not lowered yet (an Opaque node)."""

    def closure_part(self, node: n.Node) -> Closure:
        """The closure of a part of a node (the interpreter's, or generated)."""

    def frame_part(self, node: n.Node) -> Closure:
        """The closure of a part of a definition (its value, a modifier's): compiled on a
        frame of its own, with no loop of the caller open."""

    @property
    def definitions(self) -> dict:
        """Definitions' compiled parts by name ((value, modifiers) closures; None while
        one is being compiled: a call from inside it recurses), shared by every compiler
        of one program."""


class Interpreter:
    def __init__(self, host: Host):
        self.host = host

    def closure(self, node: n.Node) -> Closure:
        return getattr(self, "c_" + type(node).__name__)(node)

    def part(self, node: n.Node) -> Closure:
        """The closure of a node's part: the host's choice (generated code where the
        program is generated)."""
        return self.host.closure_part(node)

    # ------------------------------------------------------------------ leaves
    def c_Const(self, node: n.Const) -> Closure:
        v = node.value
        return lambda st, L: v

    c_Table = c_Const

    def c_Local(self, node: n.Local) -> Closure:
        slot = node.slot
        return lambda st, L: L[slot]

    def c_Var(self, node: n.Var) -> Closure:
        i = node.index
        return lambda st, L: st.vars[i]

    def c_Opaque(self, node: n.Opaque) -> Closure:
        return self.host.expr(node.source)

    # ------------------------------------------------------------------ definitions
    def c_DefCall(self, node: n.DefCall) -> Closure:
        """A call of a definition: its arguments onto a fresh frame, then its value, then
        each modifier in turn. Each call spends its unit of work inline (no extra call): a
        chain of definitions can call each other 3^40 times in one step. A pure one is
        remembered while a decision's options are computed (memo_call)."""
        d = node.definition
        args = [self.part(a) for a in node.args]
        cache = self.host.definitions
        if d.name in cache and cache[d.name] is None:  # a call from inside its own body
            return recursive_call(cache, d.name, args, d.span)
        if d.name not in cache:
            cache[d.name] = None  # placeholder while compiling: a call from the body recurses
            body = self.host.frame_part(d.body)
            mods = [(self.host.frame_part(cond), self.host.frame_part(then))
                    for cond, then in d.modifiers]
            k = len(d.params)

            def value(st, env):  # the body, then each modifier that holds, on a filled frame
                v = body(st, env)
                for cond, then in mods:
                    env[k] = v
                    if cond(st, env):
                        v = then(st, env)
                return v
            cache[d.name] = (value, d.size)
        value, size = cache[d.name]
        b, unit, span = self.host.b, d.unit, node.span or d.span

        def call(st, L):
            b.spend(unit, span)
            env = [None] * size
            for i, a in enumerate(args):
                env[i] = a(st, L)
            return value(st, env)
        if not d.memo:
            return call

        def invoke(st, values):
            b.spend(unit, span)  # as a call outside options spends (and the generated code)
            env = [None] * size
            env[:len(values)] = values
            return value(st, env)
        return memo_call(d.name, args, call, invoke)

    # ------------------------------------------------------------------ reads
    def c_Instance(self, node: n.Instance) -> Closure:
        base, sizes, name, span = node.base, node.sizes, node.name, node.span
        keys = [self.part(k) for k in node.keys]
        if len(keys) == 1:
            a, size0 = keys[0], sizes[0]

            def one(st, L):
                k = a(st, L)
                if k is None or not 0 <= k < size0:
                    errors.bad_index(name, k, span)
                return base + k
            return one
        strides = n.strides(sizes)

        def many(st, L):
            i = base
            for f, stride, size in zip(keys, strides, sizes):
                k = f(st, L)
                if k is None or not 0 <= k < size:
                    errors.bad_indexes(name, span)
                i += k * stride
            return i
        return many

    def c_VarAt(self, node: n.VarAt) -> Closure:
        idx = self.part(node.at)
        return lambda st, L: st.vars[idx(st, L)]

    def c_Pile(self, node: n.Pile) -> Closure:
        z = self.part(node.zone)
        return lambda st, L: st.zones[z(st, L)]

    def c_Item(self, node: n.Item) -> Closure:
        src, i, span = self.part(node.seq), self.part(node.key), node.span

        def item(st, L):
            seq = src(st, L)
            k = i(st, L)
            if not -len(seq) <= k < len(seq):
                errors.bad_item(k, seq, span)
            return seq[k]
        return item

    def c_Field(self, node: n.Field) -> Closure:
        values, name, span = node.table, node.name, node.span
        fail = errors.none_field if node.of == "card" else errors.none_enum_field
        if isinstance(node.obj, n.Local):  # no closure call for the usual `c.suit`
            slot = node.obj.slot

            def local_field(st, L):
                c = L[slot]
                if c is None:
                    fail(name, span)
                return values[c]
            return local_field
        obj = self.part(node.obj)

        def field(st, L):
            c = obj(st, L)
            if c is None:
                fail(name, span)
            return values[c]
        return field

    def c_PieceField(self, node: n.PieceField) -> Closure:
        obj, base, name, span = self.part(node.obj), node.base, node.name, node.span

        def read(st, L):
            c = obj(st, L)
            if c is None:
                errors.none_field(name, span, "piece")
            return st.vars[base + c]
        return read

    # ------------------------------------------------------------------ operators
    def c_Not(self, node: n.Not) -> Closure:
        f = self.part(node.operand)
        return lambda st, L: not f(st, L)

    def c_Neg(self, node: n.Neg) -> Closure:
        f = self.part(node.operand)
        return lambda st, L: -f(st, L)

    def c_Logic(self, node: n.Logic) -> Closure:
        a, b = self.part(node.left), self.part(node.right)
        if node.op == "and":
            return lambda st, L: a(st, L) and b(st, L)
        return lambda st, L: a(st, L) or b(st, L)

    def c_Equal(self, node: n.Equal) -> Closure:
        """No closure call for a constant or a local side (`x == 3`, `c == led`)."""
        left, right = node.left, node.right
        if _simple(left) and not _simple(right):
            left, right = right, left
        a = self.part(left)
        if isinstance(right, n.Const):
            v = right.value
            if node.op == "==":
                return lambda st, L: a(st, L) == v
            return lambda st, L: a(st, L) != v
        if isinstance(right, n.Local):
            slot = right.slot
            if node.op == "==":
                return lambda st, L: a(st, L) == L[slot]
            return lambda st, L: a(st, L) != L[slot]
        b = self.part(right)
        if node.op == "==":
            return lambda st, L: a(st, L) == b(st, L)
        return lambda st, L: a(st, L) != b(st, L)

    def c_Compare(self, node: n.Compare) -> Closure:
        a, b = self.part(node.left), self.part(node.right)
        fn, op, span = _OPS[node.op], node.op, node.span

        def compare(st, L):
            x, y = a(st, L), b(st, L)
            if x is None or y is None:
                errors.none_operand(op, span)
            return fn(x, y)
        return compare

    def c_Arith(self, node: n.Arith) -> Closure:
        a, b = self.part(node.left), self.part(node.right)
        fn, op, span = _OPS[node.op], node.op, node.span

        def checked(st, L):
            x, y = a(st, L), b(st, L)
            if x is None or y is None:
                errors.none_operand(op, span)
            v = fn(x, y)
            # repeated doubling must stop here, not grow until memory runs out
            if type(v) is int and not -MAX_INT <= v <= MAX_INT:
                too_big(span)
            return v
        return checked

    def c_Divide(self, node: n.Divide) -> Closure:
        a, b = self.part(node.left), self.part(node.right)
        op, span = node.op, node.span

        def div(st, L):
            x, y = a(st, L), b(st, L)
            if not y:
                errors.by_zero(op, span)
            return x // y if op == "/" else x % y
        return div

    def c_Join(self, node: n.Join) -> Closure:
        sa, sb, span, budget = self.part(node.left), self.part(node.right), node.span, \
            self.host.b
        return lambda st, L: budget.check_list(list(sa(st, L)) + list(sb(st, L)), span)

    def c_IfElse(self, node: n.IfElse) -> Closure:
        c, a, b = self.part(node.cond), self.part(node.then), self.part(node.else_)
        return lambda st, L: a(st, L) if c(st, L) else b(st, L)

    def c_IsKind(self, node: n.IsKind) -> Closure:
        f, members = self.part(node.operand), node.members
        if node.negated:
            return lambda st, L: (lambda c: c is None or not members[c])(f(st, L))
        return lambda st, L: (lambda c: c is not None and members[c])(f(st, L))

    def c_Let(self, node: n.Let) -> Closure:
        slot, value, body = node.slot, self.part(node.value), self.part(node.body)

        def let_in(st, L):
            L[slot] = value(st, L)
            return body(st, L)
        return let_in

    def c_Bind(self, node: n.Bind) -> Closure:
        """The value into its temporary, then the body; the temporary is as it was after
        (a call of the same closure inside the value or the body, a recursion, has one of
        its own)."""
        cell, value, body = node.cell, self.part(node.value), self.part(node.body)

        def bind(st, L):
            v = value(st, L)
            old, cell[0] = cell[0], v
            try:
                return body(st, L)
            finally:
                cell[0] = old
        return bind

    def c_Temp(self, node: n.Temp) -> Closure:
        cell = node.cell
        return lambda st, L: cell[0]

    def c_ListOf(self, node: n.ListOf) -> Closure:
        items = [self.part(i) for i in node.items]
        return lambda st, L: [f(st, L) for f in items]

    def c_Range(self, node: n.Range) -> Closure:
        a, b, step = self.part(node.start), self.part(node.stop), self.part(node.step)
        span, budget = node.span, self.host.b
        return lambda st, L: range_list(a(st, L), b(st, L), step(st, L), budget, span)

    def c_IsIn(self, node: n.IsIn) -> Closure:
        """The list's length is spent each time it is searched; the element first."""
        f, src, span, budget = self.part(node.element), self.part(node.collection), \
            node.span, self.host.b

        def is_in(st, L):
            x = f(st, L)
            s = src(st, L)
            budget.spend(len(s), span)
            return x in s

        def is_not_in(st, L):
            x = f(st, L)
            s = src(st, L)
            budget.spend(len(s), span)
            return x not in s
        return is_not_in if node.negated else is_in

    # ------------------------------------------------------------------ built-in calls
    def c_Others(self, node: n.Others) -> Closure:
        f, seats = self.part(node.operand), node.seats
        return lambda st, L: (lambda p: [(p + i) % seats for i in range(1, seats)])(f(st, L))

    def c_NextSeat(self, node: n.NextSeat) -> Closure:
        f, d, seats, name, span = self.part(node.operand), node.step, node.seats, \
            node.name, node.span

        def step(st, L):
            p = f(st, L)
            if p is None:
                errors.none_call(name, span)
            return (p + d) % seats
        return step

    def c_Seat(self, node: n.Seat) -> Closure:
        f, seats, span = self.part(node.operand), node.seats, node.span

        def seat(st, L):
            k = f(st, L)
            if not 0 <= k < seats:
                errors.no_seat(k, seats, span)
            return k
        return seat

    def c_Size(self, node: n.Size) -> Closure:
        src = self.part(node.of)
        return lambda st, L: len(src(st, L))

    def c_End(self, node: n.End) -> Closure:
        pile, i = self.part(node.pile), node.index
        return lambda st, L: (lambda s: s[i] if s else None)(pile(st, L))

    def c_Run(self, node: n.Run) -> Closure:
        """The cells that meet, in one loop: up to the first that does not (a prefix, and
        `all`), each (a `where`'s count), or up to the first that does (`any`)."""
        cells, want, base, same = self.part(node.cells), self.part(node.want), node.base, \
            node.same
        prefix, gives, budget, span = node.prefix, node.gives, self.host.b, node.span
        upto = prefix or gives == "all"

        def run(st, L):
            s = cells(st, L)
            met = []
            if s:
                w, values = want(st, L), st.vars
                for x in s:
                    if (values[base + x] == w) == same:
                        met.append(x)
                        if gives == "any":
                            break
                    elif upto:
                        break
            if gives == "cells":
                return met
            if gives == "any":
                return bool(met)
            if gives == "all":
                return len(met) == len(s)
            if prefix:
                budget.spend(len(met), span)
            return len(met)
        return run

    def c_Aggregate(self, node: n.Aggregate) -> Closure:
        """The elements one by one, each bound to the node's slot: the list's length
        spent first (not for a prefix), the where and the value read per element."""
        src = self.part(node.items)
        where = self.part(node.where) if node.where is not None else None
        value = self.part(node.value) if node.value is not None else None
        slot, gives, b, span = node.slot, node.gives, self.host.b, node.span
        if gives == "prefix":
            assert where is not None

            def prefix(st, L):
                out = []
                for x in src(st, L):
                    L[slot] = x
                    if not where(st, L):
                        break
                    out.append(x)
                return out
            return prefix
        if where is None and value is None:  # the whole list, its length spent
            whole = _WHOLE[gives]

            def plain(st, L):
                s = src(st, L)
                b.spend(len(s), span)
                return whole(s)
            return plain
        if gives == "all" and where is not None and value is None:
            def all_(st, L):  # all(x in L where cond): every element meets the condition
                s = src(st, L)
                b.spend(len(s), span)
                for x in s:
                    L[slot] = x
                    if not where(st, L):
                        return False
                return True
            return all_
        if gives == "any" and value is None:
            def any_(st, L):
                s = src(st, L)
                b.spend(len(s), span)
                for x in s:
                    L[slot] = x
                    if where is None or where(st, L):
                        return True
                return False
            return any_
        if gives == "count" and where is not None:  # (a value alone: counted as a list)
            def count(st, L):
                n = 0
                s = src(st, L)
                b.spend(len(s), span)
                for x in s:
                    L[slot] = x
                    if where(st, L):
                        n += 1
                return n
            return count
        if gives == "first":
            def first(st, L):
                s = src(st, L)
                b.spend(len(s), span)
                for x in s:
                    L[slot] = x
                    if where is None or where(st, L):
                        return x if value is None else value(st, L)
                return None
            return first
        if gives == "list":
            def comp(st, L):
                out = []
                s = src(st, L)
                b.spend(len(s), span)
                for x in s:
                    L[slot] = x
                    if where is None or where(st, L):
                        out.append(x if value is None else value(st, L))
                return out
            return comp

        def values(st, L):
            s = src(st, L)
            b.spend(len(s), span)
            for x in s:
                L[slot] = x
                if where is None or where(st, L):
                    yield x if value is None else value(st, L)
        if gives == "any":  # the values until one holds
            return lambda st, L: any(values(st, L))
        whole = _WHOLE[gives]
        return lambda st, L: whole(list(values(st, L)))

    def c_Shown(self, node: n.Shown) -> Closure:
        f, of, label, names = self.part(node.value), node.of, node.labeller, node.names
        if names is None:
            return lambda st, L: label(of, f(st, L), st)
        return lambda st, L: (lambda v: "none" if v is None else names[v])(f(st, L))

    def c_SeatWords(self, node: n.SeatWords) -> Closure:
        """Each hole's words and readers taken once: the same for every seat and the
        full words."""
        parts = [(None, p, None) if isinstance(p, str) else
                 (self.part(p.shown), p.mask, self.readers(p.readers, node.seats))
                 for p in node.parts]
        b, span, everyone = self.host.b, node.span, range(node.seats)

        def render(st, L):
            full: list[str] = []
            by_seat: list[list[str]] = [[] for _ in everyone]
            for words, hidden, readers in parts:
                if words is None:
                    shown = hidden
                    who: Any = everyone
                else:
                    shown = words(st, L)
                    who = everyone if readers is None else readers(st, L)
                full.append(shown)
                for seat, said in enumerate(by_seat):
                    said.append(shown if seat in who else hidden)
            text = "".join(full)
            if len(text) > b.text_length:
                text = b.check_text(text, span)
            return text, tuple("".join(said) for said in by_seat)
        return render

    def readers(self, readers: Any, seats: int) -> Any:
        """A closure `(st, L) -> the seats that may read a hole` (Hole.readers), or None
        where every seat may."""
        if readers is None:
            return None
        if not readers:
            return lambda st, L: ()
        owners = [(self.part(owner), others) for owner, others in readers]
        everyone = frozenset(range(seats))

        def who(st, L):
            may = everyone
            for owner, others in owners:
                seat = owner(st, L)
                may = may - {seat} if others else may & {seat}
            return may
        return who

    # ------------------------------------------------------------------ decisions
    def options(self, op: n.Ask) -> Callable[[Any, Any], list]:
        """The options of a decision as a function `(st, L) -> [(label, alt, value)]`."""
        who = self.part(op.who)
        alternatives = [self.alternative(ai, ch, who) for ai, ch in enumerate(op.choices)]
        optional, openly = op.optional, op.openly

        def options(st, L):
            out: list = []
            seen: dict = {}
            for alternative in alternatives:
                alternative(st, L, seen, out)
            if optional and (out or openly):
                out.append(("decline", -1, None))
            return out
        return options

    def alternative(self, ai: int, ch: n.Choice, who: Closure) -> Callable:
        """One alternative's options, appended to `out` (`seen`: label -> the alternative
        that made it, -1 for a named option)."""
        label = self.part(ch.label) if ch.label is not None else None
        cond = self.part(ch.where) if ch.where is not None else None
        if ch.kind == "named":
            def named(st, L, seen, out):
                if cond is None or cond(st, L):
                    lab = label(st, L)
                    if lab in seen:
                        lab = unique_label(f"{lab} ({ai + 1})", seen)
                    seen[lab] = -1  # not an alternative's number: True == 1 in Python
                    out.append((lab, ai, None))
            return named
        if ch.kind == "tuple":
            return self.tuple_alternative(ai, ch, label, cond)
        slot, src = ch.slots[0], self.part(ch.items[0])
        shown = label if label is not None else self.closure(ch.shown[0])
        placed = ch.by_value and ch.shown[0].of == "card"  # alike cards: told by place

        def binder(st, L, seen, out):
            mine = []
            for x in list(src(st, L)):
                L[slot] = x
                if cond is not None and not cond(st, L):
                    continue
                mine.append((shown(st, L), x))
            if placed and len(mine) > 1:
                mine = by_position(st, mine, who(st, L))
            for lab, x in mine:
                prev = seen.get(lab)
                if prev is not None:
                    if prev == ai:
                        continue  # two copies of the same card are one action
                    lab = unique_label(f"{lab} ({ai + 1})", seen)
                seen[lab] = ai
                out.append((lab, ai, x))
        return binder

    def tuple_alternative(self, ai: int, ch: n.Choice, label, cond) -> Callable:
        """`(a, b, ...) in A, B, ...`: the combinations walked one element at a time, each
        collection read when the elements before it are bound (so it may depend on them),
        no product ever built: a large product with a narrow `where` costs only what it
        yields."""
        slots, depth = ch.slots, len(ch.slots)
        srcs = [self.part(items) for items in ch.items]
        shown = [self.closure(s) for s in ch.shown]

        def walk(st, L, seen, out, k=0):
            if k == depth:
                if cond is not None and not cond(st, L):
                    return
                lab = label(st, L) if label is not None else \
                    " ".join(f(st, L) for f in shown)
                prev = seen.get(lab)
                if prev is not None:
                    if prev == ai:
                        return  # the same label twice: one action
                    lab = f"{lab} ({ai + 1})"
                seen[lab] = ai
                out.append((lab, ai, tuple(L[s] for s in slots)))
                return
            slot = slots[k]
            for x in list(srcs[k](st, L)):
                L[slot] = x
                walk(st, L, seen, out, k + 1)
        return walk

    # ------------------------------------------------------------------ operations
    def operation(self, op: n.Operation) -> Callable[[Any, Any], None]:
        """An operation as an instruction `f(st, fr)` over the state and the frame."""
        return getattr(self, "o_" + type(op).__name__)(op)

    def o_SetLocal(self, op: n.SetLocal) -> Callable[[Any, Any], None]:
        slot, f, sign, span = op.slot, self.part(op.value), op.sign, op.span
        if not sign:
            def set_local(st, fr):
                fr[2][slot] = f(st, fr[2])
            return with_memo(set_local) if op.memo else set_local

        def change_local(st, fr):
            L = fr[2]
            L[slot] = checked(L[slot] + sign * f(st, L), span)
        return with_memo(change_local) if op.memo else change_local

    def o_SetVar(self, op: n.SetVar) -> Callable[[Any, Any], None]:
        idx, f, sign, span = self.closure(op.at), self.part(op.value), op.sign, op.span
        if not sign:
            def set_var(st, fr):
                L = fr[2]
                st.vars[idx(st, L)] = f(st, L)
            return with_memo(set_var) if op.memo else set_var

        def change_var(st, fr):
            L = fr[2]
            i = idx(st, L)
            st.vars[i] = checked(st.vars[i] + sign * f(st, L), span)
        return with_memo(change_var) if op.memo else change_var

    def o_Jump(self, op: n.Jump) -> Callable[[Any, Any], None]:
        target = op.target

        def jump(st, fr):
            fr[1] = target
        return jump

    def o_JumpUnless(self, op: n.JumpUnless) -> Callable[[Any, Any], None]:
        c, target = self.part(op.cond), op.target

        def test(st, fr):
            if not c(st, fr[2]):
                fr[1] = target

        def test_handing_memo(st, fr):
            st.memo = {}  # the decision's, from here: Ask.options goes on with it
            try:
                holds = c(st, fr[2])
            except BaseException:
                st.memo = None
                raise
            if not holds:
                st.memo = None
                fr[1] = target
        return test_handing_memo if op.hands_memo else test

    def o_Resume(self, op: n.Resume) -> Callable[[Any, Any, tuple], bool]:
        """`choose(st, fr, option)`: bind the chosen option and move the frame to its body;
        returns whether the choice is written in the log."""
        binds, decline = op.binds, op.decline

        def choose(st, fr, option) -> bool:
            ai = option[1]
            if ai < 0:
                fr[1] = decline
                return True
            slot, tupled, body, logged = binds[ai]
            if slot is not None:
                if tupled:
                    bind_tuple(fr[2], slot, option[2])
                else:
                    fr[2][slot] = option[2]
            fr[1] = body
            return logged
        return choose

    def o_Return(self, op: n.Return) -> Callable[[Any, Any], None]:
        return lambda st, fr: st.return_from(fr)

    def o_CallPhase(self, op: n.CallPhase) -> Callable[[Any, Any], None]:
        pid, args = op.proc, [self.part(a) for a in op.args]

        def call(st, fr):
            L = fr[2]
            st.call(pid, [a(st, L) for a in args], False)
        return call

    def o_Log(self, op: n.Log) -> Callable[[Any, Any], None]:
        text = self.part(op.text)
        return lambda st, fr: st._events.append(("text", text(st, fr[2])))

    def o_LogBySeat(self, op: n.LogBySeat) -> Callable[[Any, Any], None]:
        words = self.part(op.words)

        def log(st, fr):
            full, said = words(st, fr[2])
            st._events.append(("text", full) if len(set(said)) == 1 and said[0] == full
                              else ("text", full, said))
        return log

    def o_Finish(self, op: n.Finish) -> Callable[[Any, Any], None]:
        if op.who is None:
            return lambda st, fr: st.finish([])
        who, one = self.part(op.who), op.one

        def win(st, fr):
            v = who(st, fr[2])
            st.finish([] if v is None else [v] if one else list(v))
        return win

    # ------------------------------------------------------------------ loops
    def o_EachStart(self, op: n.EachStart) -> Callable[[Any, Any], None]:
        seq, at, items = op.seq, op.at, self.part(op.items)
        copy = not n.makes_a_new_list(op.items)

        def start(st, fr):
            L = fr[2]
            L[seq] = list(items(st, L)) if copy else items(st, L)
            L[at] = 0

        def start_with_memo(st, fr):
            start(st, fr)
            st.memo = {}
        return start_with_memo if op.memo else start

    def o_EachStep(self, op: n.EachStep) -> Callable[[Any, Any], None]:
        slot, seq, at, end, memo = op.slot, op.seq, op.at, op.end, op.memo
        where = self.part(op.where) if op.where is not None else None

        def step(st, fr):
            L = fr[2]
            elements = L[seq]
            i = L[at]
            while i < len(elements):
                L[slot] = elements[i]
                i += 1
                if where is None or where(st, L):
                    L[at] = i
                    return
            L[at] = i
            fr[1] = end
            if memo:
                st.memo = None
        return step

    def o_TurnsStart(self, op: n.TurnsStart) -> Callable[[Any, Any], None]:
        cur, start, span = op.cur, self.part(op.start), op.span

        def first_seat(st, fr):
            L = fr[2]
            first = start(st, L)
            if first is None:
                errors.turns_from_none(span)
            L[cur] = first
        return first_seat

    def o_TurnsStep(self, op: n.TurnsStep) -> Callable[[Any, Any], None]:
        slot, cur, seats, end = op.slot, op.cur, op.seats, op.end
        skip = self.part(op.skip) if op.skip is not None else None
        until = self.part(op.until) if op.until is not None else None

        def next_turn(st, fr):
            L = fr[2]
            if until is not None and until(st, L):
                fr[1] = end
                return
            c = L[cur]
            for k in range(seats):
                seat = (c + k) % seats
                L[slot] = seat
                if skip is None or not skip(st, L):
                    L[cur] = (seat + 1) % seats
                    return
            fr[1] = end
        return next_turn

    # ------------------------------------------------------------------ moving cards
    def cards(self, op: n.MoveCards) -> Closure:
        """A fresh list of the cards a move moves: its card (none: no card), or the
        elements of its list or pile."""
        f = self.part(op.what)
        if op.one:
            return lambda st, L: (lambda c: [] if c is None else [c])(f(st, L))
        if isinstance(op.what, n.Pile) and not op.openly:  # a hidden pile's order may travel
            return lambda st, L: pile_cards(f(st, L))
        return lambda st, L: list(f(st, L))

    def o_MoveCards(self, op: n.MoveCards) -> Callable[[Any, Any], None]:
        what, to, bottom = self.cards(op), self.part(op.to), op.bottom
        budget, span = self.host.b, op.span

        def move(st, fr):
            L = fr[2]
            cards = what(st, L)
            budget.move(moves_cost(st, cards), span)
            st.move_cards(cards, to(st, L), bottom)

        if op.words is not None:
            return self.move_with_words(op, what, to)

        def move_openly(st, fr):
            L = fr[2]
            cards = what(st, L)
            budget.move(moves_cost(st, cards), span)
            st.move_cards(cards, to(st, L), bottom)
            rest = reveal_pieces(st, cards, None) if st.prog.pieces is not None else cards
            if rest:
                st.reveal(rest)
        return move_openly if op.openly else move

    def move_with_words(self, op: n.MoveCards, what: Closure, to: Closure) -> Callable:
        assert op.words is not None and op.masked is not None
        full, masked, bottom = self.part(op.words), self.part(op.masked), op.bottom
        budget, span = self.host.b, op.span

        def move(st, fr):
            L = fr[2]
            cards = what(st, L)
            words = (full(st, L), masked(st, L).replace(MASK, told(len(cards))))
            budget.move(moves_cost(st, cards), span)
            st.move_cards(cards, to(st, L), bottom, words=words)
        return move

    def o_MoveBySeat(self, op: n.MoveBySeat) -> Callable[[Any, Any], None]:
        """The cards, their words, the masked words, then the destination, as read; no
        moves spent."""
        what, to, bottom = self.part(op.what), self.part(op.to), op.bottom
        full, masked, seats = self.part(op.words), self.part(op.masked), op.words.seats
        by_seat = isinstance(op.masked, n.SeatWords)

        def move(st, fr):
            L = fr[2]
            cards = what(st, L)
            said = told(len(cards))
            words, words_by_seat = full(st, L)
            hid = masked(st, L)
            hid, hid_by_seat = hid if by_seat else (hid, (hid,) * seats)
            st.move_cards(cards, to(st, L), bottom, words=(
                words, hid.replace(MASK, said), words_by_seat,
                tuple(w.replace(MASK, said) for w in hid_by_seat)))
        return move

    def o_Shuffle(self, op: n.Shuffle) -> Callable[[Any, Any], None]:
        z, budget, span = self.part(op.zone), self.host.b, op.span

        def shuffle(st, fr):
            zi = z(st, fr[2])
            budget.move(len(st.zones[zi]), span)
            st.shuffle(zi)
        return shuffle

    def o_Deal(self, op: n.Deal) -> Callable[[Any, Any], None]:
        source, family, budget, span = self.part(op.source), op.family, self.host.b, op.span
        count = self.part(op.count) if op.count is not None else None
        start = self.part(op.start) if op.start is not None else None

        def deal(st, fr):
            L = fr[2]
            k = count(st, L) if count is not None else None
            first = start(st, L) if start is not None else 0
            zi = source(st, L)
            budget.move(len(st.zones[zi]), span)
            st.deal(zi, family, k, first)
        return deal

    def o_Swap(self, op: n.Swap) -> Callable[[Any, Any], None]:
        a, b = self.part(op.a), self.part(op.b)
        return lambda st, fr: st.swap(a(st, fr[2]), b(st, fr[2]))

    # ------------------------------------------------------------------ playing a card
    def o_Play(self, op: n.Play) -> Callable[[Any, Any], None]:
        card, by, to = self.part(op.card), self.part(op.by), self.part(op.to)
        cs, ps, cancelled, span = op.card_slot, op.by_slot, op.cancelled, op.span

        def begin(st, fr):
            L = fr[2]
            c, p = card(st, L), by(st, L)
            if c is None or p is None:
                errors.no_play(span)
            L[cs], L[ps], L[cancelled] = c, p, False
            st._events.append(("play", p, c))
            st.move_cards([c], to(st, L), False, log=False)
        return begin

    def o_CallResponse(self, op: n.CallResponse) -> Callable[[Any, Any], None]:
        rid, cs, ps, cancelled = op.proc, op.card_slot, op.by_slot, op.cancelled
        if cancelled is None:
            def respond_in_effect(st, fr):
                st.call(rid, [fr[2][cs], fr[2][ps]], False)
            return respond_in_effect
        defers, kind_of = op.defers, op.kind_of
        assert defers is not None and kind_of is not None

        def respond(st, fr):
            L = fr[2]
            if not L[cancelled] and not defers[kind_of[L[cs]]]:
                st.call(rid, [L[cs], L[ps]], False)
        return respond

    def o_Cancelled(self, op: n.Cancelled) -> Callable[[Any, Any], None]:
        cs, cancelled = op.card_slot, op.cancelled

        def after(st, fr):
            if st.cancelled:
                fr[2][cancelled] = True
                st.cancelled = False
                st._events.append(("cancelled", fr[2][cs]))
        return after

    def o_StopIfCancelled(self, op: n.StopIfCancelled) -> Callable[[Any, Any], None]:
        cs = op.card_slot

        def after(st, fr):
            if st.cancelled:
                st.cancelled = False
                st._events.append(("cancelled", fr[2][cs]))
                st.return_from(fr)  # a cancelled card's effect stops here
        return after

    def o_CallEffect(self, op: n.CallEffect) -> Callable[[Any, Any], None]:
        cs, ps, cancelled, on_play, kind_of = op.card_slot, op.by_slot, op.cancelled, \
            op.on_play, op.kind_of

        def effect(st, fr):
            L = fr[2]
            if L[cancelled]:
                return
            pid = on_play[kind_of[L[cs]]]
            if pid is not None:
                st.call(pid, [L[cs], L[ps]], True)
        return effect

    def o_NameChosen(self, op: n.NameChosen) -> Callable[[Any, Any], None]:
        chosen = [(self.part(who), slot) for who, slot in op.chosen]

        def name_chosen(st, fr):
            L = fr[2]
            for who, slot in chosen:
                c = L[slot]
                if c is not None:
                    st._events.append(("named", who(st, L), c, st.loc[c]))
        return name_chosen

def _simple(node: n.Node) -> bool:
    return isinstance(node, (n.Const, n.Local))


# an aggregate of a whole list (its elements or values, all computed first)
_WHOLE: dict = {
    "list": list,
    "count": len,
    "sum": lambda s: sum(x for x in s if x is not None),
    "max": lambda s: max(s, default=0),
    "min": lambda s: min(s, default=0),
    "any": any,
    "all": all,
    "first": lambda s: s[0] if s else None,
    "last": lambda s: s[-1] if s else None,
}


def with_memo(instruction: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    """An instruction run with a memo of its own (nodes.SetVar.memo): the position's facts
    its value works out are worked out once."""
    def memoised(st, fr):
        st.memo = {}
        try:
            instruction(st, fr)
        finally:
            st.memo = None
    return memoised


def memo_call(name: str, args: list, plain: Closure, invoke: Callable) -> Closure:
    """A pure definition called while a decision's options are computed (the state stands
    still then) is computed once per arguments: `st.memo` is a dict during `Ask.options`,
    else None (then `plain`, the call as it is). Never keyed by a list: such a call is
    computed each time. `invoke(st, values)`: the definition on its arguments' values."""
    if not args:
        def call0(st, L):
            m = st.memo
            if m is None:
                return plain(st, L)
            v = m.get(name, MISSING)
            if v is MISSING:
                v = m[name] = invoke(st, ())
            return v
        return call0
    if len(args) == 1:
        a0 = args[0]

        def memo1(st, L):
            m = st.memo
            if m is None:
                return plain(st, L)
            x = a0(st, L)
            if type(x) is list:
                return invoke(st, (x,))
            key = (name, x)
            v = m.get(key, MISSING)
            if v is MISSING:
                v = m[key] = invoke(st, (x,))
            return v
        return memo1
    a0, a1 = args

    def memo2(st, L):
        m = st.memo
        if m is None:
            return plain(st, L)
        x = a0(st, L)
        y = a1(st, L)
        if type(x) is list or type(y) is list:
            return invoke(st, (x, y))
        key = (name, x, y)
        v = m.get(key, MISSING)
        if v is MISSING:
            v = m[key] = invoke(st, (x, y))
        return v
    return memo2
