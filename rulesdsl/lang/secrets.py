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


@attrs.frozen
class SecretRead:
    """A private or hidden zone or variable an expression reads. `owner`: the expression
    naming the one player who may see it (`hand[p]`, `secret[seat(0)]`: its player
    index), or None where no seat may, or where the reader cannot be told from the
    expression (a hidden zone, a private value of nobody, a read inside a definition or
    indexed by a name bound inside the expression). `others`: a zone every seat but its
    owner sees (`hand[p]` of `per player others`), so `owner` names the one seat that
    may not read it."""
    name: str
    owner: object = None
    others: bool = False


def tells_card(e, types: dict) -> bool:
    """Does a text's hole tell a card: a card, a list of cards, a zone, a card's attribute?"""
    t = types.get(id(e), "any")
    if t in ("card", "list of card", "zone", "any"):
        return True
    return isinstance(e, ast.Attr) and tells_card(e.obj, types)


def hole_reads(hole, model, in_move_words: bool = False) -> list:
    """The secrets a hole of a text (a `log` line, a question, a move's words) reads, that
    decide which seats may read it (engine/compile/seat_words.py). A zone's name is
    public; in a move's words a hole that tells a card is masked by the move's places
    instead."""
    if in_move_words and tells_card(hole, model.types):
        return []
    naming_zone = model.types.get(id(hole)) == "zone"
    return [r for r in secret_reads(hole, model) if not (naming_zone and r.name in model.zones)]


def secret_reads(e, model) -> list:
    """Every SecretRead of `e`, in order; [] when `e` reads only what every seat sees."""
    inner: set = set()
    _bound_inside(e, model, inner)
    out: list = []
    _collect_reads(e, model, inner, out)
    return out


def _collect_reads(e, model, inner: set, out: list) -> None:
    if isinstance(e, (list, tuple)):
        for x in e:
            _collect_reads(x, model, inner, out)
        return
    if not attrs.has(type(e)):
        return
    if isinstance(e, ast.Call) and e.name == "size" and \
            model.resolved.get(id(e), ("",))[0] == "builtin":
        return
    kind, payload = model.resolved.get(id(e), ("", None))
    if kind in ("zone", "var"):
        info = model.zones[payload] if kind == "zone" else model.vars[payload]
        visibility = info.visibility if kind == "zone" else \
            (info.decl.visibility or "public")
        if visibility != "public":
            out.append(SecretRead(payload, _owner(e, info, visibility, model, inner),
                                  visibility == "others"))
    elif kind == "define":
        found = reads_secret(e, model)
        if found:  # read with the definition's own parameters: not told from here
            out.append(SecretRead(found))
            return
    _collect_reads([getattr(e, f.name) for f in attrs.fields(type(e)) if f.name != "span"],
                   model, inner, out)


def _owner(e, info, visibility: str, model, inner: set):
    """The player index of `zone[p]` / `var[p]` when private (or others) and per player,
    else None."""
    if visibility not in ("private", "others") or not isinstance(e, ast.Index) or \
            "player" not in info.dims:
        return None
    owner = e.args[info.dims.index("player")]
    used: set = set()
    _locals_read(owner, model, used)
    return None if used & inner else owner


def _bound_inside(e, model, out: set) -> None:
    """The local slots that binders inside `e` (`x in ...` of an aggregate) bind."""
    if isinstance(e, (list, tuple)):
        for x in e:
            _bound_inside(x, model, out)
        return
    if not attrs.has(type(e)):
        return
    slot = model.slots.get(id(e))
    if slot is not None:
        out.update(slot if isinstance(slot, tuple) else (slot,))
    _bound_inside([getattr(e, f.name) for f in attrs.fields(type(e)) if f.name != "span"],
                  model, out)


def _locals_read(e, model, out: set) -> None:
    if isinstance(e, (list, tuple)):
        for x in e:
            _locals_read(x, model, out)
        return
    if not attrs.has(type(e)):
        return
    kind, payload = model.resolved.get(id(e), ("", None))
    if kind == "local":
        out.add(payload)
    _locals_read([getattr(e, f.name) for f in attrs.fields(type(e)) if f.name != "span"],
                 model, out)
