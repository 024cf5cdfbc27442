"""Amounts a seat cannot read, in its samples: the game played again from a start it
guessed, with the moves it saw, makes of them what the public moves decide (No Thanks: the
chips each player paid aloud to pass or took with a card), not their starting values."""

import random
from pathlib import Path

import rulesdsl

NO_THANKS = Path(__file__).resolve().parents[2] / "examples" / "no_thanks.rules"


def played(game, players, seed, moves):
    st = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if st.is_over:
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_the_chips_paid_aloud_are_known_in_every_sample():
    game = rulesdsl.load(str(NO_THANKS))
    checked = moved = 0
    for seed in range(6):
        st = played(game, 3, seed, 25 + 7 * seed)
        if st.is_over:
            continue
        for seat in range(3):
            for q in range(3):
                real = st.var(f"chips[P{q + 1}]")
                moved += real != 11
                for k in range(3):
                    assert st.determinize(seat, k).var(f"chips[P{q + 1}]") == real
                checked += 1
    assert checked >= 27 and moved  # the chips did change from the start


def test_a_sample_of_a_sample_keeps_the_amounts():
    game = rulesdsl.load(str(NO_THANKS))
    st = played(game, 3, 4, 30)
    d = st.determinize(1, 5)
    again = d.determinize(1, 9)
    assert [again.var(f"chips[P{q}]") for q in (1, 2, 3)] == \
        [st.var(f"chips[P{q}]") for q in (1, 2, 3)]
