"""What the others' earlier choices tell a seat about their hidden cards.

Seat p saw player q choose L at an earlier decision, Z is a zone q sees and p does not, F
the cards p saw L take out of Z. The test runs on a state p could have built at that
time: the real past state (replayed from the seed and the history) determinized for p, so
only what p knew then enters, never the real hidden cards. There:

- Negative inference. If L is legal when Z holds just F, but not when Z holds F and a
  card u as well, then u was not in Z: a player who did not follow suit holds no card of
  that suit. Sound for rules in which taking q's other cards away never makes a legal
  choice illegal (follow suit, beat if you can, pass only when you cannot play).
- Positive inference. If L is not legal when Z holds just F, the set S of cards u with
  which it is (Z holding F and u) tells p that Z held at least one card of S: asking for
  a rank shows you hold one. Made when some card makes L legal and some does not; a
  card the probe state put in another zone q sees, or whose test fails, stays in S
  (taking it from there, not adding it to Z, may be what made L legal). Sound for rules
  whose condition on Z is "holds a card such that ..." (one card suffices); a choice that
  needs two cards (a pair) gives an empty S and tells nothing, and one that a card could
  make legal in another way (one of a colour, or at least three cards) can mislead it.

An exclusion "u not in Z" holds until Z receives cards p could not follow or p sees u
again. A requirement "Z holds one of S" holds until cards leave Z in a move p cannot
follow (the card it held may be among them) or p sees a card of S leave Z (it may have
been that one); a card of S that p sees anywhere else was not in Z and leaves S, and a
requirement whose S is empty is dropped. The work is cached per (game, seed, seat) and
extended as the history grows, so a search that samples many times per move pays for the
new decisions once per move.
"""

from __future__ import annotations

import json
from collections import OrderedDict

from rulesdsl.engine.knowledge import SeenKnowledge

PROBE_SEED = 0x5EED1E55  # the past states are sampled with a fixed seed: same view, same result
CACHE_SIZE = 16
UNTRIED = object()  # a sort of card not tested yet
_cache: OrderedDict = OrderedDict()  # (prog id, seed, scenario, seat) -> _Past


class _Past:
    """A replay of one game from its start, and what `seat` inferred along the way."""

    __slots__ = ("prog", "labels", "replay", "records", "required", "scanned", "hidden_in",
                 "seen_at")

    def __init__(self, state):
        self.prog = state.prog
        self.labels: list = []
        self.replay = state.game.new_game(players=state.players, seed=state.seed,
                                          scenario=state.scenario)
        self.records: list = []  # (event index of the decision, zone, frozenset of cards)
        self.required: list = []  # [event index of the decision, zone, set of cards]
        self.scanned = 0       # the log read so far for:
        self.hidden_in = {}    # zone -> last event that put cards the seat did not see in it
        self.seen_at = {}      # card -> last event that showed the seat where it went


def exclusions(state, seat: int) -> dict:
    """card -> the hidden zones it cannot be in now, from what `seat` saw the others choose
    (the first half of `inferences`)."""
    return inferences(state, seat)[0]


def inferences(state, seat: int) -> tuple:
    """(exclusions, requirements) from what `seat` saw the others choose: exclusions map a
    card to the hidden zones it cannot be in now; requirements are (zone, frozenset of
    cards) pairs, the zone holding at least one of those cards now. Nothing is inferred
    when the state's past is not known: a sample (it carries its sampler's result), or a
    state whose replay from its seed and history does not look the same to the seat
    (changed by hand)."""
    marker = state.inferred
    if marker is not None:
        s, n, excluded, required = marker[:4]
        return (excluded, required) if s == seat and n == len(state._history) else ({}, ())
    past = _past_for(state, seat)
    if past is None:
        return {}, ()
    _scan(past, seat)
    return _still_valid(past), _still_required(past)


def _past_for(state, seat: int):
    history = state.history
    scenario = None if state.scenario is None else json.dumps(state.scenario, sort_keys=True)
    key = (id(state.prog), state.seed, scenario, seat)
    past = _cache.pop(key, None)
    n = len(history)
    try:
        if past is None or past.prog is not state.prog or len(past.labels) > n or \
                past.labels != history[:len(past.labels)]:
            past = _Past(state)
        for label in history[len(past.labels):]:
            _step(past, seat, label)
    except Exception:  # the history does not replay (a hand-made state): infer nothing
        return None
    _cache[key] = past
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    # a state changed by hand (a test's set-up) is not what its history replays to
    mine, replayed = state.view(seat), past.replay.view(seat)
    if len(past.replay.events) != len(state.events) or \
            any(mine[k] != replayed[k] for k in mine if k != "log"):
        return None
    return past


def _step(past: _Past, seat: int, label: str) -> None:
    """Apply the next label to the replay; when another player chose it in sight of the
    seat, record what the choice rules out and what it shows the chooser held."""
    r = past.replay
    q = r.to_move
    before = len(r.events)
    then = r.clone() if q != seat else None
    r.apply(label)
    past.labels.append(label)
    if then is None:
        return
    used = _seen_use(r, seat, q, label, r.events[before:])
    if used is None:
        return
    ruled_out, held = _rule_out(then, seat, q, label, used)
    for zone, cards in ruled_out.items():
        if cards:
            past.records.append((before, zone, cards))
    for zone, cards in held.items():
        past.required.append([before, zone, set(cards)])


def _seen_use(r, seat: int, q: int, label: str, new: list):
    """If `seat` saw q's choice, {hidden zone: the cards it saw the choice take from
    there}; else None. Seen: the choice's first entry in the log (past plain text) shows
    the seat everything (a public choice of `label`, or a card moved where it sees), and
    nothing q held out of the seat's sight went somewhere else out of its sight."""
    see = [r.can_see(zi, seat) for zi in range(len(r.zones))]
    first = next((e for e in new if not isinstance(e, str) and e[0] != "text"), None)
    if first is None or r.render_log(first, seat) != r.render_log(first):
        return None
    if first[0] == "choice":
        if first[1] != q or first[2] != label:
            return None
    elif first[0] != "move":
        return None
    used: dict = {}
    entered: set = set()
    for e in new:
        if isinstance(e, str) or e[0] != "move":
            continue
        cards, src, dst = e[1], e[2], e[3]
        if not see[src] and not see[dst]:
            if r.can_see(src, q):
                return None  # q moved its own hidden cards out of sight: the choice may
                # be about them
            break  # a move the seat cannot follow: what comes after may be cards it brought
        if not see[src]:
            for c in cards:
                if (c, src) not in entered:
                    used.setdefault(src, []).append(c)
        if not see[dst]:
            entered.update((c, dst) for c in cards)
    return used


def _rule_out(then, seat: int, q: int, label: str, used: dict) -> tuple:
    """What q's choice of `label` in `then` tells of the zones q sees and the seat does
    not: (zone -> the cards that could not have been in it, zone -> cards of which it held
    at least one). The first when the choice is legal with just the cards seen taken
    from the zone (a card that makes it illegal was not there); the second when it is
    not (it needed one more card: one of those that make it legal was there)."""
    k = SeenKnowledge(then, seat)
    b = k.sample(PROBE_SEED + len(then._history))
    out, held = {}, {}
    for z in range(len(then.zones)):
        if k.see[z] or not then.can_see(z, q) or not (then.zones[z] or z in used):
            continue
        dump = _dump_zone(b, k, z, q)
        if dump is None:
            continue
        kept = used.get(z, [])
        alone = _legal_with(b, z, kept, dump, label)
        if alone is None:
            continue  # the rules fail with the zone so emptied: the test does not apply
        candidates = [u for u in k.pool if u not in kept and z in k.allowed[u]]
        verdicts = _verdicts(b, z, kept, dump, label, candidates)
        if alone:
            out[z] = frozenset(u for u, ok in zip(candidates, verdicts) if ok is False)
        else:
            some = _needed_one_of(b, z, q, candidates, verdicts)
            if some:
                held[z] = some
    return out, held


def _needed_one_of(b, z: int, q: int, candidates: list, verdicts: list):
    """The cards of which z held one, when the choice was not legal with z holding just
    the cards seen taken: those that make it legal. A card the probe state put in another
    zone q sees tells nothing (taking it from there may be what made the choice legal:
    a card of the led suit out of a hand), nor does one whose test fails: they stay
    among the cards. None unless some card made it legal and some did not."""
    seen_by_q = [b.can_see(y, q) for y in range(len(b.zones))]
    some = []
    legal = False
    for u, ok in zip(candidates, verdicts):
        if ok is not False and seen_by_q[b.loc[u]] and b.loc[u] != z:
            ok = None
        legal = legal or ok is True
        if ok is not False:
            some.append(u)
    if legal and len(some) < len(candidates):
        return frozenset(some)
    return None


def _verdicts(b, z: int, kept: list, dump: int, label: str, candidates: list) -> list:
    """Per candidate u: is `label` legal when z holds `kept` and u? Alike cards (same
    kind, fields and label) give the same answer, so each sort is tried once."""
    prog = b.prog
    known: dict = {}
    out = []
    for u in candidates:
        alike = (prog.card_kind[u], prog.card_label[u],
                 tuple(prog.fields[f][u] for f in prog.fields))
        ok = known.get(alike, UNTRIED)
        if ok is UNTRIED:
            ok = known[alike] = _legal_with(b, z, kept + [u], dump, label)
        out.append(ok)
    return out


def _dump_zone(b, k, z: int, q: int):
    """Where the cards taken out of z wait during a test: the fullest zone hidden from
    both the seat and q (else any other zone hidden from the seat), so that q's own
    view changes only in z."""
    hidden = [y for y in range(len(b.zones)) if y != z and not k.see[y]]
    if not hidden:
        return None
    unseen = [y for y in hidden if not b.can_see(y, q)] or hidden
    return max(unseen, key=lambda y: (len(b.zones[y]), -y))


def _legal_with(b, z: int, cards: list, dump: int, label: str):
    """Is `label` legal in `b` when zone z holds exactly `cards`? None if the rules fail."""
    x = b.clone()
    for c in cards:
        src = x.loc[c]
        if src != z:
            x.zones[src].remove(c)
    rest = [c for c in x.zones[z] if c not in cards]
    x.zones[z] = sorted(cards) if x.prog.zone_unordered[z] else list(cards)
    for c in cards:
        x.loc[c] = z
    x.zones[dump].extend(rest)
    if x.prog.zone_unordered[dump]:
        x.zones[dump].sort()
    for c in rest:
        x.loc[c] = dump
    x.pending = None
    x._actions = (None, None)
    x.changed_outside_apply()  # no longer b's position
    try:
        return any(a.label == label for a in x.legal_actions())
    except Exception:
        return None


def _scan(past: _Past, seat: int) -> None:
    """Read the log on from where the last call stopped: which zones received or lost
    cards the seat could not follow, when it last saw each card, and what that does to the
    requirements (see `_still_required`)."""
    r = past.replay
    see = [r.can_see(zi, seat) for zi in range(len(r.zones))]
    hidden_in, seen_at = past.hidden_in, past.seen_at
    required = past.required
    events = r.events
    for i in range(past.scanned, len(events)):
        e = events[i]
        if isinstance(e, str):
            continue
        kind = e[0]
        if kind == "move":
            if see[e[2]] or see[e[3]]:
                for c in e[1]:
                    seen_at[c] = i
                    _sighted(required, c, i, e[2], False)
            else:
                hidden_in[e[3]] = i
                for req in required:
                    if req[1] == e[2] and req[0] <= i:
                        req[2].clear()  # cards left it unseen: the one it held may be gone
        elif kind == "play":
            seen_at[e[2]] = i
            _sighted(required, e[2], i, None, False)
        elif kind == "reveal":
            if len(e) <= 3 or seat in e[3] or (e[2] >= 0 and see[e[2]]):
                for c in e[1]:
                    seen_at[c] = i
                    _sighted(required, c, i, e[2], True)
        elif kind == "fact" and not see[e[1]]:  # told the table: as a choice would show it
            if e[3]:
                past.records.append((i, e[1], frozenset(e[2])))
            else:
                required.append([i, e[1], set(e[2])])
    past.scanned = len(events)
    past.required = [req for req in required if req[2]]


def _sighted(required: list, card: int, i: int, where, shown: bool) -> None:
    """The seat saw `card` at event i: moved out of zone `where` (None: from a place not
    told, a card played), or shown lying in it. For a requirement of a zone z since
    before i: a card seen leaving z (or maybe leaving it) may have been the one z held, so
    the requirement lapses; a card seen anywhere else was not in z (it could not have
    left z unseen without the requirement lapsing), so it leaves the requirement's cards;
    a card shown in z is there, and the requirement holds with it."""
    for req in required:
        t, z, cards = req
        if t > i or card not in cards:
            continue
        if where == z and shown:
            continue
        if where is None or where == z:
            cards.clear()
        else:
            cards.discard(card)


def _still_valid(past: _Past) -> dict:
    """The recorded exclusions that still hold: no move the seat could not follow has put
    cards into the zone since, and the seat has not seen the card since. What no longer
    holds never will again, so it is dropped."""
    hidden_in, seen_at = past.hidden_in, past.seen_at
    out: dict = {}
    kept = []
    for t, z, cards in past.records:
        if hidden_in.get(z, -1) >= t:
            continue
        cards = frozenset(c for c in cards if seen_at.get(c, -1) < t)
        if cards:
            kept.append((t, z, cards))
            for c in cards:
                out.setdefault(c, set()).add(z)
    past.records = kept
    return {c: frozenset(zs) for c, zs in out.items()}


def _still_required(past: _Past) -> tuple:
    """The requirements that still hold, as (zone, frozenset of cards), each once, in the
    order they were made: no card has left the zone unseen since the choice, and the
    cards seen elsewhere since are no longer among those it may hold."""
    out = []
    for _, z, cards in past.required:
        req = (z, frozenset(cards))
        if req not in out:
            out.append(req)
    return tuple(out)


# ------------------------------------------------------------------ hidden amounts

AMOUNTS_SEED = 0xA3077E5  # the guessed start is sampled with a fixed seed
_amounts_cache: OrderedDict = OrderedDict()  # (prog id, seed, scenario, seat) -> _Replay
_start_cache: OrderedDict = OrderedDict()  # (prog id, seed, scenario, seat) -> (prog, start)


def start_guess(state, seat: int):
    """The game's start as `seat` may have seen it: its own view of the deal, the cards it
    could not see drawn with a fixed seed; the start the replays here play the real moves
    from. Shared and read only: clone it to play on. A sample carries its sampler's (its
    own seed does not replay its past; None for a sample made for another seat), so that
    what is read from the game so far is the same on the real state and on any state
    sampled from the seat's knowledge. None where the start cannot be made again."""
    marker = state.inferred
    if marker is not None:
        return marker[5] if marker[0] == seat and len(marker) > 5 else None
    scenario = None if state.scenario is None else json.dumps(state.scenario, sort_keys=True)
    key = (id(state.prog), state.seed, scenario, seat)
    got = _start_cache.get(key)
    if got is None or got[0] is not state.prog:
        try:
            start = state.game.new_game(players=state.players, seed=state.seed,
                                        scenario=state.scenario)
            guess = SeenKnowledge(start, seat).sample(AMOUNTS_SEED)
        except Exception:  # a state whose start cannot be made again (set up by hand)
            return None
        got = _start_cache[key] = (state.prog, guess)
        while len(_start_cache) > CACHE_SIZE:
            _start_cache.popitem(last=False)
    return got[1]


class _Replay:
    """The game played again from a start the seat guessed: its own view of the deal, the
    cards it could not see drawn at random. The moves are the real ones, so whatever the
    public moves decide (chips paid to pass, ducats bid aloud) comes out as it truly is."""

    __slots__ = ("prog", "labels", "guess")

    def __init__(self, state, seat: int):
        self.prog = state.prog
        self.labels: list = []
        self.guess = start_guess(state, seat).clone()


def hidden_amounts(state, seat: int):
    """The variables `seat` may not read, as a replay of the game from a start it guessed
    makes them (a list indexed like `state.vars`), or None where that replay cannot follow
    the real moves (a move the guessed world does not allow). Nothing the seat did not see
    enters: the start is sampled from its view, and the moves are the history it saw. A
    sample carries its sampler's result; its own seed does not replay its past."""
    marker = state.inferred
    if marker is not None:
        s, n = marker[:2]
        return marker[4] if s == seat and n == len(state._history) and len(marker) > 4 \
            else None
    history = state.history
    scenario = None if state.scenario is None else json.dumps(state.scenario, sort_keys=True)
    key = (id(state.prog), state.seed, scenario, seat)
    replay = _amounts_cache.pop(key, None)
    try:
        if replay is None or replay.prog is not state.prog or \
                len(replay.labels) > len(history) or \
                replay.labels != history[:len(replay.labels)]:
            replay = _Replay(state, seat)
        for label in history[len(replay.labels):]:
            replay.guess.apply(label)
            replay.labels.append(label)
    except Exception:  # the guessed world parts from the real moves: nothing to say
        return None
    _amounts_cache[key] = replay
    while len(_amounts_cache) > CACHE_SIZE:
        _amounts_cache.popitem(last=False)
    return list(replay.guess.vars)
