"""Ivanhoe: the rulebook's example game (section 15), every action card, every point of
docs/rulings.md's Ivanhoe section, the choices games/ivanhoe.rules makes where both are silent, and
properties over many random games for 2, 3, 4 and 5 players."""

import json
import random
from collections import Counter

import pytest

import rulesdsl

COLOURS = ["purple", "red", "blue", "yellow", "green"]
ANDY, BILL, CHRIS, DIANE = 0, 1, 2, 3


@pytest.fixture(scope="module")
def game():
    return rulesdsl.load("ivanhoe")


_FULL = None


def full_deck(game):
    """Every card's label, once per copy, with the action cards first (so they lie at the
    bottom of a draw pile built from what is left over)."""
    global _FULL
    if _FULL is None:
        s = game.new_game(2, 0)
        cards = s.zone("draw_pile") + s.zone("hand[P1]") + s.zone("hand[P2]")
        assert len(cards) == 110
        actions = {"riposte", "knock down", "unhorse", "change weapon", "drop weapon",
                   "break lance", "dodge", "retreat", "outmaneuver", "charge", "countercharge",
                   "disgrace", "adapt", "outwit", "shield", "stunned", "ivanhoe"}
        _FULL = sorted(cards, key=lambda c: (c not in actions, c))
    return list(_FULL)


def table(game, players=4, hands=None, draws=(), zones=None, vars=None, seed=1):
    """A game whose hands, displays and draw pile are as given. `hands` maps seats (1-based,
    as P1..) to card lists; `draws` are the next cards drawn, in order; the rest of the deck
    lies below them in the draw pile. The last seat deals unless `vars` names another
    dealer, so P1 starts."""
    zones = dict(zones or {})
    hands = hands or {}
    for p in range(1, players + 1):
        zones.setdefault(f"hand[P{p}]", list(hands.get(p, [])))
    listed = Counter()
    for cards in zones.values():
        listed.update(cards)
    listed.update(draws)
    rest = full_deck(game)
    for lab, n in listed.items():
        for _ in range(n):
            rest.remove(lab)
    zones["draw_pile"] = rest + list(reversed(draws))
    v = {"dealer": f"P{players}"}
    v.update(vars or {})
    return game.new_game(players, seed, scenario={"zones": zones, "vars": v})


def labels(s):
    return sorted(a.label for a in s.legal_actions())


def pass_forced(s):
    """Answer every decision whose only action is `decline`: the players asked about
    ivanhoe who do not hold it (everyone still in is asked, so nobody learns who holds it)."""
    while not s.is_over and [a.label for a in s.legal_actions()] == ["decline"]:
        s.apply("decline")


def play(s, *actions):
    for a in actions:
        pass_forced(s)
        s.apply(a)
    pass_forced(s)


def value(label):
    if label == "maiden":
        return 6
    return int(label.split()[-1])


def total(s, seat):
    cards = s.zone(f"display[P{seat + 1}]")
    if s.var("tournament_colour") == "green":
        return len(cards)
    return sum(value(c) for c in cards)


# A tournament under way: colour named, P1 to move, nobody has drawn for this turn yet.
def under_way(game, colour="red", displays=None, hands=None, beside=None, draws=("yellow 3",),
              players=4, vars=None, discard=()):
    zones = {}
    for p in range(1, players + 1):
        zones[f"display[P{p}]"] = list((displays or {}).get(p, []))
        zones[f"beside[P{p}]"] = list((beside or {}).get(p, []))
    zones["discard"] = list(discard)
    v = {"tournament_colour": colour}
    v.update(vars or {})
    return table(game, players, hands=hands, draws=draws, zones=zones, vars=v)


# ---------------------------------------------------------------- the example game (15)

EXAMPLE_HANDS = {
    1: ["red 3", "red 5", "maiden", "blue 5", "riposte", "adapt", "green 1", "green 1"],
    2: ["red 5", "yellow 2", "yellow 2", "purple 3", "purple 3", "purple 3", "purple 4",
        "purple 4"],
    3: ["blue 2", "outwit", "blue 5", "purple 4", "purple 4", "purple 3", "yellow 4",
        "yellow 4"],
    4: ["red 4", "red 3", "red 3", "squire 2", "squire 3", "blue 3", "blue 4", "blue 3"],
}
# Who draws, in the order of the example's turns, and what.
EXAMPLE_DRAWS = [
    # first tournament: Andy, Bill, Chris, Diane, Andy, Bill, Diane, Andy, Diane, Andy
    "yellow 3", "yellow 3", "yellow 3", "drop weapon", "yellow 3", "yellow 3", "green 1",
    "yellow 3", "green 1", "yellow 3",
    # second: Diane, Andy, Bill, Chris, Diane, Andy, Chris, Diane, Andy, Chris, Diane
    "yellow 3", "purple 5", "purple 5", "purple 5", "purple 5", "purple 7", "purple 7",
    "yellow 2", "yellow 2", "squire 2", "squire 2",
]


def example(game):
    return table(game, 4, hands=EXAMPLE_HANDS, draws=EXAMPLE_DRAWS)


def announce(s, seat, expected):
    """End the turn and check the announced total."""
    assert s.to_move == seat
    s.apply("end turn")
    assert s.var(f"announced[P{seat + 1}]") == expected
    assert total(s, seat) == expected


def first_tournament(s):
    assert s.to_move == ANDY
    assert s.var("leader") == ANDY  # left of the dealer, Diane
    play(s, "red", "red 3")
    announce(s, ANDY, 3)
    play(s, "red 5")
    announce(s, BILL, 5)
    assert s.to_move == CHRIS
    play(s, "withdraw")
    assert s.var("out[P3]") is True
    play(s, "red 4", "red 3")
    announce(s, DIANE, 7)
    play(s, "red 5")
    assert s.zone("display[P1]") == ["red 3", "red 5"]
    announce(s, ANDY, 8)
    play(s, "withdraw")
    assert s.zone("discard") == ["red 5"]
    assert s.to_move == DIANE  # Chris is out and does nothing
    play(s, "red 3", "squire 2")
    announce(s, DIANE, 12)
    play(s, "maiden")
    announce(s, ANDY, 14)
    play(s, "squire 3")
    announce(s, DIANE, 15)
    assert s.to_move == ANDY
    play(s, "withdraw")  # with a maiden, but no trophy to lose: nobody is asked


def test_example_first_tournament(game):
    s = example(game)
    first_tournament(s)
    assert s.var("trophy[P4, red]") is True
    assert [s.var(f"trophy[P{p}, {c}]") for p in (1, 2, 3) for c in COLOURS] == [False] * 15
    assert s.zone("discard") == ["red 5", "red 3", "red 5", "maiden", "red 4", "red 3",
                                 "red 3", "squire 2", "squire 3"]
    for p in range(1, 5):
        assert s.zone(f"display[P{p}]") == []
    # Diane starts the second tournament
    assert s.var("leader") == DIANE and s.to_move == DIANE
    assert s.var("tournament_colour") is None
    assert s.var("tournaments") == 2


def test_example_second_tournament(game):
    s = example(game)
    first_tournament(s)
    play(s, "blue", "blue 3")
    announce(s, DIANE, 3)
    play(s, "blue 5")
    announce(s, ANDY, 5)
    play(s, "withdraw")  # Bill
    # Chris: blue 2, then outwit gives Andy her blue 2 for his blue 5
    play(s, "blue 2", "outwit")
    assert labels(s) == ["P1", "P4"]
    play(s, "P1")
    assert labels(s) == ["blue 2"]
    play(s, "blue 2")
    assert labels(s) == ["blue 5"]
    play(s, "blue 5")
    assert s.zone("display[P1]") == ["blue 2"]
    assert s.zone("display[P3]") == ["blue 5"]
    announce(s, CHRIS, 5)
    play(s, "blue 4")
    announce(s, DIANE, 7)
    # Andy: riposte takes Diane's blue 4 (her last card)
    play(s, "riposte")
    assert labels(s) == ["P4"]  # Chris has a single card: riposte would not touch it
    play(s, "P4")
    assert s.zone("display[P1]") == ["blue 2", "blue 4"]
    assert s.zone("display[P4]") == ["blue 3"]
    announce(s, ANDY, 6)
    play(s, "blue 5")
    announce(s, CHRIS, 10)
    # Diane: blue 3, drop weapon (green), two green 1: four cards count four
    play(s, "blue 3", "drop weapon")
    assert s.var("tournament_colour") == "green"
    assert "blue 4" not in labels(s)  # only green cards now
    play(s, "green 1", "green 1")
    announce(s, DIANE, 4)
    # Andy: adapt. Chris loses one blue 5, Diane a blue 3 and a green 1; Andy has no pairs.
    # Alike copies lie at different places in a display: each player chooses which stays.
    play(s, "adapt")
    assert s.to_move == CHRIS and labels(s) == ["blue 5 (bottom)", "blue 5 (top)"]
    play(s, "blue 5 (bottom)")
    assert s.to_move == DIANE and labels(s) == ["green 1 (3rd)", "green 1 (top)"]
    play(s, "green 1 (3rd)", "blue 3 (bottom)")
    assert s.zone("display[P1]") == ["blue 2", "blue 4"]
    assert s.zone("display[P3]") == ["blue 5"]
    assert s.zone("display[P4]") == ["blue 3", "green 1"]
    play(s, "green 1", "green 1")
    announce(s, ANDY, 4)
    assert s.zone("display[P3]") == ["blue 5"]
    play(s, "withdraw")  # Chris, with a single card
    assert len(s.zone("display[P4]")) == 2
    play(s, "withdraw")  # Diane, with two cards
    assert s.var("trophy[P1, green]") is True
    assert s.var("trophy[P4, red]") is True
    assert s.scores == [1, 0, 0, 1]
    assert s.zone("discard")[9:] == [
        "outwit", "riposte", "drop weapon", "adapt", "blue 5", "green 1", "blue 3",
        "blue 5", "blue 3", "green 1", "blue 2", "blue 4", "green 1", "green 1"]
    # Andy starts the next tournament
    assert s.var("leader") == ANDY and s.to_move == ANDY
    assert not s.is_over


# ---------------------------------------------------------------- changing the colour

NEUTRAL = {1: ["squire 3"], 2: ["squire 2"]}  # displays that fit any colour


def test_unhorse_turns_purple_to_red_blue_or_yellow(game):
    s = under_way(game, "purple", displays={1: ["purple 3"], 2: ["purple 4"]},
                  hands={1: ["unhorse", "red 5"]})
    assert labels(s) == ["unhorse", "withdraw"]  # red 5 does not fit a purple tournament
    play(s, "unhorse")
    assert labels(s) == ["blue", "red", "yellow"]
    play(s, "red")
    assert s.var("tournament_colour") == "red"
    assert s.zone("discard") == ["unhorse"]
    play(s, "red 5")
    announce(s, ANDY, 8)  # the purple 3 still counts


@pytest.mark.parametrize("colour", ["red", "blue", "yellow", "green"])
def test_unhorse_only_in_a_purple_tournament(game, colour):
    s = under_way(game, colour, displays=NEUTRAL, hands={1: ["unhorse"]})
    assert "unhorse" not in labels(s)


def test_change_weapon_between_red_blue_and_yellow(game):
    s = under_way(game, "blue", displays=NEUTRAL, hands={1: ["change weapon", "yellow 4"]})
    play(s, "change weapon")
    assert labels(s) == ["red", "yellow"]  # never purple or green, never blue again
    play(s, "yellow")
    assert s.var("tournament_colour") == "yellow"
    play(s, "yellow 4")
    announce(s, ANDY, 7)


@pytest.mark.parametrize("colour", ["purple", "green"])
def test_change_weapon_not_in_purple_or_green(game, colour):
    s = under_way(game, colour, displays=NEUTRAL, hands={1: ["change weapon", "drop weapon"]})
    assert "change weapon" not in labels(s)
    assert "drop weapon" not in labels(s)


def test_drop_weapon_turns_the_tournament_green(game):
    s = under_way(game, "red", displays={1: ["red 3", "red 4"], 2: ["red 5", "squire 3"]},
                  hands={1: ["drop weapon", "green 1", "red 3"]})
    play(s, "drop weapon")
    assert s.var("tournament_colour") == "green"
    assert "red 3" not in labels(s) and "green 1" in labels(s)
    assert "end turn" not in labels(s)  # two cards against two: not strictly more
    play(s, "green 1")
    announce(s, ANDY, 3)


# ---------------------------------------------------------------- one opponent

def test_break_lance_discards_the_purple_cards_of_one_opponent(game):
    s = under_way(game, "red",  # purple cards from before an unhorse still lie there
                  displays={1: ["red 4"], 2: ["purple 3", "squire 2", "purple 5"],
                            3: ["purple 7"], 4: ["purple 4", "purple 3", "purple 7"]},
                  hands={1: ["break lance"]})
    play(s, "break lance")
    assert labels(s) == ["P2", "P4"]  # Chris's single card cannot go
    play(s, "P2")
    assert s.zone("display[P2]") == ["squire 2"]
    assert s.zone("discard") == ["break lance", "purple 3", "purple 5"]


def test_break_lance_on_an_all_purple_display_leaves_the_earliest_card(game):
    s = under_way(game, "purple", displays={1: ["purple 7"], 2: ["purple 4", "purple 3",
                                                                 "purple 5"]},
                  hands={1: ["break lance"]})
    play(s, "break lance", "P2")
    assert s.zone("display[P2]") == ["purple 4"]


def test_break_lance_needs_a_purple_card_to_break(game):
    s = under_way(game, "purple", displays={1: ["purple 7"], 2: ["squire 2", "squire 3"],
                                            3: ["purple 5"]},
                  hands={1: ["break lance"]})
    assert "break lance" not in labels(s)


def test_riposte_takes_the_last_card_of_an_opponent(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"], 3: ["red 3"]},
                  hands={1: ["riposte", "riposte"]})
    assert labels(s) == ["riposte", "withdraw"]  # two ripostes are one action
    play(s, "riposte")
    assert labels(s) == ["P2"]
    play(s, "P2")
    assert s.zone("display[P1]") == ["red 3", "red 5"]
    assert s.zone("display[P2]") == ["red 4"]
    assert "riposte" not in labels(s)  # now nobody has a card to spare
    announce(s, ANDY, 8)


def test_riposte_never_gives_a_second_maiden(game):
    s = under_way(game, "red", displays={1: ["maiden"], 2: ["red 4", "maiden"]},
                  hands={1: ["riposte"]})
    assert "riposte" not in labels(s)


def test_dodge_discards_any_card_of_an_opponent(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "squire 2", "red 5"],
                                         3: ["red 5"]},
                  hands={1: ["dodge"]})
    play(s, "dodge")
    assert labels(s) == ["P2"]
    play(s, "P2")
    assert labels(s) == ["red 4", "red 5", "squire 2"]
    play(s, "red 4")  # even the earliest card, while others remain
    assert s.zone("display[P2]") == ["squire 2", "red 5"]
    assert s.zone("discard") == ["dodge", "red 4"]


def test_retreat_takes_an_own_card_back(game):
    s = under_way(game, "red", displays={1: ["red 3", "red 5"], 2: ["red 4"]},
                  hands={1: ["retreat"]})
    play(s, "retreat")
    assert labels(s) == ["red 3", "red 5"]
    play(s, "red 3")
    assert s.zone("display[P1]") == ["red 5"]
    assert "red 3" in s.zone("hand[P1]")
    assert "retreat" in s.zone("discard")


def test_retreat_needs_two_cards(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4"]}, hands={1: ["retreat"]})
    assert "retreat" not in labels(s)


def test_knock_down_takes_a_random_hand_card(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4"]},
                  hands={1: ["knock down"], 2: ["purple 7", "blue 2"], 3: ["green 1"]},
                  vars={"out[P3]": True})
    play(s, "knock down")
    # a withdrawn player (P3) and one who has not played yet (P4, empty hand: no) count
    assert labels(s) == ["P2", "P3"]
    play(s, "P2")
    taken = [c for c in s.zone("hand[P1]") if c in ("purple 7", "blue 2")]
    assert len(taken) == 1
    assert len(s.zone("hand[P2]")) == 1
    # the others see that a card changed hands, not which
    line = [x for x in s.view(CHRIS)["log"] if x.startswith("hand[P2] -> hand[P1]")]
    assert line == ["hand[P2] -> hand[P1]: 1 card"]
    mine = [x for x in s.view(ANDY)["log"] if x.startswith("hand[P2] -> hand[P1]")]
    assert mine == [f"hand[P2] -> hand[P1]: {taken[0]}"]


def test_knock_down_a_withdrawn_player_and_one_who_has_not_played(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4"]},
                  hands={1: ["knock down"], 3: ["green 1"], 4: ["maiden"]},
                  vars={"out[P3]": True})
    play(s, "knock down")
    assert labels(s) == ["P3", "P4"]
    play(s, "P4")
    assert "maiden" in s.zone("hand[P1]")


# ---------------------------------------------------------------- several displays

def test_outmaneuver_takes_the_last_card_of_every_opponent(game):
    s = under_way(game, "red",
                  displays={1: ["red 3", "red 4"], 2: ["red 4", "red 5"], 3: ["red 5"],
                            4: ["red 3", "squire 3"]},
                  beside={4: ["shield"]}, hands={1: ["outmaneuver"]})
    play(s, "outmaneuver")
    assert s.zone("display[P1]") == ["red 3", "red 4"]  # not the player's own
    assert s.zone("display[P2]") == ["red 4"]
    assert s.zone("display[P3]") == ["red 5"]  # a single card stays
    assert s.zone("display[P4]") == ["red 3", "squire 3"]  # shielded


def test_outmaneuver_needs_an_opponent_with_two_cards(game):
    s = under_way(game, "red", displays={1: ["red 3", "red 4"], 2: ["red 5"], 3: ["red 5"]},
                  hands={1: ["outmaneuver"]})
    assert "outmaneuver" not in labels(s)


def test_charge_discards_every_card_of_the_lowest_value(game):
    s = under_way(game, "red",
                  displays={1: ["red 3", "red 5"], 2: ["squire 2", "red 4", "squire 2"],
                            3: ["squire 2"], 4: ["squire 2", "red 3"]},
                  beside={4: ["shield"]}, hands={1: ["charge"]})
    play(s, "charge")
    assert s.zone("display[P1]") == ["red 3", "red 5"]
    assert s.zone("display[P2]") == ["red 4"]
    assert s.zone("display[P3]") == ["squire 2"]  # the only card stays
    assert s.zone("display[P4]") == ["squire 2", "red 3"]  # shielded


def test_charge_strikes_the_players_own_display_too(game):
    s = under_way(game, "red", displays={1: ["squire 2", "red 5"], 2: ["red 4"]},
                  beside={1: ["shield"]}, hands={1: ["charge"]})
    play(s, "charge")
    assert s.zone("display[P1]") == ["red 5"]


def test_charge_counts_a_shielded_display_when_finding_the_lowest(game):
    # the lowest card (2) lies behind a shield: charge would do nothing, so it cannot be played
    s = under_way(game, "red", displays={1: ["red 3", "red 5"], 2: ["squire 2", "red 4"]},
                  beside={2: ["shield"]}, hands={1: ["charge"]})
    assert "charge" not in labels(s)


def test_charge_in_green_uses_printed_values(game):
    s = under_way(game, "green",
                  displays={1: ["red 3", "green 1"], 2: ["squire 2", "green 1", "maiden"]},
                  hands={1: ["charge"]})
    play(s, "charge")
    assert s.zone("display[P1]") == ["red 3"]
    assert s.zone("display[P2]") == ["squire 2", "maiden"]


def test_countercharge_discards_every_card_of_the_highest_value(game):
    s = under_way(game, "red",
                  displays={1: ["red 3"], 2: ["red 5", "red 4", "blue 5"], 3: ["red 3", "red 5"],
                            4: ["blue 5"]},
                  hands={1: ["countercharge"]})
    play(s, "countercharge")
    assert s.zone("display[P2]") == ["red 4"]
    assert s.zone("display[P3]") == ["red 3"]
    assert s.zone("display[P4]") == ["blue 5"]
    assert s.zone("display[P1]") == ["red 3"]


def test_countercharge_in_green_uses_printed_values(game):
    s = under_way(game, "green",
                  displays={1: ["green 1"], 2: ["maiden", "green 1", "purple 7"]},
                  hands={1: ["countercharge"]})
    play(s, "countercharge")
    assert s.zone("display[P2]") == ["maiden", "green 1"]


def test_disgrace_discards_every_supporter(game):
    s = under_way(game, "red",
                  displays={1: ["red 3", "squire 2"], 2: ["squire 3", "maiden", "squire 2"],
                            3: ["red 4", "squire 3"], 4: ["red 3", "squire 2"]},
                  beside={4: ["shield"]}, hands={1: ["disgrace"]})
    play(s, "disgrace")
    assert s.zone("display[P1]") == ["red 3"]  # the player's own too
    assert s.zone("display[P2]") == ["squire 3"]  # the earliest card stays
    assert s.zone("display[P3]") == ["red 4"]
    assert s.zone("display[P4]") == ["red 3", "squire 2"]  # shielded


def test_adapt_lets_each_player_choose_which_card_to_keep(game):
    s = under_way(game, "red",
                  displays={1: ["red 4", "squire 2", "blue 4"], 2: ["red 3", "squire 3", "red 5"],
                            3: ["red 4", "red 4"]},
                  hands={1: ["adapt"]})
    play(s, "adapt")
    # the player first, then round the table
    assert s.to_move == ANDY and labels(s) == ["blue 4", "red 4"]
    play(s, "blue 4")
    assert s.zone("display[P1]") == ["squire 2", "blue 4"]
    assert s.to_move == BILL and labels(s) == ["red 3", "squire 3"]
    play(s, "squire 3")
    assert s.zone("display[P2]") == ["squire 3", "red 5"]
    # two alike cards: their places differ, so the player chooses which stays
    assert s.to_move == CHRIS and labels(s) == ["red 4 (bottom)", "red 4 (top)"]
    play(s, "red 4 (top)")
    assert s.zone("display[P3]") == ["red 4"]
    assert s.zone("discard")[-1] == "red 4"
    assert s.to_move == ANDY  # back to the player's turn


def test_adapt_needs_a_pair_somewhere(game):
    s = under_way(game, "red", displays={1: ["red 4", "red 3"], 2: ["red 3", "red 5"]},
                  hands={1: ["adapt"]})
    assert "adapt" not in labels(s)


def test_outwit_can_give_a_stunned_card(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 5", "red 4"]},
                  beside={1: ["stunned"]}, hands={1: ["outwit"]})
    play(s, "outwit", "P2")
    assert labels(s) == ["red 3", "stunned"]
    play(s, "stunned")
    assert labels(s) == ["red 4", "red 5"]
    play(s, "red 5")
    assert s.zone("display[P1]") == ["red 3", "red 5"]
    assert s.zone("beside[P1]") == []
    assert s.zone("display[P2]") == ["red 4"]
    assert s.zone("beside[P2]") == ["stunned"]


def test_outwit_can_take_a_stunned_card_and_give_a_shield(game):
    s = under_way(game, "red", displays={1: ["red 3", "red 5"], 2: ["red 4"]},
                  beside={1: ["shield"], 2: ["stunned"]}, hands={1: ["outwit"]})
    play(s, "outwit", "P2")
    assert labels(s) == ["red 3", "red 5", "shield"]
    play(s, "shield")
    # P2's single display card can only go in exchange for a display card
    assert labels(s) == ["stunned"]
    play(s, "stunned")
    assert s.zone("beside[P1]") == ["stunned"]
    assert s.zone("beside[P2]") == ["shield"]


def test_outwit_never_empties_a_display(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  beside={2: ["stunned"]}, hands={1: ["outwit"]})
    play(s, "outwit", "P2", "red 3")
    assert labels(s) == ["red 4", "red 5"]  # not the stunned card for my only card
    play(s, "red 4")  # an exchange: each card goes on top of its new display
    assert s.zone("display[P1]") == ["red 4"]
    assert s.zone("display[P2]") == ["red 5", "red 3"]


def test_outwit_not_against_a_shield(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  beside={2: ["shield"]}, hands={1: ["outwit"]})
    assert "outwit" not in labels(s)


# ---------------------------------------------------------------- shield and stunned

SHIELD_PROTECTS = ["break lance", "riposte", "dodge", "knock down", "outmaneuver", "charge",
                   "countercharge", "disgrace", "adapt", "outwit"]


def shielded_pair(game, shield):
    """Two players; P2 to move with every card the shield stops; P1's display invites them."""
    return under_way(game, "purple", players=2,
                     displays={1: ["purple 3", "purple 5", "squire 2", "purple 5", "maiden"],
                               2: ["purple 4"]},
                     beside={1: ["shield"] if shield else []},
                     hands={1: ["red 3", "green 1"],
                            2: SHIELD_PROTECTS + ["unhorse", "stunned"]},
                     vars={"dealer": "P1"})


def test_shield_protects_against_opponents_action_cards(game):
    s = shielded_pair(game, shield=True)
    assert s.to_move == BILL
    legal = labels(s)
    for card in SHIELD_PROTECTS:
        assert card not in legal
    # but not against colour changes or stunned
    assert "unhorse" in legal and "stunned" in legal
    play(s, "stunned", "P1")
    assert s.zone("beside[P1]") == ["shield", "stunned"]
    play(s, "unhorse", "red")
    assert s.var("tournament_colour") == "red"


def test_without_a_shield_those_cards_are_playable(game):
    s = shielded_pair(game, shield=False)
    legal = labels(s)
    for card in SHIELD_PROTECTS:
        assert card in legal


def test_shield_is_laid_beside_the_display(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 3"]},
                  hands={1: ["shield", "red 5"]})
    play(s, "shield")
    assert s.zone("beside[P1]") == ["shield"]
    assert s.zone("display[P1]") == ["red 3"]
    assert "shield" not in s.zone("discard")
    play(s, "red 5")
    announce(s, ANDY, 8)  # the shield counts nothing


def test_stunned_allows_one_card_a_turn(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 5", "red 4"]},
                  beside={1: ["stunned"]},
                  hands={1: ["red 4", "red 5", "squire 2", "riposte", "dodge", "outwit"]})
    play(s, "red 4")
    legal = labels(s)
    assert "red 5" not in legal and "squire 2" not in legal and "riposte" not in legal
    assert "dodge" in legal and "outwit" in legal  # outwit is a swap


def test_stunned_counts_a_card_taken_by_riposte(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 5", "red 4"]},
                  beside={1: ["stunned"]}, hands={1: ["red 4", "riposte"]})
    play(s, "riposte", "P2")
    assert "red 4" not in labels(s)


def test_stunned_on_a_player_who_has_not_played_yet(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4"]}, hands={1: ["stunned"]},
                  vars={"out[P3]": True})
    play(s, "stunned")
    assert labels(s) == ["P2", "P4"]  # not the withdrawn P3
    play(s, "P4")
    assert s.zone("beside[P4]") == ["stunned"]


# ---------------------------------------------------------------- ivanhoe

def test_ivanhoe_cancels_an_action_card(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  hands={1: ["dodge"], 3: ["ivanhoe"]})
    play(s, "dodge", "P2", "red 5")
    # the holder answers once the target and the card are named, and only then
    assert s.to_move == CHRIS and s.zone("display[P2]") == ["red 4", "red 5"]
    assert labels(s) == ["decline", "ivanhoe"]
    play(s, "ivanhoe")
    assert s.zone("display[P2]") == ["red 4", "red 5"]
    assert s.zone("discard") == ["dodge", "ivanhoe"]
    assert s.to_move == ANDY and labels(s) == ["withdraw"]
    assert "dodge is cancelled" in s.log


# The holder decides knowing the effect: the card that dodge, retreat or outwit named is in
# its log when it is asked, not only after (the move that tells it comes after the answer).
@pytest.mark.parametrize("hands, displays, actions, named", [
    ({1: ["dodge"]}, {1: ["red 3"], 2: ["red 4", "red 5"]}, ["dodge", "P2", "red 5"],
     ["P1 names red 5 in display[P2]"]),
    ({1: ["retreat"]}, {1: ["red 3", "red 4"], 2: ["red 5"]}, ["retreat", "red 4"],
     ["P1 names red 4 in display[P1]"]),
    ({1: ["outwit"]}, {1: ["red 3", "squire 2"], 2: ["red 4", "red 5"]},
     ["outwit", "P2", "squire 2", "red 5"],
     ["P1 names squire 2 in display[P1]", "P1 names red 5 in display[P2]"]),
])
def test_ivanhoe_holder_is_asked_knowing_the_named_card(game, hands, displays, actions, named):
    s = under_way(game, "red", displays=displays, hands={**hands, 3: ["ivanhoe"]})
    play(s, *actions)
    assert s.to_move == CHRIS and labels(s) == ["decline", "ivanhoe"]
    log = s.view(CHRIS)["log"]
    since_play = log[log.index("P1 plays " + actions[0]) + 1:]
    told = [line for line in since_play if " names " in line]
    assert told == named
    assert since_play.index(named[-1]) < since_play.index("P2 chooses decline")
    in_words = [line for line in s.story(CHRIS) if " names " in line]
    assert in_words == [line.replace("display[P1]", "P1's display")
                        .replace("display[P2]", "P2's display") for line in named]


def test_a_named_card_is_told_as_its_place_lets_a_seat_see_it(game):
    # retreat names a card of a public display: every seat reads it; a card of a hand
    # would read "a card" to the others (the view of the zone decides, as for moves)
    s = under_way(game, "red", displays={1: ["red 3", "red 4"], 2: ["red 5"]},
                  hands={1: ["retreat"], 3: ["ivanhoe"]})
    play(s, "retreat", "red 4")
    entry = next(e for e in reversed(s.events) if e[0] == "named")
    hidden = (entry[0], entry[1], entry[2], s.prog.zone_names.index("hand[P1]"))
    assert s.render_log(hidden, BILL) == "P1 names a card in hand[P1]"
    assert s.render_log(hidden, ANDY) == "P1 names red 4 in hand[P1]"


def test_ivanhoe_declined_lets_the_card_act(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  hands={1: ["dodge"], 3: ["ivanhoe"]})
    play(s, "dodge", "P2", "red 5", "decline")
    assert s.zone("display[P2]") == ["red 4"]
    assert s.to_move == ANDY
    assert s.zone("hand[P3]") == ["ivanhoe"]


def test_ivanhoe_cancels_a_shield_as_it_is_laid(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4"]},
                  hands={1: ["shield"], 4: ["ivanhoe"]})
    play(s, "shield")
    assert s.to_move == DIANE
    play(s, "ivanhoe")
    assert s.zone("beside[P1]") == []
    assert s.zone("discard") == ["shield", "ivanhoe"]


def test_ivanhoe_cancels_the_card_of_a_shielded_player(game):
    s = under_way(game, "red", displays={1: ["squire 2", "red 5"], 2: ["red 4", "squire 2"]},
                  beside={1: ["shield"]}, hands={1: ["charge"], 2: ["ivanhoe"]})
    play(s, "charge", "ivanhoe")
    assert s.zone("display[P2]") == ["red 4", "squire 2"]
    assert s.zone("display[P1]") == ["squire 2", "red 5"]


def test_ivanhoe_cancels_a_colour_change(game):
    s = under_way(game, "red", displays=NEUTRAL, hands={1: ["drop weapon"], 2: ["ivanhoe"]})
    play(s, "drop weapon", "ivanhoe")
    assert s.var("tournament_colour") == "red"


def test_ivanhoe_only_from_players_still_in(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  hands={1: ["dodge"], 3: ["ivanhoe"]}, vars={"out[P3]": True})
    play(s, "dodge")
    assert s.to_move == ANDY  # nobody is asked


def test_ivanhoe_is_not_played_on_its_owners_turn(game):
    s = under_way(game, "red", displays={1: ["red 3"], 2: ["red 4", "red 5"]},
                  hands={1: ["ivanhoe", "dodge"]})
    assert "ivanhoe" not in labels(s)
    play(s, "dodge")
    assert s.to_move == ANDY and labels(s) == ["P2"]


# ---------------------------------------------------------------- staying in, withdrawing

def test_to_stay_in_a_player_must_play_and_lead_strictly(game):
    s = under_way(game, "red", displays={1: ["red 4"], 2: ["red 5", "squire 2"]},
                  hands={1: ["red 3", "squire 2"]})
    assert labels(s) == ["red 3", "squire 2", "withdraw"]  # no card played yet
    play(s, "squire 2")
    assert "end turn" not in labels(s)  # 6 against 7
    play(s, "red 3")
    assert "end turn" in labels(s)  # 9 against 7


def test_a_tie_is_not_enough(game):
    s = under_way(game, "red", displays={1: ["red 4"], 2: ["red 5", "squire 2"]},
                  hands={1: ["red 3"]})
    play(s, "red 3")
    assert labels(s) == ["withdraw"]


def test_green_tournament_counts_cards(game):
    s = under_way(game, "green", displays={1: ["purple 7"], 2: ["green 1", "green 1"]},
                  hands={1: ["green 1", "squire 3", "maiden"]})
    play(s, "green 1")
    assert "end turn" not in labels(s)  # 2 cards against 2
    play(s, "maiden")
    announce(s, ANDY, 3)


def test_withdrawing_discards_display_and_beside(game):
    s = under_way(game, "red", displays={1: ["red 3", "squire 2"], 2: ["red 5", "red 4"]},
                  beside={1: ["stunned"]}, hands={1: ["red 4"]})
    play(s, "withdraw")
    assert s.var("out[P1]") is True
    assert s.zone("display[P1]") == [] and s.zone("beside[P1]") == []
    assert s.zone("discard") == ["red 3", "squire 2", "stunned"]
    assert s.to_move == BILL


def test_maiden_penalty_returns_a_trophy_of_choice(game):
    s = under_way(game, "red", displays={1: ["red 3", "maiden"], 2: ["red 5", "red 4"]},
                  vars={"trophy[P1, red]": True, "trophy[P1, blue]": True})
    play(s, "withdraw")
    assert s.to_move == ANDY
    assert labels(s) == ["blue", "red"]
    play(s, "blue")
    assert s.var("trophy[P1, blue]") is False and s.var("trophy[P1, red]") is True
    assert s.to_move == BILL


def test_maiden_penalty_also_in_green(game):
    s = under_way(game, "green", displays={1: ["maiden"], 2: ["green 1", "green 1"]},
                  vars={"trophy[P1, yellow]": True})
    play(s, "withdraw")
    assert labels(s) == ["yellow"]
    play(s, "yellow")
    assert s.var("trophy[P1, yellow]") is False


def test_no_maiden_no_penalty(game):
    s = under_way(game, "red", displays={1: ["red 3", "squire 2"], 2: ["red 5", "red 4"]},
                  vars={"trophy[P1, red]": True})
    play(s, "withdraw")
    assert s.to_move == BILL and s.var("trophy[P1, red]") is True


# ---------------------------------------------------------------- winning tournaments

def last_two(game, colour, players=4, trophies=(), displays=None, hands=None):
    """P2 to move and about to withdraw; P1 is the only other player still in."""
    v = {"dealer": "P1"}
    for p in range(3, players + 1):
        v[f"out[P{p}]"] = True
    for t in trophies:
        v[f"trophy[P1, {t}]"] = True
    d = displays or {1: ["squire 3"], 2: ["squire 2"]}
    return under_way(game, colour, players=players, displays=d, hands=hands, vars=v)


def test_the_last_player_in_wins_a_trophy_of_the_colour(game):
    s = last_two(game, "yellow")
    play(s, "withdraw")
    assert s.var("trophy[P1, yellow]") is True
    assert s.zone("display[P1]") == []  # the winner discards too
    assert s.zone("discard")[-1] == "squire 3"
    assert s.var("leader") == ANDY and s.to_move == ANDY
    assert [s.var(f"out[P{p}]") for p in (1, 2, 3, 4)] == [False] * 4


def test_purple_winner_chooses_a_colour_not_held(game):
    s = last_two(game, "purple", trophies=["red"])
    play(s, "withdraw")
    assert s.to_move == ANDY
    assert labels(s) == ["blue", "green", "purple", "yellow"]
    play(s, "green")
    assert s.var("trophy[P1, green]") is True and s.var("trophy[P1, purple]") is False


def test_at_most_one_trophy_per_colour(game):
    s = last_two(game, "red", trophies=["red"])
    play(s, "withdraw")
    assert s.var("trophy[P1, red]") is True
    assert s.scores[ANDY] == 1
    assert "P1 already holds a red trophy" in s.log


def test_a_tournament_turned_from_purple_gives_the_final_colour(game):
    s = last_two(game, "purple", hands={2: ["unhorse"]},
                 displays={1: ["purple 3", "purple 4"], 2: ["purple 7"]})
    play(s, "unhorse", "blue", "withdraw")
    assert s.var("trophy[P1, blue]") is True
    assert s.var("purple_winner") is None


def test_purple_winner_must_name_another_colour(game):
    s = last_two(game, "purple", hands={1: ["purple 3", "purple 7", "squire 2"]})
    play(s, "withdraw", "yellow")
    assert s.var("purple_winner") == ANDY
    assert s.to_move == ANDY
    assert labels(s) == ["blue", "green", "red", "yellow"]  # the squire allows any but purple


def test_after_another_colour_purple_may_be_named_again(game):
    s = last_two(game, "red", hands={1: ["purple 3", "purple 7"]})
    play(s, "withdraw")
    assert labels(s) == ["purple", "yellow"]  # Andy drew a yellow 3


def test_purple_winner_with_only_purple_and_action_cards_cannot_start(game):
    s = table(game, 4, hands={1: ["purple 3", "purple 7", "dodge"], 2: ["red 3"]},
              draws=["retreat", "charge", "yellow 3"],
              zones={"display[P1]": ["squire 3"], "display[P2]": ["squire 2"]},
              vars={"dealer": "P1", "tournament_colour": "purple", "out[P3]": True,
                    "out[P4]": True})
    play(s, "withdraw")  # Bill draws the retreat, and withdraws
    play(s, "red")  # Andy's purple trophy
    # Andy draws the charge: purple he may not name, and he holds no supporter
    assert s.to_move == BILL
    assert "hand[P1] shows: purple 3, purple 7, dodge, charge" in s.log
    assert labels(s) == ["red", "yellow"]  # Bill starts; he drew the yellow 3


def test_starter_with_only_action_cards_shows_the_hand(game):
    s = table(game, 4, hands={1: ["dodge", "charge"], 2: ["blue 3"], 3: ["red 3"],
                              4: ["yellow 2"]},
              draws=["shield", "blue 4"])
    # Andy draws the shield: only action cards. He shows them; Bill starts.
    assert s.to_move == BILL
    assert "hand[P1] shows: dodge, charge, shield" in s.log
    assert s.zone("hand[P1]") == ["dodge", "charge", "shield"]
    assert labels(s) == ["blue"]
    play(s, "blue", "blue 3", "end turn")
    # Andy stays in the tournament: his turn comes after Diane's
    assert s.var("out[P1]") is False
    assert s.to_move == CHRIS
    play(s, "withdraw")
    assert s.to_move == DIANE
    play(s, "withdraw")
    assert s.to_move == ANDY  # a normal turn now, with an empty display
    assert "withdraw" in labels(s)


def test_starter_draws_before_showing_the_hand(game):
    s = table(game, 4, hands={1: ["dodge", "charge"]}, draws=["red 3"])
    assert s.to_move == ANDY
    assert labels(s) == ["red"]


def test_a_starter_names_a_colour_held_or_any_with_a_supporter(game):
    s = table(game, 4, hands={1: ["red 3", "blue 2", "dodge"]}, draws=["yellow 3"])
    assert labels(s) == ["blue", "red", "yellow"]
    s = table(game, 4, hands={1: ["red 3", "maiden"]}, draws=["yellow 3"])
    assert labels(s) == COLOURS[:0] + sorted(COLOURS)
    play(s, "green")
    assert labels(s) == ["maiden"]  # the first card: the named colour or a supporter
    play(s, "maiden")
    assert labels(s) == ["end turn", "withdraw"]


# ---------------------------------------------------------------- the end of the game

@pytest.mark.parametrize("players,held,wins", [
    (2, ["red", "blue", "yellow"], False),
    (2, ["red", "blue", "yellow", "purple"], True),
    (3, ["red", "blue", "yellow"], False),
    (3, ["red", "blue", "yellow", "purple"], True),
    (4, ["red", "blue"], False),
    (4, ["red", "blue", "yellow"], True),
    (5, ["red", "blue", "yellow"], True),
])
def test_win_by_colours(game, players, held, wins):
    s = last_two(game, "green", players=players, trophies=held)
    play(s, "withdraw")
    assert s.is_over is wins
    if wins:
        assert s.winners == [ANDY]
        assert s.scores[ANDY] == (5 if players <= 3 else 4)
    else:
        assert s.to_move == ANDY


def test_winning_a_held_colour_does_not_win_the_game(game):
    s = last_two(game, "red", trophies=["red", "blue", "yellow"], players=5)
    play(s, "withdraw")
    assert not s.is_over


# ---------------------------------------------------------------- the draw pile

def test_the_discards_are_shuffled_into_a_new_draw_pile(game):
    deck = full_deck(game)
    hands = {1: ["red 3", "red 4"], 2: ["red 5"], 3: [], 4: []}
    zones = {f"hand[P{p}]": h for p, h in hands.items()}
    for p in hands:
        for lab in hands[p]:
            deck.remove(lab)
    deck.remove("yellow 3")
    zones["draw_pile"] = ["yellow 3"]
    zones["discard"] = deck
    s = game.new_game(4, 3, scenario={"zones": zones, "vars": {"dealer": "P4"}})
    # Andy drew the last card: the 106 discards became the new draw pile
    assert "yellow 3" in s.zone("hand[P1]")
    assert s.zone("discard") == []
    assert len(s.zone("draw_pile")) == 106
    assert sorted(s.zone("draw_pile")) == sorted(deck)
    assert "the discards are shuffled into a new draw pile" in s.log


def test_no_cards_left_to_draw(game):
    deck = full_deck(game)
    zones = {"hand[P1]": deck[:55], "hand[P2]": deck[55:], "draw_pile": [], "discard": []}
    s = game.new_game(2, 3, scenario={"zones": zones, "vars": {"dealer": "P2"}})
    assert s.to_move == ANDY
    assert len(s.zone("hand[P1]")) == 55


# ---------------------------------------------------------------- random games

GAMES_PER_COUNT = 300


def zone_names(players):
    names = ["draw_pile", "discard"]
    for p in range(1, players + 1):
        names += [f"hand[P{p}]", f"display[P{p}]", f"beside[P{p}]"]
    return names


def check_hidden(s, seat, players):
    view = s.view(seat)
    for p in range(players):
        hand = view["zones"][f"hand[P{p + 1}]"]
        if p == seat:
            assert hand == s.zone(f"hand[P{p + 1}]")
        else:
            assert hand == {"count": len(s.zone(f"hand[P{p + 1}]"))}
    assert view["zones"]["draw_pile"] == {"count": len(s.zone("draw_pile"))}
    # cards drawn, or moved between hands, by others are shown as a count
    for line in view["log"]:
        head, _, what = line.partition(": ")
        if " -> hand[" in head and not head.endswith(f"hand[P{seat + 1}]") and \
                not head.startswith("display") and not head.startswith("discard") and \
                not head.startswith(f"hand[P{seat + 1}]"):
            assert what.endswith("card") or what.endswith("cards"), line


def random_game(game, players, seed, deck):
    s = game.new_game(players, seed)
    rng = random.Random(seed)
    names = zone_names(players)
    stayed = set()
    tournament = s.var("tournaments")
    steps = 0
    while not s.is_over:
        seat = s.to_move
        action = rng.choice(s.legal_actions())
        s.apply(action)
        steps += 1
        # all 110 cards are accounted for
        held = []
        for z in names:
            held += s.zone(z)
        held.sort()
        assert held == deck
        if s.var("tournaments") != tournament:
            tournament = s.var("tournaments")
            stayed = set()
        if action.label == "end turn":
            stayed.add(seat)
        # nobody still in who has ended a turn has an empty display
        if not s.is_over:
            for p in stayed:
                if not s.var(f"out[P{p + 1}]"):
                    assert s.zone(f"display[P{p + 1}]"), (seed, steps, p)
        if steps % 40 == 0:
            check_hidden(s, s.to_move if not s.is_over else 0, players)
    # at most one trophy per colour (trophies are yes/no per colour); the winner holds enough
    need = 5 if players <= 3 else 4
    assert len(s.winners) == 1
    w = s.winners[0]
    assert sum(s.var(f"trophy[P{w + 1}, {c}]") is True for c in COLOURS) >= need
    for p in range(players):
        assert all(s.var(f"trophy[P{p + 1}, {c}]") in (True, False) for c in COLOURS)
        if p != w:
            assert s.scores[p] < need
        check_hidden(s, p, players)
    return steps


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games(game, players):
    deck = sorted(full_deck(game))
    for seed in range(GAMES_PER_COUNT):
        random_game(game, players, seed, deck)


def test_save_and_restore_mid_game(game):
    s = game.new_game(4, 11)
    rng = random.Random(11)
    for _ in range(60):
        s.apply(rng.choice(s.legal_actions()))
    text = s.to_json()
    r = rulesdsl.restore(game, text)
    assert json.loads(r.to_json())["zones"] == json.loads(text)["zones"]
    while not s.is_over:
        a = rng.choice(s.legal_actions()).label
        s.apply(a)
        r.apply(a)
    assert r.winners == s.winners and r.history == s.history


# ---------------------------------------------------------------- the box and the deal

def test_the_deck_holds_110_cards(game):
    deck = Counter(full_deck(game))
    assert sum(deck.values()) == 110
    expected = {
        "purple 3": 4, "purple 4": 4, "purple 5": 4, "purple 7": 2,
        "red 3": 6, "red 4": 6, "red 5": 2,
        "blue 2": 4, "blue 3": 4, "blue 4": 4, "blue 5": 2,
        "yellow 2": 4, "yellow 3": 8, "yellow 4": 2, "green 1": 14,
        "squire 2": 8, "squire 3": 8, "maiden": 4,
        "riposte": 3, "knock down": 2, "unhorse": 1, "change weapon": 1, "drop weapon": 1,
        "break lance": 1, "dodge": 1, "retreat": 1, "outmaneuver": 1, "charge": 1,
        "countercharge": 1, "disgrace": 1, "adapt": 1, "outwit": 1, "shield": 1,
        "stunned": 1, "ivanhoe": 1,
    }
    assert dict(deck) == expected


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deal(game, players):
    s = game.new_game(players, 7)
    # seat 0 deals 8 cards to each; the player to the dealer's left starts and has drawn
    assert s.var("dealer") == 0 and s.var("leader") == 1
    assert s.to_move == 1 or "cannot start" in "\n".join(s.log)
    sizes = [len(s.zone(f"hand[P{p + 1}]")) for p in range(players)]
    assert sum(sizes) == 8 * players + 1 + ("cannot start" in "\n".join(s.log))
    assert len(s.zone("draw_pile")) == 110 - sum(sizes)
    assert s.var("tournaments") == 1
    assert game.min_players == 2 and game.max_players == 5


def test_outwit_never_gives_a_second_maiden(game):
    s = under_way(game, "red", displays={1: ["red 3", "maiden"], 2: ["maiden", "red 4"]},
                  hands={1: ["outwit"]})
    play(s, "outwit", "P2")
    # my maiden could go only for P2's maiden: alike, no effect, so it is not offered
    assert labels(s) == ["red 3"]
    play(s, "red 3")
    assert labels(s) == ["red 4"]  # not P2's maiden for my red 3


def test_countercharge_counts_a_shielded_display_when_finding_the_highest(game):
    s = under_way(game, "red", displays={1: ["red 3", "red 4"], 2: ["red 5", "red 4"]},
                  beside={2: ["shield"]}, hands={1: ["countercharge"]})
    assert "countercharge" not in labels(s)
    s = under_way(game, "red", displays={1: ["red 3", "red 4"], 2: ["red 3", "red 4"]},
                  beside={2: ["shield"]}, hands={1: ["countercharge"]})
    play(s, "countercharge")
    assert s.zone("display[P1]") == ["red 3"]
    assert s.zone("display[P2]") == ["red 3", "red 4"]


def test_restore_at_every_decision_of_a_game(game):
    s = game.new_game(3, 5)
    rng = random.Random(5)
    while not s.is_over:
        r = rulesdsl.restore(game, s.to_json())
        assert labels(r) == labels(s) and r.to_move == s.to_move
        a = rng.choice(s.legal_actions()).label
        s.apply(a)
        r.apply(a)
        assert r.to_json() == s.to_json()
