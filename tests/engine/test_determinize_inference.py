"""determinize learns from the others' earlier choices (rulesdsl/engine/inference.py), on
examples/hearts.rules: a player who did not follow suit is never dealt that suit again in
a sample; the inference reads only what the seat saw (two real games that look the same
to it infer the same, and a peeking variant would not); samples stay consistent with
every void the log shows."""

import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine import inference, knowledge
from rulesdsl.engine.determinize import Knowledge
from rulesdsl.engine.inference import exclusions

HEARTS = str(Path(__file__).resolve().parents[2] / "examples" / "hearts.rules")
RANKS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
         "queen", "king", "ace"]


def cards(suit, lo, hi):
    return [f"{r} of {suit}" for r in RANKS[lo:hi]]


def hands(swap=None):
    """P2 holds no club; P1 leads the two of clubs. `swap`: two cards of P2 and P3 that
    are never played, exchanged (a game that looks the same to P1)."""
    h = {
        "hand[P1]": cards("clubs", 0, 4) + cards("diamonds", 6, 10) + cards("spades", 0, 5),
        "hand[P2]": cards("diamonds", 0, 6) + cards("spades", 5, 9) + cards("hearts", 0, 3),
        "hand[P3]": cards("clubs", 4, 10) + cards("diamonds", 10, 13) + cards("hearts", 3, 7),
        "hand[P4]": cards("clubs", 10, 13) + cards("spades", 9, 13) + cards("hearts", 7, 13),
    }
    if swap:
        a, b = swap
        h["hand[P2]"][h["hand[P2]"].index(a)] = b
        h["hand[P3]"][h["hand[P3]"].index(b)] = a
    return h


def void_game(swap=None):
    """After the first trick, in which P2 showed it has no club: P4 to lead."""
    game = rulesdsl.load(HEARTS)
    s = game.new_game(seed=5, scenario={"zones": hands(swap), "vars": {"hand_no": 3}})
    for label in ["two of clubs", "five of diamonds", "six of clubs", "queen of clubs"]:
        s.apply(label)
    return s


def clubs_in(state, zone):
    return [c for c in state.zone(zone) if c.endswith("clubs")]


def test_a_player_who_did_not_follow_suit_is_dealt_none_of_it():
    s = void_game()
    assert s.to_move == 3
    for seat in (0, 1, 2, 3):  # every seat saw the void (plays are public)
        if seat == 1:
            continue
        for k in range(25):
            assert clubs_in(s.determinize(seat, k), "hand[P2]") == []
    # without the inference, samples do give P2 clubs: the assertion above can fail
    plain = [clubs_in(Knowledge(s, 0, infer=False).sample(k), "hand[P2]") for k in range(25)]
    assert any(plain)


def test_the_exclusions_name_the_unseen_clubs_and_only_them():
    s = void_game()
    ex = exclusions(s, 0)
    hand2 = s.prog.zone_names.index("hand[P2]")
    labels = sorted(s.prog.card_label[c] for c, zs in ex.items() if hand2 in zs)
    # P1 holds three clubs and saw four played: the seven others are unseen
    assert labels == sorted(cards("clubs", 5, 10) + cards("clubs", 11, 13))
    assert all(s.loc[c] not in zs for c, zs in ex.items())  # never rules out the truth


def test_a_sample_carries_the_exclusions_and_samples_again_alike():
    s = void_game()
    d = s.determinize(0, 3)
    assert exclusions(d, 0) == exclusions(s, 0)
    assert d.determinize(0, 9).zones == s.determinize(0, 9).zones
    assert exclusions(d, 2) == {}  # a sample for P1 tells P3 nothing


def test_the_inference_reads_no_secret():
    """Two real games P1 cannot tell apart (P2 and P3 hold two unplayed cards the other
    way round) infer the same and give the same samples."""
    a = void_game()
    b = void_game(swap=("nine of spades", "queen of diamonds"))
    assert a.view(0) == b.view(0) and a.zones != b.zones
    assert exclusions(a, 0) == exclusions(b, 0)
    for k in range(5):
        assert a.determinize(0, k).zones == b.determinize(0, k).zones


def test_a_peeking_inference_would_be_caught(monkeypatch):
    """The same pair catches an inference that looks at the real past state."""
    def peek(then, seat, q, label, used):
        z = then.prog.zone_names.index(f"hand[P{q + 1}]")
        return {z: frozenset(c for c in range(len(then.loc)) if then.loc[c] != z)}, {}
    monkeypatch.setattr(inference, "_rule_out", peek)
    monkeypatch.setattr(inference, "_cache", type(inference._cache)())
    a = void_game()
    b = void_game(swap=("nine of spades", "queen of diamonds"))
    assert exclusions(a, 0) != exclusions(b, 0)


def voids(state):
    """(player, suit) for every player who did not follow suit in the hand being played,
    read from the full log: these must hold in every sample of any seat."""
    prog = state.prog
    trick = prog.zone_names.index("trick")
    out = set()
    led = None
    for e in state.events:
        if isinstance(e, str) or e[0] != "move":
            continue
        cards_, src, dst = e[1], e[2], e[3]
        if prog.zone_names[dst].startswith("hand"):
            out = set()  # a new deal or the passed cards: start again
        if dst == trick:
            suit = prog.card_label[cards_[0]].split(" of ")[1]
            if led is None:
                led = suit
            elif suit != led:
                out.add((prog.zone_names[src], led))
        elif src == trick:
            led = None
    return out


@pytest.mark.parametrize("seed", range(3))
def test_samples_stay_consistent_with_every_void(seed):
    game = rulesdsl.load(HEARTS)
    rnd = random.Random(seed)
    checked = 0
    for g in range(4):
        s = game.new_game(seed=rnd.randrange(1 << 30))
        for _ in range(rnd.randrange(20, 60)):
            s.apply(rnd.choice(s.legal_actions()))
        shown = voids(s)
        seat = rnd.randrange(4)
        for k in range(4):
            d = s.determinize(seat, k)
            for zone, suit in shown:
                if zone != f"hand[P{seat + 1}]":
                    assert not [c for c in d.zone(zone) if c.endswith(suit)], (zone, suit)
                    checked += 1
    assert checked


def test_the_deal_meets_every_constraint_that_can_be_met(monkeypatch):
    """Random constraints around a planted deal: the deal always finds one that meets
    them (cards already dealt are shifted to make room), where dealing greedily alone
    sometimes gets stuck."""
    rnd = random.Random(4)
    greedy_stuck = 0
    for trial in range(300):
        zones = list(range(rnd.randint(2, 5)))
        cards_ = list(range(rnd.randint(4, 14)))
        planted = {c: rnd.choice(zones) for c in cards_}
        k = Knowledge.__new__(Knowledge)
        k.pool = cards_
        k.hidden_zones = [z for z in zones if any(planted[c] == z for c in cards_)]
        k.slots = {z: sum(1 for c in cards_ if planted[c] == z) for z in k.hidden_zones}
        k.allowed = {c: tuple(sorted({planted[c]} | {z for z in k.hidden_zones
                                                     if rnd.random() < 0.4}))
                     for c in cards_}
        k.unconstrained = {c: tuple(k.hidden_zones) for c in cards_}
        k._group_cache = {}
        out = k._deal(random.Random(trial), k.allowed, False)
        assert out is not None
        assert all(z in k.allowed[c] for z, cs in out.items() for c in cs)
        assert {z: len(cs) for z, cs in out.items()} == k.slots
        with monkeypatch.context() as m:
            m.setattr(knowledge, "_make_room", lambda *args: None)
            greedy_stuck += k._deal(random.Random(trial), k.allowed, False) is None
    assert greedy_stuck
