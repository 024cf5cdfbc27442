"""A second author's rule-of-thumb players for the bundled games: beginners' heuristics
written apart from benchmarks/rule_of_thumb.py, with other priorities, to check that the
computer opponent beats rule-of-thumb players in general and not one author's style.

    python benchmarks/gauntlet.py --log g.jsonl --games 20 --only ivanhoe --against thumb_b

Like the first set, each decides only from what its seat knows (its view, the question,
the labels, the public declarations), breaks ties with a seeded RNG, and takes a lone
option at once.
"""

from __future__ import annotations

from rule_of_thumb import (Intrige, RuleOfThumb, game_key, is_host, last_number,
                           seat_name)

# ------------------------------------------------------------------ Triumvirat

LEGIONS = (7, 5, 3)


def _colour(label: str) -> str:
    return label.split()[0]


def _beats(card: str, led: str) -> bool:
    """Does `card`, answering `led`, win the trick (Triumvirat's order of winners)?"""
    v, w = last_number(card), last_number(led)
    if _colour(card) == _colour(led):
        return v > w
    if (v == 0) != (w == 0):
        return v == 0
    if v == 0:
        return False
    return v > w


class TriumviratB(RuleOfThumb):
    """Back the colour nearest its third consul among those I hold legions of; lay my
    biggest legion of it at once; make tricks go to it with the cheapest card that does,
    and otherwise throw my smallest card of another colour."""

    def decide(self, seen, labels):
        hand, laid = seen.mine("hand"), seen.mine("influence")
        colours = sorted({_colour(c) for c in hand + laid} or {"red"})

        def push(colour):
            legions = sum(last_number(c) for c in hand + laid
                          if _colour(c) == colour and last_number(c) in LEGIONS)
            return (legions > 0, seen.var(f"consuls[{colour}]") or 0, legions)
        mine = max(colours, key=lambda c: (push(c), c))
        if "lay no influence" in labels:
            legions = [lab for lab in labels if lab != "lay no influence" and
                       last_number(lab) in LEGIONS]
            ours = [lab for lab in legions if _colour(lab) == mine]
            pool = ours or legions
            return self.best(pool, last_number) if pool else "lay no influence"
        trick = seen.zone("trick")
        if not trick:  # lead: my colour's highest, it most likely takes the trick
            own = [lab for lab in labels if _colour(lab) == mine]
            if own:
                return self.best(own, last_number)
            return self.best(labels, lambda lab: -last_number(lab))
        led = trick[0]
        if _colour(led) == mine:  # my colour leads: let it win
            losing = [lab for lab in labels if not _beats(lab, led)]
            if losing:
                return self.best(losing, lambda lab: -last_number(lab))
        winning = [lab for lab in labels if _colour(lab) == mine and _beats(lab, led)]
        if winning:
            return self.best(winning, lambda lab: -last_number(lab))
        return self.best(labels, lambda lab: (_colour(lab) != mine, -last_number(lab)))


# ------------------------------------------------------------------ Ivanhoe

ATTACKS = ("unhorse", "change weapon", "break lance", "riposte", "dodge", "knock down",
           "outwit", "stunned", "disgrace", "countercharge", "charge", "drop weapon",
           "outmaneuver", "adapt")
IVANHOE_COLOURS = ("purple", "red", "blue", "yellow", "green")


class IvanhoeB(RuleOfThumb):
    """Name the colour I hold most cards of; lay my strongest card first; end the turn as
    soon as I lead; else play the smallest card that puts me in the lead, the strongest
    if none does; withdraw when my hand cannot catch up; cancel attacks with ivanhoe."""

    SUPPORTERS = {"squire 2": 2, "squire 3": 3, "maiden": 6}

    def value(self, card, colour):
        if card in self.SUPPORTERS:
            return 1 if colour == "green" else self.SUPPORTERS[card]
        if _colour(card) == colour and last_number(card) is not None:
            return last_number(card)
        return 0

    def decide(self, seen, labels):
        hand = seen.mine("hand")
        q = seen.question
        if "play ivanhoe to cancel" in q:
            action = q.split("'s ")[-1].rstrip("?")
            return "ivanhoe" if "ivanhoe" in labels and action in ATTACKS else "decline"
        if "which colour do you name" in q:
            return self.best(labels, lambda c: (
                sum(_colour(x) == c for x in hand) - (3 if c == "purple" else 0)
                + sum(x in self.SUPPORTERS for x in hand)))
        colour = seen.var("tournament_colour")
        if "which card do you lay first" in q:
            return self.best(labels, lambda lab: self.value(lab, colour))
        if "end turn" not in labels and "withdraw" not in labels:
            return self.pick(labels)
        totals = seen.shown("display total")
        mine = totals.get(seen.me, 0)
        rivals = [totals.get(p, 0) for p in seen.others()
                  if not seen.var(f"out[{seat_name(p)}]")]
        best = max(rivals, default=-1)
        if mine > best and "end turn" in labels:
            return "end turn"
        cards = [lab for lab in labels if self.value(lab, colour) > 0]
        if mine + sum(self.value(c, colour) for c in hand) <= best or not cards:
            return "withdraw"
        enough = [lab for lab in cards if mine + self.value(lab, colour) > best]
        if enough:
            return self.best(enough, lambda lab: -self.value(lab, colour))
        return self.best(cards, lambda lab: self.value(lab, colour))


# ------------------------------------------------------------------ Condottiere


class CondottiereB(RuleOfThumb):
    """Fight where I own most neighbours; play mercenaries, the biggest first, while I am
    not ahead, the heroine when far behind, and pass as soon as I lead or when my two
    biggest mercenaries cannot catch up; never a bishop, a
    surrender or a scarecrow; keep the biggest cards; throw away a hand without a
    mercenary."""

    def decide(self, seen, labels):
        q = seen.question
        if "where is the next battle" in q:
            d = seen.state.describe()
            regions = d["enums"]["Region"]
            nbrs = dict(zip(regions, d["borders"]["Region"]))
            return self.best(labels, lambda r: sum(
                seen.var(f"owner[{n}]") == seen.my for n in nbrs.get(r, [])))
        if q.startswith("Scarecrow"):
            return self.best(labels, lambda lab: last_number(lab) or 0)
        if "throw your whole hand" in q:
            keep = any(c.startswith("mercenary") for c in seen.mine("hand"))
            throw = [lab for lab in labels if lab != "decline"]
            return "decline" if keep or not throw else throw[0]
        if "which card do you keep" in q:
            return self.best(labels, lambda lab: last_number(lab) or
                             (10 if lab == "heroine" else 3))
        if "pass" not in labels:
            return self.pick(labels)
        army = {p: seen.var(f"army[{seat_name(p)}]") or 0 for p in range(seen.players)}
        lead = army[seen.me] - max(army[p] for p in seen.others())
        if lead > 0:
            return "pass"
        if "heroine" in labels and lead <= -8:
            return "heroine"
        mercs = [lab for lab in labels if lab.startswith("mercenary")]
        if not mercs:
            line = seen.mine("line")
            if "heroine" in labels:
                return "heroine"
            if "drummer" in labels and any(c.startswith("mercenary") for c in line):
                return "drummer"
            return "pass"
        if -lead > sum(sorted(last_number(m) for m in mercs)[-2:]):
            return "pass"  # too far behind to be worth my best cards
        enough = [lab for lab in mercs if last_number(lab) > -lead]
        if enough:
            return self.best(enough, lambda lab: -last_number(lab))
        return self.best(mercs, last_number)


# ------------------------------------------------------------------ Intrige


class IntrigeB(Intrige):
    """Bribe 20,000 where a figure of the same profession is already there, else 10,000;
    as host take in the figure that paid most and seat others' figures low; send the
    figure of a profession few houses hold to the house with most free areas."""

    AREAS = (10, 20, 30, 50, 100)

    def free(self, seen, host):
        return [a for a in self.AREAS if not seen.zone(f"house[{host}, a{a}]")]

    def rivals(self, seen, host, figure):
        profession = figure.split()[-1]
        there = [c for a in self.AREAS for c in seen.zone(f"house[{host}, a{a}]")]
        there += seen.zone(f"park[{host}]")
        return [c for c in there if c.split()[-1] == profession and c != figure]

    def decide(self, seen, labels):
        q = seen.question
        if "a bribe for" in q:
            host = q.split(" offers ")[1].split(" a bribe")[0]
            figure = q.split(" a bribe for ")[1].split(":")[0]
            want = 20000 if self.rivals(seen, host, figure) else 10000
            return self.best(labels, lambda lab: -abs(int(lab) - want))
        if is_host(q):
            return self.as_host(seen, labels)
        if "into whose park" in q:
            figure = q.split(" does ")[1].split(" go")[0]
            return self.best(labels, lambda lab: (not self.rivals(seen, lab, figure),
                                                  len(self.free(seen, lab))))
        if "which figure do you send" in q:
            def crowd(figure):
                return sum(bool(self.rivals(seen, seat_name(h), figure))
                           for h in seen.others())
            return self.best(labels, lambda lab: -crowd(lab))
        return self.pick(labels)


PLAYERS = {
    "triumvirat": TriumviratB,
    "ivanhoe": IvanhoeB,
    "condottiere": CondottiereB,
    "condottiere_edition2": CondottiereB,
    "intrige": IntrigeB,
}


def make_thumb_b(game: str, seed=None) -> RuleOfThumb:
    """The second author's rule-of-thumb player of a bundled game."""
    key = game_key(game)
    if key not in PLAYERS:
        raise KeyError(f"no second rule-of-thumb player for '{key}'; known: "
                       f"{', '.join(sorted(PLAYERS))}")
    return PLAYERS[key](seed)
