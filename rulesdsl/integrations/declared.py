"""What a checked file declares about itself that the adapters need and the engine does not
ask: whether anything random can happen, whether every seat sees everything, and where
each decision's choices are written. Read off the checked tree, for any game."""

from __future__ import annotations

import itertools
import math
from typing import Iterator, Optional

import attrs

from rulesdsl.lang import ast
from rulesdsl.lang.check.model import RANDOM_CALLS

_RANDOM_STATEMENTS = (ast.Shuffle, ast.Roll)
_ASKS = (ast.Ask, ast.AskEach, ast.AskTogether)


def nodes(tree) -> Iterator[object]:
    """Every node under `tree` (itself included), depth first; spans are not nodes."""
    stack = [tree]
    while stack:
        x = stack.pop()
        if isinstance(x, (tuple, list)):
            stack.extend(reversed(x))
        elif attrs.has(type(x)):
            yield x
            stack.extend(reversed([getattr(x, f.name) for f in attrs.fields(type(x))
                                   if f.name != "span"]))


def reachable(model) -> list:
    """The statements' roots a game can run: setup, the flow's phase and every phase it
    calls (through other phases, card effects and responses), responses and card kinds."""
    roots = [model.setup, model.phases.get(model.flow)] + list(model.responses) + \
        [k.decl for k in model.kinds.values()]
    seen_phases = {model.flow}
    out, work = [], [r for r in roots if r is not None]
    while work:
        root = work.pop()
        out.append(root)
        for n in nodes(root):
            kind, name = tuple(model.resolved.get(id(n), ("", None)))[:2] or ("", None)
            if kind == "phase" and name not in seen_phases and name in model.phases:
                seen_phases.add(name)
                work.append(model.phases[name])
    return out


def random_events(model) -> list:
    """The spans of every random event a game can run into: shuffles, rolls, and the
    `random`/`roll` built-ins (which the checker allows only directly in statements)."""
    out = []
    for root in reachable(model):
        for n in nodes(root):
            if isinstance(n, _RANDOM_STATEMENTS) or (
                    isinstance(n, ast.Call) and n.name in RANDOM_CALLS and
                    tuple(model.resolved.get(id(n), ()))[:1] == ("builtin",)):
                out.append(n.span)
    return out


def is_deterministic(model) -> bool:
    return not random_events(model)


def hides_anything(prog) -> bool:
    """Does any seat ever not see something another seat sees: a zone or variable that is
    not public, scores not public, or a secret choice (`ask together`)?"""
    if any(vis != "public" for vis in prog.zone_vis):
        return True
    if any(lay.visibility != "public" for lay in prog.vars.values()):
        return True
    if prog.score is not None and prog.score_visibility != "public":
        return True
    return any(getattr(ins, "secret", False) for proc in prog.procs for ins in proc.code)


def asks_by_span(model) -> dict:
    """Each decision statement of the file by its span (the engine's Ask carries it)."""
    return {n.span: n for root in reachable(model) for n in nodes(root)
            if isinstance(n, _ASKS)}


class _Unknown(Exception):
    """A part of a condition that reads the game's state (or what this reading of
    conditions does not follow): its value is known only when the decision is posed."""


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b,
            "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
            ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
            "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
_GRID_CALLS = ("row_of", "column_of")


def offered_values(model, prog, choice, kind: str) -> Optional[tuple]:
    """The values of an enum or board an alternative `x in E where ...` can ever offer: those
    for which no part of its condition that reads only x and constants is false. None where
    that leaves every value (or the alternative binds something else)."""
    if not isinstance(choice, ast.BinderChoice) or kind not in prog.enums or \
            tuple(model.resolved.get(id(choice.source), ()))[:1] != ("enum_all",):
        return None
    slot = model.slots.get(id(choice))
    fixed = [c for c in _conjuncts(choice.where) if _reads_only(model, c, slot)]
    if not fixed:
        return None
    everything = range(len(prog.enums[kind]))
    kept = []
    for v in everything:
        try:
            if all(_value(model, prog, c, slot, v) for c in fixed):
                kept.append(v)
        except _Unknown:
            return None
    return tuple(kept) if len(kept) < len(everything) else None


_NO_BINDER = object()     # the slot of no binder: a definition's own locals are not it


def fixed_values(model, prog, choice, most: int) -> Optional[tuple]:
    """Every value an alternative over whole numbers can offer where its ranges are known
    before play (their bounds numbers, options, `player_count` or definitions of those):
    `n in 1..sides` its numbers, `(n, f) in 1..dice, 1..sides` each pair, in order. None
    for any other alternative (a range up to what a player holds), or one of more than
    `most` values."""
    if isinstance(choice, ast.BinderChoice):
        sources = (choice.source,)
    elif isinstance(choice, ast.TupleChoice):
        sources = choice.sources
    else:
        return None
    ranges = [_fixed_range(model, prog, source) for source in sources]
    if None in ranges or not 0 < math.prod(map(len, ranges)) <= most:
        return None
    if isinstance(choice, ast.BinderChoice):
        return tuple(ranges[0])
    return tuple(itertools.product(*ranges))


def _fixed_range(model, prog, source) -> Optional[range]:
    if not isinstance(source, ast.Range):
        return None
    parts = [source.start, source.stop] + ([source.step] if source.step is not None else [])
    try:
        start, stop, step = [_value(model, prog, e, _NO_BINDER, None) for e in parts] + \
            ([1] if source.step is None else [])
    except _Unknown:
        return None
    if not all(type(v) is int for v in (start, stop, step)) or step == 0:
        return None
    return range(start, stop + 1, step) if step > 0 else range(start, stop - 1, step)


def _conjuncts(e) -> list:
    if e is None:
        return []
    if isinstance(e, ast.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _reads_only(model, e, slot) -> bool:
    """Does `e` read nothing but the binder and constants?"""
    try:
        _value(model, None, e, slot, None, probe=True)
        return True
    except _Unknown:
        return False


def _value(model, prog, e, slot, x, probe: bool = False):
    """`e`'s value with the binder at x; `probe` only checks that it can be worked out."""
    def value(e):
        return _value(model, prog, e, slot, x, probe)
    if isinstance(e, (ast.Int, ast.Bool)):
        return e.value
    resolved = tuple(model.resolved.get(id(e), ()))
    if isinstance(e, ast.Name):
        if resolved == ("local", slot):
            return x
        if resolved[:1] == ("enum_value",):
            return resolved[1][1]
        return _constant(model, prog, resolved, probe)
    if isinstance(e, ast.Binary) and e.op in _COMPARE:
        a, b = value(e.left), value(e.right)
        return None if probe else _COMPARE[e.op](a, b)
    if isinstance(e, ast.Binary) and e.op in ("and", "or"):
        a, b = value(e.left), value(e.right)
        return None if probe else (a and b if e.op == "and" else a or b)
    if isinstance(e, ast.Unary) and e.op in ("not", "-"):
        a = value(e.operand)
        return None if probe else (not a if e.op == "not" else -a)
    if isinstance(e, ast.Call) and e.name in _GRID_CALLS and resolved[:1] == ("builtin",) \
            and len(e.args) == 1:
        cell = value(e.args[0])
        if probe:
            return None
        from rulesdsl.engine.grid import grid_builtin  # the engine's own reading of a grid
        board = model.types.get(id(e.args[0]))
        tables = prog.grids.get(board)
        if tables is None or cell is None:
            raise _Unknown
        return grid_builtin(e.name, tables, [lambda st, L: cell], e.span)(None, None)
    raise _Unknown


def _constant(model, prog, resolved: tuple, probe: bool):
    """A name whose value is fixed before play: a number or true/false option, the number
    of players, or a definition without parameters or modifiers of such values."""
    if resolved[:1] == ("option",):
        if probe:
            return None
        value = prog.options.get(resolved[1])
        if type(value) in (int, bool):
            return value
    elif resolved == ("builtin", "player_count"):
        return None if probe else prog.nplayers
    elif resolved[:1] == ("define",):
        d = model.defines.get(resolved[1])
        if d is not None and not d.params and not d.modifiers:
            return _value(model, prog, d.decl.body, _NO_BINDER, None, probe)
    raise _Unknown
