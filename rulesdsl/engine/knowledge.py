"""What one seat knows of a state, and complete states sampled from it (determinize.py).

`SeenKnowledge(state, seat)` reads only what the seat may see: the cards in zones visible to
it, the sizes of the others, the variables it may read, the rules' starting layout, and
the events of the log as the seat saw them. From these it learns, for every card it
cannot see, the hidden zones the card may be in: a card it saw go into a zone hidden from
it (passed face down, a hand shown to it) is there, until a move it cannot follow takes
cards out of that zone; a card never seen is where it started or wherever hidden moves
from there may have carried it.

Following a card through moves it cannot see. A move between two zones hidden from the
seat shows it the places and the number of cards, never which cards. It follows a card
through such a move only when the number settles it: the move took every card left in
its source (the seat sees every zone's size at all times, as a person at the table does,
so it knows the source is now empty). Then whatever may have been in the source is in
the destination instead: a card shown to it and then passed on face down with everything
its holder had (a one-card hand passed on, a hand passed whole) stays known, in its new
place. A move that leaves cards behind is not followed, even when the rules move the very
card that was shown: the log does not say which card the rules picked, and following the
card by its identity would tell the seat what a random or a secret pick was (a card
drawn at random from a hand shown to it). So a card shown and then moved with others
left behind, or put back into a pile others draw from, may be in either place (it may
have been drawn again); a swap of two hands is two moves, the second leaving a card
behind, and the card shown may be in either hand afterwards.

`determinize.Knowledge` also learns from the others' earlier choices (see inference.py)
where a card cannot be (a player who did not follow suit holds none of that suit), and
what a zone must hold (a player who asked for sevens holds one); inference.py itself
samples past states from what was seen alone, so this module does not know of it.

`SeenKnowledge.sample(seed)` then deals the cards it cannot see, in a seat-independent order,
over the hidden places they may be in, keeping every zone's size; meets each requirement
the deal missed by a swap; puts hidden variables back to their declared values; and
gives the new state its own random numbers. Two states that look the same to the seat
give the same sample for the same seed, and sampling an already sampled state again
gives the same result as sampling the real one.

Declared invariants (`invariant Z keeps N during effects`) bound how many cards card
effects leave in each Z. A sample keeps every zone's size, the cards and their order in
the zones the seat sees, and the effect being run (`effect_depth`), so nothing a sample
changes can break one: an effect that goes on in the sample keeps what it keeps in the
real game. In a zone hidden from the seat the order is drawn, as everywhere hidden, so
which of its cards are the earliest (the ones an invariant keeps) is the sample's guess.
"""

from __future__ import annotations

import math
import random
from collections import deque
from itertools import compress, repeat
from typing import NamedTuple

from rulesdsl.engine.journal import EventLog
from rulesdsl.engine.runtime.randoms import MASK64, splitmix64
from rulesdsl.engine.runtime.seats import owner_of
from rulesdsl.engine.together import hide_pending_choices
from rulesdsl.engine.pieces import forget_unseen
from rulesdsl.engine.runtime.truths import count_broken
from rulesdsl.lang.check.results import is_result_var

TRUTH_TRIES_PER_CASE = 60  # swaps tried per invariant case broken in a fresh sample


class SeenKnowledge:
    """What `seat` knows about the cards and variables of `state` (computed once), from
    what it sees alone.

    With a `witness` (another seat), only what both saw: a sample's log holds the real
    game's moves and private looks, so another seat's view of it, as the witness may
    model it, must not follow a card the witness never saw (a hand looked at in
    private, a card passed face down): that would tell the witness which card it was."""

    def __init__(self, state, seat: int, witness: int | None = None):
        self.state = state
        self.seat = seat
        zones = state.zones
        seat_view = _seat_view(state, seat)
        see = self.see = seat_view.see  # shared: read it, do not change it
        self.hidden_zones = [zi for zi in range(len(zones)) if not see[zi] and zones[zi]]
        hidden = set(self.hidden_zones)
        possible = _places_replayed(state, seat, see, witness)
        loc = state.loc
        # a card a readable card variable names is a known card: it stays where it lies
        for i in seat_view.card_vars:
            c = state.vars[i]
            if isinstance(c, int) and 0 <= c < len(loc) and not see[loc[c]]:
                possible[c] = {loc[c]}
        visible: set = set()
        for z in compress(zones, see):
            visible.update(z)
        nzones = len(zones)
        # the cards the seat cannot see, sorted by id (never by where they truly lie), each
        # with the hidden zones it may be in: anywhere hidden when the log rules out all
        self.pool = [c for c, z in enumerate(loc) if 0 <= z < nzones and c not in visible]
        every = tuple(self.hidden_zones)
        self.allowed = {}
        for c in self.pool:
            where = possible[c]
            ok = tuple(sorted(where & hidden)) if where is not None else ()
            self.allowed[c] = ok or every
        self.slots = {zi: len(zones[zi]) for zi in self.hidden_zones}
        self._group_cache: dict = {}
        self._hidden_var_cache: list | None = seat_view.hidden_vars
        self.unconstrained = self.allowed
        self.amounts = None  # hidden variables' values as the seat's replay made them
        self.start = None  # the game's start as the seat may have seen it (inference.py)
        self.rule_out({}, ())

    def rule_out(self, excluded: dict, inferred_held) -> None:
        """Narrow the places cards may be in by what the others' choices tell: `excluded`,
        card -> zones it is not in; `inferred_held`, (zone, cards of which it holds one).
        A card it would leave nowhere keeps its places."""
        self.allowed = self.unconstrained
        self.excluded, self.inferred_held = excluded, inferred_held
        if self.excluded:
            self.allowed = dict(self.allowed)
            for c, zs in self.excluded.items():
                left = tuple(z for z in self.allowed.get(c, ()) if z not in zs)
                if left:
                    self.allowed[c] = left
        # what they show they hold: (zone, cards of which it holds one), among cards unseen
        self.required = tuple(
            (z, held) for z, held in
            ((z, tuple(sorted(c for c in cards if c in self.allowed)))
             for z, cards in self.inferred_held if z in self.slots)
            if held)

    def deal(self, rnd: random.Random) -> dict:
        """Zone -> cards: every pool card in a zone it may be in, every zone full. The most
        constrained cards go first, each to a zone drawn by its free room; when a card
        finds its zones full, cards already dealt are shifted along to make room (an
        augmenting path). If the exclusions cannot all be met, the deal is made again
        without them; a card that fits nowhere even then goes where there is room. Then
        each requirement the deal missed is met by a swap where one can be made."""
        allowed = self.allowed
        out = self._deal(rnd, allowed, False)
        if out is None:
            allowed = self.unconstrained
            out = self._deal(rnd, allowed, True)
        if self.required:
            _meet_requirements(out, self.required, allowed, rnd)
        return out

    def _deal(self, rnd: random.Random, allowed: dict, force: bool):
        """Cards that may lie in the same zones are alike to the deal: each group, the most
        constrained first, takes places drawn at once among the free places of its zones
        (the same as drawing, card by card, a zone by its free room). A group that finds
        too few places goes card by card, shifting cards dealt earlier to make room."""
        room = dict(self.slots)
        out: dict = {zi: [] for zi in self.hidden_zones}
        for zones, cards in self._groups(allowed):
            places: list = []
            for zi in zones:
                places += [zi] * room[zi]
            if len(places) >= len(cards):
                picked = rnd.sample(places, len(cards))
                for c, zi in zip(cards, picked):
                    out[zi].append(c)
                for zi in zones:
                    room[zi] -= picked.count(zi)
                continue
            cards = cards[:]
            rnd.shuffle(cards)
            for c in cards:
                options = [zi for zi in allowed[c] if room[zi] > 0]
                if not options:
                    zi = _make_room(allowed[c], allowed, out, room)
                    if zi is None:
                        if not force:
                            return None
                        zi = next(z for z in self.hidden_zones if room[z] > 0)
                    options = [zi]
                r = rnd.randrange(sum(room[zi] for zi in options))
                for zi in options:
                    r -= room[zi]
                    if r < 0:
                        break
                out[zi].append(c)
                room[zi] -= 1
        return out

    def _groups(self, allowed: dict) -> list:
        """The pool's cards grouped by the zones they may be in, fewest zones first (in an
        order that depends on nothing the seat cannot see); worked out once per `allowed`."""
        cache = self._group_cache
        found = cache.get(id(allowed))
        if found is None or found[0] is not allowed:  # (an id outlives its dict: rule_out)
            by_zones: dict = {}
            for c in self.pool:
                by_zones.setdefault(allowed[c], []).append(c)
            found = cache[id(allowed)] = (allowed, sorted(by_zones.items(),
                                                          key=lambda g: (len(g[0]), g[0])))
        return found[1]

    def hides_nothing(self) -> bool:
        """Does the seat see the whole position: every card placed, every variable readable
        (but a phase's result, which no decision ever sees)?"""
        return not self.pool and all(is_result_var(lay.name) for lay, _ in self._hidden_vars())

    def _hidden_vars(self) -> list:
        """(layout, the indices the seat may not read) of every variable with some."""
        found = self._hidden_var_cache
        if found is None:
            found = self._hidden_var_cache = _seat_view(self.state, self.seat).hidden_vars
        return found

    def sample(self, seed: int):
        """A full State consistent with this knowledge, the same for the same seed."""
        state = self.state
        prog = state.prog
        rnd = random.Random(seed & MASK64)
        d = state.clone()
        for zi, cards in self.deal(rnd).items():
            if prog.zone_unordered[zi]:
                cards.sort()
            else:
                rnd.shuffle(cards)
            d.zones[zi] = cards
            deque(map(d.loc.__setitem__, cards, repeat(zi)), 0)  # each card's place
        # variables the seat may not read: what its replay of the game made of them, else
        # their declared starting values
        amounts = self.amounts
        for lay, hidden in self._hidden_vars():
            if amounts is not None:
                for k in hidden:
                    v = amounts[lay.base + k]
                    d.vars[lay.base + k] = list(v) if isinstance(v, list) else v
                continue
            try:
                v = lay.default(d, [None] * 8)
            except Exception:  # a starting value that needs the game running: unknown
                v = None
            for k in hidden:
                d.vars[lay.base + k] = list(v) if isinstance(v, list) else v
        forget_unseen(d, self.see, rnd)  # the state of pieces it does not see
        d.rng = splitmix64(seed & MASK64 ^ 0x5DEECE66D)[1]
        d.seed = seed
        d.chance = None  # a sampled world draws its random events from its own generator
        # the others' secret choices not yet revealed (ask together): known only to be made
        hide_pending_choices(d, self.seat, rnd)
        d.pending = None
        # a sample's seed does not replay its past: it carries what was inferred for it
        d.inferred = (self.seat, len(d._history), self.excluded, self.inferred_held,
                      self.amounts, self.start)
        if prog.truths:
            self._keep_truths(d, rnd)
        d.changed_outside_apply()  # not the position it was cloned from
        return d

    def _keep_truths(self, d, rnd: random.Random) -> None:
        """Swap unseen cards between the places they may be in until the file's invariants
        hold in the sample (what every player knows: a card it was told is red is red),
        keeping each swap that breaks no more cases than before. A zone is drawn first,
        then one of its unseen cards, so small hands get their turn beside a long deck.
        Bounded: a sample that cannot be mended in time is used as it is."""
        cost = count_broken(d)
        if not cost:
            return
        places = [(zi, k) for zi in self.hidden_zones for k in range(len(d.zones[zi]))
                  if d.zones[zi][k] in self.allowed]
        by_zone: dict = {}
        for zi, k in places:
            by_zone.setdefault(zi, []).append(k)
        zones = sorted(by_zone)
        unordered = d.prog.zone_unordered
        for _ in range(TRUTH_TRIES_PER_CASE * cost):
            za = zones[rnd.randrange(len(zones))]
            ka = by_zone[za][rnd.randrange(len(by_zone[za]))]
            zb, kb = places[rnd.randrange(len(places))]
            a, b = d.zones[za][ka], d.zones[zb][kb]
            if a == b or (za == zb and unordered[za]) or \
                    zb not in self.allowed[a] or za not in self.allowed[b]:
                continue
            _swap_cards(d, za, ka, zb, kb)
            now = count_broken(d)
            if now <= cost:
                cost = now
                if not cost:
                    break
            else:
                _swap_cards(d, za, ka, zb, kb)
        for zi in zones:
            if unordered[zi]:
                d.zones[zi].sort()


class _SeatView(NamedTuple):
    """What a seat may see and read of a game's states, whatever the position: the same for
    every state of the rules (zones' and variables' visibility is declared)."""
    prog: object
    see: list  # per zone, does the seat see it
    card_vars: list  # the indices of the card variables it may read
    hidden_vars: list  # (layout, the indices it may not read) of every variable with some


_SEAT_VIEWS: dict[tuple, _SeatView] = {}  # (id(prog), seat) -> its view
_SEAT_VIEWS_MAX = 256


def _seat_view(state, seat: int) -> _SeatView:
    """The seat's `_SeatView` of `state`'s rules, worked out once per rules and seat."""
    prog = state.prog
    key = (id(prog), seat)
    found = _SEAT_VIEWS.get(key)
    if found is None or found.prog is not prog:
        readable = [(lay, [_may_read(lay, k, seat) for k in range(math.prod(lay.sizes))])
                    for lay in prog.vars.values()]
        found = _SeatView(
            prog, [state.can_see(zi, seat) for zi in range(len(prog.zone_names))],
            [lay.base + k for lay, ok in readable if lay.type == "card"
             for k in range(len(ok)) if ok[k]],
            [(lay, hidden) for lay, ok in readable
             if (hidden := [k for k in range(len(ok)) if not ok[k]])])
        if len(_SEAT_VIEWS) >= _SEAT_VIEWS_MAX:
            _SEAT_VIEWS.clear()
        _SEAT_VIEWS[key] = found
    return found


def _swap_cards(d, za: int, ka: int, zb: int, kb: int) -> None:
    """Exchange the cards at place ka of zone za and place kb of zone zb."""
    a, b = d.zones[za][ka], d.zones[zb][kb]
    d.zones[za][ka], d.zones[zb][kb] = b, a
    d.loc[a], d.loc[b] = zb, za


def _meet_requirements(out: dict, required: tuple, allowed: dict, rnd: random.Random) -> None:
    """For each requirement (z, cards) the deal missed, in order: swap a card of `cards`
    that may lie in z into z, with a card of z that may lie where that card was dealt,
    keeping every requirement met so far; the swap is drawn with `rnd` among those that
    do. If none does, the deal stands (as with exclusions that cannot all be met)."""
    where = {c: z for z, cards in out.items() for c in cards}

    def met(req) -> bool:
        return any(where.get(c) == req[0] for c in req[1])

    def swap(a: int, b: int) -> None:
        za, zb = where[a], where[b]
        out[za][out[za].index(a)] = b
        out[zb][out[zb].index(b)] = a
        where[a], where[b] = zb, za

    for req in required:
        if met(req):
            continue
        z = req[0]
        swaps = [(c, w) for c in req[1] if c in where and z in allowed[c]
                 for w in out[z] if where[c] in allowed[w]]
        rnd.shuffle(swaps)
        keep = [r for r in required if r is not req and met(r)]
        for c, w in swaps:
            swap(c, w)
            if all(met(r) for r in keep):
                break
            swap(c, w)  # it would undo another requirement: put them back


def _make_room(targets, allowed: dict, out: dict, room: dict):
    """Free a place in one of the full zones `targets` by moving dealt cards along a
    chain of zones they may be in, to a zone with room; returns the zone freed, or None."""
    parent: dict = {}
    queue: deque = deque()
    for z in targets:
        if z not in parent:
            parent[z] = None
            queue.append(z)
    while queue:
        y = queue.popleft()
        for card in out[y]:
            for y2 in allowed[card]:
                if y2 in parent:
                    continue
                parent[y2] = (y, card)
                if room[y2] > 0:
                    room[y2] -= 1
                    z = y2
                    while parent[z] is not None:
                        src, moved = parent[z]
                        out[src].remove(moved)
                        out[z].append(moved)
                        z = src
                    room[z] += 1
                    return z
                queue.append(y2)
    return None


def _may_read(lay, k: int, seat: int) -> bool:
    if lay.visibility == "hidden":
        return False
    if lay.visibility == "private":
        return owner_of(lay, k) == seat
    return True


class _Replay(NamedTuple):
    """One log replayed for a seat, and what else the replay read (its key's other half)."""
    prog: object
    chunks: list  # the log's shared frozen chunks
    tail: list  # a copy of its tail
    sizes: list  # the zones' sizes
    where_played: list  # where each card played lies now
    played: list  # the cards played
    possible: list  # the replay's answer: per card, the zones it may be in


class _Prefix(NamedTuple):
    """A replay of a log with no card played whose sizes the log explains, to be carried
    on through a longer log that starts with it (`_extended`)."""
    prog: object
    chunks: list  # the log's shared frozen chunks
    frozen: int  # how many entries they hold
    tail: list  # a copy of its tail
    possible: list  # per card, the zones it may be in (sets, read only)
    maybe: dict  # per zone, the cards that may be in it (sets, read only)
    sizes: list  # the zones' sizes at its end


# (id(prog), seat, witness, id(chunks), len(tail)) -> the newest replays of that key; and
# (id(prog), seat, witness) -> the replays a longer log may carry on (`_Prefix`)
_REPLAYED: dict[tuple, list] = {}
_REPLAYED_MAX = 256  # replays kept, all keys together
_REPLAYED_PER_LOG = 8  # replays kept per seat and log length (the newest)
_PREFIXES_PER_SEAT = 4  # replays kept per seat to carry on (the ones used last)


def _places_replayed(state, seat: int, see: list, witness: int | None = None) -> list:
    """_possible_places, reused for a state with the same log as one replayed before for
    this seat and game: the samples of one search all carry the searched position's log
    (a clone shares the log's frozen chunks and copies its tail), so a search that deals
    each sample again as another seat sees it (agents/ismcts.py, `_as_seen_by`) replays
    the log once per seat instead of once per sample; and the positions its walk reaches
    a move or two on (where the other seat's reply is worked out on such a deal) share
    their logs too. Several logs are kept per seat, so that those positions do not push
    out the searched one. What else the replay reads is part of the key: the zones' sizes,
    and where the cards played lie (`_where_plays_went`). A log that carries on one
    replayed before (a position the walk reached from the searched one, in another sample)
    is replayed from where that one ended (`_extended`). A fresh list each time; its sets
    are shared, read only."""
    events = state.events
    if type(events) is not EventLog:
        return _possible_places(state, seat, see, witness)
    prog = state.prog
    chunks, tail = events._chunks, events._tail
    key = (id(prog), seat, witness, id(chunks), len(tail))
    sizes = [len(z) for z in state.zones]
    loc = state.loc
    kept = _REPLAYED.get(key)
    if kept is not None:
        for got in kept:
            if got.prog is prog and got.chunks is chunks and got.tail == tail and \
                    got.sizes == sizes and got.where_played == [loc[c] for c in got.played]:
                return list(got.possible)
    seen_by = (id(prog), seat, witness)
    prefixes = _REPLAYED.get(seen_by)
    possible = None
    if prefixes is not None:
        for pre in reversed(prefixes):
            possible = _extended(pre, state, seat, see, witness, sizes)
            if possible is not None:
                if pre is not prefixes[-1]:  # the newest used: the last pushed out
                    try:
                        prefixes.remove(pre)
                    except ValueError:  # another thread's search moved it first
                        pass
                    prefixes.append(pre)
                break
    if possible is None:
        possible, maybe, played = _replayed(state, seat, see, witness)
        if maybe is not None:
            if prefixes is None:
                prefixes = _REPLAYED[seen_by] = []
            else:
                del prefixes[:max(0, len(prefixes) + 1 - _PREFIXES_PER_SEAT)]  # oldest used
            prefixes.append(_Prefix(prog, chunks, events._frozen, tail[:], possible, maybe,
                                    sizes))
    else:
        played = []
    if sum(map(len, _REPLAYED.values())) >= _REPLAYED_MAX:
        _REPLAYED.clear()
    kept = _REPLAYED.setdefault(key, [])
    if len(kept) >= _REPLAYED_PER_LOG:
        del kept[0]
    kept.append(_Replay(prog, chunks, tail[:], sizes, [loc[c] for c in played], played,
                        possible))
    return list(possible)


def _possible_places(state, seat: int, see: list, witness: int | None = None) -> list:
    """Replay the log as the seat saw it: per card, the set of zones it may be in (None:
    anywhere). Cards start where the rules lay them out; a move the seat sees, or a card
    shown to it, puts the card in one zone; a move it cannot follow (n cards from one
    hidden zone to another) lets every card that may have been in the source be in the
    destination too, and instead of the source when the move emptied it (the seat sees
    every zone's size); a card played moves without a logged move, to a place not told.
    With a `witness`, a move or a look tells the seat only what the witness saw of it
    too; the rest counts as a move the seat could not follow."""
    return _replayed(state, seat, see, witness)[0]


def _replayed(state, seat: int, see: list, witness: int | None = None) -> tuple:
    """(places, maybe, played): `_possible_places`'s places; per zone the cards that may be
    in it, where the log may be carried on from here (no card played, its sizes followed
    to the zones' sizes now: `_Prefix`), else None; the cards played, sorted."""
    prog = state.prog
    possible = [{z} for z in prog.initial_zone]
    maybe: dict = {}
    for c, z in enumerate(prog.initial_zone):
        maybe.setdefault(z, set()).add(c)
    emptied, followed = _followed_sizes(state, see)
    events = state.events
    _replay_entries(events, 0, possible, maybe, emptied, see,
                    _also_seen(state, seat, see, witness), seat, witness)
    if followed is not None:
        return possible, maybe, []
    played = sorted({e[2] for e in events if e.__class__ is not str and e[0] == "play"})
    return possible, None, played


def _also_seen(state, seat: int, see: list, witness: int | None):
    """What the witness sees of each zone; None without one (or the seat itself)."""
    if witness is not None and witness != seat:
        return [state.can_see(zi, witness) for zi in range(len(see))]
    return None


def _replay_entries(entries, first: int, possible: list, maybe: dict, emptied: set,
                    see: list, also, seat: int, witness) -> None:
    """Carry the replay (`possible`, `maybe`) on through `entries`, the log's entries from
    index `first` on (`emptied`: the indices of moves that emptied their source)."""
    if also is None:
        witness, also = None, see

    def put(c, zones):
        old = possible[c]
        if old is not None:
            for z in old:
                maybe[z].discard(c)
        possible[c] = zones
        if zones is not None:
            for z in zones:
                maybe.setdefault(z, set()).add(c)

    for i, e in enumerate(entries, first):
        if isinstance(e, str):
            continue
        kind = e[0]
        if kind == "move":
            cards, src, dst = e[1], e[2], e[3]
            if (see[src] or see[dst]) and (also[src] or also[dst]):
                for c in cards:
                    put(c, {dst})
            else:
                carried = maybe.get(src, ())
                if i in emptied:  # all it held went: what may have been there is there now
                    maybe[src] = set()
                    for c in carried:
                        possible[c].discard(src)
                for c in list(carried):
                    possible[c].add(dst)
                    maybe.setdefault(dst, set()).add(c)
        elif kind == "play":
            put(e[2], None)
        elif kind == "reveal":
            zi = e[2]
            if zi >= 0 and (len(e) <= 3 or
                            (seat in e[3] or see[zi]) and
                            (witness is None or witness in e[3] or also[zi])):
                for c in e[1]:
                    put(c, {zi})


def _extended(pre: _Prefix, state, seat: int, see: list, witness, sizes: list):
    """`_possible_places` of `state`, whose log starts with the log `pre` replayed: `pre`'s
    places carried on through the entries since (what the full replay does, as long as
    no card is played and the log explains the sizes: it is a replay from the start cut
    in two). None where the log does not start so, or cannot be carried on."""
    if pre.prog is not state.prog:
        return None
    events = state.events
    c = events._chunks
    chunks = pre.chunks
    while c is not chunks and c is not None:
        c = c[1]
    if c is not chunks:
        return None
    start = pre.frozen
    if len(events) < start + len(pre.tail):
        return None
    entries = events.since(start)
    k = len(pre.tail)
    if entries[:k] != pre.tail:
        return None
    entries = entries[k:]
    size = pre.sizes[:]
    emptied = set()
    i = start + k
    for e in entries:  # `_followed_sizes` through the entries since, no card played
        if e.__class__ is not str:
            kind = e[0]
            if kind == "move":
                src, n = e[2], len(e[1])
                size[src] -= n
                size[e[3]] += n
                if not size[src]:
                    emptied.add(i)
            elif kind == "play":
                return None
        i += 1
    if size != sizes:
        return None
    possible = list(map(set.copy, pre.possible))  # no card played: no None among them
    maybe = dict(zip(pre.maybe, map(set.copy, pre.maybe.values())))
    _replay_entries(entries, start + k, possible, maybe, emptied, see,
                    _also_seen(state, seat, see, witness), seat, witness)
    return possible


def _emptying_moves(state, see: list) -> set:
    """The events (by index) of moves that took every card left in their source. A seat
    sees every zone's size at all times, so it knows these as a person at the table does;
    here the sizes are followed from the rules' layout through the log. A card played
    moves without a log entry: it went where its next logged move takes it from (or lies
    now, where the seat sees it). Empty when the sizes cannot be followed (a scenario's
    set-up moves cards without a log entry): then no move is taken to empty its zone."""
    return _followed_sizes(state, see)[0]


def _followed_sizes(state, see: list) -> tuple:
    """(`_emptying_moves`, followed): followed is True where no card was played and the
    sizes followed through the log are the zones' sizes now (a replay that a longer log
    may carry on), else None."""
    events = state.events
    nzones = len(state.zones)
    landing = _where_plays_went(state, see)
    if landing is None:
        return set(), None
    size = [0] * nzones
    where = list(state.prog.initial_zone)  # followed only for the cards played, if any
    for z in where:
        if 0 <= z < nzones:
            size[z] += 1
    out = set()
    for i, e in enumerate(events):
        if e.__class__ is str:
            continue
        kind = e[0]
        if kind == "move":
            cards, src, dst = e[1], e[2], e[3]
            n = len(cards)
            size[src] -= n
            size[dst] += n
            if landing:
                for c in cards:
                    where[c] = dst
            if not size[src]:
                out.add(i)
        elif kind == "play":
            c, z = e[2], landing[i]
            if 0 <= where[c] < nzones:
                size[where[c]] -= 1
            size[z] += 1
            where[c] = z
    if size != [len(z) for z in state.zones]:
        return set(), None
    return out, (True if not landing else None)


def _where_plays_went(state, see: list):
    """Event index of each play -> the zone its card went to; None when one is not told."""
    events = state.events
    if not any(e.__class__ is not str and e[0] == "play" for e in events):
        return {}
    landing = {}
    source = {}  # card -> the zone its next logged move takes it from
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.__class__ is str:
            continue
        if e[0] == "move":
            for c in e[1]:
                source[c] = e[2]
        elif e[0] == "play":
            c = e[2]
            z = source.get(c, state.loc[c])
            if z is None or not (0 <= z < len(state.zones)) or \
                    (c not in source and not see[z]):
                return None
            landing[i] = z
            source[c] = None  # where it was played from is not logged
    return landing
