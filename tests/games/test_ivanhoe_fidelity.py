"""Ivanhoe as written (issue 16): the stunned limit counts outwit, outwit only with an
effect and also against the cards beside a shielded display, the card it brings lies on
top, alike display cards are chosen by their place, and ivanhoe answers once the card's
choices are made. Each test fails on the files before these fixes."""

import pytest

import rulesdsl
from test_ivanhoe import ANDY, CHRIS, labels, play, under_way


@pytest.fixture(scope="module")
def game():
    return rulesdsl.load("ivanhoe")


# 1. a stunned player adds one card per turn, by any means
def test_stunned_outwit_may_not_bring_a_second_card_into_the_display(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  beside={1: ["stunned"]}, hands={1: ["squire 2", "outwit"]})
    play(s, "outwit", "P2")
    assert labels(s) == ["red 3", "stunned"]  # before any card is added: stunned may go
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  beside={1: ["stunned"]}, hands={1: ["squire 2", "outwit"]})
    play(s, "squire 2", "outwit", "P2")
    # one card is laid: only a display card for a display card (a swap adds nothing)
    assert labels(s) == ["red 3", "squire 2"]


def test_stunned_outwit_that_brings_a_card_in_counts_against_the_limit(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  beside={1: ["shield", "stunned"]}, hands={1: ["squire 2", "outwit"]})
    play(s, "outwit", "P2", "shield", "red 5")
    assert s.zone("display[P1]") == ["red 3", "red 5"]
    assert "squire 2" not in labels(s)  # still stunned, and one card came in


# 2. outwit only when it has an effect
def test_outwit_is_not_offered_when_every_exchange_is_of_alike_cards(game):
    s = under_way(game, "blue", displays={1: ["blue 2"], 2: ["blue 2", "blue 2"]},
                  hands={1: ["outwit"]}, vars={"out[P3]": True, "out[P4]": True})
    assert "outwit" not in labels(s)
    s = under_way(game, "blue", displays={1: ["blue 2"], 2: ["blue 2", "blue 3"]},
                  hands={1: ["outwit"]}, vars={"out[P3]": True, "out[P4]": True})
    play(s, "outwit", "P2", "blue 2")
    assert labels(s) == ["blue 3"]


# 3. ivanhoe answers once the target and the card are named
def test_the_target_holding_ivanhoe_answers_knowing_it_is_the_target(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4"], 3: ["red 4", "red 5"]},
                  hands={1: ["dodge"], 3: ["ivanhoe"]})
    play(s, "dodge", "P3", "red 5")
    assert s.to_move == CHRIS and labels(s) == ["decline", "ivanhoe"]
    play(s, "ivanhoe")
    assert s.zone("display[P3]") == ["red 4", "red 5"]


# 4. alike cards in a display are told apart by their place
def test_dodge_takes_the_copy_chosen(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 3", "red 4", "red 3"]},
                  hands={1: ["dodge"]})
    play(s, "dodge", "P2")
    assert labels(s) == ["red 3 (bottom)", "red 3 (top)", "red 4"]
    play(s, "red 3 (bottom)")
    assert s.zone("display[P2]") == ["red 4", "red 3"]


def test_retreat_takes_back_the_copy_chosen(game):
    s = under_way(game, "red", displays={1: ["red 3", "squire 2", "red 3"]},
                  hands={1: ["retreat"]})
    play(s, "retreat")
    assert labels(s) == ["red 3 (bottom)", "red 3 (top)", "squire 2"]
    play(s, "red 3 (top)")
    assert s.zone("display[P1]") == ["red 3", "squire 2"]
    assert "red 3" in s.zone("hand[P1]")


def test_alike_cards_in_a_hand_stay_one_option(game):
    s = under_way(game, "red", displays={1: ["red 4"]}, hands={1: ["red 3", "red 3"]})
    assert labels(s).count("red 3") == 1 and not any("(" in a for a in labels(s))


# 5. outwit may take the shield and the stunned card
def test_outwit_takes_the_shield_of_a_shielded_player(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  beside={1: ["stunned"], 2: ["shield"]}, hands={1: ["outwit"]},
                  vars={"out[P3]": True, "out[P4]": True})
    play(s, "outwit")
    assert labels(s) == ["P2"]
    play(s, "P2")
    assert labels(s) == ["stunned"]  # the shielded display itself stays out of reach
    play(s, "stunned")
    assert labels(s) == ["shield"]
    play(s, "shield")
    assert s.zone("beside[P1]") == ["shield"] and s.zone("beside[P2]") == ["stunned"]
    assert s.zone("display[P2]") == ["red 4", "red 5"]


# 6. the card outwit brings lies on top
def test_outwit_lays_the_card_it_brings_on_top(game):
    s = under_way(game, "red", displays={1: ["red 3", "red 5"], 2: ["red 4", "squire 2"]},
                  hands={1: ["outwit"]}, vars={"out[P3]": True, "out[P4]": True})
    play(s, "outwit", "P2", "red 3", "red 4")
    assert s.zone("display[P1]") == ["red 5", "red 4"]
    assert s.zone("display[P2]") == ["squire 2", "red 3"]
    assert s.to_move == ANDY
