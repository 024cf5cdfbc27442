"""determinize learns what the others' choices show they hold (rulesdsl/engine/inference.py),
on tests/engine/rules/ask_rank.rules, a small Go Fish: asking for a rank is legal only while
you hold a card of that rank, so every sample gives the asker one, for as long as no card
has left its hand out of sight."""

import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine import inference
from rulesdsl.engine.determinize import Knowledge
from rulesdsl.engine.inference import inferences

ASK = str(Path(__file__).resolve().parent / "rules" / "ask_rank.rules")


def game_at(seed: int, moves: int):
    game = rulesdsl.load(ASK)
    s = game.new_game(players=3, seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        if s.is_over:
            break
        s.apply(rnd.choice(s.legal_actions()))
    return s


def shown_ranks(state):
    """(hand, rank) for every ask whose rank the asker must still hold, read from the full
    log: since the ask, nothing left the asker's hand but books of other ranks (any other
    move out of it is one the other seats cannot follow, or may take that rank)."""
    prog = state.prog
    out = {}
    for e in state.events:
        if isinstance(e, str):
            continue
        if e[0] == "choice":
            out[(f"hand[P{e[1] + 1}]", e[2].removeprefix("ask for "))] = True
        elif e[0] == "move":
            src, dst = prog.zone_names[e[2]], prog.zone_names[e[3]]
            rank = prog.card_label[e[1][0]].split(" of ")[0]
            for hand, r in list(out):
                if hand == src and not (dst.startswith("books") and rank != r):
                    del out[(hand, r)]
    return set(out)


def holds(state, hand, rank):
    return any(c.startswith(rank + " of") for c in state.zone(hand))


@pytest.mark.parametrize("seed", range(4))
def test_every_sample_gives_an_asker_the_rank_it_asked_for(seed):
    checked = 0
    unaware = 0
    for moves in (4, 9, 15):
        s = game_at(seed, moves)
        shown = shown_ranks(s)
        for seat in range(3):
            for hand, rank in shown:
                if hand == f"hand[P{seat + 1}]":
                    continue
                assert holds(s, hand, rank)  # the truth, as the oracle reads it
                for k in range(12):
                    assert holds(s.determinize(seat, k), hand, rank), (seat, hand, rank, k)
                    checked += 1
                    plain = Knowledge(s, seat, infer=False).sample(k)
                    unaware += not holds(plain, hand, rank)
    assert checked
    # without the inference, samples do take the rank away: the assertion above can fail
    assert unaware


def test_the_requirement_names_the_unseen_cards_of_the_rank():
    s = game_at(1, 1)
    asked = s.history[0].removeprefix("ask for ")
    prog = s.prog
    for seat in (1, 2):
        _, required = inferences(s, seat)
        hand1 = prog.zone_names.index("hand[P1]")
        [(zone, cards)] = required
        assert zone == hand1
        mine = {prog.card_label[c] for c in s.zones[prog.zone_names.index(f"hand[P{seat + 1}]")]}
        labels = {prog.card_label[c] for c in cards}
        expect = {f"{asked} of {suit}" for suit in ("clubs", "diamonds", "hearts", "spades")}
        # cards of that rank the seat holds or has seen handed over are not among them
        assert labels <= expect - mine and labels


def test_a_requirement_lapses_when_cards_leave_the_hand_unseen():
    """P1 asks; later P3 asks P1 and takes cards out of P1's hand: P2 could not follow
    which, so it no longer requires anything of P1's hand from that ask."""
    for seed in range(40):
        s = game_at(seed, 0)
        first = s.legal_actions()[0].label
        s.apply(first)
        hand1 = s.prog.zone_names.index("hand[P1]")
        before = [z for z, _ in inferences(s, 1)[1]]
        assert hand1 in before
        s.apply(s.legal_actions()[0])  # P2 asks P3
        if s.is_over:
            continue
        size = len(s.zones[hand1])
        rank = None
        for a in s.legal_actions():  # P3 asks P1 for a rank P1 holds
            r = a.label.removeprefix("ask for ")
            if any(s.prog.card_label[c].startswith(r + " of") for c in s.zones[hand1]):
                rank = a.label
                break
        if rank is None:
            continue
        s.apply(rank)
        assert len(s.zones[hand1]) < size
        assert hand1 not in [z for z, _ in inferences(s, 1)[1]]
        return
    pytest.fail("no game where P3 took cards from P1")


def test_samples_carry_the_requirements_and_sample_again_alike():
    s = game_at(2, 6)
    for seat in range(3):
        d = s.determinize(seat, 3)
        assert inferences(d, seat) == inferences(s, seat)
        assert d.determinize(seat, 8).zones == s.determinize(seat, 8).zones


GAMES = ["triumvirat", "ivanhoe", ASK]


@pytest.mark.parametrize("name", GAMES, ids=lambda n: Path(n).stem)
def test_what_is_required_is_true(name):
    """Along random games, every requirement any seat infers holds in the real state, and
    so does every exclusion. In Triumvirat a probe state that gives the answering player
    a card of the led colour makes their discard illegal for a reason outside the zone
    being tested; taking that card out of the hand is not evidence about the zone."""
    game = rulesdsl.load(name)
    found = 0
    for seed in range(2):
        st = game.new_game(players=min(game.max_players, 3), seed=seed)
        rnd = random.Random(seed)
        for i in range(96):
            if st.is_over:
                break
            st.apply(rnd.choice(st.legal_actions()))
            if i % 6:
                continue
            for seat in range(st.prog.nplayers):
                excluded, required = inferences(st, seat)
                for zone, cards in required:
                    assert any(st.loc[c] == zone for c in cards), (seed, i, seat)
                    found += 1
                assert not [c for c, zones in excluded.items() if st.loc[c] in zones]
    if name != "triumvirat":
        assert found


def look_alike(swap: bool):
    """P1 asks for aces (P2 hands one over), then P2 asks for fives (P3 hands one over).
    `swap`: P1's six of clubs and P2's seven of hearts, never asked for, change hands, a
    game that looks the same to P3."""
    one = ["ace of clubs", "two of clubs", "three of clubs", "six of clubs", "four of hearts"]
    two = ["ace of hearts", "five of clubs", "five of hearts", "seven of hearts",
           "four of spades"]
    if swap:
        one[3], two[3] = two[3], one[3]
    three = ["two of hearts", "three of hearts", "five of spades", "four of diamonds",
             "three of spades"]
    game = rulesdsl.load(ASK)
    s = game.new_game(players=3, seed=1, scenario={"zones": {
        "hand[P1]": one, "hand[P2]": two, "hand[P3]": three}})
    s.apply("ask for ace")
    s.apply("ask for five")
    return s


def test_the_requirements_read_no_secret():
    a, b = look_alike(False), look_alike(True)
    assert a.view(2) == b.view(2) and a.zones != b.zones
    _, required = inferences(a, 2)
    assert len(required) == 2
    assert inferences(a, 2) == inferences(b, 2)
    for k in range(5):
        assert a.determinize(2, k).zones == b.determinize(2, k).zones


def test_a_peeking_positive_inference_would_be_caught(monkeypatch):
    """The same pair catches an inference that reads the chooser's real hand."""
    def peek(then, seat, q, label, used):
        z = then.prog.zone_names.index(f"hand[P{q + 1}]")
        return {}, {z: frozenset(then.zones[z])}
    monkeypatch.setattr(inference, "_rule_out", peek)
    monkeypatch.setattr(inference, "_cache", type(inference._cache)())
    assert inferences(look_alike(False), 2) != inferences(look_alike(True), 2)
