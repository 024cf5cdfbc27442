"""What an expression reads of a game's changing state: the variables and zones it names,
through the definitions it calls. Used to know when two positions give the same value of
the file's `evaluate` (agents/outcome.py keeps it per position a search met)."""

from __future__ import annotations

from typing import Optional

import attrs

from rulesdsl.lang import ast

# built-in calls whose value depends only on their arguments and the game's fixed data
# (the players, the boards' shapes): anything else (a random draw, `playable`, which runs
# the rules) is read as reading everything
_PURE_BUILTINS = frozenset({
    "size", "next", "previous", "others", "seat", "top", "bottom", "abs", "sorted", "words",
    "column_of", "row_of", "neighbour", "ray", "around", "distance", "opposite",
    "neighbours", "connected", "largest_group", "joins"})
# the resolved names whose value is fixed for a game, or read from a value the expression
# holds: its options, enums and their fields, a name bound inside it, an item of a list,
# an aggregate over a list it holds
_FIXED = frozenset({"local", "option", "enum_all", "enum_value", "enum_field", "builtin",
                    "list_index", "aggregate"})


def state_reads(e, model) -> Optional[tuple]:
    """(variable names, zone names) that `e` (a checked expression) reads, its definitions'
    bodies included; None where it may read anything else of the state (a built-in that
    runs the rules or draws). Each name stands for all of its instances (`hand` for every
    player's). Cards' fields are read as fixed: where pieces change them (engine/pieces.py)
    the caller asks nothing."""
    found: tuple = (set(), set())
    if not _reads(e, model, found, set()):
        return None
    return found


def _reads(e, model, found: tuple, seen: set) -> bool:
    if isinstance(e, (list, tuple)):
        return all(_reads(x, model, found, seen) for x in e)
    if e is None or isinstance(e, (str, int, bool)):
        return True
    if not attrs.has(type(e)):
        return False
    parts = [getattr(e, f.name) for f in attrs.fields(type(e)) if f.name != "span"]
    kind, payload = model.resolved.get(id(e), ("", None))
    if kind == "var":
        found[0].add(payload)
    elif kind == "zone":
        found[1].add(payload)
    elif kind == "define":
        if payload not in seen:
            seen.add(payload)
            d = model.defines[payload]
            if not _reads([d.decl.body, [(m.cond, m.value) for m in d.modifiers]], model,
                          found, seen):
                return False
    elif kind not in _FIXED and kind not in ("", "card_field"):
        return False
    if isinstance(e, ast.Call) and kind not in ("define", "aggregate") and \
            e.name not in _PURE_BUILTINS:
        return False
    if isinstance(e, ast.Attr) and kind not in ("card_field", "enum_field"):
        return False
    if not isinstance(e, _NODES):
        return False
    return _reads(parts, model, found, seen)


_NODES = (ast.Name, ast.Int, ast.Bool, ast.NoneLit, ast.Text, ast.ListLit, ast.Comprehension,
          ast.Prefix, ast.Attr, ast.Index, ast.Call, ast.Unary, ast.Binary, ast.IsKind,
          ast.IsIn, ast.IfExpr, ast.Range, ast.LetIn)


def fixed_by_arguments(name: str, model) -> bool:
    """Is definition `name`'s value fixed by its arguments for every game of these rules:
    it reads no variable or zone (state_reads), no option and no card's field where pieces
    change fields, draws nothing, runs no rules, calls no definition that may come back to
    it (a remembered call would skip the depth a recursion reaches), and its value holds no
    list inside a list (handed out as a copy, one level deep)? Such a definition may be
    computed once per arguments (engine/runtime/fixed.py)."""
    d = model.defines[name]
    parts = [d.decl.body, [(m.cond, m.value) for m in d.modifiers]]
    found = state_reads(parts, model)
    if found is None or found[0] or found[1] or "list of list" in str(d.type):
        return False
    kinds: set = set()
    calls: set = set()
    _kinds_and_calls(parts, model, kinds, calls)
    if "option" in kinds or ("card_field" in kinds and model.piece_fields):
        return False
    return name not in calls


def visits_lists(name: str, model) -> bool:
    """Does definition `name` go through a list (`[c in Cell where ...]`, `sum(...)`),
    itself or through a definition it calls? Remembering one that does not saves nothing."""
    d = model.defines[name]
    kinds: set = set()
    _kinds_and_calls([d.decl.body, [(m.cond, m.value) for m in d.modifiers]], model, kinds,
                     set())
    return "(a list visited)" in kinds


def _kinds_and_calls(e, model, kinds: set, calls: set) -> None:
    """The resolved kinds of names `e` reads and the definitions it calls, through the
    bodies of those it calls; "(a list visited)" among the kinds where it goes through a
    list."""
    if isinstance(e, (list, tuple)):
        for x in e:
            _kinds_and_calls(x, model, kinds, calls)
        return
    if e is None or not attrs.has(type(e)):
        return
    kind, payload = model.resolved.get(id(e), ("", None))
    kinds.add(kind)
    if isinstance(e, (ast.Comprehension, ast.Prefix)):
        kinds.add("(a list visited)")
    if kind == "define" and payload not in calls:
        calls.add(payload)
        d = model.defines[payload]
        _kinds_and_calls([d.decl.body, [(m.cond, m.value) for m in d.modifiers]], model,
                         kinds, calls)
    _kinds_and_calls([getattr(e, f.name) for f in attrs.fields(type(e)) if f.name != "span"],
                     model, kinds, calls)
