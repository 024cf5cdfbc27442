"""A decision's options as the game offers them: labels told apart, alike cards by their
places, numbers' options made once. What both back ends of a decision (engine/ir) call
while the game is played."""

from __future__ import annotations


def first_of_each_label(options: list) -> list:
    """The options without those whose label an earlier one has: two cards that read
    alike are one action."""
    seen = set()
    out = []
    for o in options:
        if o[0] not in seen:
            seen.add(o[0])
            out.append(o)
    return out


def alike_in_zone(st, options: list, seat) -> list:
    """A first alternative's options over a zone, labelled by their cards, where two read
    alike: told apart by their places (by_position) where the zone keeps an order, else
    one option for both, as Ask's options are."""
    mine = [(lab, c) for lab, _, c in options]
    if not st.prog.zone_unordered[st.loc[mine[0][1]]]:
        mine = by_position(st, mine, seat)
    return first_of_each_label([(lab, 0, c) for lab, c in mine])


class NumberOptions(dict):
    """number -> its option (label, first alternative, value) in a range of numbers, each
    made the first time it is asked for and kept while fewer than 10,000 are (a game of
    free amounts would grow it): `map(made.__getitem__, numbers)` lists a range's options
    with no Python step per number once they are made."""

    __slots__ = ()

    def __missing__(self, x: int) -> tuple:
        option = (str(x), 0, x)
        if len(self) < 10_000:
            self[x] = option
        return option


def unique_label(label: str, seen: dict) -> str:
    """A label not yet taken: 'a1 (2)' may itself be another option's own label."""
    k = 2
    out = label
    while out in seen:
        out = f"{label} ({k})"
        k += 1
    return out


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
    copies: dict = {}
    for lab, c in options:
        copies.setdefault(lab, []).append(c)
    unordered, zone_names = st.prog.zone_unordered, st.prog.zone_names
    out = []
    where: dict = {}  # label -> (the zones its copies lie in, are they told apart by place?)
    for lab, c in options:
        same = copies[lab]
        if len(same) == 1:
            out.append((lab, c))
            continue
        found = where.get(lab)
        if found is None:
            zones = {st.loc[d] for d in same}
            found = where[lab] = (zones, not any(unordered[z] or not st.can_see(z, seat)
                                                 for z in zones))
        zones, placed = found
        if not placed:
            out.append((lab, c))
            continue
        z = st.loc[c]
        pile = st.zones[z]
        i = pile.index(c)
        place = "bottom" if i == 0 else "top" if i == len(pile) - 1 else ordinal(i + 1)
        out.append((f"{lab} ({zone_names[z]}, {place})" if len(zones) > 1 else
                    f"{lab} ({place})", c))
    return out
