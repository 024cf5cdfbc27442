"""What the tests of games solved through OpenSpiel share: the game trees counted, the
information states and their tensors, OpenSpiel's own solvers run on a game."""

import os

import pytest
from open_spiel.python.algorithms import cfr, expected_game_score, get_all_states


def sequence_form_lp():
    """OpenSpiel's sequence-form LP (it needs cvxpy and ecos, the test extra's)."""
    try:
        from open_spiel.python.algorithms import sequence_form_lp as lp
    except ImportError as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"the sequence-form LP needs cvxpy and ecos ({e})")
    return lp


def histories(game) -> dict:
    return get_all_states.get_all_states(game, include_terminals=True,
                                         include_chance_states=True)


def information_state_count(game) -> int:
    states = get_all_states.get_all_states(game, include_terminals=False,
                                           include_chance_states=False)
    return len({(s.current_player(), s.information_state_string()) for s in states.values()})


def decision_records(game) -> list:
    """(player, information state string, tensor) at every decision of the whole tree."""
    states = get_all_states.get_all_states(game, include_terminals=False,
                                           include_chance_states=False)
    return [(s.current_player(), s.information_state_string(),
             tuple(s.information_state_tensor())) for s in states.values()]


def assert_injective(records):
    """Distinct information states, distinct tensors (and one state, one tensor)."""
    tensor_of, state_of = {}, {}
    for p, text, tensor in records:
        assert tensor_of.setdefault((p, text), tensor) == tensor
        other = state_of.setdefault((p, tensor), text)
        assert other == text, f"P{p + 1}: two information states share a tensor:\n" \
                              f"{other}\n{text}"
    return len(tensor_of)


def cfr_policy(game, iterations: int):
    """CFR's average policy after `iterations` iterations."""
    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return solver.average_policy()


def cfr_values(game, iterations: int) -> list:
    """Each player's value under CFR's average policy after `iterations` iterations."""
    policy = cfr_policy(game, iterations)
    return list(expected_game_score.policy_value(game.new_initial_state(),
                                                 [policy] * game.num_players()))
