"""The Gymnasium single-agent environment: one seat, the others played by rulesdsl agents;
and the training example of docs/tools.md (tabular Monte Carlo on Kuhn poker) learns."""

import random
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils import seeding  # noqa: E402

import rulesdsl  # noqa: E402
from rulesdsl.integrations.gymnasium_env import SingleAgentEnv  # noqa: E402
from _games import ROOT  # noqa: E402

KUHN = str(Path(__file__).parent / "rules" / "kuhn_poker.rules")


@pytest.mark.parametrize("game,seat,opponent", [
    (KUHN, 1, "random"),
    (str(ROOT / "examples" / "connect_four.rules"), 0, "greedy"),
    ("ivanhoe", 2, ["random", "greedy"]),
])
def test_a_seat_plays_whole_games_against_agents(game, seat, opponent):
    env = SingleAgentEnv(game, seat=seat, opponent=opponent,
                         players=3 if game == "ivanhoe" else None)
    rng = np.random.default_rng(0)
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        assert env.observation_space.contains(obs)
        terminated, total = False, 0.0
        while not terminated:
            assert env.state.to_move == seat
            legal = np.flatnonzero(env.action_masks())
            assert sorted(env.action_label(i) for i in legal) == \
                sorted(a.label for a in env.state.legal_actions())
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            total += reward
        assert env.state.is_over
        winners = env.state.winners
        assert total == env.state.payoffs[seat]
        if len(winners) == 1:       # a shared win or a draw pays by its own rule
            if game == KUHN:        # its payoff: the chips won or lost
                assert (total > 0) == (seat in winners) and abs(total) in (1.0, 2.0)
            else:
                assert total == (1.0 if seat in winners else -1.0 / (env.players - 1))


def test_the_same_seed_plays_the_same_game():
    def play(seed):
        env = SingleAgentEnv(KUHN, seat=0, opponent="ismcts:iterations=20")
        env.reset(seed=seed)
        while not env.state.is_over:
            env.step(int(np.flatnonzero(env.action_masks())[0]))
        return env.state.history
    assert play(4) == play(4)


def test_an_id_the_mask_refuses_is_refused_and_nothing_changes():
    env = SingleAgentEnv(KUHN)
    env.reset(seed=1)
    before = env.state.to_json()
    bad = int(np.flatnonzero(~env.action_masks())[0]) if (~env.action_masks()).any() else 99
    with pytest.raises((rulesdsl.IllegalAction, IndexError)):
        env.step(bad)
    assert env.state.to_json() == before


def mean_reward(env, policy, episodes, seed):
    total = 0.0
    for k in range(episodes):
        obs, _ = env.reset(seed=seed + k)
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(policy(obs))
            total += reward
    return total / episodes


def train_kuhn(episodes=3000, seed=0):
    """The example of docs/tools.md: every-visit Monte Carlo control, epsilon-greedy over
    the legal ids, a table keyed by the observation."""
    env = SingleAgentEnv(KUHN, seat=0, opponent="random")
    rng = random.Random(seed)
    value, visits = defaultdict(float), defaultdict(int)

    def greedy(obs, epsilon=0.0):
        legal = np.flatnonzero(obs["action_mask"])
        if rng.random() < epsilon:
            return int(rng.choice(legal))
        key = obs["observation"].tobytes()
        return int(max(legal, key=lambda a: value[key, a]))

    for k in range(episodes):
        obs, _ = env.reset(seed=k)
        seen, done, reward = [], False, 0.0
        while not done:
            action = greedy(obs, epsilon=0.2)
            seen.append((obs["observation"].tobytes(), action))
            obs, reward, done, _, _ = env.step(action)
        for key in seen:            # the return is the final reward: no discount
            visits[key] += 1
            value[key] += (reward - value[key]) / visits[key]
    return env, greedy


def test_tabular_monte_carlo_learns_kuhn_against_a_random_opponent():
    env, greedy = train_kuhn()
    rng = np.random.default_rng(1)
    trained = mean_reward(env, greedy, 1000, seed=100_000)
    uniform = mean_reward(env, lambda o: int(rng.choice(np.flatnonzero(o["action_mask"]))),
                          1000, seed=100_000)
    assert trained > uniform + 0.15, (trained, uniform)


def test_with_explicit_chance_the_deals_are_drawn_with_the_environments_np_random():
    """chance="explicit": each card dealt is a random event the environment draws with its
    own np_random; the same seed deals the same, and the six deals all come up."""
    def deal(env):
        return tuple(env.state.history[:2])

    env = SingleAgentEnv(KUHN, seat=0, chance="explicit")
    deals = set()
    for seed in range(40):
        env.reset(seed=seed)
        deals.add(deal(env))
        assert env.state.chance is not None and not env.state.is_chance
    assert len(deals) == 6 and all(len(set(d)) == 2 for d in deals)
    env.reset(seed=5)
    first = deal(env)
    env.reset(seed=5)
    assert deal(env) == first
    # the deal is drawn with the wrapper's own generator: after the game's seed, it moved on
    env.reset(seed=5)
    fresh, _ = seeding.np_random(5)
    fresh.integers(1 << 31)                             # the game's seed, and nothing else
    assert env.np_random.bit_generator.state != fresh.bit_generator.state
    plain = SingleAgentEnv(KUHN, seat=0)                # the engine draws: nothing more
    plain.reset(seed=5)
    assert plain.np_random.bit_generator.state == fresh.bit_generator.state
