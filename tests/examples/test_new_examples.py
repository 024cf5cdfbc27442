"""Examples written with the newer constructs (simultaneous decisions, options of several
values, dice, grids): each checks, plays to its end with computer seats for many seeds
and every player count, and its key rules hold."""

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.agents.random_agent import RandomAgent

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name):
    path = EXAMPLES / f"{name}.rules"
    assert rulesdsl.check_file(path) == []  # no errors, no warnings
    return rulesdsl.load(str(path))


def play_out(state, seed, each_step=None, limit=20_000):
    """Computer seats (random agents, one per seat) play the game to its end."""
    agents = [RandomAgent(seed * 31 + q) for q in range(state.players)]
    steps = 0
    while not state.is_over:
        if each_step:
            each_step(state)
        actions = state.legal_actions()
        assert actions and len({a.label for a in actions}) == len(actions)
        state.apply(agents[state.to_move].choose(state))
        steps += 1
        assert steps < limit
    return state


def labels(s):
    return [a.label for a in s.legal_actions()]


# ---------------------------------------------------------------- Liar's Dice

def test_liars_dice_plays_to_the_end():
    game = load("liars_dice")
    for players in range(2, 7):
        for seed in range(6 if players > 3 else 15):
            def cups_stay_private(s):
                for q in range(players):
                    names = [n for n in s.view(q)["vars"] if n.startswith("cup")]
                    assert names == [f"cup[P{q + 1}]"]
            s = play_out(game.new_game(players, seed=seed), seed,
                         cups_stay_private if seed < 2 else None)
            alive = [q for q in range(players) if s.var(f"dice[P{q + 1}]") > 0]
            assert s.winners == alive and len(alive) == 1
            # every round but the last took one die: 5 per player, one left
            lost = sum(1 for line in s.log if "loses a die" in line)
            assert lost == 5 * players - s.var(f"dice[P{alive[0] + 1}]")


def showing(s, players, face):
    return sum(s.var(f"cup[P{q}]").count(face) for q in range(1, players + 1))


@pytest.mark.parametrize("seed", range(8))
def test_liars_dice_a_true_bid_costs_the_caller_a_false_one_the_bidder(seed):
    game = load("liars_dice")
    for extra, loser in ((0, 1), (1, 0)):  # the bid is exactly true, or one too many
        s = game.new_game(2, seed=seed)
        n = showing(s, 2, 5) + extra
        if n == 0:
            continue
        s.apply(f"bid {n} fives")
        s.apply("liar")
        assert s.var(f"dice[P{loser + 1}]") == 4 and s.var(f"dice[P{2 - loser}]") == 5
        assert s.log[-1] == f"{n - extra} dice show fives: P{loser + 1} loses a die"
        assert s.to_move == loser  # the loser starts the next round


def test_liars_dice_a_bid_must_raise_the_last():
    game = load("liars_dice")
    s = game.new_game(3, seed=1)
    first = labels(s)
    assert len(first) == 15 * 6 and first[0] == "bid 1 ones" and "liar" not in first
    s.apply("bid 4 threes")
    after = labels(s)
    assert after[:3] == ["bid 4 fours", "bid 4 fives", "bid 4 sixes"]
    assert "bid 4 threes" not in after and "bid 3 sixes" not in after
    assert after[-1] == "liar" and len(after) == 3 + 11 * 6 + 1
    assert s.view(1)["log"] == ["P1 chooses bid 4 threes"]  # bids are public, dice not
