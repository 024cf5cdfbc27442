"""Public facts about hidden zones (rules/public_facts.rules, a game of asking for ranks):
`reveal ZONE holds x where ...` and `... lacks ...` tell every seat what a hand holds
without showing a card, and `move ... openly` hands cards on face up between hidden
hands. Both are in the log and the views, and a computer seat's samples keep them."""

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.lang.errors import RulesError

GAME = Path(__file__).resolve().parent / "rules" / "public_facts.rules"


@pytest.fixture(scope="module")
def game():
    assert rulesdsl.check_file(GAME) == []
    return rulesdsl.load(str(GAME))


def deal(game, players, hands, seed=1):
    zones = {f"hand[P{p + 1}]": h for p, h in enumerate(hands)}
    return game.new_game(players, seed, scenario={"zones": zones})


def test_asking_tells_the_table_the_asker_holds_the_rank(game):
    s = deal(game, 3, [["two 1", "four 1", "five 1"], ["three 1", "four 2", "five 2"],
                       ["two 2", "three 2", "four 3"]])
    s.apply("two")  # P2 holds no two: the table learns that too
    for seat in range(3):   # the twos are the cards of rank two: the fact names the rank
        log = s.view(seat)["log"]
        assert "hand[P1] holds a two" in log
        assert "hand[P2] holds no two" in log
    assert "P1's hand holds a two" in s.story(2)


def test_a_fact_no_one_field_says_lists_the_cards_it_admits(game):
    s = deal(game, 2, [["two 1", "four 1"], ["three 1"]])
    ids = {s.prog.card_label[c]: c for c in range(len(s.prog.card_label))}
    some_twos = ("fact", 0, (ids["two 1"], ids["two 2"]), False)
    assert s.fact_text(some_twos) == "holds one of: two 1, two 2"
    assert s.fact_text(some_twos[:3] + (True,)) == "holds none of: two 1, two 2"
    assert s.fact_text(("fact", 0, (ids["four 3"],), False)) == "holds one of: four 3"
    assert s.fact_text(("fact", 0, (ids["two 1"], ids["two 2"], ids["two 3"]), False)) == \
        "holds a two"
    assert s.fact_text(("fact", 0, tuple(ids[f"four {n}"] for n in (1, 2, 3)), True)) == \
        "holds no four"


def test_samples_keep_what_the_facts_tell(game):
    s = deal(game, 3, [["two 1", "four 1", "five 1"], ["three 1", "four 2", "five 2"],
                       ["two 2", "three 2", "four 3"]])
    s.apply("two")
    twos = {"two 1", "two 2", "two 3"}
    for k in range(30):  # P3 does not see P1's hand, but knows it holds a two
        d = s.determinize(2, k)
        assert twos & set(d.zone("hand[P1]"))
        assert not twos & set(d.zone("hand[P2]"))  # and that P2 holds none


def test_a_card_handed_on_openly_is_followed_by_every_seat(game):
    s = deal(game, 3, [["two 1", "four 1", "five 1"], ["two 2", "four 2", "five 2"],
                       ["three 1", "three 2", "four 3"]])
    s.apply("two")  # P2 hands P1 its two, face up
    assert s.zone("hand[P1]") == ["two 1", "two 2", "four 1", "five 1"]
    log = s.view(2)["log"]  # P3 sees neither hand
    assert log[-2:] == ["hand[P2] -> hand[P1]: 1 card", "hand[P1] shows: two 2"]
    for k in range(30):
        assert "two 2" in s.determinize(2, k).zone("hand[P1]")
    # told in words, the move names the card for every seat, once: no second line shows it
    for seat in range(3):
        assert s.story(seat)[-1] == "two 2: from P2's hand to P1's hand"


def test_a_fact_that_is_not_true_stops_the_rules(tmp_path):
    path = tmp_path / "lie.rules"
    path.write_text(GAME.read_text().replace(
        "reveal hand[p] holds c where c.rank == r",
        "reveal hand[p] lacks c where c.rank == r"))
    s = deal(rulesdsl.load(str(path)), 2, [["two 1", "four 1", "five 1"],
                                           ["three 1", "four 2", "five 2"]])
    with pytest.raises(RulesError) as e:
        s.apply("two")
    assert e.value.code == "R032" and "holds no card of that kind" in str(e.value)
    assert s.zone("hand[P1]") == ["two 1", "four 1", "five 1"]  # nothing changed
