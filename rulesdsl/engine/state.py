"""The running game: a State of plain data, the loop that runs the rules to the next
decision, the random numbers, and what each seat may see.

State holds zones (lists of card ids), where each card is, variables, the RNG, the frame
stack (the position in the rules), the pending decision, the history and the log. Nothing
in it is a Python object that JSON cannot hold, so `to_json` / `restore` round-trip at any
decision and `clone` is a handful of list copies.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
from typing import Optional

from rulesdsl.lang.limits import bounded_int, brief
from rulesdsl.engine.compile import Ask, Program, seat_label
from rulesdsl.engine.journal import Journal
from rulesdsl.lang.errors import IllegalAction, RulesError, RuntimeRulesError

FORMAT = "rulesdsl-state"
FORMAT_VERSION = 1
MASK64 = (1 << 64) - 1
REPLAY_SPAN = 256  # a failed apply replays at most this many actions (see _rewind)


class Action:
    """One legal choice of the current decision; `label` is unique within the decision."""

    __slots__ = ("label", "index")

    def __init__(self, label: str, index: int):
        self.label = label
        self.index = index

    def __repr__(self) -> str:
        return f"Action({self.label!r})"

    def __str__(self) -> str:
        return self.label

    def __eq__(self, other) -> bool:
        return isinstance(other, Action) and other.label == self.label

    def __hash__(self) -> int:
        return hash(self.label)


def splitmix64(x: int) -> tuple[int, int]:
    """One step of SplitMix64: (new state, 64 random bits). Small state, easy to save."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


class State:
    """One game in progress. Mutate it only through `apply`."""

    __slots__ = ("game", "prog", "zones", "loc", "vars", "rng", "frames", "over", "winners",
                 "_history", "_events", "cancelled", "effect_depth", "pending", "seed",
                 "_actions", "_origin", "memo", "scenario")

    def __init__(self, game, prog: Program):
        self.game = game
        self.prog = prog
        self.zones: list = []
        self.loc: list = []
        self.vars: list = []
        self.rng = 0
        self.frames: list = []
        self.over = False
        self.winners: list = []
        self._history = Journal()  # labels chosen; shared with clones (see journal.py)
        self._events = Journal()  # raw log entries; `log` renders them
        self.cancelled = False
        self.effect_depth = 0
        self.pending = None  # (seat, options) while waiting for a decision
        self.seed = 0
        self._actions = None  # the Action objects of `pending`, made on first request
        self._origin = None  # a snapshot to replay from after an interrupted apply
        self.memo = None  # while a decision's options are computed: pure calls' results
        self.scenario = None  # the scenario it started from (saved: a restore replays it)

    # ------------------------------------------------------------------ history and log
    @property
    def history(self) -> list:
        """The labels applied so far, oldest first (read it; do not change it)."""
        return self._history.tolist()

    @history.setter
    def history(self, items) -> None:
        self._history = Journal(items)

    @property
    def events(self) -> Journal:
        """Raw log entries (append-only); `log` renders them."""
        return self._events

    @events.setter
    def events(self, items) -> None:
        self._events = Journal(items)

    # ------------------------------------------------------------------ public API
    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def to_move(self) -> Optional[int]:
        if self.over:
            return None
        return self._pending()[0]

    @property
    def players(self) -> int:
        return self.prog.nplayers

    def legal_actions(self) -> list:
        if self.over:
            return []
        pending = self._pending()
        cached = self._actions
        if cached is None or cached[0] is not pending:
            cached = self._actions = (pending, [Action(o[0], i)
                                                for i, o in enumerate(pending[1])])
        return cached[1][:]

    def apply(self, action) -> None:
        """Apply an Action or a label. Illegal -> IllegalAction, and the state is unchanged."""
        if self.over:
            raise IllegalAction("the game is over; no more actions", ["start a new game"])
        self.memo = None  # left over only if Ctrl-C hit the very end of an options run
        seat, opts = self._pending()
        label = action.label if isinstance(action, Action) else action
        if not isinstance(label, str):
            raise IllegalAction(f"an action is a label (text), not {type(label).__name__}")
        chosen = None
        if isinstance(action, Action) and 0 <= action.index < len(opts) and \
                opts[action.index][0] == label:
            chosen = opts[action.index]
        else:
            for o in opts:
                if o[0] == label:
                    chosen = o
                    break
        if chosen is None:
            shown = ", ".join(o[0] for o in opts[:12]) + (", ..." if len(opts) > 12 else "")
            raise IllegalAction(f"'{label[:80]}' is not a legal action for {seat_label(seat)} "
                                f"now", [f"legal actions: {shown}"])
        before = len(self._history)
        if self._origin is None or before - len(self._origin[7]) >= REPLAY_SPAN:
            self._origin = self._snapshot()  # bounds the replay after an error
        try:
            fr = self.frames[-1]
            ins = self.prog.procs[fr[0]].code[fr[1]]
            self.pending = None
            ins.choose(self, fr, chosen)
            self._history.append(chosen[0])
            ai = chosen[1]
            # a chosen card shows up in the log through its move, with its visibility
            # a secret choice (ask together) is logged by the decision itself, at the reveal
            if not getattr(ins, "secret", False) and \
                    not (ai >= 0 and ins.alts[ai][0] == "binder" and ins.alts[ai][6] == "card"):
                self._events.append(("choice", seat, chosen[0]))
            self.run()
        except BaseException:  # a rules error, or Ctrl-C anywhere: back to before
            self._rewind(before)
            raise

    @property
    def scores(self) -> list:
        if self.prog.score is None:
            return []
        self.memo = None
        return [self.prog.score(self, p) for p in range(self.prog.nplayers)]

    def zone(self, name: str, seat: Optional[int] = None, key=None) -> list:
        """Omniscient: the labels of the cards in a zone, bottom first."""
        zi = self._zone_index(name, seat, key)
        return [self.prog.card_label[c] for c in self.zones[zi]]

    def var(self, name: str, key=None):
        """Omniscient: a variable's value (players as seats, enum values as names)."""
        lay, i = self._var_index(name, key)
        v = self.vars[i]
        if v is None:
            return None
        t = lay.type
        if t in self.prog.enums:
            return self.prog.enums[t][v]
        if t == "card":
            return self.prog.card_label[v]
        return v

    def clone(self) -> "State":
        s = State.__new__(State)
        s.game = self.game
        s.prog = self.prog
        s.zones = [z[:] for z in self.zones]
        s.loc = self.loc[:]
        s.vars = self.vars[:]
        s.rng = self.rng
        s.frames = [[f[0], f[1], _copy_locals(f[2]), f[3]] for f in self.frames]
        s.over = self.over
        s.winners = self.winners[:]
        s._history = self._history.copy()
        s._events = self._events.copy()
        s.cancelled = self.cancelled
        s.effect_depth = self.effect_depth
        s.pending = self.pending
        s.seed = self.seed
        s._actions = self._actions
        s._origin = None  # its own, at its first apply: a clone may be changed before it
        s.memo = None
        s.scenario = self.scenario
        return s

    def determinize(self, seat: int, seed: int) -> "State":
        """A complete state `seat` cannot tell from this one, sampled from what it knows
        (see rulesdsl/engine/determinize.py); same observations and seed, same result."""
        from rulesdsl.engine.determinize import determinize
        return determinize(self, seat, seed)

    # ------------------------------------------------------------------ running
    def _pending(self):
        if self.pending is None and not self.over:
            self.memo = None
            self.prog.budget.refill()
            fr = self.frames[-1]
            ins = self.prog.procs[fr[0]].code[fr[1]]
            seat = ins.who(self, fr[2])
            self.pending = (seat, ins.options(self, fr))
        return self.pending

    def run(self) -> None:
        """Run the rules until a player must decide or the game ends."""
        procs = self.prog.procs
        frames = self.frames
        limit = self.prog.step_limit
        steps = 0
        self.prog.budget.refill()  # the work budget is per decision, as the step limit
        while frames:
            fr = frames[-1]
            pc = fr[1]
            code = procs[fr[0]].code
            fr[1] = pc + 1
            try:
                r = code[pc](self, fr)
            except RuntimeRulesError as e:
                if e.span is None:
                    e.span = procs[fr[0]].spans[pc]
                if not e.trace:
                    e.trace = self._trace()
                raise
            except RulesError:
                raise
            except (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError) as e:
                raise RuntimeRulesError("R001", f"the rules used a missing value here ({e})",
                                        procs[fr[0]].spans[pc], ["check for none before using "
                                                                 "a card or a player"],
                                        self._trace()) from None
            except RecursionError:
                raise RuntimeRulesError("R002", "the rules nest too deeply here",
                                        procs[fr[0]].spans[pc], [], self._trace()) from None
            if r is not None:
                fr[1] = pc
                return
            steps += 1
            if steps > limit:
                raise RuntimeRulesError(
                    "R003", f"the rules ran {limit:,} steps without asking anyone to decide",
                    procs[fr[0]].spans[pc],
                    ["a loop may never end: check its condition",
                     "a game that truly needs more can raise the limit: "
                     "rulesdsl.load(game, step_limit=N)"], self._trace())
        self.over = True
        self.pending = None

    def _trace(self) -> list:
        out = []
        for fr in self.frames:
            proc = self.prog.procs[fr[0]]
            span = proc.span
            out.append(f"{proc.name}" + (f" ({span})" if span else ""))
        return fold_repeats(out)

    def call(self, pid: int, args: list, effect: bool) -> None:
        if len(self.frames) >= self.prog.depth_limit:
            raise RuntimeRulesError("R004", f"phases call each other more than "
                                    f"{self.prog.depth_limit} deep", None,
                                    ["a phase may be calling itself without end"])
        proc = self.prog.procs[pid]
        L = [None] * max(proc.nslots, len(args))
        L[:len(args)] = args
        self.frames.append([pid, 0, L, 1 if effect else 0])
        if effect:
            self.effect_depth += 1

    def return_from(self, fr) -> None:
        while self.frames:
            top = self.frames.pop()
            if top[3]:
                self.effect_depth -= 1
            if top is fr:
                return

    def finish(self, winners: list) -> None:
        self.winners = sorted(set(winners))
        self.over = True
        self.frames.clear()
        self.effect_depth = 0
        self._events.append(("end", tuple(self.winners)))

    # ------------------------------------------------------------------ primitives
    def next_random(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        self.rng, bits = splitmix64(self.rng)
        return (bits * n) >> 64

    def random_choice(self, seq):
        seq = list(seq)
        if not seq:
            return None
        return seq[self.next_random(len(seq))]

    def shuffle(self, zi: int) -> None:
        z = self.zones[zi]
        if self.prog.zone_unordered[zi]:
            return
        for i in range(len(z) - 1, 0, -1):
            j = self.next_random(i + 1)
            z[i], z[j] = z[j], z[i]
        self._events.append(("shuffle", zi))

    def move_cards(self, cards: list, dest: int, bottom: bool = False, log: bool = True,
                   words: Optional[tuple] = None) -> None:
        if not cards:
            return
        zones, loc = self.zones, self.loc
        prog = self.prog
        if self.effect_depth:
            cards = self._respect_invariants(cards, dest)
        if len(cards) == 1 and not prog.zone_unordered[dest] and not prog.zone_capacity[dest]:
            # the common case, one card onto a pile: no grouping
            c = cards[0]
            src = loc[c]
            z = zones[src]
            if z[-1] == c:
                z.pop()
            else:
                z.remove(c)
            if bottom:
                zones[dest].insert(0, c)
            else:
                zones[dest].append(c)
            loc[c] = dest
            if log and src != dest:
                self._events.append(("move", (c,), src, dest) +
                                    (() if words is None else tuple(words)))
            return
        groups = {}
        target = zones[dest]
        unordered = prog.zone_unordered[dest]
        for c in cards:
            src = loc[c]
            z = zones[src]
            if z[-1] == c:  # the top card: no scan
                z.pop()
            else:
                z.remove(c)
            if unordered:
                bisect.insort(target, c)
            elif bottom:
                target.insert(0, c)
            else:
                target.append(c)
            loc[c] = dest
            if log:
                groups.setdefault(src, []).append(c)
        cap = prog.zone_capacity[dest]
        if cap and len(target) > cap:
            raise RuntimeRulesError("R021", f"{prog.zone_names[dest]} holds at most {cap} "
                                    f"card{'s' if cap != 1 else ''}; this move makes "
                                    f"{len(target)}", None,
                                    ["check that the place is free before moving there"])
        if log:  # by source zone, not by first card: that order would reveal a hidden card
            for src, cs in sorted(groups.items()):
                if src != dest:
                    # a move told in words: (full, masked) on its first entry, None after
                    extra = () if words is None else tuple(words)
                    self._events.append(("move", tuple(cs), src, dest) + extra)
                    words = None if words is None else (None, None)

    def _respect_invariants(self, cards: list, dest: int) -> list:
        """While a card effect runs, zones with `keeps N` keep their earliest N cards."""
        keep = self.prog.zone_keep
        loc = self.loc
        by_src = {}
        for c in cards:
            src = loc[c]
            if keep[src] and src != dest:
                by_src.setdefault(src, []).append(c)
        if not by_src:
            return cards
        held = set()
        for src, moving in by_src.items():
            zone = self.zones[src]
            remaining = len(zone) - len(moving)
            if remaining < keep[src]:
                need = keep[src] - remaining
                order = sorted(moving, key=zone.index)
                held.update(order[:need])
        return [c for c in cards if c not in held]

    def deal(self, source: int, family_base: int, count: Optional[int], first: int) -> None:
        n = self.prog.nplayers
        pile = self.zones[source]
        if count is not None:
            if count < 0:
                raise RuntimeRulesError("R022", f"cannot deal {count} cards")
            if count * n > len(pile):
                raise RuntimeRulesError("R022", f"dealing {count} to each of {n} players needs "
                                        f"{count * n} cards but {self.prog.zone_names[source]} "
                                        f"has {len(pile)}", None,
                                        ["deal fewer cards, or refill the pile first"])
            total = count * n
        else:
            total = len(pile)
        dealt = [[] for _ in range(n)]
        for i in range(total):
            c = pile.pop()
            seat = (first + i) % n
            dest = family_base + seat
            self._place(c, dest)
            dealt[seat].append(c)
        for seat, cs in enumerate(dealt):
            if cs:
                self._events.append(("move", tuple(cs), source, family_base + seat))

    def _place(self, c: int, dest: int) -> None:
        target = self.zones[dest]
        if self.prog.zone_unordered[dest]:
            bisect.insort(target, c)
        else:
            target.append(c)
        self.loc[c] = dest
        cap = self.prog.zone_capacity[dest]
        if cap and len(target) > cap:
            raise RuntimeRulesError("R021", f"{self.prog.zone_names[dest]} holds at most {cap} "
                                    "cards")

    def swap(self, a: Optional[int], b: Optional[int]) -> None:
        if a is None or b is None:
            raise RuntimeRulesError("R012", "swap needs two cards, got none")
        za, zb = self.loc[a], self.loc[b]
        la, lb = self.zones[za], self.zones[zb]
        ia, ib = la.index(a), lb.index(b)
        la[ia], lb[ib] = b, a
        self.loc[a], self.loc[b] = zb, za
        for zi in (za, zb):
            if self.prog.zone_unordered[zi]:
                self.zones[zi].sort()
        self._events.append(("move", (a,), za, zb))
        self._events.append(("move", (b,), zb, za))

    def reveal(self, cards: list, seats: Optional[list] = None) -> None:
        """Show cards to everyone, or only to `seats`; the log names the zone they lie in."""
        by_zone = {}
        for c in cards:
            by_zone.setdefault(self.loc[c], []).append(c)
        extra = () if seats is None else (tuple(sorted(set(seats))),)
        if not by_zone:
            self._events.append(("reveal", (), -1) + extra)
        for zi, cs in by_zone.items():
            self._events.append(("reveal", tuple(cs), zi) + extra)

    # ------------------------------------------------------------------ seeing
    def can_see(self, zi: int, seat: Optional[int]) -> bool:
        if seat is None:
            return True
        vis = self.prog.zone_vis[zi]
        if vis == "public":
            return True
        if vis == "private":
            return self.prog.zone_owner[zi] == seat
        return False

    def render_log(self, entry, seat: Optional[int] = None) -> str:
        """One event as text, as `seat` may see it (None: everything)."""
        if isinstance(entry, str):
            return entry
        prog = self.prog
        kind = entry[0]
        if kind == "text":
            return entry[1]
        if kind == "move":
            cards, src, dst = entry[1], entry[2], entry[3]
            what = (", ".join(prog.card_label[c] for c in cards)
                    if self.can_see(src, seat) or self.can_see(dst, seat)
                    else f"{len(cards)} card{'s' if len(cards) != 1 else ''}")
            return f"{prog.zone_names[src]} -> {prog.zone_names[dst]}: {what}"
        if kind == "play":
            return f"{seat_label(entry[1])} plays {prog.card_label[entry[2]]}"
        if kind == "cancelled":
            return f"{prog.card_label[entry[1]]} is cancelled"
        if kind == "shuffle":
            return f"{prog.zone_names[entry[1]]} is shuffled"
        if kind == "reveal":
            shown = ", ".join(prog.card_label[c] for c in entry[1]) or "nothing"
            where = prog.zone_names[entry[2]] if len(entry) > 2 and entry[2] >= 0 else "revealed"
            if len(entry) > 3:  # shown to some players only
                to = ", ".join(seat_label(q) for q in entry[3]) or "nobody"
                if not (seat is None or seat in entry[3] or
                        (entry[2] >= 0 and self.can_see(entry[2], seat))):
                    n = len(entry[1])
                    shown = f"{n} card{'s' if n != 1 else ''}"
                return f"{where} shows {to}: {shown}"
            return f"{where} shows: {shown}"
        if kind == "choice":
            return f"{seat_label(entry[1])} chooses {entry[2]}"
        if kind == "chosen":  # a secret choice (ask together): its label for its player only
            who = seat_label(entry[1])
            return f"{who} has chosen" + ("" if seat is not None and seat != entry[1] else
                                          f": {entry[2]}")
        if kind == "reveal_value":  # (name, value as text, seats shown to or None)
            name, text, seats = entry[1], entry[2], entry[3]
            if seats is None:
                return f"{name} shows: {text}"
            to = ", ".join(seat_label(q) for q in seats) or "nobody"
            return f"{name} shows {to}" + (f": {text}" if seat is None or seat in seats else "")
        if kind == "end":
            w = entry[1]
            if not w:
                return "the game ends without a winner"
            return "the game ends; " + ", ".join(seat_label(s) for s in w) + \
                (" wins" if len(w) == 1 else " share the win")
        return str(entry)

    @property
    def log(self) -> list:
        """Omniscient: every event so far, as text. A seat's own log is `view(seat)["log"]`."""
        return [self.render_log(e) for e in self.events]


    def view(self, seat: int) -> dict:
        """What `seat` may see, as JSON-ready data."""
        prog = self.prog
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < prog.nplayers:
            raise RulesError("A002", f"there is no seat {brief(seat)} in a game of "
                             f"{prog.nplayers}", None, ["a seat is a number from 0"])
        zones = {}
        for zi, name in enumerate(prog.zone_names):
            cards = self.zones[zi]
            if self.can_see(zi, seat):
                zones[name] = [prog.card_label[c] for c in cards]
            else:
                zones[name] = {"count": len(cards)}
        variables = {}
        for lay in prog.vars.values():
            for k in range(math.prod(lay.sizes)):
                i = lay.base + k
                name = prog.var_names[i]
                if lay.visibility == "hidden":
                    continue
                if lay.visibility == "private":
                    owner = _owner_of(lay, k)
                    if owner != seat:
                        continue
                variables[name] = _jsonable(prog, lay.type, self.vars[i])
        out = {
            "game": prog.title,
            "seat": seat,
            "you": seat_label(seat),
            "players": prog.nplayers,
            "over": self.over,
            "winners": [seat_label(w) for w in self.winners],
            "to_move": None if self.over else seat_label(self.to_move),
            "zones": zones,
            "vars": variables,
            "log": [self.render_log(e, seat) for e in self.events],
        }
        if prog.score is not None:
            if prog.score_visibility == "public":
                out["scores"] = {seat_label(p): s for p, s in enumerate(self.scores)}
            elif prog.score_visibility == "private":
                out["scores"] = {seat_label(seat): self.scores[seat]}
        if not self.over and self.to_move == seat:
            out["actions"] = [a.label for a in self.legal_actions()]
        return out

    # ------------------------------------------------------------------ the game's words
    def question(self) -> Optional[str]:
        """The pending decision's question (`ask p "..."`), its names filled in; else None."""
        from rulesdsl.engine.words import question
        return question(self)

    def story(self, seat: Optional[int] = None) -> list:
        """The log in the game's words, as `seat` may read it (None: everything)."""
        from rulesdsl.engine.words import story
        return story(self, seat)

    def shown(self, seat: Optional[int] = None) -> list:
        """The declared `show` values `seat` may see: [(title, {owner or None: text})]."""
        from rulesdsl.engine.words import shown
        return shown(self, seat)

    def phase_path(self) -> list:
        """The names of the phases being run, outermost first (e.g. ["game", "tournament",
        "turn"]): where in the flow the pending decision stands. Empty once over."""
        return [self.prog.procs[f[0]].name for f in self.frames]

    def describe(self) -> dict:
        """What the declarations say about each zone, variable and card, for showing a view
        (no game state in it): {"zones": {instance name: {"zone", "owner" (seat or None),
        "visibility", "unordered"}}, "vars": {instance name: {"var", "owner" (seat or
        None), "board" (the board enum it is indexed by, or None), "type"}}, "boards":
        {board: [nodes]}, "grids": {grid board: [width, height]}, "enums": {enum: [values]} (boards too), "cards": {label: {"kind",
        "group", "order"}}}. A card's group is the value of its first enum field (e.g. its
        colour) or else its root kind; "order" sorts a hand."""
        prog = self.prog
        cached = getattr(prog, "_describe", None)
        if cached is not None:
            return cached
        zones = {}
        for zi, name in enumerate(prog.zone_names):
            zones[name] = {"zone": prog.zone_layout_of[zi], "owner": prog.zone_owner[zi],
                           "visibility": prog.zone_vis[zi],
                           "unordered": prog.zone_unordered[zi]}
        variables = {}
        for lay in prog.vars.values():
            board = next((d for d in lay.dims if d in prog.adjacency), None)
            for k in range(math.prod(lay.sizes)):
                variables[prog.var_names[lay.base + k]] = {
                    "var": lay.name, "owner": _owner_of(lay, k), "board": board,
                    "type": lay.type}
        kinds = getattr(getattr(self.game, "model", None), "kinds", {}) or {}
        enum_fields = []
        for f, values in prog.fields.items():
            for kinfo in kinds.values():
                t = getattr(kinfo, "fields", {}).get(f)
                if t and t[0] in prog.enums:
                    enum_fields.append((f, t[0]))
                    break
        roots = {}
        for kname in prog.kind_names:
            anc = getattr(kinds.get(kname), "ancestors", None) or [kname]
            roots[kname] = anc[-1]
        root_order = list(dict.fromkeys(roots[k] for k in prog.kind_names))
        cards = {}
        for c, label in enumerate(prog.card_label):
            if label in cards:
                continue
            kname = prog.kind_names[prog.card_kind[c]]
            group, gkey = roots[kname], (1, root_order.index(roots[kname]), 0)
            for f, enum in enum_fields:
                v = prog.fields[f][c]
                if isinstance(v, int) and not isinstance(v, bool) and \
                        0 <= v < len(prog.enums[enum]):
                    group, gkey = prog.enums[enum][v], (0, list(prog.enums).index(enum), v)
                    break
            rest = tuple(v if isinstance(v, int) else 0 for v in
                         (prog.fields[f][c] for f in prog.fields))
            cards[label] = {"kind": kname, "group": group,
                            "order": list(gkey + rest + (prog.card_kind[c],))}
        out = {"zones": zones, "vars": variables,
               "boards": {b: list(prog.enums[b]) for b in prog.adjacency},
               "grids": {b: [g.width, g.height] for b, g in prog.grids.items()},
               "enums": {e: list(v) for e, v in prog.enums.items()},
               "cards": cards}
        from rulesdsl.engine.words import presentation
        out.update(presentation(self))
        try:
            prog._describe = out
        except AttributeError:
            pass
        return out

    # ------------------------------------------------------------------ names
    def _zone_index(self, name: str, seat=None, key=None) -> int:
        if seat is None and key is None and type(name) is str:
            # tests and scripts ask for the same few zones by name over and over
            zi = self.prog.name_cache.get(name)
            if zi is None:
                zi = self.prog.name_cache[name] = self._find_zone(name, None, None)
            return zi
        return self._find_zone(name, seat, key)

    def _find_zone(self, name: str, seat, key) -> int:
        name, keys = _split_name(name)
        prog = self.prog
        lay = prog.zones.get(name)
        if lay is None:
            from rulesdsl.lang.errors import did_you_mean
            raise RulesError("A003", f"no zone named '{brief(name)}'", None,
                             did_you_mean(name, prog.zones))
        if seat is not None:
            keys = [seat] + ([] if key is None else (list(key) if isinstance(key, (list, tuple))
                                                    else [key]))
        elif key is not None:
            keys = list(key) if isinstance(key, (list, tuple)) else [key]
        return lay.base + _flat(prog, lay, keys, name)

    def _var_index(self, name: str, key=None):
        name, keys = _split_name(name)
        prog = self.prog
        lay = prog.vars.get(name)
        if lay is None:
            from rulesdsl.lang.errors import did_you_mean
            raise RulesError("A003", f"no variable named '{brief(name)}'", None,
                             did_you_mean(name, prog.vars))
        if key is not None:
            keys = list(key) if isinstance(key, (list, tuple)) else [key]
        return lay, lay.base + _flat(prog, lay, keys, name)

    # ------------------------------------------------------------------ saving
    def _snapshot(self):
        return (
            [z[:] for z in self.zones], self.loc[:], self.vars[:], self.rng,
            [[f[0], f[1], _copy_locals(f[2]), f[3]] for f in self.frames], self.over,
            self.winners[:], self._history.copy(), self._events.copy(), self.cancelled,
            self.effect_depth)

    def _restore_snapshot(self, b) -> None:
        """Become the snapshot `b` again (its lists are copied: a snapshot is shared)."""
        (zones, loc, vars_, self.rng, frames, self.over, winners, history, events,
         self.cancelled, self.effect_depth) = b
        self.zones = [z[:] for z in zones]
        self.loc = loc[:]
        self.vars = vars_[:]
        self.frames = [[f[0], f[1], _copy_locals(f[2]), f[3]] for f in frames]
        self.winners = winners[:]
        self._history = history.copy()
        self._events = events.copy()
        self.pending = None
        self._actions = None
        self.memo = None

    def _rewind(self, before: int) -> None:
        """Undo an apply that did not finish: instead of copying the whole state before
        every action, go back to the last snapshot and replay the actions since then (the
        rules are deterministic). A second Ctrl-C while this runs is held until it is done."""
        interrupted = False
        while True:
            try:
                origin = self._origin
                replay = self._history.tolist()[len(origin[7]):before]
                self._restore_snapshot(origin)
                for label in replay:
                    self.apply(label)
                self._origin = self._snapshot()
                break
            except KeyboardInterrupt:
                interrupted = True
        if interrupted:
            raise KeyboardInterrupt

    def to_json(self) -> str:
        game = self.game
        data = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "rulesdsl_version": _version(),
            "game": game.name,
            "game_hash": game.source_hash,
            "source": game.source_name,
            "options": game.options,
            "players": self.prog.nplayers,
            "seed": self.seed,
            "zones": self.zones,
            "vars": self.vars,
            "rng": self.rng,
            "frames": self.frames,
            "over": self.over,
            "winners": self.winners,
            "cancelled": self.cancelled,
            "effect_depth": self.effect_depth,
            "history": self._history.tolist(),
            "log": [list(e) for e in self._events],
        }
        if self.scenario is not None:
            data["scenario"] = self.scenario
        return json.dumps(data, separators=(",", ":"))


def fold_repeats(chain: list) -> list:
    """A call chain with its repeating stretch told once: runaway recursion shows
    "a -> b" and "... a -> b again 99 more times", not 200 lines."""
    out: list = []
    k = 0
    n = len(chain)
    while k < n:
        best = None
        for size in range(1, min(8, (n - k) // 2) + 1):
            unit = chain[k:k + size]
            reps = 1
            while chain[k + reps * size:k + (reps + 1) * size] == unit:
                reps += 1
            if reps >= 3 and (best is None or reps * size > best[0] * best[1]):
                best = (reps, size)
        if best is None:
            out.append(chain[k])
            k += 1
            continue
        reps, size = best
        out += chain[k:k + size]
        out.append(f"... the {'call' if size == 1 else f'{size} calls'} above again "
                   f"{reps - 1} more times")
        k += reps * size
    return out


def _copy_locals(L: list) -> list:
    return [x[:] if type(x) is list else x for x in L]



def _owner_of(lay, k: int):
    if "player" not in lay.dims:
        return None
    # decode the flat offset into keys
    keys = []
    for s in reversed(lay.sizes):
        keys.append(k % s)
        k //= s
    keys.reverse()
    return keys[lay.dims.index("player")]


def _jsonable(prog, t: str, v):
    if v is None:
        return None
    if t == "player":
        return seat_label(v)
    if t in prog.enums:
        return prog.enums[t][v]
    if t == "card":
        return prog.card_label[v]
    return v


def _split_name(name: str):
    """'hand[P1]' -> ('hand', ['P1']); 'hand' -> ('hand', [])."""
    if not isinstance(name, str):
        raise RulesError("A003", f"a zone or variable name is text, not {brief(name)}")
    name = name.strip()
    if name.endswith("]") and "[" in name:
        base, rest = name.split("[", 1)
        keys = [k.strip() for k in rest[:-1].split(",") if k.strip()]
        return base.strip(), keys
    return name, []


def _flat(prog, lay, keys: list, name: str) -> int:
    if len(keys) != len(lay.dims):
        raise RulesError("A004", f"{name} is indexed by {', '.join(lay.dims) or 'nothing'}; "
                         f"got {len(keys)} index{'es' if len(keys) != 1 else ''}", None,
                         [f"write {name}[" + ", ".join("P1" if d == "player" else
                                                       prog.enums[d][0] for d in lay.dims) + "]"]
                         if lay.dims else [])
    flat = 0
    for dim, size, key in zip(lay.dims, lay.sizes, keys):
        k = _key_value(prog, dim, key, name)
        if not 0 <= k < size:
            raise RulesError("A004", f"{name}[{brief(key)}] is out of range")
        flat = flat * size + k
    return flat


def _key_value(prog, dim: str, key, name: str) -> int:
    if dim == "player":
        if isinstance(key, bool):
            raise RulesError("A004", f"{name}: a seat is a number or P1..P{prog.nplayers}")
        if isinstance(key, int):
            return key
        s = str(key).strip()
        if s.upper().startswith("P") and s[1:].isdecimal():
            return bounded_int(s[1:]) - 1
        if s.isdecimal():
            return bounded_int(s)
        raise RulesError("A004", f"{name}: '{brief(key)}' is not a seat", None,
                         [f"seats are 0..{prog.nplayers - 1} or P1..P{prog.nplayers}"])
    values = prog.enums[dim]
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if str(key) in values:
        return values.index(str(key))
    from rulesdsl.lang.errors import did_you_mean
    raise RulesError("A004", f"{name}: '{brief(key)}' is not a value of {dim}", None,
                     did_you_mean(str(key), values))


def _version() -> str:
    from rulesdsl._version import __version__
    return __version__


def source_hash(sources: dict) -> str:
    h = hashlib.sha256()
    for path in sorted(sources):
        h.update(sources[path].encode("utf-8"))
    return h.hexdigest()[:16]
