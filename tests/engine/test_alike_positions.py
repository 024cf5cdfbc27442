"""Alike cards (one label) are one option where their place makes no difference (an
unordered zone) and options of their own, labelled by place, in an ordered zone
(DESIGN principle 3)."""

import rulesdsl

RULES = '''
game "Piles"
players 2
kind tile {
  value: int
  label "tile {value}"
}
deck bag {
  6 x tile(1)
  tile(2)
}
zone bag hidden
zone row public
zone other public
zone hand per player private unordered
flow main
phase main {
  ask seat(0) {
    t in row { move t to bag }
  }
  ask seat(0) {
    t in hand[seat(0)] { move t to bag }
  }
  ask seat(0) {
    t in row + other { move t to bag }
  }
  ask seat(0) {
    t in bag { move t to row }
  }
}
'''


def start(tmp_path, row, other=(), hand=()):
    path = tmp_path / "piles.rules"
    path.write_text(RULES)
    zones = {"row": list(row), "other": list(other), "hand[P1]": list(hand)}
    return rulesdsl.load(path).new_game(2, 1, scenario={"zones": zones})


def labels(s):
    return [a.label for a in s.legal_actions()]


def test_alike_cards_in_an_ordered_zone_are_labelled_by_place(tmp_path):
    s = start(tmp_path, ["tile 1", "tile 1", "tile 2", "tile 1"], hand=["tile 1", "tile 1"])
    assert labels(s) == ["tile 1 (bottom)", "tile 1 (2nd)", "tile 2", "tile 1 (top)"]
    s.apply("tile 1 (2nd)")
    assert s.zone("row") == ["tile 1", "tile 2", "tile 1"]


def test_alike_cards_in_an_unordered_zone_stay_one_option(tmp_path):
    s = start(tmp_path, ["tile 2"], hand=["tile 1", "tile 1"])
    s.apply("tile 2")
    assert labels(s) == ["tile 1"]


def test_copies_in_several_ordered_zones_name_the_zone(tmp_path):
    s = start(tmp_path, ["tile 2", "tile 1"], other=["tile 1"], hand=["tile 1"])
    s.apply("tile 2")
    s.apply("tile 1")
    assert labels(s) == ["tile 1 (row, bottom)", "tile 1 (other, bottom)"]
    s.apply("tile 1 (other, bottom)")
    assert s.zone("row") == ["tile 1"] and s.zone("other") == []


def test_copies_the_chooser_cannot_see_stay_one_option(tmp_path):
    # the bag is hidden: a place in it would tell the chooser what lies where
    s = start(tmp_path, ["tile 2", "tile 1"], other=["tile 1"], hand=["tile 1"])
    for label in ("tile 2", "tile 1", "tile 1 (other, bottom)"):
        s.apply(label)
    assert sorted(labels(s)) == ["tile 1", "tile 2"]
