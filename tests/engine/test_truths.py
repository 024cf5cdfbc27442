"""Named invariants (`invariant NAME(params) = COND`, rules/told.rules): the engine checks
them after every action it is given and at the start, stopping rules that break one with
R034 and the state as it was; a computer seat's samples keep them, from what it knows."""

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine.runtime.truths import broken
from rulesdsl.lang.errors import RulesError

GAME = Path(__file__).resolve().parent / "rules" / "told.rules"


@pytest.fixture(scope="module")
def game():
    assert rulesdsl.check_file(GAME) == []
    return rulesdsl.load(str(GAME))


def deal(game, hands, seed=1):
    zones = {f"hand[P{p + 1}]": h for p, h in enumerate(hands)}
    return game.new_game(len(hands), seed, scenario={"zones": zones})


HANDS = [["red 1", "green 2", "blue 3"], ["blue 1", "red 2", "green 3"]]


def test_a_told_colour_is_kept_in_every_sample_of_the_hand_it_was_told_of(game):
    s = deal(game, HANDS)
    s.apply("tell")  # P1 tells P2: the bottom card of P2's hand is blue
    assert s.var("told[P2]") == "blue"
    for k in range(40):  # P2 does not see its own hand, but knows its bottom card is blue
        d = s.determinize(1, k)
        assert d.zone("hand[P2]")[0].startswith("blue"), d.zone("hand[P2]")
        assert d.zone("hand[P1]") == HANDS[0]  # what it sees stays as it is
        assert not broken(d)


def test_without_the_invariant_the_samples_do_not_know_it(game, tmp_path):
    # the control: the same game without the invariant guesses the colour at random
    path = tmp_path / "forgetful.rules"
    path.write_text("\n".join(line for line in GAME.read_text().splitlines()
                              if not line.startswith("invariant")))
    s = deal(rulesdsl.load(str(path)), HANDS)
    s.apply("tell")
    bottoms = {s.determinize(1, k).zone("hand[P2]")[0].split()[0] for k in range(40)}
    assert bottoms != {"blue"}


def test_the_samples_do_not_depend_on_the_hidden_cards_beyond_what_was_told(game):
    # two deals P2 cannot tell apart (its own hand differs, its bottom card is blue in
    # both): the same sample for the same seed, so the invariant leaks nothing more
    other = [HANDS[0], ["blue 4", "green 1", "red 3"]]
    a, b = deal(game, HANDS), deal(game, other)
    a.apply("tell")
    b.apply("tell")
    assert a.view(1) == b.view(1)
    for k in range(10):
        assert a.determinize(1, k).zone("hand[P2]") == b.determinize(1, k).zone("hand[P2]")


def test_rules_that_break_an_invariant_stop_and_the_state_stays_as_it_was(game, tmp_path):
    # the told colour is of the bottom card, but swapping takes that very card away
    s = deal(game, HANDS)
    s.apply("tell")
    before = (s.history, s.zone("hand[P2]"), s.var("told[P2]"))
    with pytest.raises(RulesError) as e:
        s.apply("swap")  # P2 swaps away its blue bottom card for the deck's top
    assert e.value.code == "R034" and "told_true(P2)" in str(e.value)
    assert e.value.span.line == 27  # the invariant's line
    assert (s.history, s.zone("hand[P2]"), s.var("told[P2]")) == before
    assert sorted(a.label for a in s.legal_actions()) == ["stop", "swap", "tell"]


def test_an_invariant_broken_by_the_deal_stops_the_game_before_it_starts(tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text(GAME.read_text().replace(
        'var told: Colour per player = none', 'var told: Colour per player = red'))
    with pytest.raises(RulesError) as e:
        deal(rulesdsl.load(str(path)), [["blue 1", "red 2", "green 3"], HANDS[0]])
    assert e.value.code == "R034" and "told_true(P1)" in str(e.value)


def test_a_file_that_extends_overrides_an_invariant(tmp_path):
    (tmp_path / "told.rules").write_text(GAME.read_text())
    child = tmp_path / "child.rules"
    child.write_text('extends "told.rules"\n'
                     'override invariant told_true(q: player) = true\n')
    assert rulesdsl.check_file(child) == []
    twice = tmp_path / "twice.rules"
    twice.write_text('extends "told.rules"\ninvariant told_true(q: player) = true\n')
    with pytest.raises(RulesError) as e:
        rulesdsl.check_file(twice)
    assert "E500" in str(e.value) and "write 'override' before it" in str(e.value)


def test_the_language_server_lists_an_invariant_with_its_parameters():
    from rulesdsl.integrations.rules_index import analyse
    symbols = analyse(GAME.read_text(), str(GAME)).symbols
    told = [s for s in symbols if s.name == "told_true"]
    assert [(s.sort, s.detail) for s in told] == [("invariant", "invariant (q: player)")]


def test_an_invariant_must_be_a_condition_over_values_that_can_all_be_tried(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(GAME.read_text().replace(
        "invariant told_true(q: player) = told[q] == none or",
        "invariant told_true(q: player, c: card) = 1 + told[q] == none or"))
    with pytest.raises(RulesError) as e:
        rulesdsl.check_file(path)
    text = str(e.value)
    assert "E300" in text and "'c' is of type card, whose values cannot all be tried" in text


def test_play_on_a_sample_is_not_stopped_by_an_invariant_the_sample_could_not_keep(game):
    # a computer seat's sample is a guess at the hidden cards: its play is the search's
    # look-ahead, not the game, so an invariant it breaks does not stop it
    s = deal(game, HANDS)
    s.apply("tell")
    d = s.determinize(1, 0)
    d.zones[d.prog.zone_names.index("hand[P2]")].reverse()  # the told card moves away
    d.apply("swap")
    assert d.history[-1] == "swap"
