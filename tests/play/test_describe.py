"""The accessors the runner lays a view out with: State.describe() and State.phase_path()."""

import rulesdsl


def test_describe_says_who_owns_what():
    state = rulesdsl.load("condottiere").new_game(players=3, seed=1)
    d = state.describe()
    assert d["zones"]["hand[P2]"] == {"zone": "hand", "owner": 1, "visibility": "private",
                                      "unordered": True, "board": None}
    assert d["zones"]["stock"]["owner"] is None
    assert d["vars"]["owner[Roma]"]["board"] == "Region"
    assert d["vars"]["army[P3]"]["owner"] == 2 and d["vars"]["army[P3]"]["board"] is None
    assert "Roma" in d["boards"]["Region"] and "Region" in d["enums"]
    assert set(d["cards"]) == set(state.prog.card_label)


def test_describe_names_the_board_of_a_zone_per_cell():
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "examples" / "checkers.rules"
    d = rulesdsl.load(str(path)).new_game(seed=1).describe()
    assert d["zones"]["square[c3]"]["board"] == "Cell" and d["grids"]["Cell"] == [8, 8]
    assert d["zones"]["taken[P1]"]["board"] is None and d["hex"] == []


def test_cards_group_by_their_first_enum_field_else_their_root_kind():
    d = rulesdsl.load("ivanhoe").new_game(players=2, seed=1).describe()
    cards = d["cards"]
    assert cards["purple 3"]["group"] == "purple"
    assert cards["squire 2"]["group"] == "supporter" and cards["maiden"]["group"] == "supporter"
    hand = ["squire 2", "red 4", "purple 7", "outwit", "red 3"]
    assert sorted(hand, key=lambda l: cards[l]["order"]) == \
        ["purple 7", "red 3", "red 4", "squire 2", "outwit"]


def test_phase_path():
    state = rulesdsl.load("triumvirat").new_game(players=2, seed=1)
    assert state.phase_path()[-1] == "play_trick"
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    assert state.phase_path() == []
