"""Types of expressions: what a condition, an operator or a collection needs, and what it gives."""

from __future__ import annotations

from rulesdsl.lang import ast
from rulesdsl.lang.check.model import NULLABLE_BASE, elem_of, list_of
from rulesdsl.lang.limits import written_int


class Types:
    """Infers and compares the types of expressions."""

    # ------------------------------------------------------------------ expressions
    def cond(self, e, what):
        t = self.expr(e)
        if t not in ("bool", "any"):
            self.err("E301", f"{what} needs a true/false condition, not {self.show(t)}", e.span,
                     ["to test for cards, write size(...) > 0"] if elem_of(t) is not None else
                     ["compare with ==, <, > or test with 'is'"])

    def expect(self, want: str, got: str, e, what: str):
        if not self.fits(want, got):
            hint = []
            if got.startswith("family:"):
                hint = [f"{got[7:]} is one zone per {', '.join(self.m.zones[got[7:]].dims)}: "
                        f"index it, like {got[7:]}[p]"]
            elif want == "zone" and got == "card":
                hint = ["a zone is needed here, such as discard or hand[p]"]
            elif want == "int" and got == "card":
                numbers = sorted(n for n, t in getattr(self, "field_types", {}).items()
                                 if t == "int")
                hint = [f"a card is not a number; use one of its fields, like c.{numbers[0]}"
                        if numbers else "a card is not a number"]
            elif want == "player" and got == "int":
                hint = ["a number is not a player; seat(N) is the player in seat N"]
            self.err("E300", f"{what} should be {self.show(want)}, but this is {self.show(got)}",
                     getattr(e, "span", None), hint)

    @staticmethod
    def show(t: str) -> str:
        if t.startswith("family:"):
            return f"the zones {t[7:]}[...] (not indexed)"
        if t.startswith("list of "):
            return "a list of " + {"int": "numbers", "bool": "true/false values",
                                   "player": "players", "card": "cards"}.get(t[8:], t[8:])
        return {"int": "a number", "bool": "true/false", "player": "a player", "card": "a card",
                "zone": "a zone", "none": "none", "text": "text"}.get(t, t)

    def fits(self, want: str, got: str) -> bool:
        if want == got or "any" in (want, got):
            return True
        if got == "none":
            return want in NULLABLE_BASE or want in self.m.enums or want.startswith("list of")
        if want.startswith("list of") and got == "zone":
            return want == "list of card"
        if want.startswith("list of") and got.startswith("list of"):
            return self.fits(want[8:], got[8:])
        return False

    def collection(self, e) -> str:
        """Type-check a collection (zone, list, enum) and return its element type."""
        t = self.expr(e)
        et = elem_of(t)
        if et is None:
            hint = []
            if t in self.m.enums:
                hint = [f"to go through every value of {t}, write the enum's name"]
            elif t.startswith("family:"):
                hint = [f"index it, like {t[7:]}[p]"]
            self.err("E302", f"this should be a list, a zone or an enum, but it is {self.show(t)}",
                     e.span, hint)
            return "any"
        return et

    def text(self, text: ast.Text):
        for part in text.parts:
            if not isinstance(part, str):
                self.expr(part)

    def record(self, e, t: str) -> str:
        self.m.types[id(e)] = t
        return t

    def expr(self, e, allow_random: bool = False) -> str:
        self.allow_random = allow_random
        return self._expr(e)

    def _expr(self, e) -> str:
        t = type(e)
        m = self.m
        if t is ast.Int:
            return self.record(e, "int")
        if t is ast.Bool:
            return self.record(e, "bool")
        if t is ast.NoneLit:
            return self.record(e, "none")
        if t is ast.Text:
            self.text(e)
            return self.record(e, "text")
        if t is ast.Name:
            return self.record(e, self.name(e))
        if t is ast.ListLit:
            types = [self._expr(i) for i in e.items]
            et = "any"
            for i, it in zip(e.items, types):
                if et == "any" or et == "none":
                    et = it
                elif not self.fits(et, it):
                    self.err("E300", f"a list mixes {self.show(et)} and {self.show(it)}", i.span)
            return self.record(e, list_of(et))
        if t is ast.Comprehension:
            et = self.collection(e.source)
            self.scope.push()
            m.slots[id(e)] = self.scope.bind(e.binder, et)
            if e.where is not None:
                self.cond(e.where, "where")
            vt = self._expr(e.value) if e.value is not None else et
            self.scope.pop()
            return self.record(e, list_of(vt))
        if t is ast.Attr:
            return self.record(e, self.attr(e))
        if t is ast.Index:
            return self.record(e, self.index(e))
        if t is ast.Call:
            return self.record(e, self.call(e))
        if t is ast.Unary:
            ot = self._expr(e.operand)
            if e.op == "not":
                if ot not in ("bool", "any"):
                    self.err("E301", f"'not' needs true/false, not {self.show(ot)}", e.operand.span,
                         ["compare with ==, <, > or test with 'is'"])
                return self.record(e, "bool")
            self.expect("int", ot, e.operand, "what follows '-'")
            return self.record(e, "int")
        if t is ast.Binary:
            return self.record(e, self.binary(e))
        if t is ast.IsKind:
            self.expect("card", self._expr(e.expr), e.expr, "'is'")
            if e.kind not in m.kinds:
                hint = self.suggest(e.kind, m.kinds)
                if e.kind in m.zones:
                    hint = [f"to test membership, write 'is in {e.kind}'"]
                self.err("E201", f"unknown kind '{e.kind}'",
                         self.name_at(e.span, e.kind, r"\bis\s+(?:not\s+)?"), hint)
            return self.record(e, "bool")
        if t is ast.IsIn:
            it = self._expr(e.expr)
            ct = self.collection(e.collection)
            if not (self.fits(ct, it) or self.fits(it, ct)):
                self.err("E300", f"{self.show(it)} can never be in a list of {self.show(ct)}",
                         e.span)
            return self.record(e, "bool")
        if t is ast.IfExpr:
            self.cond(e.cond, "'if'")
            a = self._expr(e.then)
            b = self._expr(e.else_)
            if a == "none" or a == "any" and b != "none":  # (any: a call of itself)
                a, b = b, a
            if not self.fits(a, b):
                self.err("E300", f"the two branches differ: {self.show(a)} and {self.show(b)}",
                         e.span)
            return self.record(e, a)
        if t is ast.Range:
            for part in (e.start, e.stop, e.step):
                if part is not None:
                    self.expect("int", self._expr(part), part, "each bound of a range")
            self.range_direction(e)
            return self.record(e, "list of int")
        if t is ast.LetIn:
            return self.record(e, self.let_in(e))
        if t is ast.Prefix:
            et = self.collection(e.source)
            self.scope.push()
            m.slots[id(e)] = self.scope.bind(e.binder, et)
            self.cond(e.cond, "while")
            self.scope.pop()
            return self.record(e, list_of(et))
        self.err("E699", f"unknown expression {t.__name__}", getattr(e, "span", None))
        return "any"

    def range_direction(self, e: ast.Range) -> None:
        """A step of 0 (E601); written bounds that a written step goes away from (E601),
        or that count down with no step, which makes the range empty (W709)."""
        start, stop, step = (written_int(x) for x in (e.start, e.stop, e.step))
        if step == 0:
            self.err("E601", "a range's step is 0: it would never reach its end", e.step.span,
                     ["count up with a positive step (`1..9 step 2`), down with a negative "
                      "one (`9..1 step -1`)"])
            return
        if start is None or stop is None or start == stop:
            return
        down = stop < start
        if e.step is None and down:
            self.warn("W709", f"the range {start}..{stop} is empty: a range counts up unless "
                      "its step is negative", e.span,
                      [f"count down with a step: {start}..{stop} step -1"])
        elif step is not None and down != (step < 0):
            way = "down" if down else "up"
            self.err("E601", f"the range {start}..{stop} step {step} is empty: it counts "
                     f"{'up' if step > 0 else 'down'} from {start}, away from {stop}",
                     e.step.span, [f"count {way} with a {'negative' if down else 'positive'} "
                                   f"step: {start}..{stop} step {-step}"])

    def let_in(self, e: ast.LetIn) -> str:
        """`let x = value in body`: x is a local of the body only."""
        vt = self._expr(e.value)
        if vt == "none":
            self.err("E300", f"'{e.name}' would have no type: it is set to none", e.span,
                     ["give it a value of a known type, or use if ... then ... else"])
        if self.scope.lookup(e.name) is not None:
            self.err("E502", f"'{e.name}' is already a local here", e.span,
                     ["pick another name"])
        elif e.name in self.globals or e.name in self.m.kinds:
            self.err("E502", f"'{e.name}' would hide the "
                     f"{self.globals.get(e.name, 'kind')} of that name", e.span,
                     ["pick another name for the local"])
        self.scope.push()
        self.m.slots[id(e)] = self.scope.bind(e.name, vt)
        bt = self._expr(e.body)
        self.scope.pop()
        return bt

    def binary(self, e: ast.Binary) -> str:
        a = self._expr(e.left)
        b = self._expr(e.right)
        op = e.op
        if op in ("and", "or"):
            for side, t in ((e.left, a), (e.right, b)):
                if t not in ("bool", "any"):
                    self.err("E301", f"'{op}' needs true/false on both sides, not {self.show(t)}",
                             side.span)
            return "bool"
        if op in ("==", "!="):
            if not (self.fits(a, b) or self.fits(b, a)):
                hint = []
                if {a, b} == {"player", "int"}:
                    hint = ["a number is not a player; seat(N) is the player in seat N"]
                elif "card" in (a, b):
                    other = b if a == "card" else a
                    fields = sorted(n for n, t in getattr(self, "field_types", {}).items()
                                    if t == other)
                    if fields:
                        hint = [f"compare a field of the card, like c.{fields[0]}"]
                self.err("E300", f"cannot compare {self.show(a)} with {self.show(b)}", e.span,
                         hint)
            return "bool"
        if op in ("<", ">", "<=", ">="):
            self.expect("int", a, e.left, f"each side of '{op}'")
            self.expect("int", b, e.right, f"each side of '{op}'")
            return "bool"
        if op == "+" and (elem_of(a) is not None and a != "any" or
                          elem_of(b) is not None and b != "any"):
            ea, eb = elem_of(a), elem_of(b)
            if ea is None or eb is None or not (self.fits(ea, eb) or self.fits(eb, ea)):
                self.err("E300", f"cannot add {self.show(a)} and {self.show(b)}", e.span,
                         ["'+' joins two lists or zones of the same things, or adds numbers"])
                return "any"
            return list_of(ea if ea != "any" else eb)
        self.expect("int", a, e.left, f"each side of '{op}'")
        self.expect("int", b, e.right, f"each side of '{op}'")
        return "int"

