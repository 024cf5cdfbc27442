"""The OpenSpiel adapter, tested with OpenSpiel's own machinery: its random simulation
test (clone, serialise, observation tensors and strings, returns) on every game, and its
ISMCTS bot playing hidden-information games to the end."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from rulesdsl.integrations import openspiel as adapter  # noqa: E402
from _games import every_game, short, through_chance  # noqa: E402

GAMES = every_game()


def load(name, players):
    short_name = adapter.register(name)
    return pyspiel.load_game(short_name, {"players": players})


@pytest.mark.parametrize("name,players", GAMES, ids=[f"{short(g)}-{n}" for g, n in GAMES])
def test_random_sim_test_passes(name, players):
    game = load(name, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_bundled_game_is_registered_and_takes_parameters():
    names = pyspiel.registered_names()
    for name in ("triumvirat", "ivanhoe", "condottiere", "condottiere_edition2", "intrige"):
        assert f"rulesdsl_{name}" in names
    game = pyspiel.load_game("rulesdsl_ivanhoe(players=4)")
    assert game.num_players() == 4
    one = pyspiel.load_game("rulesdsl_triumvirat(options=games_to_win:1)")
    assert one.new_initial_state().held.game.rules.options["games_to_win"] == 1
    with pytest.raises(Exception, match="no option"):
        pyspiel.load_game("rulesdsl_triumvirat(options=no_such:1)")


def test_with_chance_seed_the_first_node_picks_the_seed_and_nobody_sees_it():
    game = pyspiel.load_game("rulesdsl_ivanhoe(players=3,chance=seed)")
    a, b = game.new_initial_state(), game.new_initial_state()
    assert a.is_chance_node() and len(a.chance_outcomes()) == adapter.DEFAULT_SEEDS
    a.apply_action(1)
    b.apply_action(2)
    assert a.held.state.zone("hand", seat=0) != b.held.state.zone("hand", seat=0)
    assert a.history() == [1]
    for p in range(3):   # the seed is in no information state
        assert "seed" not in a.information_state_string(p)


def test_a_seat_string_holds_no_card_it_cannot_see():
    game = pyspiel.load_game("rulesdsl_triumvirat")
    state = through_chance(game.new_initial_state(), np.random.RandomState(5))
    engine = state.held.state
    mine, theirs = engine.zone("hand", seat=0), engine.zone("hand", seat=1)
    text = state.information_state_string(0)
    assert all(card in text for card in mine)
    hidden = set(theirs) - set(mine) - set(engine.zone("trick"))
    assert hidden and not any(f'"{card}"' in text for card in hidden)


def test_ids_label_and_history_replays():
    game = pyspiel.load_game("rulesdsl_ivanhoe(players=2)")
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    for _ in range(40):
        through_chance(state, rng)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        labels = {state.action_to_string(state.current_player(), a) for a in legal}
        assert labels == {a.label for a in state.held.state.legal_actions()}
        state.apply_action(int(rng.choice(legal)))
    again = game.new_initial_state()
    for a in state.history():
        again.apply_action(a)
    assert str(again) == str(state)


def test_resample_keeps_what_the_seat_knows_and_varies_the_rest():
    game = pyspiel.load_game("rulesdsl_ivanhoe(players=3)")
    state = through_chance(game.new_initial_state(), np.random.RandomState(4))
    seat = state.current_player()
    worlds = [state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0., 1.))
              for _ in range(6)]
    for w in worlds:
        assert w.information_state_string(seat) == state.information_state_string(seat)
        assert w.legal_actions() == state.legal_actions()
    others = {tuple(w.held.state.zone("hand", seat=(seat + 1) % 3)) for w in worlds}
    assert len(others) > 1          # the other hands are sampled, not the real ones


def ismcts_game(short_name, params, bot_seat, seed, simulations):
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game(short_name, params)
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                           max_simulations=simulations, random_state=rng,
                           allow_inconsistent_action_sets=True)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            through_chance(state, rng)
        elif state.current_player() == bot_seat:
            legal = state.legal_actions()
            action = bot.step(state)
            assert action in legal
            searched += len(legal) > 1
            state.apply_action(int(action))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state, searched


@pytest.mark.parametrize("short_name,params,seed", [
    ("rulesdsl_triumvirat", {"options": "games_to_win=1"}, 0),
    ("rulesdsl_ivanhoe", {"players": 3}, 1),
])
def test_ismcts_plays_to_the_end(short_name, params, seed):
    state, searched = ismcts_game(short_name, params, bot_seat=0, seed=seed, simulations=8)
    assert state.is_terminal() and searched > 0
    assert abs(sum(state.returns())) < 1e-9 and max(state.returns()) > 0
