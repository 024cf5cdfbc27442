"""Bad moments and small holes (issue 20): scenario aliases, control characters, labels."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.lang.errors import RulesError

GAME = rulesdsl.load("triumvirat")


@pytest.mark.parametrize("a, b", [("trick", "trick "), ("hand[P1]", "hand[0]"),
                                  ("hand[P1]", "hand[P01]"), ("hand[P1]", "hand[P１]")])
def test_a_zone_named_twice_in_a_scenario_is_refused(a, b):
    scenario = {"zones": {a: ["red 0"], b: []}}
    with pytest.raises(RulesError) as info:
        GAME.new_game(players=2, seed=1, scenario=scenario)
    assert info.value.code == "S002" and "twice" in info.value.message


def test_a_variable_named_twice_in_a_scenario_is_refused():
    with pytest.raises(RulesError) as info:
        GAME.new_game(players=2, seed=1, scenario={"vars": {"tricks[red]": 1,
                                                            " tricks[red] ": 2}})
    assert info.value.code == "S002"


def test_every_later_save_of_a_scenario_game_still_restores():
    state = GAME.new_game(players=2, seed=1, scenario={"zones": {"trick": []}})
    state.apply(state.legal_actions()[0])
    rulesdsl.restore(GAME, state.to_json())


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x00", "\x9b"])
def test_control_characters_in_a_rules_file_are_refused(char, tmp_path):
    path = tmp_path / "esc.rules"
    path.write_text(f'game "A{char}]0;title"\nplayers 2\n')
    with pytest.raises(RulesError) as info:
        rulesdsl.check_file(path)
    assert info.value.code == "E108" and info.value.span.line == 1


def test_option_labels_are_unique_even_when_a_suffix_is_itself_a_label(tmp_path):
    path = tmp_path / "dup.rules"
    path.write_text('game "Dup"\nplayers 2\nvar n: int = 1\nflow main\nphase main {\n'
                    '  ask seat(0) {\n    "a1" { set n = 1 }\n    "a{x}" for x in [1] '
                    '{ set n = 2 }\n    "a1 (2)" { set n = 3 }\n  }\n}\n')
    state = rulesdsl.load(path).new_game(players=2, seed=1)
    labels = [a.label for a in state.legal_actions()]
    assert len(labels) == 3 and len(set(labels)) == 3, labels
    for label in labels:
        s = state.clone()
        s.apply(label)


def test_a_move_from_several_zones_logs_them_in_an_order_that_hides_the_cards():
    """The set-aside card must not show through which group of a multi-zone move comes
    first (the order of card ids is the order of ranks)."""
    from pathlib import Path
    game = rulesdsl.load(Path(__file__).parent / "hidden_order.rules")
    seen = []
    for label in ["1", "4"]:
        state = game.new_game(players=2, seed=1, scenario={"zones": {"secret": [label]}})
        seen.append([line.split(":")[0] for line in state.view(1)["log"] if "-> heap" in line])
    assert seen[0] == seen[1], seen
