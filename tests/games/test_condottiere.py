"""Condottiere, 1995 rules: the rulebook's strength examples, every point of docs/rulings.md's
Condottiere section, the choices games/condottiere.rules makes where both are silent, and
properties over many random games for 2 to 6 players."""

import json
import os
import random
from collections import Counter

import pytest

import rulesdsl
from condottiere_map import BORDERS, REGIONS, check_hidden, largest_group, realm
from condottiere_table import army, in_battle, labels, play, played_out, table

P1, P2, P3, P4, P5, P6 = range(6)

DECK = Counter({"mercenary 1": 15, "mercenary 2": 8, "mercenary 3": 8, "mercenary 4": 8,
                "mercenary 5": 8, "mercenary 6": 8, "mercenary 10": 8, "scarecrow": 15,
                "drummer": 6, "bishop": 3, "surrender": 3, "winter": 3, "heroine": 3})


@pytest.fixture(scope="module")
def game():
    return rulesdsl.load("condottiere")


def names_a_battle(s):
    return not s.is_over and set(labels(s)) <= set(REGIONS) and len(labels(s)) > 0


# ---------------------------------------------------------------- the box

def test_the_deck_has_96_cards(game):
    s = game.new_game(3, 0)
    cards = Counter(s.zone("stock"))
    for p in range(1, 4):
        assert len(s.zone(f"hand[P{p}]")) == 10
        cards.update(s.zone(f"hand[P{p}]"))
    assert cards == DECK and sum(cards.values()) == 96


def test_the_board_has_17_regions_and_34_borders():
    assert len(REGIONS) == 17 and len(BORDERS) == 34
    text = open(os.path.join(os.path.dirname(__file__), "..", "..", "games",
                             "condottiere.rules"), encoding="utf-8").read()
    for b in BORDERS:
        a, c = b.split("-")
        assert f"{a} - {c}" in text


def test_seat_0_holds_the_token_and_may_name_any_region(game):
    s = game.new_game(4, 5)
    assert s.var("condottiere") == P1
    assert s.to_move == P1
    assert sorted(labels(s)) == sorted(REGIONS)


def test_the_condottiere_plays_first_then_clockwise(game):
    s = table(game, 4, hands={p: ["mercenary 1", "mercenary 2"] for p in range(1, 5)},
              vars={"condottiere": "P3"})
    play(s, (P3, "Roma"), (P3, "mercenary 1"), (P4, "pass"), (P1, "mercenary 2"),
         (P2, "pass"), (P3, "pass"), (P1, "pass"))
    assert s.var("owner[Roma]") == P1


# ---------------------------------------------------------------- strength

def test_winter_makes_seven_mercenaries_worth_36_count_7(game):
    # The rulebook's example: seven mercenaries worth 36 count 7 once winter is played.
    # (Its list of the cards names eight; seven that add up to 36 are used here.)
    seven = ["mercenary 10", "mercenary 10", "mercenary 5", "mercenary 4", "mercenary 4",
             "mercenary 2", "mercenary 1"]
    s = table(game, 2, hands={1: ["mercenary 3"], 2: ["winter", "mercenary 1"]},
              lines={1: seven})
    play(s, (P1, "Milano"))
    assert army(s, P1) == 36
    play(s, (P1, "pass"), (P2, "winter"))
    assert army(s, P1) == 7      # winter is anyone's: it counts for every army
    play(s, (P2, "pass"))
    assert s.var("owner[Milano]") == P1


def test_winter_on_the_rulebooks_list_of_cards(game):
    listed = ["mercenary 10", "mercenary 10", "mercenary 5", "mercenary 4", "mercenary 4",
              "mercenary 1", "mercenary 1", "mercenary 1"]
    s = table(game, 2, hands={1: ["winter"], 2: ["mercenary 1"]}, lines={1: listed})
    play(s, (P1, "Milano"))
    assert army(s, P1) == 36
    play(s, (P1, "winter"))
    assert army(s, P1) == 8      # one per mercenary


def test_drummer_doubles_and_winter_then_counts_two_each(game):
    # Three mercenaries worth 21: 42 with a drummer, 6 with a drummer and winter.
    s = table(game, 2, hands={1: ["drummer", "drummer", "mercenary 1"],
                              2: ["winter", "mercenary 1"]},
              lines={1: ["mercenary 10", "mercenary 6", "mercenary 5"]})
    play(s, (P1, "Milano"))
    assert army(s, P1) == 21
    play(s, (P1, "drummer"))
    assert army(s, P1) == 42
    play(s, (P2, "winter"))
    assert army(s, P1) == 6
    play(s, (P1, "drummer"))     # a second drummer adds nothing
    assert army(s, P1) == 6


def test_a_drummer_doubles_only_its_players_mercenaries(game):
    s = table(game, 2, hands={1: ["drummer"], 2: ["mercenary 1"]},
              lines={1: ["mercenary 5"], 2: ["mercenary 6"]})
    play(s, (P1, "Milano"), (P1, "drummer"))
    assert (army(s, P1), army(s, P2)) == (10, 6)


def test_heroines_count_10_whatever_winter_and_drummers_do(game):
    s = table(game, 2, hands={1: ["drummer", "mercenary 1"], 2: ["winter", "mercenary 1"]},
              lines={1: ["heroine", "mercenary 3"], 2: ["heroine"]})
    play(s, (P1, "Milano"))
    assert (army(s, P1), army(s, P2)) == (13, 10)
    play(s, (P1, "drummer"))
    assert (army(s, P1), army(s, P2)) == (16, 10)
    play(s, (P2, "winter"))
    assert (army(s, P1), army(s, P2)) == (12, 10)


def test_winter_drummer_and_scarecrow_may_be_the_first_card(game):
    s = table(game, 2, hands={1: ["winter", "drummer", "scarecrow"], 2: ["mercenary 1"]})
    play(s, (P1, "Milano"))
    assert sorted(labels(s)) == ["drummer", "pass", "scarecrow", "winter"]


def test_scarecrow_takes_a_mercenary_back_and_stays(game):
    s = table(game, 2, hands={1: ["scarecrow"], 2: ["mercenary 1"]},
              lines={1: ["mercenary 10", "heroine", "mercenary 2"], 2: ["mercenary 6"]})
    play(s, (P1, "Milano"), (P1, "scarecrow"))
    # only the player's own mercenaries may be taken back, or none
    assert sorted(labels(s)) == ["mercenary 10", "mercenary 2", "take no mercenary back"]
    play(s, (P1, "mercenary 10"))
    assert s.zone("hand[P1]") == ["mercenary 10"]
    assert s.zone("line[P1]") == ["heroine", "mercenary 2", "scarecrow"]
    assert army(s, P1) == 12
    assert s.to_move == P2


def test_scarecrow_may_take_nothing_back(game):
    s = table(game, 2, hands={1: ["scarecrow"], 2: ["mercenary 1"]},
              lines={1: ["mercenary 10"]})
    play(s, (P1, "Milano"), (P1, "scarecrow"), (P1, "take no mercenary back"))
    assert s.zone("line[P1]") == ["mercenary 10", "scarecrow"]
    assert s.zone("hand[P1]") == []


def test_scarecrow_without_mercenaries_asks_nothing(game):
    s = table(game, 2, hands={1: ["scarecrow", "mercenary 1"], 2: ["mercenary 1"]},
              lines={1: ["heroine"]})
    play(s, (P1, "Milano"), (P1, "scarecrow"))
    assert s.to_move == P2


# ---------------------------------------------------------------- passing

def test_a_player_who_passes_plays_no_more_in_this_battle(game):
    s = table(game, 3, hands={1: ["mercenary 1", "mercenary 2"], 2: ["mercenary 3"],
                              3: ["mercenary 4", "mercenary 5", "mercenary 6"]})
    play(s, (P1, "Milano"), (P1, "pass"), (P2, "pass"), (P3, "mercenary 4"))
    # P3 goes on alone until passing
    play(s, (P3, "mercenary 5"), (P3, "pass"))
    assert s.var("owner[Milano]") == P3
    assert s.zone("hand[P1]") == ["mercenary 1", "mercenary 2"]


def test_the_owner_passes_and_comes_back_in(game):
    s = table(game, 3, hands={1: ["mercenary 5", "mercenary 3", "mercenary 2"],
                              2: ["heroine", "mercenary 1"], 3: ["mercenary 4", "mercenary 6"]},
              vars={"owner[Milano]": "P2"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"),
         (P2, "pass"),                  # holds back: still in the battle
         (P3, "pass"),                  # out for good
         (P1, "mercenary 3"))
    assert s.var("dropped[P2]") is False and s.var("dropped[P3]") is True
    assert s.to_move == P2 and "heroine" in labels(s)
    play(s, (P2, "heroine"), (P1, "pass"))
    # the others are out; the owner goes on, and having played, passing is for good
    play(s, (P2, "pass"))
    assert s.var("owner[Milano]") == P2
    assert s.var("condottiere") == P2
    assert names_a_battle(s) and s.to_move == P2


def test_the_owner_after_a_first_card_drops_out_by_passing(game):
    s = table(game, 3, hands={1: ["mercenary 5", "mercenary 3", "mercenary 2", "mercenary 1"],
                              2: ["mercenary 1", "heroine"], 3: ["mercenary 4"]},
              vars={"owner[Milano]": "P2"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "mercenary 1"), (P3, "pass"),
         (P1, "mercenary 3"), (P2, "pass"))
    assert s.var("dropped[P2]") is True
    play(s, (P1, "mercenary 2"))
    assert s.to_move == P1           # P2 cannot come back in
    play(s, (P1, "pass"))
    assert s.var("owner[Milano]") == P1 and s.var("condottiere") == P1


def test_the_owner_holding_back_gets_a_last_turn_when_all_others_are_out(game):
    # Choice: the owner may still come in after every other player has passed.
    hands = {1: ["mercenary 5"], 2: ["heroine"], 3: ["mercenary 4"]}
    s = table(game, 3, hands=hands, vars={"owner[Milano]": "P2"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "pass"), (P3, "pass"))
    assert s.to_move == P2           # P1 is out of cards
    play(s, (P2, "heroine"))
    assert s.var("owner[Milano]") == P2   # P2's last card; the battle is over

    s = table(game, 3, hands=hands, vars={"owner[Milano]": "P2"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "pass"), (P3, "pass"))
    play(s, (P2, "pass"))            # passing when alone ends the battle
    assert s.var("owner[Milano]") == P1 and s.var("condottiere") == P1


def test_a_player_who_does_not_own_the_region_cannot_hold_back(game):
    s = table(game, 3, hands={1: ["mercenary 5", "mercenary 1"], 2: ["heroine"],
                              3: ["mercenary 4"]},
              vars={"owner[Milano]": "P3"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "pass"))
    assert s.var("dropped[P2]") is True


# ---------------------------------------------------------------- surrender and bishop

def test_surrender_ends_the_battle_and_the_strongest_wins(game):
    s = table(game, 3, hands={1: ["mercenary 5", "mercenary 1"], 2: ["heroine", "mercenary 1"],
                              3: ["surrender", "mercenary 2"]},
              vars={"owner[Milano]": "P2"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "pass"), (P3, "surrender"))
    # the owner who held back cannot come back in: the battle is over
    assert s.var("owner[Milano]") == P1
    assert s.var("condottiere") == P1
    assert names_a_battle(s)
    assert s.zone("line[P1]") == [] and "surrender" in s.zone("discard")


def test_surrender_by_the_weaker_player_gives_the_region_to_the_stronger(game):
    s = table(game, 2, hands={1: ["mercenary 10", "mercenary 1"], 2: ["surrender", "mercenary 1"]})
    play(s, (P1, "Milano"), (P1, "mercenary 10"), (P2, "surrender"))
    assert s.var("owner[Milano]") == P1


def test_surrender_at_a_tie_has_no_winner(game):
    s = table(game, 3, hands={1: ["mercenary 5", "surrender"], 2: ["heroine", "mercenary 1"],
                              3: ["mercenary 5", "mercenary 2"]},
              vars={"owner[Milano]": "P2"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "pass"), (P3, "mercenary 5"),
         (P1, "surrender"))
    assert s.var("owner[Milano]") == P2
    assert s.var("condottiere") == P2


def test_bishop_ends_the_battle_and_the_owner_keeps_the_region(game):
    s = table(game, 3, hands={1: ["mercenary 10", "mercenary 1"], 2: ["mercenary 1"],
                              3: ["bishop", "mercenary 2"]},
              vars={"owner[Milano]": "P2"})
    play(s, (P1, "Milano"), (P1, "mercenary 10"), (P2, "pass"), (P3, "bishop"))
    assert s.var("owner[Milano]") == P2      # however weak the owner's army
    assert s.var("condottiere") == P2        # and the owner takes the token
    assert names_a_battle(s) and s.to_move == P2


def test_bishop_in_an_unowned_region_leaves_the_token_with_its_holder(game):
    s = table(game, 3, hands={1: ["mercenary 1"], 2: ["mercenary 10", "mercenary 1"],
                              3: ["bishop", "mercenary 2"]})
    play(s, (P1, "Milano"), (P1, "pass"), (P2, "mercenary 10"), (P3, "bishop"))
    assert s.var("owner[Milano]") is None
    assert s.var("condottiere") == P1


# ---------------------------------------------------------------- the end of a battle

def test_the_strongest_army_wins_the_region_and_the_token(game):
    s = table(game, 3, hands={1: ["mercenary 5", "mercenary 1"], 2: ["mercenary 6", "mercenary 1"],
                              3: ["mercenary 4", "mercenary 1"]},
              vars={"owner[Milano]": "P3"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "mercenary 6"), (P3, "mercenary 4"),
         (P1, "pass"), (P2, "pass"), (P3, "pass"))
    assert s.var("owner[Milano]") == P2      # the owner's marker is replaced
    assert s.var("condottiere") == P2
    # every card played goes to the discard pile
    assert sorted(s.zone("discard")) == ["mercenary 4", "mercenary 5", "mercenary 6"]
    assert all(s.zone(f"line[P{p}]") == [] for p in (1, 2, 3))
    assert [army(s, p) for p in (P1, P2, P3)] == [0, 0, 0]


def test_a_tie_in_an_unowned_region_leaves_the_token_with_its_holder(game):
    s = table(game, 3, hands={1: ["mercenary 1"], 2: ["mercenary 5", "mercenary 1"],
                              3: ["mercenary 5", "mercenary 1"]})
    play(s, (P1, "Milano"), (P1, "pass"), (P2, "mercenary 5"), (P3, "mercenary 5"),
         (P2, "pass"), (P3, "pass"))
    assert s.var("owner[Milano]") is None
    assert s.var("condottiere") == P1


def test_a_tie_in_an_owned_region_gives_the_token_to_the_owner(game):
    s = table(game, 3, hands={1: ["mercenary 5", "mercenary 1"], 2: ["mercenary 5", "mercenary 1"],
                              3: ["mercenary 1"]},
              vars={"owner[Milano]": "P3"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "mercenary 5"), (P3, "pass"),
         (P1, "pass"), (P2, "pass"), (P3, "pass"))
    assert s.var("owner[Milano]") == P3
    assert s.var("condottiere") == P3


def test_nobody_playing_is_a_battle_without_winner(game):
    s = table(game, 3, hands={p: ["mercenary 1"] for p in (1, 2, 3)})
    play(s, (P1, "Roma"), (P1, "pass"), (P2, "pass"), (P3, "pass"))
    assert s.var("owner[Roma]") is None and s.var("condottiere") == P1
    s = table(game, 3, hands={p: ["mercenary 1"] for p in (1, 2, 3)},
              vars={"owner[Roma]": "P3"})
    play(s, (P1, "Roma"), (P1, "pass"), (P2, "pass"), (P3, "pass"))
    assert s.var("owner[Roma]") == P3 and s.var("condottiere") == P3


def test_any_region_may_be_named_also_owned_and_just_fought_over(game):
    s = table(game, 3, hands={1: ["mercenary 5", "mercenary 1", "mercenary 2"],
                              2: ["mercenary 1", "mercenary 2"], 3: ["mercenary 1", "mercenary 3"]},
              vars={"owner[Roma]": "P2", "owner[Napoli]": "P1"})
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "pass"), (P3, "pass"), (P1, "pass"))
    assert s.var("owner[Milano]") == P1
    assert sorted(labels(s)) == sorted(REGIONS)     # Milano, Roma, Napoli included
    play(s, (P1, "Milano"))                          # the region just fought over
    assert in_battle(s)


# ---------------------------------------------------------------- players out of cards

def test_the_player_who_wins_with_the_last_card_names_the_next_battle_and_sits_out(game):
    s = table(game, 3, hands={1: ["mercenary 1", "mercenary 2"], 2: ["mercenary 10"],
                              3: ["mercenary 3", "mercenary 4"]})
    play(s, (P1, "Milano"), (P1, "mercenary 1"), (P2, "mercenary 10"), (P3, "mercenary 3"),
         (P1, "pass"), (P3, "pass"))
    assert s.var("owner[Milano]") == P2
    assert s.var("condottiere") == P2
    assert s.zone("hand[P2]") == []
    # two players still have cards: the round goes on; P2 names the battle
    assert s.to_move == P2 and names_a_battle(s)
    play(s, (P2, "Roma"))
    assert s.to_move == P3           # P2 takes no part
    play(s, (P3, "mercenary 4"), (P1, "mercenary 2"))
    assert s.var("owner[Roma]") == P3


def test_a_player_without_cards_is_out_of_the_battle(game):
    s = table(game, 3, hands={1: ["mercenary 1", "mercenary 2"], 2: [],
                              3: ["mercenary 3", "mercenary 4"]})
    play(s, (P1, "Milano"), (P1, "mercenary 1"), (P3, "mercenary 3"), (P1, "mercenary 2"))
    # P1 played the last card: only P3 is left
    assert s.to_move == P3


# ---------------------------------------------------------------- discarding a hand

def test_a_hand_without_mercenaries_may_be_discarded(game):
    hands = {1: ["mercenary 5", "mercenary 1"], 2: ["mercenary 2", "drummer"],
             3: ["scarecrow", "winter"]}
    s = table(game, 3, hands=hands)
    for seat, label in [(P1, "Milano"), (P1, "mercenary 5"), (P2, "pass"), (P3, "pass"),
                        (P1, "pass")]:
        s.apply(label)
    # everyone with cards is asked, from the condottiere (P1) on: a hand with a mercenary
    # can only decline, which reads exactly as P3's keeping the hand would
    assert (s.to_move, labels(s)) == (P1, ["decline"])
    s.apply("decline")
    assert (s.to_move, labels(s)) == (P2, ["decline"])
    s.apply("decline")
    assert s.to_move == P3
    assert labels(s) == ["discard my hand", "decline"]
    play(s, (P3, "discard my hand"))
    assert s.zone("hand[P3]") == []
    # face down (docs/rulings.md): the others see that two cards went, not which
    assert s.zone("discard") == ["mercenary 5"]
    assert s.zone("thrown") == ["scarecrow", "winter"]
    for seat in (P1, P2):
        view = s.view(seat)
        assert view["zones"]["thrown"] == {"count": 2}
        assert "hand[P3] -> thrown: 2 cards" in view["log"]
        assert not any("thrown: " in line and "scarecrow" in line for line in view["log"])
    assert "hand[P3] -> thrown: scarecrow, winter" in s.view(P3)["log"]
    assert s.to_move == P1 and names_a_battle(s)   # two players still have cards

    s = table(game, 3, hands=hands)
    play(s, (P1, "Milano"), (P1, "mercenary 5"), (P2, "pass"), (P3, "pass"), (P1, "pass"),
         (P3, "decline"))
    assert s.zone("hand[P3]") == ["scarecrow", "winter"]


# ---------------------------------------------------------------- rounds

def test_a_round_ends_when_at_most_one_player_has_cards_and_all_is_dealt_anew(game):
    s = table(game, 2, hands={1: ["mercenary 10"], 2: ["mercenary 1", "scarecrow"]},
              vars={"owner[Torino]": "P1", "owner[Napoli]": "P1", "owner[Roma]": "P2"})
    play(s, (P1, "Milano"), (P1, "mercenary 10"), (P2, "pass"))
    assert s.var("owner[Milano]") == P1
    # P1 is out of cards: only P2 has any. All 96 cards are shuffled and dealt:
    # 10 plus 2 per region
    assert len(s.zone("hand[P1]")) == 10 + 2 * 3
    assert len(s.zone("hand[P2]")) == 10 + 2 * 1
    assert len(s.zone("stock")) == 96 - 16 - 12
    assert s.zone("discard") == []
    assert s.to_move == P1 and names_a_battle(s)


def test_a_round_with_two_players_holding_cards_goes_on(game):
    s = table(game, 3, hands={1: ["mercenary 10"], 2: ["mercenary 1"], 3: ["mercenary 2"]})
    play(s, (P1, "Milano"), (P1, "mercenary 10"), (P2, "pass"), (P3, "pass"))
    assert s.zone("hand[P2]") == ["mercenary 1"] and s.zone("hand[P3]") == ["mercenary 2"]


# ---------------------------------------------------------------- victory

def win_battle(s, region, winner):
    """The condottiere names `region`; `winner` plays a mercenary 10, everyone else passes."""
    s.apply(region)
    played = False
    while in_battle(s):
        if s.to_move == winner and not played:
            s.apply("mercenary 10")
            played = True
        else:
            s.apply("pass")
    assert s.var(f"owner[{region}]") == winner


def owned(seat, regions):
    return {f"owner[{r}]": f"P{seat + 1}" for r in regions}


def victory_table(game, players, regions):
    hands = {p: ["mercenary 10", "mercenary 1", "mercenary 2"] for p in range(1, players + 1)}
    return table(game, players, hands=hands, vars=owned(P1, regions))


@pytest.mark.parametrize("players,group", [(2, 6), (3, 5), (4, 4), (5, 4), (6, 4)])
def test_a_connected_group_wins(game, players, group):
    chain = ["Torino", "Genova", "Parma", "Lucca", "Firenze", "Siena"]   # a path of borders
    s = victory_table(game, players, chain[:group - 1])
    win_battle(s, chain[group - 1], P1)
    assert s.is_over and s.winners == [P1]


@pytest.mark.parametrize("players,group", [(2, 6), (3, 5), (4, 4), (5, 4), (6, 4)])
def test_one_region_short_does_not_win(game, players, group):
    chain = ["Torino", "Genova", "Parma", "Lucca", "Firenze", "Siena"]
    s = victory_table(game, players, chain[:group - 2])
    win_battle(s, chain[group - 2], P1)
    assert not s.is_over


def test_a_scattered_set_of_regions_does_not_win(game):
    # five regions, but no two of them share a border
    s = victory_table(game, 4, ["Torino", "Venezia", "Lucca", "Ancona"])
    win_battle(s, "Roma", P1)
    assert not s.is_over
    assert s.scores[P1] == 5


def test_victory_is_checked_after_every_battle(game):
    # a group completed by a region won in the middle of a round ends the game at once
    s = victory_table(game, 4, ["Roma", "Napoli", "Spoleto"])
    win_battle(s, "Ancona", P1)
    assert s.is_over and s.winners == [P1]


# ---------------------------------------------------------------- views and saving

def test_views_hide_other_hands(game):
    s = game.new_game(4, 3)
    for seat in range(4):
        v = s.view(seat)
        for p in range(4):
            hand = v["zones"][f"hand[P{p + 1}]"]
            if p == seat:
                assert hand == s.zone(f"hand[P{p + 1}]")
            else:
                assert hand == {"count": 10}
        assert v["zones"]["stock"] == {"count": 56}


def test_save_and_restore_in_the_middle_of_a_battle(game):
    s = game.new_game(4, 21)
    rng = random.Random(21)
    for _ in range(37):
        s.apply(rng.choice(s.legal_actions()))
    r = rulesdsl.restore(game, s.to_json())
    assert labels(r) == labels(s)
    while not s.is_over:
        a = rng.choice(s.legal_actions()).label
        s.apply(a)
        r.apply(a)
    assert r.winners == s.winners and r.history == s.history
    assert json.loads(r.to_json())["zones"] == json.loads(s.to_json())["zones"]


# ---------------------------------------------------------------- random games

GAMES_PER_COUNT = int(os.environ.get("CONDOTTIERE_GAMES", "300"))
MAX_ACTIONS = 20_000


def random_game(game, players, seed, zones, deck, need):
    s, steps = played_out(game, players, seed, zones, deck, MAX_ACTIONS)
    assert len(s.winners) >= 1
    for w in s.winners:
        assert largest_group(realm(s, w)) >= need, (seed, realm(s, w))
    for p in range(players):
        check_hidden(s, p, players)
    return steps


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games(game, players):
    zones = ["stock", "discard", "thrown"] + [f"{z}[P{p}]" for z in ("hand", "line")
                                    for p in range(1, players + 1)]
    need = {2: 6, 3: 5}.get(players, 4)
    lengths = [random_game(game, players, seed, zones, DECK, need)
               for seed in range(GAMES_PER_COUNT)]
    assert max(lengths) < MAX_ACTIONS
