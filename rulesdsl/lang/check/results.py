"""Phases that give a value, written as the statements they stand for before checking.

    phase challenged(p: player, role: Role): bool { ... return (true) ... }
    let stood = challenged(p, duke)

A phase runs as a statement (it may stop for decisions), so its value is taken whole, by
`let` or `set`, right after it returns. The phase keeps the value in a hidden variable of
its own, `challenged.result` (a name no file can write), which it clears when it starts
(`false` for a truth value, `none` otherwise):

- the phase's body starts with `set challenged.result = none`;
- `return (E)` is `set challenged.result = E` and `return`;
- `let x = challenged(a)` is `challenged(a)` and `let x = challenged.result`, and so is
  `set v = challenged(a)`.

Every later stage (the checker's types, the compiler, every back end, saves) sees only
these statements, so none of them changes; errors keep the spans of what was written.
"""

from __future__ import annotations

from typing import Optional

import attrs

from rulesdsl.lang import ast


def result_var(phase: str) -> str:
    return f"{phase}.result"


def is_result_var(name: str) -> bool:
    """Is `name` a phase's result variable (hidden, but a value only between a phase's
    `return` and the statement that takes it: no decision ever sees it)?"""
    return name.endswith(".result")


def what_is_set(name: str) -> str:
    """How a message names the value a `set` gives: a phase's result by its phase."""
    if is_result_var(name):
        return f"the value phase {name[:-len('.result')]} gives"
    return f"the value of {name}"


def give_results(checker, decls: list) -> list:
    """The declarations with every phase result written out (see the module's docstring),
    and the hidden variables that hold them; `return (VALUE)` where no result is declared
    is E604."""
    valued = {d.name: d for d in decls if isinstance(d, ast.Phase) and d.result is not None}
    out = []
    for d in decls:
        phase = d.name if isinstance(d, ast.Phase) and d.name in valued else None
        new = _rewrite(d, _Context(checker, valued, phase))
        if phase is not None:
            new = attrs.evolve(new, body=attrs.evolve(new.body, stmts=(
                _clear(new),) + new.body.stmts))
        out.append(new)
    for d in valued.values():
        out.append(ast.Var(d.span, result_var(d.name), d.result, (), _cleared(d), "hidden"))
        checker.used.add(result_var(d.name))  # read where the phase's value is taken
    return out


@attrs.define
class _Context:
    checker: object
    valued: dict      # phase name -> its declaration, for the phases that give a value
    phase: Optional[str]  # the phase being rewritten, if it gives a value


def _cleared(phase: ast.Phase):
    if phase.result is not None and phase.result.name == "bool":
        return ast.Bool(phase.span, False)
    return ast.NoneLit(phase.span)


def _clear(phase: ast.Phase) -> ast.Set:
    return ast.Set(phase.span, result_var(phase.name), (), "=", _cleared(phase))


def _rewrite(node, ctx: _Context):
    """`node` with its blocks' statements written out; the node itself where none changed."""
    if isinstance(node, ast.Block):
        written: list = []
        for s in node.stmts:
            written.extend(_statement(_rewrite(s, ctx), ctx))
        stmts = tuple(written)
        return node if len(stmts) == len(node.stmts) and all(
            a is b for a, b in zip(stmts, node.stmts)) else attrs.evolve(node, stmts=stmts)
    if isinstance(node, tuple):
        items = tuple(_rewrite(x, ctx) for x in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if not attrs.has(type(node)):
        return node
    changes = {}
    for f in attrs.fields(type(node)):
        if not f.init:
            continue
        old = getattr(node, f.name)
        if isinstance(old, (ast.Block, tuple)) or attrs.has(type(old)) and _holds_block(old):
            new = _rewrite(old, ctx)
            if new is not old:
                changes[f.name] = new
    return attrs.evolve(node, **changes) if changes else node


def _holds_block(node) -> bool:
    return any(isinstance(getattr(node, f.name), (ast.Block, tuple))
               for f in attrs.fields(type(node)))


def _statement(s, ctx: _Context) -> list:
    """One statement as the statements it stands for."""
    if isinstance(s, ast.Return) and s.value is not None:
        if ctx.phase is None:
            ctx.checker.err("E604", "return (VALUE) gives a value only in a phase that "
                            "declares one", s.span,
                            ["declare the value's type after the parameters: "
                             "phase NAME(p: player): bool { ... return (true) }"])
            return [ast.Return(s.span)]
        return [ast.Set(s.span, result_var(ctx.phase), (), "=", s.value), ast.Return(s.span)]
    taken = _taken(s, ctx)
    if taken is None:
        return [s]
    call = ast.CallStmt(s.value.span, taken.name, s.value.args, True)
    value = ast.Name(s.value.span, result_var(taken.name))
    return [call, attrs.evolve(s, value=value)]


def _taken(s, ctx: _Context):
    """The phase whose value `s` takes whole (`let x = p(...)`, `set v = p(...)`), or None."""
    if not isinstance(s, (ast.Let, ast.Set)) or not isinstance(s.value, ast.Call):
        return None
    if isinstance(s, ast.Set) and s.op != "=":
        return None
    return ctx.valued.get(s.value.name)


__all__ = ["give_results", "result_var", "what_is_set"]
