"""What a player reads at the table, checked: `about`, `title`, `text`, `internal`, `show`
(and `look`, the browser's hints, in rulesdsl.lang.look).

These declarations change nothing in play; they tell the runner what to call things, what
each card does, which variables are bookkeeping and which derived values a player looks at.
The checker calls `check_presentation` once the other declarations are collected.
"""

from __future__ import annotations

from typing import Optional

import attrs

from rulesdsl.lang import ast
from rulesdsl.lang.look import check_look, empty_look
from rulesdsl.lang.secrets import reads_secret

W_NO_QUESTION = "W705"


@attrs.define
class Presentation:
    """The checked presentation of a game (all empty when the file declares none)."""
    about: list = attrs.Factory(list)       # lines
    titles: dict = attrs.Factory(dict)      # declared name -> title
    texts: dict = attrs.Factory(dict)       # declared name -> list of lines
    internal: set = attrs.Factory(set)      # variable names
    shows: list = attrs.Factory(list)       # Shown, in declaration order
    look: dict = attrs.Factory(empty_look)  # the browser table's hints (rulesdsl.lang.look)


@attrs.frozen
class Shown:
    """A checked `show`: the definition, its title, its visibility, what it is worked out
    for (once for the table; once a player, `per_player`; or once a cell of `board`, drawn
    as the board) and its condition (or None)."""
    name: str
    title: str
    visibility: str
    per_player: bool = False
    board: Optional[str] = None
    cond: object = None


def named_things(m) -> dict:
    """Every name a title or text may explain -> what it is, in declaration order."""
    out: dict = {}
    for k in m.kinds:
        out.setdefault(k, "kind")
    for e in m.enums.values():
        out.setdefault(e.name, "board" if e.is_board else "enum")
        for v in e.values:
            out.setdefault(v, f"value of {e.name}")
    for group, what in ((m.zones, "zone"), (m.vars, "variable"), (m.defines, "definition"),
                        (m.phases, "phase"), (m.options, "option")):
        for n in group:
            out.setdefault(n, what)
    return out


def check_presentation(checker, decls) -> Presentation:
    """Fill a Presentation from the declarations; unknown names are errors (E200)."""
    m = checker.m
    p = Presentation()
    things = named_things(m)

    def known(name: str, span, what: str) -> bool:
        if name in things:
            return True
        checker.err("E200", f"{what} names '{name}', which is not declared",
                    checker.name_at(span, name), checker.suggest(name, things) or
                    ["name a kind, an enum value, a zone, a variable, a phase or a definition"])
        return False

    for d in decls:
        if isinstance(d, ast.About):
            p.about = list(d.lines)   # a file that extends another replaces its summary
        elif isinstance(d, ast.Title):
            if known(d.name, d.span, "title"):
                p.titles[d.name] = d.title
        elif isinstance(d, ast.Explain):
            if known(d.name, d.span, "text"):
                p.texts[d.name] = list(d.lines)
        elif isinstance(d, ast.Internal):
            for ref in d.names:
                if ref.name not in m.vars:
                    checker.err("E200", f"internal names '{ref.name}', which is not a variable",
                                ref.span, checker.suggest(ref.name, m.vars) or
                                ["internal lists variables the screen should not show"])
                else:
                    p.internal.add(ref.name)
        elif isinstance(d, ast.Show):
            shown = _show(checker, d)
            if shown is not None:
                p.shows.append(shown)
    p.look = check_look(checker, decls)
    return p


def _show(checker, d: ast.Show) -> Optional[Shown]:
    m = checker.m
    define = m.defines.get(d.name)
    if define is None:
        checker.err("E200", f"show names '{d.name}', which is not a definition",
                    checker.name_at(d.span, d.name, r"show\s+"),
                    checker.suggest(d.name, m.defines) or
                    ["declare it first: define NAME(p: player) = ..."])
        return None
    params = define.params
    per = params[0][1] if len(params) == 1 else ""
    board = m.enums.get(per)
    if len(params) > 1 or (params and per != "player" and not (board and board.is_board)):
        checker.err("E400", f"show needs a definition with no parameters, one player or one "
                    f"cell of a board, and {d.name} takes "
                    f"({', '.join(f'{n}: {t}' for n, t in params)})",
                    checker.name_at(d.span, d.name, r"show\s+"),
                    ["show a definition such as total(p: player), or stack(c: Cell) for a "
                     "board drawn with each cell's value"])
        return None
    if d.visibility == "others":
        checker.others_only_for_zones(d, f"show {d.name}")
        return None
    if d.visibility == "private" and per != "player":
        whose = "is worked out for a cell of a board" if per else "belongs to no player"
        checker.err("E601", f"show {d.name} is private but {whose}", d.span,
                    ["make it a definition of a player: define NAME(p: player) = ..."])
        return None
    if d.visibility == "public":
        found = reads_secret([define.decl.body] + [(x.cond, x.value) for x in define.modifiers],
                             m)
        if found:
            checker.warn("W708", f"show {d.name} is public, and {d.name} reads {found}, which "
                         "not every seat may see: every seat would read it",
                         checker.name_at(d.span, d.name, r"show\s+"),
                         ["show it `private` (a definition of a player, read by that player "
                          "only), or `hidden`; a zone's size is public: size(hand[p])"])
    checker.used.add(d.name)          # a shown definition is used
    if d.cond is not None and not _game_constant(checker, d):
        return None
    return Shown(d.name, d.title or d.name.replace("_", " "), d.visibility,
                 per_player=per == "player", board=per if board else None, cond=d.cond)


# what a show's condition may read: it is worked out once, when a game starts
_CONSTANT_READS = {("builtin", "player_count"), ("builtin", "players")}


def _game_constant(checker, d: ast.Show) -> bool:
    """A show's `if`: true/false, of the player count, the options and constants only
    (E610 for anything a game changes)."""
    m = checker.m
    checker.scope_for(d)
    checker.expect("bool", checker.expr(d.cond), d.cond, "a show's condition")
    found = _first_changing(d.cond, m)
    if found is not None:
        what = m.resolved[id(found)][1]
        checker.err("E610", f"a show's condition is worked out once, when a game starts, so "
                    f"it cannot read {what if isinstance(what, str) else 'the game'}",
                    found.span,
                    ["test the player count or an option: show NAME if player_count > 2; "
                     "a value that changes in play belongs in the definition shown"])
        return False
    return True


def _first_changing(e, m):
    """The first node inside `e` that reads what may change in play, or None."""
    if isinstance(e, (list, tuple)):
        return next((f for f in (_first_changing(x, m) for x in e) if f is not None), None)
    if not attrs.has(type(e)):
        return None
    kind, payload = m.resolved.get(id(e), ("", None))
    if kind in ("var", "zone", "define", "aggregate") or \
            kind == "builtin" and (kind, payload) not in _CONSTANT_READS:
        return e
    return _first_changing([getattr(e, f.name) for f in attrs.fields(type(e))
                            if f.name != "span"], m)


def question_missing(checker, s) -> None:
    """W705: a decision a person cannot read, for the runner has nothing to ask them."""
    checker.warn(W_NO_QUESTION, "this decision has no question for the player", s.span,
                 ['write the question after the player: ask p "Which card do you play?" '
                  '{ ... }'])
