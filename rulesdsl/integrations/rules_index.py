"""What an editor asks about a rules file, answered from its text alone (no editor
protocol here; `lsp` puts it on the wire).

Lines and columns here count from 0, as the Language Server Protocol does; a RulesError's
span counts from 1. Diagnostics are the checker's, exactly as `rulesdsl check --format
json` reports them (code, place, message, hints), for a buffer that need not be saved.
"""

from __future__ import annotations

import inspect
import re
from typing import Optional, Sequence

import attrs

from rulesdsl.lang import ast
from rulesdsl.lang.check import (AGGREGATES, BUILTIN_CALLS, BUILTIN_VALUES, check_file_tree,
                                 elem_of)
from rulesdsl.lang.check.layouts import range_names
from rulesdsl.lang.errors import CheckFailed, RulesError, line_table
from rulesdsl.lang.extend import load_tree
from rulesdsl.lang.limits import read_text
from rulesdsl.lang.syntax import _keywords

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# Each keyword's construct: its documentation is that AST node's docstring (one line and
# an example in the language's own syntax).
KEYWORD_NODES = {
    "game": ast.Game, "players": ast.Players, "option": ast.Option, "enum": ast.Enum,
    "board": ast.Board, "kind": ast.Kind, "deck": ast.Deck, "zone": ast.Zone, "var": ast.Var,
    "define": ast.Define, "modifier": ast.Modifier, "phase": ast.Phase, "setup": ast.Setup,
    "flow": ast.Flow, "response": ast.Response, "invariant": ast.Invariant,
    "score": ast.Score, "evaluate": ast.Evaluate, "payoff": ast.Payoff,
    "extends": ast.Extends,
    "override": ast.Decl, "let": ast.Let,
    "set": ast.Set, "move": ast.Move, "shuffle": ast.Shuffle, "deal": ast.Deal,
    "reveal": ast.Reveal, "log": ast.Log, "ask": ast.Ask, "each": ast.AskEach,
    "openly": ast.AskEach, "respond": ast.Respond, "if": ast.If,
    "repeat": ast.Repeat, "while": ast.While, "for": ast.For, "turns": ast.Turns,
    "win": ast.Win, "end": ast.EndGame, "break": ast.Break, "return": ast.Return,
    "cancel": ast.Cancel, "play": ast.Play, "swap": ast.Swap, "none": ast.NoneLit,
    "true": ast.Bool, "false": ast.Bool, "step": ast.Range, "where": ast.Comprehension,
    "is": ast.IsKind, "about": ast.About, "title": ast.Title, "text": ast.Explain,
    "internal": ast.Internal, "show": ast.Show, "look": ast.Look, "together": ast.AskTogether,
    "grid": ast.Grid, "hex": ast.Grid, "roll": ast.Roll, "cooperative": ast.Players,
    "holds": ast.RevealFact, "lacks": ast.RevealFact, "sequence": ast.Sequence,
    "longest": ast.Sequence, "row": ast.Layout, "track": ast.Track,
}

# what each declaration is called in a hover and a symbol list
DECL_WORDS = {ast.Enum: "enum", ast.Board: "board", ast.Layout: "board", ast.Kind: "kind",
              ast.Zone: "zone",
              ast.Var: "var", ast.Define: "define", ast.Phase: "phase",
              ast.Option: "option", ast.Modifier: "modifier", ast.Truth: "invariant"}


@attrs.define
class Symbol:
    """A declared name: what it is, where it is declared (0-based), and for hovers a line
    of its declaration and a description."""
    name: str
    sort: str                      # enum, board, kind, zone, var, define, phase, option,
    path: str                      # modifier, value (of an enum or board), field
    line: int
    column: int
    end_line: int
    end_column: int
    decl_line: int                 # the whole declaration
    decl_end_line: int
    decl_end_column: int
    text: str                      # the declaration's first line
    detail: str = ""
    parent: str = ""               # the enum or kind a value or field belongs to
    children: list = attrs.Factory(list)


@attrs.define
class Analysis:
    """What one text of a buffer gives: its diagnostics, and where it parsed its merged
    tree, the checker's model (what it learned before it stopped, where the text has
    errors; None where the check did not start), the texts of every file in the tree, and
    its symbols."""
    diagnostics: list
    tree: Optional[ast.File] = None
    model: object = None
    sources: dict = attrs.Factory(dict)
    symbols: Optional[list] = None     # None: the text did not parse


def analyse(text: str, path: str) -> Analysis:
    """Everything the editor is told about a text, computed from the text alone (and the
    files it extends): slow for a long file, so the server runs it off its message loop."""
    found, tree, model = diagnostics_of(text, path)
    if tree is None:
        return Analysis(found)
    sources = {path: text}
    for d in tree.decls:
        p = d.span.path if d.span else path
        if p not in sources:
            try:   # read as every rules file is: a FIFO there must not hang the server
                sources[p] = read_text(p, "E107", "file to extend")
            except (OSError, RulesError):
                sources[p] = ""
    return Analysis(found, tree, model, sources, symbols_of(tree, sources, model))


def diagnostics_of(text: str, path: str) -> tuple[list, Optional[ast.File], object]:
    """(diagnostics as `check --format json` has them, merged tree or None, model or None:
    the model of a text with errors holds the types of everything that did check)."""
    sources: dict = {}
    found = []
    tree = model = None
    try:
        tree = load_tree(text, path, sources)
        model, warnings = check_file_tree(tree, sources)
        found += [_diagnostic(w, path, "warning") for w in warnings]
    except CheckFailed as failed:
        found += [_diagnostic(w, path, "warning") for w in failed.warnings]
        found += [_diagnostic(e, path, "error") for e in failed.errors]
        model = failed.model    # the types of what did check, for hovers and completion
    except RulesError as e:
        found.append(_diagnostic(e, path, "error"))
    found.sort(key=lambda d: (d["path"] != path, d["path"], d["line"] or 0, d["column"] or 0,
                              d["code"]))
    return found, tree, model


def _diagnostic(error: RulesError, path: str, severity: str) -> dict:
    span = error.span
    return {"path": span.path if span else path,
            "line": span.line if span else None,
            "column": span.column if span else None,
            "end_line": span.end_line if span else None,
            "end_column": span.end_column if span else None,
            "severity": severity, "code": error.code, "meaning": error.meaning,
            "message": error.message, "hints": list(error.hints)}


# ---------------------------------------------------------------- symbols

def symbols_of(tree: ast.File, sources: dict, model=None) -> list:
    """Every declared name of a merged tree, in declaration order."""
    out = []
    for d in tree.decls:
        body = d.body
        sort = DECL_WORDS.get(type(body))
        if sort is None or not getattr(body, "name", ""):
            continue
        sym = _symbol(body.name, sort, body.span, sources, d.span)
        if sym is None:
            continue
        sym.detail = _detail(body, sort, model)
        if isinstance(body, ast.Enum):
            for item in body.items:
                child = _symbol(item.name, "value", item.span, sources, item.span)
                if child:
                    child.parent, child.detail = body.name, f"a value of enum {body.name}"
                    child.text = sym.text
                    sym.children.append(child)
        elif isinstance(body, ast.Board):
            for ref in body.nodes:
                child = _symbol(ref.name, "value", ref.span, sources, ref.span)
                if child:
                    child.parent, child.detail = body.name, f"a node of board {body.name}"
                    child.text = sym.text
                    sym.children.append(child)
        elif isinstance(body, ast.Layout):
            sym.children += _layout_children(body, sym, sources)
        if isinstance(body, (ast.Enum, ast.Kind)):
            for f in body.fields:
                child = _symbol(f.name, "field", f.span, sources, f.span)
                if child:
                    child.parent = body.name
                    child.detail = f"a field of {sort} {body.name}: {_type_text(f.type)}"
                    sym.children.append(child)
        out.append(sym)
    return out


def _symbol(name: str, sort: str, span, sources: dict, whole) -> Optional[Symbol]:
    """The symbol of a name declared in `span`: the name's own place (searched near the
    span's start only) and the first line of the whole declaration. Each costs no more than
    the span's text: a file declares thousands of names."""
    if span is None:
        return None
    text = sources.get(span.path, "")
    lines = line_table(text)
    start = span.start if span.end > span.start else lines.offset(span.line, span.column)
    near = max(span.end, start + 200)
    found = re.compile(rf"\b{re.escape(name)}\b").search(text, start, near + len(name) + 1)
    line, col = span.line - 1, span.column - 1
    if found and found.start() <= near:
        line, col = (n - 1 for n in lines.position(found.start()))
    first = (lines.line(whole.line) or "")[whole.column - 1:].strip()
    return Symbol(name, sort, span.path, line, col, line, col + len(name), whole.line - 1,
                  whole.end_line - 1, whole.end_column - 1, first)


def _type_text(t) -> str:
    if t is None:
        return "?"
    name = getattr(t, "name", str(t))
    if name == "list" and getattr(t, "of", None) is not None:
        return f"list of {_type_text(t.of)}"
    if name == "range":
        return f"{t.low}..{t.high}"
    return name


def _detail(body, sort: str, model) -> str:
    if isinstance(body, ast.Zone):
        per = " per " + ", ".join(r.name for r in body.dims) if body.dims else ""
        return f"zone{per}, {body.visibility}" + (", unordered" if body.unordered else "")
    if isinstance(body, ast.Var):
        per = " per " + ", ".join(r.name for r in body.dims) if body.dims else ""
        return f"variable of type {_type_text(body.type)}{per}, {body.visibility}"
    if isinstance(body, ast.Define):
        params = ", ".join(f"{p.name}: {_type_text(p.type)}" for p in body.params)
        info = model.defines.get(body.name) if model is not None else None
        result = f" -> {info.type}" if info is not None else ""
        return f"definition ({params}){result}"
    if isinstance(body, (ast.Phase, ast.Truth)):
        params = ", ".join(f"{p.name}: {_type_text(p.type)}" for p in body.params)
        return f"{sort} ({params})"
    if isinstance(body, ast.Kind):
        return "kind of card" + (f", a {body.parent}" if body.parent else "")
    if isinstance(body, ast.Enum):
        return "enum: " + ", ".join(i.name for i in body.items)
    if isinstance(body, ast.Board):
        return "board: " + ", ".join(r.name for r in body.nodes)
    if isinstance(body, ast.Layout):
        return f"board laid out in {len(body.rows)} rows" + \
            (", tracks " + ", ".join(t.name for t in body.tracks) if body.tracks else "")
    if isinstance(body, ast.Option):
        return f"option of type {_type_text(body.type)}" + (f": {body.doc}" if body.doc else "")
    return sort


def _layout_children(body: ast.Layout, sym, sources: dict) -> list:
    """A laid-out board's cells (those of a range declared where the range is written)
    and its tracks, each a field of every cell."""
    out = []
    # (name, the word written for it, where): a range's cells are where its first is
    cells = [(ref.name, ref.name, ref.span) for row in body.rows for ref in row
             if isinstance(ref, ast.Ref)] + \
        [(name, r.first, r.span) for row in body.rows for r in row
         if isinstance(r, ast.CellRange) for name in range_names(r) or ()]
    for name, written, span in cells:
        child = _symbol(written, "value", span, sources, span)
        if child:
            child.name = name
            child.parent, child.detail = body.name, f"a cell of board {body.name}"
            child.text = sym.text
            out.append(child)
    for t in body.tracks:
        child = _symbol(t.name, "field", t.span, sources, t.span)
        if child:
            child.parent = body.name
            child.detail = f"a track of board {body.name}: the next cell on it, or none"
            out.append(child)
    return out


def flatten(symbols: list) -> list:
    out = []
    for s in symbols:
        out.append(s)
        out.extend(s.children)
    return out


def word_at(text: str, line: int, column: int) -> str:
    here = line_table(text).line(line + 1)
    if here is None:
        return ""
    for m in WORD.finditer(here):
        if m.start() <= column <= m.end():
            return m.group()
    return ""


def find(symbols: list, name: str) -> Optional[Symbol]:
    """The declaration a name refers to (declarations first, then values and fields)."""
    flat = flatten(symbols)
    return next((s for s in flat if s.name == name and s.sort not in ("value", "field")),
                None) or next((s for s in flat if s.name == name), None)


def hover_text(symbols: list, name: str, local: Optional[Symbol] = None) -> Optional[str]:
    """Markdown for a name: its declaration and type (a local's where given), or a
    keyword's or built-in's docs."""
    sym = local or find(symbols, name)
    if sym is not None:
        return f"```rules\n{sym.text}\n```\n{sym.detail}"
    parts = []
    if name in KEYWORD_NODES:
        doc = inspect.cleandoc(KEYWORD_NODES[name].__doc__ or "")
        parts.append(f"**{name}**: {doc}")
    builtin = _builtin_text(name)
    if builtin:
        parts.append(builtin)
    return "\n\n".join(parts) or None


def _builtin_text(name: str) -> Optional[str]:
    if name in BUILTIN_CALLS:
        params, result = BUILTIN_CALLS[name]
        return f"built-in `{name}({', '.join(params)}) -> {result}`"
    if name in BUILTIN_VALUES:
        return f"built-in value `{name}`: {BUILTIN_VALUES[name]}"
    if name in AGGREGATES:
        return (f"aggregate `{name}(x for c in source where condition)`: see "
                f"{inspect.cleandoc(ast.Comprehension.__doc__ or '')}")
    return None


# What may be written where: after `c.` the fields of c's kind; at the start of a
# statement the statement keywords (and the phases, which a statement may call); at the
# start of a declaration the declaration keywords; in an expression the names in scope.
STATEMENT_KEYWORDS = ("let", "set", "roll", "move", "shuffle", "deal", "reveal", "log", "ask",
                      "if", "else", "repeat", "while", "for", "turns", "win", "end", "break",
                      "return", "cancel", "respond", "play", "swap")
DECLARATION_KEYWORDS = ("game", "extends", "players", "option", "enum", "board", "kind",
                        "deck", "zone", "var", "define", "modifier", "phase", "setup", "flow",
                        "response", "invariant", "score", "evaluate", "payoff", "about", "title",
                        "text", "internal", "show", "look", "override")
KIND_ITEM_KEYWORDS = ("var", "label", "playable", "on")
EXPRESSION_KEYWORDS = ("if", "then", "else", "let", "in", "not", "and", "or", "is", "where",
                       "for", "step", "true", "false", "none")
# declarations whose blocks hold statements (a kind's do only inside `on play`)
STATEMENT_BLOCKS = ("phase", "setup", "response")
# what a name in an expression may be (fields come only after a dot, phases only as
# statements)
EXPRESSION_SORTS = ("enum", "board", "kind", "zone", "var", "define", "option", "value",
                    "modifier")
_PARTIAL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_BEFORE_DOT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)?\s*\.$")


@attrs.frozen
class Place:
    """What may be written at a place: `context` is "field" (after a dot; `owner` is the
    name before it, if a plain name), "statement", "declaration", "kind item" or
    "expression"."""
    context: str
    owner: str = ""


def place_of(text: str, line: int, column: int) -> Place:
    """The completion context at a 0-based place, from the text alone (it need not parse:
    one completes what one is still typing)."""
    here = line_table(text).line(line + 1) or ""
    prefix = here[:column]
    partial = _PARTIAL.search(prefix)
    before = prefix[:partial.start()] if partial else prefix
    dot = _BEFORE_DOT.search(before)
    if dot:
        return Place("field", dot.group(1) or "")
    depth, top = _nesting(text, line_table(text).offset(line + 1, 1) + len(before))
    if before.strip():
        return Place("expression")
    if depth == 0:
        return Place("declaration")
    if top in STATEMENT_BLOCKS or (top == "kind" and depth >= 2):
        return Place("statement")
    if top == "kind":
        return Place("kind item")
    return Place("expression")


# what changes the nesting: a comment, a string (closed or cut by the line's end), a
# brace, a word at a line's start (a declaration's keyword when no brace is open)
_NESTING = re.compile(r'#[^\n]*|"[^"\n]*"?|[{}]|^(?:override[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)',
                      re.MULTILINE)


def _nesting(text: str, end: int) -> tuple[int, str]:
    """(braces open at offset `end`, the keyword of the top-level declaration they are in),
    skipping strings and comments: one regular-expression pass, as a file may be long."""
    depth, top = 0, ""
    for token in _NESTING.finditer(text, 0, max(0, end)):
        if token.group(1) is not None:
            if depth == 0:
                top = token.group(1)
        elif token.group() == "{":
            depth += 1
        elif token.group() == "}":
            depth = max(0, depth - 1)
    return depth, top


def completions(symbols: list, place: Optional[Place] = None,
                scope: Sequence[tuple] = (), model=None) -> list:
    """(label, sort) of what may be written at `place` (with the locals `scope` in scope
    there and the last model); without a place, every keyword, built-in and name."""
    if place is None:
        return _everything(symbols)
    if place.context == "field":
        return [(name, sort) for name, sort in _members(place.owner, symbols, scope, model)]
    if place.context == "declaration":
        return [(k, "keyword") for k in DECLARATION_KEYWORDS]
    if place.context == "kind item":
        return [(k, "keyword") for k in KIND_ITEM_KEYWORDS]
    if place.context == "statement":
        return [(k, "keyword") for k in STATEMENT_KEYWORDS] + \
            [(s.name, s.sort) for s in symbols if s.sort == "phase"]
    return _unique([(name, "local") for name, _ in scope] +
                   [(s.name, s.sort) for s in flatten(symbols) if s.sort in EXPRESSION_SORTS] +
                   [(b, "builtin") for b in sorted(set(BUILTIN_CALLS) | set(BUILTIN_VALUES) |
                                                   AGGREGATES)] +
                   [(k, "keyword") for k in EXPRESSION_KEYWORDS])


def _everything(symbols: list) -> list:
    out = [(k, "keyword") for k in sorted(_keywords())]
    out += [(b, "builtin") for b in sorted(set(BUILTIN_CALLS) | set(BUILTIN_VALUES) |
                                           AGGREGATES)]
    return _unique(out + [(s.name, s.sort) for s in flatten(symbols)])


def _unique(items: list) -> list:
    seen: set = set()
    out = []
    for name, sort in items:
        if name not in seen:
            seen.add(name)
            out.append((name, sort))
    return out


def _members(owner: str, symbols: list, scope: Sequence[tuple], model) -> list:
    """What may follow `owner.`: an enum's values after its name; after a card the
    fields of every kind, after an enum value its enum's fields; after anything whose type
    is not known, every field."""
    local_type = next((t for name, t in scope if name == owner), None)
    enum_named = next((s for s in symbols if s.name == owner and s.sort in ("enum", "board")),
                      None)
    if local_type is None and enum_named is not None:
        return [(c.name, "value") for c in enum_named.children if c.sort == "value"]
    t = local_type or _global_type(owner, model)
    fields = [c for s in symbols for c in s.children if c.sort == "field"]
    if t is not None and model is not None and t in model.enums:
        return _unique([(name, "field") for name in model.enums[t].fields])
    if t is not None and model is not None and (t == "card" or t in model.kinds):
        kinds = [model.kinds[t]] if t in model.kinds else list(model.kinds.values())
        return _unique([(name, "field") for k in kinds for name in k.fields])
    if t is not None:
        enum_fields = {c.name for s in symbols if s.sort == "enum" for c in s.children
                       if c.sort == "field"}
        if t == "card":
            return _unique([(c.name, "field") for c in fields if c.name not in enum_fields])
    return _unique([(c.name, "field") for c in fields])


def _global_type(name: str, model) -> Optional[str]:
    """The type of a global name the model knows: a variable's, a definition's result."""
    if model is None:
        return None
    if name in getattr(model, "vars", {}):
        return model.vars[name].type
    if name in getattr(model, "defines", {}):
        return model.defines[name].type
    return None


# ---------------------------------------------------------------- locals

BINDERS = (ast.Let, ast.Param, ast.For, ast.BinderChoice, ast.Comprehension, ast.AskEach,
           ast.Turns, ast.AskTogether, ast.LetIn, ast.Prefix)


def _children(node):
    for f in attrs.fields(type(node))[1:]:
        value = getattr(node, f.name)
        items = value if isinstance(value, (tuple, list)) else (value,)
        for x in items:
            if isinstance(x, (tuple, list)):
                yield from (y for y in x if attrs.has(type(y)))
            elif attrs.has(type(x)) and hasattr(x, "span"):
                yield x


def _walk(node):
    yield node
    for child in _children(node):
        yield from _walk(child)


def _contains(span, path: str, line: int, column: int) -> bool:
    """Does the span hold this 0-based place?"""
    if span is None or span.path != path:
        return False
    here = (line + 1, column + 1)
    return (span.line, span.column) <= here < (span.end_line, span.end_column)


def local_at(tree: ast.File, model, sources: dict, path: str, line: int, column: int,
             name: str) -> Optional[Symbol]:
    """The local (parameter, let, or loop or choice binder) a name at this place refers to,
    with its type where the file checks; None for a name that is not a local here."""
    top = next((d for d in tree.decls if _contains(d.span, path, line, column)), None)
    if top is None:
        return None
    here = line_table(sources.get(path, "")).offset(line + 1, column + 1)
    found = None
    for node in _walk(top):
        if not isinstance(node, BINDERS) or node.span is None:
            continue
        bound = node.name if isinstance(node, (ast.Let, ast.Param, ast.LetIn)) else node.binder
        if bound != name or node.span.start > here:
            continue
        # a let stands for the rest of its block; other binders for their own construct
        if not isinstance(node, (ast.Let, ast.Param)) and \
                not _contains(node.span, path, line, column):
            continue
        if found is None or node.span.start >= found.span.start:
            found = node
    if found is None:
        return None
    sym = _symbol(name, "local", found.span, sources, found.span)
    if sym is None:
        return None
    kind = {ast.Let: "let", ast.Param: "parameter"}.get(type(found), "binder")
    if isinstance(found, ast.Param):
        sym.text = f"{name}: {_type_text(found.type)}"
    t = _type_at(top, model, path, line, column, name) or _bound_type(found, model)
    sym.detail = f"local ({kind})" + (f" of type {t}" if t else "")
    return sym


def scope_at(tree: ast.File, model, path: str, line: int, column: int) -> list:
    """(name, type or None) of every local in scope at a 0-based place, innermost first:
    the parameters of the declaration there, the `let`s before the place, and the
    binders of the loops, choices and comprehensions around it."""
    top = _declaration_at(tree, path, line)
    if top is None:
        return []
    found = []
    for node in _walk(top):
        if not isinstance(node, BINDERS) or node.span is None:
            continue
        if isinstance(node, ast.Let):     # from its end on: not inside its own value
            if (node.span.end_line - 1, node.span.end_column - 1) > (line, column):
                continue
        elif not isinstance(node, ast.Param) and not _contains(node.span, path, line, column):
            continue
        bound = node.name if isinstance(node, (ast.Let, ast.Param, ast.LetIn)) else node.binder
        found.append((node.span.start, bound, _bound_type(node, model)))
    found.sort(key=lambda f: -f[0])
    return [(name, t) for _, name, t in found]


def _declaration_at(tree: ast.File, path: str, line: int):
    """The top-level declaration holding the 0-based line, or the last one before it (a
    declaration being typed at its end reaches past its last parsed span)."""
    before = None
    for d in tree.decls:
        if d.span is None or d.span.path != path:
            continue
        if d.span.line - 1 <= line:
            before = d
    return before


def _bound_type(node, model) -> Optional[str]:
    """The type a binder gives its name: declared, or its value's, or its source's element."""
    if isinstance(node, ast.Param):
        return _type_text(node.type)
    if isinstance(node, ast.Let) and node.type is not None:
        return _type_text(node.type)
    if model is None:
        return None
    if isinstance(node, ast.Let):
        return model.types.get(id(node.value))
    source = getattr(node, "source", None)
    t = model.types.get(id(source)) if source is not None else None
    return elem_of(t) if t else None


def _type_at(top, model, path: str, line: int, column: int, name: str) -> Optional[str]:
    if model is None:
        return None
    for node in _walk(top):
        if isinstance(node, ast.Name) and node.name == name and \
                _contains(node.span, path, line, column):
            return model.types.get(id(node))
    return None
