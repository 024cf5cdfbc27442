"""`top(z, n)` and `bottom(z, n)` with n past the zone's size are the whole zone, in both
engines ("draw back up to your hand's size" from a short pile: examples/the_game.rules had
to write `top(draw, min([k, size(draw)]))`). Found by a new author (issue 34): `top` wraps
round, `s[len(s) - n:]` with a negative start, so `top(z, 7)` of 5 cards gave the top 2."""

import pytest

import rulesdsl

RULES = """game "top past the size"
players 1
kind card { value: int  label "{value}" }
deck draw { card(1..5) }
zone draw public
zone hand public
zone low public
setup {
  move top(draw, 7) to hand
  log "{size(hand)} {size(draw)} {size(top(hand, 8))}"
  move bottom(hand, 9) to low
  log "{size(low)} {size(hand)}"
}
flow main
phase main { win players }
"""


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_top_and_bottom_of_more_cards_than_the_zone_holds_take_them_all(engine, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("RULESDSL_ENGINE", engine)
    path = tmp_path / "top.rules"
    path.write_text(RULES)
    s = rulesdsl.load(str(path)).new_game(1, seed=0)
    assert s.log[:4] == ["draw -> hand: 1, 2, 3, 4, 5", "5 0 5", "hand -> low: 1, 2, 3, 4, 5",
                         "5 0"]
