"""Tree -> ast for the declarations: the top section of grammar/rules.lark (`start`, `decl`
and each `..._decl` down to `score_decl`), its part "what a player reads at the table"
(`about_decl` to `show_decl`, `look_decl`), and the parameters and types that close it."""

from __future__ import annotations

import attrs
from lark import Token, v_args

from rulesdsl.lang import ast
from rulesdsl.lang.syntax.base import Rules, whole


@v_args(inline=True, meta=True)
class DeclarationRules(Rules):
    """One method per rule of that section of grammar/rules.lark, each making one node."""

    def start(self, meta, *decls):
        return ast.File(self._span(meta), self.path, tuple(decls))

    def decl(self, meta, override, body):
        return ast.Decl(self._span(meta), override is not None, body)

    def game_decl(self, meta, title):
        return ast.Game(self._span(meta), self._plain(title))

    def extends_decl(self, meta, path):
        return ast.Extends(self._span(meta), self._plain(path))

    def players_decl(self, meta, low, high, cooperative):
        low = whole(low)
        return ast.Players(self._span(meta), low, whole(high) if high else low,
                           cooperative is not None)

    def option_decl(self, meta, name, type_, default, doc):
        return ast.Option(self._span(meta), str(name), type_, default, self._plain(doc))

    def field_list(self, meta, *fields):
        return tuple(fields)

    def enum_decl(self, meta, name, fields, *items):
        items = tuple(i for i in items if i is not None)
        return ast.Enum(self._span(meta), str(name), fields or (), items)

    def enum_item(self, meta, name, args, title):
        return ast.EnumItem(self._span(meta), str(name), args or (), self._plain(title))

    def board_decl(self, meta, name, *rest):
        nodes, borders = [], []
        for item in rest:
            if item is None:
                continue
            if isinstance(item, Token):
                nodes.append(ast.Ref(self._tok_span(item), str(item)))
            else:
                borders.append(item)
        return ast.Board(self._span(meta), str(name), tuple(nodes), tuple(borders))

    def grid_decl(self, meta, name, width, height):
        return ast.Grid(self._span(meta), str(name), int(str(width).replace("_", "")),
                        int(str(height).replace("_", "")))

    def hex_decl(self, meta, name, width, height):
        return attrs.evolve(self.grid_decl(meta, name, width, height), hex=True)

    def layout_decl(self, meta, name, *items):
        rows = tuple(slots for kind, slots in items if kind == "row")
        tracks = tuple(track for kind, track in items if kind == "track")
        return ast.Layout(self._span(meta), str(name), rows, tracks)

    def layout_row(self, meta, *slots):
        return ("row", slots)

    def layout_track(self, meta, name, *slots):
        return ("track", ast.Track(self._span(meta), str(name), slots))

    def slot(self, meta, name):
        """A cell's name, or None for `_`: a place of the layout with no cell."""
        return None if str(name) == "_" else ast.Ref(self._tok_span(name), str(name))

    def slot_range(self, meta, first, last):
        return ast.CellRange(self._span(meta), str(first), str(last))

    def border(self, meta, a, _minus, b):
        return ast.Border(self._span(meta), str(a), str(b))

    def kind_decl(self, meta, name, parent, body):
        fields, label, playable, on_play = [], None, None, None
        for item in body or ():
            if isinstance(item, ast.Field):
                fields.append(item)
            elif isinstance(item, ast.Text):
                label = item
            elif item[0] == "playable":
                playable = item[1:]
            else:
                on_play = item[1:]
        return ast.Kind(self._span(meta), str(name), str(parent) if parent else "",
                        tuple(fields), label, playable, on_play)

    def kind_body(self, meta, *items):
        return items

    def kind_label(self, meta, text):
        return self._text(text)

    def kind_playable(self, meta, who, cond):
        return ("playable", str(who), cond)

    def kind_on_play(self, meta, who, block):
        return ("on_play", str(who), block)

    def field(self, meta, name, type_, default):
        return ast.Field(self._span(meta), str(name), type_, default)

    def kind_var(self, meta, field):
        return attrs.evolve(field, changing=True)

    def deck_decl(self, meta, zone, per, *entries):
        return ast.Deck(self._span(meta), str(zone), per or "", tuple(entries))

    def deck_per(self, meta, binder):
        return str(binder)

    def deck_entry(self, meta, count, kind, args):
        n = whole(count) if count is not None else 1
        return ast.DeckEntry(self._span(meta), n, str(kind), args or ())

    def zone_decl(self, meta, name, *items):
        dims, vis, unordered, cap = [], "public", False, 0
        for item in items:
            if isinstance(item, tuple) and item[0] == "dim":
                dims.append(item[1])
            elif isinstance(item, tuple) and item[0] == "vis":
                vis = item[1]
            elif item == "unordered":
                unordered = True
            elif isinstance(item, tuple) and item[0] == "cap":
                cap = item[1]
        return ast.Zone(self._span(meta), str(name), tuple(dims), vis, unordered, cap)

    def dim(self, meta, what):
        return ("dim", ast.Ref(self._tok_span(what), str(what)))

    def zone_visibility(self, meta, vis):
        return ("vis", vis)

    def zone_unordered(self, meta):
        return "unordered"

    def zone_capacity(self, meta, n):
        return ("cap", whole(n))

    def visibility(self, meta, tok):
        return str(tok)

    def var_decl(self, meta, name, type_, *rest):
        *dims, default, vis = rest
        return ast.Var(self._span(meta), str(name), type_, tuple(d[1] for d in dims), default,
                       vis or "public")

    def define_decl(self, meta, name, params, body):
        return ast.Define(self._span(meta), str(name), params or (), body)

    def modifier_decl(self, meta, name, target, cond, value):
        return ast.Modifier(self._span(meta), str(name), str(target), cond, value)

    def phase_decl(self, meta, name, params, result, body):
        return ast.Phase(self._span(meta), str(name), params or (), body, result)

    def setup_decl(self, meta, body):
        return ast.Setup(self._span(meta), body)

    def flow_decl(self, meta, name):
        return ast.Flow(self._span(meta), str(name))

    def response_decl(self, meta, name, card, player, where, body):
        return ast.Response(self._span(meta), str(name), str(card), str(player), where, body)

    def invariant_decl(self, meta, zone, keep):
        return ast.Invariant(self._span(meta), str(zone), whole(keep))

    def truth_decl(self, meta, name, params, value):
        return ast.Truth(self._span(meta), str(name), params or (), value)

    def score_decl(self, meta, param, value, vis):
        return ast.Score(self._span(meta), param, value, vis or "public")

    def evaluate_decl(self, meta, param, value):
        return ast.Evaluate(self._span(meta), param, value)

    def payoff_decl(self, meta, param, value, zero_sum):
        return ast.Payoff(self._span(meta), param, value, zero_sum is not None)

    # -- what a player reads
    def about_decl(self, meta, *lines):
        return ast.About(self._span(meta), tuple(self._plain(t) for t in lines))

    def title_decl(self, meta, name, title):
        return ast.Title(self._span(meta), str(name), self._plain(title))

    def text_decl(self, meta, name, *lines):
        return ast.Explain(self._span(meta), str(name), tuple(self._plain(t) for t in lines))

    def internal_decl(self, meta, *names):
        return ast.Internal(self._span(meta), tuple(ast.Ref(self._tok_span(n), str(n))
                                                    for n in names))

    def show_decl(self, meta, name, title, vis, cond):
        return ast.Show(self._span(meta), str(name), self._plain(title), vis or "public", cond)

    def look_decl(self, meta, *hints):
        return ast.Look(self._span(meta), tuple(hints))

    def look_hint(self, meta, word, subject, *values):
        return ast.LookHint(self._span(meta), str(word),
                            None if subject is None else str(subject),
                            tuple(self._plain(v) for v in values))

    def param_list(self, meta, *params):
        return tuple(p for p in params if p is not None)

    def param(self, meta, name, type_):
        return ast.Param(self._span(meta), str(name), type_)

    def type_player(self, meta, _tok):
        return ast.TypeRef(self._span(meta), "player")

    def type_name(self, meta, name):
        return ast.TypeRef(self._span(meta), str(name))

    def type_list(self, meta, of):
        return ast.TypeRef(self._span(meta), "list", of)

    def type_range(self, meta, low, high):
        return ast.TypeRef(self._span(meta), "range", None, whole(low),
                           whole(high))
