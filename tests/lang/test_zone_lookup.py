"""State.zone(name): names are looked up once per program and then cached; every spelling
still finds its zone, and unknown names still fail with A003/A004 (smoke.rules)."""

from pathlib import Path

import pytest

import rulesdsl

HERE = Path(__file__).resolve().parent


def test_zone_by_name_with_and_without_the_cache():
    game = rulesdsl.load(HERE / "smoke.rules")
    s = game.new_game(3, seed=2)
    for _ in range(2):  # the second round is answered from the cache
        assert s.zone("hand[P2]") == s.zone("hand", seat=1) == s.zone("hand[1]")
        assert s.zone("hand[ P3 ]") == s.zone("hand", 2)
        assert s.zone("stock") == s.zone("stock", None, None)
    other = game.new_game(3, seed=3)  # the same program: the cache is shared, not the cards
    assert other.zone("hand[P2]") == other.zone("hand", seat=1)
    assert game.new_game(2, seed=2).zone("hand[P2]") == \
        game.new_game(2, seed=2).zone("hand", seat=1)


@pytest.mark.parametrize("name,code", [("hands[P1]", "A003"), ("hand[P9]", "A004"),
                                        ("hand", "A004"), ("hand[P1, P2]", "A004")])
def test_unknown_zone_names_still_fail(name, code):
    s = rulesdsl.load(HERE / "smoke.rules").new_game(3, seed=2)
    for _ in range(2):  # a failed name is never cached
        with pytest.raises(rulesdsl.RulesError) as e:
            s.zone(name)
        assert e.value.code == code
