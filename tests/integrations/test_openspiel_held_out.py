"""Small games written from docs/language.md alone, each solved through OpenSpiel against
its built-in twin computed in the same test (issue 35): the same tree, the same
information states with a tensor each, the same value. The games are under rules/:
Liar's Dice with one three-sided die each (`liars_dice(dice_sides=3)`), Kuhn poker for
three players (`kuhn_poker(players=3)`) and Goofspiel with four cards, bid in secret
(`goofspiel(num_cards=4,points_order=descending)`, taken turn by turn)."""

from collections import Counter

from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from rulesdsl.integrations import openspiel as adapter  # noqa: E402
from open_spiel.python.algorithms import expected_game_score, exploitability  # noqa: E402
from _solving import (assert_injective, cfr_policy, decision_records,  # noqa: E402
                      histories, information_state_count, sequence_form_lp)

RULES = Path(__file__).parent / "rules"
LIARS_DICE = str(RULES / "liars_dice_one_die.rules")
KUHN_THREE = str(RULES / "kuhn_poker_three.rules")
GOOFSPIEL = str(RULES / "goofspiel_four.rules")
GOOFSPIEL_BUILTIN = "turn_based_simultaneous_game(game=goofspiel(num_cards=4," \
    "points_order=descending))"
TWINS = [(LIARS_DICE, "liars_dice(dice_sides=3)"), (KUHN_THREE, "kuhn_poker(players=3)")]


def load(source):
    return pyspiel.load_game(adapter.register(source))


@pytest.mark.parametrize("source,builtin", TWINS, ids=["liars_dice", "kuhn_three"])
def test_the_tree_and_information_states_are_the_builtins(source, builtin):
    ours, theirs = load(source), pyspiel.load_game(builtin)
    assert len(histories(ours)) == len(histories(theirs))
    count = information_state_count(theirs)
    assert information_state_count(ours) == count
    assert assert_injective(decision_records(ours)) == count    # a tensor each
    pyspiel.random_sim_test(ours, num_sims=5, serialize=True, verbose=False)


def test_liars_dice_solves_by_the_sequence_form_lp_to_the_builtin_value():
    lp = sequence_form_lp()
    ours = lp.solve_zero_sum_game(load(LIARS_DICE))[:2]
    builtin = lp.solve_zero_sum_game(pyspiel.load_game("liars_dice(dice_sides=3)"))[:2]
    assert ours == pytest.approx(builtin, abs=1e-6) and ours[0] == pytest.approx(1 / 9, abs=1e-6)


def test_liars_dice_pays_the_win_and_the_loss():
    game = load(LIARS_DICE)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


def test_three_player_kuhn_runs_cfr_as_the_builtin_game():
    """Three players: no sequence-form LP; CFR's policy, iteration by iteration, is the
    built-in game's, so are the values it gives and its distance from equilibrium."""
    games = load(KUHN_THREE), pyspiel.load_game("kuhn_poker(players=3)")
    policies = [cfr_policy(game, 10) for game in games]
    values = [expected_game_score.policy_value(game.new_initial_state(), [policy] * 3)
              for game, policy in zip(games, policies)]
    assert list(values[0]) == pytest.approx(list(values[1]), abs=1e-9)
    conv = [exploitability.nash_conv(game, policy) for game, policy in zip(games, policies)]
    assert conv[0] == pytest.approx(conv[1], abs=1e-9) and conv[0] > 0


def test_liars_dice_bids_have_the_builtins_ids():
    """Each bid one id wherever it is offered, as in OpenSpiel's own game: 6 bids and the
    call, the same id for the same bid, along random games played in both at once."""
    ours, theirs = load(LIARS_DICE), pyspiel.load_game("liars_dice(dice_sides=3)")
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() == 7
    rng = np.random.RandomState(4)
    for _ in range(20):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        for face in rng.randint(3, size=2):     # the same roll in both
            a.apply_action(dict((a.action_to_string(-1, o), o)
                                for o, _ in a.chance_outcomes())[str(face + 1)])
            b.apply_action(int(face))
        while not a.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            assert [a.action_to_string(x).lower() for x in a.legal_actions()] == \
                [b.action_to_string(x).lower() for x in b.legal_actions()]
            action = int(rng.choice(a.legal_actions()))
            a.apply_action(action)
            b.apply_action(action)
        assert b.is_terminal() and a.returns() == b.returns()


def test_goofspiel_has_the_builtins_tree_and_pays_its_ends_alike():
    ours, theirs = load(GOOFSPIEL), pyspiel.load_game(GOOFSPIEL_BUILTIN)
    mine, builtin = histories(ours), histories(theirs)
    assert len(mine) == len(builtin) == 1077
    paid = [Counter(tuple(s.returns()) for s in tree.values() if s.is_terminal())
            for tree in (mine, builtin)]
    assert paid[0] == paid[1] and sum(paid[0].values()) == 4 * 4 * 3 * 3 * 2 * 2
    pyspiel.random_sim_test(ours, num_sims=5, serialize=True, verbose=False)


def test_goofspiel_tells_apart_every_history_of_bids_a_seat_has_seen():
    """The built-in's information state is the hands, the prizes won and the points: two
    orders of spending alike cards read alike (270). A seat of ours recalls every round's
    bids, and the second to bid in a round does not see the first's: the perfect-recall
    information states of the built-in's own histories (322), a tensor each."""
    ours, theirs = load(GOOFSPIEL), pyspiel.load_game(GOOFSPIEL_BUILTIN)
    seen = {(s.current_player(), tuple(s.history()[:len(s.history()) // 2 * 2]))
            for s in histories(theirs).values()
            if not s.is_terminal() and not s.is_chance_node()}
    assert information_state_count(theirs) == 270 < len(seen) == 322
    assert information_state_count(ours) == len(seen)
    assert assert_injective(decision_records(ours)) == len(seen)


def test_goofspiel_solves_to_the_builtins_value():
    lp = sequence_form_lp()
    ours = lp.solve_zero_sum_game(load(GOOFSPIEL))[:2]
    builtin = lp.solve_zero_sum_game(pyspiel.load_game(GOOFSPIEL_BUILTIN))[:2]
    assert ours == pytest.approx(builtin, abs=1e-6) and ours[0] == pytest.approx(0, abs=1e-6)
