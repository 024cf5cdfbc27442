"""Coup (examples/coup.rules): claims, challenges (the first who wants to: `break` in `ask
each`), blocks, and phases that give a value (did the claim stand?). It checks without
warnings, plays to its end at every player count, its rules hold in scenarios, and its
legal moves and positions match a reference written here, independently of the rules
file, over random games (the reference reads only the cards the court deals, which are
random)."""

import random
from collections import Counter
from pathlib import Path

import pytest

import rulesdsl
from _reference import follow, labels

PATH = Path(__file__).resolve().parents[2] / "examples" / "coup.rules"
ROLES = ["duke", "assassin", "captain", "ambassador", "contessa"]


@pytest.fixture(scope="module")
def game():
    assert rulesdsl.check_file(PATH) == []  # no errors, no warnings
    return rulesdsl.load(str(PATH))


def table(game, hands, coins=None):
    """A game whose hands (seat -> roles) and coins are as given; the court holds the rest
    (shuffled at set-up, so its order is the seed's)."""
    zones = {f"hand[P{p + 1}]": list(h) for p, h in enumerate(hands)}
    vars_ = {f"coins[P{p + 1}]": c for p, c in enumerate(coins or [])}
    return game.new_game(len(hands), 1, scenario={"zones": zones, "vars": vars_})


def play(s, *actions):
    for a in actions:
        s.apply(a)


# ---------------------------------------------------------------- whole games

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_coup_plays_to_the_end_with_one_player_left(game, players):
    for seed in range(5):
        s = game.new_game(players, seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        assert len(s.winners) == 1
        w = s.winners[0]
        assert all(len(s.zone(f"hand[P{q + 1}]")) == (q == w) * len(s.zone(f"hand[P{q + 1}]"))
                   for q in range(players))
        assert sum(len(s.zone(f"lost[P{q + 1}]")) for q in range(players)) == \
            2 * players - len(s.zone(f"hand[P{w + 1}]"))


# ---------------------------------------------------------------- scenarios

def test_a_true_claim_challenged_costs_the_challenger(game):
    s = table(game, [["duke", "captain"], ["contessa", "assassin"], ["duke", "ambassador"]])
    play(s, "tax", "challenge")
    # the duke is shown to everyone, then shuffled back for a new card
    assert s.view(2)["log"][-4:] == ["hand[P1] shows: duke", "hand[P1] -> court: 1 card",
                                     "court is shuffled", "court -> hand[P1]: 1 card"]
    assert len(s.zone("hand[P1]")) == 2
    assert s.to_move == 1 and s.question() == "P2, which influence do you lose?"
    play(s, "assassin")
    assert s.zone("lost[P2]") == ["assassin"] and s.var("coins", 0) == 5


def test_the_first_challenger_settles_it_and_the_others_are_not_asked(game):
    s = table(game, [["captain", "contessa"], ["ambassador", "assassin"],
                     ["duke", "ambassador"]])
    play(s, "tax")
    assert s.to_move == 1
    play(s, "challenge")  # P1 holds no duke: P3 is not asked
    assert s.to_move == 0 and s.question() == "P1, which influence do you lose?"
    assert "P1 does not hold the duke" in s.story(2)
    play(s, "contessa")
    assert s.var("coins", 0) == 2 and s.to_move == 1  # the tax failed; P2's turn


def test_unchallenged_claims_stand(game):
    s = table(game, [["captain", "contessa"], ["ambassador", "assassin"]])
    play(s, "tax", "decline")  # a bluff nobody called
    assert s.var("coins", 0) == 5


def test_foreign_aid_blocked_by_a_duke_claim(game):
    s = table(game, [["captain", "contessa"], ["ambassador", "assassin"],
                     ["duke", "ambassador"]])
    play(s, "foreign aid", "decline", "block")  # P2 lets it be, P3 blocks
    assert s.question() == "P1, challenge P3's claim of the duke?"
    play(s, "decline", "decline")
    assert s.var("coins", 0) == 2 and s.to_move == 1


def test_a_steal_blocked_with_a_false_captain_fails_the_block(game):
    s = table(game, [["captain", "contessa"], ["ambassador", "assassin"]], coins=[2, 5])
    play(s, "steal from P2", "decline")
    assert labels(s) == ["allow", "block with the ambassador", "block with the captain"]
    play(s, "block with the captain", "challenge")  # P2 holds no captain
    play(s, "assassin")
    assert (s.var("coins", 0), s.var("coins", 1)) == (4, 3)


def test_an_assassination_and_a_contessa(game):
    s = table(game, [["assassin", "duke"], ["contessa", "captain"]], coins=[3, 2])
    play(s, "assassinate P2", "decline", "block with the contessa", "decline")
    assert s.var("coins", 0) == 0 and s.zone("lost[P2]") == []  # coins paid stay paid


def test_ten_coins_must_coup(game):
    s = table(game, [["assassin", "duke"], ["contessa", "captain"], ["duke", "duke"]],
              coins=[10, 2, 2])
    assert labels(s) == ["coup P2", "coup P3"]
    play(s, "coup P3", "duke")
    assert s.zone("lost[P3]") == ["duke"] and s.var("coins", 0) == 3


def test_the_last_one_with_influence_wins(game):
    s = table(game, [["assassin", "duke"], ["contessa"]], coins=[7, 2])
    play(s, "coup P2", "contessa")
    assert s.is_over and s.winners == [0] and "P2 is out" in s.log


def test_exchange_draws_two_and_returns_two(game):
    s = table(game, [["assassin", "duke"], ["contessa", "captain"]])
    play(s, "exchange", "decline")
    assert len(s.zone("hand[P1]")) == 4 and s.question().startswith("P1, which card")
    play(s, labels(s)[0])
    play(s, labels(s)[0])
    assert len(s.zone("hand[P1]")) == 2 and len(s.zone("court")) == 11
    assert s.view(1)["zones"]["hand[P1]"] == {"count": 2}


# ---------------------------------------------------------------- reference

class Reference:
    """Coup from the rulebook as a Python generator of decisions: each `yield` is (seat,
    the sorted legal labels) and receives the label chosen. Cards dealt from the shuffled
    court are read from the engine (`deal`): the reference knows the rules, not the
    shuffles."""

    def __init__(self, state, players):
        self.state, self.n = state, players
        self.hands = [Counter(state.zone(f"hand[P{p + 1}]")) for p in range(players)]
        self.lost = [Counter() for _ in range(players)]
        self.coins = [2] * players

    def alive(self, p):
        return sum(self.hands[p].values()) > 0

    def rivals(self, p):
        return [(p + k) % self.n for k in range(1, self.n) if self.alive((p + k) % self.n)]

    def deal(self, p):
        """The hand as the engine dealt it: the drawn cards are the shuffle's."""
        self.hands[p] = Counter(self.state.zone(f"hand[P{p + 1}]"))

    def flow(self):
        p = 0
        while sum(self.alive(q) for q in range(self.n)) > 1:
            if self.alive(p):
                yield from self.turn(p)
            p = (p + 1) % self.n

    def actions(self, p):
        c, rivals = self.coins[p], self.rivals(p)
        if c >= 10:
            return [f"coup P{q + 1}" for q in rivals]
        out = ["income", "foreign aid", "tax", "exchange"]
        out += [f"steal from P{q + 1}" for q in rivals]
        if c >= 3:
            out += [f"assassinate P{q + 1}" for q in rivals]
        if c >= 7:
            out += [f"coup P{q + 1}" for q in rivals]
        return sorted(out)

    def turn(self, p):
        a = yield p, self.actions(p)
        if a == "income":
            self.coins[p] += 1
        elif a == "foreign aid":
            blocked = yield from self.duke_blocks(p)
            if not blocked:
                self.coins[p] += 2
        elif a.startswith("coup"):
            self.coins[p] -= 7
            yield from self.lose(int(a.split("P")[1]) - 1)
        elif a == "tax":
            if (yield from self.claim(p, "duke")):
                self.coins[p] += 3
        elif a.startswith("assassinate"):
            q = int(a.split("P")[1]) - 1
            self.coins[p] -= 3
            if (yield from self.claim(p, "assassin")) and self.alive(q):
                if not (yield from self.target_blocks(q, ["contessa"])):
                    yield from self.lose(q)
        elif a.startswith("steal"):
            q = int(a.split("P")[1]) - 1
            if (yield from self.claim(p, "captain")) and self.alive(q):
                if not (yield from self.target_blocks(q, ["captain", "ambassador"])):
                    n = min(2, self.coins[q])
                    self.coins[q] -= n
                    self.coins[p] += n
        elif a == "exchange":
            if (yield from self.claim(p, "ambassador")):
                yield from self.exchange(p)

    def claim(self, p, role):
        for q in self.rivals(p):
            if (yield q, ["challenge", "decline"]) == "challenge":
                if self.hands[p][role]:
                    self.deal(p)  # shown, shuffled back, a new card drawn
                    yield from self.lose(q)
                    return True
                yield from self.lose(p)
                return False
        return True

    def duke_blocks(self, p):
        for q in self.rivals(p):
            if (yield q, ["block", "decline"]) == "block":
                return (yield from self.claim(q, "duke"))
        return False

    def target_blocks(self, q, roles):
        a = yield q, sorted(["allow"] + [f"block with the {r}" for r in roles])
        if a == "allow":
            return False
        return (yield from self.claim(q, a.split()[-1]))

    def lose(self, q):
        if self.alive(q):
            a = yield q, sorted(+self.hands[q])
            self.hands[q][a] -= 1
            self.lost[q][a] += 1

    def exchange(self, p):
        self.deal(p)
        for _ in range(2):
            a = yield p, sorted(+self.hands[p])
            self.hands[p][a] -= 1

    def matches(self, s):
        assert [s.var("coins", p) for p in range(self.n)] == self.coins
        assert [Counter(s.zone(f"lost[P{p + 1}]")) for p in range(self.n)] == self.lost
        assert [sum((+h).values()) for h in self.hands] == \
            [len(s.zone(f"hand[P{p + 1}]")) for p in range(self.n)]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_legal_moves_and_positions_match_the_reference(game, players):
    actions = 0
    for seed in range(30):
        s = game.new_game(players, 200 + seed)
        ref = Reference(s, players)
        actions += follow(s, ref.flow(), random.Random(seed), ref.matches)
        assert s.is_over and s.winners == [p for p in range(players) if ref.alive(p)]
    assert actions > 300
