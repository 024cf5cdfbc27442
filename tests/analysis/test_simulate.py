"""The simulator and the agents, through the public API.

The first half uses a tiny fake game that speaks the public State API, so the statistics
are checked exactly; the second half plays the bundled Triumvirat.
"""

from __future__ import annotations

import json

import pytest

import rulesdsl
from rulesdsl.agents import RandomAgent, agent_names, make_agent
from rulesdsl.lang.errors import RulesError
from rulesdsl.analysis.simulate import SimResult, agent_seed, parse_seats, simulate


# ---------------------------------------------------------------- a fake game


class FakeAction:
    def __init__(self, label):
        self.label = label


class FakeState:
    """Players take turns saying a number 1-3; the game ends at `length` actions. Seat
    `seed % (players + 1)` wins, or nobody when that is `players`. Fails on `fail_seed`."""

    def __init__(self, players, seed, length, fail_seed=None, endless=False):
        self.players = players
        self.seed = seed
        self.length = length
        self.fail_seed = fail_seed
        self.endless = endless
        self.history = []
        self.log = []

    @property
    def is_over(self):
        return not self.endless and len(self.history) >= self.length

    @property
    def to_move(self):
        return None if self.is_over else len(self.history) % self.players

    def legal_actions(self):
        return [FakeAction(str(k)) for k in (1, 2, 3)]

    def apply(self, action):
        if self.seed == self.fail_seed and len(self.history) == 2:
            raise RulesError("R123", "the rules ran off the end of the deck")
        label = action.label if isinstance(action, FakeAction) else action
        self.history.append(label)

    @property
    def winners(self):
        if not self.is_over:
            return []
        w = self.seed % (self.players + 1)
        return [] if w == self.players else [w]

    @property
    def scores(self):
        return [len(self.history) if s == 0 else 0 for s in range(self.players)]


class FakeGame:
    name = "Fake"
    min_players = 2
    max_players = 4
    options = {}

    def __init__(self, length=4, fail_seed=None, endless=False):
        self.length = length
        self.fail_seed = fail_seed
        self.endless = endless

    def new_game(self, players=2, seed=0, scenario=None):
        return FakeState(players, seed, self.length + seed % 3, self.fail_seed, self.endless)


def test_counts_wins_draws_and_lengths_exactly():
    r = simulate(FakeGame(), players=2, games=6, seed=0)
    assert isinstance(r, SimResult)
    # seeds 0..5: winner seed % 3 -> 0, 1, draw, 0, 1, draw
    assert r.wins == [2, 2]
    assert r.draws == 2
    # lengths 4 + seed % 3 -> 4, 5, 6, 4, 5, 6
    assert r.total_actions == 30
    assert r.mean_length == 5.0
    assert r.longest == 6 and r.longest_seed == 2
    assert r.shortest == 4
    assert r.mean_scores == [5.0, 0.0]
    assert r.games_per_second > 0 and r.actions_per_second > 0
    assert r.seats == ["random", "random"]


def test_players_default_to_the_minimum():
    r = simulate(FakeGame(), games=1)
    assert r.players == 2 and len(r.wins) == 2


def test_table_and_dict():
    r = simulate(FakeGame(), players=3, games=8, seed=5)
    text = r.table()
    assert "Fake" in text and "wins" in text and "games/s" in text and "actions/s" in text
    assert "draws" in text and "mean actions" in text and "longest" in text
    seat_rows = [l for l in text.splitlines() if l.split()[:2] in (["0", "random"],
                                                                   ["1", "random"],
                                                                   ["2", "random"])]
    assert len(seat_rows) == 3
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["games"] == 8 and d["players"] == 3 and len(d["wins"]) == 3
    assert sum(d["wins"]) + d["draws"] == 8
    assert {"games_per_second", "actions_per_second", "mean_length", "longest"} <= set(d)


def test_rules_error_names_game_number_and_seed():
    with pytest.raises(RulesError) as info:
        simulate(FakeGame(fail_seed=13), players=2, games=10, seed=10)
    e = info.value
    assert e.code == "R123"
    assert "game 4 of 10" in e.message and "seed 13" in e.message
    assert "ran off the end of the deck" in e.message
    assert any("--seed 13" in h for h in e.hints)


def test_a_game_that_never_ends_is_reported_with_its_seed():
    with pytest.raises(RulesError) as info:
        simulate(FakeGame(endless=True), players=2, games=3, seed=7, max_actions=50)
    assert info.value.code == "C010"
    assert "seed 7" in info.value.message


def test_seats_are_checked():
    with pytest.raises(RulesError) as info:
        simulate(FakeGame(), players=2, games=1, seats="random,clever")
    assert info.value.code == "C002"
    assert "clever" in info.value.message and "random" in info.value.message
    with pytest.raises(RulesError):
        simulate(FakeGame(), players=2, games=1, seats="random,random,random")
    assert parse_seats("random", 3) == ["random"] * 3
    assert parse_seats(None, 2) == ["random", "random"]
    assert parse_seats(["random", "random"], 2) == ["random", "random"]


def test_games_must_be_positive():
    with pytest.raises(RulesError):
        simulate(FakeGame(), players=2, games=0)


def test_random_agent_is_deterministic_and_uniform():
    state = FakeState(2, 0, 10)
    a, b = RandomAgent(42), RandomAgent(42)
    picks_a = [a.choose(state).label for _ in range(200)]
    picks_b = [b.choose(state).label for _ in range(200)]
    assert picks_a == picks_b
    assert set(picks_a) == {"1", "2", "3"}
    assert [RandomAgent(43).choose(state).label for _ in range(200)] != picks_a


def test_make_agent():
    assert "random" in agent_names()
    agent = make_agent("random", 5)
    assert isinstance(agent, RandomAgent)
    with pytest.raises(RulesError) as info:
        make_agent("alphazero", 1)
    assert info.value.code == "C002"
    assert "random" in info.value.message and "alphazero" in info.value.message


def test_agent_seeds_differ_per_seat_and_game():
    seeds = {agent_seed(g, s) for g in range(20) for s in range(4)}
    assert len(seeds) == 80
    assert agent_seed(3, 1) == agent_seed(3, 1)


# ---------------------------------------------------------------- the bundled game


@pytest.fixture(scope="module")
def triumvirat():
    return rulesdsl.load("triumvirat")


def _stable(d):
    return {k: v for k, v in d.items()
            if k not in ("seconds", "games_per_second", "actions_per_second")}


def test_simulate_triumvirat(triumvirat):
    r = simulate(triumvirat, players=2, games=5, seed=0)
    assert r.games == 5 and r.players == 2
    assert sum(r.wins) + r.draws >= 5
    assert len(r.wins) == 2 and all(w >= 0 for w in r.wins)
    assert r.mean_length > 0 and r.longest >= r.mean_length >= r.shortest > 0
    assert "games/s" in r.table()


def test_simulate_is_deterministic(triumvirat):
    a = simulate(triumvirat, players=2, games=4, seed=11).to_dict()
    b = simulate(triumvirat, players=2, games=4, seed=11).to_dict()
    assert _stable(a) == _stable(b)


def test_a_simulated_game_replays_from_its_seed(triumvirat):
    """Game i of a simulation is the game dealt with seed+i: same length when replayed."""
    whole = simulate(triumvirat, players=2, games=3, seed=20)
    lengths = [simulate(triumvirat, players=2, games=1, seed=20 + i).total_actions
               for i in range(3)]
    assert sum(lengths) == whole.total_actions
    assert max(lengths) == whole.longest


def test_simulate_by_name_with_options():
    short = simulate("triumvirat", players=2, games=6, seed=0, options={"games_to_win": 1})
    long = simulate("triumvirat", players=2, games=6, seed=0, options={"games_to_win": 3})
    assert short.mean_length < long.mean_length


def test_random_agent_plays_legal_actions(triumvirat):
    state = triumvirat.new_game(players=2, seed=3)
    agents = [RandomAgent(1), RandomAgent(2)]
    n = 0
    while not state.is_over:
        legal = {a.label for a in state.legal_actions()}
        action = agents[state.to_move].choose(state)
        assert action.label in legal
        state.apply(action)
        n += 1
    assert n == len(state.history)


def test_a_cooperative_game_is_won_or_lost_together():
    """The Game (players win or lose together): no draws and no seat against seat, but the
    games the table won and lost, with an interval."""
    from pathlib import Path
    game = rulesdsl.load(str(Path(__file__).parents[2] / "examples" / "the_game.rules"))
    result = simulate(game, players=3, games=20, seed=0)
    assert result.cooperative and result.won_together == 20 - result.draws
    table = result.table()
    assert "won together:" in table and "lost together:" in table
    assert "draws:" not in table and "no seat is compared" in table
    assert json.loads(json.dumps(result.to_dict()))["cooperative"] is True
    plain = simulate("triumvirat", games=2, seed=0)
    assert not plain.cooperative and plain.won_together is None and "draws:" in plain.table()
