"""Static checks: names, types, arity, duplicates, and where statements may stand.

`check(files)` merges a file with the files it extends, resolves every name, infers every
expression's type and reports all problems at once, sorted by position. What it learns is
kept in side tables of a `Model` (never written into the frozen nodes), which the compiler
reads: what each name refers to, each expression's type, and the local slot of each binder.

Types are strings: "int", "bool", "player", "card", "text", "zone", "none", "any", an
enum or board name, "family:<zone>" for a per-player zone not yet indexed, and
"list of <T>".
"""

from __future__ import annotations

import re
from typing import Callable, Optional

import attrs

from rulesdsl.lang import ast
from rulesdsl.lang.limits import instance_errors
from rulesdsl.lang.errors import CheckFailed, RulesError, RulesWarning, Span, did_you_mean
from rulesdsl.lang.present import check_presentation, question_missing
from rulesdsl.lang.secrets import choices_read_secret, reads_secret

SCALARS = ("int", "bool", "player", "card")
NULLABLE_BASE = ("player", "card", "int")  # a number may be none: not yet known
RESERVED_TYPE_NAMES = {"int", "bool", "player", "card", "list", "text", "zone"}
# Words that start a statement: a phase of such a name could never be run.
STATEMENT_KEYWORDS = {"let", "set", "move", "shuffle", "deal", "reveal", "log", "ask", "if",
                      "repeat", "while", "for", "turns", "win", "end", "break", "return",
                      "cancel", "play", "swap"}

# Built-in names usable as values, and their types.
BUILTIN_VALUES = {"players": "list of player", "cards": "list of card", "player_count": "int"}

# Built-in functions that take ordinary arguments: name -> (parameter types, result type).
# A parameter type "zone|list" accepts a zone or any list; "T" ties to the element type.
BUILTIN_CALLS = {
    "size": (("coll",), "int"),
    "next": (("player",), "player"),
    "previous": (("player",), "player"),
    "others": (("player",), "list of player"),
    "seat": (("int",), "player"),
    "top": (("zone",), "card"),
    "bottom": (("zone",), "card"),
    "abs": (("int",), "int"),
    "random": (("coll",), "elem"),
    "largest_group": (("list of node",), "int"),
    "neighbours": (("node",), "list of node"),
    "connected": (("node", "node"), "bool"),
    "playable": (("card", "player"), "bool"),
    "roll": (("int", "int"), "list of int"),
    "sorted": (("coll",), "list of elem"),
    # grid boards: "cell" is a cell of any grid; the result "cell" is the argument's grid
    "column_of": (("cell",), "int"),
    "row_of": (("cell",), "int"),
    "neighbour": (("cell", "Direction"), "cell"),
    "ray": (("cell", "Direction"), "list of cell"),
    "around": (("cell",), "list of cell"),
    "distance": (("cell", "cell"), "int"),
    "opposite": (("Direction",), "Direction"),
}
# The directions of grid boards: name, columns and rows moved (north: up a row).
DIRECTIONS = (("north", 0, 1), ("north_east", 1, 1), ("east", 1, 0), ("south_east", 1, -1),
              ("south", 0, -1), ("south_west", -1, -1), ("west", -1, 0),
              ("north_west", -1, 1))
GRID_MAX = (26, 99)  # columns a..z, rows 1..99
RANDOM_CALLS = ("random", "roll")  # drawn once: only directly in let, set or move
AGGREGATES = {"count", "sum", "max", "min", "any", "all", "first", "last"}


def list_of(t: str) -> str:
    return f"list of {t}"


def elem_of(t: str) -> Optional[str]:
    if t.startswith("list of "):
        return t[8:]
    if t == "zone":
        return "card"
    if t == "any":
        return "any"
    return None


@attrs.define
class EnumInfo:
    name: str
    values: list  # value names in order
    fields: dict  # field name -> type
    attrs: list  # per value: dict field -> ast expr
    decl: object
    is_board: bool = False
    borders: list = attrs.Factory(list)  # (a_index, b_index)
    grid: tuple = ()  # (width, height) of a grid board; cells row by row from a1


@attrs.define
class KindInfo:
    name: str
    decl: ast.Kind
    parent: str
    fields: dict  # all fields, inherited ones first: name -> (type, default expr)
    ancestors: list  # itself first, then parents


@attrs.define
class ZoneInfo:
    name: str
    decl: ast.Zone
    dims: list  # "player" or enum names
    visibility: str
    unordered: bool
    capacity: int
    keep: int = 0  # invariant: effects keep this many cards


@attrs.define
class VarInfo:
    name: str
    decl: ast.Var
    type: str
    dims: list


@attrs.define
class DefineInfo:
    name: str
    decl: ast.Define
    params: list  # (name, type)
    type: str = "any"
    modifiers: list = attrs.Factory(list)
    nslots: int = 0


@attrs.define
class PhaseInfo:
    name: str
    decl: ast.Phase
    params: list  # (name, type)
    asks: bool = False  # can reach a decision
    calls: set = attrs.Factory(set)
    nslots: int = 0


@attrs.define
class Model:
    """What the checker learned: declarations by name and side tables keyed by node id."""
    title: str = ""
    min_players: int = 0
    max_players: int = 0
    options: dict = attrs.Factory(dict)  # name -> ast.Option
    enums: dict = attrs.Factory(dict)  # name -> EnumInfo (boards too)
    kinds: dict = attrs.Factory(dict)  # name -> KindInfo, in declaration order
    decks: list = attrs.Factory(list)
    zones: dict = attrs.Factory(dict)
    vars: dict = attrs.Factory(dict)
    defines: dict = attrs.Factory(dict)
    phases: dict = attrs.Factory(dict)
    responses: list = attrs.Factory(list)
    setup: Optional[ast.Setup] = None
    flow: str = ""
    score: Optional[ast.Score] = None
    resolved: dict = attrs.Factory(dict)  # id(Name/Call/CallStmt/Set) -> (category, payload)
    types: dict = attrs.Factory(dict)  # id(expr) -> type
    slots: dict = attrs.Factory(dict)  # id(binder node) -> slot
    nslots: dict = attrs.Factory(dict)  # id(context node) -> number of checker slots
    sources: dict = attrs.Factory(dict)  # path -> text
    files: list = attrs.Factory(list)
    kind_handlers: dict = attrs.Factory(dict)  # kind name -> nslots for playable/on_play
    present: object = None  # rulesdsl.lang.present.Presentation: what a player reads


class Scope:
    """Locals of one function-like context (a phase, a definition, a handler)."""

    def __init__(self, context: object):
        self.context = context
        self.frames: list[dict] = [{}]
        self.count = 0
        self.loop_depth = 0

    def push(self):
        self.frames.append({})

    def pop(self):
        self.frames.pop()

    def bind(self, name: str, type_: str) -> int:
        slot = self.count
        self.count += 1
        self.frames[-1][name] = (slot, type_)
        return slot

    def lookup(self, name: str):
        for f in reversed(self.frames):
            if name in f:
                return f[name]
        return None

    def names(self):
        for f in self.frames:
            yield from f


class Checker:
    def __init__(self, file: ast.File, sources: dict):
        self.file = file
        self.m = Model(sources=dict(sources))
        self.errors: list[RulesError] = []
        self.warnings: list[RulesError] = []
        self.scope: Optional[Scope] = None
        self.context = "phase"  # "phase", "define", "setup", "response", "effect", "playable"
        self.current_phase: Optional[PhaseInfo] = None
        self.used: set = set()

    # ------------------------------------------------------------------ reporting
    def err(self, code: str, msg: str, span: Optional[Span], hints=()):
        self.errors.append(RulesError(code, msg, span, hints))

    def warn(self, code: str, msg: str, span: Optional[Span], hints=()):
        self.warnings.append(RulesWarning(code, msg, span, hints))

    def name_at(self, span: Optional[Span], name: str, after: str = "") -> Optional[Span]:
        """The span of the word `name` inside `span`, after the pattern `after`; else `span`."""
        text = self.m.sources.get(span.path) if span is not None else None
        if text is None or not 0 <= span.start < span.end <= len(text):
            return span
        line = text.count("\n", 0, span.start) + 1
        if (line, span.start - text.rfind("\n", 0, span.start)) != (span.line, span.column):
            return span  # offsets of another text (an expression inside a string)
        found = re.compile(after + r"\b(" + re.escape(name) + r")\b").search(
            text, span.start, span.end)
        if found is None:
            return span
        start = found.start(1)
        line = text.count("\n", 0, start) + 1
        col = start - text.rfind("\n", 0, start)
        return Span(span.path, line, col, line, col + len(name), start, start + len(name))

    # ------------------------------------------------------------------ declarations
    def run(self) -> Model:
        decls = [d.body for d in self.file.decls]
        self.collect(decls)
        self.check_bodies(decls)
        self.m.present = check_presentation(self, decls)
        self.check_unused()
        if self.errors:
            raise CheckFailed(self.errors, self.warnings)
        return self.m

    def global_names(self) -> dict:
        """Every declared global name -> what it is (for duplicates and did-you-mean)."""
        names = {}
        for n in self.m.options:
            names[n] = "option"
        for e in self.m.enums.values():
            names[e.name] = "board" if e.is_board else "enum"
            for v in e.values:
                names.setdefault(v, "enum value")
        for n in self.m.zones:
            names[n] = "zone"
        for n in self.m.vars:
            names[n] = "variable"
        for n in self.m.defines:
            names[n] = "definition"
        for n in self.m.phases:
            names[n] = "phase"
        for n in BUILTIN_VALUES:
            names[n] = "built-in"
        return names

    def collect(self, decls):
        seen: dict[str, tuple[str, Span]] = {}
        m = self.m

        def claim(name: str, what: str, span: Span) -> bool:
            if name in RESERVED_TYPE_NAMES or name in BUILTIN_VALUES or name in BUILTIN_CALLS \
                    or name in AGGREGATES:
                self.err("E502", f"'{name}' is a built-in name and cannot be declared as a {what}",
                         span, ["choose another name"])
                return False
            if name in seen:
                other_what, other_span = seen[name]
                self.err("E500", f"'{name}' is declared twice: as a {other_what} at line "
                         f"{other_span.line} and as a {what} here", span,
                         ["rename one of them"] + (["to replace a declaration of the file this "
                                                    "one extends, write 'override' before it"]
                                                   if other_span.path != span.path else []))
                return False
            seen[name] = (what, span)
            return True

        games = [d for d in decls if isinstance(d, ast.Game)]
        players = [d for d in decls if isinstance(d, ast.Players)]
        for cls, what in ((ast.Game, "game"), (ast.Players, "players"), (ast.Flow, "flow"),
                          (ast.Score, "score")):
            same = [d for d in decls if isinstance(d, cls)]
            for d in same[1:]:
                self.err("E500", f"there are two '{what}' declarations (the other is at line "
                         f"{same[0].span.line})", d.span, ["keep one of them"])
        if not games:
            self.err("E600", "the file does not name its game", Span(self.file.path, 1, 1, 1, 1),
                     ['start the file with: game "Name"'])
        else:
            m.title = games[-1].title
        if not players:
            self.err("E600", "the file does not say how many play",
                     Span(self.file.path, 1, 1, 1, 1), ["add: players 2..4"])
        else:
            p = players[-1]
            m.min_players, m.max_players = p.low, p.high
            if p.low < 1 or p.high < p.low or p.high > 16:
                said = f"{p.low}..{p.high}" if p.low != p.high else f"{p.low}"
                self.err("E601", f"players {said} is not a range of 1 to 16 players",
                         p.span, ["write players N or players LOW..HIGH with LOW <= HIGH <= 16"])
        for d in decls:
            if isinstance(d, ast.Enum):
                if claim(d.name, "enum", d.span):
                    fields = {}
                    for f in d.fields:
                        if f.name in fields:
                            self.err("E502", f"enum field '{f.name}' is declared twice", f.span)
                        fields[f.name] = self.type_of_ref(f.type)
                    values, attrs_ = [], []
                    for it in d.items:
                        if it.name in values:
                            self.err("E501", f"'{it.name}' appears twice in enum {d.name}", it.span)
                            continue
                        if len(it.args) != len(d.fields):
                            n = len(d.fields)
                            self.err("E400", f"{it.name} gives {len(it.args)} value"
                                     f"{'s' if len(it.args) != 1 else ''} but enum {d.name} has "
                                     f"{n} field{'s' if n != 1 else ''}", it.span,
                                     [f"give one value for each of: {', '.join(fields) or 'no fields'}"])
                        values.append(it.name)
                        attrs_.append({f.name: a for f, a in zip(d.fields, it.args)})
                    m.enums[d.name] = EnumInfo(d.name, values, fields, attrs_, d)
            elif isinstance(d, ast.Board):
                if claim(d.name, "board", d.span):
                    values = []
                    for n in d.nodes:
                        if n.name in values:
                            self.err("E501", f"'{n.name}' appears twice on board {d.name}", n.span)
                            continue
                        values.append(n.name)
                    info = EnumInfo(d.name, values, {}, [{} for _ in values], d, True)
                    pairs = set()
                    for b in d.borders:
                        bad = [x for x in (b.a, b.b) if x not in values]
                        for x in bad:
                            self.err("E200", f"'{x}' is not a node of board {d.name}",
                                     self.name_at(b.span, x), did_you_mean(x, values))
                        if bad:
                            continue
                        if b.a == b.b:
                            self.err("E601", f"a border from {b.a} to itself", b.span)
                            continue
                        key = frozenset((b.a, b.b))
                        if key in pairs:
                            self.err("E501", f"the border {b.a} - {b.b} is listed twice", b.span)
                        pairs.add(key)
                        info.borders.append((values.index(b.a), values.index(b.b)))
                    m.enums[d.name] = info
            elif isinstance(d, ast.Grid):
                self.grid(d, claim)
        # enum values must not clash with each other across enums
        owner: dict[str, str] = {}
        for e in m.enums.values():
            for v in e.values:
                if v in owner and owner[v] != e.name:
                    where = next((i.span for i in getattr(e.decl, "items", None) or
                                  getattr(e.decl, "nodes", ()) if i.name == v), e.decl.span)
                    self.err("E501", f"'{v}' is a value of both {owner[v]} and {e.name}",
                             where, [f"rename one; or write {e.name}.{v} to say which"])
                owner.setdefault(v, e.name)
                if v in seen:
                    pass
        for d in decls:
            if isinstance(d, ast.Option):
                if claim(d.name, "option", d.span):
                    m.options[d.name] = d
            elif isinstance(d, ast.Kind):
                if d.name in m.kinds:
                    first = m.kinds[d.name].decl.span
                    self.err("E500", f"kind '{d.name}' is declared twice (first at line "
                             f"{first.line})", d.span,
                             ["write 'override' before it to replace the earlier one"]
                             if first.path != d.span.path else
                             ["rename one of them, or merge their fields into one"])
                    continue
                m.kinds[d.name] = KindInfo(d.name, d, d.parent, {}, [])
            elif isinstance(d, ast.Zone):
                if claim(d.name, "zone", d.span):
                    dims = [r.name for r in d.dims]
                    m.zones[d.name] = ZoneInfo(d.name, d, dims, d.visibility, d.unordered,
                                               d.capacity)
                    bad_dims = self.check_dims(d.dims)
                    if d.visibility == "private" and "player" not in dims and not bad_dims:
                        self.err("E601", f"zone {d.name} is private but belongs to no player",
                                 d.span, ["add 'per player', or make it hidden"])
            elif isinstance(d, ast.Var):
                if claim(d.name, "variable", d.span):
                    dims = [r.name for r in d.dims]
                    bad_dims = self.check_dims(d.dims)
                    m.vars[d.name] = VarInfo(d.name, d, self.type_of_ref(d.type), dims)
                    if d.visibility == "private" and "player" not in dims and not bad_dims:
                        self.err("E601", f"variable {d.name} is private but belongs to no "
                                 "player", d.span, ["add 'per player', or make it hidden"])
            elif isinstance(d, ast.Define):
                if claim(d.name, "definition", d.span):
                    m.defines[d.name] = DefineInfo(d.name, d, self.params(d.params))
            elif isinstance(d, ast.Phase):
                if d.name in STATEMENT_KEYWORDS:
                    self.err("E502", f"'{d.name}' starts a statement, so a phase of that name "
                             "could never be run", self.name_at(d.span, d.name, r"phase\s+"),
                             [f"rename the phase, like {d.name}_phase"])
                if claim(d.name, "phase", d.span):
                    m.phases[d.name] = PhaseInfo(d.name, d, self.params(d.params))
            elif isinstance(d, ast.Setup):
                if m.setup is not None:
                    self.err("E500", "there are two setup blocks", d.span,
                             ["merge them into one"])
                m.setup = d
            elif isinstance(d, ast.Flow):
                m.flow = d.phase
                self.flow_decl = d
            elif isinstance(d, ast.Score):
                m.score = d
            elif isinstance(d, ast.Deck):
                m.decks.append(d)
        if not m.flow:
            self.err("E600", "the file does not say which phase the game runs",
                     Span(self.file.path, 1, 1, 1, 1), ["add: flow NAME, naming a phase"])
        elif m.flow not in m.phases:
            self.err("E204", f"flow names '{m.flow}', which is not a phase",
                     self.name_at(self.flow_decl.span, m.flow, r"flow\s+"),
                     did_you_mean(m.flow, m.phases))
        elif m.phases[m.flow].params:
            self.err("E400", f"the flow phase '{m.flow}' must take no parameters",
                     self.name_at(self.flow_decl.span, m.flow, r"flow\s+"),
                     ["run a phase without parameters, which runs this one with arguments"])
        # kinds: parents, fields
        for k in m.kinds.values():
            self.resolve_kind(k, [])
        for d in decls:
            if isinstance(d, ast.Modifier):
                target = m.defines.get(d.target)
                if target is None:
                    self.err("E200", f"modifier {d.name} changes '{d.target}', which is not a "
                             "definition", self.name_at(d.span, d.target, r"\bof\s+"),
                             did_you_mean(d.target, m.defines))
                else:
                    if any(x.name == d.name for x in target.modifiers):
                        self.err("E500", f"modifier '{d.name}' is declared twice", d.span)
                    target.modifiers.append(d)
            elif isinstance(d, ast.Invariant):
                z = m.zones.get(d.zone)
                if z is None:
                    self.err("E202", f"unknown zone '{d.zone}'",
                             self.name_at(d.span, d.zone, r"invariant\s+"),
                             did_you_mean(d.zone, m.zones))
                elif d.keep < 1:
                    self.err("E601", "an invariant must keep at least 1 card", d.span)
                else:
                    z.keep = d.keep
            elif isinstance(d, ast.Response):
                if any(r.name == d.name for r in m.responses):
                    self.err("E500", f"response '{d.name}' is declared twice", d.span)
                m.responses.append(d)

    def grid(self, d: ast.Grid, claim) -> None:
        """`board B grid W x H`: a board whose nodes are the cells a1, b1, ..., row by row,
        bordering their orthogonal neighbours; the first grid also declares Direction."""
        if not (1 <= d.width <= GRID_MAX[0] and 1 <= d.height <= GRID_MAX[1]):
            self.err("E601", f"a grid is 1 to {GRID_MAX[0]} columns by 1 to {GRID_MAX[1]} "
                     f"rows, not {d.width} x {d.height}", d.span)
            return
        if not claim(d.name, "board", d.span):
            return
        w, h = d.width, d.height
        cells = [f"{chr(97 + x)}{y + 1}" for y in range(h) for x in range(w)]
        info = EnumInfo(d.name, cells, {}, [{} for _ in cells], d, True, [], (w, h))
        for i in range(len(cells)):
            x, y = i % w, i // w
            if x + 1 < w:
                info.borders.append((i, i + 1))
            if y + 1 < h:
                info.borders.append((i, i + w))
        self.m.enums[d.name] = info
        if "Direction" not in self.m.enums and claim("Direction", "enum", d.span):
            self.m.enums["Direction"] = EnumInfo(
                "Direction", [n for n, _, _ in DIRECTIONS], {"dx": "int", "dy": "int"},
                [{"dx": ast.Int(d.span, dx), "dy": ast.Int(d.span, dy)}
                 for _, dx, dy in DIRECTIONS], d)

    def check_dims(self, dims) -> int:
        """Report dimensions that are not 'player', an enum or a board; return how many."""
        bad = 0
        for r in dims:
            if r.name != "player" and r.name not in self.m.enums:
                bad += 1
                self.err("E205", f"'{r.name}' is not 'player', an enum or a board", r.span,
                         did_you_mean(r.name, list(self.m.enums) + ["player"]))
        return bad

    def params(self, params) -> list:
        out, names = [], set()
        for p in params:
            if p.name in names:
                self.err("E502", f"parameter '{p.name}' is declared twice", p.span)
            names.add(p.name)
            out.append((p.name, self.type_of_ref(p.type)))
        return out

    def type_of_ref(self, t: Optional[ast.TypeRef]) -> str:
        if t is None:
            return "any"
        if t.name in ("int", "bool", "player", "card"):
            return t.name
        if t.name == "range":
            if t.low > t.high:
                self.err("E601", f"the range {t.low}..{t.high} is empty", t.span)
            return "int"
        if t.name == "list":
            return list_of(self.type_of_ref(t.of))
        if t.name in self.m.enums:
            return t.name
        self.err("E205", f"unknown type '{t.name}'", t.span,
                 did_you_mean(t.name, ["int", "bool", "player", "card", *self.m.enums]) or
                 ["types are int, bool, player, card, list of T, or an enum or board name"])
        return "any"

    def resolve_kind(self, k: KindInfo, stack: list):
        if k.ancestors:
            return
        if k.name in stack:
            self.err("E601", f"kind {k.name} is its own ancestor", k.decl.span)
            k.ancestors = [k.name]
            return
        fields: dict = {}
        ancestors = [k.name]
        if k.parent:
            parent = self.m.kinds.get(k.parent)
            if parent is None:
                self.err("E201", f"kind {k.name} extends unknown kind '{k.parent}'",
                         self.name_at(k.decl.span, k.parent, r":\s*"),
                         did_you_mean(k.parent, self.m.kinds))
            else:
                self.resolve_kind(parent, stack + [k.name])
                fields.update(parent.fields)
                ancestors += parent.ancestors
        for f in k.decl.fields:
            t = self.type_of_ref(f.type)
            if f.name in fields and fields[f.name][0] != t:
                self.err("E300", f"field {f.name} of {k.name} is {t} but the parent kind says "
                         f"{fields[f.name][0]}", f.span)
            fields[f.name] = (t, f.default)
        k.fields = fields
        k.ancestors = ancestors

    def all_fields(self) -> dict:
        """Every field name of any kind -> its type (one type per name across kinds)."""
        out: dict = {}
        origin: dict = {}  # field name -> the kind that gave it its type
        for k in self.m.kinds.values():
            for name, (t, _) in k.fields.items():
                if name in out and out[name] != t and "any" not in (t, out[name]) and \
                        origin[name] not in k.ancestors:  # else resolve_kind reported it
                    self.err("E300", f"field {name} is {out[name]} in one kind and {t} in "
                             f"{k.name}", k.decl.span, ["give fields of the same name the "
                                                        "same type"])
                out.setdefault(name, t)
                origin.setdefault(name, k.name)
        return out

    # ------------------------------------------------------------------ bodies
    def check_bodies(self, decls):
        m = self.m
        self.field_types = self.all_fields()
        # definitions get their types on first use, even from an option's or a variable's
        # starting value (checked before them), and in dependency order
        self.define_state: dict[str, str] = {}
        # option defaults
        for o in m.options.values():
            t = self.type_of_ref(o.type)
            self.scope = Scope(o)
            self.context = "define"
            vt = self.expr(o.default)
            self.expect(t, vt, o.default, "the option's default")
            if not self.plain_value(o.default):
                self.err("E607", "an option's default must be a plain value", o.default.span,
                         ["write a number, true/false or an enum value; a formula that "
                          "depends on the game belongs in a definition"])
            if o.type.name == "range" and isinstance(o.default, ast.Int) and \
                    o.type.low <= o.type.high and \
                    not o.type.low <= o.default.value <= o.type.high:  # (an empty range: above)
                self.err("E601", f"the default {o.default.value} is outside {o.type.low}.."
                         f"{o.type.high}", o.default.span)
        for e in m.enums.values():
            for i, item_attrs in enumerate(e.attrs):
                for fname, a in item_attrs.items():
                    self.scope = Scope(e.decl)
                    self.context = "define"
                    self.expect(e.fields[fname], self.expr(a), a, f"field {fname}")
        # variables
        for v in m.vars.values():
            self.scope = Scope(v.decl)
            self.context = "define"
            vt = self.expr(v.decl.default)
            self.expect(v.type, vt, v.decl.default, f"the starting value of {v.name}")
        # definitions not used above
        for d in m.defines.values():
            self.infer_define(d)
        for d in m.defines.values():
            for mod in d.modifiers:
                self.scope = Scope(mod)
                for name, t in d.params:
                    self.scope.bind(name, t)
                self.scope.bind(d.name, d.type)  # the value so far
                self.context = "define"
                self.cond(mod.cond, "a modifier's condition")
                self.expect(d.type, self.expr(mod.value), mod.value, f"modifier {mod.name}")
                self.m.nslots[id(mod)] = self.scope.count
        # kinds
        for k in m.kinds.values():
            d = k.decl
            for f in d.fields:
                if f.default is not None:
                    self.scope = Scope(f)
                    self.context = "define"
                    self.expect(k.fields[f.name][0], self.expr(f.default), f.default,
                                f"the default of {f.name}")
            if d.label is not None:
                self.scope = Scope(d.label)
                self.context = "label"
                self.label_fields = k.fields
                self.text(d.label)
                self.label_fields = None
            if d.playable is not None:
                who, cond = d.playable
                self.scope = Scope(d.playable)
                self.scope.bind("self", "card")
                self.scope.bind(who, "player")
                self.context = "define"
                self.cond(cond, "a playability condition")
                m.nslots[id(d.playable)] = self.scope.count
            if d.on_play is not None:
                who, block = d.on_play
                self.scope = Scope(d.on_play)
                self.scope.bind("self", "card")
                self.scope.bind(who, "player")
                self.context = "effect"
                self.current_phase = PhaseInfo(f"on play of {k.name}", None, [])
                self.block(block)
                m.nslots[id(d.on_play)] = self.scope.count
                self.kind_asks = getattr(self, "kind_asks", set())
                if self.current_phase.asks:
                    self.kind_asks.add(k.name)
                self.effect_calls = getattr(self, "effect_calls", set()) | self.current_phase.calls
        # decks
        for deck in m.decks:
            self.deck(deck)
        # phases
        for p in m.phases.values():
            self.scope = Scope(p.decl)
            for name, t in p.params:
                self.scope.bind(name, t)
            self.context = "phase"
            self.current_phase = p
            self.block(p.decl.body)
            m.nslots[id(p.decl)] = self.scope.count
        # responses
        for r in m.responses:
            self.scope = Scope(r)
            self.scope.bind(r.card, "card")
            self.scope.bind(r.player, "player")
            if r.where is not None:
                self.context = "define"
                self.cond(r.where, "a response's condition")
            self.context = "response"
            self.current_phase = PhaseInfo(f"response {r.name}", None, [])
            self.block(r.body)
            m.nslots[id(r)] = self.scope.count
            self.effect_calls = getattr(self, "effect_calls", set()) | self.current_phase.calls
        # setup
        if m.setup is not None:
            self.scope = Scope(m.setup)
            self.context = "setup"
            self.current_phase = PhaseInfo("setup", None, [])
            self.block(m.setup.body)
            m.nslots[id(m.setup)] = self.scope.count
            self.setup_calls = self.current_phase.calls
        # score
        if m.score is not None:
            s = m.score
            self.scope = Scope(s)
            self.scope.bind(s.param.name, self.type_of_ref(s.param.type))
            self.context = "define"
            if self.type_of_ref(s.param.type) != "player":
                self.err("E300", "the score's parameter must be a player", s.param.span)
            self.expect("int", self.expr(s.value), s.value, "the score")
            m.nslots[id(s)] = self.scope.count
        self.check_decisions_reach()

    def plain_value(self, e) -> bool:
        """A literal an option may start from (what loading can read without running)."""
        if isinstance(e, (ast.Int, ast.Bool)):
            return True
        if isinstance(e, ast.Unary):
            return e.op == "-" and isinstance(e.operand, ast.Int)
        return isinstance(e, ast.Name) and any(e.name in en.values
                                               for en in self.m.enums.values())

    def infer_define(self, d: DefineInfo):
        state = self.define_state.get(d.name)
        if state == "done":
            return
        if state == "busy":
            if d.params:  # a call of itself with arguments: recursion, bounded when run
                return
            self.err("E602", f"definition {d.name} depends on itself", d.decl.span,
                     ["a definition without parameters that uses itself never ends; "
                      "give it a parameter that comes closer to an end at every call"])
            d.type = "any"
            return
        self.define_state[d.name] = "busy"
        saved = (self.scope, self.context)
        self.scope = Scope(d.decl)
        for name, t in d.params:
            self.scope.bind(name, t)
        self.context = "define"
        d.type = self.expr(d.decl.body)
        d.nslots = self.scope.count
        self.m.nslots[id(d.decl)] = self.scope.count
        self.scope, self.context = saved
        self.define_state[d.name] = "done"

    def deck(self, deck: ast.Deck):
        m = self.m
        if deck.zone not in m.zones:
            self.err("E202", f"the deck starts in unknown zone '{deck.zone}'",
                     self.name_at(deck.span, deck.zone, r"deck\s+"),
                     did_you_mean(deck.zone, m.zones) or [f"declare it: zone {deck.zone} hidden"])
        else:
            dims = m.zones[deck.zone].dims
            want = ["player"] if deck.per_player else []
            if dims != want:
                if deck.per_player:
                    self.err("E401", f"a deck made per player needs a zone 'per player'; "
                             f"{deck.zone} has {dims or 'no index'}", deck.span)
                else:
                    self.err("E401", f"zone {deck.zone} is indexed by {', '.join(dims)}; a deck "
                             "needs one zone", deck.span,
                             [f"write: deck {deck.zone} per player as p {{ ... }}"]
                             if dims == ["player"] else [])
        self.scope = Scope(deck)
        if deck.per_player:
            self.scope.bind(deck.per_player, "player")
        self.context = "define"
        for e in deck.entries:
            k = m.kinds.get(e.kind)
            if k is None:
                self.err("E201", f"unknown kind '{e.kind}'", self.name_at(e.span, e.kind),
                         did_you_mean(e.kind, m.kinds))
                continue
            if e.count < 1:
                self.err("E601", "a deck entry needs a count of at least 1", e.span)
            fields = list(k.fields.items())
            required = [n for n, (t, default) in fields if default is None]
            if len(e.args) > len(fields) or len(e.args) < len(required):
                self.err("E402", f"{e.kind} takes {len(required)}"
                         + (f" to {len(fields)}" if len(fields) != len(required) else "")
                         + f" values ({', '.join(n for n, _ in fields)}), not {len(e.args)}",
                         e.span)
                continue
            for (fname, (ftype, _)), a in zip(fields, e.args):
                t = self.expr(a)
                # an enum name or a list gives one card per element
                et = elem_of(t) if t.startswith("list of ") else t
                self.expect(ftype, et, a, f"field {fname} of {e.kind}")
        m.nslots[id(deck)] = self.scope.count

    def check_decisions_reach(self):
        """Which phases can reach a decision; setup must not."""
        m = self.m
        changed = True
        while changed:
            changed = False
            for p in m.phases.values():
                if not p.asks and any(m.phases[c].asks for c in p.calls if c in m.phases):
                    p.asks = True
                    changed = True
        if m.setup is not None:
            for c in sorted(getattr(self, "setup_calls", ())):
                if c in m.phases and m.phases[c].asks:
                    self.err("E603", f"setup runs phase {c}, which asks a player to decide",
                             m.setup.span, ["setup runs before the first decision; move the "
                                            "decision into the flow"])

    def check_unused(self):
        m = self.m
        used = self.used
        for name, z in m.zones.items():
            if name not in used:
                self.warn("W700", f"zone {name} is never used", z.decl.span)
        for name, v in m.vars.items():
            if name not in used:
                self.warn("W700", f"variable {name} is never used", v.decl.span)
        for name, d in m.defines.items():
            if name not in used:
                self.warn("W700", f"definition {name} is never used", d.decl.span)
        reachable = set()
        todo = [m.flow] + sorted(getattr(self, "setup_calls", set())) + \
            sorted(getattr(self, "effect_calls", set()))
        while todo:
            n = todo.pop()
            if n in reachable or n not in m.phases:
                continue
            reachable.add(n)
            todo.extend(m.phases[n].calls)
        for name, p in m.phases.items():
            if name not in reachable and name not in used:
                self.warn("W701", f"phase {name} is never run", p.decl.span,
                          ["run it from the flow, or remove it"])
        self.check_unplayable()

    def check_unplayable(self):
        """Cards no rule can ever play: W702 (an effect or condition nothing reaches), W703
        (a kind no deck makes)."""
        m = self.m
        made = set()
        for deck in m.decks:
            for entry in deck.entries:
                if entry.kind in m.kinds:
                    made.update(m.kinds[entry.kind].ancestors)
        plays = getattr(self, "has_play", False)
        for name, k in m.kinds.items():
            d = k.decl
            if name not in made:
                self.warn("W703", f"no deck makes cards of kind {name}", d.span,
                          [f"add them to a deck: deck stock {{ {name}(...) }}, or remove the kind"])
            elif not plays and d.on_play is not None:
                self.warn("W702", f"the `on play` of {name} never runs: no rule plays a card",
                          d.span, ["play cards with: play c by p to ZONE"])
            elif not plays and d.playable is not None and \
                    not getattr(self, "reads_playable", False):
                self.warn("W702", f"the `playable` condition of {name} is never read: no rule "
                          "plays a card or asks playable(c, p)", d.span,
                          ["play cards with: play c by p to ZONE"])

    # ------------------------------------------------------------------ statements
    def block(self, block: ast.Block):
        self.scope.push()
        for s in block.stmts:
            self.stmt(s)
        self.scope.pop()

    def loop_block(self, block: ast.Block):
        """A loop's body: `break` may stand in it."""
        self.scope.loop_depth += 1
        self.block(block)
        self.scope.loop_depth -= 1

    def no_decision_here(self, span, what):
        if self.context == "setup":
            self.err("E603", f"{what} cannot stand in setup", span,
                     ["setup runs before the first decision; move this into the flow"])

    def stmt(self, s):
        m = self.m
        t = type(s)
        if t is ast.Let:
            vt = self.expr(s.value, allow_random=True)
            if s.type is not None:  # let x: T = value
                declared = self.type_of_ref(s.type)
                self.expect(declared, vt, s.value, f"the value of {s.name}")
                vt = declared
            if vt == "none":
                self.err("E300", f"'{s.name}' would have no type: it is set to none", s.span,
                         [f"declare its type: let {s.name}: card = none"])
            if self.scope.lookup(s.name) is not None:
                self.err("E502", f"'{s.name}' is already a local here", s.span,
                         ["use 'set' to change it, or pick another name"])
            if s.name in self.global_names() or s.name in m.kinds:
                self.err("E502", f"'{s.name}' would hide the {self.global_names().get(s.name, 'kind')} "
                         f"of that name", s.span, ["pick another name for the local"])
            m.slots[id(s)] = self.scope.bind(s.name, vt)
        elif t is ast.Set:
            self.set_stmt(s)
        elif t is ast.Move:
            wt = self.expr(s.what, allow_random=True)
            if wt not in ("card", "zone", "list of card", "any"):
                self.err("E300", f"move needs a card, a list of cards or a zone, not "
                         f"{self.show(wt)}", s.what.span)
            self.expect("zone", self.expr(s.to), s.to, "the destination of move")
            if s.words is not None:
                self.text(s.words)
        elif t is ast.Shuffle:
            self.expect("zone", self.expr(s.zone), s.zone, "shuffle")
        elif t is ast.Deal:
            if s.count is not None:
                self.expect("int", self.expr(s.count), s.count, "the number of cards to deal")
            self.expect("zone", self.expr(s.source), s.source, "the pile to deal from")
            z = m.zones.get(s.family)
            self.used.add(s.family)
            if z is None:
                self.err("E202", f"unknown zone '{s.family}'",
                         self.name_at(s.span, s.family, r"\bto\s+"),
                         did_you_mean(s.family, m.zones))
            elif z.dims != ["player"]:
                self.err("E401", f"deal needs a zone per player; {s.family} is "
                         f"{'indexed by ' + ', '.join(z.dims) if z.dims else 'shared'}",
                         self.name_at(s.span, s.family, r"\bto\s+"))
            if s.start is not None:
                self.expect("player", self.expr(s.start), s.start, "the first player dealt to")
        elif t is ast.Reveal:
            wt = self.expr(s.what)
            if wt not in ("card", "zone", "list of card", "any") and \
                    not self.revealable_value(s.what, wt):
                self.err("E300", f"reveal needs a card, a list of cards or a zone, not "
                         f"{self.show(wt)}", s.what.span)
            if s.to is not None:
                tt = self.expr(s.to)
                if tt not in ("player", "list of player", "any"):
                    self.err("E300", f"reveal ... to needs a player or a list of players, not "
                             f"{self.show(tt)}", s.to.span)
        elif t is ast.Log:
            self.text(s.text)
        elif t is ast.Ask:
            self.no_decision_here(s.span, "a decision")
            self.current_phase.asks = True
            self.expect("player", self.expr(s.who), s.who, "who decides")
            self.question(s)
            self.choices(s.choices)
        elif t is ast.AskEach:
            self.no_decision_here(s.span, "a decision")
            self.current_phase.asks = True
            et = self.collection(s.source)
            self.expect("player", et, s.source, "who is asked")
            self.scope.push()
            m.slots[id(s)] = self.scope.bind(s.binder, "player")
            if s.where is not None:
                self.cond(s.where, "a condition")
            self.question(s)
            self.choices(s.choices)
            self.scope.pop()
            self.warn_secret_asking(s)
        elif t is ast.AskTogether:
            self.no_decision_here(s.span, "a decision")
            self.current_phase.asks = True
            et = self.collection(s.source)
            self.expect("player", et, s.source, "who is asked")
            self.scope.push()
            m.slots[id(s)] = self.scope.bind(s.binder, "player")
            if s.where is not None:
                self.cond(s.where, "a condition")
            self.question(s)
            # a break out of the bodies would drop the choices not yet taken into effect
            saved = self.scope.loop_depth, getattr(self.scope, "in_together", False)
            self.scope.loop_depth, self.scope.in_together = 0, True
            self.choices(s.choices)
            self.scope.loop_depth, self.scope.in_together = saved
            self.scope.pop()
            found = reads_secret(s.where, self.m) if s.where is not None else ""
            if found:  # every listed player is asked: only the list itself could tell
                self.warn("W704", f"who is asked here depends on {found}, which not every "
                          "seat may see: asking tells the table what it holds", s.span,
                          ["ask every player and test the secret in the options"])
        elif t is ast.If:
            for cond, block in s.branches:
                self.cond(cond, "an if")
                self.block(block)
            if s.else_ is not None:
                self.block(s.else_)
        elif t is ast.Repeat:
            self.loop_block(s.body)
            self.cond(s.until, "until")
        elif t is ast.While:
            self.cond(s.cond, "while")
            self.loop_block(s.body)
        elif t is ast.For:
            et = self.collection(s.source)
            self.scope.push()
            m.slots[id(s)] = self.scope.bind(s.binder, et)
            if s.where is not None:
                self.cond(s.where, "a condition")
            self.loop_block(s.body)
            self.scope.pop()
            self.warn_secret_asking(s)
        elif t is ast.Turns:
            self.expect("player", self.expr(s.start), s.start, "the first player")
            self.scope.push()
            m.slots[id(s)] = self.scope.bind(s.binder, "player")
            if s.skip is not None:
                self.cond(s.skip, "skip if")
            if s.until is not None:
                self.cond(s.until, "until")
            self.loop_block(s.body)
            self.scope.pop()
        elif t is ast.CallStmt:
            self.call_stmt(s)
        elif t is ast.Win:
            wt = self.expr(s.who)
            if wt not in ("player", "list of player", "any", "none"):
                self.err("E300", f"win needs a player or a list of players, not {self.show(wt)}",
                         s.who.span)
            self.no_decision_here(s.span, "win")
        elif t is ast.EndGame:
            self.no_decision_here(s.span, "end game")
        elif t is ast.Break:
            if self.scope.loop_depth == 0 and getattr(self.scope, "in_together", False):
                self.err("E604", "break cannot leave an ask together: the choices not yet "
                         "taken into effect would be lost", s.span,
                         ["set a variable in the option and test it after the ask"])
            elif self.scope.loop_depth == 0:
                self.err("E604", "break outside a loop", s.span,
                         ["break leaves repeat, while, for or turns; use return to leave a phase"])
        elif t is ast.Return:
            if self.context in ("setup",):
                self.err("E604", "return cannot stand in setup", s.span)
        elif t is ast.Cancel:
            if self.context != "response":
                self.err("E604", "cancel only stands in a response", s.span,
                         ["declare: response NAME to x played by p { ... cancel ... }"])
        elif t is ast.Respond:
            if self.context != "effect":
                self.err("E604", "respond only stands in a kind's `on play`", s.span,
                         ["write it in the card's effect, after its choices: "
                          "on play by p { ask p { ... { respond  ... } } }"])
            elif m.responses:
                self.current_phase.asks = True
        elif t is ast.Play:
            self.has_play = True
            self.expect("card", self.expr(s.card), s.card, "the card played")
            self.expect("player", self.expr(s.by), s.by, "who plays")
            self.expect("zone", self.expr(s.to), s.to, "where the card goes")
            if m.responses or any(k.decl.on_play for k in m.kinds.values()):
                self.no_decision_here(s.span, "play")
            self.current_phase.asks = self.current_phase.asks or bool(m.responses) or \
                bool(getattr(self, "kind_asks", None))
        elif t is ast.Swap:
            self.expect("card", self.expr(s.a), s.a, "swap")
            self.expect("card", self.expr(s.b), s.b, "swap")
        else:  # pragma: no cover - the grammar makes no other statements
            self.err("E699", f"unknown statement {t.__name__}", getattr(s, "span", None))

    def revealable_value(self, e, t: str) -> bool:
        """`reveal cup[p]`: a variable's value (dice, a secret number) may be shown too."""
        return self.m.resolved.get(id(e), ("",))[0] == "var" and not t.startswith("family:")
    def warn_secret_asking(self, s) -> None:
        """W704: who is asked would tell what some seat may not see (a hand's contents)."""
        found = reads_secret(s.where, self.m) if s.where is not None else ""
        if isinstance(s, ast.For):
            if not found or not any(isinstance(x, (ast.Ask, ast.AskEach))
                                    for x in s.body.stmts):
                return
        elif not found and not s.openly:
            found = choices_read_secret(s.choices, self.m)
        if found:
            self.warn("W704", f"who is asked here depends on {found}, which not every seat "
                      "may see: asking tells the table what it holds", s.span,
                      ["ask every player openly and test the secret in the options: "
                       "ask each q in ... openly { ... }"])

    def set_stmt(self, s: ast.Set):
        m = self.m
        local = self.scope.lookup(s.name)
        if local is not None:
            slot, lt = local
            if s.index:
                self.err("E303", f"'{s.name}' is a local and takes no index",
                         self.name_at(s.span, s.name, r"set\s+"))
            m.resolved[id(s)] = ("local", slot)
            target_type = lt
        elif s.name in m.vars:
            self.used.add(s.name)
            v = m.vars[s.name]
            self.indexes(s.name, v.dims, s.index, s.span)
            m.resolved[id(s)] = ("var", s.name)
            target_type = v.type
        else:
            what = self.global_names().get(s.name)
            where = self.name_at(s.span, s.name, r"set\s+")
            if what:
                self.err("E304", f"'{s.name}' is a {what} and cannot be set", where,
                         ["only variables (var) and locals (let) can be set"])
            else:
                self.err("E200", f"unknown variable '{s.name}'", where,
                         did_you_mean(s.name, list(m.vars) + list(self.scope.names())) or
                         [f"declare it: var {s.name}: int = 0"])
            self.expr(s.value)
            return
        vt = self.expr(s.value, allow_random=True)
        if s.op != "=":
            self.expect("int", target_type, s, f"what '{s.op}' changes")
            self.expect("int", vt, s.value, f"the amount after '{s.op}'")
        else:
            self.expect(target_type, vt, s.value, f"the value of {s.name}")

    def call_stmt(self, s: ast.CallStmt):
        m = self.m
        p = m.phases.get(s.name)
        if p is None:
            if s.name in m.defines or s.name in BUILTIN_CALLS or s.name in AGGREGATES:
                self.err("E605", f"'{s.name}' is a value, not a phase; a statement cannot use it "
                         "alone", s.span, ["store it with let, or use it in a condition"])
            else:
                self.err("E204", f"unknown phase '{s.name}'", s.span,
                         did_you_mean(s.name, m.phases))
            for a in s.args:
                self.expr(a)
            return
        self.used.add(s.name)
        self.current_phase.calls.add(s.name)
        if len(s.args) != len(p.params):
            self.err("E400", f"phase {s.name} takes {len(p.params)} argument"
                     f"{'s' if len(p.params) != 1 else ''}, not {len(s.args)}", s.span,
                     [f"write {s.name}({', '.join(n for n, _ in p.params)})"] if p.params else [])
        for a, (pname, pt) in zip(s.args, p.params):
            self.expect(pt, self.expr(a), a, f"parameter {pname}")
        for a in s.args[len(p.params):]:
            self.expr(a)
        m.resolved[id(s)] = ("phase", s.name)

    def question(self, s):
        """A decision's question: its holes are checked like a log line's; none is W705."""
        if getattr(s, "question", None) is not None:
            self.text(s.question)
        else:
            question_missing(self, s)

    def choices(self, choices):
        labels = set()
        for c in choices:
            if isinstance(c, ast.NamedChoice):
                self.text(c.label)
                plain = "".join(x for x in c.label.parts if isinstance(x, str))
                if plain in labels and all(isinstance(x, str) for x in c.label.parts):
                    self.err("E501", f"two options are labelled \"{plain}\"", c.span,
                             ["labels must tell the options apart"])
                labels.add(plain)
                if c.cond is not None:
                    self.cond(c.cond, "an option's condition")
                self.block(c.body)
            elif isinstance(c, ast.TupleChoice):
                self.tuple_choice(c)
            else:
                et = self.collection(c.source)
                self.scope.push()
                self.m.slots[id(c)] = self.scope.bind(c.binder, et)
                if c.where is not None:
                    self.cond(c.where, "an option's condition")
                if c.label is not None:
                    self.text(c.label)
                self.block(c.body)
                self.scope.pop()

    def tuple_choice(self, c: ast.TupleChoice):
        """`(a, b) in A, B where ...`: one binder per collection; B may use a."""
        if len(c.binders) != len(c.sources):
            self.err("E400", f"{len(c.binders)} names but {len(c.sources)} collections", c.span,
                     ["give one collection for each name: (q, f) in 1..10, 1..6"])
        if len(set(c.binders)) != len(c.binders):
            self.err("E502", "a name appears twice in ( ... )", c.span)
        self.scope.push()
        slots = []
        for name, src in zip(c.binders, c.sources):
            slots.append(self.scope.bind(name, self.collection(src)))
        self.m.slots[id(c)] = tuple(slots)
        if c.where is not None:
            self.cond(c.where, "an option's condition")
        if c.label is not None:
            self.text(c.label)
        self.block(c.body)
        self.scope.pop()

    def indexes(self, name, dims, args, span):
        if len(args) != len(dims):
            if not dims:
                self.err("E401", f"{name} takes no index", span)
            else:
                self.err("E401", f"{name} is indexed by {', '.join(dims)}: it takes {len(dims)} "
                         f"index{'es' if len(dims) != 1 else ''}, not {len(args)}", span,
                         [f"write {name}[{', '.join('p' if d == 'player' else d.lower() for d in dims)}]"])
        for a, d in zip(args, dims):
            self.expect(d, self.expr(a), a, f"an index of {name}")
        for a in args[len(dims):]:
            self.expr(a)

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
                hint = did_you_mean(e.kind, m.kinds)
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

    def let_in(self, e: ast.LetIn) -> str:
        """`let x = value in body`: x is a local of the body only."""
        vt = self._expr(e.value)
        if vt == "none":
            self.err("E300", f"'{e.name}' would have no type: it is set to none", e.span,
                     ["give it a value of a known type, or use if ... then ... else"])
        if self.scope.lookup(e.name) is not None:
            self.err("E502", f"'{e.name}' is already a local here", e.span,
                     ["pick another name"])
        elif e.name in self.global_names() or e.name in self.m.kinds:
            self.err("E502", f"'{e.name}' would hide the "
                     f"{self.global_names().get(e.name, 'kind')} of that name", e.span,
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
        for en in m.enums.values():
            if n in en.values:
                m.resolved[id(e)] = ("enum_value", (en.name, en.values.index(n)))
                return en.name
        if n in m.phases:
            self.err("E605", f"'{n}' is a phase, not a value", e.span,
                     ["run a phase as a statement on its own line"])
            return "any"
        if n in m.kinds:
            self.err("E605", f"'{n}' is a kind of card, not a value", e.span,
                     [f"to test a card, write 'c is {n}'"])
            return "any"
        cands = list(self.global_names()) + (list(self.scope.names()) if self.scope else [])
        if self.context == "label" and self.label_fields:
            cands += list(self.label_fields)
        self.err("E200", f"unknown name '{n}'", e.span, did_you_mean(n, cands))
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
            if e.name not in en.values:
                self.err("E203", f"{en.name} has no value '{e.name}'", e.span,
                         did_you_mean(e.name, en.values))
                return "any"
            m.resolved[id(e)] = ("enum_value", (en.name, en.values.index(e.name)))
            return en.name
        ot = self._expr(e.obj)
        if ot == "card":
            if e.name not in self.field_types:
                self.err("E203", f"no kind of card has a field '{e.name}'", e.span,
                         did_you_mean(e.name, self.field_types))
                return "any"
            m.resolved[id(e)] = ("card_field", e.name)
            return self.field_types[e.name]
        if ot in m.enums:
            en = m.enums[ot]
            if e.name not in en.fields:
                self.err("E203", f"{ot} has no field '{e.name}'", e.span,
                         did_you_mean(e.name, en.fields) or
                         [f"{ot} has {'fields ' + ', '.join(en.fields) if en.fields else 'no fields'}"])
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
            if self.scope is None or self.scope.lookup(n) is None:
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
            return elem_of(ot)
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
            if n in RANDOM_CALLS and not getattr(self, "allow_random", False):
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
                    if at != "any" and not (base in m.enums and m.enums[base].is_board):
                        self.err("E300", f"{n} needs {'a list of ' if pt.startswith('list') else 'a '}"
                                 f"board node{'s' if pt.startswith('list') else ''}, not "
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
            self.err("E605", f"'{n}' is a phase; it runs as a statement, not as a value", e.span)
        elif n in m.zones or n in m.vars:
            self.err("E206", f"'{n}' is a {'zone' if n in m.zones else 'variable'}, not a "
                     "function", e.span, [f"index it with square brackets: {n}[...]"])
        else:
            self.err("E206", f"unknown function '{n}'", e.span,
                     did_you_mean(n, list(m.defines) + list(BUILTIN_CALLS) + list(AGGREGATES)))
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


def check_file_tree(file: ast.File, sources: dict) -> tuple[Model, list]:
    checker = Checker(file, sources)
    model = checker.run()
    too_many = instance_errors(model)  # before any layout is built (issue 20)
    if too_many:
        raise CheckFailed(too_many, checker.warnings)
    model.files = [file]
    return model, sorted(checker.warnings, key=RulesError.sort_key)
