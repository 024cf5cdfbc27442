"""Secrets stay secret in every bundled game and example: swapping cards a seat cannot see
changes neither who is asked nor what the other seats see (hidden_swap.py). The property
is shown able to fail on a file that asks only the players who hold a card."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesdsl
from _fuzz import BUNDLED
from hidden_swap import check_game

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_who_is_asked_and_every_view_ignore_hidden_cards(path):
    game = rulesdsl.load(path)
    players = min(game.max_players, max(game.min_players, 4))
    for seed in (1, 2, 3):
        leaks = check_game(game, players, seed)
        assert not leaks, f"{path.stem}, {players} players, seed {seed}: {leaks[:3]}"


def test_the_property_finds_a_leak_through_who_is_asked():
    # asks only the players who hold a joker: everyone learns where the jokers are
    game = rulesdsl.load(HERE / "leaky_asking.rules")
    leaks = [leak for seed in (1, 2, 3) for leak in check_game(game, 4, seed, steps=40)]
    assert leaks and any("asked" in what for _, _, what in leaks)


def test_asking_openly_keeps_the_secret(tmp_path):
    text = (HERE / "leaky_asking.rules").read_text()
    fixed = text.replace("where not folded[q] {", "where not folded[q] openly {")
    assert fixed != text
    (tmp_path / "open_asking.rules").write_text(fixed)
    game = rulesdsl.load(tmp_path / "open_asking.rules")
    for seed in (1, 2, 3):
        assert not check_game(game, 4, seed, steps=40)
