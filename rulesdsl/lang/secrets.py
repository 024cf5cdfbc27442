"""Does an expression read a secret? Used by the checker to warn (W704) where who is asked
would depend on what some seat may not see."""

from __future__ import annotations

import attrs

from rulesdsl.lang import ast


def reads_secret(e, model, seen=None) -> str:
    """The name of a private or hidden zone or variable `e` reads (through definitions
    too), or "" if none. `size(...)` of a zone is public: only its count is read."""
    if seen is None:
        seen = set()
    if isinstance(e, (list, tuple)):
        for x in e:
            found = reads_secret(x, model, seen)
            if found:
                return found
        return ""
    if not attrs.has(type(e)):
        return ""
    if isinstance(e, ast.Call) and e.name == "size" and \
            model.resolved.get(id(e), ("",))[0] == "builtin":
        return ""
    kind, payload = model.resolved.get(id(e), ("", None))
    if kind == "zone" and model.zones[payload].visibility != "public":
        return payload
    if kind == "var" and (model.vars[payload].decl.visibility or "public") != "public":
        return payload
    if kind == "define" and payload not in seen:
        seen.add(payload)
        d = model.defines[payload]
        found = reads_secret(d.decl.body, model, seen) or \
            reads_secret([(m.cond, m.value) for m in d.modifiers], model, seen)
        if found:
            return found
    return reads_secret([getattr(e, f.name) for f in attrs.fields(type(e))
                         if f.name != "span"], model, seen)


def choices_read_secret(choices, model) -> str:
    """The secret zone or variable that decides whether the choices of a decision offer
    anything (their sources, conditions and `if`s; not their bodies)."""
    for ch in choices:
        parts = [ch.cond] if isinstance(ch, ast.NamedChoice) else \
            [*ch.sources, ch.where] if isinstance(ch, ast.TupleChoice) else [ch.source, ch.where]
        found = reads_secret([p for p in parts if p is not None], model)
        if found:
            return found
    return ""
