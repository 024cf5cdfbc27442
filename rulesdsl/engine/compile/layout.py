"""Laying out the state: zone and variable instances, and the cards every deck makes, with
their labels."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Callable, Sequence

from rulesdsl.lang import ast
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.limits import ENV, limit
from rulesdsl.engine.compile.program import VarLayout, ZoneLayout
from rulesdsl.engine.grid import grid_tables
from rulesdsl.engine.runtime.seats import seat_label
from rulesdsl.engine.compile.unit import Unit

if TYPE_CHECKING:  # the parts it is connected to
    from rulesdsl.engine.compile.expressions import Expressions


class Layout:
    """Numbers every zone, variable and card once per game."""

    def __init__(self, unit: Unit):
        self.m, self.n, self.p, self.kinds = unit.m, unit.n, unit.p, unit.kinds
        self.enum_fields: dict = {}  # (enum, field) -> its values by enum value

    def connect(self, exprs: Expressions) -> None:
        self.exprs = exprs

    def instances(self, name: str, dims: list):
        """The sizes of a per-player/per-enum family, and each instance's keys and name."""
        sizes = [self.n if d == "player" else len(self.m.enums[d].values) for d in dims]
        out = []
        for keys in itertools.product(*[range(s) for s in sizes]):
            label = name
            if keys:
                label += "[" + ", ".join(self.key_label(d, k) for d, k in zip(dims, keys)) + "]"
            out.append((keys, label))
        return sizes, out

    def layout_zones(self):
        p, m = self.p, self.m
        base = 0
        for name, z in m.zones.items():
            sizes, instances = self.instances(name, z.dims)
            p.zones[name] = ZoneLayout(name, base, list(z.dims), sizes, z.visibility,
                                       z.unordered, z.capacity, z.keep)
            for keys, label in instances:
                p.zone_names.append(label)
                p.zone_owner.append(keys[z.dims.index("player")] if "player" in z.dims else None)
                p.zone_vis.append(z.visibility)
                p.zone_unordered.append(z.unordered)
                p.zone_capacity.append(z.capacity)
                p.zone_keep.append(z.keep)
                p.zone_layout_of.append(name)
            base += len(instances)

    def layout_boards(self) -> None:
        """Each board's adjacency, grid and layout, and each enum field's values."""
        p = self.p
        for name, e in self.m.enums.items():
            if e.is_board:
                adj: list[list[int]] = [[] for _ in e.values]
                for a, b in e.borders:
                    adj[a].append(b)
                    adj[b].append(a)
                p.adjacency[name] = [sorted(x) for x in adj]
            if e.grid:
                width, height = e.grid
                p.grids[name] = grid_tables(width, height, e.hex)
            if e.layout:
                p.layouts[name] = [list(row) for row in e.layout]
        for name, e in self.m.enums.items():
            for f in e.fields:
                self.enum_fields[(name, f)] = [self.exprs.const(a[f]) for a in e.attrs]

    def key_label(self, dim: str, k: int) -> str:
        return seat_label(k) if dim == "player" else self.m.enums[dim].values[k]

    def layout_vars(self):
        p, m = self.p, self.m
        base = 0
        for name, v in m.vars.items():
            sizes, instances = self.instances(name, v.dims)
            p.vars[name] = VarLayout(name, base, list(v.dims), sizes, v.type,
                                     v.decl.visibility)
            p.var_names.extend(label for _, label in instances)
            base += len(instances)
        p.nvars = base

    def instance(self, layout, args: Sequence, span) -> Callable:
        """A closure giving the flat index of a zone or variable instance at the checked
        keys `args` (engine/ir lowers it; its interpreter runs it)."""
        return self.exprs.interpreter.closure(self.exprs.lowering.instance(layout, args, span))

    # ------------------------------------------------------------------ cards
    def build_cards(self):
        m, p = self.m, self.p
        field_types: dict[str, str] = {}
        for k in m.kinds.values():
            for f, (t, _) in k.fields.items():
                field_types.setdefault(f, t)
        fields: dict[str, list] = {f: [] for f in field_types}  # field -> its value by card
        members: dict[str, list[bool]] = {k: [] for k in self.kinds}  # kind -> by card
        label_room = limit("card_labels")  # `check` counted the written text; holes now
        kind_index = {k: i for i, k in enumerate(self.kinds)}
        for deck in m.decks:
            zone = p.zones[deck.zone]
            seats = range(self.n) if deck.per_player else [None]
            for seat in seats:
                L: list = [None] * max(1, m.nslots.get(id(deck), 1))
                if seat is not None:
                    L[0] = seat
                zone_index = zone.base + (seat or 0)
                for entry in deck.entries:
                    kinfo = m.kinds[entry.kind]
                    fnames = list(kinfo.fields)
                    values = []
                    for i, fname in enumerate(fnames):
                        ftype = kinfo.fields[fname][0]
                        if i < len(entry.args):
                            a = entry.args[i]
                            v = self.exprs.expr(a)(None, L)
                            t = m.types.get(id(a), "any")
                            values.append(list(v) if t.startswith("list of") and
                                          not ftype.startswith("list of") else [v])
                        else:
                            default = kinfo.fields[fname][1]
                            values.append([self.exprs.expr(default)(None, L)])
                    # count first: a deck of ten million cards is refused before it exists
                    need = entry.count
                    for v in values:
                        need *= len(v)
                    most = limit("cards")
                    if len(p.card_kind) + need > most:
                        raise RulesError("R020", f"the decks make {len(p.card_kind) + need:,} "
                                         f"cards; the limit is {most:,}", entry.span
                                         or deck.span,
                                         ["a deck that large is surely a mistake in a count"])
                    for combo in itertools.product(*values):
                        for _ in range(entry.count):
                            cid = len(p.card_kind)
                            p.card_kind.append(kind_index[entry.kind])
                            p.initial_zone.append(zone_index)
                            own = dict(zip(fnames, combo))
                            for f in fields:
                                fields[f].append(own.get(f, self.zero(field_types[f])))
                            for kname in self.kinds:
                                members[kname].append(kname in kinfo.ancestors)
                            p.card_label.append(self.card_label(kinfo, own))
                            label_room -= len(p.card_label[-1])
                            if label_room < 0:
                                raise card_labels_error(entry.span or deck.span)
                            if cid >= 1_000_000:
                                raise RulesError("R020", "the decks make more than 1,000,000 "
                                                 "cards", deck.span,
                                                 ["a deck that large is surely a mistake in a "
                                                  "count"])
        p.fields = fields
        p.members = members

    @staticmethod
    def zero(t: str):
        return 0 if t == "int" else (False if t == "bool" else None)

    def kind_label(self, kinfo):
        """The `label "..."` a kind declares or inherits (the nearest), or None."""
        for anc in kinfo.ancestors:
            text = self.m.kinds[anc].decl.label
            if text is not None:
                return text
        return None

    def card_label(self, kinfo, values: dict) -> str:
        text = self.kind_label(kinfo)
        if text is not None:
            out = []
            for part in text.parts:
                if isinstance(part, str):
                    out.append(part)
                elif isinstance(part, ast.Name) and part.name in values:
                    out.append(self.p.label(kinfo.fields[part.name][0], values[part.name]))
                else:
                    out.append(str(self.exprs.expr(part)(None, [None])))
            return "".join(out)
        shown = [self.p.label(kinfo.fields[f][0], v) for f, v in values.items()]
        return " ".join([kinfo.name.replace("_", " ")] + shown)

    def make_labeller(self):
        m = self.m
        enums = {k: v.values for k, v in m.enums.items()}
        p = self.p

        def label(t: str, v, st=None) -> str:
            """A value as text; with the state, a piece as it is now (engine/pieces.py)."""
            if v is None:
                return "none"
            if t == "card":
                if st is not None and p.pieces is not None and p.pieces.parts[v] is not None:
                    return p.pieces.label(st, v, label)
                return p.card_label[v]
            if t == "player":
                return seat_label(v)
            if t in enums:
                return enums[t][v]
            if t == "bool":
                return "true" if v else "false"
            if t == "zone":
                return p.zone_names[v]
            if t.startswith("list of"):
                return ", ".join(label(t[8:], x, st) for x in v) or "nothing"
            return str(v)
        return label


def card_labels_error(span) -> RulesError:
    most = limit("card_labels")
    return RulesError("E609", f"the cards' labels come to more than {most:,} characters "
                      "with this entry", span,
                      ["shorten the kind's label or what its holes read, or make fewer cards",
                       f"raise the limit with {ENV}=card_labels=N"])
