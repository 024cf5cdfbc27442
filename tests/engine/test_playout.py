"""state.playout: random play without Action objects, the same as choosing by index."""

from __future__ import annotations

import random

import pytest

import rulesdsl


@pytest.mark.parametrize("name,players", [("triumvirat", 2), ("ivanhoe", 3),
                                          ("examples/reversi.rules", 2)])
def test_playout_plays_what_choosing_by_index_plays(name, players):
    game = rulesdsl.load(name)
    a = game.new_game(players=players, seed=4)
    b = game.new_game(players=players, seed=4)
    played = a.playout(random.Random(9), 60)
    rng = random.Random(9)
    for _ in range(60):
        if b.is_over:
            break
        acts = b.legal_actions()
        b.apply(acts[rng.randrange(len(acts))])
    assert played == len(b.history) <= 60
    assert list(a.history) == list(b.history)
    assert a.to_json() == b.to_json()


def test_playout_to_the_end_and_after():
    game = rulesdsl.load("triumvirat")
    st = game.new_game(players=2, seed=1)
    n = st.playout(random.Random(1))
    assert st.is_over and n == len(st.history) > 0
    assert st.playout(random.Random(1)) == 0
    assert st.playout(random.Random(1), 0) == 0


def test_playout_leaves_a_clone_alone():
    game = rulesdsl.load("triumvirat")
    st = game.new_game(players=2, seed=2)
    before = st.to_json()
    st.clone().playout(random.Random(3), 50)
    assert st.to_json() == before
