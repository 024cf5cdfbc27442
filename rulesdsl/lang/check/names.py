"""Checking names, fields, indexes, calls of definitions and built-ins, and aggregates."""

from __future__ import annotations

from rulesdsl.lang import ast
from rulesdsl.lang.check.model import (AGGREGATES, BUILTIN_CALLS, BUILTIN_VALUES,
                                       RANDOM_CALLS, elem_of, list_of)


class Names:
    """Resolves names and calls to their declarations."""

    def name(self, e: ast.Name) -> str:
        m = self.m
        n = e.name
        local = self.scope.lookup(n) if self.scope else None
        if local is not None:
            m.resolved[id(e)] = ("local", local[0])
            return local[1]
        if self.context == "label" and self.label_fields is not None and n in self.label_fields:
            m.resolved[id(e)] = ("self_field", n)
            return self.label_fields[n][0]
        if n in m.vars:
            self.used.add(n)
            v = m.vars[n]
            if v.dims:
                self.err("E401", f"variable {n} is indexed by {', '.join(v.dims)}", e.span,
                         [f"write {n}[...]"])
                return "any"
            m.resolved[id(e)] = ("var", n)
            return v.type
        if n in m.zones:
            self.used.add(n)
            z = m.zones[n]
            m.resolved[id(e)] = ("zone", n)
            return f"family:{n}" if z.dims else "zone"
        if n in m.options:
            m.resolved[id(e)] = ("option", n)
            return self.option_type(n)
        if n in m.defines:
            self.used.add(n)
            d = m.defines[n]
            if d.params:
                self.err("E400", f"{n} takes {len(d.params)} argument"
                         f"{'s' if len(d.params) != 1 else ''}", e.span,
                         [f"write {n}({', '.join(p for p, _ in d.params)})"])
                return d.type
            self.infer_define(d)
            m.resolved[id(e)] = ("define", n)
            return d.type
        if n in BUILTIN_VALUES:
            m.resolved[id(e)] = ("builtin", n)
            return BUILTIN_VALUES[n]
        if n in m.enums:
            m.resolved[id(e)] = ("enum_all", n)
            return list_of(n)
        if n in self.enum_value_owner:
            en, index = self.enum_value_owner[n]
            m.resolved[id(e)] = ("enum_value", (en.name, index))
            return en.name
        if n in m.phases:
            self.err("E605", f"'{n}' is a phase, not a value", e.span,
                     ["run a phase as a statement on its own line"])
            return "any"
        if n in m.kinds:
            self.err("E605", f"'{n}' is a kind of card, not a value", e.span,
                     [f"to test a card, write 'c is {n}'"])
            return "any"
        label_fields = self.label_fields if self.context == "label" and self.label_fields \
            else ()
        self.err("E200", f"unknown name '{n}'", e.span, self.unknown_hints(
            n, self.suggest(n, self.globals, self.scope.names() if self.scope else (),
                            label_fields)))
        return "any"

    def option_type(self, n: str) -> str:
        o = self.m.options[n]
        return "int" if o.type.name == "range" else self.type_of_ref(o.type)

    def attr(self, e: ast.Attr) -> str:
        m = self.m
        # Enum.value
        if isinstance(e.obj, ast.Name) and e.obj.name in m.enums and \
                (self.scope is None or self.scope.lookup(e.obj.name) is None):
            en = m.enums[e.obj.name]
            if e.name not in en.positions:
                self.err("E203", f"{en.name} has no value '{e.name}'", e.span,
                         self.suggest(e.name, en.values))
                return "any"
            m.resolved[id(e)] = ("enum_value", (en.name, en.positions[e.name]))
            return en.name
        ot = self._expr(e.obj)
        if ot == "card":
            if e.name not in self.field_types:
                self.err("E203", f"no kind of card has a field '{e.name}'", e.span,
                         self.suggest(e.name, self.field_types))
                return "any"
            m.resolved[id(e)] = ("card_field", e.name)
            return self.field_types[e.name]
        if ot in m.enums:
            en = m.enums[ot]
            if e.name not in en.fields:
                self.err("E203", f"{ot} has no field '{e.name}'", e.span,
                         self.suggest(e.name, en.fields) or
                         [f"{ot} has " + ("fields " + ", ".join(en.fields) if en.fields
                                          else "no fields")])
                return "any"
            m.resolved[id(e)] = ("enum_field", (ot, e.name))
            return en.fields[e.name]
        if ot != "any":
            self.err("E203", f"{self.show(ot)} has no fields", e.span,
                     ["fields belong to cards and to enum values"])
        return "any"

    def index(self, e: ast.Index) -> str:
        m = self.m
        if isinstance(e.obj, ast.Name):
            n = e.obj.name
            whole = n in m.vars and not m.vars[n].dims and m.vars[n].type.startswith("list of")
            if (self.scope is None or self.scope.lookup(n) is None) and not whole:
                # (a list variable of no index: `dice[0]` is its first item)
                if n in m.zones:
                    self.used.add(n)
                    z = m.zones[n]
                    self.indexes(n, z.dims, e.args, e.span)
                    m.resolved[id(e)] = ("zone", n)
                    return "zone"
                if n in m.vars:
                    self.used.add(n)
                    v = m.vars[n]
                    self.indexes(n, v.dims, e.args, e.span)
                    m.resolved[id(e)] = ("var", n)
                    return v.type
        ot = self._expr(e.obj)
        if ot.startswith("list of") or ot == "zone":
            if len(e.args) != 1:
                self.err("E401", "a list takes one index", e.span)
            for a in e.args:
                self.expect("int", self._expr(a), a, "a list index")
            m.resolved[id(e)] = ("list_index", None)
            return elem_of(ot) or "any"  # (never none here: a list's or a zone's)
        if ot != "any":
            self.err("E303", f"{self.show(ot)} cannot be indexed", e.span)
        for a in e.args:
            self._expr(a)
        return "any"

    def call(self, e: ast.Call) -> str:
        m = self.m
        n = e.name
        args = e.args
        if n in AGGREGATES:
            return self.aggregate(e)
        if n in m.defines:
            self.used.add(n)
            d = m.defines[n]
            self.infer_define(d)
            if len(args) != len(d.params):
                self.err("E400", f"{n} takes {len(d.params)} argument"
                         f"{'s' if len(d.params) != 1 else ''}, not {len(args)}", e.span,
                         [f"write {n}({', '.join(p for p, _ in d.params)})"])
            for a, (pname, pt) in zip(args, d.params):
                self.expect(pt, self._expr(a), a, f"parameter {pname} of {n}")
            for a in args[len(d.params):]:
                self._expr(a)
            m.resolved[id(e)] = ("define", n)
            return d.type
        if n in BUILTIN_CALLS:
            if n == "playable":
                self.reads_playable = True
            if n in RANDOM_CALLS and getattr(self.scope, "in_sequence", False):
                self.no_random_in_sequence(e.span, f"{n}(...)")
            elif n in RANDOM_CALLS and not getattr(self, "allow_random", False):
                self.err("E606", f"{n}(...) can only stand directly in let or move, or as "
                         "the value of set", e.span, [f"draw it once: let x = {n}(...)"])
            params, result = BUILTIN_CALLS[n]
            if n in ("top", "bottom") and len(args) == 2:
                params, result = ("zone", "int"), "list of card"
            if len(args) != len(params):
                self.err("E400", f"{n} takes {len(params)} argument"
                         f"{'s' if len(params) != 1 else ''}, not {len(args)}", e.span)
                for a in args:
                    self._expr(a)
                return "any"
            ts = []
            for a, pt in zip(args, params):
                at = self._expr(a)
                ts.append(at)
                if pt == "coll":
                    if elem_of(at) is None:
                        self.err("E302", f"{n} needs a list or a zone, not {self.show(at)}", a.span)
                elif pt == "cell":
                    if at != "any" and not (at in m.enums and m.enums[at].grid):
                        self.err("E300", f"{n} needs a cell of a grid board, not "
                                 f"{self.show(at)}", a.span)
                elif pt == "node" or pt == "list of node":
                    base = at[8:] if pt.startswith("list") else at
                    if at != "any" and base != "any" and \
                            not (base in m.enums and m.enums[base].is_board):
                        many = pt.startswith("list")
                        self.err("E300", f"{n} needs {'a list of ' if many else 'a '}"
                                 f"board node{'s' if many else ''}, not "
                                 f"{self.show(at)}", a.span)
                else:
                    self.expect(pt, at, a, f"the argument of {n}")
            m.resolved[id(e)] = ("builtin", n)
            if result == "elem":
                return elem_of(ts[0]) or "any"
            if result == "list of elem":
                return list_of(elem_of(ts[0]) or "any")
            if result in ("cell", "list of cell"):
                cell = ts[0] if ts[0] in m.enums else "any"
                return cell if result == "cell" else list_of(cell)
            if result == "list of node":
                return list_of(ts[0]) if ts[0] != "any" else "any"
            return result
        if n in m.phases:
            gives = m.phases[n].decl.result is not None
            self.err("E605", f"'{n}' is a phase; it runs as a statement, not as a value", e.span,
                     [f"take its value whole, on a line of its own: let x = {n}(...)"] if gives
                     else [f"declare the value it gives and take it whole: phase {n}(...): "
                           f"bool {{ ... return (true) }}, then let x = {n}(...)"])
        elif n in m.zones or n in m.vars:
            self.err("E206", f"'{n}' is a {'zone' if n in m.zones else 'variable'}, not a "
                     "function", e.span, [f"index it with square brackets: {n}[...]"])
        elif n in ("score", "evaluate", "payoff"):
            self.err("E206", f"'{n}' is not a definition a rule can call: it is read by the "
                     "players and the tools", e.span,
                     [f"put the formula in a definition and use it in both: define "
                      f"points(p: player) = ...  {n}(p: player) = points(p)"])
        else:
            self.err("E206", f"unknown function '{n}'", e.span, self.unknown_hints(
                n, self.suggest(n, m.defines, BUILTIN_CALLS, AGGREGATES)))
        for a in args:
            self._expr(a)
        return "any"

    def aggregate(self, e: ast.Call) -> str:
        m = self.m
        n = e.name
        if len(e.args) != 1:
            self.err("E400", f"{n} takes one list, not {len(e.args)}", e.span,
                     [f"write {n}(LIST) or {n}(x in LIST where CONDITION)"])
            for a in e.args:
                self._expr(a)
            return "any"
        a = e.args[0]
        at = self._expr(a)
        et = elem_of(at)
        if et is None:
            self.err("E302", f"{n} needs a list, a zone or 'x in ... where ...', not "
                     f"{self.show(at)}", a.span)
            et = "any"
        m.resolved[id(e)] = ("aggregate", n)
        if n == "count":
            return "int"
        if n in ("sum", "max", "min"):
            if et not in ("int", "any"):
                self.err("E300", f"{n} adds up numbers, but these are {self.show(et)}", a.span,
                         [f"write {n}(c.value for c in ...)"])
            return "int"
        if n in ("any", "all"):
            return "bool"
        return et  # first, last
