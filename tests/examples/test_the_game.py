"""The Game (examples/the_game.rules), written from the docs alone by a new author: a
cooperative game for 1 to 5. It checks without warnings and plays to its end on both
engines, random play losing together and a careful player sometimes winning together; its
rules hold in positions (the hand's size by the number of players, what fits a pile and
the ten back, two cards a turn then drawing back up, one once the draw pile is empty, all
losing when the player to move cannot play what they must)."""

import random

import pytest

from _play import EXAMPLES, labels, load

import rulesdsl


@pytest.fixture(scope="module")
def game():
    return load("the_game")


def top(s, pile):
    cards = s.zone(f"pile[{pile}]")
    return int(cards[-1]) if cards else (1 if pile.startswith("up") else 100)


def closest(s):
    """A careful player: the card nearest a pile's top (the ten back first); stop once
    allowed unless a card lies within 3."""
    def gap(label):
        if label == "stop":
            return 3.5
        card, pile = label.split(" on ")
        d = int(card) - top(s, pile)
        return d if pile.startswith("up") else -d
    return min((a.label for a in s.legal_actions()), key=gap)


def left(s):
    return len(s.zone("draw")) + sum(len(s.zone("hand", seat=p)) for p in range(s.players))


WON_CAREFULLY = [(1, 56), (2, 9), (3, 57), (4, 3), (5, 15)]  # (players, seed)


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_games_play_to_the_end_on_both_engines(engine, monkeypatch):
    monkeypatch.setenv("RULESDSL_ENGINE", engine)
    g = rulesdsl.load(str(EXAMPLES / "the_game.rules"))
    games = [(n, seed, None) for n in range(1, 6) for seed in range(8)]
    games += [(n, seed, closest) for n, seed in WON_CAREFULLY]
    for players, seed, player in games:
        rng = random.Random(seed)
        s = g.new_game(players, seed=seed)
        while not s.is_over:
            s.apply(player(s) if player else rng.choice(s.legal_actions()).label)
        assert len(set(s.scores)) == 1 and s.scores[0] == 98 - left(s)
        if player:
            assert s.winners == list(range(players)) and left(s) == 0
        else:                                           # random play loses together
            assert s.winners == [] and left(s) > 0
            assert s.log[-2].endswith("cannot play: everyone loses")


def at(game, hands, draw=None, piles=None, players=2):
    """A position: the hands named (P1 first) and the piles' cards (top last). With the
    draw pile named, the cards left over are put out of play under pile[up1]."""
    zones = {f"hand[P{k + 1}]": [str(c) for c in h] for k, h in enumerate(hands)}
    for pile, cards in (piles or {}).items():
        zones[f"pile[{pile}]"] = [str(c) for c in cards]
    scenario = {"zones": zones}
    if draw is not None:
        zones["draw"] = [str(c) for c in draw]
        scenario["displaced_to"] = "pile[up1]"
    return game.new_game(players, seed=0, scenario=scenario)


def test_hands_hold_eight_alone_seven_for_two_and_six_for_more(game):
    for players, held in [(1, 8), (2, 7), (3, 6), (5, 6)]:
        s = game.new_game(players, seed=1)
        assert [len(s.zone("hand", seat=p)) for p in range(players)] == [held] * players
        assert len(s.zone("draw")) == 98 - held * players


def test_a_card_fits_above_an_upward_pile_below_a_downward_one_or_ten_back(game):
    s = at(game, [[30, 65, 70, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11, 12]],
           piles={"up1": [80], "up2": [40], "down1": [60], "down2": [20]})
    fits = [a for a in labels(s) if a.split()[0] in ("30", "65", "70")]
    assert fits == ["30 on down1", "30 on down2", "30 on up2",   # 20 + 10 back, 40 - 10 back
                    "65 on up2", "70 on down1", "70 on up1", "70 on up2"]  # 60 + 10, 80 - 10


def test_two_cards_a_turn_then_the_hand_is_drawn_back_up(game):
    s = at(game, [[10, 20, 30, 40, 50, 60, 70], [11, 21, 31, 41, 51, 61, 71]])
    s.apply("10 on up1")
    assert "stop" not in labels(s)
    s.apply("20 on up1")
    assert "stop" in labels(s) and s.to_move == 0
    draw = list(s.zone("draw"))
    s.apply("stop")
    assert s.to_move == 1 and len(s.zone("hand", seat=0)) == 7
    assert s.zone("draw") == draw[:-2]


def test_one_card_is_enough_once_the_draw_pile_is_empty_and_playing_all_wins(game):
    s = at(game, [[50, 60], [40]], draw=[])
    s.apply("50 on down2")
    assert "stop" in labels(s) and "60 on down1" in labels(s)   # one card was enough
    s.apply("stop")
    assert s.to_move == 1 and len(s.zone("hand", seat=0)) == 1   # nothing to draw
    s.apply("40 on down2")
    assert s.to_move == 0 and not s.is_over
    s.apply("60 on down1")                                  # the last card
    assert s.is_over and s.winners == [0, 1] and s.scores == [98, 98]


def test_everyone_loses_when_the_player_to_move_cannot_play_two(game):
    s = at(game, [[88, 50, 51, 52, 53, 54, 55], [10, 11, 12, 13, 14, 15, 16]],
           piles={"up1": [98], "up2": [99], "down1": [3], "down2": [2]})
    assert labels(s) == ["88 on up1"]                      # 98 - 10: the only card that fits
    s.apply("88 on up1")
    assert labels(s) == ["cannot play"]                    # said aloud: the table sees no hand
    s.apply("cannot play")
    assert s.is_over and s.winners == [] and "P1 cannot play: everyone loses" in s.log
