"""Do the rules keep their secrets? A property tried on random games (`rulesdsl check
--secrets`): who is asked, in what order, and what every other seat sees never depend on
cards a seat cannot see.

At a position of a random game, two cards that the player to move cannot see (in two
different non-public zones: other hands, the draw pile) change places. The seats that see
neither zone (the observers; the mover is one of them) must not be able to tell: the same
player is asked, the mover has the same options, and every observer's view (zones, counts,
variables, log) is the same. Both games then go on with the same actions while the player
asked is an observer, and the comparison is repeated; it stops when a swapped card leaves
its zone (then someone may rightly learn it), a non-observer must decide, or the game
ends (the final reckoning may show hands and scores).

The checker finds the common leaks in the text (W704, W706, W708); this finds the rest,
such as a game that ends on what a hidden hand holds before its player is asked."""

from __future__ import annotations

import random
from typing import Optional

import attrs

from rulesdsl.engine.runtime.truths import broken
from rulesdsl.engine.together import cards_chosen_together


@attrs.frozen
class Leak:
    """Where swapping two cards some seats cannot see let those seats tell the difference."""
    seed: int
    players: int
    step: int             # actions played before the swap
    cards: tuple          # the two cards' labels
    places: tuple         # the zones they lay in, as the log names them
    observers: tuple      # the seats that see neither zone
    what: str             # what differed, e.g. "one game ended and the other did not"
    during: str           # the action being carried out when it showed ("P1's 'pass'"), or ""
    phases: tuple         # the phases being run at the swap, outermost first

    def sentence(self) -> str:
        who = " and ".join(f"P{o + 1}" for o in self.observers)
        when = f"while {self.during} was carried out" if self.during else "at once"
        where = " > ".join(self.phases) or "the set-up"
        return (f"seed {self.seed}, {self.players} players, after {self.step} actions "
                f"(in {where}): swapping {self.cards[0]} ({self.places[0]}) with "
                f"{self.cards[1]} ({self.places[1]}), which {who} cannot see: {self.what}, "
                f"{when}")


def _swap(st, a: int, b: int) -> None:
    """Exchange two cards' places in a state (a position the observers cannot tell apart)."""
    za, zb = st.loc[a], st.loc[b]
    la, lb = st.zones[za], st.zones[zb]
    la[la.index(a)], lb[lb.index(b)] = b, a
    st.loc[a], st.loc[b] = zb, za
    for zi in (za, zb):
        if st.prog.zone_unordered[zi]:
            st.zones[zi].sort()
    st.pending = None  # the options are worked out again from the changed position
    st.changed_outside_apply()


def _swaps(st, mover: int, pick: random.Random, limit: int) -> list:
    """Up to `limit` pairs of differently labelled cards in two different zones that are
    not public and that the mover cannot see (and not chosen in secret already)."""
    n = st.players
    committed = cards_chosen_together(st)  # face down apart from the hand: not swapped
    zones = [zi for zi, cards in enumerate(st.zones)
             if cards and st.prog.zone_vis[zi] != "public" and not st.can_see(zi, mover)]
    pairs = [(za, zb) for za in zones for zb in zones if za < zb]
    pick.shuffle(pairs)
    out = []
    label = st.prog.card_label
    for za, zb in pairs:
        for x in pick.sample(st.zones[za], min(3, len(st.zones[za]))):
            if x in committed:
                continue
            ys = [y for y in st.zones[zb] if label[y] != label[x] and y not in committed]
            if ys:
                observers = [o for o in range(n) if not st.can_see(za, o)
                             and not st.can_see(zb, o)]
                out.append((x, pick.choice(ys), observers, (za, zb)))
        if len(out) >= limit:
            break
    return out[:limit]


def _differs(s1, s2, observers) -> str:
    if s1.is_over != s2.is_over:
        return "one game ended and the other did not"
    if s1.is_over:
        return ""  # the final reckoning shows what it must (hands left, scores)
    if not s1.is_over and s1.to_move != s2.to_move:
        return f"P{s1.to_move + 1} is asked in one, P{s2.to_move + 1} in the other"
    for o in observers:
        v1, v2 = s1.view(o), s2.view(o)
        if v1 != v2:
            keys = [k for k in v1 if v1[k] != v2.get(k)]
            return f"P{o + 1}'s view differs in {', '.join(keys)}"
    return ""


def _touched(st, since: int, zones) -> bool:
    """Did an event after `since` move or show a card from one of the swapped zones?"""
    for e in st.events[since:]:
        if e[0] == "move" and (e[2] in zones or e[3] in zones):
            return True
        if e[0] == "reveal" and len(e) > 2 and e[2] in zones:
            return True
        if e[0] == "shuffle" and e[1] in zones:
            return True
    return False


def _place(st, zi: int) -> str:
    from rulesdsl.engine.words import place
    return place(st.prog, zi)


def find_leaks(game, players: int, seed: int, steps: int = 150, swaps: int = 4,
               follow: int = 6) -> list:
    """Play one random game (seed `seed`); at every position try `swaps` swaps. The leaks
    found, in order ([] when the property holds)."""
    st = game.new_game(players, seed)
    pick = random.Random(seed)
    leaks = []
    for step in range(steps):
        if st.is_over:
            break
        mover = st.to_move
        actions = [a.label for a in st.legal_actions()]
        action = pick.choice(actions)
        for x, y, observers, zones in _swaps(st, mover, pick, swaps):
            other = st.clone()
            _swap(other, x, y)
            if broken(other):  # breaks what every player knows: the seats can tell it
                continue
            here = st.clone()
            found = _differs(here, other, observers)
            if not found and [a.label for a in other.legal_actions()] != actions:
                found = f"P{mover + 1}'s options differ"
            nxt: Optional[str] = action
            during = ""
            for _ in range(follow):
                if found or here.is_over or nxt is None:
                    break
                since, who = len(here.events), here.to_move
                here.apply(nxt)
                other.apply(nxt)
                if _touched(here, since, zones) or _touched(other, since, zones):
                    break
                found = _differs(here, other, observers)
                if found:
                    during = f"P{who + 1}'s {nxt!r}"
                    break
                if here.is_over or here.to_move not in observers:
                    break
                nxt = pick.choice([a.label for a in here.legal_actions()])
            if found:
                leaks.append(Leak(seed, players, step, (st.prog.card_label[x],
                                                        st.prog.card_label[y]),
                                  (_place(st, zones[0]), _place(st, zones[1])),
                                  tuple(observers), found, during, tuple(st.phase_path())))
        st.apply(action)
    return leaks


def check_secrets(game, players: Optional[int] = None, games: int = 3, seed: int = 1) -> list:
    """The leaks of `games` random games (seeds seed, seed + 1, ...) at `players` players
    (default: 4, or the nearest count the game allows)."""
    if players is None:
        players = min(game.max_players, max(game.min_players, 4))
    return [leak for s in range(seed, seed + games) for leak in find_leaks(game, players, s)]


__all__ = ["Leak", "find_leaks", "check_secrets"]
