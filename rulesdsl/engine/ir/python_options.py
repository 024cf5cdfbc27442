"""The Python back end of a decision's options (nodes.Ask): one function
`options(st, L) -> [(label, alternative, value)]` built as a Python tree, what the
interpreter's options compute (Interpreter.options), unrolled per alternative.

An option's label must differ from every one before it (else it gets a number, or is
dropped where its own alternative made it already). Where that is known when the game
loads, an alternative appends options made once, here, without a check (`prebuilt`); the
others check against `seen`, brought up to date before them.

The statements' shapes are the templates below, parsed once as this module loads (they
are this module's own code, never generated text); their holes, capitalised names, are
filled with trees: a value of the rules reaches the code only as a constant or a name."""

from __future__ import annotations

import ast as py
import textwrap
from typing import Any, Callable, Optional

from rulesdsl.engine.hoist import MISSING
from rulesdsl.engine.ir import nodes as n
from rulesdsl.engine.ir.invariants import hoisted, switch_of
from rulesdsl.engine.runtime.options import NumberOptions
from rulesdsl.engine.ir.python import (assign, call, clone, compare, const, frame_local,
                                       name, walk)

def template(source: str) -> list:
    return py.parse(textwrap.dedent(source)).body


class _Holes(py.NodeTransformer):
    def __init__(self, holes: dict):
        self.holes = holes

    def visit_Name(self, node: py.Name) -> Any:
        tree = self.holes.get(node.id)
        if tree is None:
            return node
        if isinstance(tree, py.Name):  # read or stored into, as the template has it
            return py.Name(tree.id, node.ctx)
        return clone(tree)

    def visit_Expr(self, node: py.Expr) -> Any:
        """A hole standing as a statement of its own: the statements given for it."""
        if isinstance(node.value, py.Name) and isinstance(self.holes.get(node.value.id),
                                                          list):
            return clone(self.holes[node.value.id])
        self.generic_visit(node)
        return node


class _FirstOnly(py.NodeTransformer):
    """Each `out.append(...)` followed by `return out`; a prebuilt alternative's options
    made at once (`OptionsBackEnd.all_at_once`) made by its loop instead."""

    def visit(self, node: py.AST) -> Any:
        loop = getattr(node, "one_by_one", None)
        if loop is None:
            return super().visit(node)
        out: list = []  # (an empty list: the statement goes)
        for stmt in clone(loop):
            made = self.visit(stmt)
            out += made if isinstance(made, list) else [made]
        return out

    def visit_Expr(self, node: py.Expr) -> Any:
        call = node.value
        if isinstance(call, py.Call) and isinstance(call.func, py.Attribute) and \
                call.func.attr == "append" and isinstance(call.func.value, py.Name) and \
                call.func.value.id == "out":
            return [node, py.Return(py.Name("out", py.Load()))]
        return node


def first_option_only(tree: py.Module, fn: str = "first_option") -> py.Module:
    """A copy of an options function (`OptionsBackEnd.function`) that returns once it has
    made an option: a sequence's trial under `up to` tries options one by one and mostly
    stops at the first (engine/sequences.py)."""
    out = _FirstOnly().visit(clone(tree))
    out.body[0].name = fn
    return py.fix_missing_locations(out)


def fill(statements: list, **holes: Any) -> list:
    """A copy of a template's statements, each hole (a name) replaced by its tree, or by
    its statements where it stands as a statement."""
    out = []
    for stmt in clone(statements):
        made = _Holes(holes).visit(stmt)
        out += made if isinstance(made, list) else [made]
    return out


# `seen` brought up to date with the prebuilt options before an alternative that checks
_SYNC = template("""
    for lab, a, _ in out:
        seen[lab] = a
""")
# an option's label told apart from those before it; `AI`'s own repeat dropped
_TAKE = template("""
    prev = seen.get(lab)
    if prev is not None:
        if prev == AI:
            continue
        lab = _unique_label(lab + SUFFIX, seen)
    seen[lab] = AI
    out.append((lab, AI, VALUE))
""")
_NAMED = template("""
    if COND:
        lab = LABEL
        if lab in seen:
            lab = _unique_label(lab + SUFFIX, seen)
        seen[lab] = -1
        out.append((lab, AI, None))
""")
_EACH = template("""
    for X in ITEMS:
        L[SLOT] = X
        FILTER
        BODY
""")
_FILTER = template("""
    if not COND:
        continue
""")
_BY_POSITION = template("""
    if TEST:
        mine = _by_position(st, mine, WHO)
""")
_NUMBER = template("""
    out.append(MADE[x])
""")
_ALIKE = template("""
    if len(out) > 1 and len({o[0] for o in out}) < len(out):
        out = FIX
""")


class OptionsBackEnd:
    """Builds the options function of a decision over the Python back end `to_python`
    (its `emit` writes the parts, its host names the tables)."""

    def __init__(self, to_python: Any):
        self.to_python = to_python
        self.host = to_python.host

    def function(self, op: n.Ask, fn: str = "options") -> py.Module:
        """`def fn(st, L): ...`, the options of decision `op`."""
        prebuilt = self.prebuilt(op)
        body: list = [assign(name("out"), py.List([], py.Load()))]
        if len(prebuilt) < len(op.choices):
            body.append(assign(name("seen"), py.Dict([], [])))
        synced = True  # does `seen` hold every label in `out`?
        for ai, ch in enumerate(op.choices):
            if ai in prebuilt:
                body += prebuilt[ai]
                synced = False
                continue
            if not synced:
                body += fill(_SYNC)
                synced = True
            body += getattr(self, "checked_" + ch.kind)(op, ai, ch)
        if op.optional:
            decline = py.Expr(call_method("out", "append", py.Tuple(
                [const("decline"), const(-1), const(None)], py.Load())))
            body.append(py.If(const(True) if op.openly else name("out"), [decline], []))
        body.append(py.Return(name("out")))
        args = py.arguments(posonlyargs=[], args=[py.arg("st"), py.arg("L")], vararg=None,
                            kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        return py.fix_missing_locations(py.Module([py.FunctionDef(fn, args, body, [], None)],
                                                  []))

    def emit(self, node: Optional[n.Node]) -> py.expr:
        assert node is not None
        return self.to_python.emit(node, 0)

    def each(self, items: py.expr, slot: int, where: Optional[n.Node], body: list,
             x: str = "x") -> list:
        """`for x in items: L[slot] = x`, the candidates that fail `where` skipped, then
        `body`."""
        made = self.host.opaque_statements(where, slot) if isinstance(where, n.Opaque) \
            else None
        if made is not None:  # a definition's call: its body before the test
            test = made[0] + fill(_FILTER, COND=made[1])
        else:
            test = fill(_FILTER, COND=self.emit(where)) if where is not None else []
        loop = fill(_EACH, X=name(x), ITEMS=items, SLOT=const(slot), FILTER=test, BODY=body)
        if not test:
            return bound_after(loop, slot, x)
        split = switch_of(loop[0].body, len(test), slot, {x})
        if split is None:
            return self.filtered(loop, items, slot, len(test), x)
        # a choice no candidate changes: one loop per branch, the switch worked out first
        switch = name(self.host.temp("switch"))
        branches = []
        for cond in split[1:]:
            tested = test[:-1] + fill(_FILTER, COND=cond)
            branches.append(self.filtered(
                fill(_EACH, X=name(x), ITEMS=items, SLOT=const(slot), FILTER=tested,
                     BODY=body), items, slot, len(tested), x))
        return [assign(switch, split[0]), py.If(switch, branches[0], branches[1])]

    def filtered(self, loop: list, items: py.expr, slot: int, count: int, x: str) -> list:
        """`loop` (_EACH's, its candidate's test the `count` statements after the slot's
        binding), with the test's invariant parts hoisted and the slot read as `x`."""
        # the test's parts that no candidate changes, computed once (invariants.py)
        missing = self.host.named(MISSING, "MISSING")
        firsts: list = []
        starts, tests = hoisted(loop[0].body, range(1, 1 + count), slot, {x},
                                lambda: self.host.temp("once"), missing, firsts,
                                is_zone(items))
        loop[0].body = tests
        if firsts:  # computed by the first candidate first: before the loop, if it has one
            cands = name(self.host.temp("cands"))
            loop[0].iter = cands
            starts += [assign(cands, clone(items)), py.If(cands, firsts, [])]
        return starts + bound_after(loop, slot, x, is_zone(items))

    # ------------------------------------------------------------------ checked
    def checked_named(self, op: n.Ask, ai: int, ch: n.Choice) -> list:
        named = fill(_NAMED, COND=self.emit(ch.where) if ch.where is not None else const(True),
                     LABEL=self.emit(ch.label), SUFFIX=const(f" ({ai + 1})"), AI=const(ai))
        return named[0].body if ch.where is None else named

    def checked_binder(self, op: n.Ask, ai: int, ch: n.Choice) -> list:
        x = name("x")
        take = fill(_TAKE, AI=const(ai), SUFFIX=const(f" ({ai + 1})"), VALUE=x)
        label = self.label(ch, x)
        items = self.emit(ch.items[0])
        if ch.table is not None:  # one pass: no card needs ordering by its place
            return self.each(items, ch.slots[0], ch.where, [assign(name("lab"), label)] + take)
        mine = name("mine")
        out = [assign(mine, py.List([], py.Load()))]
        out += self.each(call("list", items), ch.slots[0], ch.where,
                         [py.Expr(call_method("mine", "append",
                                              py.Tuple([label, x], py.Load())))])
        if ch.by_value and ch.shown[0].of == "card" and op.alike:
            test: py.expr = compare(call("len", mine), ">", const(1))  # else none alike
            if ch.from_zone:  # one zone kept sorted (a hand): places tell nothing
                unordered = name(self.host.named(op.unordered, "UNORDERED"))
                first_card = index(index(name("mine"), const(0)), const(1))
                test = py.BoolOp(py.And(), [test, py.UnaryOp(py.Not(), index(
                    unordered, index(py.Attribute(name("st"), "loc", py.Load()),
                                     first_card)))])
            out += fill(_BY_POSITION, TEST=test, WHO=self.emit(op.who))
        loop = py.For(py.Tuple([py.Name("lab", py.Store()), py.Name("x", py.Store())],
                               py.Store()), mine, take, [])
        return out + [loop]

    def checked_tuple(self, op: n.Ask, ai: int, ch: n.Choice) -> list:
        """`(a, b) in A, B where ...` as nested loops (Interpreter.tuple_alternative): each
        collection read once the names before it are bound, no product built."""
        values = py.Tuple([frame_local(s) for s in ch.slots], py.Load())
        if ch.label is not None:
            label = self.emit(ch.label)
        else:
            parts = [self.to_python.shown(s, frame_local(slot))
                     for s, slot in zip(ch.shown, ch.slots)]
            label = parts[0]
            for part in parts[1:]:
                label = py.BinOp(py.BinOp(label, py.Add(), const(" ")), py.Add(), part)
        take = fill(_TAKE, AI=const(ai), VALUE=values)
        take[1].body[1] = assign(name("lab"), py.BinOp(name("lab"), py.Add(),
                                                        const(f" ({ai + 1})")))
        body: list = [assign(name("lab"), label)] + take
        for k in reversed(range(len(ch.slots))):
            where = ch.where if k == len(ch.slots) - 1 else None
            body = self.each(call("list", self.emit(ch.items[k])), ch.slots[k], where, body,
                             f"x{k}")
        return body

    def label(self, ch: n.Choice, x: py.expr) -> py.expr:
        """The label of candidate `x` of a binder."""
        if ch.table is not None:
            read = index(name(self.host.named(ch.table, "LABELS")), x)
            if ch.ids:
                return read
            # a none among the cards: its label as the text writes it
            return py.IfExp(py.Compare(x, [py.IsNot()], [const(None)]), read,
                            self.emit(ch.label))
        if ch.label is not None:
            return self.emit(ch.label)
        return self.to_python.shown(ch.shown[0], x)

    # ------------------------------------------------------------------ prebuilt
    def prebuilt(self, op: n.Ask) -> dict:
        """alternative -> its statements, for the alternatives whose labels are known when
        the game loads and differ from every label an alternative before them may make:
        each option is made once, here, and appended unchecked. Named options with a fixed
        label; a range of numbers labelled by the number, first; each card of a zone (or
        every card, or every value of an enum) once, labelled from a table or by the card.
        Two cards alike in the zone (two hands of one suit are alike, one hand seldom
        holds both): the second is no option, as in the checked loop, found after the
        loop; labelled by the card, they are told apart by their places where the chooser
        sees them ("red 3 (top)"; first alternative only)."""
        out: dict = {}
        known: set = set()  # every label the alternatives so far may make: these,
        kinds: list[Callable[[str], bool]] = []  # and any label these tell

        def taken(label: str) -> bool:
            return label in known or any(k(label) for k in kinds)
        for ai, ch in enumerate(op.choices):
            if ch.kind == "named":
                label = ch.label.value if isinstance(ch.label, n.Const) else None
                if not isinstance(label, str) or label == "decline" or taken(label):
                    break
                append = py.Expr(call_method("out", "append", py.Tuple(
                    [const(label), const(ai), const(None)], py.Load())))
                out[ai] = [append] if ch.where is None else \
                    [py.If(self.emit(ch.where), [append], [])]
                known.add(label)
                continue
            if ai == 0 and ch.numbers and ch.label is None and ch.shown[0].of == "int":
                made = name(self.host.named(NumberOptions(), "NUMBER_OPTIONS"))
                lines = self.each(self.emit(ch.items[0]), ch.slots[0], ch.where,
                                  fill(_NUMBER, MADE=made))
                if ch.where is None:
                    lines = self.all_at_once(made, self.emit(ch.items[0]), ch.slots[0], lines)
                out[ai] = lines
                kinds.append(_number_label)
                continue
            if ch.kind != "binder":
                break
            placed = False  # alike cards told apart by their places (by_position)?
            if ch.table is not None and ch.ids:
                labels = ch.table
            elif ch.by_value and ch.shown[0].of == "card" and ch.table is None and \
                    ch.from_zone and op.card_labels is not None:
                labels = op.card_labels
                placed = op.alike
                if placed and ai > 0:  # "red 3 (top)" may be an earlier option's label
                    break
            else:
                break
            if any(map(taken, labels)):
                break
            options = [(labels[c], ai, c) for c in range(len(labels))]
            made = name(self.host.named(options, "OPTIONS"))
            append = py.Expr(call_method("out", "append", index(made, name("x"))))
            lines = self.each(self.emit(ch.items[0]), ch.slots[0], ch.where, [append])
            if ai == 0 and ch.where is None:
                lines = self.all_at_once(made, self.emit(ch.items[0]), ch.slots[0], lines)
            if placed:
                lines += fill(_ALIKE, FIX=call("_alike_in_zone", name("st"), name("out"),
                                               self.emit(op.who)))
                kinds.append(lambda label: label.endswith(")"))
            elif len(set(labels)) < len(labels) or op.card_labels is None:
                lines += fill(_ALIKE, FIX=call("_first_of_each_label", name("out")))
            out[ai] = lines
            known.update(labels)
        return out


    @staticmethod
    def all_at_once(made: py.Name, items: py.expr, slot: int, loop: list) -> list:
        """The first alternative's options, every candidate an option made before (no
        `where`), made by one call with no Python step per candidate: `out` is empty
        before them, and the binder's slot is left holding the last candidate, as the
        loop (`loop`, kept for first_option_only) leaves it."""
        extend = py.Expr(call_method("out", "extend", call(
            "map", py.Attribute(made, "__getitem__", py.Load()), items)))
        extend.one_by_one = loop  # type: ignore[attr-defined]  # (read by _FirstOnly)
        last = index(index(name("out"), const(-1)), const(2))
        return [extend, py.If(name("out"), [assign(frame_local(slot), last)], [])]


_SCOPES = (py.Lambda, py.ListComp, py.SetComp, py.DictComp, py.GeneratorExp, py.FunctionDef)


def bound_after(loop: list, slot: int, x: str, card: Optional[bool] = None) -> list:
    """`for x in items: L[slot] = x; ...` (`loop`, from _EACH) where the loop reads the
    locals only one by one, L[k] (no call is handed them), and sets none: the candidate
    read as `x`, and the slot set once, after the loop, to the last candidate, as the loop
    leaves it (left as it was where there is none). Else `loop` as it is. The loop as it
    was is kept for first_option_only, whose copy returns from inside it. `card`: are
    the candidates a zone's cards (None: where the loop reads a zone itself)?"""
    for_ = loop[0]
    body = read_as_candidate(for_.body[1:], slot, x,
                             is_zone(for_.iter) if card is None else card)
    if body is None:
        return loop
    ahead = _locals_read_once(body)
    fast = py.For(for_.target, for_.iter, body[len(ahead):], [])
    fast.one_by_one = loop  # type: ignore[attr-defined]  # (read by _FirstOnly)
    before = assign(name(x), frame_local(slot))
    after = assign(frame_local(slot), name(x))
    for stmt in [before, *ahead, after]:
        stmt.one_by_one = []  # type: ignore[attr-defined]
    return [before, *ahead, fast, after]


def read_as_candidate(body: list, slot: int, x: str, card: bool,
                      below: int = 0) -> Optional[list]:
    """The statements `body` of a loop over candidates `x` bound to slot `slot`, with the
    slot read as `x` itself (`_candidate_named`; `card`: the candidates are a zone's
    cards, never none), where they read the locals only one by one, L[k] (no call is
    handed them), set none and never bind `x`; else None."""
    for stmt in body:
        for node in walk(stmt):
            if isinstance(node, _SCOPES) or (isinstance(node, py.Name) and node.id == x and
                                              not isinstance(node.ctx, py.Load)):
                return None
    reads = [node for stmt in body for node in walk(stmt) if isinstance(node, py.Subscript)
             and isinstance(node.value, py.Name) and node.value.id == "L" and
             isinstance(node.slice, py.Constant)]
    names = [node for stmt in body for node in walk(stmt)
             if isinstance(node, py.Name) and node.id == "L"]
    if len(names) != len(reads) or any(not isinstance(r.ctx, py.Load) for r in reads):
        return None  # the locals handed on whole (a call handed L), or one set

    class _AsX(py.NodeTransformer):
        def visit_Subscript(self, node: py.Subscript) -> Any:
            if _is_slot(node, slot):
                return py.Name(x, py.Load())
            self.generic_visit(node)
            return node
    return _candidate_named([_AsX().visit(clone(stmt)) for stmt in body], x, card,
                            below)


def _stores(body: list) -> dict:
    """name -> how many times `body` binds it (an assignment or `:=`)."""
    out: dict = {}
    for stmt in body:
        for node in walk(stmt):
            if isinstance(node, py.Name) and not isinstance(node.ctx, py.Load):
                out[node.id] = out.get(node.id, 0) + 1  # (a `:=`'s target is one too)
    return out


def is_zone(items: py.expr) -> bool:
    """Does `items` read a zone (`st.zones[k]`, perhaps after a cell's reset: `... or
    st.zones[k]`), whose cards are never none?"""
    if isinstance(items, py.BoolOp) and isinstance(items.op, py.Or):
        items = items.values[-1]
    return isinstance(items, py.Subscript) and isinstance(items.value, py.Attribute) and \
        items.value.attr == "zones" and isinstance(items.value.value, py.Name) and \
        items.value.value.id == "st"


def _candidate_named(body: list, x: str, card: bool, below: int = 0) -> list:
    """The body of a loop whose candidate is `x` (which the body never sets), with each
    local it binds once, to the candidate (`(t := x)`: an inlined definition's parameter),
    read as `x` itself, and the tests that bound it, true whatever the value (`(t := x) is
    None or True`), gone; where the candidate is never none (`card`: a card of a zone, an
    enum's value, a seat), its none checks gone too (`... if x is not None else
    _none_field(...)`, `x is not None` among the parts of a test); where every candidate
    is a number below `below` (more than 0), its range checks against a bound no smaller
    (`0 <= x < n`, n >= below) gone."""
    stores = _stores(body)
    alias: set = set()
    changed = True
    while changed:  # `(u := t)` with t such a local is one too
        changed = False
        for stmt in body:
            for node in walk(stmt):
                if isinstance(node, py.NamedExpr) and isinstance(node.value, py.Name) and \
                        (node.value.id == x or node.value.id in alias) and \
                        stores.get(node.target.id) == 1 and node.target.id not in alias:
                    alias.add(node.target.id)
                    changed = True
    if not alias and not card and not below:
        return body

    class _Named(py.NodeTransformer):
        def visit_Name(self, node: py.Name) -> Any:
            return py.Name(x, py.Load()) if node.id in alias else node

        def visit_NamedExpr(self, node: py.NamedExpr) -> Any:
            if node.target.id in alias:
                return py.Name(x, py.Load())
            self.generic_visit(node)
            return node

        def visit_IfExp(self, node: py.IfExp) -> Any:
            self.generic_visit(node)
            if card and _is_some(node.test, x):
                return node.body
            test = _without_true(node.test, x if card else None, below)
            return node.body if test is None else py.IfExp(test, node.body, node.orelse)

    return [py.fix_missing_locations(_Named().visit(stmt)) for stmt in body]


def _is_some(test: py.expr, x: str) -> bool:
    """Is `test` `x is not None`?"""
    return isinstance(test, py.Compare) and isinstance(test.left, py.Name) and \
        test.left.id == x and len(test.ops) == 1 and isinstance(test.ops[0], py.IsNot) and \
        isinstance(test.comparators[0], py.Constant) and test.comparators[0].value is None


def _always(tree: py.expr) -> bool:
    """Is `tree` `x is None or True` (a local read, true whatever its value)?"""
    return isinstance(tree, py.BoolOp) and isinstance(tree.op, py.Or) and \
        len(tree.values) == 2 and isinstance(tree.values[1], py.Constant) and \
        tree.values[1].value is True and isinstance(tree.values[0], py.Compare) and \
        isinstance(tree.values[0].left, py.Name) and \
        all(isinstance(op, py.Is) for op in tree.values[0].ops) and \
        all(isinstance(c, py.Constant) and c.value is None for c in tree.values[0].comparators)


def _without_true(test: py.expr, some: Optional[str] = None,
                  below: int = 0) -> Optional[py.expr]:
    """A test read for its truth, without its parts that are always true (and `some is
    not None`, given `some`, a name never none; `0 <= some < n`, where it is a number
    below `below` and n >= below); None where nothing is left."""
    def true(v: py.expr) -> bool:
        return _always(v) or some is not None and (
            _is_some(v, some) or below > 0 and _within(v, some, below))
    if true(test):
        return None
    if isinstance(test, py.BoolOp) and isinstance(test.op, py.And):
        kept = [v for v in test.values if not true(v)]
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else py.BoolOp(py.And(), kept)
    return test


def _within(test: py.expr, x: str, below: int) -> bool:
    """Is `test` `0 <= x < n` with n >= below?"""
    return isinstance(test, py.Compare) and len(test.ops) == 2 and \
        isinstance(test.ops[0], py.LtE) and isinstance(test.ops[1], py.Lt) and \
        isinstance(test.left, py.Constant) and test.left.value == 0 and \
        isinstance(test.comparators[0], py.Name) and test.comparators[0].id == x and \
        isinstance(test.comparators[1], py.Constant) and \
        type(test.comparators[1].value) is int and test.comparators[1].value >= below


def _locals_read_once(body: list) -> list:
    """The statements at the head of a loop's body that only copy a frame slot into a
    local bound nowhere else in it (`t = L[k]`, an inlined definition's argument): the
    loop sets no slot, so they may run once, before it."""
    stores = _stores(body)
    out = []
    for stmt in body:
        if not (isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and
                isinstance(stmt.targets[0], py.Name) and stores[stmt.targets[0].id] == 1 and
                isinstance(stmt.value, py.Subscript) and isinstance(stmt.value.value, py.Name)
                and stmt.value.value.id == "L" and isinstance(stmt.value.slice, py.Constant)):
            break
        out.append(stmt)
    return out


def _is_slot(node: py.Subscript, slot: int) -> bool:
    """Is `node` L[slot]?"""
    return isinstance(node.value, py.Name) and node.value.id == "L" and \
        isinstance(node.slice, py.Constant) and node.slice.value == slot


def call_method(obj: str, attr: str, *args: py.expr) -> py.Call:
    return py.Call(py.Attribute(name(obj), attr, py.Load()), list(args), [])


def index(value: py.expr, key: py.expr) -> py.Subscript:
    return py.Subscript(value, key, py.Load())


def _number_label(label: str) -> bool:
    """Is `label` how a number reads (`-12`)?"""
    digits = label[1:] if label.startswith("-") else label
    return digits.isdecimal()
