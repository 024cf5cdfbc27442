"""Checked model -> an executable Program, once per load and player count.

Expressions become Python closures `f(st, L)` over the state and the frame's locals list;
statements become flat lists of instructions with jumps, so the position in the rules is
plain data: a stack of frames `[proc, pc, locals, is_effect]`. An instruction is called as
`ins(st, frame)` after the pc has moved past it; it returns None, or SUSPEND when a player
must decide. The compiler never imports the engine: instructions call the state's methods.
"""

from __future__ import annotations

import itertools
from typing import Callable, Optional

import attrs

from rulesdsl.lang import ast
from rulesdsl.lang.check import Model, elem_of
from rulesdsl.engine.budget import Budget
from rulesdsl.lang.errors import RulesError, RuntimeRulesError
from rulesdsl.engine.hoist import MISSING, LoopContext, Scanner
from rulesdsl.engine.recursion import recursive_call
from rulesdsl.engine.grid import (grid_builtin, grid_tables, prefix_closure,
                                  var_filter_aggregate)
from rulesdsl.engine.together import bind_tuple, compile_ask_together, tuple_options
from rulesdsl.lang.limits import limit

SUSPEND = True
MAX_RANGE = 100_000
MAX_INT = 2 ** 53
MAX_CARDS = 1_000_000  # cards in all decks together (R020)


@attrs.define
class Proc:
    """A compiled phase, response or card effect."""
    name: str
    code: list
    spans: list
    nslots: int
    nparams: int
    span: object = None


@attrs.define
class ZoneLayout:
    name: str
    base: int
    dims: list  # "player" or enum names
    sizes: list
    visibility: str
    unordered: bool
    capacity: int
    keep: int


@attrs.define
class VarLayout:
    name: str
    base: int
    dims: list
    sizes: list
    type: str
    visibility: str
    default: Callable = None


@attrs.define
class Program:
    """Everything the engine needs to run one game for a fixed number of players."""
    title: str
    nplayers: int
    options: dict
    enums: dict  # name -> list of value names
    card_kind: list = attrs.Factory(list)
    card_label: list = attrs.Factory(list)
    kind_names: list = attrs.Factory(list)
    fields: dict = attrs.Factory(dict)  # field -> per-card values
    members: dict = attrs.Factory(dict)  # kind -> per-card bools
    zones: dict = attrs.Factory(dict)
    zone_names: list = attrs.Factory(list)  # per zone instance
    zone_owner: list = attrs.Factory(list)  # per zone instance: seat or None
    zone_vis: list = attrs.Factory(list)
    zone_unordered: list = attrs.Factory(list)
    zone_capacity: list = attrs.Factory(list)
    zone_keep: list = attrs.Factory(list)
    zone_layout_of: list = attrs.Factory(list)  # per instance: the layout's name
    vars: dict = attrs.Factory(dict)
    nvars: int = 0
    var_names: list = attrs.Factory(list)
    initial_zone: list = attrs.Factory(list)  # per card
    procs: list = attrs.Factory(list)
    proc_index: dict = attrs.Factory(dict)
    setup: Optional[int] = None
    flow: int = 0
    on_play: list = attrs.Factory(list)  # per kind id: proc id or None
    playable: list = attrs.Factory(list)  # per kind id: closure (st, c, p) -> bool, or None
    score: Optional[Callable] = None
    score_visibility: str = "public"
    adjacency: dict = attrs.Factory(dict)  # board name -> list of neighbour lists
    grids: dict = attrs.Factory(dict)  # grid board name -> grid.GridTables
    step_limit: int = 1_000_000
    depth_limit: int = 200
    labeller: Callable = None
    name_cache: dict = attrs.Factory(dict)  # "hand[P1]" -> zone index, filled by State.zone
    present: object = None  # the model's Presentation: about, titles, texts, internal
    shows: list = attrs.Factory(list)  # (title, value closure (st, seat), type, vis, per player)
    budget: Budget = attrs.Factory(Budget)  # work per decision (engine/budget.py)

    def label(self, t: str, v) -> str:
        return self.labeller(t, v)


def moves_cost(st, cards: list) -> int:
    """What moving `cards` costs: one each, plus a thousandth of the pile each leaves (taking
    a card out of a long list shifts the rest: a loop of single moves is quadratic)."""
    if len(cards) == 1:
        return 1 + len(st.zones[st.loc[cards[0]]]) // 1000
    zones, loc = st.zones, st.loc
    return len(cards) + sum(len(zones[loc[c]]) for c in cards) // 1000


def seat_label(s) -> str:
    return "none" if s is None else f"P{s + 1}"


class Compiler:
    def __init__(self, model: Model, nplayers: int, options: dict):
        self.m = model
        self.n = nplayers
        self.options = options
        self.p = Program(model.title, nplayers, dict(options),
                         {k: list(v.values) for k, v in model.enums.items()})
        self.p.labeller = self.make_labeller()
        self.loop_stack: list = []  # LoopContexts of the candidate loops being compiled
        self.scanner = Scanner(model)
        self.b = self.p.budget

    # ------------------------------------------------------------------ layout
    def build(self) -> Program:
        m, p = self.m, self.p
        self.layout_zones()
        self.layout_vars()
        for name, e in m.enums.items():
            if e.is_board:
                adj = [[] for _ in e.values]
                for a, b in e.borders:
                    adj[a].append(b)
                    adj[b].append(a)
                p.adjacency[name] = [sorted(x) for x in adj]
            if e.grid:
                p.grids[name] = grid_tables(*e.grid)
        self.enum_fields = {}
        for name, e in m.enums.items():
            for f in e.fields:
                self.enum_fields[(name, f)] = [self.const(a[f]) for a in e.attrs]
        # procs first get ids, so calls can refer to them before they are compiled
        self.proc_ids = {}
        self.pending = []
        for name, ph in m.phases.items():
            self.declare_proc(name, ph.decl)
        self.kinds = list(m.kinds)
        p.kind_names = self.kinds
        self.response_ids = []
        for r in m.responses:
            self.response_ids.append(self.declare_proc(f"response {r.name}", r))
        p.on_play = [None] * len(self.kinds)
        p.playable = [None] * len(self.kinds)
        handler_of = {}
        for k in m.kinds.values():
            if k.decl.on_play is not None:
                handler_of[k.name] = self.declare_proc(f"on play of {k.name}", k.decl.on_play)
        for i, kname in enumerate(self.kinds):
            for anc in m.kinds[kname].ancestors:
                if anc in handler_of:
                    p.on_play[i] = handler_of[anc]
                    break
        if m.setup is not None:
            p.setup = self.declare_proc("setup", m.setup)
        p.flow = self.proc_ids[m.flow]
        self.build_cards()
        # playability conditions
        for i, kname in enumerate(self.kinds):
            for anc in m.kinds[kname].ancestors:
                d = m.kinds[anc].decl
                if d.playable is not None:
                    p.playable[i] = self.compile_playable(d.playable)
                    break
        # compile bodies
        for pid, node in self.pending:
            self.compile_proc(pid, node)
        if m.score is not None:
            f = self.expr(m.score.value)
            size = m.nslots.get(id(m.score), 1)

            def score(st, seat, f=f, size=size):
                st.prog.budget.refill()  # asked for outside any run: its own budget
                L = [None] * size
                L[0] = seat
                return f(st, L)
            p.score = score
            p.score_visibility = m.score.visibility
        for v in p.vars.values():
            d = m.vars[v.name].decl
            v.default = self.expr(d.default)
        self.compile_shows()
        return p

    def compile_shows(self):
        """`show` declarations: each a closure (state, seat) -> the definition's value."""
        present = getattr(self.m, "present", None)
        self.p.present = present
        for name, title, vis, per_player in (present.shows if present else ()):
            call = self.define_call(name, [(lambda st, L: L[0])] if per_player else [])
            value = (lambda call: lambda st, seat: call(st, [seat]))(call)
            self.p.shows.append((title, value, self.m.defines[name].type, vis, per_player))

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

    def instance(self, layout, args: list, span) -> Callable:
        """A closure giving the flat index of a zone or variable instance."""
        base = layout.base
        sizes = layout.sizes
        if not args:
            return lambda st, L: base
        if len(args) == 1:
            a = args[0]
            size0 = sizes[0]
            name = layout.name

            def one(st, L):
                k = a(st, L)
                if k is None or not 0 <= k < size0:
                    raise RuntimeRulesError("R010", f"{name}[...] was given "
                                            f"{'none' if k is None else k}", span)
                return base + k
            return one
        strides = []
        acc = 1
        for s in reversed(sizes):
            strides.append(acc)
            acc *= s
        strides.reverse()
        name = layout.name

        def many(st, L):
            i = base
            for f, stride, size in zip(args, strides, sizes):
                k = f(st, L)
                if k is None or not 0 <= k < size:
                    raise RuntimeRulesError("R010", f"{name}[...] was given an index of none",
                                            span)
                i += k * stride
            return i
        return many

    # ------------------------------------------------------------------ cards
    def build_cards(self):
        m, p = self.m, self.p
        field_types = {}
        for k in m.kinds.values():
            for f, (t, _) in k.fields.items():
                field_types.setdefault(f, t)
        fields = {f: [] for f in field_types}
        members = {k: [] for k in self.kinds}
        kind_index = {k: i for i, k in enumerate(self.kinds)}
        for deck in m.decks:
            zone = p.zones[deck.zone]
            seats = range(self.n) if deck.per_player else [None]
            for seat in seats:
                L = [None] * max(1, m.nslots.get(id(deck), 1))
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
                            v = self.expr(a)(None, L)
                            t = m.types.get(id(a), "any")
                            values.append(list(v) if t.startswith("list of") and
                                          not ftype.startswith("list of") else [v])
                        else:
                            default = kinfo.fields[fname][1]
                            values.append([self.expr(default)(None, L)])
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

    def card_label(self, kinfo, values: dict) -> str:
        m = self.m
        for anc in kinfo.ancestors:
            text = m.kinds[anc].decl.label
            if text is not None:
                out = []
                for part in text.parts:
                    if isinstance(part, str):
                        out.append(part)
                    elif isinstance(part, ast.Name) and part.name in values:
                        out.append(self.p.labeller(kinfo.fields[part.name][0], values[part.name]))
                    else:
                        out.append(str(self.expr(part)(None, [None])))
                return "".join(out)
        shown = [self.p.labeller(kinfo.fields[f][0], v) for f, v in values.items()]
        return " ".join([kinfo.name.replace("_", " ")] + shown)

    def make_labeller(self):
        m = self.m
        enums = {k: v.values for k, v in m.enums.items()}
        p = self.p

        def label(t: str, v) -> str:
            if v is None:
                return "none"
            if t == "card":
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
                return ", ".join(label(t[8:], x) for x in v) or "nothing"
            return str(v)
        return label

    def const(self, e):
        return self.expr(e)(None, [None] * 4)

    # ------------------------------------------------------------------ procs
    def declare_proc(self, name: str, node) -> int:
        pid = len(self.p.procs)
        self.p.procs.append(Proc(name, [], [], 0, 0, getattr(node, "span", None)))
        if isinstance(node, ast.Phase):
            self.proc_ids[node.name] = pid
            self.p.proc_index[node.name] = pid
        self.pending.append((pid, node))
        return pid

    def compile_proc(self, pid: int, node):
        m = self.m
        proc = self.p.procs[pid]
        self.code = []
        self.spans = []
        self.loops = []  # (break jump indexes list)
        self.context_node = node
        if isinstance(node, ast.Phase):
            body = node.body
            nslots = m.nslots.get(id(node), 0)
            proc.nparams = len(node.params)
        elif isinstance(node, ast.Response):
            body = node.body
            nslots = m.nslots.get(id(node), 2)
            proc.nparams = 2
            if node.where is not None:
                cond = self.expr(node.where)

                def guard(st, fr, cond=cond):
                    if not cond(st, fr[2]):
                        st.return_from(fr)
                self.emit(guard, node.where.span)
        elif isinstance(node, ast.Setup):
            body = node.body
            nslots = m.nslots.get(id(node), 0)
        else:  # on play: (binder, block)
            body = node[1]
            nslots = m.nslots.get(id(node), 2)
            proc.nparams = 2
        self.nslots = nslots
        self.block(body)
        self.emit(lambda st, fr: st.return_from(fr), getattr(body, "span", None))
        proc.code = self.code
        proc.spans = self.spans
        proc.nslots = self.nslots

    def hidden_slot(self) -> int:
        s = self.nslots
        self.nslots += 1
        return s

    def emit(self, ins, span) -> int:
        self.code.append(ins)
        self.spans.append(span)
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)

    def patch_jump(self, at: int, target: Optional[int] = None):
        """Replace the placeholder at `at` with a jump to target (default: here)."""
        t = self.here() if target is None else target

        def jump(st, fr, t=t):
            fr[1] = t
        self.code[at] = jump

    def jump_placeholder(self, span) -> int:
        return self.emit(None, span)

    def compile_playable(self, playable):
        who, cond = playable
        f = self.expr(cond)
        size = max(2, self.m.nslots.get(id(playable), 2))

        def check(st, card, seat, f=f, size=size):
            L = [None] * size
            L[0] = card
            L[1] = seat
            return f(st, L)
        return check

    # ------------------------------------------------------------------ statements
    def block(self, block: ast.Block):
        for s in block.stmts:
            self.stmt(s)

    def stmt(self, s):
        method = getattr(self, "s_" + type(s).__name__)
        method(s)

    def s_Let(self, s: ast.Let):
        slot = self.m.slots[id(s)]
        f = self.expr(s.value)

        def let(st, fr):
            fr[2][slot] = f(st, fr[2])
        self.emit(let, s.span)

    def s_Set(self, s: ast.Set):
        kind, payload = self.m.resolved[id(s)]
        f = self.expr(s.value)
        op = s.op
        span = s.span
        if kind == "local":
            slot = payload
            if op == "=":
                def set_local(st, fr):
                    fr[2][slot] = f(st, fr[2])
            else:
                sign = 1 if op == "+=" else -1

                def set_local(st, fr):
                    L = fr[2]
                    v = L[slot] + sign * f(st, L)
                    if not -MAX_INT <= v <= MAX_INT:
                        raise RuntimeRulesError("R030", f"a number grew past {MAX_INT}", span)
                    L[slot] = v
            self.emit(set_local, span)
            return
        layout = self.p.vars[payload]
        idx = self.instance(layout, [self.expr(a) for a in s.index], span)
        if op == "=":
            def set_var(st, fr):
                L = fr[2]
                st.vars[idx(st, L)] = f(st, L)
        else:
            sign = 1 if op == "+=" else -1

            def set_var(st, fr):
                L = fr[2]
                i = idx(st, L)
                v = st.vars[i] + sign * f(st, L)
                if not -MAX_INT <= v <= MAX_INT:
                    raise RuntimeRulesError("R030", f"a number grew past {MAX_INT}", span)
                st.vars[i] = v
        self.emit(set_var, span)

    def cards_of(self, e) -> Callable:
        """A closure giving a fresh list of card ids for a card, a list or a zone."""
        t = self.m.types.get(id(e), "any")
        f = self.expr(e)
        if t == "card":
            def one(st, L):
                c = f(st, L)
                return [] if c is None else [c]
            return one
        if t == "zone":
            return lambda st, L: list(st.zones[f(st, L)])
        return lambda st, L: list(f(st, L))

    def s_Move(self, s: ast.Move):
        what = self.cards_of(s.what)
        to = self.expr(s.to)
        bottom = s.bottom
        if s.words is not None:
            self.move_with_words(s, what, to)
            return

        b, span = self.b, s.span

        def move(st, fr):
            L = fr[2]
            cards = what(st, L)
            b.moves -= moves_cost(st, cards)
            if b.moves < 0:
                b.move(0, span)
            st.move_cards(cards, to(st, L), bottom)
        self.emit(move, s.span)

    def move_with_words(self, s: ast.Move, what, to):
        """`move ... as "{p} plays {c}"`: the move's log entry carries the words, once as
        everyone may read them and once with the moved cards masked ("a card"), for a seat
        that sees neither place."""
        full = self.text(s.words)
        masked = self.text(mask_cards(s.words, self.m.types))
        bottom = s.bottom

        def move(st, fr):
            L = fr[2]
            cards = what(st, L)
            n = len(cards)
            words = (full(st, L), masked(st, L).replace(MASK, "a card" if n == 1 else
                                                        f"{n} cards"))
            st.move_cards(cards, to(st, L), bottom, words=words)
        self.emit(move, s.span)

    def s_Shuffle(self, s: ast.Shuffle):
        z = self.expr(s.zone)
        b, span = self.b, s.span

        def shuffle(st, fr):
            zi = z(st, fr[2])
            b.move(len(st.zones[zi]), span)
            st.shuffle(zi)
        self.emit(shuffle, s.span)

    def s_Deal(self, s: ast.Deal):
        count = self.expr(s.count) if s.count is not None else None
        source = self.expr(s.source)
        family = self.p.zones[s.family].base
        start = self.expr(s.start) if s.start is not None else None
        b, span = self.b, s.span

        def deal(st, fr):
            L = fr[2]
            n = count(st, L) if count is not None else None
            first = start(st, L) if start is not None else 0
            b.move(len(st.zones[source(st, L)]), span)
            st.deal(source(st, L), family, n, first)
        self.emit(deal, s.span)

    def s_Reveal(self, s: ast.Reveal):
        if self.m.types.get(id(s.what)) not in ("card", "zone", "list of card", "any"):
            return self.reveal_value(s)
        what = self.cards_of(s.what)
        if s.to is None:
            self.emit(lambda st, fr: st.reveal(what(st, fr[2])), s.span)
            return
        to = self.expr(s.to)

        def reveal_to(st, fr):
            seats = to(st, fr[2])
            seats = [seats] if isinstance(seats, int) else [q for q in seats if q is not None]
            st.reveal(what(st, fr[2]), seats)
        self.emit(reveal_to, s.span)

    def reveal_value(self, s: ast.Reveal):
        """`reveal v[i] [to P]`: a variable's value shown in the log, named by its instance."""
        kind, name = self.m.resolved[id(s.what)]
        layout = self.p.vars[name]
        args = [self.expr(a) for a in s.what.args] if isinstance(s.what, ast.Index) else []
        idx = self.instance(layout, args, s.span)
        t = layout.type
        names, label = self.p.var_names, self.p.labeller
        to = self.expr(s.to) if s.to is not None else None

        def reveal(st, fr):
            L = fr[2]
            i = idx(st, L)
            seats = None
            if to is not None:
                seats = to(st, L)
                seats = (seats,) if isinstance(seats, int) else \
                    tuple(sorted({q for q in seats if q is not None}))
            st.events.append(("reveal_value", names[i], label(t, st.vars[i]), seats))
        self.emit(reveal, s.span)

    def s_Log(self, s: ast.Log):
        text = self.text(s.text)
        self.emit(lambda st, fr: st.events.append(("text", text(st, fr[2]))), s.span)

    def s_If(self, s: ast.If):
        ends = []
        for cond, block in s.branches:
            c = self.expr(cond)
            test_at = self.jump_placeholder(cond.span)
            self.block(block)
            ends.append(self.jump_placeholder(block.span))
            target = self.here()

            def test(st, fr, c=c, target=target):
                if not c(st, fr[2]):
                    fr[1] = target
            self.code[test_at] = test
        if s.else_ is not None:
            self.block(s.else_)
        for at in ends:
            self.patch_jump(at)

    def loop_begin(self):
        self.loops.append([])

    def loop_end(self, continue_target: int):
        for at in self.loops.pop():
            self.patch_jump(at)

    def s_Repeat(self, s: ast.Repeat):
        start = self.here()
        self.loop_begin()
        self.block(s.body)
        c = self.expr(s.until)

        def until(st, fr):
            if not c(st, fr[2]):
                fr[1] = start
        self.emit(until, s.until.span)
        self.loop_end(start)

    def s_While(self, s: ast.While):
        start = self.here()
        c = self.expr(s.cond)
        test_at = self.jump_placeholder(s.cond.span)
        self.loop_begin()
        self.block(s.body)
        self.emit(self.make_jump(start), s.span)
        end = self.here()

        def test(st, fr):
            if not c(st, fr[2]):
                fr[1] = end
        self.code[test_at] = test
        self.loop_end(start)

    @staticmethod
    def make_jump(target: int):
        def jump(st, fr):
            fr[1] = target
        return jump

    def s_For(self, s: ast.For):
        items = self.cards_of(s.source) if self.m.types.get(id(s.source)) == "zone" \
            else self.expr(s.source)
        self.each(s, items, lambda: self.block(s.body))

    def each(self, s, items: Callable, body: Callable[[], None]) -> None:
        """A loop over a list taken when the loop starts: bind each element that meets
        `s.where` to `s`'s slot and run `body`; `break` inside leaves it."""
        slot = self.m.slots[id(s)]
        where = self.expr(s.where) if s.where is not None else None
        lst, idx = self.hidden_slot(), self.hidden_slot()

        def init(st, fr):
            L = fr[2]
            L[lst] = list(items(st, L))
            L[idx] = 0
        self.emit(init, s.span)
        head = self.jump_placeholder(s.span)
        self.loop_begin()
        body()
        self.emit(self.make_jump(head), s.span)
        end = self.here()

        def step(st, fr):
            L = fr[2]
            seq = L[lst]
            i = L[idx]
            while i < len(seq):
                L[slot] = seq[i]
                i += 1
                if where is None or where(st, L):
                    L[idx] = i
                    return
            L[idx] = i
            fr[1] = end
        self.code[head] = step
        self.loop_end(head)

    def s_Turns(self, s: ast.Turns):
        slot = self.m.slots[id(s)]
        start = self.expr(s.start)
        skip = self.expr(s.skip) if s.skip is not None else None
        until = self.expr(s.until) if s.until is not None else None
        cur = self.hidden_slot()
        n = self.n

        def init(st, fr):
            L = fr[2]
            first = start(st, L)
            if first is None:
                raise RuntimeRulesError("R011", "turns start from none", s.span)
            L[cur] = first
        self.emit(init, s.span)
        head = self.jump_placeholder(s.span)
        self.loop_begin()
        self.block(s.body)
        self.emit(self.make_jump(head), s.span)
        end = self.here()

        def step(st, fr):
            L = fr[2]
            if until is not None and until(st, L):
                fr[1] = end
                return
            c = L[cur]
            for k in range(n):
                seat = (c + k) % n
                L[slot] = seat
                if skip is None or not skip(st, L):
                    L[cur] = (seat + 1) % n
                    return
            fr[1] = end
        self.code[head] = step
        self.loop_end(head)

    def s_Break(self, s: ast.Break):
        self.loops[-1].append(self.jump_placeholder(s.span))

    def s_Return(self, s: ast.Return):
        self.emit(lambda st, fr: st.return_from(fr), s.span)

    def s_CallStmt(self, s: ast.CallStmt):
        pid = self.proc_ids[s.name]
        args = [self.expr(a) for a in s.args]

        def call(st, fr):
            L = fr[2]
            st.call(pid, [a(st, L) for a in args], False)
        self.emit(call, s.span)

    def s_Win(self, s: ast.Win):
        f = self.expr(s.who)
        t = self.m.types.get(id(s.who), "player")

        def win(st, fr):
            v = f(st, fr[2])
            if v is None:
                winners = []
            elif t == "player":
                winners = [v]
            else:
                winners = list(v)
            st.finish(winners)
        self.emit(win, s.span)

    def s_EndGame(self, s: ast.EndGame):
        self.emit(lambda st, fr: st.finish([]), s.span)

    def s_Cancel(self, s: ast.Cancel):
        def cancel(st, fr):
            st.cancelled = True
            st.return_from(fr)
        self.emit(cancel, s.span)

    def s_Swap(self, s: ast.Swap):
        a, b = self.expr(s.a), self.expr(s.b)
        self.emit(lambda st, fr: st.swap(a(st, fr[2]), b(st, fr[2])), s.span)

    def s_Play(self, s: ast.Play):
        card, by, to = self.expr(s.card), self.expr(s.by), self.expr(s.to)
        cs, ps, cancelled = self.hidden_slot(), self.hidden_slot(), self.hidden_slot()
        span = s.span

        def begin(st, fr):
            L = fr[2]
            c, p = card(st, L), by(st, L)
            if c is None or p is None:
                raise RuntimeRulesError("R012", "play needs a card and a player, got none", span)
            L[cs], L[ps], L[cancelled] = c, p, False
            st.events.append(("play", p, c))
            st.move_cards([c], to(st, L), False, log=False)
        self.emit(begin, span)
        defers = self.responds_in_effect()
        kind_of = self.p.card_kind
        for rid in self.response_ids:
            def respond(st, fr, rid=rid):
                L = fr[2]
                if not L[cancelled] and not defers[kind_of[L[cs]]]:
                    st.call(rid, [L[cs], L[ps]], False)
            self.emit(respond, span)

            def after(st, fr):
                if st.cancelled:
                    fr[2][cancelled] = True
                    st.cancelled = False
                    st.events.append(("cancelled", fr[2][cs]))
            self.emit(after, span)
        on_play = self.p.on_play
        kind_of = self.p.card_kind

        def effect(st, fr):
            L = fr[2]
            if L[cancelled]:
                return
            pid = on_play[kind_of[L[cs]]]
            if pid is not None:
                st.call(pid, [L[cs], L[ps]], True)
        self.emit(effect, span)

    def responds_in_effect(self) -> list:
        """Per kind id: does its `on play` hold a `respond`? Then the responses run there,
        not before the effect."""
        found = getattr(self, "_responds_in_effect", None)
        if found is None:
            by_name = {k: _holds_respond(self.m.kinds[k].decl.on_play) for k in self.kinds}
            found = self._responds_in_effect = [
                next((by_name[a] for a in self.m.kinds[k].ancestors
                      if self.m.kinds[a].decl.on_play is not None), False)
                for k in self.kinds]
        return found

    def s_Respond(self, s: ast.Respond):
        # the effect's frame holds the card and its player in its first two slots
        for rid in self.response_ids:
            def respond(st, fr, rid=rid):
                st.call(rid, [fr[2][0], fr[2][1]], False)
            self.emit(respond, s.span)

            def after(st, fr):
                if st.cancelled:
                    st.cancelled = False
                    st.events.append(("cancelled", fr[2][0]))
                    st.return_from(fr)  # a cancelled card's effect stops here
            self.emit(after, s.span)

    def s_Ask(self, s: ast.Ask):
        who = self.expr(s.who)
        self.ask(s, who, s.choices, optional=False)

    def s_AskEach(self, s: ast.AskEach):
        # for q in source where cond: ask q, optionally; a break inside ends the round
        slot = self.m.slots[id(s)]
        self.each(s, self.expr(s.source),
                  lambda: self.ask(s, lambda st, L: L[slot], s.choices, optional=True,
                                   openly=s.openly))

    def s_AskTogether(self, s: ast.AskTogether):
        compile_ask_together(self, s)

    def tuple_alt(self, ch: ast.TupleChoice, body_pc: int) -> tuple:
        """The decision's entry for `(a, b) in A, B`: one slot, source and type per name."""
        srcs, ets = [], []
        for src in ch.sources:
            f = self.expr(src)
            if self.m.types.get(id(src)) == "zone":
                f = (lambda zf: lambda st, L: st.zones[zf(st, L)])(f)
            srcs.append(f)
            ets.append(elem_of(self.m.types.get(id(src), "any")) or "any")
        where = self.expr(ch.where) if ch.where is not None else None
        text = self.text(ch.label) if ch.label is not None else None
        return ("tuple", text, where, body_pc, self.m.slots[id(ch)], srcs, ets)

    def ask(self, s, who, choices, optional: bool, openly: bool = False):
        """A decision point: compute the options, suspend, resume in the chosen body."""
        alts = []
        at = self.jump_placeholder(s.span)
        bodies_end = []
        for ch in choices:
            body_pc = self.here()
            if isinstance(ch, ast.NamedChoice):
                label = self.text(ch.label)
                cond = self.expr(ch.cond) if ch.cond is not None else None
                alts.append(("named", label, cond, body_pc, None, None, None))
            elif isinstance(ch, ast.TupleChoice):
                alts.append(self.tuple_alt(ch, body_pc))
            else:
                slot = self.m.slots[id(ch)]
                et = elem_of(self.m.types.get(id(ch.source), "any")) or "any"
                src = self.expr(ch.source)
                if self.m.types.get(id(ch.source)) == "zone":
                    zf = src
                    src = (lambda zf: lambda st, L: st.zones[zf(st, L)])(zf)
                ctx = self.open_loop(slot, (ch.where, ch.label))
                where = self.expr(ch.where) if ch.where is not None else None
                text = self.text(ch.label) if ch.label is not None else None
                self.close_loop(ctx)
                src = ctx.reset_on(src)
                alts.append(("binder", text, where, body_pc, slot, src, et))
            self.block(ch.body)
            bodies_end.append(self.jump_placeholder(ch.span))
        decline_pc = self.here()  # declining an optional ask continues after the bodies
        for j in bodies_end:
            self.patch_jump(j)
        self.code[at] = Ask(who, alts, optional, decline_pc, self.p.labeller, s.span, openly)
        if getattr(s, "question", None) is not None:
            self.code[at].question = self.text(s.question)

    # ------------------------------------------------------------------ expressions
    def text(self, text: ast.Text) -> Callable:
        parts = []
        label = self.p.labeller
        for part in text.parts:
            if isinstance(part, str):
                parts.append((None, part))
            else:
                parts.append((self.m.types.get(id(part), "any"), self.expr(part)))
        if all(t is None for t, _ in parts):
            s = "".join(x for _, x in parts)
            return lambda st, L: s

        b, span = self.b, text.span

        def render(st, L):
            s = "".join(x if t is None else label(t, x(st, L)) for t, x in parts)
            return s if len(s) <= b.text_length else b.check_text(s, span)
        return render

    def expr(self, e) -> Callable:
        t = type(e)
        if self.loop_stack and (t is ast.Call or t is ast.Comprehension or t is ast.Name):
            f = self.hoisted(e)
            if f is not None:
                return f
        if t is ast.Comprehension or (t is ast.Call and e.args and
                                      type(e.args[0]) is ast.Comprehension and
                                      self.m.resolved.get(id(e), ("",))[0] == "aggregate"):
            c = e if t is ast.Comprehension else e.args[0]
            ctx = self.open_loop(self.m.slots[id(c)], (c.where, c.value))
            try:
                f = getattr(self, "e_" + t.__name__)(e)
            finally:
                self.close_loop(ctx)
            return ctx.run_with_memo(f)
        return getattr(self, "e_" + t.__name__)(e)

    # ------------------------------------------------------------------ loop invariants
    def open_loop(self, slot, parts) -> LoopContext:
        """Start compiling the condition/value of a loop over candidates bound to `slot`."""
        bound = {slot}
        for part in parts:
            bound |= self.scanner.scan(part)[1]
        ctx = LoopContext(frozenset(bound))
        self.loop_stack.append(ctx)
        return ctx

    def close_loop(self, ctx: LoopContext) -> None:
        assert self.loop_stack.pop() is ctx

    def hoisted(self, e) -> Optional[Callable]:
        """A pure sub-expression that no enclosing loop changes: computed once per run of
        the outermost such loop (see hoist.py)."""
        if type(e) is ast.Name and self.m.resolved.get(id(e), ("",))[0] != "define":
            return None
        reads, _, pure = self.scanner.scan(e)
        if not pure:
            return None
        for ctx in self.loop_stack:
            if not reads & ctx.bound:
                saved, self.loop_stack = self.loop_stack, []
                try:
                    f = self.expr(e)
                finally:
                    self.loop_stack = saved
                return ctx.memoised(f)
        return None

    def e_Int(self, e):
        v = e.value
        if not -MAX_INT <= v <= MAX_INT:
            raise RuntimeRulesError("R030", f"the number {v} is past {MAX_INT}", e.span,
                                    ["numbers stay within -2^53..2^53"])
        return lambda st, L: v

    def e_Bool(self, e):
        v = e.value
        return lambda st, L: v

    def e_NoneLit(self, e):
        return lambda st, L: None

    def e_Text(self, e):
        return self.text(e)

    def e_Name(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind == "local":
            slot = payload
            return lambda st, L: L[slot]
        if kind == "var":
            i = self.p.vars[payload].base
            return lambda st, L: st.vars[i]
        if kind == "zone":
            i = self.p.zones[payload].base
            return lambda st, L: i
        if kind == "option":
            v = self.options[payload]
            return lambda st, L: v
        if kind == "define":
            return self.define_call(payload, [], e.span)
        if kind == "builtin":
            if payload == "players":
                seats = list(range(self.n))
                return lambda st, L: seats
            if payload == "player_count":
                n = self.n
                return lambda st, L: n
            if payload == "cards":
                return lambda st, L: list(range(len(st.loc)))
        if kind == "enum_all":
            values = list(range(len(self.m.enums[payload].values)))
            return lambda st, L: values
        if kind == "enum_value":
            v = payload[1]
            return lambda st, L: v
        if kind == "self_field":  # inside a kind's label; compiled directly by card_label
            return lambda st, L: None
        raise AssertionError(kind)

    def e_LetIn(self, e):
        slot = self.m.slots[id(e)]
        value, body = self.expr(e.value), self.expr(e.body)

        def let_in(st, L):
            L[slot] = value(st, L)
            return body(st, L)
        return let_in

    def e_Prefix(self, e):
        return prefix_closure(self, e)

    def e_ListLit(self, e):
        items = [self.expr(i) for i in e.items]
        return lambda st, L: [f(st, L) for f in items]

    def source_of(self, e) -> Callable:
        """A closure giving the elements of a collection (a zone's live list: do not mutate)."""
        f = self.expr(e)
        if self.m.types.get(id(e)) == "zone":
            return lambda st, L: st.zones[f(st, L)]
        return f

    def counted(self, src: Callable, span) -> Callable:
        """A source whose length is spent from the work budget each time it is visited."""
        b = self.b

        def visit(st, L):
            s = src(st, L)
            b.work -= len(s)
            if b.work < 0:
                b.spend(0, span)
            return s
        return visit

    def e_Comprehension(self, e):
        slot = self.m.slots[id(e)]
        src = self.source_of(e.source)
        where = self.expr(e.where) if e.where is not None else None
        value = self.expr(e.value) if e.value is not None else None
        b, span = self.b, e.span
        if value is None and where is None:
            return self.counted(lambda st, L: list(src(st, L)), span)

        def comp(st, L):
            out = []
            s = src(st, L)
            b.work -= len(s)
            if b.work < 0:
                b.spend(0, span)
            for x in s:
                L[slot] = x
                if where is None or where(st, L):
                    out.append(x if value is None else value(st, L))
            return out
        return comp

    def e_Attr(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind == "enum_value":
            v = payload[1]
            return lambda st, L: v
        obj = self.expr(e.obj)
        span = e.span
        if kind == "card_field":
            values = self.p.fields[payload]
            name = payload
            leaf = self.simple(e.obj)
            if leaf is not None and leaf[0] == "local":
                slot = leaf[1]

                def local_field(st, L):
                    c = L[slot]
                    if c is None:
                        raise RuntimeRulesError("R013", f"asked for .{name} of none", span,
                                                ["check that a card was found before using "
                                                 "it"])
                    return values[c]
                return local_field

            def field(st, L):
                c = obj(st, L)
                if c is None:
                    raise RuntimeRulesError("R013", f"asked for .{name} of none", span,
                                            ["check that a card was found before using it"])
                return values[c]
            return field
        values = self.enum_fields[payload]

        def efield(st, L):
            v = obj(st, L)
            if v is None:
                raise RuntimeRulesError("R013", f"asked for .{payload[1]} of none", span)
            return values[v]
        return efield

    def e_Index(self, e):
        kind, payload = self.m.resolved[id(e)]
        args = [self.expr(a) for a in e.args]
        if kind == "zone":
            return self.instance(self.p.zones[payload], args, e.span)
        if kind == "var":
            idx = self.instance(self.p.vars[payload], args, e.span)
            return lambda st, L: st.vars[idx(st, L)]
        src = self.source_of(e.obj)
        i = args[0]
        span = e.span

        def item(st, L):
            seq = src(st, L)
            k = i(st, L)
            if not -len(seq) <= k < len(seq):
                raise RuntimeRulesError("R014", f"index {k} is outside a list of {len(seq)}", span)
            return seq[k]
        return item

    def equality(self, e) -> Optional[Callable]:
        """`x == 3`, `c.colour == led.colour`...: no closure call for a constant or a local."""
        left, right = self.simple(e.left), self.simple(e.right)
        if left is not None and right is None:
            left, right = right, left
            e = ast.Binary(e.span, e.op, e.right, e.left)
        if right is None:
            return None
        a = self.expr(e.left)
        kind, v = right
        if e.op == "==":
            if kind == "const":
                return lambda st, L: a(st, L) == v
            return lambda st, L: a(st, L) == L[v]
        if kind == "const":
            return lambda st, L: a(st, L) != v
        return lambda st, L: a(st, L) != L[v]

    def e_Unary(self, e):
        f = self.expr(e.operand)
        if e.op == "not":
            return lambda st, L: not f(st, L)
        return lambda st, L: -f(st, L)

    def simple(self, e):
        """("const", value) or ("local", slot) for the leaves the hot paths inline."""
        t = type(e)
        if t is ast.Int and -MAX_INT <= e.value <= MAX_INT or t is ast.Bool:
            return ("const", e.value)
        if t is ast.NoneLit:
            return ("const", None)
        if t is ast.Name or t is ast.Attr:
            r = self.m.resolved.get(id(e))
            if r is not None:
                if r[0] == "local" and t is ast.Name:
                    return r
                if r[0] == "enum_value":
                    return ("const", r[1][1])
                if r[0] == "option" and t is ast.Name:
                    return ("const", self.options[r[1]])
        return None

    def e_Binary(self, e):
        if e.op in ("==", "!="):
            f = self.equality(e)
            if f is not None:
                return f
        a, b = self.expr(e.left), self.expr(e.right)
        op = e.op
        if op == "and":
            return lambda st, L: a(st, L) and b(st, L)
        if op == "or":
            return lambda st, L: a(st, L) or b(st, L)
        if op == "==":
            return lambda st, L: a(st, L) == b(st, L)
        if op == "!=":
            return lambda st, L: a(st, L) != b(st, L)
        span = e.span
        lt = self.m.types.get(id(e.left), "int")
        rt = self.m.types.get(id(e.right), "int")
        if op == "+" and (lt == "zone" or lt.startswith("list") or rt == "zone" or
                          rt.startswith("list")):
            sa = self.source_of(e.left)
            sb = self.source_of(e.right)
            b = self.b
            return lambda st, L: b.check_list(list(sa(st, L)) + list(sb(st, L)), span)
        import operator
        fn = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge,
              "+": operator.add, "-": operator.sub, "*": operator.mul}.get(op)
        if fn is not None and op in ("+", "-", "*"):
            def checked(st, L):
                x, y = a(st, L), b(st, L)
                if x is None or y is None:
                    raise RuntimeRulesError("R013", f"'{op}' was given none", span)
                v = fn(x, y)
                # repeated doubling must stop here, not grow until memory runs out
                if type(v) is int and not -MAX_INT <= v <= MAX_INT:
                    raise RuntimeRulesError("R030", f"a number grew past {MAX_INT}", span,
                                            ["numbers stay within -2^53..2^53"])
                return v
            return checked
        if fn is not None:
            def arith(st, L):
                x, y = a(st, L), b(st, L)
                if x is None or y is None:
                    raise RuntimeRulesError("R013", f"'{op}' was given none", span)
                return fn(x, y)
            return arith

        def div(st, L):
            x, y = a(st, L), b(st, L)
            if not y:
                raise RuntimeRulesError("R015", f"'{op}' by zero", span)
            return x // y if op == "/" else x % y
        return div

    def e_IsKind(self, e):
        f = self.expr(e.expr)
        members = self.p.members[e.kind]
        if e.negated:
            return lambda st, L: (lambda c: c is None or not members[c])(f(st, L))
        return lambda st, L: (lambda c: c is not None and members[c])(f(st, L))

    def e_IsIn(self, e):
        f = self.expr(e.expr)
        src = self.counted(self.source_of(e.collection), e.span)
        if e.negated:
            return lambda st, L: f(st, L) not in src(st, L)
        return lambda st, L: f(st, L) in src(st, L)

    def e_IfExpr(self, e):
        c, a, b = self.expr(e.cond), self.expr(e.then), self.expr(e.else_)
        return lambda st, L: a(st, L) if c(st, L) else b(st, L)

    def e_Range(self, e):
        a, b = self.expr(e.start), self.expr(e.stop)
        step = self.expr(e.step) if e.step is not None else (lambda st, L: 1)
        span, budget = e.span, self.b

        def rng(st, L):
            x, y, k = a(st, L), b(st, L), step(st, L)
            if k <= 0:
                raise RuntimeRulesError("R016", f"a range's step must be positive, not {k}", span)
            if (y - x) // k > MAX_RANGE:
                raise RuntimeRulesError("R016", f"the range {x}..{y} has more than {MAX_RANGE} "
                                        "values", span, ["use a larger step"])
            values = range(x, y + 1, k)
            budget.spend(len(values), span)
            return list(values)
        return rng

    def e_Call(self, e):
        kind, payload = self.m.resolved[id(e)]
        if kind == "define":
            return self.define_call(payload, [self.expr(a) for a in e.args], e.span)
        if kind == "aggregate":
            return self.aggregate(e)
        return self.builtin(e)

    def define_call(self, name: str, args: list, span=None) -> Callable:
        """A call of a definition. Each call spends one unit of work, counted inline (no
        extra call): a chain of definitions can call each other 3^40 times in one step."""
        d = self.m.defines[name]
        cache = getattr(self, "_define_bodies", None)
        if cache is None:
            cache = self._define_bodies = {}
        if name in cache and cache[name] is None:  # a call from inside its own body
            return recursive_call(cache, name, args, len(d.params), d.decl.span)
        if name not in cache:
            cache[name] = None  # placeholder while compiling: a call from the body recurses
            outer, self.loop_stack = self.loop_stack, []  # a body has its own locals
            body = self.expr(d.decl.body)
            mods = []
            size = max([self.m.nslots.get(id(d.decl), 0)] +
                       [self.m.nslots.get(id(mod), 0) for mod in d.modifiers] + [1])
            for mod in d.modifiers:
                mods.append((self.expr(mod.cond), self.expr(mod.value)))
            self.loop_stack = outer
            cache[name] = (body, mods, size)
        body, mods, size = cache[name]
        k = len(d.params)
        if len(args) <= 2 and self.scanner.pure_define(name) and \
                not getattr(self, "_plain_call", False):
            self._plain_call = True  # first the call as it is, for outside options
            try:
                plain = self.define_call(name, args, span)
            finally:
                self._plain_call = False
            return self.memo_define_call(name, args, plain, body, mods, size, k)
        b, span = self.b, span or d.decl.span
        if not mods:
            if not args:
                def call0(st, L):
                    b.work -= 1
                    if b.work < 0:
                        b.spend(0, span)
                    return body(st, [None] * size)
                return call0
            if len(args) == 1:
                a0 = args[0]

                def call1(st, L):
                    b.work -= 1
                    if b.work < 0:
                        b.spend(0, span)
                    env = [None] * size
                    env[0] = a0(st, L)
                    return body(st, env)
                return call1
            if len(args) == 2:
                a0, a1 = args

                def call2(st, L):
                    b.work -= 1
                    if b.work < 0:
                        b.spend(0, span)
                    env = [None] * size
                    env[0] = a0(st, L)
                    env[1] = a1(st, L)
                    return body(st, env)
                return call2

            def calln(st, L):
                b.work -= 1
                if b.work < 0:
                    b.spend(0, span)
                env = [None] * size
                for i, a in enumerate(args):
                    env[i] = a(st, L)
                return body(st, env)
            return calln

        def modified(st, L):
            b.work -= 1
            if b.work < 0:
                b.spend(0, span)
            env = [None] * size
            for i, a in enumerate(args):
                env[i] = a(st, L)
            v = body(st, env)
            for cond, value in mods:
                env[k] = v
                if cond(st, env):
                    v = value(st, env)
            return v
        return modified

    @staticmethod
    def memo_define_call(name: str, args: list, plain, body, mods, size: int,
                         k: int) -> Callable:
        """A pure definition called while a decision's options are computed (the state
        stands still then) is computed once per arguments: `st.memo` is a dict during
        `Ask.options`, else None."""
        def invoke(st, values):
            env = [None] * size
            env[:len(values)] = values
            v = body(st, env)
            for cond, value in mods:
                env[k] = v
                if cond(st, env):
                    v = value(st, env)
            return v

        if not args:
            def call0(st, L):
                m = st.memo
                if m is None:
                    return plain(st, L)
                v = m.get(name, MISSING)
                if v is MISSING:
                    v = m[name] = invoke(st, ())
                return v
            return call0
        if len(args) == 1:
            a0 = args[0]

            def memo1(st, L):
                m = st.memo
                if m is None:
                    return plain(st, L)
                x = a0(st, L)
                if type(x) is list:
                    return invoke(st, (x,))
                key = (name, x)
                v = m.get(key, MISSING)
                if v is MISSING:
                    v = m[key] = invoke(st, (x,))
                return v
            return memo1
        a0, a1 = args

        def memo2(st, L):
            m = st.memo
            if m is None:
                return plain(st, L)
            x = a0(st, L)
            y = a1(st, L)
            if type(x) is list or type(y) is list:
                return invoke(st, (x, y))
            key = (name, x, y)
            v = m.get(key, MISSING)
            if v is MISSING:
                v = m[key] = invoke(st, (x, y))
            return v
        return memo2

    def aggregate(self, e: ast.Call):
        name = e.name
        a = e.args[0]
        fast = var_filter_aggregate(self, name, a)
        if fast is not None:
            return fast
        if isinstance(a, ast.Comprehension):
            slot = self.m.slots[id(a)]
            src = self.source_of(a.source)  # its length is spent inline below
            where = self.expr(a.where) if a.where is not None else None
            value = self.expr(a.value) if a.value is not None else None
        else:
            slot, where, value = None, None, None
            src = self.source_of(a)  # counted where it is aggregated, below
        if name == "all" and where is not None and value is None:
            b, span = self.b, e.span
            # all(x in L where cond): every element satisfies the condition
            def all_(st, L):
                s = src(st, L)
                b.work -= len(s)
                if b.work < 0:
                    b.spend(0, span)
                for x in s:
                    L[slot] = x
                    if not where(st, L):
                        return False
                return True
            return all_
        if slot is None or (where is None and value is None):
            return self.plain_aggregate(name, self.counted(src, e.span))
        b, span = self.b, e.span

        def values(st, L):
            s = src(st, L)
            b.work -= len(s)
            if b.work < 0:
                b.spend(0, span)
            for x in s:
                L[slot] = x
                if where is None or where(st, L):
                    yield x if value is None else value(st, L)
        if name == "any":
            def any_(st, L):
                s = src(st, L)
                b.work -= len(s)
                if b.work < 0:
                    b.spend(0, span)
                for x in s:
                    L[slot] = x
                    if where is None or where(st, L):
                        return True if value is None else bool(value(st, L))
                return False
            if value is None:
                return any_
            return lambda st, L: any(values(st, L))
        if name == "count":
            def count(st, L):
                n = 0
                s = src(st, L)
                b.work -= len(s)
                if b.work < 0:
                    b.spend(0, span)
                for x in s:
                    L[slot] = x
                    if where(st, L):
                        n += 1
                return n
            return count
        if name == "first":
            def first(st, L):
                s = src(st, L)
                b.work -= len(s)
                if b.work < 0:
                    b.spend(0, span)
                for x in s:
                    L[slot] = x
                    if where is None or where(st, L):
                        return x if value is None else value(st, L)
                return None
            return first
        return self.plain_aggregate(name, lambda st, L: list(values(st, L)))

    @staticmethod
    def plain_aggregate(name: str, src: Callable) -> Callable:
        if name == "count":
            return lambda st, L: len(src(st, L))
        if name == "sum":
            return lambda st, L: sum(x for x in src(st, L) if x is not None)
        if name == "max":
            return lambda st, L: max(src(st, L), default=0)
        if name == "min":
            return lambda st, L: min(src(st, L), default=0)
        if name == "any":
            return lambda st, L: any(src(st, L))
        if name == "all":
            return lambda st, L: all(src(st, L))
        if name == "first":
            return lambda st, L: (lambda s: s[0] if s else None)(src(st, L))
        if name == "last":
            return lambda st, L: (lambda s: s[-1] if s else None)(src(st, L))
        raise AssertionError(name)

    def builtin(self, e: ast.Call):
        name = e.name
        n = self.n
        span = e.span
        args = [self.expr(a) for a in e.args]
        if name == "size":
            src = self.source_of(e.args[0])
            return lambda st, L: len(src(st, L))
        if name in ("next", "previous"):
            f = args[0]
            d = 1 if name == "next" else -1

            def step(st, L):
                p = f(st, L)
                if p is None:
                    raise RuntimeRulesError("R013", f"{name}(none)", span)
                return (p + d) % n
            return step
        if name == "others":
            f = args[0]
            return lambda st, L: [(f(st, L) + i) % n for i in range(1, n)]
        if name == "seat":
            f = args[0]

            def seat(st, L):
                k = f(st, L)
                if not 0 <= k < n:
                    raise RuntimeRulesError("R017", f"seat({k}) does not exist with {n} "
                                            "players", span)
                return k
            return seat
        if name in ("top", "bottom"):
            z = args[0]
            if len(args) == 1:
                if name == "top":
                    return lambda st, L: (lambda s: s[-1] if s else None)(st.zones[z(st, L)])
                return lambda st, L: (lambda s: s[0] if s else None)(st.zones[z(st, L)])
            k = args[1]
            if name == "top":
                return lambda st, L: (lambda s, j: s[len(s) - j:] if j > 0 else [])(
                    st.zones[z(st, L)], k(st, L))
            return lambda st, L: st.zones[z(st, L)][:max(0, k(st, L))]
        if name == "abs":
            f = args[0]
            return lambda st, L: abs(f(st, L))
        if name == "random":
            src = self.source_of(e.args[0])
            return lambda st, L: st.random_choice(src(st, L))
        if name in ("column_of", "row_of", "neighbour", "ray", "around", "distance",
                    "opposite"):
            board = self.m.types.get(id(e.args[0]))
            tables = self.p.grids.get(board) or next(iter(self.p.grids.values()), None)
            return grid_builtin(name, tables, args, span)
        if name == "sorted":  # numbers and enum values by value, cards in deck order
            src = self.source_of(e.args[0])
            return lambda st, L: sorted(src(st, L), key=lambda x: (x is not None, x))
        if name == "roll":
            count, sides = args

            def roll(st, L):
                k, d = count(st, L), sides(st, L)
                if k is None or d is None or not 0 <= k <= MAX_RANGE or d < 1:
                    raise RuntimeRulesError("R016", f"cannot roll {k} dice of {d} sides", span,
                                            [f"roll 0 to {MAX_RANGE} dice of at least 1 side"])
                return [st.next_random(d) + 1 for _ in range(k)]
            return roll
        if name == "playable":
            checks = self.p.playable
            kind_of = self.p.card_kind
            card, seat = args

            def playable(st, L):
                c = card(st, L)
                if c is None:
                    return False
                check = checks[kind_of[c]]
                return True if check is None else bool(check(st, c, seat(st, L)))
            return playable
        if name == "neighbours":
            board = self.m.types.get(id(e.args[0]))
            adj = self.p.adjacency[board]
            f = args[0]
            return lambda st, L: adj[f(st, L)]
        if name == "connected":
            board = self.m.types.get(id(e.args[0]))
            adj = self.p.adjacency[board]
            a, b = args
            return lambda st, L: b(st, L) in adj[a(st, L)]
        if name == "largest_group":
            board = self.m.types.get(id(e.args[0]), "list of ?")[8:]
            adj = self.p.adjacency[board]
            f = args[0]

            def largest(st, L):
                nodes = set(f(st, L))
                best = 0
                seen = set()
                for start in nodes:
                    if start in seen:
                        continue
                    size, todo = 0, [start]
                    seen.add(start)
                    while todo:
                        x = todo.pop()
                        size += 1
                        for y in adj[x]:
                            if y in nodes and y not in seen:
                                seen.add(y)
                                todo.append(y)
                    best = max(best, size)
                return best
            return largest
        raise AssertionError(name)


def _unique(label: str, seen: dict) -> str:
    """A label not yet taken: 'a1 (2)' may itself be another option's own label."""
    k = 2
    out = label
    while out in seen:
        out = f"{label} ({k})"
        k += 1
    return out


class Ask:
    """The decision instruction. `options(st, fr)` lists (label, alt, value); running it
    suspends the game unless it is optional and nobody has an option."""

    __slots__ = ("who", "alts", "optional", "decline_pc", "label", "span", "openly", "question")

    def __init__(self, who, alts, optional, decline_pc, labeller, span, openly=False):
        self.openly = openly  # asked even with no option: then `decline` is the only one
        self.who = who
        self.alts = alts
        self.optional = optional
        self.decline_pc = decline_pc
        self.label = labeller
        self.span = span
        self.question = None  # closure (st, L) -> the question, when the rules ask one

    def options(self, st, fr) -> list:
        st.memo = {}  # the state stands still: pure definitions are computed once per args
        try:
            return self._options(st, fr)
        finally:
            st.memo = None

    def _options(self, st, fr) -> list:
        L = fr[2]
        out = []
        seen = {}
        label = self.label
        for ai, (kind, text, cond, body_pc, slot, src, et) in enumerate(self.alts):
            if kind == "named":
                if cond is None or cond(st, L):
                    lab = text(st, L)
                    if lab in seen:
                        lab = _unique(f"{lab} ({ai + 1})", seen)
                    seen[lab] = -1  # not an alternative's number: True == 1 in Python
                    out.append((lab, ai, None))
                continue
            if kind == "tuple":
                tuple_options(st, L, ai, text, cond, slot, src, et, label, seen, out)
                continue
            mine = []
            for x in list(src(st, L)):
                L[slot] = x
                if cond is not None and not cond(st, L):
                    continue
                mine.append((label(et, x) if text is None else text(st, L), x))
            if et == "card" and text is None and len(mine) > 1:
                mine = by_position(st, mine, self.who(st, L))
            for lab, x in mine:
                prev = seen.get(lab)
                if prev is not None:
                    if prev == ai:
                        continue  # two copies of the same card are one action
                    lab = _unique(f"{lab} ({ai + 1})", seen)
                seen[lab] = ai
                out.append((lab, ai, x))
        if self.optional and (out or self.openly):
            out.append(("decline", -1, None))
        return out

    def __call__(self, st, fr):
        seat = self.who(st, fr[2])
        if seat is None:
            raise RuntimeRulesError("R018", "a decision for none: nobody to ask", self.span)
        opts = self.options(st, fr)
        if not opts:
            if self.optional:
                fr[1] = self.decline_pc
                return None
            raise RuntimeRulesError("R019", f"{seat_label(seat)} must decide but has no legal "
                                    "option", self.span,
                                    ["add an option that is always open, such as \"pass\", or "
                                     "check before asking"])
        st.pending = (seat, opts)
        return SUSPEND

    def choose(self, st, fr, option):
        """Bind the chosen option and move the frame to its body."""
        label, ai, value = option
        if ai < 0:
            fr[1] = self.decline_pc
            return
        kind, text, cond, body_pc, slot, src, et = self.alts[ai]
        if kind == "tuple":
            bind_tuple(fr[2], slot, value)
        elif slot is not None:
            fr[2][slot] = value
        fr[1] = body_pc


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def by_position(st, options: list, seat) -> list:
    """Alike cards (one label) are one option where choosing either makes no difference;
    where they lie in ordered zones, their position matters, so each is an option of its
    own, labelled by its place: "red 3 (bottom)", "red 3 (2nd)", "red 3 (top)" (with the
    zone's name when the copies lie in several zones). Only where the chooser sees the
    copies: a place in a pile it cannot see would tell it what lies there."""
    if len({lab for lab, _ in options}) == len(options):
        return options  # no alike cards: the usual case, left as it is
    copies = {}
    for lab, c in options:
        copies.setdefault(lab, []).append(c)
    unordered, zone_names = st.prog.zone_unordered, st.prog.zone_names
    out = []
    for lab, c in options:
        same = copies[lab]
        zones = {st.loc[d] for d in same}
        if len(same) == 1 or any(unordered[z] or not st.can_see(z, seat) for z in zones):
            out.append((lab, c))
            continue
        z = st.loc[c]
        pile = st.zones[z]
        i = pile.index(c)
        place = "bottom" if i == 0 else "top" if i == len(pile) - 1 else ordinal(i + 1)
        out.append((f"{lab} ({zone_names[z]}, {place})" if len(zones) > 1 else
                    f"{lab} ({place})", c))
    return out


def _holds_respond(node) -> bool:
    """Does a statement tree (an `on play`, a block, a choice ...) hold a `respond`?"""
    if isinstance(node, ast.Respond):
        return True
    if isinstance(node, (list, tuple)):
        return any(_holds_respond(x) for x in node)
    if isinstance(node, (ast.Block, ast.If, ast.Ask, ast.AskEach, ast.NamedChoice,
                         ast.BinderChoice, ast.Repeat, ast.While, ast.For, ast.Turns,
                         ast.AskTogether, ast.TupleChoice)):
        return any(_holds_respond(getattr(node, f.name)) for f in attrs.fields(type(node))
                   if f.name != "span")
    return False


MASK = "\x00card\x00"  # stands for the moved cards in words a seat may not read


def mask_cards(text: ast.Text, types: dict) -> ast.Text:
    """The words with every hole that tells a card (a card, a list of cards, a card's
    attribute) replaced by MASK; holes naming players, numbers of the game stay."""
    def tells_card(e) -> bool:
        t = types.get(id(e), "any")
        if t in ("card", "list of card", "zone", "any"):
            return True
        return isinstance(e, ast.Attr) and tells_card(e.obj)
    return attrs.evolve(text, parts=tuple(
        MASK if not isinstance(p, str) and tells_card(p) else p for p in text.parts))


def compile_program(model: Model, nplayers: int, options: dict) -> Program:
    return Compiler(model, nplayers, options).build()
