"""`State.payoffs`: what a finished game pays each seat. Without a `payoff` declaration, by
who won (zero-sum; a team's alike); with one, what it says. Over random games of a zero-sum
game the payoffs sum to 0."""

import random
from pathlib import Path

import pytest

import rulesdsl

HERE = Path(__file__).parent
ENDS = str(HERE / "rules" / "ends.rules")
KUHN = str(HERE.parent / "integrations" / "rules" / "kuhn_poker.rules")
THIRD = 1.0 / 3


def finish(ending: str, players: int, source: str = ENDS):
    st = rulesdsl.load(source).new_game(players=players, seed=1)
    assert st.payoffs == [0.0] * players  # nothing is paid before the end
    st.apply(ending)
    return st.payoffs


@pytest.mark.parametrize("ending,players,paid", [
    ("first wins", 2, [1.0, -1.0]),
    ("first wins", 4, [1.0, -THIRD, -THIRD, -THIRD]),
    # three winners share what the one loser stakes
    ("all but the last win", 4, [1 / 9, 1 / 9, 1 / 9, -THIRD]),
    ("all but the last win", 3, [0.25, 0.25, -0.5]),
    ("nobody wins", 3, [0.0, 0.0, 0.0]),
    ("everybody wins", 3, [0.0, 0.0, 0.0]),
    # one player: a team of one
    ("first wins", 1, [1.0]),
    ("nobody wins", 1, [-1.0]),
])
def test_without_a_payoff_the_game_pays_by_who_won(ending, players, paid):
    assert finish(ending, players) == pytest.approx(paid)
    assert sum(paid) == pytest.approx(0.0) or players == 1


@pytest.mark.parametrize("ending,paid", [("everybody wins", [1.0] * 3),
                                         ("nobody wins", [-1.0] * 3)])
def test_a_cooperative_game_pays_every_seat_alike(tmp_path, ending, paid):
    team = tmp_path / "team.rules"
    team.write_text(Path(ENDS).read_text().replace("players 1..4", "players 1..4 cooperative"))
    assert finish(ending, 3, str(team)) == paid


def test_a_declared_payoff_is_paid_per_seat(tmp_path):
    text = Path(ENDS).read_text().replace(
        'flow main', 'flow main\npayoff(p: player) = if p == seat(1) then 7 else -2\n')
    path = tmp_path / "paid.rules"
    path.write_text(text)
    # whoever won: the file's numbers
    assert finish("first wins", 3, str(path)) == [-2.0, 7.0, -2.0]


def random_game(game, seed: int):
    st = game.new_game(players=2, seed=seed)
    rng = random.Random(seed)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_kuhn_pays_the_chips_and_they_sum_to_zero():
    seen, kuhn = set(), rulesdsl.load(KUHN)
    for seed in range(200):
        st = random_game(kuhn, seed)
        paid = st.payoffs
        assert sum(paid) == 0 and paid == [float(s) for s in st.scores]
        assert paid[st.winners[0]] > 0
        seen.add(max(paid))
    assert seen == {1.0, 2.0}  # an ante won, and a called bet won


def test_win_lose_payoffs_sum_to_zero_over_random_games():
    game = rulesdsl.load("triumvirat")
    for seed in range(30):
        st = random_game(game, seed)
        assert sum(st.payoffs) == pytest.approx(0.0)
        assert sorted(st.payoffs) in ([-1.0, 1.0], [0.0, 0.0])
