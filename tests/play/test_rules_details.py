"""Details of the bundled games as a player reads them: the deciding battle's question,
a total announced in one tournament not shown in the next, a card played face up named in
`history`, articles and plurals said right."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.lang.resources import bundled_path, bundled_games, example_games
from rulesdsl.play.rulestext import explain, kind_of_card, with_article
from rulesdsl.play.seen import history_seen

HERE = Path(__file__).resolve().parent


def test_the_deciding_battle_names_no_region():
    game = rulesdsl.load("condottiere_edition2")
    scenario = json.loads((HERE / "deciding_battle.json").read_text())
    state = game.new_game(players=5, seed=1, scenario=scenario)
    assert state.question() == "P1, the deciding battle: play a card or pass?"
    for _ in range(20):                     # every turn of it, as long as it lasts
        if state.is_over or "deciding" not in (state.question() or "deciding"):
            break
        assert "none" not in state.question()
        state.apply(state.legal_actions()[-1])


def test_an_announced_total_is_not_carried_into_the_next_tournament():
    game = rulesdsl.load("ivanhoe")
    checked = 0
    for seed in range(1, 4):
        state = game.new_game(players=3, seed=seed)
        rng = random.Random(seed)
        tournament = state.var("tournaments")
        while not state.is_over:
            if state.var("tournaments") != tournament:   # a new tournament has begun
                tournament = state.var("tournaments")
                assert [state.var(f"announced[P{s}]") for s in (1, 2, 3)] == [0, 0, 0]
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 3


def test_history_names_a_card_an_opponent_played_face_up():
    game = rulesdsl.load("condottiere")
    state = game.new_game(players=2, seed=1)
    start = state.clone()
    rng = random.Random(1)
    played = []
    while len(played) < 3 and not state.is_over:
        seat = state.to_move
        action = rng.choice(state.legal_actions())
        if seat == 1 and state.chosen_card(action.label) is not None:
            played.append(action.label)
        state.apply(action)
    lines = history_seen(start, list(state.history), 0)
    assert played and all(f"P2: {label}" in lines for label in played), lines
    assert not any("do not see" in line for line in lines), lines


def test_articles_and_kinds_of_card_are_said_by_a_general_rule():
    assert with_article("unhorse card") == "an unhorse card"
    assert with_article("Region") == "a Region"
    assert kind_of_card("card") == "a card" and kind_of_card("action") == "an action card"
    assert explain(rulesdsl.load("ivanhoe"), 2, "unhorse")[0] == "unhorse: an unhorse card"
    assert explain(rulesdsl.load("sevens"), 3, "7 of clubs")[0] == "7 of clubs: a card"


@pytest.mark.parametrize("name", sorted(bundled_games()) + sorted(example_games()))
def test_no_plural_is_made_by_adding_s_to_a_hole(name):
    # "{pr}s" reads "churchs": a plural the language cannot make; say it another way
    text = bundled_path(name).read_text(encoding="utf-8")
    strings = re.findall(r'"(?:[^"\\]|\\.)*"', text)
    assert not [s for s in strings if re.search(r"\}s\b", s)]
