"""Starting values: a variable may start from a definition that depends on the player
count; an option starts from a plain value (E607 otherwise, from the checker)."""

import pytest

import rulesdsl

RULES = """
game "Starting values"
players 3..7
define chips_at_start = if player_count == 7 then 7 else if player_count == 6 then 9 else 11
var chips: int per player = chips_at_start private
var pot: int = chips_at_start * 0 + 1
flow main
phase main { win [p in players where chips[p] == chips_at_start and pot == 1] }
"""


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "starting.rules"
    p.write_text(RULES)
    return p


def test_a_variable_starts_from_a_definition(path):
    assert rulesdsl.check_file(path) == []
    game = rulesdsl.load(str(path))
    for players, chips in [(3, 11), (5, 11), (6, 9), (7, 7)]:
        s = game.new_game(players=players, seed=0)
        assert [s.var("chips", p) for p in range(players)] == [chips] * players
        assert s.var("pot") == 1 and s.winners == list(range(players))


def test_an_option_cannot_start_from_a_definition(tmp_path):
    p = tmp_path / "option.rules"
    p.write_text(RULES.replace("var pot: int", "option extra: int = chips_at_start\nvar pot: int"))
    with pytest.raises(rulesdsl.CheckFailed) as e:
        rulesdsl.check_file(p)
    assert [x.code for x in e.value.errors] == ["E607"]
