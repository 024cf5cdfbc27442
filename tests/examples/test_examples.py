"""The example games in examples/: each checks, plays to its end with random seats for
many seeds and every player count, and its key rules hold in scenarios."""

from _play import labels, load
from _play import random_game as play_randomly


def random_game(game, players, seed, each_step=None):
    """The first seeds also test `each_step` at every decision."""
    return play_randomly(game, players, seed, each_step if seed < 8 else None, limit=10_000)


# ---------------------------------------------------------------- No Thanks!

def test_no_thanks():
    game = load("no_thanks")
    for players in range(3, 8):
        chips = {3: 11, 4: 11, 5: 11, 6: 9, 7: 7}[players]
        for seed in range(30):
            def conserved(s):
                assert sum(s.var("chips", p) for p in range(players)) + s.var("pot") \
                    == chips * players
                assert size_of(s, ["stock", "removed", "offer"], players) == 33
            s = random_game(game, players, seed, conserved)
            assert len(s.zone("removed")) == 9 and s.zone("stock") == []
            assert sum(len(s.zone("taken", p)) for p in range(players)) == 24
            best = min(s.scores)
            assert s.winners == [p for p in range(players) if s.scores[p] == best]


def size_of(s, zones, players):
    return sum(len(s.zone(z)) for z in zones) + \
        sum(len(s.zone("taken", p)) for p in range(players))


def test_no_thanks_chips_per_player_count():
    game = load("no_thanks")
    for players, chips in [(3, 11), (5, 11), (6, 9), (7, 7)]:
        s = game.new_game(players=players, seed=1)
        assert [s.var("chips", p) for p in range(players)] == [chips] * players


def test_no_thanks_paying_and_taking():
    game = load("no_thanks")
    s = game.new_game(players=3, seed=2, scenario={"vars": {"chips[P3]": 0}})
    card = s.zone("offer")[0]
    assert labels(s) == ["no thanks", "take"]
    s.apply("no thanks")
    s.apply("no thanks")
    assert s.to_move == 2 and labels(s) == ["take"]  # no chips: must take
    s.apply("take")
    assert s.zone("taken", 2) == [card] and s.var("chips", 2) == 2 and s.var("pot") == 0
    assert s.to_move == 2  # the taker turns the next card and plays again
    # chips are secret: the others' views hold neither their chips nor their scores
    view = s.view(0)
    assert "chips[P3]" not in view["vars"] and view["scores"] == {"P1": s.scores[0]}


def test_no_thanks_runs_count_their_lowest_card():
    game = load("no_thanks")
    scenario = {
        "zones": {"stock": ["20"], "taken[P1]": ["3", "4", "5", "19", "21", "30"],
                  "taken[P2]": ["10", "12"], "taken[P3]": ["33", "35"]},
        "vars": {"chips[P1]": 4, "chips[P2]": 1, "chips[P3]": 11},
        "displaced_to": "removed",
    }
    s = game.new_game(players=3, seed=3, scenario=scenario)
    assert s.zone("offer") == ["20"] and s.scores[0] == 3 + 19 + 21 + 30 - 4
    s.apply("take")  # 20 joins 19 and 21: the run 19-21 counts 19
    assert s.is_over
    assert s.scores == [3 + 19 + 30 - 4, 10 + 12 - 1, 33 + 35 - 11]
    assert s.winners == [1]


def test_no_thanks_ties_share_the_win():
    game = load("no_thanks")
    scenario = {
        "zones": {"stock": ["20"], "taken[P1]": ["3"], "taken[P2]": ["5"], "taken[P3]": []},
        "vars": {"chips[P1]": 0, "chips[P2]": 2, "chips[P3]": 0},
        "displaced_to": "removed",
    }
    s = game.new_game(players=3, seed=3, scenario=scenario)
    s.apply("take")  # P1: 3 + 20
    assert s.is_over and s.scores == [23, 3, 0] and s.winners == [2]
    s = game.new_game(players=3, seed=3, scenario=scenario | {
        "vars": {"chips[P1]": 20, "chips[P2]": 2, "chips[P3]": 3}})
    s.apply("take")  # P1: 23 - 20 = 3, P2: 5 - 2 = 3, P3: -3
    assert s.winners == [2]
    s = game.new_game(players=3, seed=3, scenario=scenario | {
        "vars": {"chips[P1]": 20, "chips[P2]": 2, "chips[P3]": -3}})
    s.apply("take")
    assert s.scores == [3, 3, 3] and s.winners == [0, 1, 2]


# ---------------------------------------------------------------- GOPS

def test_gops():
    game = load("gops")
    for players in range(2, 5):
        for seed in range(30):
            before = {}

            def bids_stay_hidden(s):
                # while bids are pending, nobody's view changes except for "has chosen"
                log = s.log
                if not log or " has chosen" not in log[-1]:
                    before.clear()
                    before.update({q: s.view(q) for q in range(players)})
                    return
                for q in range(players):
                    view = s.view(q)
                    assert view["zones"] == before[q]["zones"]
                    new = view["log"][len(before[q]["log"]):]
                    # the others read that a player has chosen; the player reads what
                    assert all(line.endswith(" has chosen") or line.startswith(f"P{q + 1} ")
                               for line in new)
            s = random_game(game, players, seed, bids_stay_hidden)
            points = [sum(int(c.split()[1]) for c in s.zone("won", p)) for p in range(players)]
            assert s.scores == points
            assert sum(points) + sum(int(c.split()[1]) for c in s.zone("discard")) == 91
            assert s.winners == [p for p in range(players) if points[p] == max(points)]
            assert all(len(s.zone("played", p)) == 13 for p in range(players))


def prizes(*top):
    """A scenario turning these prizes first, in this order."""
    rest = [f"prize {v}" for v in range(1, 14) if v not in top]
    return {"zones": {"prizes": rest + [f"prize {v}" for v in reversed(top)]}}


def test_gops_the_pending_bid_is_hidden():
    game = load("gops")
    s = game.new_game(players=3, seed=4, scenario=prizes(12))
    s.apply("bid 7")
    assert s.to_move == 1
    for seat in (0, 1, 2):  # nothing has moved: the bid waits for the others
        view = s.view(seat)
        assert view["zones"]["played[P1]"] == []
        assert view["zones"]["hand[P1]"] == ({"count": 13} if seat else
                                             [str(v) for v in range(1, 14)])
        assert view["log"][-1] == ("P1 has chosen: bid 7" if seat == 0 else "P1 has chosen")
        assert seat == 0 or not any("7" in line for line in view["log"])
    assert [a.label for a in s.legal_actions()] == [f"bid {v}" for v in range(1, 14)]
    s.apply("bid 9")
    assert s.view(2)["zones"]["played[P2]"] == []
    s.apply("bid 3")  # the last bid: all are turned face up together
    for seat in range(3):
        view = s.view(seat)
        assert [view["zones"][f"played[P{q}]"] for q in (1, 2, 3)] == [["7"], ["9"], ["3"]]
        assert [line[:13] for line in view["log"][-8:-5]] == [
            "P1 has chosen", "P2 has chosen", "P3 has chosen"]
    assert s.zone("won", 1) == ["prize 12"]


def test_gops_a_tie_discards_the_prize():
    game = load("gops")
    s = game.new_game(players=3, seed=4, scenario=prizes(12, 6))
    s.apply("bid 9")
    s.apply("bid 9")
    s.apply("bid 13")  # the single highest bid wins, whatever the tie below it
    assert s.zone("won", 2) == ["prize 12"]
    assert s.zone("prize") == ["prize 6"]
    s.apply("bid 13")
    s.apply("bid 13")
    s.apply("bid 2")  # the highest bids tie: nobody takes the prize
    assert s.zone("discard") == ["prize 6"]
    assert all(s.zone("won", p) == [] for p in (0, 1)) and s.scores == [0, 0, 12]


# ---------------------------------------------------------------- Crazy Eights

def test_crazy_eights():
    game = load("crazy_eights")
    for players in range(2, 6):
        for seed in range(30):
            def legal(s):
                assert size_all(s, players) == 52
                top = s.zone("discard")[-1]
                suit = s.var("suit")
                for a in s.legal_actions():
                    if " of " in a.label:
                        rank, _, card_suit = a.label.split()
                        assert rank == "eight" or card_suit == suit or rank == top.split()[0]
            s = random_game(game, players, seed, legal)
            out = [p for p in range(players) if not s.zone("hand", p)]
            assert s.winners == out
            others = sum(penalty(c) for p in range(players) for c in s.zone("hand", p))
            assert s.scores == [others if p in out else 0 for p in range(players)]


def size_all(s, players):
    return len(s.zone("stock")) + len(s.zone("discard")) + \
        sum(len(s.zone("hand", p)) for p in range(players))


POINTS = {"ace": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 50, "nine": 9, "ten": 10, "jack": 10, "queen": 10, "king": 10}


def penalty(card):
    return POINTS[card.split()[0]]


def test_crazy_eights_deals_seven_to_two_players_and_five_to_more():
    game = load("crazy_eights")
    for players, cards in [(2, 7), (3, 5), (5, 5)]:
        s = game.new_game(players=players, seed=8)
        hands = [len(s.zone("hand", p)) for p in range(players)]
        assert hands[1:] == [cards] * (players - 1) and hands[0] >= cards  # P1 may draw
        assert not s.zone("discard")[0].startswith("eight")


def test_crazy_eights_an_eight_names_the_suit():
    game = load("crazy_eights")
    scenario = {"zones": {"discard": ["five of diamonds"],
                          "hand[P1]": ["two of hearts", "eight of clubs", "king of spades"],
                          "hand[P2]": ["three of hearts", "five of spades", "six of clubs",
                                       "eight of hearts"]},
                "vars": {"suit": "diamonds"}}
    s = game.new_game(players=2, seed=1, scenario=scenario)
    assert labels(s) == ["eight of clubs"]  # eights are wild; nothing else matches
    s.apply("eight of clubs")
    assert s.to_move == 0
    assert labels(s) == ["name clubs", "name diamonds", "name hearts", "name spades"]
    s.apply("name hearts")
    assert s.var("suit") == "hearts"
    assert s.to_move == 1  # the named suit, or another eight; not the eight's own suit
    assert labels(s) == ["eight of hearts", "three of hearts"]
    s.apply("eight of hearts")
    s.apply("name spades")
    assert labels(s) == ["king of spades"]


def test_crazy_eights_draw_until_you_can_play_refilling_the_stock():
    game = load("crazy_eights")
    scenario = {"zones": {"stock": ["nine of spades", "seven of clubs"],
                          "discard": ["ace of hearts", "king of diamonds", "four of diamonds"],
                          "hand[P1]": ["two of clubs"]},
                "vars": {"suit": "diamonds"}, "displaced_to": "hand[P2]"}
    s = game.new_game(players=2, seed=1, scenario=scenario)
    # P1 cannot play: draws the seven and the nine; the stock is empty, so the discards
    # under the top card make a new stock; P1 draws from it until the king of diamonds.
    hand = s.zone("hand", 0)
    assert {"two of clubs", "seven of clubs", "nine of spades", "king of diamonds"} <= set(hand)
    assert s.zone("discard") == ["four of diamonds"]
    assert s.zone("stock") == [] or s.zone("stock") == ["ace of hearts"]
    assert labels(s) == ["king of diamonds"]


def test_crazy_eights_pass_when_there_is_nothing_to_draw():
    game = load("crazy_eights")
    scenario = {"zones": {"stock": [], "discard": ["four of diamonds"],
                          "hand[P1]": ["two of clubs", "king of clubs"]},
                "vars": {"suit": "diamonds"}, "displaced_to": "hand[P2]"}
    s = game.new_game(players=2, seed=1, scenario=scenario)
    assert labels(s) == ["pass"]
    s.apply("pass")
    assert s.to_move == 1 and s.zone("hand", 0) == ["two of clubs", "king of clubs"]


def test_crazy_eights_last_eight_wins_without_naming_and_scores_the_other_hands():
    game = load("crazy_eights")
    scenario = {"zones": {"discard": ["five of diamonds"], "hand[P1]": ["eight of clubs"],
                          "hand[P2]": ["king of spades", "ace of hearts", "eight of hearts"]}}
    s = game.new_game(players=2, seed=1, scenario=scenario)
    s.apply("eight of clubs")
    assert s.is_over and s.winners == [0] and s.scores == [10 + 1 + 50, 0]
