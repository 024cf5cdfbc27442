"""Loop invariants of a decision's options loop, found in its Python tree: the parts of a
candidate's test that no candidate changes, computed the first time a candidate needs them
and kept in a local of the options function.

The rules-level hoist (hoist.py) sees only the rules' own expressions, so where the test is
a definition written in the loop as statements (`c in hand[p] where may_play(p, c)`), the
parts of its body that read only its invariant arguments (in a follow-suit test, whether
the player holds the led suit: read from the decision's memo once per card, its key built
each time) are out of its reach. Here they are found after the definition is written out:
a part is invariant when every name it reads is the state, a table of the program, a pure
definition read through the memo, an error helper, or a local bound only from such parts
(every binding of it in the loop alike, or all of them within the part); never the
budget, the frame handed whole or the candidate's slot, and the loop's cell (hoist.py's)
only read whole. While the options are listed the state stands still and the memo is set,
so such a part has one value for every candidate; it is still computed lazily, where the
test first needs it, so short-circuits and errors happen as before, and the work it spends
(a definition's call, once in the memo) is the same; only a part that can neither fail nor
change anything (python.cannot_fail: `len(st.zones[k]) == 0`) is computed before the loop,
and a choice whose test is such a part has the loop written once for each branch
(`switch_of`: a trick game's may_play, unswitched on `size(trick) == 0`).

A part that every candidate computes first (`_Hoist.find_first`: only what cannot fail
before it) is computed before the loop where it has a candidate, exactly as the first
candidate would: after the units of work a candidate spends before its test (taken, then
given back for the loop to take again: the same place fails under every limit), and in a
branch of a choice whose test is such a part, under that test (a trick game's may_follow: the led
suit where the player holds it).
"""

from __future__ import annotations

import ast as py
import copy
from typing import Callable, Optional

from rulesdsl.engine.ir.python import RAISING, assign, cannot_fail, clone, name, walk

# names of the program that change while options are listed
_CHANGING = ("BUDGET", "CELL")
_PURE_CALLS = frozenset({"len"})
# locals of an options function outside its loops' tests (OptionsBackEnd.function)
_FUNCTION_LOCALS = frozenset({"out", "seen", "mine", "lab", "prev", "a", "_", "_o"})
_METHODS = frozenset({"get", "__setitem__"})  # on the memo, read into a local
_SMALLEST = 8  # fewer nodes than this are cheaper to compute than to read from a local
_WORTH = 3  # a part with less work (calls count 10, subscripts 1) costs less than its check


class _Loop:
    """What one loop's test binds: each local's bindings, which are invariant."""

    def __init__(self, statements: list, slot: int, variant: set, memo: bool = True):
        self.slot = slot
        self.memo = memo  # is the decision's memo set (a definition read there once)?
        self.variant = variant  # the locals bound to the candidate (and changed in the loop)
        self.bindings: dict = {}  # name -> [value trees]
        self.frame_stores: set = set()  # slots of L written in the loop
        for stmt in statements:
            for node in walk(stmt):
                if isinstance(node, py.NamedExpr):
                    self.bindings.setdefault(node.target.id, []).append(node.value)
                elif isinstance(node, py.Assign):
                    for t in node.targets:
                        if isinstance(t, py.Name):
                            self.bindings.setdefault(t.id, []).append(node.value)
                        elif _frame_slot(t) is not None:
                            self.frame_stores.add(_frame_slot(t))
                        elif isinstance(t, py.Subscript) and isinstance(t.value, py.Name) \
                                and t.value.id == "L":
                            self.frame_stores.add(None)  # a slot not known: every one
                elif isinstance(node, (py.AugAssign, py.AnnAssign, py.For)):
                    for part in walk(node.target):
                        if isinstance(part, py.Name) and part.id != "L":
                            variant.add(part.id)
                        elif isinstance(part, py.Subscript):
                            self.frame_stores.add(_frame_slot(part))
        self.invariant: set = set()
        # a local is invariant when each of its bindings is and all are written alike
        # the locals the memo is read into (a definition's value found or kept there)
        self.memos = {x for x, values in self.bindings.items()
                      if all(_is_memo(v) for v in values)}
        candidates = {x for x in self.bindings if x not in variant}
        changed = True
        while changed:
            changed = False
            self.invariant = set(candidates)
            for x in sorted(candidates):
                values = self.bindings[x]
                first = py.dump(values[0])
                if any(py.dump(v) != first for v in values[1:]) or \
                        not self.reads_invariant(values[0]):
                    candidates.discard(x)
                    changed = True
        self.invariant = candidates

    def reads_invariant(self, tree: py.AST) -> bool:
        """Does `tree` compute the same value for every candidate, and change nothing but
        the memo? A local it reads is invariant, or one bound only within `tree` (by a
        part this walk checks too)."""
        own = self.own_locals(tree)
        slot_bases = set()  # the frame read a slot at a time, never handed whole
        for node in walk(tree):
            if isinstance(node, py.Subscript) and _frame_slot(node) is not None:
                k = _frame_slot(node)
                if k == self.slot or k in self.frame_stores or None in self.frame_stores:
                    return False
                slot_bases.add(id(node.value))
        guarded = _memo_guarded(tree)
        cells = _cell_reads(tree)
        for node in walk(tree):
            if isinstance(node, py.Name):
                x = node.id
                if x == "L":
                    if id(node) not in slot_bases:
                        return False
                elif x in self.bindings:
                    if x not in self.invariant and x not in own:
                        return False
                elif x in self.variant:  # the candidate itself, bound by the loop
                    return False
                elif x in _FUNCTION_LOCALS or x.startswith(_CHANGING) and id(node) not in cells:
                    return False
            elif isinstance(node, py.Call):
                f = node.func
                if isinstance(f, py.Attribute):
                    if f.attr not in _METHODS or not (
                            isinstance(f.value, py.Name) and f.value.id in self.memos and
                            self.memo or
                            id(f.value) in cells):
                        return False
                elif not isinstance(f, py.Name) or not (
                        f.id in _PURE_CALLS or f.id.startswith(RAISING) or
                        f.id.startswith("define_") and id(node) in guarded and self.memo):
                    return False
            elif isinstance(node, (py.Lambda, py.ListComp, py.SetComp, py.DictComp,
                                   py.GeneratorExp, py.Starred, py.Await, py.Yield,
                                   py.YieldFrom)):
                return False
        return True

    def own_locals(self, tree: py.AST) -> set:
        """The locals bound within `tree` and nowhere else in the loop."""
        bound: dict = {}
        for node in walk(tree):
            if isinstance(node, py.NamedExpr):
                bound[node.target.id] = bound.get(node.target.id, 0) + 1
        return {x for x, k in bound.items() if len(self.bindings.get(x, ())) == k}


def _memo_guarded(tree: py.AST) -> set:
    """The ids of the definitions' calls made only where the memo holds no value yet:
    `(define_f(st, [...]) if (m := st.memo) is None else <m's value, else that call kept
    in m>)`, a pure definition's (Calls.memo_read)."""
    out = set()
    for node in walk(tree):
        if isinstance(node, py.IfExp) and _reads_memo(node.test):
            out.add(id(node.body))
            for part in walk(node.orelse):  # kept in the memo: m.__setitem__(k, (v := f))
                if isinstance(part, py.Call) and isinstance(part.func, py.Attribute) and \
                        part.func.attr == "__setitem__" and len(part.args) == 2:
                    value = part.args[1]
                    out.add(id(value.value if isinstance(value, py.NamedExpr) else value))
    return out


def _cell_reads(tree: py.AST) -> set:
    """The ids of the parts of the loop memo hoist.py keeps a loop invariant in (`CELLn`,
    emptied before the loop) read within the whole of its read: `(t if (t := CELLn[0][i])
    is not MISSING else CELLn[0].__setitem__(i, (t := <value>)) or t)` is the invariant's
    value for every candidate, though the cell alone is not (missing at first)."""
    out: set = set()
    for node in walk(tree):
        if isinstance(node, py.IfExp) and isinstance(node.test, py.Compare) and \
                isinstance(node.test.left, py.NamedExpr) and \
                isinstance(node.test.ops[0], py.IsNot) and _in_cell(node.test.left.value):
            out.update(id(part) for part in walk(node)
                       if isinstance(part, py.Name) and part.id.startswith("CELL"))
            out.update(id(part) for part in walk(node)
                       if isinstance(part, py.Subscript) and isinstance(part.value, py.Name)
                       and part.value.id.startswith("CELL"))
    return out


def _in_cell(value: py.AST) -> bool:
    return isinstance(value, py.Subscript) and isinstance(value.value, py.Subscript) and \
        isinstance(value.value.value, py.Name) and value.value.value.id.startswith("CELL")


def _reads_memo(test: py.AST) -> bool:
    return isinstance(test, py.Compare) and isinstance(test.left, py.NamedExpr) and \
        _is_memo(test.left.value) and isinstance(test.ops[0], py.Is)


def _is_memo(value: py.AST) -> bool:
    return isinstance(value, py.Attribute) and value.attr == "memo" and \
        isinstance(value.value, py.Name) and value.value.id == "st"


def _frame_slot(node: py.AST) -> Optional[int]:
    if isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and \
            node.value.id == "L" and isinstance(node.slice, py.Constant) and \
            type(node.slice.value) is int:
        return node.slice.value
    return None


def _size(tree: py.AST) -> int:
    return sum(1 for _ in walk(tree))


def _kept(node: py.AST, missing: str) -> bool:
    """Is `node` a part kept already, `t if t is not MISSING else (t := ...)` (or read
    from a loop's memo cell, `t if (t := CELL[0][k]) is not MISSING else ...`)?"""
    if not isinstance(node, py.IfExp) or not isinstance(node.test, py.Compare):
        return False
    test = node.test
    return len(test.ops) == 1 and isinstance(test.ops[0], py.IsNot) and \
        isinstance(test.comparators[0], py.Name) and test.comparators[0].id == missing


def _unkept(tree: py.AST, missing: Optional[str]):
    """The nodes of `tree`, but those inside a part kept already (given `missing`)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if missing is None or not _kept(node, missing):
            todo.extend(py.iter_child_nodes(node))


def _work(tree: py.AST, missing: Optional[str] = None) -> int:
    """A rough price of computing a part: its calls that return a value (an error helper
    only raises) and its subscripts. A local bound from one table read is cheaper to
    compute again than to test for `MISSING` at every candidate of a short loop. Given
    `missing` (outside a decision's options), a part kept already costs nothing (it is
    read at the price of a test), and each operator, comparison and choice costs 1 (as a
    read does: `next(p)`, `(p + 1) % 2` after its none check, is worth keeping)."""
    work = 0
    for node in _unkept(tree, missing):
        if isinstance(node, py.Subscript) or missing is not None and \
                isinstance(node, (py.BinOp, py.Compare, py.IfExp)):
            work += 1
        elif isinstance(node, py.Call) and not (isinstance(node.func, py.Name) and
                                                node.func.id.startswith(RAISING)):
            work += 10
    return work


class _Hoist(py.NodeTransformer):
    def __init__(self, loop: _Loop, fresh: Callable[[], str], missing: str):
        self.loop = loop
        self.fresh = fresh
        self.missing = missing
        self.kept: dict = {}  # dump of a part -> its local
        self.starts: list = []
        self.first: set = set()  # ids of the parts the first candidate computes first
        self.firsts: list = []  # lines computing them, where the loop has a candidate
        self.first_locals: set = set()
        self.copied: set = set()  # locals bound before the test from a slot, as before it
        # id of a first part in a branch of a choice whose test is a first part -> (that
        # test, whether the part is in the branch taken where it holds)
        self.first_under: dict = {}

    def qualifies(self, node: py.expr) -> bool:
        """Is `node` a part worth keeping that no candidate changes? Outside a decision's
        options (`memo` false), not for the work of the parts kept already (a loop
        invariant the compiler read from a local or its loop's memo): those are read
        again at the price of a test."""
        if isinstance(node, (py.Name, py.Constant)) or _size(node) < _SMALLEST:
            return False
        work = _work(node, None if self.loop.memo else self.missing)
        return work >= _WORTH and self.loop.reads_invariant(node) and self.binds_alike(node)

    def generic_visit(self, node: py.AST) -> py.AST:
        if not self.loop.memo and _kept(node, self.missing):
            return node  # kept already: a read of its local, computed when first needed
        if isinstance(node, py.expr) and self.qualifies(node):
            key = py.dump(node)
            local = self.kept.get(key)
            if self.at_once(node):  # worked out before the loop: nothing to test per candidate
                if local is None:
                    local = self.kept[key] = self.fresh()
                    self.starts.append(assign(name(local), node))
                return name(local)
            if id(node) in self.first and local is None:  # before the loop, if it runs
                under = self.first_under.get(id(node))
                if under is None:
                    local = self.kept[key] = self.fresh()
                    self.firsts.append(assign(name(local), node))
                    self.first_locals.add(local)
                    return name(local)
                # under a first part's test: computed where it holds (or fails), in a
                # local of its own (another such part elsewhere is not under that test)
                held = name(self.kept[py.dump(under[0])])
                local = self.fresh()
                self.firsts.append(py.If(held if under[1] else py.UnaryOp(py.Not(), held),
                                         [assign(name(local), node)], []))
                return name(local)
            if local is not None and local in self.first_locals:
                return name(local)
            if local is None:
                local = self.kept[key] = self.fresh()
                self.starts.append(assign(name(local), name(self.missing)))
            test = py.Compare(name(local), [py.IsNot()], [name(self.missing)])
            return py.IfExp(test, name(local), py.NamedExpr(py.Name(local, py.Store()), node))
        return super().generic_visit(node)

    def at_once(self, node: py.expr) -> bool:
        """Can the part be worked out before the loop, whether or not a candidate needs
        it? Where it can neither fail nor change anything and reads only the state and the
        frame's slots (`len(st.zones[k]) == 0`): nothing tells when it was computed."""
        called = {id(x.func) for x in walk(node) if isinstance(x, py.Call)}  # `len`
        return cannot_fail(node, set()) and all(
            x.id in ("st", "L") or id(x) in called for x in walk(node)
            if isinstance(x, py.Name))

    def find_first(self, test: py.expr, card: Optional[int]) -> None:
        """Mark the parts of `test` that every candidate's test computes before anything
        that could fail or change something (`c.colour == led.colour or ...`: the led
        card's colour, the candidate's own colour read before it cannot fail), and that
        read no local bound in the loop but their own: the first candidate computes them
        first, so where the loop has one they may be computed before it, alike."""
        clean = True
        under: Optional[tuple] = None  # (a first part's test, True: its yes branch)
        # locals bound once, to the candidate (an inlined definition's parameter): read
        # as the candidate's slot when telling whether a part can fail
        alias = {x.target.id for x in walk(test) if isinstance(x, py.NamedExpr) and
                 card is not None and _frame_slot(x.value) == card and
                 len(self.loop.bindings.get(x.target.id, ())) == 1}

        def safe(t: py.expr, card: Optional[int] = None) -> bool:  # python.cannot_fail
            return cannot_fail(_as_slot(t, alias, card) if alias and card is not None
                               else t, set(), card)

        def visit(t: py.expr) -> bool:  # False: what follows may not be computed
            nonlocal clean, under
            if self.qualifies(t):
                own = self.loop.own_locals(t)
                # a local bound alike wherever the loop binds it, here too, is as good
                own |= {x.target.id for x in walk(t) if isinstance(x, py.NamedExpr)} & \
                    self.loop.invariant
                if clean and not self.at_once(t) and all(
                        x.id not in self.loop.bindings or x.id in own or x.id in self.copied
                        for x in walk(t)
                        if isinstance(x, py.Name) and isinstance(x.ctx, py.Load)):
                    self.first.add(id(t))
                    if under is not None:
                        self.first_under[id(t)] = under
                # a first part fails (if it does) before the loop as the first candidate
                # would: what follows it may still be computed first
                clean = clean and (id(t) in self.first or safe(t, card))
                return True
            if safe(t, card):
                return True
            if isinstance(t, py.Compare):  # `==` cannot fail; a chain goes on if it holds
                return visit(t.left) and visit(t.comparators[0]) and len(t.ops) == 1 and \
                    isinstance(t.ops[0], (py.Eq, py.NotEq, py.Is, py.IsNot))
            if isinstance(t, py.UnaryOp) and isinstance(t.op, py.Not):
                return visit(t.operand)
            if isinstance(t, py.IfExp) and _binds_only(t.test) and safe(t.test):
                return visit(t.body)  # an argument bound, `(_a := L[1]) is None or True`
            if isinstance(t, py.IfExp) and under is None and clean:
                visit(t.test)
                if id(t.test) in self.first and clean and \
                        self.first_under.get(id(t.test)) is None:
                    # the first candidate's branch is known where the test is: each
                    # branch's first parts, computed under the test
                    for branch, holds in ((t.body, True), (t.orelse, False)):
                        under = (t.test, holds)
                        visit(branch)
                        clean, under = True, None
                clean = False
                return False
            if isinstance(t, (py.BoolOp, py.IfExp)):  # only the first part for certain
                visit(t.values[0] if isinstance(t, py.BoolOp) else t.test)
                return False
            clean = False
            return False
        visit(test)

    def binds_alike(self, node: py.AST) -> bool:
        """Every local the part binds is bound nowhere else in the loop, or all its
        bindings are alike and invariant: kept from the candidate that first computed it,
        it holds what each later candidate would have bound."""
        own = self.loop.own_locals(node)
        return all(x.target.id in self.loop.invariant or x.target.id in own
                   for x in walk(node) if isinstance(x, py.NamedExpr))


def hoisted(statements: list, tests: range, slot: int, variant: set,
            fresh: Callable[[], str], missing: str, firsts: Optional[list] = None,
            card: bool = False, memo: bool = True) -> tuple:
    """(lines before the loop, its body with its test's invariant parts read from locals):
    `statements`, a loop's body, binds a candidate to frame slot `slot` and to the locals
    in `variant`; only the tests of the `if` statements at positions `tests` (the
    candidate's test) are rewritten. `missing` names hoist.MISSING in the program. Given
    `firsts`, the parts the first candidate computes before anything else (`find_first`)
    go there, as lines to run before the loop where it has a candidate; `card`: the
    candidates are a zone's cards. `memo` false: the loop may run where the state holds
    no memo (an aggregate, anywhere): a definition read through the memo would be called
    per candidate there, spending its work each time, so no part calling one is kept."""
    loop = _Loop(statements, slot, set(variant), memo)
    hoist = _Hoist(loop, fresh, missing)
    out = list(statements)
    given_back = None  # the units a candidate spends before its test, given back
    copies: list = []  # `t = L[k]` before the test, k not the candidate's slot
    if firsts is not None and len(tests) and isinstance(out[tests[-1]], py.If):
        ahead = [x for x in out[:tests[-1]] if not (
            isinstance(x, py.Assign) and _frame_slot(x.targets[0]) == slot and
            isinstance(x.value, py.Name))]
        copies = [x for x in ahead if _copied(x, loop)]
        given_back = _spent_before([x for x in ahead if x not in copies], variant)
        if given_back is not None:
            hoist.copied = {x.targets[0].id for x in copies}
            hoist.find_first(out[tests[-1]].test, slot if card else None)
    for i in tests:
        stmt = out[i]
        if isinstance(stmt, py.If):
            out[i] = py.fix_missing_locations(py.If(hoist.visit(stmt.test), stmt.body,
                                                    stmt.orelse))
    if not memo:  # and the values a test's statements bind (a run's E, a let's value)
        out = [stmt if i in tests else _values_hoisted(stmt, hoist) for i, stmt in
               enumerate(out)]
    if firsts is not None and hoist.firsts and given_back is not None:
        # the first candidate's units spent as it spends them, then its first parts, then
        # the units given back for the loop to spend again (they pass: the parts left the
        # budget at or above zero, every spend is checked as it is made)
        firsts += [*map(clone, copies), *given_back[0], *hoist.firsts,
                   *given_back[1]]
    return hoist.starts, out


def _values_hoisted(stmt: py.stmt, hoist: _Hoist) -> py.stmt:
    """`stmt` with the value of each assignment of a local in it (in the branches of an
    `if` and the bodies of a loop too) rewritten as the tests are: a part no candidate
    changes read from a local, computed where first needed."""
    if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], py.Name):
        return py.fix_missing_locations(py.Assign(stmt.targets, hoist.visit(stmt.value)))
    if isinstance(stmt, (py.If, py.For)):
        out = copy.copy(stmt)
        out.body = [_values_hoisted(x, hoist) for x in stmt.body]
        out.orelse = [_values_hoisted(x, hoist) for x in stmt.orelse]
        return out
    return stmt


def _as_slot(tree: py.expr, alias: set, slot: Optional[int]) -> py.expr:
    """A copy of `tree` reading each local in `alias` as frame slot `slot`."""
    class _Slot(py.NodeTransformer):
        def visit_Name(self, node: py.Name) -> py.AST:
            if node.id in alias and isinstance(node.ctx, py.Load):
                return py.Subscript(py.Name("L", py.Load()), py.Constant(slot), py.Load())
            return node
    return _Slot().visit(clone(tree))


def _binds_only(test: py.expr) -> bool:
    """Is `test` `(t := a) is None or True`, a binding always true (an inlined
    definition's argument)?"""
    return isinstance(test, py.BoolOp) and isinstance(test.op, py.Or) and \
        isinstance(test.values[-1], py.Constant) and test.values[-1].value is True


def _copied(stmt: py.stmt, loop: _Loop) -> bool:
    """Is `stmt` `t = L[k]`, a slot no candidate changes copied into a local bound only
    there (an inlined definition's argument): the same before the loop as in it?"""
    return isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and \
        isinstance(stmt.targets[0], py.Name) and _frame_slot(stmt.value) is not None and \
        stmt.targets[0].id in loop.invariant and \
        len(loop.bindings.get(stmt.targets[0].id, ())) == 1 and \
        loop.reads_invariant(stmt.value)


def _spent_before(statements: list, variant: set) -> Optional[tuple]:
    """(the statements, the units given back) where `statements`, all that a candidate
    runs before its test, only take a constant number of units of work from the budget
    (python.spent, python.spent_in_turn: `B.work -= k; if B.work < 0: ...`, failing
    there past zero) and read neither the frame nor the candidate: the first candidate's
    spend, which may run before the loop exactly as the first candidate runs it; ([], [])
    where there are none; else None."""
    if not statements:
        return [], []
    back: list = []
    for k in range(0, len(statements), 2):
        take, check = statements[k], statements[k + 1:k + 2]
        if not (isinstance(take, py.AugAssign) and isinstance(take.op, py.Sub) and
                _budget_work(take.target) and isinstance(take.value, py.Constant) and
                type(take.value.value) is int and len(check) == 1 and
                isinstance(check[0], py.If) and isinstance(check[0].test, py.Compare) and
                _budget_work(check[0].test.left) and not check[0].orelse):
            return None
        back.append(py.AugAssign(clone(take.target), py.Add(),
                                 py.Constant(take.value.value)))
    for stmt in statements:
        for node in walk(stmt):
            if isinstance(node, py.NamedExpr) or isinstance(node, py.Name) and (
                    node.id == "L" or node.id in variant):
                return None
    return [clone(s) for s in statements], back


def _budget_work(tree: py.AST) -> bool:
    """Is `tree` the budget's work counter, `BUDGETn.work`?"""
    return isinstance(tree, py.Attribute) and tree.attr == "work" and \
        isinstance(tree.value, py.Name) and tree.value.id.startswith("BUDGET")


def switch_of(statements: list, test: int, slot: int, variant: set) -> Optional[tuple]:
    """(switch, then, otherwise) where the candidate's test `statements[test]` (`if not
    COND: continue`) is a choice, `not (then if switch else otherwise)`, whose test no
    candidate changes and which can neither fail nor change anything (`_Hoist.at_once`:
    Hearts' `size(trick) == 0` in may_play): the loop may be written twice, once for each
    branch, the switch worked out once before them (a loop unswitched); else None."""
    stmt = statements[test]
    if not (isinstance(stmt, py.If) and isinstance(stmt.test, py.UnaryOp) and
            isinstance(stmt.test.op, py.Not) and isinstance(stmt.test.operand, py.IfExp)):
        return None
    choice = stmt.test.operand
    switch = choice.test
    loop = _Loop(statements, slot, set(variant))
    if any(isinstance(node, py.NamedExpr) for node in walk(switch)) or \
            not loop.reads_invariant(switch) or \
            not _Hoist(loop, lambda: "", "").at_once(switch):
        return None
    return switch, choice.body, choice.orelse
