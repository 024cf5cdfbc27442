"""Rule-of-thumb players: for each bundled game and example, the few heuristics a beginner
states after one reading of the rules ("follow suit low, dump the queen of spades when
void"). They are the gauntlet's yardstick for the computer opponent, not opponents worth
playing: short, sensible, beatable.

    from rule_of_thumb import make_thumb
    agent = make_thumb("examples/hearts.rules", seed=7)   # or a bundled name: "ivanhoe"
    state.apply(agent.choose(state))

Each decides only from what its seat knows: the seat's view (`state.view(seat)`), the
legal actions' labels, the question, the public declarations (`state.describe()`), and,
for a one-move look-ahead, a state sampled from that knowledge (`state.determinize`),
never the real state's hidden zones. Ties are broken by a seeded RNG.
"""

from __future__ import annotations

import random
import re
from collections import Counter, deque
from pathlib import Path

# ------------------------------------------------------------------ what a seat knows

RANK_WORDS = {"ace": 14, "king": 13, "queen": 12, "jack": 11, "ten": 10, "nine": 9,
              "eight": 8, "seven": 7, "six": 6, "five": 5, "four": 4, "three": 3, "two": 2}
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
FACES = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}


def seat_name(seat: int) -> str:
    return f"P{seat + 1}"


def last_number(label: str):
    """The last whole number in a label ("mercenary 10" -> 10), or None."""
    found = re.findall(r"-?\d+", label)
    return int(found[-1]) if found else None


class Seen:
    """One seat's knowledge at its decision: its view, the question, the options."""

    def __init__(self, state, seat: int, rng: random.Random):
        self.state = state
        self.me = seat
        self.my = seat_name(seat)
        self.rng = rng
        view = state.view(seat)
        self.zones = view["zones"]
        self.vars = view["vars"]
        self.scores = view.get("scores", {})
        self.players = view["players"]
        self.question = state.question() or ""
        self._sample = None

    def zone(self, name: str) -> list:
        """The labels in a zone this seat sees ([] for a hidden or unknown one)."""
        z = self.zones.get(name, [])
        return z if isinstance(z, list) else []

    def count(self, name: str) -> int:
        z = self.zones.get(name, [])
        return len(z) if isinstance(z, list) else z["count"]

    def mine(self, zone: str) -> list:
        return self.zone(f"{zone}[{self.my}]")

    def var(self, name: str, default=None):
        return self.vars.get(name, default)

    def others(self) -> list:
        return [s for s in range(self.players) if s != self.me]

    def shown(self, title: str) -> dict:
        """A declared `show` value per seat, as numbers where they are numbers."""
        for t, values in self.state.shown(self.me):
            if t == title:
                return {k: _number(v) for k, v in values.items()}
        return {}

    # -------------------------------------------------------------- look-ahead
    def sample(self):
        """A state this seat cannot tell from the real one (the same one all decision)."""
        if self._sample is None:
            self._sample = self.state.determinize(self.me, self.rng.getrandbits(62))
        return self._sample

    def after(self, label: str):
        s = self.sample().clone()
        s.apply(label)
        return s

    def wins_with(self, label: str) -> bool:
        s = self.after(label)
        return s.is_over and self.me in s.winners

    def gives_a_win(self, label: str) -> bool:
        """After `label`, can the next player (another) win at once?"""
        s = self.after(label)
        if s.is_over or s.to_move == self.me:
            return False
        them = s.to_move
        for a in s.legal_actions():
            t = s.clone()
            t.apply(a)
            if t.is_over and them in t.winners and self.me not in t.winners:
                return True
        return False


def _number(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return text


def card_rank(label: str) -> int:
    """A playing card's rank, aces high (2..14), from "queen of spades" or "12 of clubs"."""
    word = label.split(" of ")[0].strip()
    if word in RANK_WORDS:
        return RANK_WORDS[word]
    return int(word) if word.isdigit() else 0


def card_suit(label: str) -> str:
    return label.split(" of ")[-1].strip()


class RuleOfThumb:
    """A player that decides by `decide(seen, labels)`; one legal option is taken at once."""

    def __init__(self, seed=None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        seen = Seen(state, state.to_move, self.rng)
        labels = [a.label for a in actions]
        label = self.decide(seen, labels)
        return actions[labels.index(label)]

    def decide(self, seen: Seen, labels: list) -> str:
        return self.pick(labels)

    def best(self, labels: list, key) -> str:
        """The label with the highest key; ties at random (seeded)."""
        keyed = [(key(lab), lab) for lab in labels]
        top = max(k for k, _ in keyed)
        return self.pick([lab for k, lab in keyed if k == top])

    def pick(self, labels: list) -> str:
        return labels[self.rng.randrange(len(labels))]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


# ------------------------------------------------------------------ boards


def _cell(label: str):
    """'c5' -> (column 3, row 5)."""
    m = re.fullmatch(r"([a-z])(\d+)", label)
    return (ord(m.group(1)) - 96, int(m.group(2))) if m else None


class ConnectFour(RuleOfThumb):
    """Win now; never give the opponent a win next move; else the column nearest the centre."""

    def decide(self, seen, labels):
        for lab in labels:
            if seen.wins_with(lab):
                return lab
        safe = [lab for lab in labels if not seen.gives_a_win(lab)] or labels
        return self.best(safe, lambda lab: -abs(_cell(lab)[0] - 4))


class Reversi(RuleOfThumb):
    """Corners first; avoid the squares next to an empty corner; else flip the most discs."""

    def decide(self, seen, labels):
        size = 8
        corners = {(1, 1), (1, size), (size, 1), (size, size)}

        def key(lab):
            c = _cell(lab)
            if c in corners:
                return (2, 0)
            near = any(max(abs(c[0] - k[0]), abs(c[1] - k[1])) == 1 and
                       seen.var(f"disc[{chr(96 + k[0])}{k[1]}]") is None for k in corners)
            s = seen.after(lab)
            mine = sum(1 for v in s.view(seen.me)["vars"].values() if v == seen.my)
            return (0 if near else 1, mine)
        return self.best(labels, key)


class Checkers(RuleOfThumb):
    """Win now; take the most; don't leave a piece the opponent can jump; crown; advance."""

    def decide(self, seen, labels):
        for lab in labels:
            if seen.wins_with(lab):
                return lab
        forward = 1 if seen.me == 0 else -1

        def key(lab):
            src, dst = (_cell(x) for x in lab.split(" to "))
            jump = abs(dst[1] - src[1]) == 2
            s = seen.after(lab)
            exposed = 0
            if not s.is_over and s.to_move != seen.me:
                exposed = sum(1 for a in s.legal_actions() if _is_jump(a.label))
            crowns = dst[1] == (8 if forward == 1 else 1)
            back_row = src[1] == (1 if forward == 1 else 8)
            return (jump, -exposed, crowns, not back_row, (dst[1] - src[1]) * forward)
        return self.best(labels, key)


def _is_jump(label: str) -> bool:
    parts = label.split(" to ")
    if len(parts) != 2:
        return False
    a, b = _cell(parts[0]), _cell(parts[1])
    return bool(a and b) and abs(a[1] - b[1]) == 2


class Hex(RuleOfThumb):
    """Win now; else the cell that most shortens my path between my sides against theirs
    (stones of mine cost nothing, empty cells one), nearer the centre on ties."""

    def decide(self, seen, labels):
        d = seen.state.describe()
        board = d["hex"][0]
        cells = d["enums"][board]
        nbrs = dict(zip(cells, d["borders"][board]))
        width, height = d["grids"][board]
        owner = {c: seen.var(f"stone[{c}]") for c in cells}
        them = seat_name(1 - seen.me)

        def dist(who, stones):
            # P1 links the columns a and the last; P2 the rows 1 and the last
            axis = 0 if who == "P1" else 1
            far = width if axis == 0 else height
            cost = {c: (0 if stones.get(c) == who else 1) for c in cells
                    if stones.get(c) in (None, who)}
            best = {c: cost[c] for c in cost if _cell(c)[axis] == 1}
            todo = deque(sorted(best, key=best.get))
            while todo:
                c = todo.popleft()
                for n in nbrs[c]:
                    if n in cost and best[c] + cost[n] < best.get(n, 99):
                        best[n] = best[c] + cost[n]
                        (todo.appendleft if cost[n] == 0 else todo.append)(n)
            ends = [best[c] for c in best if _cell(c)[axis] == far]
            return min(ends) if ends else 99

        def key(lab):
            stones = dict(owner)
            stones[lab] = seen.my
            mine, theirs = dist(seen.my, stones), dist(them, stones)
            col, row = _cell(lab)
            off_centre = abs(col - (width + 1) / 2) + abs(row - (height + 1) / 2)
            return (mine == 0, theirs - mine, -off_centre)
        return self.best(labels, key)


# ------------------------------------------------------------------ trick games


def _trick_leader_suit(trick: list):
    return card_suit(trick[0]) if trick else None


class Hearts(RuleOfThumb):
    """Pass the spade queen, king and ace and high hearts, else the highest cards; follow
    suit with the highest card that still loses the trick (lowest if none does); void:
    dump the spade queen, then the highest heart, then the highest card; lead low."""

    def decide(self, seen, labels):
        if all(lab.startswith("pass ") for lab in labels):
            return self.best(labels, lambda lab: _hearts_danger(lab[5:]))
        trick = seen.zone("trick")
        if not trick:  # lead: the lowest card, hearts last
            return self.best(labels, lambda lab: (card_suit(lab) != "hearts", -card_rank(lab)))
        led = _trick_leader_suit(trick)
        if all(card_suit(lab) == led for lab in labels):
            top = max(card_rank(c) for c in trick if card_suit(c) == led)
            under = [lab for lab in labels if card_rank(lab) < top]
            if under:
                return self.best(under, card_rank)
            points = any(card_suit(c) == "hearts" or c == "queen of spades" for c in trick)
            if len(trick) == seen.players - 1 and not points:
                return self.best(labels, card_rank)  # last to play a clean trick: shed high
            return self.best(labels, lambda lab: -card_rank(lab))
        return self.best(labels, lambda lab: _hearts_danger(lab))


def _hearts_danger(label: str) -> tuple:
    if label == "queen of spades":
        return (3, 0)
    if card_suit(label) == "spades" and card_rank(label) > 12:
        return (2, card_rank(label))
    if card_suit(label) == "hearts":
        return (1, card_rank(label))
    return (0, card_rank(label))


class OhHell(RuleOfThumb):
    """Bid the aces and the trumps above ten; while short of the bid win the trick as
    cheaply as possible, once it is made play the highest card that loses."""

    def decide(self, seen, labels):
        hand = seen.mine("hand")
        upcard = seen.zone("upcard")
        trumps = card_suit(upcard[0]) if upcard else None
        if all(lab.startswith("bid ") for lab in labels):
            sure = sum(1 for c in hand if card_rank(c) == 14 or
                       (card_suit(c) == trumps and card_rank(c) > 10))
            return self.best(labels, lambda lab: -abs(int(lab.split()[1]) - sure))
        bid = seen.var(f"bid[{seen.my}]") or 0
        taken = seen.count(f"taken[{seen.my}]") // max(1, seen.players)
        trick = seen.zone("trick")
        led = _trick_leader_suit(trick)

        def strength(c):  # what the card would be worth against the trick
            if card_suit(c) == trumps:
                return 100 + card_rank(c)
            if led is None or card_suit(c) == led:
                return card_rank(c)
            return 0
        top = max((strength(c) for c in trick), default=0)
        winners = [lab for lab in labels if strength(lab) > top]
        losers = [lab for lab in labels if strength(lab) <= top]
        if taken < bid:  # still short: lead my best; follow with a sure or a cheap winner
            if not trick:
                return self.best(labels, lambda lab: (strength(lab), card_rank(lab)))
            if winners:
                last = len(trick) == seen.players - 1
                return self.best(winners, lambda lab: -strength(lab) if last else strength(lab))
            return self.best(labels, lambda lab: (-strength(lab), -card_rank(lab)))
        if losers:  # made it: shed the highest card that loses
            return self.best(losers, lambda lab: (strength(lab), card_rank(lab)))
        return self.best(labels, lambda lab: -strength(lab))


class Triumvirat(RuleOfThumb):
    """Back one colour (the most of its legions in hand and influence, and its consuls): lay
    its legions as influence; lead its low cards; void, win the trick with it; otherwise
    play the lowest card and keep the legions."""

    LEGIONS = (7, 5, 3)

    def decide(self, seen, labels):
        hand, laid = seen.mine("hand"), seen.mine("influence")

        def weight(colour):
            return (sum(2 * v(c) for c in laid if c.startswith(colour) and v(c) in self.LEGIONS)
                    + sum(v(c) for c in hand if c.startswith(colour) and v(c) in self.LEGIONS)
                    + 4 * (seen.var(f"consuls[{colour}]") or 0))
        v = last_number
        colours = sorted({c.split()[0] for c in hand + laid} or {"red"})
        mine = max(colours, key=lambda c: (weight(c), c))
        if "lay no influence" in labels:
            legions = [lab for lab in labels if lab.startswith(mine) and v(lab) in self.LEGIONS]
            return self.best(legions, v) if legions else "lay no influence"
        keep = lambda lab: lab.startswith(mine) and v(lab) in self.LEGIONS  # noqa: E731
        trick = seen.zone("trick")
        if not trick:  # lead
            own = [lab for lab in labels if lab.startswith(mine) and not keep(lab)]
            if own:
                return self.best(own, v)
            return self.best(labels, lambda lab: (not keep(lab), -v(lab)))
        led = trick[0]
        if all(lab.split()[0] == led.split()[0] for lab in labels):  # following
            return self.best(labels, lambda lab: (not keep(lab), -v(lab)))
        beats = [lab for lab in labels if lab.startswith(mine) and
                 (v(lab) == 0 or (v(lab) > v(led) and v(led) != 0))]
        if beats:
            return self.best(beats, lambda lab: (not keep(lab), -v(lab)))
        return self.best(labels, lambda lab: (not lab.startswith(mine), -v(lab)))


# ------------------------------------------------------------------ shedding games


class CrazyEights(RuleOfThumb):
    """Play a matching card of the suit I hold most of, high ranks first; an eight only when
    nothing else goes; name the suit I hold most of."""

    def decide(self, seen, labels):
        hand = seen.mine("hand")
        suits = Counter(card_suit(c) for c in hand if card_rank(c) != 8)
        if all(lab.startswith("name ") for lab in labels):
            return self.best(labels, lambda lab: suits[lab[5:]])
        return self.best(labels, lambda lab: (lab not in ("pass", "draw"),
                                              card_rank(lab) != 8,
                                              suits[card_suit(lab)], card_rank(lab)))


class Sevens(RuleOfThumb):
    """Play the card that opens the way to most of my own cards beyond it; pass only when
    made to."""

    def decide(self, seen, labels):
        hand = seen.mine("hand")

        def key(lab):
            if lab == "pass":
                return (-1, 0)
            r, s = card_rank(lab), card_suit(lab)
            beyond = [c for c in hand if card_suit(c) == s and
                      ((r >= 7 and card_rank(c) > r) or (r <= 7 and card_rank(c) < r))]
            return (len(beyond), abs(r - 7))
        return self.best(labels, key)


# ------------------------------------------------------------------ bidding and bluffing


class Gops(RuleOfThumb):
    """Bid the card worth the prize."""

    def decide(self, seen, labels):
        prize = last_number(seen.zone("prize")[0]) if seen.zone("prize") else 7
        return self.best(labels, lambda lab: -abs(last_number(lab) - prize))


class LiarsDice(RuleOfThumb):
    """Expect a sixth of the others' dice on each face: call liar when the bid is more than
    one over that; else raise as little as possible on the face I hold most of."""

    def decide(self, seen, labels):
        cup = seen.var(f"cup[{seen.my}]") or []
        mine_of = Counter(cup)
        others = sum(seen.var(f"dice[{seat_name(q)}]") or 0 for q in seen.others())

        def expected(face):
            return mine_of[face] + others / 6

        q, f = seen.var("bid_q"), seen.var("bid_f")
        if "liar" in labels and q is not None and q > expected(FACES[f]) + 1:
            return "liar"
        bids = [lab for lab in labels if lab.startswith("bid ")]

        def key(lab):
            _, n, face = lab.split()
            n, face = NUMBER_WORDS.get(n, 99), FACES[face]
            return (n <= expected(face) + 0.5, -n, mine_of[face], face)
        return self.best(bids, key) if bids else self.pick(labels)


SKULL_FIRST, SKULL_MAT, SKULL_RISK = 0.5, 2, 2  # tried against random: 1/3-0.7, 1-3, 0-2


class Skull(RuleOfThumb):
    """Lay the skull first one round in two, else flowers; while nobody bets, lay flowers
    up to two discs; with only flowers on my mat bet or raise up to two more than it holds
    (I turn up my own first), else pass; turn up the fullest mat (its top disc is the
    least likely to be a skull)."""

    def decide(self, seen, labels):
        mat, hand = seen.mine("mat"), seen.mine("hand")
        if any(lab.startswith("turn up") for lab in labels):
            return self.best(labels, lambda lab: seen.count(f"mat[{lab.split()[-1]}]"))
        if "lay first" in seen.question and "skull" in labels:
            return "skull" if self.rng.random() < SKULL_FIRST else "flower"
        if "flower" in labels and "flower" in hand and len(mat) < SKULL_MAT:
            return "flower"
        bets = [lab for lab in labels if lab.startswith("bet ")]
        doable = [b for b in bets if last_number(b) <= len(mat) + SKULL_RISK]
        if doable and "skull" not in mat:
            return self.best(doable, lambda lab: -last_number(lab))
        if "flower" in labels and "flower" in hand:
            return "flower"
        if "pass" in labels:
            return "pass"
        if "skull" in labels:
            return "skull"
        return self.best(labels, lambda lab: -(last_number(lab) or 0))


NO_THANKS_COST = 6  # tried against greedy: 6, 10, 14 (6 best)


class NoThanks(RuleOfThumb):
    """Take a card that joins a run of mine, or one whose value less the chips on it is 6
    or less; otherwise say no thanks while chips last."""

    def decide(self, seen, labels):
        offer = seen.zone("offer")
        card = last_number(offer[0]) if offer else 0
        mine = {last_number(c) for c in seen.mine("taken")}
        pot = seen.var("pot") or 0
        joins = card - 1 in mine or card + 1 in mine  # a run counts its lowest card only
        if joins or card - pot <= NO_THANKS_COST:
            return "take"
        return "no thanks"


# ------------------------------------------------------------------ the examples' others


COLOURS_LC = ("yellow", "blue", "white", "green", "red")


class LostCities(RuleOfThumb):
    """Play to an expedition already started, lowest first, or start one where I hold 22 or
    more points; otherwise discard a card I cannot use that the opponent's expedition
    cannot use; draw a discard that fits one of my expeditions, else the deck."""

    def decide(self, seen, labels):
        hand = seen.mine("hand")
        me, them = seen.my, seat_name(1 - seen.me)

        def top(who, colour):
            exp = seen.zone(f"expedition[{who}, {colour}]")
            nums = [last_number(c) for c in exp if last_number(c) is not None]
            return (len(exp) > 0, max(nums) if nums else 0, bool(nums))

        def held(colour):
            return sum(last_number(c) or 0 for c in hand if c.startswith(colour))

        def fits(card, who):
            colour = card.split()[0]
            started, high, numbered = top(who, colour)
            n = last_number(card)
            return (not numbered) if n is None else n > high

        def useful(card):
            colour = card.split()[0]
            return fits(card, me) and (top(me, colour)[0] or held(colour) >= 22)

        if any(lab.startswith("take ") or lab.startswith("draw") for lab in labels):
            takes = [lab for lab in labels if lab.startswith("take ") and
                     top(me, lab[5:].split()[0])[0] and fits(lab[5:], me)]
            return self.best(takes, lambda lab: -(last_number(lab) or 0)) if takes \
                else "draw from the deck"
        plays = [lab for lab in labels if lab.startswith("play ") and useful(lab[5:])]
        if plays:  # the lowest card first, into the expedition already started
            return self.best(plays, lambda lab: (top(me, lab[5:].split()[0])[0],
                                                 -(last_number(lab) or 0)))
        discards = [lab for lab in labels if lab.startswith("discard ")]
        return self.best(discards, lambda lab: (not fits(lab[8:], them), not useful(lab[8:]),
                                                -(last_number(lab) or 0)))


LOVE_VALUES = {"guard": 1, "priest": 2, "baron": 3, "handmaid": 4, "prince": 5, "king": 6,
               "countess": 7, "princess": 8}
LOVE_DECK = {"guard": 5, "priest": 2, "baron": 2, "handmaid": 2, "prince": 2, "king": 1,
             "countess": 1, "princess": 1}


class LoveLetter(RuleOfThumb):
    """Play the lower card, never the princess, the baron only holding a high card; guess
    the commonest card not yet seen; aim at the player with the most tokens."""

    def decide(self, seen, labels):
        hand = seen.mine("hand")
        if all(lab.startswith("guess ") for lab in labels):
            unseen = Counter(LOVE_DECK)
            for c in hand + seen.zone("aside_up") + [c for q in range(seen.players)
                                                     for c in seen.zone(f"played[{seat_name(q)}]")]:
                unseen[c] -= 1
            return self.best(labels, lambda lab: unseen[lab[6:]])
        if all(lab in LOVE_VALUES for lab in labels):
            other = {lab: next((c for c in hand if c != lab), lab) for lab in labels}
            if hand.count(labels[0]) == 2:
                return labels[0]

            def key(lab):
                if lab == "princess":
                    return -99
                if lab == "baron":
                    return 10 if LOVE_VALUES[other[lab]] >= 5 else -5
                if lab == "king" and LOVE_VALUES[other[lab]] >= 5:
                    return -6
                return -LOVE_VALUES[lab]
            return self.best(labels, key)
        # a target: the leader in tokens, never myself when another will do
        targets = [lab for lab in labels if lab != seen.my] or labels
        return self.best(targets, lambda lab: seen.var(f"tokens[{lab}]", 0)
                         if re.fullmatch(r"P\d", lab) else 0)


# ------------------------------------------------------------------ bundled games


class Ivanhoe(RuleOfThumb):
    """Name the colour I hold most strength in (one I have no trophy of); lay the weakest
    card first; end the turn when ahead; else play my strongest card, withdrawing at once
    when my whole hand cannot get ahead; leave action cards alone."""

    SUPPORTERS = {"squire 2": 2, "squire 3": 3, "maiden": 6}

    def decide(self, seen, labels):
        hand = seen.mine("hand")
        colours = ("purple", "red", "blue", "yellow", "green")
        tourney = seen.var("tournament_colour")

        def value(card, colour):
            if card in self.SUPPORTERS:
                return 1 if colour == "green" else self.SUPPORTERS[card]
            if card.split()[0] == colour and last_number(card) is not None:
                return last_number(card)
            return 0

        if all(lab in colours for lab in labels):
            def strength(colour):
                has = seen.var(f"trophy[{seen.my}, {colour}]")
                return (not has, sum(value(c, colour) for c in hand))
            return self.best(labels, strength)
        playable = [lab for lab in labels if value(lab, tourney) > 0]
        if "withdraw" not in labels and "end turn" not in labels:
            if playable and "lay first" in seen.question:
                return self.best(playable, lambda lab: -value(lab, tourney))
            if "decline" in labels:
                return "decline"
            return self.pick(labels)
        totals = seen.shown("display total")
        mine = totals.get(seen.me, 0)
        others = [totals.get(q, 0) for q in seen.others()
                  if not seen.var(f"out[{seat_name(q)}]")]
        ahead = not others or mine > max(others)
        if ahead and "end turn" in labels:
            return "end turn"
        reach = mine + sum(value(c, tourney) for c in hand)
        if not playable or (others and reach <= max(others)):
            return "withdraw"
        return self.best(playable, lambda lab: (lab != "maiden", value(lab, tourney)))


class Intrige(RuleOfThumb):
    """Pay the least bribe; seat others' figures in my lowest free area, taking in the one
    whose owner paid most; send figures to houses whose best free area is highest and where
    no figure of that profession sits or waits."""

    def decide(self, seen, labels):
        q = seen.question
        if "bribe" in q:
            return self.best(labels, lambda lab: -int(lab))
        if is_host(q):
            return self.as_host(seen, labels)
        if "into whose park" in q:
            figure = q.split(" does ")[1].split(" go")[0]
            return self.best(labels, lambda lab: _house_appeal(seen, lab, figure))
        if "which figure do you send" in q:
            return self.best(labels, lambda lab: max(
                (_house_appeal(seen, seat_name(h), lab) for h in seen.others()), default=0))
        return self.pick(labels)

    def as_host(self, seen, labels):
        """As host: others' figures in my lowest free area; in a conflict, the figure whose
        owner paid most for it (a resident keeps its area by what it paid)."""
        if "where in your house" in seen.question:
            return self.best(labels, lambda lab: -last_number(lab))
        paid = _payments(seen)
        return self.best(labels, lambda lab: paid.get(lab.split(" keeps ")[0], 0))


def is_host(q: str) -> bool:
    """Is the host asked where a figure sits, or which figure gets in or keeps an area?"""
    return "where in your house" in q or "want in" in q or "who gets the area" in q


AREAS = (10, 20, 30, 50, 100)


def _house_appeal(seen, host: str, figure: str) -> int:
    """The best free area of a house for a figure, 0 where its profession sits or waits."""
    profession = figure.split()[-1]
    seated = [c for a in AREAS for c in seen.zone(f"house[{host}, a{a}]")]
    waiting = seen.zone(f"park[{host}]")
    if any(c.split()[-1] == profession for c in seated + waiting):
        return 0
    free = [a for a in AREAS if not seen.zone(f"house[{host}, a{a}]")]
    return max(free, default=0)


def _payments(seen) -> dict:
    """Per figure, the last bribe paid for it, as the seat's log tells."""
    paid = {}
    for line in seen.state.view(seen.me)["log"]:
        m = re.search(r"pays P\d+ (\d+) ducats for (P\d+ \w+)", line)
        if m:
            paid[m.group(2)] = int(m.group(1))
    return paid


class Condottiere(RuleOfThumb):
    """Name a free region next to mine; surrender only when ahead; pass when ahead by 5 or
    more; else play the cheapest card that puts me ahead (a look-ahead on the armies),
    never a big mercenary under winter; behind by 5 or more, a bishop that ends the battle;
    a lost cause: a scarecrow to take a mercenary back, else pass; keep the strongest
    cards; throw away a hand of no mercenaries."""

    COST = {"heroine": 10, "drummer": 7, "winter": 6, "spring": 6, "courtesan": 1,
            "bishop": 9, "scarecrow": 4, "surrender": 12}

    def cost(self, label):
        return last_number(label) or self.COST.get(label, 5)

    def decide(self, seen, labels):
        q = seen.question
        if "where is the next battle" in q:
            return self._battle(seen, labels)
        if q.startswith("Scarecrow"):
            mercs = [lab for lab in labels if lab.startswith("mercenary")]
            return self.best(mercs, last_number) if mercs else labels[-1]
        if "throw your whole hand" in q:
            hand = seen.mine("hand")
            keep = any(c.startswith("mercenary") or c == "heroine" for c in hand)
            return "decline" if keep or "decline" not in labels else \
                next(lab for lab in labels if lab != "decline")
        if "which card do you keep" in q:
            return self.best(labels, self.cost)
        if "pass" in labels:
            return self._fight(seen, labels)
        return self.pick(labels)

    def _battle(self, seen, labels):
        d = seen.state.describe()
        regions = d["enums"]["Region"]
        nbrs = dict(zip(regions, d["borders"]["Region"]))
        owner = {r: seen.var(f"owner[{r}]") for r in regions}

        def key(r):
            free = owner[r] is None
            return (free, sum(owner[n] == seen.my for n in nbrs[r]),
                    sum(owner[n] is None for n in nbrs[r]))
        return self.best(labels, key)

    def _fight(self, seen, labels):
        army = {q: seen.var(f"army[{seat_name(q)}]") or 0 for q in range(seen.players)}
        mine = army[seen.me]
        rival = max(army[q] for q in seen.others())
        active = [q for q in seen.others() if not seen.var(f"dropped[{seat_name(q)}]")
                  and seen.count(f"hand[{seat_name(q)}]") > 0]
        if mine > rival:
            if "surrender" in labels:
                return "surrender"
            if not active or mine - rival >= 5:
                return "pass"
        gains = {}
        for lab in labels:
            if lab in ("pass", "surrender", "scarecrow") or \
                    (lab == "bishop" and mine >= rival):
                continue
            after = seen.after(lab)
            if after.is_over or "fight" not in after.phase_path():
                continue  # a card that ends the battle: judged below, not by the armies
            a = [after.var("army", key=q) or 0 for q in range(seen.players)]
            gains[lab] = (a[seen.me], max(a[q] for q in seen.others()))
        ahead = [lab for lab, (m, r) in gains.items() if m > r]
        if ahead:
            return self.best(ahead, lambda lab: -self.cost(lab))
        if "bishop" in labels and "bishop" not in gains and rival - mine >= 5:
            return "bishop"  # it ends the battle without a winner: the rival takes nothing
        if mine > rival:  # ahead by a little: add a small card, else stop
            small = [lab for lab, (m, r) in gains.items() if m > mine and self.cost(lab) <= 3]
            return self.best(small, lambda lab: -self.cost(lab)) if small else "pass"
        if rival - mine > 12 or not gains:  # a lost cause: save what can be saved
            if "scarecrow" in labels and any(
                    (last_number(c) or 0) >= 3 for c in seen.mine("line")):
                return "scarecrow"
            return "pass"
        return self.best(list(gains), lambda lab: (gains[lab][0] - gains[lab][1],
                                                   -self.cost(lab)))


# ------------------------------------------------------------------ the register

HANABI_COLOURS = ("red", "yellow", "green", "blue", "white")


class Hanabi(RuleOfThumb):
    """Play a card I was told enough about to know it fits; else tell a player what they
    lack to know that a card of theirs fits now (its number, then its colour); else
    discard my oldest card I know nothing of; else tell something."""

    def decide(self, seen, labels):
        tops = {c: seen.count(f"fireworks[{c}]") for c in HANABI_COLOURS}
        slots = len([lab for lab in labels if lab.startswith("play ")])
        for i in range(1, slots + 1):
            colour = seen.var(f"told_colour[{seen.my}, s{i}]")
            number = seen.var(f"told_number[{seen.my}, s{i}]")
            if number is not None and (colour is not None and tops[colour] == number - 1 or
                                       colour is None and all(t == number - 1
                                                              for t in tops.values())):
                return f"play {i}"
        for q in seen.others():
            who = seat_name(q)
            for j, card in enumerate(seen.zone(f"hand[{who}]"), 1):
                colour, number = card.split()
                if tops[colour] != int(number) - 1:
                    continue
                # what the holder still lacks to know the card fits: its number, its colour
                told = seen.var(f"told_number[{who}, s{j}]") is not None
                tell = f"tell {who} {colour if told else number}"
                if tell in labels:
                    return tell
        for i in range(1, slots + 1):
            if f"discard {i}" in labels and seen.var(f"told_colour[{seen.my}, s{i}]") is None \
                    and seen.var(f"told_number[{seen.my}, s{i}]") is None:
                return f"discard {i}"
        tells = [lab for lab in labels if lab.startswith("tell ")]
        return self.pick(tells) if tells else self.pick(labels)


COUP_ROLES = ("duke", "assassin", "captain", "ambassador", "contessa")


class Coup(RuleOfThumb):
    """Coup the richest rival when I can; claim what I hold (tax with a duke, assassinate
    with an assassin, steal with a captain), else take income; challenge a claim only when
    every card of that role is in sight; block with a role I hold; lose my least useful
    influence."""

    def decide(self, seen, labels):
        hand = seen.mine("hand")
        rivals = sorted((q for q in seen.others() if seen.count(f"hand[{seat_name(q)}]")),
                        key=lambda q: -(seen.var(f"coins[{seat_name(q)}]") or 0))
        if "challenge" in labels:
            role = seen.question.rstrip("?").split()[-1]
            in_sight = hand + [c for q in range(seen.players)
                               for c in seen.zone(f"lost[{seat_name(q)}]")]
            return "challenge" if in_sight.count(role) == 3 else "decline"
        if "block" in labels:
            return "block" if "duke" in hand else "decline"
        blocks = [lab for lab in labels if lab.startswith("block with the ")]
        if blocks:
            mine = [b for b in blocks if b.split()[-1] in hand]
            return mine[0] if mine else "allow"
        if "which influence" in seen.question:
            return self.best(labels, lambda lab: -COUP_ROLES.index(lab) if lab in COUP_ROLES
                             else 0)
        for target in rivals:
            for kind in ("coup", "assassinate", "steal from"):
                label = f"{kind} {seat_name(target)}"
                needs = {"assassinate": "assassin", "steal from": "captain"}.get(kind)
                if label in labels and (needs is None or needs in hand):
                    return label
        if "tax" in labels and "duke" in hand:
            return "tax"
        if "income" in labels:
            return "income"
        return self.pick(labels)


class Backgammon(RuleOfThumb):
    """Bear off; hit a blot; make a point (land on my lone checker); don't leave a blot
    behind; else move the rearmost checker."""

    def decide(self, seen, labels):
        foe = seat_name(1 - seen.me)

        def pip(k):
            return {0: "off", 25: "bar"}.get(k, f"p{k}")

        def mine(k):
            return seen.var(f"checkers[{seen.my}, {pip(k)}]", 0)

        def theirs(k):  # the opponent's checkers on my point k
            return seen.var(f"checkers[{foe}, {pip(25 - k)}]", 0)

        def key(lab):
            src, dst = lab.split("/")
            a = 25 if src == "bar" else int(src)
            if dst == "off":
                return (3, True, a)
            b = int(dst)
            gain = 2 if theirs(b) == 1 else 1 if mine(b) == 1 else 0
            return (gain, mine(a) != 2 or a == 25, a)
        return self.best(labels, key)


class GoFish(RuleOfThumb):
    """Ask for the rank I hold most of, from a player the table last heard holds it
    (they asked for it, or it was handed to them), else from whoever holds most cards."""

    FACT = re.compile(r"^(P\d+)'s hand (holds one of|holds none of|shows): (\w+) of")

    def decide(self, seen, labels):
        held = Counter(label.split(" of ")[0] for label in seen.mine("hand"))
        known: dict = {}                      # rank -> seats heard to hold it
        for line in seen.state.story(seen.me):
            m = self.FACT.match(line)
            if m:
                who, what, rank = m.groups()
                seats = known.setdefault(rank, set())
                (seats.discard if what == "holds none of" else seats.add)(who)

        def key(label):
            _, who, _, rank = label.split()
            return (who in known.get(rank, ()), held[rank], seen.count(f"hand[{who}]"))
        return self.best(labels, key)


class Kalah(RuleOfThumb):
    """Sow a pit whose last seed falls in my store (I move again); else one whose last
    seed takes the pit opposite, the bigger take first; else the pit nearest my store."""

    TRACK = [f"a{k}" for k in range(1, 7)] + ["store_a"] + [f"b{k}" for k in range(1, 7)] + \
        ["store_b"]

    def decide(self, seen, labels):
        board = [seen.var(f"seeds[{c}]", 0) for c in self.TRACK]
        mine, store, skipped = (0, 6, 13) if seen.me == 0 else (7, 13, 6)

        def key(lab):
            start = self.TRACK.index(lab)
            at = start
            for _ in range(board[start]):
                at = (at + 1) % 14
                at = (at + 1) % 14 if at == skipped else at
            # a short sowing (under a lap) that ends in an empty pit of mine takes across
            empty_mine = mine <= at < mine + 6 and board[at] == 0 and board[start] < 13
            return (at == store, board[12 - at] if empty_mine else 0, start)
        return self.best(labels, key)


class NineMensMorris(RuleOfThumb):
    """Close a mill; else block two of the opponent's men in a line; else take a man of a
    line of two; else a point on the most lines holding a man of mine."""

    LINES = ["a7 d7 g7", "g7 g4 g1", "g1 d1 a1", "a1 a4 a7", "b6 d6 f6", "f6 f4 f2",
             "f2 d2 b2", "b2 b4 b6", "c5 d5 e5", "e5 e4 e3", "e3 d3 c3", "c3 c4 c5",
             "d7 d6 d5", "d3 d2 d1", "a4 b4 c4", "e4 f4 g4"]

    def decide(self, seen, labels):
        foe = seat_name(1 - seen.me)
        lines = [line.split() for line in self.LINES]

        def man(c):
            return seen.var(f"man[{c}]")

        def key(label):
            src, _, dst = label.rpartition(" to ")
            src = src or None

            def owner(c):
                return None if c == src else seen.my if c == dst else man(c)
            mine = [line for line in lines if dst in line]
            if "take" in seen.question:   # dst is the opponent's man to take
                return (sum(sum(man(c) == foe for c in line) == 2 for line in mine), 0, 0)
            closes = any(all(owner(c) == seen.my for c in line) for line in mine)
            blocks = any(sum(man(c) == foe for c in line) == 2 for line in mine)
            friends = sum(any(man(c) == seen.my for c in line if c != src) for line in mine)
            return (closes, blocks, friends)
        return self.best(labels, key)


class TheGame(RuleOfThumb):
    """Play the ten back where it fits, else the card nearest a pile's top; stop once the
    turn has played enough unless a card lies within 3 of a top."""

    def decide(self, seen, labels):
        def gap(label):
            if label in ("stop", "cannot play"):
                return 3.5
            card, pile = label.split(" on ")
            cards = seen.zone(f"pile[{pile}]")
            up = pile.startswith("up")
            top = int(cards[-1]) if cards else (1 if up else 100)
            return (int(card) - top) * (1 if up else -1)
        return self.best(labels, lambda label: -gap(label))


PLAYERS = {
    "triumvirat": Triumvirat,
    "ivanhoe": Ivanhoe,
    "condottiere": Condottiere,
    "condottiere_edition2": Condottiere,
    "intrige": Intrige,
    "checkers": Checkers,
    "checkers_most": Checkers,
    "connect_four": ConnectFour,
    "crazy_eights": CrazyEights,
    "gops": Gops,
    "hearts": Hearts,
    "hex": Hex,
    "liars_dice": LiarsDice,
    "lost_cities": LostCities,
    "love_letter": LoveLetter,
    "no_thanks": NoThanks,
    "oh_hell": OhHell,
    "reversi": Reversi,
    "sevens": Sevens,
    "skull": Skull,
    "hanabi": Hanabi,
    "coup": Coup,
    "backgammon": Backgammon,
    "kalah": Kalah,
    "go_fish": GoFish,
    "nine_mens_morris": NineMensMorris,
    "the_game": TheGame,
}


def game_key(name_or_path: str) -> str:
    """'examples/hearts.rules' -> 'hearts'; 'ivanhoe' -> 'ivanhoe'."""
    return Path(name_or_path).stem


def make_thumb(game: str, seed=None) -> RuleOfThumb:
    """The rule-of-thumb player of a game (a bundled name or a rules file's path)."""
    key = game_key(game)
    if key not in PLAYERS:
        raise KeyError(f"no rule-of-thumb player for '{key}'; known: {', '.join(sorted(PLAYERS))}")
    return PLAYERS[key](seed)
