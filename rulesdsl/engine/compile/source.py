"""Expressions as Python source: one generated function per expression tree instead of a
closure per node.

`xs(e)` gives a Python expression over `st` (the state) and `L` (the frame's locals) that
computes what the closure `expr(e)` computes, with the same errors. Nodes it has no source
form for (calls, comprehensions, texts ...) stay closures, named in the generated code and
called as `K7(st, L)`; loop invariants stay hoisted because those nodes go through `expr`.
The generated text is kept (`generated_source`) so `rulesdsl compile GAME --show` prints
it, and compiled code is cached by its text."""

from __future__ import annotations

from rulesdsl.lang import ast
from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.engine.compile.program import MAX_INT, moves_cost
from rulesdsl.engine.compile.generate import Statement, compiled


# helpers the generated code calls on its error paths only
def _none_field(name, span):
    raise RuntimeRulesError("R013", f"asked for .{name} of none", span,
                            ["check that a card was found before using it"])


def _none_operand(op, span):
    raise RuntimeRulesError("R013", f"'{op}' was given none", span)


def _too_big(span):
    raise RuntimeRulesError("R030", f"a number grew past {MAX_INT}", span,
                            ["numbers stay within -2^53..2^53"])


def _bad_index(name, k, span):
    raise RuntimeRulesError("R010", f"{name}[...] was given {'none' if k is None else k}", span)


HELPERS = {"_none_field": _none_field, "_none_operand": _none_operand, "_too_big": _too_big,
           "_bad_index": _bad_index, "MAX_INT": MAX_INT, "moves_cost": moves_cost}

_COMPARE = {"<", ">", "<=", ">="}
_ARITH = {"+", "-", "*"}


class Source:
    """Compiles expression trees to generated Python functions."""

    def init_source(self) -> None:
        self.ns = dict(HELPERS)  # the generated code's globals: tables and closures by name
        self.ns_ids = {}  # id(object) -> its name in ns
        self.generated = []  # every generated definition, in order, for --show
        self.temps = 0

    # ------------------------------------------------------------------ names
    def ref(self, obj, stem: str = "K") -> str:
        """The name under which the generated code reaches a table or a closure."""
        key = id(obj)
        name = self.ns_ids.get(key)
        if name is None:
            name = f"{stem}{len(self.ns)}"
            self.ns[name] = obj
            self.ns_ids[key] = name
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def closure_call(self, e) -> str:
        return self.ref(self.expr(e)) + "(st, L)"

    # ------------------------------------------------------------------ entry points
    def generated_lambda(self, e, text: str):
        """`lambda st, L: text` in the program's namespace (noted for --show)."""
        name = f"E{len(self.generated)}"
        self.generated.append((name, getattr(e, "span", None), f"lambda st, L: {text}"))
        return eval(compiled(f"lambda st, L: {text}"), self.ns)

    def xs(self, e) -> str:
        """Python source for `e`; a closure call where no source form exists."""
        method = getattr(self, "xs_" + type(e).__name__, None)
        if method is not None:
            text = method(e)
            if text is not None:
                return text
        return self.closure_call(e)

    def xs_or(self, e, f) -> str:
        """Source for `e` whose closure `f` is compiled already: reuse it where `e` has no
        source form, rather than compiling it twice."""
        method = getattr(self, "xs_" + type(e).__name__, None)
        text = method(e) if method is not None else None
        return text if text is not None else self.ref(f) + "(st, L)"

    def plain(self, closure):
        """The source form of an instruction that only changes the game (never the frames,
        never a decision): a call of its closure, without the interpreter around it."""
        return Statement("do", (f"{self.ref(closure, 'I')}(st, fr)",))

    def index_source(self, layout, args: list, closures: list, idx, span) -> str:
        """The flat index of a variable instance (`instance` as source)."""
        if not args:
            return repr(layout.base)
        if len(args) == 1:
            arg, t, size = self.xs_or(args[0], closures[0]), self.temp(), layout.sizes[0]
            return (f"({layout.base} + {t} if ({t} := {arg}) is not None and "
                    f"0 <= {t} < {size} else _bad_index({layout.name!r}, {t}, "
                    f"{self.ref(span, 'S')}))")
        return self.ref(idx) + "(st, L)"

    def cards_source(self, e, closure) -> str:
        """A fresh list of card ids for a card, a list or a zone (`cards_of` as source)."""
        t = self.m.types.get(id(e), "any")
        if t == "card":
            c = self.temp()
            return f"([] if ({c} := {self.xs(e)}) is None else [{c}])"
        return self.ref(closure) + "(st, L)"

    def inline_root(self, e):
        """For `expr`: a generated function for `e`, or None to use the closures."""
        method = getattr(self, "xs_" + type(e).__name__, None)
        if method is None:
            return None
        text = method(e)
        if text is None:
            return None
        return self.generated_lambda(e, text)

    # ------------------------------------------------------------------ leaves
    def xs_Int(self, e):
        return repr(e.value) if -MAX_INT <= e.value <= MAX_INT else None

    def xs_Bool(self, e):
        return repr(e.value)

    def xs_NoneLit(self, e):
        return "None"

    def xs_Name(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind == "local":
            return f"L[{payload}]"
        if kind == "var":
            return f"st.vars[{self.p.vars[payload].base}]"
        if kind == "zone":
            return repr(self.p.zones[payload].base)
        if kind == "option":
            v = self.options[payload]
            return repr(v) if isinstance(v, (int, bool, str)) or v is None else None
        if kind == "enum_value":
            return repr(payload[1])
        if kind == "builtin" and payload == "player_count":
            return repr(self.n)
        return None  # definitions (memoised, hoisted), lists: their closures

    def xs_Attr(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind == "enum_value":
            return repr(payload[1])
        pieces = self.p.pieces
        if kind == "card_field" and pieces is not None and payload in pieces.base:
            # a piece's changing field: its value now, in the state (engine/pieces.py)
            obj, t, span = self.xs(e.obj), self.temp(), self.ref(e.span, "S")
            return (f"(st.vars[{pieces.base[payload]} + {t}] if ({t} := {obj}) is not None "
                    f"else _none_field({payload!r}, {span}))")
        if kind == "card_field":
            table, name = self.ref(self.p.fields[payload], f"F_{payload}_"), payload
        elif kind == "enum_field":
            table, name = self.ref(self.enum_fields[payload], f"F_{payload[1]}_"), payload[1]
        else:
            return None
        span = self.ref(e.span, "S")
        obj = self.xs(e.obj)
        if obj.startswith("L[") and obj.endswith("]") and obj[2:-1].isdigit():
            return f"({table}[{obj}] if {obj} is not None else _none_field({name!r}, {span}))"
        t = self.temp()
        return f"({table}[{t}] if ({t} := {obj}) is not None else _none_field({name!r}, {span}))"

    def xs_Index(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind != "var":
            return None
        layout = self.p.vars[payload]
        if len(e.args) != 1 or len(layout.sizes) != 1:
            return None
        arg = self.xs(e.args[0])
        t, size, span = self.temp(), layout.sizes[0], self.ref(e.span, "S")
        return (f"(st.vars[{layout.base} + {t}] if ({t} := {arg}) is not None and "
                f"0 <= {t} < {size} else _bad_index({layout.name!r}, {t}, {span}))")

    # ------------------------------------------------------------------ operators
    def xs_Unary(self, e):
        inner = self.xs(e.operand)
        return f"(not {inner})" if e.op == "not" else f"(-{inner})"

    def xs_IfExpr(self, e):
        return f"({self.xs(e.then)} if {self.xs(e.cond)} else {self.xs(e.else_)})"

    def xs_IsKind(self, e):
        members = self.ref(self.p.members[e.kind], f"M_{e.kind}_")
        t = self.temp()
        if e.negated:
            return f"(({t} := {self.xs(e.expr)}) is None or not {members}[{t}])"
        return f"(({t} := {self.xs(e.expr)}) is not None and {members}[{t}])"

    def xs_Binary(self, e):
        op = e.op
        if op in ("and", "or"):
            return f"({self.xs(e.left)} {op} {self.xs(e.right)})"
        if op in ("==", "!="):
            return f"({self.xs(e.left)} {op} {self.xs(e.right)})"
        lt = self.m.types.get(id(e.left), "int")
        rt = self.m.types.get(id(e.right), "int")
        if lt != "int" or rt != "int" or op not in _COMPARE | _ARITH:
            return None  # lists, texts, division: their closures
        a, b, span = self.xs(e.left), self.xs(e.right), self.ref(e.span, "S")
        x, y = self.temp(), self.temp()
        both = f"({x} := {a}) is not None and ({y} := {b}) is not None"
        if op in _COMPARE:
            return f"({x} {op} {y} if {both} else _none_operand({op!r}, {span}))"
        v = self.temp()
        return (f"(({v} if -MAX_INT <= ({v} := {x} {op} {y}) <= MAX_INT else _too_big({span}))"
                f" if {both} else _none_operand({op!r}, {span}))")
