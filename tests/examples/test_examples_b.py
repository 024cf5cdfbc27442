"""Lost Cities, Hearts and Love Letter (examples/): each checks, plays to its end with
random seats for many seeds and every player count, and its key rules hold in scenarios."""

import pytest

from _play import labels, load, random_game

def hides_other_hands(state, players, hand="hand"):
    """No view holds a card of another player's hand (checked at every 10th decision: a
    view renders the whole log)."""
    if len(state.history) % 10:
        return
    for seat in range(players):
        zones = state.view(seat)["zones"]
        for other in range(players):
            shown = zones[f"{hand}[P{other + 1}]"]
            if other == seat:
                assert shown == state.zone(f"{hand}[P{other + 1}]")
            else:
                assert shown == {"count": len(state.zone(f"{hand}[P{other + 1}]"))}


# ================================================================ Lost Cities

COLOURS = ["yellow", "blue", "white", "green", "red"]


def value(label):
    return 0 if label.endswith("wager") else int(label.split()[1])


@pytest.fixture(scope="module")
def lost_cities():
    return load("lost_cities")


def test_lost_cities_plays_to_the_end(lost_cities):
    def step(s):
        for p in range(2):
            for col in COLOURS:
                exp = s.zone(f"expedition[P{p + 1}, {col}]")
                assert all(c.startswith(col) for c in exp)
                assert [value(c) for c in exp] == sorted(value(c) for c in exp)
        assert sum(len(s.zone(z)) for z in
                   ["deck"] + [f"discard[{c}]" for c in COLOURS] +
                   [f"expedition[P{p}, {c}]" for p in (1, 2) for c in COLOURS] +
                   ["hand[P1]", "hand[P2]"]) == 60
        if s.legal_actions()[0].label.startswith(("play", "discard")):
            assert len(s.zone(f"hand[P{s.to_move + 1}]")) == 8
        hides_other_hands(s, 2)
    for seed in range(15):
        s = random_game(lost_cities, 2, seed, step if seed < 2 else None)
        assert s.var("round_no") == 4 and s.zone("deck") == []
        assert s.scores == [s.var("total", p) for p in range(2)]
        assert s.winners == [p for p in range(2) if s.scores[p] == max(s.scores)]


LC_HANDS = {
    "hand[P1]": ["red wager", "red 4", "blue 2", "blue 9", "white 5", "green 3", "yellow 6",
                 "red 10"],
    "hand[P2]": ["yellow wager", "yellow 2", "blue 3", "white 6", "green 4", "green 5",
                 "red 2", "white 7"],
}


def lc_scenario(**zones):
    return {"zones": {**LC_HANDS, **zones}}


def test_lost_cities_numbers_rise_and_wagers_come_first(lost_cities):
    s = lost_cities.new_game(2, seed=1, scenario=lc_scenario(
        **{"expedition[P1, red]": ["red 3"], "expedition[P1, blue]": ["blue wager"]}))
    assert labels(s) == sorted(
        # red 4 and red 10 rise above red 3, the red wager comes too late; blue follows a wager
        ["play red 4", "play red 10", "play blue 2", "play blue 9", "play white 5",
         "play green 3", "play yellow 6"] + [f"discard {c}" for c in LC_HANDS["hand[P1]"]])
    s.apply("play red 10")
    assert s.zone("expedition[P1, red]") == ["red 3", "red 10"]
    s.apply("draw from the deck")
    s.apply("play red 2")                          # P2's own red expedition
    assert s.zone("expedition[P2, red]") == ["red 2"]
    s.apply("draw from the deck")
    assert "play red 4" not in labels(s) and "play red wager" not in labels(s)
    s.apply("play blue 2")
    assert s.zone("expedition[P1, blue]") == ["blue wager", "blue 2"]


def test_lost_cities_no_taking_back_the_card_just_discarded(lost_cities):
    s = lost_cities.new_game(2, seed=1, scenario=lc_scenario(**{"discard[white]": ["white 9"]}))
    s.apply("discard red 4")
    assert s.zone("discard[red]") == ["red 4"]
    assert labels(s) == ["draw from the deck", "take white 9"]
    s.apply("take white 9")
    assert "white 9" in s.zone("hand[P1]") and s.zone("discard[white]") == []
    s.apply("discard white 7")
    assert labels(s) == ["draw from the deck", "take red 4"]


LC_SCORING = {
    "zones": {
        # 2 wagers and 2 to 7, eight cards: (27 - 20) x 3 + 20 = 41
        "expedition[P1, green]": ["green wager", "green wager", "green 2", "green 3",
                                  "green 4", "green 5", "green 6", "green 7"],
        # a lone 10: 10 - 20 = -10
        "expedition[P1, yellow]": ["yellow 10"],
        # a lone wager: (0 - 20) x 2 = -40
        "expedition[P2, blue]": ["blue wager"],
        # 3 wagers, 8 and 9: (17 - 20) x 4 = -12
        "expedition[P2, red]": ["red wager", "red wager", "red wager", "red 8", "red 9"],
        "hand[P1]": ["blue 2", "blue 9", "white 5", "yellow 6", "red 4", "white 3", "white 4",
                     "green 8"],
        "hand[P2]": ["yellow wager", "yellow 2", "blue 3", "white 6", "green 9", "green 10",
                     "white 7", "red 10"],
        "deck": ["white 2"],
    },
    "displaced_to": "discard[white]",
}


def test_lost_cities_scoring_with_wagers_and_the_bonus():
    game = load("lost_cities", rounds=1)
    s = game.new_game(2, seed=3, scenario=LC_SCORING)
    s.apply("discard blue 2")
    s.apply("draw from the deck")                  # the last card: the round ends
    assert s.is_over
    assert s.scores == [41 - 10, -40 - 12]
    assert s.winners == [0]


def test_lost_cities_a_match_adds_up_its_rounds(lost_cities):
    s = lost_cities.new_game(2, seed=3, scenario=LC_SCORING)
    s.apply("play green 8")                        # nine cards now: (35 - 20) x 3 + 20 = 65
    s.apply("draw from the deck")
    assert not s.is_over and s.var("round_no") == 2
    assert s.scores == [65 - 10, -52]
    # a fresh round: new hands, empty expeditions, and P2 starts
    assert s.to_move == 1 and s.var("starter") == 1
    assert len(s.zone("hand[P1]")) == len(s.zone("hand[P2]")) == 8
    assert len(s.zone("deck")) == 44
    assert all(s.zone(f"expedition[P1, {c}]") == [] for c in COLOURS)


# ================================================================ Hearts

RANKS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
         "queen", "king", "ace"]
SUITS = ["clubs", "diamonds", "spades", "hearts"]


def suit(s):
    return [f"{r} of {s}" for r in RANKS]


def hearts_points(cards):
    return sum(1 if c.endswith("hearts") else 13 if c == "queen of spades" else 0
               for c in cards)


@pytest.fixture(scope="module")
def hearts():
    return load("hearts")


def test_hearts_plays_to_the_end(hearts):
    def step(s):
        assert sum(len(s.zone(z, p)) for z in ("hand", "passing", "taken") for p in range(4)) \
            + len(s.zone("trick")) + len(s.zone("deck")) == 52
        hides_other_hands(s, 4)
        hides_other_hands(s, 4, "passing")
    for seed in range(12):
        s = random_game(hearts, 4, seed, step if seed < 2 else None)
        totals = [s.var("total", p) for p in range(4)]
        assert max(totals) >= 100 and sum(totals) % 26 == 0
        assert s.scores == totals
        assert s.winners == [p for p in range(4) if totals[p] == min(totals)]


# Each player holds one suit: P1 clubs, P2 diamonds, P3 spades, P4 hearts.
BY_SUIT = {f"hand[P{i + 1}]": suit(s) for i, s in enumerate(SUITS)}


@pytest.mark.parametrize("hand_no,receiver", [(0, 1), (1, 3), (2, 2)])
def test_hearts_passing_left_right_across(hearts, hand_no, receiver):
    s = hearts.new_game(4, seed=1, scenario={"zones": BY_SUIT, "vars": {"hand_no": hand_no}})
    passed = {p: suit(SUITS[p])[:3] for p in range(4)}  # two, three and four of the suit
    for p in range(4):
        assert s.to_move == p
        assert labels(s) == sorted(f"pass {c}" for c in suit(SUITS[p]))
        for card in passed[p]:
            s.apply(f"pass {card}")
        if p < 3:  # nothing is handed over yet; the others see only how many were chosen
            assert s.zone("passing", p) == passed[p]
            assert s.zone("hand", p) == suit(SUITS[p])[3:]
            assert s.view((p + 1) % 4)["zones"][f"passing[P{p + 1}]"] == {"count": 3}
            log = s.view((p + 1) % 4)["log"]
            log = log[log.index("a scenario set up this position"):]
            assert all(c not in line for line in log for c in passed[p])
    for p in range(4):
        to = (p + receiver) % 4
        assert s.zone("hand", to) == sorted(
            suit(SUITS[to])[3:] + passed[p], key=lambda c: (SUITS.index(c.split()[-1]),
                                                            RANKS.index(c.split()[0])))
        assert s.zone("passing", p) == []
    # the two of clubs went with P1's passed cards, and its new holder leads it
    assert s.to_move == receiver and labels(s) == ["two of clubs"]


def test_hearts_every_fourth_hand_keeps_its_cards(hearts):
    s = hearts.new_game(4, seed=1, scenario={"zones": BY_SUIT, "vars": {"hand_no": 3}})
    assert s.to_move == 0 and labels(s) == ["two of clubs"]


FIRST_TRICK = {
    "zones": {
        "hand[P1]": suit("clubs"),
        "hand[P2]": suit("diamonds")[:12] + ["queen of spades"],
        "hand[P3]": suit("hearts"),
        "hand[P4]": ["ace of diamonds"] + [c for c in suit("spades") if c != "queen of spades"],
    },
    "vars": {"hand_no": 3},
}


def test_hearts_the_first_trick_takes_no_points_unless_there_is_no_choice(hearts):
    s = hearts.new_game(4, seed=2, scenario=FIRST_TRICK)
    assert labels(s) == ["two of clubs"]          # the two of clubs leads
    s.apply("two of clubs")
    # P2 has no club: any card but the queen of spades (and hearts)
    assert labels(s) == sorted(suit("diamonds")[:12])
    s.apply("king of diamonds")
    # P3 holds nothing but hearts: it must break the rule
    assert labels(s) == sorted(suit("hearts"))
    s.apply("ace of hearts")
    s.apply("ace of spades")
    assert s.zone("taken", 0) == ["two of clubs", "king of diamonds", "ace of hearts",
                                  "ace of spades"]       # the only club wins
    assert s.var("leader") == 0 and s.var("broken") is True


def mid_hand(hands, vars_, taken_by="taken[P2]"):
    """A position after some tricks: the cards not named lie in one taken pile."""
    return {"zones": hands, "vars": {"hand_no": 3, **vars_}, "displaced_to": taken_by}


def test_hearts_cannot_be_led_until_broken(hearts):
    hands = {"hand[P1]": ["five of clubs", "two of hearts", "nine of hearts"],
             "hand[P2]": ["six of clubs", "ten of hearts", "four of spades"],
             "hand[P3]": ["seven of clubs", "three of hearts", "five of spades"],
             "hand[P4]": ["eight of hearts", "jack of hearts", "king of hearts"]}
    s = hearts.new_game(4, seed=2, scenario=mid_hand(hands, {"leader": "P1", "broken": False}))
    assert labels(s) == ["five of clubs"]
    s.apply("five of clubs")
    assert labels(s) == ["six of clubs"]          # follow suit
    s.apply("six of clubs")
    s.apply("seven of clubs")
    assert labels(s) == sorted(hands["hand[P4]"])  # void in clubs: any card
    s.apply("jack of hearts")
    assert s.var("broken") is True and s.var("leader") == 2
    assert labels(s) == ["five of spades", "three of hearts"]  # broken: hearts may lead
    s.apply("three of hearts")
    assert labels(s) == ["eight of hearts", "king of hearts"]


def test_hearts_a_hand_of_hearts_may_lead_hearts_unbroken(hearts):
    hands = {"hand[P1]": ["two of hearts", "nine of hearts"],
             "hand[P2]": ["six of clubs", "ten of hearts"],
             "hand[P3]": ["seven of clubs", "three of hearts"],
             "hand[P4]": ["eight of clubs", "jack of hearts"]}
    s = hearts.new_game(4, seed=2, scenario=mid_hand(hands, {"leader": "P1"}))
    assert labels(s) == ["nine of hearts", "two of hearts"]


def last_trick(lead, second, taken_p1, totals):
    hands = {"hand[P1]": [lead], "hand[P2]": [second], "hand[P3]": ["three of clubs"],
             "hand[P4]": ["four of clubs"], "taken[P1]": taken_p1}
    vars_ = {"leader": "P1", "broken": True}
    vars_.update({f"total[P{i + 1}]": t for i, t in enumerate(totals)})
    return mid_hand(hands, vars_, taken_by="taken[P3]")


def test_hearts_shooting_the_moon(hearts):
    taken = suit("hearts")[:12] + ["queen of spades"]
    s = hearts.new_game(4, seed=2, scenario=last_trick("ace of hearts", "two of clubs", taken,
                                                        [10, 20, 30, 40]))
    for label in ("ace of hearts", "two of clubs", "three of clubs", "four of clubs"):
        s.apply(label)
    assert [s.var("total", p) for p in range(4)] == [10, 46, 56, 66]
    assert any("P1 shoots the moon" in line for line in s.log)
    assert not s.is_over and s.var("hand_no") == 4   # a new hand, passing left again
    assert all(len(s.zone("hand", p)) == 13 for p in range(4))


def test_hearts_points_without_the_moon_and_the_end_at_100(hearts):
    taken = suit("hearts")[:11] + ["queen of spades"]          # 24 points
    s = hearts.new_game(4, seed=2, scenario=last_trick("king of hearts", "ace of hearts", taken,
                                                        [80, 20, 30, 20]))
    for label in ("king of hearts", "ace of hearts", "three of clubs", "four of clubs"):
        s.apply(label)
    assert s.is_over and all(s.zone("hand", p) == [] for p in range(4))  # no new deal
    assert [s.var("total", p) for p in range(4)] == [104, 22, 30, 20]
    assert s.is_over and s.winners == [3]


def test_hearts_equal_lowest_totals_share_the_win(hearts):
    taken = suit("hearts")[:11] + ["queen of spades"]
    s = hearts.new_game(4, seed=2, scenario=last_trick("king of hearts", "ace of hearts", taken,
                                                        [80, 20, 30, 22]))
    for label in ("king of hearts", "ace of hearts", "three of clubs", "four of clubs"):
        s.apply(label)
    assert s.is_over and s.winners == [1, 3] and s.scores == [104, 22, 30, 22]


# ================================================================ Love Letter

GUESSES = ["guess baron", "guess countess", "guess handmaid", "guess king", "guess priest",
           "guess prince", "guess princess"]


@pytest.fixture(scope="module")
def love_letter():
    return load("love_letter")


def test_love_letter_plays_to_the_end(love_letter):
    def step(s, players):
        zones = ["deck", "aside", "aside_up"] + [f"{z}[P{p + 1}]" for z in ("hand", "played")
                                                 for p in range(players)]
        assert sum(len(s.zone(z)) for z in zones) == 16
        for p in range(players):
            if s.var("out", p):
                assert s.zone("hand", p) == []
            elif p != s.to_move:
                assert len(s.zone("hand", p)) == 1
        hides_other_hands(s, players)
    for players, goal in ((2, 7), (3, 5), (4, 4)):
        for seed in range(40):
            s = random_game(love_letter, players, seed,
                            (lambda st: step(st, players)) if seed < 3 else None)
            assert max(s.scores) == goal
            assert s.winners == [p for p in range(players) if s.scores[p] == goal]


def ll(hands, deck, players=2, **vars_):
    """A round about to start P1's turn: hands, the deck (top last); the rest set aside."""
    zones = {f"hand[P{i + 1}]": h for i, h in enumerate(hands)}
    zones["deck"] = deck
    return {"zones": zones, "vars": vars_, "displaced_to": "aside_up"}


def new_ll(game, hands, deck, players=2, **vars_):
    s = game.new_game(players, seed=4, scenario=ll(hands, deck, players, **vars_))
    assert s.to_move == 0
    return s


def after_scenario(log):
    return log[log.index("a scenario set up this position"):]


def test_love_letter_guard_guess_right(love_letter):
    s = new_ll(love_letter, [["guard"], ["priest"]], ["king", "handmaid"])
    assert labels(s) == ["guard", "handmaid"]
    s.apply("guard")
    assert labels(s) == ["P2"]
    s.apply("P2")
    assert labels(s) == GUESSES                    # never "guess guard"
    s.apply("guess priest")
    assert "P1 guesses priest" in s.log and "P2 is out of the round" in s.log
    # one player left: P1 wins the round, a new round begins with P1
    assert s.var("tokens", 0) == 1 and s.scores == [1, 0]
    assert s.to_move == 0 and not s.var("out", 1)
    assert len(s.zone("hand[P1]")) == 2 and len(s.zone("hand[P2]")) == 1


def test_love_letter_guard_guess_wrong(love_letter):
    s = new_ll(love_letter, [["guard"], ["priest"]], ["king", "handmaid"])
    for label in ("guard", "P2", "guess baron"):
        s.apply(label)
    assert not s.var("out", 1) and s.to_move == 1
    assert s.zone("hand[P2]") == ["priest", "king"]


def test_love_letter_priest_shows_a_hand_to_its_player_only(love_letter):
    s = new_ll(love_letter, [["priest"], ["countess"], ["guard"]], ["prince", "guard"], 3)
    s.apply("priest")
    assert labels(s) == ["P2", "P3"]
    s.apply("P2")
    assert "hand[P2] shows P1: countess" in s.view(0)["log"]
    assert "hand[P2] shows P1: 1 card" in s.view(2)["log"]
    assert all("countess" not in line for line in after_scenario(s.view(2)["log"]))


@pytest.mark.parametrize("drawn,outcome", [("king", "P2 out"), ("priest", "nobody out"),
                                           ("guard", "P1 out")])
def test_love_letter_baron_compares_in_secret(love_letter, drawn, outcome):
    s = new_ll(love_letter, [["baron"], ["priest"], ["handmaid"]], ["guard", drawn], 3)
    s.apply("baron")
    s.apply("P2")
    out = [s.var("out", p) for p in range(3)]
    assert out == {"P2 out": [False, True, False], "nobody out": [False, False, False],
                   "P1 out": [True, False, False]}[outcome]
    assert "hand[P2] shows P1: priest" in s.view(0)["log"]
    assert f"hand[P1] shows P2: {drawn}" in s.view(1)["log"]
    if outcome != "P1 out":   # the winner's card stays secret from the third player
        assert all(drawn not in line for line in after_scenario(s.view(2)["log"]))
    assert s.to_move == (2 if outcome == "P2 out" else 1)


def test_love_letter_handmaid_protects_until_the_next_turn(love_letter):
    s = new_ll(love_letter, [["handmaid"], ["guard"], ["baron"]],
               ["baron", "guard", "prince", "guard"], 3)
    s.apply("handmaid")
    assert s.var("protected", 0) is True
    assert s.to_move == 1 and labels(s) == ["guard", "prince"]
    s.apply("guard")
    assert labels(s) == ["P3"]                     # P1 cannot be chosen
    s.apply("P3")
    s.apply("guess prince")
    assert s.to_move == 2
    s.apply("guard")
    assert labels(s) == ["P2"]
    s.apply("P2")
    s.apply("guess king")
    assert s.to_move == 0 and s.var("protected", 0) is False   # P1's turn: no longer


def test_love_letter_with_everyone_protected_a_card_has_no_effect(love_letter):
    s = new_ll(love_letter, [["handmaid"], ["guard"]], ["guard", "prince", "king"])
    s.apply("handmaid")
    assert labels(s) == ["guard", "prince"]
    s.apply("guard")                               # no one to choose: no decision at all
    assert "no one can be chosen: guard has no effect" in s.log
    assert s.to_move == 0 and s.zone("played[P2]") == ["guard"]


def test_love_letter_a_prince_may_choose_its_own_player(love_letter):
    s = new_ll(love_letter, [["handmaid"], ["prince"]], ["priest", "baron", "guard", "king"])
    s.apply("handmaid")
    s.apply("prince")
    assert labels(s) == ["P2"]                     # P1 is protected
    s.apply("P2")
    assert s.zone("played[P2]") == ["prince", "guard"] and s.zone("hand[P2]") == ["baron"]


@pytest.mark.parametrize("other", ["king", "prince"])
def test_love_letter_the_countess_must_be_played_with_king_or_prince(love_letter, other):
    s = new_ll(love_letter, [["countess"], ["guard"]], ["guard", other])
    assert labels(s) == ["countess"]


def test_love_letter_the_countess_may_wait_otherwise(love_letter):
    s = new_ll(love_letter, [["countess"], ["guard"]], ["guard", "baron"])
    assert labels(s) == ["baron", "countess"]


def test_love_letter_a_discarded_princess_is_out(love_letter):
    s = new_ll(love_letter, [["prince"], ["princess"], ["guard"]], ["guard", "baron"], 3)
    s.apply("prince")
    assert labels(s) == ["P1", "P2", "P3"]
    s.apply("P2")
    assert s.var("out", 1) is True and s.zone("played[P2]") == ["princess"]
    assert s.to_move == 2                          # P2 is skipped from now on


def test_love_letter_playing_the_princess_puts_you_out(love_letter):
    s = new_ll(love_letter, [["princess"], ["guard"], ["guard"]], ["guard", "baron"], 3)
    s.apply("princess")
    assert s.var("out", 0) is True and s.zone("hand[P1]") == []
    assert s.zone("played[P1]") == ["princess", "baron"]


def test_love_letter_prince_with_an_empty_deck_takes_the_card_set_aside(love_letter):
    scenario = ll([["prince"], ["baron"]], ["guard"])
    scenario["zones"]["aside"] = ["king"]
    s = love_letter.new_game(2, seed=4, scenario=scenario)
    s.apply("prince")
    s.apply("P2")
    # the deck is empty: the round ends, king (6) beats guard (1)
    assert s.var("tokens", 1) == 1 and s.var("starter") == 1
    assert any("hand[P2] shows: king" in line for line in s.log)


def test_love_letter_king_trades_hands(love_letter):
    s = new_ll(love_letter, [["king"], ["countess"]], ["baron", "priest", "guard"])
    s.apply("king")
    s.apply("P2")
    # P2 now holds P1's guard, and has drawn the priest
    assert s.zone("hand[P1]") == ["countess"] and s.zone("hand[P2]") == ["guard", "priest"]
    assert "hand[P1] -> hand[P2]: guard" in s.view(1)["log"]
    assert "hand[P1] -> hand[P2]: 1 card" not in s.view(0)["log"]


def test_love_letter_an_empty_deck_ends_the_round_highest_card_wins(love_letter):
    s = new_ll(love_letter, [["baron"], ["prince"]], ["guard"])
    s.apply("guard")
    s.apply("P2")
    s.apply("guess king")
    assert s.var("tokens", 1) == 1 and s.var("tokens", 0) == 0


@pytest.mark.parametrize("played_p2,tokens", [(["handmaid"], [0, 1]), (["guard"], [1, 1]),
                                              ([], [1, 0])])
def test_love_letter_equal_cards_go_to_the_higher_played_total(love_letter, played_p2, tokens):
    scenario = ll([["guard"], ["priest"]], ["priest"])
    scenario["zones"]["played[P2]"] = played_p2
    s = love_letter.new_game(2, seed=4, scenario=scenario)
    s.apply("guard")
    s.apply("P2")
    s.apply("guess baron")
    # both hold a priest; P1 played a guard (1), P2 a handmaid (4), a guard or nothing
    assert [s.var("tokens", p) for p in range(2)] == tokens


@pytest.mark.parametrize("players,goal", [(2, 7), (3, 5), (4, 4)])
def test_love_letter_tokens_to_win(love_letter, players, goal):
    hands = [["guard"], ["priest"], ["handmaid"], ["handmaid"]][:players]
    others_out = {f"out[P{p + 1}]": True for p in range(2, players)}
    s = new_ll(love_letter, hands, ["baron", "prince"], players,
               **{"tokens[P1]": goal - 1, **others_out})
    assert s.var("tokens", 0) == goal - 1 and not s.is_over
    for label in ("guard", "P2", "guess priest"):
        s.apply(label)
    assert s.is_over and s.winners == [0] and s.scores[0] == goal
