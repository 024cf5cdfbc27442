"""Saves that cannot lie (issue 20): a restore replays the history from seed, options and
scenario, and refuses a stored state that differs."""

from __future__ import annotations

import json

import pytest

import rulesdsl
from rulesdsl.lang.errors import RulesError

GAME = rulesdsl.load("triumvirat")


def _played(n: int = 6, scenario=None):
    state = GAME.new_game(players=2, seed=5, scenario=scenario)
    for _ in range(n):
        state.apply(state.legal_actions()[0])
    return state


def _refused(data: dict) -> RulesError:
    with pytest.raises(RulesError) as info:
        rulesdsl.restore(GAME, json.dumps(data))
    assert info.value.code == "S001", str(info.value)
    return info.value


def test_an_honest_save_restores_to_the_same_state():
    state = _played()
    again = rulesdsl.restore(GAME, state.to_json())
    assert again.to_json() == state.to_json()


def test_a_save_of_a_scenario_game_restores():
    scenario = {"zones": {"hand[P1]": ["red 0", "red 2"]}}
    state = _played(3, scenario)
    assert rulesdsl.restore(GAME, state.to_json()).to_json() == state.to_json()


def test_a_tampered_variable_is_refused():
    data = json.loads(_played().to_json())
    data["vars"][-1] = 1 - data["vars"][-1] if data["vars"][-1] in (0, 1) else 0
    assert "variables" in _refused(data).message


def test_extra_cards_moved_into_a_hand_are_refused():
    state = _played()
    data = json.loads(state.to_json())
    hand = state.prog.zone_names.index("hand[P1]")
    donor = next(i for i, z in enumerate(data["zones"]) if z and i != hand)
    data["zones"][hand].append(data["zones"][donor].pop())
    assert "cards" in _refused(data).message


def test_an_invented_history_is_refused():
    data = json.loads(_played().to_json())
    data["history"][2] = "black 9"
    assert "history" in _refused(data).message


def test_a_history_changed_to_other_legal_moves_is_refused():
    other = GAME.new_game(players=2, seed=5)
    for _ in range(6):
        other.apply(other.legal_actions()[-1])
    data = json.loads(_played().to_json())
    data["history"] = other.history
    _refused(data)


def test_invented_winners_are_refused():
    state = GAME.new_game(players=2, seed=5)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    data = json.loads(state.to_json())
    data["winners"] = [99]
    _refused(data)
    data["winners"] = [1 - state.winners[0]] if len(state.winners) == 1 else []
    _refused(data)


def test_the_runner_saves_only_a_state_at_a_decision(tmp_path):
    from rulesdsl.play.runner import Runner, at_decision
    good = _played(2)
    path = tmp_path / "auto.json"
    runner = Runner.__new__(Runner)
    runner.save_path, runner.meta, runner.seats = str(path), {}, ["human", "human"]
    runner.force, runner.known, runner.takebacks = False, {}, []
    runner.state = good
    runner.save()
    saved = path.read_text()
    assert at_decision(good) and json.loads(saved)["history"] == good.history
    half = good.clone()  # as Ctrl-C leaves it inside apply: no pending decision
    half.pending = None
    half.history.append("x")
    assert not at_decision(half)
    runner.state = half
    runner.save()
    assert path.read_text() == saved
    rulesdsl.restore(GAME, path.read_text())
