"""Checking declarations: global names, enums, kinds and their fields, zones, variables, decks."""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang import ast
from rulesdsl.lang.errors import Span
from rulesdsl.lang.check.model import HEX_DIRECTIONS
from rulesdsl.lang.check.model import (
    AGGREGATES, BUILTIN_CALLS, BUILTIN_VALUES, DIRECTIONS, DefineInfo, EnumInfo, GRID_MAX,
    KindInfo, PhaseInfo, RESERVED_TYPE_NAMES, STATEMENT_KEYWORDS, Scope, VarInfo, ZoneInfo,
    elem_of, list_of)



def a(what: str) -> str:
    """`what` with its article: "a phase", "an invariant"."""
    return f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"

class Declarations:
    """Collects every declaration into the model and checks its parts."""

    scope: Optional[Scope]  # the local names in reach (set by the checker, Checker.__init__)

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

    def index_declarations(self) -> None:
        """What statements and names look up, built once when every declaration is in: a
        scan of all declarations per statement would make a long file's check quadratic."""
        self.globals = self.global_names()
        self.enum_value_owner: dict = {}
        for e in self.m.enums.values():   # the first enum declaring a value owns it
            for v, i in e.positions.items():
                self.enum_value_owner.setdefault(v, (e, i))
        self.kinds_on_play = any(k.decl.on_play for k in self.m.kinds.values())

    def collect(self, decls):
        seen: dict[str, tuple[str, Span]] = {}
        response_names: set = set()
        m = self.m

        def claim(name: str, what: str, span: Span) -> bool:
            if name in RESERVED_TYPE_NAMES or name in BUILTIN_VALUES or name in BUILTIN_CALLS \
                    or name in AGGREGATES:
                self.err("E502", f"'{name}' is a built-in name and cannot be declared as a {what}",
                         span, ["choose another name"])
                self.refused[name] = what
                return False
            if name in seen:
                other_what, other_span = seen[name]
                self.err("E500", f"'{name}' is declared twice: as {a(other_what)} at line "
                         f"{other_span.line} and as {a(what)} here", span,
                         ["rename one of them"] + (["to replace a declaration of the file this "
                                                    "one extends, write 'override' before it"]
                                                   if other_span.path != span.path else []))
                return False
            seen[name] = (what, span)
            return True

        games = [d for d in decls if isinstance(d, ast.Game)]
        players = [d for d in decls if isinstance(d, ast.Players)]
        for cls, what in ((ast.Game, "game"), (ast.Players, "players"), (ast.Flow, "flow"),
                          (ast.Score, "score"), (ast.Evaluate, "evaluate"),
                          (ast.Payoff, "payoff")):
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
            m.cooperative = p.cooperative
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
                    values_seen: set = set()  # a set: an enum may have thousands of values
                    for it in d.items:
                        if it.name in values_seen:
                            self.err("E501", f"'{it.name}' appears twice in enum {d.name}", it.span)
                            continue
                        if len(it.args) != len(d.fields):
                            n = len(d.fields)
                            self.err("E400", f"{it.name} gives {len(it.args)} value"
                                     f"{'s' if len(it.args) != 1 else ''} but enum {d.name} has "
                                     f"{n} field{'s' if n != 1 else ''}", it.span,
                                     ["give one value for each of: "
                                      f"{', '.join(fields) or 'no fields'}"])
                        values.append(it.name)
                        values_seen.add(it.name)
                        attrs_.append({f.name: a for f, a in zip(d.fields, it.args)})
                    m.enums[d.name] = EnumInfo(d.name, values, fields, attrs_, d)
            elif isinstance(d, ast.Board):
                if claim(d.name, "board", d.span):
                    values, values_seen = [], set()
                    for n in d.nodes:
                        if n.name in values_seen:
                            self.err("E501", f"'{n.name}' appears twice on board {d.name}", n.span)
                            continue
                        values.append(n.name)
                        values_seen.add(n.name)
                    info = EnumInfo(d.name, values, {}, [{} for _ in values], d, True)
                    pairs = set()
                    for b in d.borders:
                        bad = [x for x in (b.a, b.b) if x not in info.positions]
                        for x in bad:
                            self.err("E200", f"'{x}' is not a node of board {d.name}",
                                     self.name_at(b.span, x), self.suggest(x, values))
                        if bad:
                            continue
                        if b.a == b.b:
                            self.err("E601", f"a border from {b.a} to itself", b.span)
                            continue
                        key = frozenset((b.a, b.b))
                        if key in pairs:
                            self.err("E501", f"the border {b.a} - {b.b} is listed twice", b.span)
                        pairs.add(key)
                        info.borders.append((info.positions[b.a], info.positions[b.b]))
                    m.enums[d.name] = info
            elif isinstance(d, ast.Grid):
                self.grid(d, claim)
            elif isinstance(d, ast.Layout):
                self.layout(d, claim)
        # enum values must not clash with each other across enums
        owner: dict[str, str] = {}
        for e in m.enums.values():
            for v in e.values:
                if v in owner and owner[v] != e.name:
                    where = next((i.span for i in getattr(e.decl, "items", None) or
                                  getattr(e.decl, "nodes", ()) if i.name == v),
                             self.name_at(e.decl.span, v))
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
                    if d.visibility in ("private", "others") and "player" not in dims and \
                            not bad_dims:
                        self.err("E601", f"zone {d.name} is {d.visibility} but belongs to no "
                                 "player", d.span, ["add 'per player', or make it hidden"])
            elif isinstance(d, ast.Var):
                if claim(d.name, "variable", d.span):
                    dims = [r.name for r in d.dims]
                    bad_dims = self.check_dims(d.dims)
                    m.vars[d.name] = VarInfo(d.name, d, self.type_of_ref(d.type), dims)
                    if d.visibility == "private" and "player" not in dims and not bad_dims:
                        self.err("E601", f"variable {d.name} is private but belongs to no "
                                 "player", d.span, ["add 'per player', or make it hidden"])
                    self.others_only_for_zones(d, f"variable {d.name}")
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
                self.others_only_for_zones(d, "the score")
            elif isinstance(d, ast.Evaluate):
                m.evaluate = d
            elif isinstance(d, ast.Truth):
                if claim(d.name, "invariant", d.span):
                    m.truths[d.name] = d
            elif isinstance(d, ast.Payoff):
                m.payoff = d
            elif isinstance(d, ast.Deck):
                m.decks.append(d)
        if not m.flow:
            self.err("E600", "the file does not say which phase the game runs",
                     Span(self.file.path, 1, 1, 1, 1), ["add: flow NAME, naming a phase"])
        elif m.flow not in m.phases:
            self.err("E204", f"flow names '{m.flow}', which is not a phase",
                     self.name_at(self.flow_decl.span, m.flow, r"flow\s+"),
                     self.suggest(m.flow, m.phases))
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
                             self.suggest(d.target, m.defines))
                else:
                    if any(x.name == d.name for x in target.modifiers):
                        self.err("E500", f"modifier '{d.name}' is declared twice", d.span)
                    target.modifiers.append(d)
            elif isinstance(d, ast.Invariant):
                z = m.zones.get(d.zone)
                if z is None:
                    self.err("E202", f"unknown zone '{d.zone}'",
                             self.name_at(d.span, d.zone, r"invariant\s+"),
                             self.suggest(d.zone, m.zones))
                elif d.keep < 1:
                    self.err("E601", "an invariant must keep at least 1 card", d.span)
                else:
                    z.keep = d.keep
            elif isinstance(d, ast.Response):
                if d.name in response_names:
                    self.err("E500", f"response '{d.name}' is declared twice", d.span)
                response_names.add(d.name)
                m.responses.append(d)

    def grid(self, d: ast.Grid, claim) -> None:
        """`board B grid W x H`: a board whose nodes are the cells a1, b1, ..., row by row,
        bordering their orthogonal neighbours; the first grid also declares Direction.
        `board B hex W x H`: the same cells as hexagons in a rhombus, six neighbours each."""
        if not (1 <= d.width <= GRID_MAX[0] and 1 <= d.height <= GRID_MAX[1]):
            self.err("E601", f"a grid is 1 to {GRID_MAX[0]} columns by 1 to {GRID_MAX[1]} "
                     f"rows, not {d.width} x {d.height}", d.span)
            return
        if not claim(d.name, "board", d.span):
            return
        other = next((e for e in self.m.enums.values() if e.grid and e.hex != d.hex), None)
        if other is not None:
            self.err("E601", f"board {d.name} is {'a hex' if d.hex else 'a square'} grid but "
                     f"{other.name} is not: their directions would differ", d.span,
                     ["use one kind of grid in a file"])
            return
        w, h = d.width, d.height
        cells = [f"{chr(97 + x)}{y + 1}" for y in range(h) for x in range(w)]
        info = EnumInfo(d.name, cells, {}, [{} for _ in cells], d, True, [], (w, h), d.hex)
        for i in range(len(cells)):
            x, y = i % w, i // w
            if x + 1 < w:
                info.borders.append((i, i + 1))
            if y + 1 < h:
                info.borders.append((i, i + w))
            if d.hex and x > 0 and y + 1 < h:  # north west: the sixth neighbour
                info.borders.append((i, i + w - 1))
        self.m.enums[d.name] = info
        dirs = HEX_DIRECTIONS if d.hex else DIRECTIONS
        if "Direction" not in self.m.enums and claim("Direction", "enum", d.span):
            self.m.enums["Direction"] = EnumInfo(
                "Direction", [n for n, _, _ in dirs], {"dx": "int", "dy": "int"},
                [{"dx": ast.Int(d.span, dx), "dy": ast.Int(d.span, dy)}
                 for _, dx, dy in dirs], d)

    def others_only_for_zones(self, d, what: str) -> None:
        """`others` (everyone but the owner) is a zone's visibility: a card held facing
        out. A value has no such reading (its owner would have to be told it to act)."""
        if getattr(d, "visibility", None) == "others":
            self.err("E601", f"{what} is 'others', a visibility only zones have", d.span,
                     ["make it public, private or hidden; a hand its owner cannot see is "
                      "zone hand per player others"])

    def check_dims(self, dims) -> int:
        """Report dimensions that are not 'player', an enum or a board; return how many."""
        bad = 0
        for r in dims:
            if r.name != "player" and r.name not in self.m.enums:
                bad += 1
                self.err("E205", f"'{r.name}' is not 'player', an enum or a board", r.span,
                         self.suggest(r.name, self.m.enums, ["player"]))
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
                 self.suggest(t.name, ["int", "bool", "player", "card"], self.m.enums) or
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
                         self.suggest(k.parent, self.m.kinds))
            else:
                self.resolve_kind(parent, stack + [k.name])
                fields.update(parent.fields)
                ancestors += parent.ancestors
                k.changing |= parent.changing
        for f in k.decl.fields:
            t = self.type_of_ref(f.type)
            if f.name in fields and fields[f.name][0] != t:
                self.err("E300", f"field {f.name} of {k.name} is {t} but the parent kind says "
                         f"{fields[f.name][0]}", f.span)
            fields[f.name] = (t, f.default)
            if f.changing:
                k.changing.add(f.name)
                self.piece_field(f, t)
        k.fields = fields
        k.ancestors = ancestors

    def piece_field(self, f: ast.Field, t: str) -> None:
        """A kind's `var` field: a piece's state, kept per card and set in play."""
        if t not in ("int", "bool", "player") and t not in self.m.enums:
            self.err("E300", f"a changing field holds a number, true/false, a player or an "
                     f"enum value, not {self.show(t)}", f.span,
                     [f"declare it like: var {f.name}: int = 0"])
        self.m.piece_fields[f.name] = t
        if f.type is not None and f.type.name == "range":
            low, high = f.type.low, f.type.high
            self.m.piece_ranges[f.name] = (low, high)
            if isinstance(f.default, ast.Int) and low <= high and \
                    not low <= f.default.value <= high:
                self.err("E601", f"the default {f.default.value} is outside {low}..{high}",
                         f.default.span, [f"start it within the range: var {f.name}: "
                                          f"{low}..{high} = {low}"])

    def all_fields(self) -> dict:
        """Every field name of any kind -> its type (one type per name across kinds)."""
        out: dict = {}
        origin: dict = {}  # field name -> the kind that gave it its type
        for k in self.m.kinds.values():
            for name in k.fields:
                if name in self.m.piece_fields and name not in k.changing:
                    self.err("E300", f"field {name} changes in one kind (var {name}) but not "
                             f"in {k.name}", k.decl.span,
                             [f"declare it in every kind as: var {name}: ..."])
            for name, (t, _) in k.fields.items():
                if name in out and out[name] != t and "any" not in (t, out[name]) and \
                        origin[name] not in k.ancestors:  # else resolve_kind reported it
                    self.err("E300", f"field {name} is {out[name]} in one kind and {t} in "
                             f"{k.name}", k.decl.span, ["give fields of the same name the "
                                                        "same type"])
                out.setdefault(name, t)
                origin.setdefault(name, k.name)
        return out

    def deck(self, deck: ast.Deck):
        m = self.m
        if deck.zone not in m.zones:
            self.err("E202", f"the deck starts in unknown zone '{deck.zone}'",
                     self.name_at(deck.span, deck.zone, r"deck\s+"),
                     self.suggest(deck.zone, m.zones) or [f"declare it: zone {deck.zone} hidden"])
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
                         self.suggest(e.kind, m.kinds))
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
        self.count_slots(deck)
