"""The PettingZoo environment, tested with PettingZoo's own api_test on every game."""

import random
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import rulesdsl  # noqa: E402
from rulesdsl.integrations.pettingzoo import env  # noqa: E402
from _games import every_game, short  # noqa: E402

GAMES = every_game()


@pytest.mark.parametrize("name,players", GAMES, ids=[f"{short(g)}-{n}" for g, n in GAMES])
def test_api_test_passes(name, players):
    e = env(name, players=players)
    with warnings.catch_warnings():
        # a dict observation (observation + action_mask) is PettingZoo's own pattern for
        # masked actions; api_test warns about it for its classic games too
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=300)


def play_to_the_end(e, seed):
    """Play with random legal ids; check mask and labels at each step; return the rewards."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_iter=20_000):
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        labels = [a.label for a in e.state.legal_actions()]
        legal = np.flatnonzero(mask)
        # every legal label has exactly one id, and each id maps back onto it
        assert sorted(e.action_label(i) for i in legal) == sorted(labels)
        for other in e.possible_agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(legal)))
    assert not e.agents
    return total


@pytest.mark.parametrize("name,players", GAMES, ids=[f"{short(g)}-{n}" for g, n in GAMES])
def test_a_whole_game_maps_every_label_and_pays_the_winner(name, players):
    e = env(name, players=players, amount_slots=2000)  # room for every amount offered
    total = play_to_the_end(e, seed=3)
    assert list(total.values()) == e.state.payoffs
    winners = [f"player_{w}" for w in e.state.winners]
    if rulesdsl.load(name).cooperative:    # the team is paid alike: +1 won, -1 lost
        assert set(total.values()) == {1.0 if winners else -1.0}
        return
    assert abs(sum(total.values())) < 1e-9
    for a, r in total.items():
        assert (r > 0) == (a in winners) or len(winners) == players


def test_a_seat_sees_no_card_in_a_zone_it_cannot_see():
    e = env("ivanhoe", players=3)
    e.reset(seed=5)
    enc, st = e.encoder, e.state
    stride = enc.nid + 1
    for seat in range(3):
        vec = enc.encode(st, seat)
        for zi, cards in enumerate(st.zones):
            counts = vec[zi * stride: zi * stride + enc.nid]
            if st.can_see(zi, seat):
                assert sum(counts) == len(cards)
            else:
                assert sum(counts) == 0 and vec[zi * stride + enc.nid] == len(cards)
    hands = [st.zone("hand", seat=p) for p in range(3)]
    assert all(hands) and enc.encode(st, 0) != enc.encode(st, 1)


def test_the_layout_has_a_name_for_every_position():
    e = env("triumvirat")
    assert len(e.encoder.names()) == e.encoder.size
    assert "hand[P1]: red 7" in e.encoder.names() or any(
        n.startswith("hand[P1]: ") for n in e.encoder.names())


def test_an_illegal_id_is_refused_with_a_reason():
    import rulesdsl
    e = env("triumvirat")
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = e.state.to_json()
    with pytest.raises(rulesdsl.IllegalAction, match="not legal"):
        e.step(bad)
    assert e.state.to_json() == before


def test_amounts_past_the_last_slot_are_left_out_lowest_kept():
    e = env("intrige", players=3, amount_slots=4)
    e.reset(seed=2)
    while True:
        amounts = [o for o in e.state._pending()[1]
                   if e.actions.blocks[tuple(e.state.frames[-1][:2]) + (o[1],)].kind == "amount"]
        if len(amounts) > 4:
            break
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    legal = e.actions.legal(e.state)
    kept = [lab for i, lab in legal.items() if e.actions.by_id[i].kind == "amount"]
    lowest = sorted(amounts, key=lambda o: o[2])[:4]
    assert kept == [o[0] for o in lowest]
    assert "amount #1 (lowest first)" in e.actions.describe(min(
        i for i in legal if e.actions.by_id[i].kind == "amount"))


def test_same_seed_same_game():
    a, b = env("ivanhoe", players=2), env("ivanhoe", players=2)
    assert play_to_the_end(a, 11) == play_to_the_end(b, 11)
    assert a.state.history == b.state.history


@pytest.mark.parametrize("name,players", [("ivanhoe", 3), ("triumvirat", 2),
                                          ("intrige", 4)])
def test_the_observation_is_the_same_in_every_world_the_seat_cannot_tell_apart(name, players):
    """What the vector holds, the seat knows: resampling what it cannot see changes nothing."""
    e = env(name, players=players)
    e.reset(seed=4)
    rng = random.Random(4)
    for step in range(60):
        if e.state.is_over:
            break
        seat = e.state.to_move
        vec = e.encoder.encode(e.state, seat)
        for k in range(3):
            world = e.state.determinize(seat, k)
            assert e.encoder.encode(world, seat) == vec
            assert e.actions.legal(world) == e.actions.legal(e.state)
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))


def test_kuhn_pays_the_chips_won_and_lost():
    """Kuhn poker declares `payoff(p: player) = net[p]`: the rewards are the chips."""
    kuhn = str(Path(__file__).parent / "rules" / "kuhn_poker.rules")
    paid = set()
    for seed in range(40):
        total = play_to_the_end(env(kuhn, players=2), seed)
        assert sum(total.values()) == 0
        paid.add(max(total.values()))
    assert paid == {1.0, 2.0}   # an ante won, and a called bet won


def test_with_explicit_chance_the_environment_draws_the_deals_by_their_probability():
    """chance="explicit": each card dealt is drawn by the environment's own generator,
    seeded by reset; the same seed, the same game; Kuhn's six deals come alike."""
    kuhn = str(Path(__file__).parent / "rules" / "kuhn_poker.rules")
    e = env(kuhn, players=2, chance="explicit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # the dict observation, as above
        api_test(e, num_cycles=50)
    deals = []
    for seed in range(600):
        total = play_to_the_end(e, seed)
        assert sum(total.values()) == 0 and list(total.values()) == e.state.payoffs
        deals.append(tuple(e.state.history[:2]))     # the outcomes: P1's card, P2's
    counts = sorted(deals.count(d) for d in set(deals))
    assert len(counts) == 6 and counts[0] > 70 and counts[-1] < 130   # 100 each expected
    again = env(kuhn, players=2, chance="explicit")
    play_to_the_end(again, 17)
    play_to_the_end(e, 17)
    assert again.state.history == e.state.history
