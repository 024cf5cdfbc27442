"""Fixed-size numbers for any game: an action space and an observation vector, both
derived from the declarations of a compiled program (one per player count).

Action space. Every decision point (`ask` or `ask each` in a phase, response or card
effect) is a site; each site's alternatives get a block of ids, in the order the program
lists them, followed by one id for "decline" when the ask is optional (shared by meaning,
below):

  a named choice ("pass")          1 id
  a card from a source             one id per card identity (distinct card label, in deck
                                   order; a piece's identity is its label now, and every
                                   label its changing fields can make is one: a die
                                   showing 4 is the identity "4") and copy: two copies of
                                   a card are one action
                                   where the engine makes them one; where it offers them
                                   apart ("red 3 (bottom)", "red 3 (top)": alike cards in
                                   an ordered zone), the n-th copy offered takes the n-th
                                   id of that identity
  a player                         one id per seat
  an enum value or board node      one id per value
  true/false                       2 ids (false, true)
  a number of a range known before  one id per number of the range, in order, where
  play (`n in 1..sides`)           there are at most `amount_slots` (else as an amount):
                                   bounds and step are numbers, options, `player_count`
                                   or definitions of those (declared.fixed_values)
  several such ((n, f) in 1..2,    one id per combination, in order, as for one number
  1..sides)
  an amount (or any other value)   `amount_slots` ids: the k-th smallest value offered
                                   now; values past the last slot are left out, with a
                                   RuntimeWarning once per decision naming its line
  several values ((q, f) in A, B)  as an amount: the k-th smallest combination offered now

`ask together` sites are sites like any other: each listed player decides in turn.

Blocks go by meaning (given the checked file): an alternative alike to one of an earlier
site takes that one's block, so the same label has the same id at every site: a label
without placeholders ("pass", "decline") is its text; any other alternative is the kind of
value, the label template as written and the values it can take. Two alternatives of one
site never share. An enum or board alternative `x in E where ...` whose condition rules
values out by parts that read only x and constants (`row_of(x) == 6`) has ids only for
the values it can offer (declared.offered_values).

An action id therefore names an alternative and a value; `describe(id)` says so in words
(naming the first site that has it), `legal(state)` maps the ids legal now onto the
engine's own labels (the label is what `State.apply` takes) and `legal_options(state)`
onto its options (what `State.apply_option` takes, without looking the label up).

Observation vector, from one seat's view (what `State.view(seat)` shows, no more):

  per zone instance (program order): one count per card identity, pieces by their state
      now (zeros when the seat cannot see into the zone), then the number of cards in it
      (always known)
  per variable instance: nothing seen -> zeros; int -> its value (clipped to +-1e9);
      bool -> 0/1; player -> one-hot over seats + "none"; enum -> one-hot over values +
      "none"; card -> one-hot over identities + "none"; a list -> its size, then its
      first LIST_ITEMS elements, each a number (an enum value, player or card by its
      position + 1; 0 past the end)
  scores: one per seat where the game shows them to this seat, else zeros
  me: one-hot over seats; to move: one-hot over seats + "game over"
  the site being decided: one-hot over sites + "none" (who is asked what is public)
"""

from __future__ import annotations

import itertools
import math
import os
import warnings
from collections import Counter
from typing import Optional

from rulesdsl.engine.compile import Ask
from rulesdsl.engine.pieces import card_text
from rulesdsl.engine.runtime.seats import owner_of, seat_label
from rulesdsl.engine.state.data import _jsonable
from rulesdsl.engine.together import AskTogether
from rulesdsl.integrations.declared import asks_by_span, fixed_values, offered_values

VALUE_LIMIT = 1e9
LIST_ITEMS = 16  # a list variable's elements in the vector: its first ones
# labels a piece may take, enumerated from its changing fields' ranges and enums; a piece
# with more (or a changing number without a range) keeps its starting label's identity,
# as do the pieces past ALL_PIECE_LABELS labels in all (the action space stays bounded)
PIECE_LABELS = 1_000
ALL_PIECE_LABELS = 100_000


class Block:
    """The ids of one meaning: an alternative of a decision, shared by every decision
    whose alternative means the same (the same label, or the same kind of value under the
    same label template)."""

    __slots__ = ("base", "size", "kind", "site", "alt", "text", "values", "position")

    def __init__(self, base, size, kind, site, alt, text, values=None):
        self.base, self.size, self.kind = base, size, kind
        self.site, self.alt, self.text = site, alt, text
        self.values = values        # an enum's values that can be offered, where fewer
        self.position = None if values is None else {v: k for k, v in enumerate(values)}


class ActionSpace:
    """Action ids for every decision a program can pose. `model` (the checked file) lets
    alike alternatives of different decisions share ids and leaves out values a choice's
    condition can never offer; without it each alternative has ids of its own."""

    def __init__(self, prog, amount_slots: int = 64, model=None):
        self.prog = prog
        self.amount_slots = amount_slots
        labels = card_labels_possible(prog)  # per card: every label it can show
        self.identities = list(dict.fromkeys(lab for own in labels for lab in own))
        self.identity_of = {lab: i for i, lab in enumerate(self.identities)}
        # ids per identity: as many as the cards that can show one label at once
        self.copies = max(Counter(lab for own in labels for lab in own).values(), default=1)
        self.warned: set = set()       # sites whose amounts passed amount_slots once
        self.sites: list = []          # (proc id, pc) per site
        self.site_names: list = []
        self.site_of: dict = {}        # (proc id, pc) -> site index
        self.blocks: dict = {}         # (proc id, pc, alt) -> Block; alt -1 is "decline"
        self.by_id: list = []          # id -> Block
        self.by_meaning: dict = {}     # what an alternative means -> its Block
        written = asks_by_span(model) if model is not None else {}
        for pid, proc in enumerate(prog.procs):
            asks = [pc for pc, ins in enumerate(proc.code)
                    if isinstance(ins, (Ask, AskTogether))]
            for k, pc in enumerate(asks):
                name = proc.name + (f"#{k + 1}" if len(asks) > 1 else "")
                self.site_of[(pid, pc)] = len(self.sites)
                self.sites.append((pid, pc))
                self.site_names.append(name)
                ins = proc.code[pc]
                ask = written.get(getattr(ins, "span", None))
                choices = ask.choices if ask is not None and \
                    len(ask.choices) == len(ins.alts) else [None] * len(ins.alts)
                here: set = set()      # meanings used at this site: each its own ids
                for ai, (alt, choice) in enumerate(zip(ins.alts, choices)):
                    kind, size = self._domain(alt)
                    values = self._values(model, prog, choice, kind)
                    text = _constant_text(alt[1])
                    meaning = None if model is None else \
                        _meaning(kind, text, choice, values)
                    self._add(pid, pc, ai, meaning, here, kind,
                              size if values is None else len(values), name, text, values)
                if ins.optional:
                    meaning = None if model is None else ("named", "decline")
                    self._add(pid, pc, -1, meaning, here, "decline", 1, name, "decline")
        self.size = len(self.by_id)

    def _values(self, model, prog, choice, kind: str) -> Optional[tuple]:
        """The values an alternative can ever offer, where fewer than its kind's (an enum's
        values a condition rules out) or known before play (a range's numbers): an id
        each. None where it is not known (ids by rank for amounts)."""
        if model is None:
            return None
        if kind == "amount":
            return fixed_values(model, prog, choice, self.amount_slots)
        return offered_values(model, prog, choice, kind)

    def _domain(self, alt):
        if alt[0] == "named":
            return "named", 1
        if alt[0] == "tuple":  # several values at once: ranked like amounts
            return "amount", self.amount_slots
        et = alt[6]
        if et == "card":
            return "card", max(1, len(self.identities)) * self.copies
        if et == "player":
            return "player", self.prog.nplayers
        if et in self.prog.enums:
            return et, max(1, len(self.prog.enums[et]))
        if et == "bool":
            return "bool", 2
        return "amount", self.amount_slots

    def _add(self, pid, pc, ai, meaning, here: set, kind, size, site, text, values=None):
        """The alternative's block: the one of its meaning where another decision has it
        (two alternatives of one decision never share: their ids must differ)."""
        b = None
        if meaning is not None and meaning not in here:
            b = self.by_meaning.get(meaning)
            here.add(meaning)
        if b is None:
            b = Block(len(self.by_id), size, kind, site, ai, text, values)
            self.by_id.extend([b] * size)
            if meaning is not None:
                self.by_meaning.setdefault(meaning, b)
        self.blocks[(pid, pc, ai)] = b

    # ------------------------------------------------------------ ids <-> labels
    def legal(self, state) -> dict:
        """{action id: engine label} for the decision pending now (empty once over)."""
        return {i: option[0] for i, option in self.legal_options(state).items()}

    def legal_options(self, state) -> dict:
        """{action id: the engine's option (label, alternative, value)} for the decision
        pending now, ids in order (empty once over): `State.apply_option` takes one."""
        if state.over:
            return {}
        fr = state.frames[-1]
        options = state.options()[1]
        blocks = self.blocks
        ranks = self._amount_ranks(fr, options)
        out: dict = {}
        nth: Counter = Counter()  # copies of one card offered so far, per alternative
        for option in options:
            ai, value = option[1], option[2]
            b = blocks.get((fr[0], fr[1], ai))
            if b is None:
                continue
            kind = b.kind
            if kind == "named" or kind == "decline":
                k = 0
            else:
                k = self._offset(b, _key(value), ranks.get(ai), state)
                if k is not None and kind == "card":
                    copy = nth[(ai, k)]
                    nth[(ai, k)] += 1
                    k = k * self.copies + copy
                if k is None or not 0 <= k < b.size:
                    continue
            out.setdefault(b.base + k, option)   # the first of two alike options wins
        return dict(sorted(out.items())) if len(out) > 1 else out

    def _amount_ranks(self, fr, options) -> dict:
        """Per alternative of amounts: each value offered now -> its rank, lowest first."""
        amounts: dict = {}
        for label, ai, value in options:
            b = self.blocks.get((fr[0], fr[1], ai))
            if b is not None and b.kind == "amount" and b.position is None:
                amounts.setdefault(ai, []).append(_key(value))
        if not amounts:
            return {}
        ranks = {ai: {v: r for r, v in enumerate(sorted(set(vs), key=_sort_key))}
                 for ai, vs in amounts.items()}
        if any(len(r) > self.amount_slots for r in ranks.values()):
            self._warn_cut(fr, max(map(len, ranks.values())))
        return ranks

    def _warn_cut(self, fr, offered: int) -> None:
        """Once per decision site: its amounts past amount_slots have no id."""
        site = (fr[0], fr[1])
        if site in self.warned:
            return
        self.warned.add(site)
        span = getattr(self.prog.procs[fr[0]].code[fr[1]], "span", None)
        where = f"{os.path.basename(span.path)}:{span.line}" if span is not None else \
            self.site_names[self.site_of[site]]
        warnings.warn(f"the decision at {where} offers {offered:,} amounts, more than "
                      f"amount_slots={self.amount_slots}: those past the first "
                      f"{self.amount_slots} have no action id; raise amount_slots to offer "
                      "them all", RuntimeWarning, stacklevel=4)

    def identity(self, state, c: int) -> Optional[int]:
        """The identity card c shows now: a piece by its state (None if its state makes a
        label no identity has, then its starting label's)."""
        prog = self.prog
        pieces = prog.pieces
        if pieces is None or pieces.parts[c] is None:
            return self.identity_of.get(prog.card_label[c])
        found = self.identity_of.get(pieces.label(state, c, prog.labeller))
        return found if found is not None else self.identity_of.get(prog.card_label[c])

    def _offset(self, b: Block, value, ranks, state=None) -> Optional[int]:
        if b.kind in ("named", "decline"):
            return 0
        if b.kind == "card":
            return self.identity(state, value) if isinstance(value, int) else None
        if b.kind == "bool":
            return int(bool(value))
        if b.kind == "amount":
            if b.position is not None:      # a value known before play: its own id
                return b.position.get(value)
            return ranks.get(value) if ranks else None
        if not isinstance(value, int) or isinstance(value, bool):
            return None
        return value if b.position is None else b.position.get(value)

    def describe(self, action: int) -> str:
        """An id in words, whatever the state: 'site: alternative value'."""
        if not 0 <= action < self.size:
            return f"no action {action}"
        b = self.by_id[action]
        k = action - b.base
        what = b.text or (b.kind if b.kind not in ("named", "amount") else
                          f"choice {b.alt + 1}")
        if b.kind in ("named", "decline"):
            return f"{b.site}: {what}"
        if b.kind == "card":
            value = self.identities[k // self.copies] + \
                (f" (copy {k % self.copies + 1})" if k % self.copies else "")
        elif b.kind == "player":
            value = f"P{k + 1}"
        elif b.kind == "bool":
            value = "true" if k else "false"
        elif b.kind == "amount" and b.values is not None:
            value = " ".join(map(str, b.values[k])) if isinstance(b.values[k], tuple) \
                else str(b.values[k])
        elif b.kind == "amount":
            value = f"amount #{k + 1} (lowest first)"
        else:
            value = self.prog.enums[b.kind][k if b.values is None else b.values[k]]
        return f"{b.site}: {what} {value}"

    def site_index(self, state) -> Optional[int]:
        if state.is_over or not state.frames:
            return None
        fr = state.frames[-1]
        return self.site_of.get((fr[0], fr[1]))


def card_labels_possible(prog) -> list:
    """Per card, the labels it can show: its own; for a piece, every label its changing
    fields can make (a die 1..6 reads "1" to "6"), where those are few enough to list."""
    pieces = prog.pieces
    out = []
    made: dict = {}  # a piece's label parts -> its labels: alike pieces are listed once
    room = ALL_PIECE_LABELS
    for c, label in enumerate(prog.card_label):
        parts = pieces.parts[c] if pieces is not None else None
        if parts is None:
            out.append([label])
            continue
        key = (tuple(parts), label)  # the starting label too: it is the fallback
        if key not in made:
            made[key] = _piece_labels(prog, parts, label) if room > 0 else [label]
            room -= len(made[key])
        out.append(made[key])
    return out


def _piece_labels(prog, parts: list, label: str) -> list:
    field_of = {base: name for name, base in prog.pieces.base.items()}
    domains = []
    for part in parts:
        if type(part) is str:
            domains.append([part])
            continue
        values = _field_values(prog, field_of[part[0]], part[1])
        if values is None:
            return [label]
        domains.append([prog.labeller(part[1], v) for v in values])
    if math.prod(map(len, domains)) > PIECE_LABELS:
        return [label]
    return list(dict.fromkeys([label] + ["".join(p) for p in itertools.product(*domains)]))


def _field_values(prog, field: str, t: str) -> Optional[list]:
    """Every value a changing field may hold, or None where that is not declared."""
    if field in prog.pieces.ranges:
        low, high = prog.pieces.ranges[field]
        return list(range(low, high + 1)) if high - low < PIECE_LABELS else None
    if t in prog.enums:
        return list(range(len(prog.enums[t]))) + [None]
    if t == "player":
        return list(range(prog.nplayers)) + [None]
    if t == "bool":
        return [False, True]
    return None


def _key(v):
    """A value as a dictionary key: the values of a several-value option are a tuple (a
    list after a save is restored)."""
    return tuple(v) if isinstance(v, list) else v


def _sort_key(v):
    if isinstance(v, tuple):
        return (2, v)
    return (0, v) if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, str(v))


def _constant_text(text) -> Optional[str]:
    """The label of a choice whose text has no placeholders, else None."""
    if text is None:
        return None
    try:
        s = text(None, [])
    except Exception:   # a template needs a state: described by position instead
        return None
    return s if isinstance(s, str) else None


def _meaning(kind: str, text, choice, values) -> Optional[tuple]:
    """What an alternative offers, as a key alike alternatives of other decisions share: a
    label without placeholders is its text; otherwise the kind of value, the label's
    template as written and the values it can take."""
    if kind in ("named", "decline") and text is not None:
        return ("named", text)
    label = getattr(choice, "label", None)
    if choice is None or (kind == "named" and label is None):
        return None
    return (kind, type(choice).__name__, label, values)


class ObservationEncoder:
    """The seat's view as a flat list of numbers (layout in the module docstring)."""

    def __init__(self, prog, actions: ActionSpace):
        self.prog = prog
        self.actions = actions
        self.identity_of = actions.identity_of
        self.nid = len(actions.identities)
        n = prog.nplayers
        self.var_width: list = []     # per var instance: (var index, type, width, offset)
        offset = len(prog.zone_names) * (self.nid + 1)
        self.zone_offset = 0
        for lay in prog.vars.values():
            for k in range(math.prod(lay.sizes)):
                w = self._width(lay.type)
                self.var_width.append((lay, k, w, offset))
                offset += w
        self.score_offset = offset
        offset += n
        self.me_offset = offset
        offset += n
        self.to_move_offset = offset
        offset += n + 1
        self.site_offset = offset
        offset += len(actions.sites) + 1
        self.size = offset

    def _width(self, t: str) -> int:
        if t == "player":
            return self.prog.nplayers + 1
        if t in self.prog.enums:
            return len(self.prog.enums[t]) + 1
        if t == "card":
            return self.nid + 1
        if t.startswith("list of "):
            return 1 + LIST_ITEMS
        return 1

    def encode(self, state, seat: int, scores: Optional[list] = None,
               sight: str = "seat") -> list:
        """`scores`: state.scores when the caller has them already; `sight`: what of the
        game to show (see `zone_seen`), the seat's own view by default."""
        prog = self.prog
        out = [0.0] * self.size
        stride = self.nid + 1
        identity = self.actions.identity
        for zi, cards in enumerate(state.zones):
            base = zi * stride
            if zone_seen(state, zi, seat, sight):
                for c in cards:
                    out[base + identity(state, c)] += 1.0
            out[base + self.nid] = float(len(cards))
        for lay, k, w, off in self.var_width:
            if not _var_seen(lay, k, seat, sight):
                continue
            v = state.vars[lay.base + k]
            t = lay.type
            if t == "player" or t in prog.enums or t == "card":
                if t == "card" and v is not None:
                    v = self.actions.identity(state, v)
                idx = w - 1 if v is None or not isinstance(v, int) or not 0 <= v < w - 1 else v
                out[off + idx] = 1.0
            elif isinstance(v, bool):
                out[off] = float(v)
            elif isinstance(v, (int, float)):
                out[off] = float(max(-VALUE_LIMIT, min(VALUE_LIMIT, v)))
            elif isinstance(v, list):
                out[off] = float(len(v))
                item = t[len("list of "):]
                for j, x in enumerate(v[:LIST_ITEMS]):
                    out[off + 1 + j] = self._item(state, item, x)
        if prog.score is not None and (sight == "all" or prog.score_visibility != "hidden"):
            scores = state.scores if scores is None else scores
            for p, s in enumerate(scores):
                if _score_seen(prog.score_visibility, p, seat, sight):
                    out[self.score_offset + p] = float(max(-VALUE_LIMIT, min(VALUE_LIMIT, s)))
        out[self.me_offset + seat] = 1.0
        mover = state.to_move
        out[self.to_move_offset + (prog.nplayers if mover is None else mover)] = 1.0
        site = self.actions.site_index(state)
        out[self.site_offset + (len(self.actions.sites) if site is None else site)] = 1.0
        return out

    def _item(self, state, t: str, x) -> float:
        """A list's element as one number: a number as it is (clipped), true 1, an enum
        value, player or card its position + 1 (0 for none)."""
        if x is None:
            return 0.0
        if t == "card":
            found = self.actions.identity(state, x)
            return 0.0 if found is None else found + 1.0
        if t == "player" or t in self.prog.enums:
            return float(x) + 1.0
        if isinstance(x, (bool, int, float)):
            return float(max(-VALUE_LIMIT, min(VALUE_LIMIT, x)))
        return 0.0

    def names(self) -> list:
        """A name for every position of the vector, for documentation and debugging."""
        prog = self.prog
        out = []
        for name in prog.zone_names:
            out += [f"{name}: {i}" for i in self.actions.identities] + [f"{name}: cards"]
        for lay, k, w, off in self.var_width:
            label = prog.var_names[lay.base + k]
            if w == 1:
                out.append(label)
            elif lay.type.startswith("list of "):
                out += [f"{label}: size"] + [f"{label}[{j + 1}]" for j in range(LIST_ITEMS)]
            else:
                values = (self.actions.identities if lay.type == "card" else
                          [f"P{p + 1}" for p in range(prog.nplayers)] if lay.type == "player"
                          else prog.enums[lay.type])
                out += [f"{label} = {v}" for v in values] + [f"{label} = none"]
        out += [f"score P{p + 1}" for p in range(prog.nplayers)]
        out += [f"me = P{p + 1}" for p in range(prog.nplayers)]
        out += [f"to move = P{p + 1}" for p in range(prog.nplayers)] + ["to move = nobody"]
        out += [f"deciding {s}" for s in self.actions.site_names] + ["deciding nothing"]
        return out


def zone_seen(state, zi: int, seat: int, sight: str = "seat") -> bool:
    """Does an observer see into zone zi? `sight`: "seat" (what the seat sees), "public"
    (what every seat sees), "private" (the seat's own secrets only) or "all"."""
    if sight == "seat":
        return state.can_see(zi, seat)
    if sight == "all":
        return True
    vis = state.prog.zone_vis[zi]
    if sight == "public":
        return vis == "public"
    if vis == "others":  # what the seat sees and its owner does not: the seat's own sight
        return state.prog.zone_owner[zi] != seat
    return vis == "private" and state.prog.zone_owner[zi] == seat


def _var_seen(lay, k: int, seat: int, sight: str = "seat") -> bool:
    if sight == "all":
        return True
    if lay.visibility == "hidden":
        return False
    if lay.visibility == "private":
        return sight != "public" and owner_of(lay, k) == seat
    return sight != "private"


def _score_seen(visibility: str, p: int, seat: int, sight: str) -> bool:
    if sight == "all":
        return True
    if visibility == "public":
        return sight != "private"
    return visibility == "private" and p == seat and sight != "public"


def cards_seen(st, seat: int, events, sight: str = "seat"):
    """Every card an observer saw move or be shown in these events, once per event."""
    for e in events:
        if isinstance(e, str):
            continue
        if e[0] == "move" and (zone_seen(st, e[2], seat, sight) or
                               zone_seen(st, e[3], seat, sight)):
            yield from e[1]
        elif e[0] == "named" and zone_seen(st, e[3], seat, sight):
            yield e[2]
        elif e[0] == "reveal" and (len(e) < 4 and sight != "private" or sight == "all" or
                                   (len(e) >= 4 and seat in e[3] and sight != "public") or
                                   (e[2] >= 0 and zone_seen(st, e[2], seat, sight))):
            yield from e[1]


def sighted_view(st, seat: int, sight: str = "seat") -> dict:
    """`st.view(seat)` without its log, narrowed (or widened) to what the observer sees:
    zones it cannot see show their size only, variables and scores it cannot see are left
    out, and the actions open to the seat only where it sees its own secrets."""
    events = st.events
    st.events = []
    try:       # the observer renders the log itself, incrementally
        view = st.view(seat)
    finally:
        st.events = events
    del view["log"]
    if sight == "seat":
        return view
    prog = st.prog
    for zi, name in enumerate(prog.zone_names):
        cards = st.zones[zi]
        if not zone_seen(st, zi, seat, sight):
            view["zones"][name] = {"count": len(cards)}
        else:       # as the engine's view shows them: pieces in their state now
            view["zones"][name] = [card_text(st, c) if prog.pieces else prog.card_label[c]
                                   for c in cards]
    view["vars"] = {}
    for lay in prog.vars.values():
        for k in range(math.prod(lay.sizes)):
            if _var_seen(lay, k, seat, sight):
                i = lay.base + k
                view["vars"][prog.var_names[i]] = _jsonable(prog, lay.type, st.vars[i])
    if prog.score is not None:
        view["scores"] = {seat_label(p): s for p, s in enumerate(st.scores)
                          if _score_seen(prog.score_visibility, p, seat, sight)}
    if sight == "public":
        view.pop("actions", None)
    return view

