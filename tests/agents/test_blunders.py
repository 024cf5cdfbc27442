"""Moves a beginner would not make, which the default opponent once made: each a position
from the bundled games or examples in which the computer (`ismcts` at `medium`) must choose the
sensible move for at least 9 seeds of 10."""

import random
from collections import Counter
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.agents import make_agent

SEEDS = range(10)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def position(name, players, zones, pile, vars=None, seed=1):
    """A game whose listed zones hold exactly the given cards, every other card in `pile`
    (top last) and every other hand empty."""
    game = rulesdsl.load(name)
    fresh = game.new_game(players=players, seed=seed)
    every = Counter()
    for zone in fresh.describe()["zones"]:
        every.update(fresh.zone(zone))
    listed = Counter(label for cards in zones.values() for label in cards)
    rest = every - listed
    assert not listed - every, f"not in the box: {listed - every}"
    out = {f"hand[P{p}]": [] for p in range(1, players + 1)}
    out.update(zones)
    out[pile] = sorted(rest.elements())
    return game.new_game(players=players, seed=seed,
                         scenario={"zones": out, "vars": dict(vars or {})})


def choices(state):
    seat = state.to_move
    return Counter(make_agent("ismcts:medium", 1000 + k).choose(state).label for k in SEEDS)


def sensible(picked: Counter, bad) -> int:
    return sum(n for label, n in picked.items() if not bad(label))


# ------------------------------------------------------------------ Condottiere

def battle(players=2, hands=None, lines=None, vars=None, region="Torino"):
    zones = {f"hand[P{p}]": cards for p, cards in (hands or {}).items()}
    zones.update({f"line[P{p}]": cards for p, cards in (lines or {}).items()})
    st = position("condottiere", players, zones, "stock", vars)
    st.apply(region)  # P1 holds the condottiere and names the battle
    return st


# hands of a round's first battles: cards kept now fight the battles still to come
OTHER = ["mercenary 2", "mercenary 3", "scarecrow", "mercenary 1", "mercenary 4", "drummer",
         "mercenary 5", "mercenary 6", "mercenary 1", "mercenary 3"]
KEEP = ["mercenary 2", "mercenary 5", "mercenary 4", "mercenary 3", "drummer", "mercenary 1"]


def test_condottiere_no_surrender_with_an_empty_army():
    st = battle(hands={1: ["surrender", "mercenary 5", "mercenary 3", "mercenary 2",
                           "scarecrow"] + KEEP, 2: OTHER},
                lines={2: ["mercenary 6"]})
    assert st.to_move == 0 and "surrender" in [a.label for a in st.legal_actions()]
    picked = choices(st)
    assert sensible(picked, lambda label: label == "surrender") >= 9, picked


def test_condottiere_no_bishop_while_winning():
    st = battle(hands={1: ["bishop", "mercenary 1", "mercenary 2", "scarecrow"] + KEEP,
                       2: OTHER[:3]},
                lines={1: ["mercenary 10", "mercenary 6"], 2: ["mercenary 2"]})
    picked = choices(st)
    assert sensible(picked, lambda label: label == "bishop") >= 9, picked


def test_condottiere_no_battle_for_a_region_already_held():
    st = position("condottiere", 2, {"hand[P1]": OTHER, "hand[P2]": OTHER},
                  "stock", {"owner[Torino]": "P1", "owner[Genova]": "P1",
                            "owner[Milano]": "P2"})
    picked = choices(st)
    assert sensible(picked, lambda label: label in ("Torino", "Genova")) >= 9, picked


def test_condottiere_no_scarecrow_that_takes_nothing_back():
    st = battle(hands={1: ["scarecrow", "mercenary 4", "mercenary 3", "mercenary 5"] + KEEP,
                       2: OTHER},
                lines={2: ["mercenary 3"]})
    picked = choices(st)
    assert sensible(picked, lambda label: label == "scarecrow") >= 9, picked


def test_condottiere_no_big_mercenary_under_winter():
    st = battle(hands={1: ["mercenary 10", "mercenary 1", "mercenary 6", "scarecrow"] + KEEP,
                       2: OTHER},
                lines={2: ["winter", "mercenary 2"]})
    picked = choices(st)
    assert sensible(picked, lambda label: label in ("mercenary 10", "mercenary 6")) >= 9, picked


def test_condottiere_gets_ahead_of_a_rival_who_may_surrender():
    # second edition: most cards are in the discard pile, face up, so the rival's 3 cards
    # come from 7 the searcher cannot see, 2 of them surrenders: a card that leaves the
    # searcher behind (or level) lets the rival, ahead, end the battle at once. A card that
    # puts it ahead (5 or 6) is the sensible move; the rival cannot answer it. (c0756df
    # passed this too: with 2 surrenders in 7 cards its tree learns them; what it lacked
    # was a reply where its tree knows little: test_search.py, the other seat answers...)
    hand = ["mercenary 1", "mercenary 2", "mercenary 3", "mercenary 5", "mercenary 6",
            "courtesan", "scarecrow"]
    st = position("condottiere_edition2", 2,
                  {"hand[P1]": hand, "hand[P2]": ["surrender", "surrender", "scarecrow"],
                   "stock": ["courtesan"] * 4,
                   "line[P1]": ["mercenary 3"], "line[P2]": ["mercenary 6"]}, "discard")
    st.apply("Torino")
    assert st.to_move == 0
    picked = choices(st)
    assert sensible(picked, lambda label: label not in ("mercenary 5", "mercenary 6")) >= 9, \
        picked


# ------------------------------------------------------------------ Ivanhoe

def test_ivanhoe_withdraws_at_once_rather_than_after_a_card():
    """P2 leads red with 13; P1 holds two red 3s: no card can bring it ahead, so laying one
    and then withdrawing only wastes it."""
    st = position("ivanhoe", 2,
                  {"hand[P1]": ["red 3", "red 3", "blue 2", "yellow 2", "green 1"],
                   "hand[P2]": ["blue 3", "yellow 3", "green 1", "purple 3"],
                   "display[P2]": ["red 5", "red 4", "red 4"]},
                  "draw_pile", {"dealer": "P2", "tournament_colour": "red"})
    while st.to_move == 0 and "withdraw" not in [a.label for a in st.legal_actions()]:
        st.apply(st.legal_actions()[0])
    assert st.to_move == 0 and "withdraw" in [a.label for a in st.legal_actions()]
    picked = choices(st)
    assert picked["withdraw"] >= 9, picked


def test_ivanhoe_lays_on_after_a_card_where_the_next_card_wins():
    """P1 has laid yellow 2 against P2's yellow 4 and holds yellow 3 and yellow 4: laying
    on takes the lead, withdrawing throws the yellow 2 away for nothing."""
    st = position("ivanhoe", 2,
                  {"hand[P1]": ["yellow 2", "yellow 3", "yellow 4", "squire 2", "blue 2",
                                "red 3", "green 1"],
                   "hand[P2]": ["blue 3", "red 4", "green 1", "purple 3"],
                   "display[P2]": ["yellow 4"]},
                  "draw_pile", {"dealer": "P2", "tournament_colour": "yellow"})
    st.apply("yellow 2")
    assert st.to_move == 0 and "withdraw" in [a.label for a in st.legal_actions()]
    picked = choices(st)
    assert sensible(picked, lambda label: label == "withdraw") >= 9, picked


# ------------------------------------------------------------------ Intrige

def test_intrige_pays_no_large_bribe_that_buys_nothing():
    st = rulesdsl.load("intrige").new_game(players=3, seed=5)
    while not (st.question() or "").startswith(f"P{st.to_move + 1} offers"):
        st.apply(st.legal_actions()[0])
    picked = choices(st)
    assert sensible(picked, lambda label: int(label) > 30_000) >= 9, picked


def _host_choice_after_unequal_bribes(seed):
    """An Intrige game played on (first options, bribes of 10,000 or 30,000 at random) to
    the first host's choice among figures whose owners paid different bribes; with what
    each paid."""
    st = rulesdsl.load("intrige").new_game(players=3, seed=seed)
    rng = random.Random(seed)
    paid = {}
    while not st.is_over:
        question = st.question() or ""
        labels = [a.label for a in st.legal_actions()]
        if "want in" in question or "who gets the area" in question:
            figures = [label.split(" keeps ")[0] for label in labels]
            if len({paid.get(f) for f in figures}) == len(figures):
                return st, {label: paid[f] for label, f in zip(labels, figures)}
        if " offers " in question:
            label = rng.choice([x for x in labels if x in ("10000", "30000")])
            paid[question.split(" for ")[1].split(":")[0]] = int(label)
        else:
            label = labels[rng.randrange(len(labels))]
        st.apply(label)
    raise AssertionError("no choice between unequal bribes")


@pytest.mark.parametrize("seed", [5, 6])
def test_intrige_host_takes_in_the_figure_that_paid_more(seed):
    """A host lets in the figure whose owner paid more: without it, a search sees every host
    choose at random, and a higher bribe, as it judges, never buys a place (the rule-of-thumb
    player and people take the higher bribe). The file's evaluation counts it (`favour`).
    Asked of a search whose reward is the lead over the others' mean (`rival=0`): what the
    searcher's models of the other hosts are. Its own host weighs a bribe already paid
    against which rival gains the area (seed 5: the cheaper figure takes a 10,000 area from
    the richer rival's resident, for 7 seeds of 10)."""
    st, paid = _host_choice_after_unequal_bribes(seed)
    best = max(paid, key=paid.get)
    picked = Counter(make_agent("ismcts:medium", 1000 + k, rival=0).choose(st).label
                     for k in SEEDS)
    assert picked[best] >= 9, (paid, picked)


def test_intrige_defends_its_top_area_with_more_than_the_least_bribe():
    """P2's military holds P1's 100,000 area; P3's military attacks it. The resident bids
    first, and the host takes the figure that paid more: the least bribe (10,000) leaves
    the area to a coin's toss against an attacker who pays the same. Before, the search
    spread its visits over dozens of amounts and saw none better than the cheapest (10,000
    for 4 seeds of 10)."""
    from test_search import _top_area_attacked
    st = _top_area_attacked()
    picked = choices(st)
    assert sensible(picked, lambda label: int(label) <= 10_000) >= 9, picked


def _contested_top_area(rich):
    """Intrige, 3 players, P1 to host: P2's military holds P1's 100,000 area and P3's
    military attacks it, both having paid 10,000; P2 and P3 share P1's other areas alike
    but for 10,000 a round, and `rich` (P2 or P3) also holds the 50,000 and 100,000 areas
    of the other's house, where the other holds the 10,000 one."""
    from collections import Counter as Bag
    poor = "P3" if rich == "P2" else "P2"
    game = rulesdsl.load("intrige")
    zones = {"house[P1, a10]": ["P3 science"], "house[P1, a20]": ["P2 law"],
             "house[P1, a30]": ["P3 church"], "house[P1, a50]": ["P2 finance"],
             "house[P1, a100]": ["P2 military"], "park[P1]": ["P3 military"],
             f"house[{poor}, a100]": [f"{rich} science"],
             f"house[{poor}, a50]": [f"{rich} church"],
             f"house[{rich}, a10]": [f"{poor} finance"]}
    fresh = game.new_game(players=3, seed=1)
    placed = Bag(label for cards in zones.values() for label in cards)
    for q in (1, 2, 3):
        zones[f"supply[P{q}]"] = sorted((Bag(fresh.zone(f"supply[P{q}]")) - placed).elements())
    st = game.new_game(players=3, seed=1, scenario={"zones": zones})
    st.apply("10000")  # the resident, P2
    st.apply("10000")  # the attacker, P3
    assert st.to_move == 0 and "who gets the area" in st.question()
    return st


@pytest.mark.parametrize("rich", ["P2", "P3"])
def test_intrige_host_gives_its_top_area_to_the_poorer_rival(rich):
    """Only the richest wins, so a host between two rivals' equal bribes gives its
    100,000 area to the one further behind. The search's reward (a lead over the others'
    mean) is the same either way, and its hosts gave their best areas to whoever came: in
    the games lost to `greedy`, two thirds of the searcher's house's salaries went to the
    winner. The searcher's lead is now taken half over the best other seat
    (outcome.Judge's `rival`; before, with P3 the richer, P3 got the area for 6 seeds
    of 10)."""
    st = _contested_top_area(rich)
    poorer = "P3 military" if rich == "P2" else "P2 military keeps a100"
    picked = choices(st)
    assert picked[poorer] >= 9, picked


# ------------------------------------------------------------------ Skull (an example)

def test_skull_bets_no_disc_past_its_own_skull():
    """P1 laid its skull, the others a disc each. A bet of every disc on the mats ends the
    bidding at once and makes P1 turn up its own skull first: a disc lost for certain (the
    score, challenges won, does not see it; the file's evaluation does)."""
    st = rulesdsl.load(str(EXAMPLES / "skull.rules")).new_game(players=3, seed=1)
    for disc in ("skull", "flower", "flower"):  # laid at once, P1 first
        st.apply(disc)
    assert st.to_move == 0 and "bet 3" in [a.label for a in st.legal_actions()]
    picked = choices(st)
    assert sensible(picked, lambda label: label == "bet 3") >= 9, picked


# ------------------------------------------------------------------ Kalah (an example)

def test_kalah_sows_for_the_store_not_to_keep_seeds_home():
    """P1's first sowing (a3) ended in its store: it moves again. Searched eleven moves deep
    on the stores, a1 and a2 give up 3-4 seeds where a6 wins 5 (a4 and a5: -1 and 3); ten
    deep on the seeds on each side, a6 is best and a1 worst too. An
    evaluation that counted the seeds in a row as their row's chose a1 or a2 for 7 seeds of
    10 (3 with the search's favourite the default)."""
    st = rulesdsl.load(str(EXAMPLES / "kalah.rules")).new_game(players=2, seed=1)
    st.apply("a3")
    assert st.to_move == 0
    picked = choices(st)
    assert sensible(picked, lambda label: label in ("a1", "a2")) >= 9, picked


# ------------------------------------------------------------------ Go Fish

def test_go_fish_asks_the_player_the_table_heard_holds_the_rank():
    # P2 asked for a seven, so the table knows P2 holds one; P3 said "go fish" to sevens
    st = position(str(EXAMPLES / "go_fish.rules"), 3, {
        "hand[P1]": ["seven of clubs", "nine of hearts", "four of clubs"],
        "hand[P2]": ["seven of hearts", "king of clubs", "jack of hearts"],
        "hand[P3]": ["queen of spades", "five of diamonds", "six of clubs"]}, "stock")
    for label in ("ask P3 for four", "ask P3 for seven", "ask P1 for queen"):
        st.apply(label)                  # each a miss, then a card drawn that is no catch
    assert st.to_move == 0 and "P2's hand holds a seven" in st.story(0)
    picked = choices(st)
    assert sensible(picked, lambda label: label != "ask P2 for seven") >= 9, picked


# ------------------------------------------------------------------ No Thanks (an example)

def test_no_thanks_takes_a_card_its_chips_nearly_pay_for():
    """Seven players, early: a 33 has gone round the table until 32 chips lie on it, and
    P1 has 3 chips left. Taking costs one point now and keeps P1's chips, and the 32 chips
    taken buy refusals for the rest of the game; paying a chip costs the same point and
    leaves 2. The score counts a chip as one point and sees the two alike (the search once
    paid here and went on to pay its last chips and take whatever came); the file's
    evaluation counts the refusals a chip buys."""
    st = rulesdsl.load(str(EXAMPLES / "no_thanks.rules")).new_game(players=7, seed=1, scenario={
        # the stock's top (last) is turned up at once
        "zones": {"stock": [str(v) for v in (5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 7, 10,
                                             13, 16, 19, 22, 25, 28, 31, 34, 4, 6, 33)]},
        "vars": {"pot": 32, "chips[P1]": 3, "chips[P2]": 2, "chips[P3]": 2, "chips[P4]": 2,
                 "chips[P5]": 2, "chips[P6]": 2, "chips[P7]": 2},
        "displaced_to": "removed"})
    assert st.to_move == 0 and st.zone("offer") == ["33"] and st.var("pot") == 32
    picked = choices(st)
    assert sensible(picked, lambda label: label == "no thanks") >= 9, picked
