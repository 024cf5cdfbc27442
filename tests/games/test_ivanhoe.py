"""Ivanhoe: the rulebook's example game (section 15), every action card, every point of
RULINGS' Ivanhoe section, the choices games/ivanhoe.rules makes where both are silent, and
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
    lies below them in the draw pile. Without `dealer`, P4 deals... so P1 starts."""
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


def play(s, *actions):
    for a in actions:
        s.apply(a)


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
    # Andy: adapt. Chris loses one blue 5, Diane a blue 3 and a green 1; Andy has no pairs
    play(s, "adapt")
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
