"""Fixed-size numbers for any game: an action space and an observation vector, both
derived from the declarations of a compiled program (one per player count).

Action space. Every decision point (`ask` or `ask each` in a phase, response or card
effect) is a site; each site's alternatives get a block of ids, in the order the program
lists them, followed by one id for "decline" when the ask is optional:

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
  an amount (or any other value)   `amount_slots` ids: the k-th smallest value offered
                                   now; values past the last slot are left out, with a
                                   RuntimeWarning once per decision naming its line
  several values ((q, f) in A, B)  as an amount: the k-th smallest combination offered now

`ask together` sites are sites like any other: each listed player decides in turn.

An action id therefore names a site, an alternative and a value; `describe(id)` says so
in words, and `legal(state)` maps the ids legal now onto the engine's own labels (the
label is what `State.apply` takes).

Observation vector, from one seat's view (what `State.view(seat)` shows, no more):

  per zone instance (program order): one count per card identity, pieces by their state
      now (zeros when the seat cannot see into the zone), then the number of cards in it
      (always known)
  per variable instance: nothing seen -> zeros; int -> its value (clipped to +-1e9);
      bool -> 0/1; player -> one-hot over seats + "none"; enum -> one-hot over values +
      "none"; card -> one-hot over identities + "none"
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
from rulesdsl.engine.together import AskTogether
from rulesdsl.engine.state import _owner_of

VALUE_LIMIT = 1e9
# labels a piece may take, enumerated from its changing fields' ranges and enums; a piece
# with more (or a changing number without a range) keeps its starting label's identity,
# as do the pieces past ALL_PIECE_LABELS labels in all (the action space stays bounded)
PIECE_LABELS = 1_000
ALL_PIECE_LABELS = 100_000


class Block:
    """The ids of one alternative of one site."""

    __slots__ = ("base", "size", "kind", "site", "alt", "text")

    def __init__(self, base, size, kind, site, alt, text):
        self.base, self.size, self.kind = base, size, kind
        self.site, self.alt, self.text = site, alt, text


class ActionSpace:
    """Action ids for every decision a program can pose."""

    def __init__(self, prog, amount_slots: int = 64):
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
        for pid, proc in enumerate(prog.procs):
            asks = [pc for pc, ins in enumerate(proc.code)
                    if isinstance(ins, (Ask, AskTogether))]
            for k, pc in enumerate(asks):
                name = proc.name + (f"#{k + 1}" if len(asks) > 1 else "")
                self.site_of[(pid, pc)] = len(self.sites)
                self.sites.append((pid, pc))
                self.site_names.append(name)
                ins = proc.code[pc]
                for ai, alt in enumerate(ins.alts):
                    kind, size = self._domain(alt)
                    self._add(pid, pc, ai, kind, size, name, _constant_text(alt[1]))
                if ins.optional:
                    self._add(pid, pc, -1, "decline", 1, name, "decline")
        self.size = len(self.by_id)

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

    def _add(self, pid, pc, ai, kind, size, site, text):
        b = Block(len(self.by_id), size, kind, site, ai, text)
        self.blocks[(pid, pc, ai)] = b
        self.by_id.extend([b] * size)

    # ------------------------------------------------------------ ids <-> labels
    def legal(self, state) -> dict:
        """{action id: engine label} for the decision pending now (empty once over)."""
        if state.is_over:
            return {}
        fr = state.frames[-1]
        options = state._pending()[1]
        amounts: dict = {}
        for label, ai, value in options:
            b = self.blocks.get((fr[0], fr[1], ai))
            if b is not None and b.kind == "amount":
                amounts.setdefault(ai, []).append(_key(value))
        ranks = {ai: {v: r for r, v in enumerate(sorted(set(vs), key=_sort_key))}
                 for ai, vs in amounts.items()}
        if any(len(r) > self.amount_slots for r in ranks.values()):
            self._warn_cut(fr, max(map(len, ranks.values())))
        out: dict = {}
        nth: Counter = Counter()  # copies of one card offered so far, per alternative
        for label, ai, value in options:
            b = self.blocks.get((fr[0], fr[1], ai))
            if b is None:
                continue
            k = self._offset(b, _key(value), ranks.get(ai), state)
            if k is not None and b.kind == "card":
                copy = nth[(ai, k)]
                nth[(ai, k)] += 1
                k = k * self.copies + copy
            if k is None or not 0 <= k < b.size:
                continue
            out.setdefault(b.base + k, label)   # the first of two alike options wins
        return dict(sorted(out.items()))

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
                      "them all", RuntimeWarning, stacklevel=3)

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
            return ranks.get(value) if ranks else None
        return value if isinstance(value, int) and not isinstance(value, bool) else None

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
        elif b.kind == "amount":
            value = f"amount #{k + 1} (lowest first)"
        else:
            value = self.prog.enums[b.kind][k]
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
        return 1

    def encode(self, state, seat: int, scores: Optional[list] = None) -> list:
        """`scores`: state.scores when the caller has them already."""
        prog = self.prog
        out = [0.0] * self.size
        stride = self.nid + 1
        identity = self.actions.identity
        for zi, cards in enumerate(state.zones):
            base = zi * stride
            if state.can_see(zi, seat):
                for c in cards:
                    out[base + identity(state, c)] += 1.0
            out[base + self.nid] = float(len(cards))
        for lay, k, w, off in self.var_width:
            if not _var_visible(lay, k, seat):
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
        if prog.score is not None and prog.score_visibility != "hidden":
            scores = state.scores if scores is None else scores
            for p, s in enumerate(scores):
                if prog.score_visibility == "public" or p == seat:
                    out[self.score_offset + p] = float(max(-VALUE_LIMIT, min(VALUE_LIMIT, s)))
        out[self.me_offset + seat] = 1.0
        mover = state.to_move
        out[self.to_move_offset + (prog.nplayers if mover is None else mover)] = 1.0
        site = self.actions.site_index(state)
        out[self.site_offset + (len(self.actions.sites) if site is None else site)] = 1.0
        return out

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


def _var_visible(lay, k: int, seat: int) -> bool:
    if lay.visibility == "hidden":
        return False
    if lay.visibility == "private":
        return _owner_of(lay, k) == seat
    return True


def win_returns(winners: list, players: int) -> list:
    """Zero-sum returns from the winners: a sole winner +1, each loser -1/(n-1); w winners
    sharing a win get (n/w - 1)/(n-1) each; nobody winning gives 0s."""
    if not winners or players < 2:
        return [0.0] * players
    w = len(set(winners))
    win = (players / w - 1.0) / (players - 1)     # 1.0 exactly for a sole winner
    return [win if p in winners else -1.0 / (players - 1) for p in range(players)]
