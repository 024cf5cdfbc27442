"""Explicit chance (engine/state/chance.py): a state made with chance="explicit" stops at
each random event with its outcomes and probabilities; applying an outcome plays on.
Ordinary play is the goldens' business (tests/engine/test_golden.py)."""

import random
from fractions import Fraction
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl import IllegalAction
from rulesdsl.lang.errors import RulesError

HERE = Path(__file__).parent
CHANCE = str(HERE / "rules" / "chance.rules")
KUHN = str(HERE.parent / "integrations" / "rules" / "kuhn_poker.rules")


def first_decisions(st, p=Fraction(1)):
    """Every state where the first decision stands, with its probability."""
    if not st.is_chance:
        yield st, p
        return
    for label, q in st.chance_outcomes():
        child = st.clone()
        child.apply(label)
        yield from first_decisions(child, p * Fraction(q).limit_denominator(1000))


def test_kuhn_deals_six_hands_each_one_in_six():
    st = rulesdsl.load(KUHN).new_game(2, chance="explicit")
    assert st.is_chance and st.to_move is None
    assert st.chance_outcomes() == [("card 1", pytest.approx(1 / 3)),
                                    ("card 2", pytest.approx(1 / 3)),
                                    ("card 3", pytest.approx(1 / 3))]
    deals = {(tuple(s.zone("hand[P1]")), tuple(s.zone("hand[P2]"))): p
             for s, p in first_decisions(st)}
    assert len(deals) == 6 and set(deals.values()) == {Fraction(1, 6)}


def test_alike_cards_are_one_outcome_weighted_by_their_number():
    st = rulesdsl.load(CHANCE).new_game(2, chance="explicit")
    assert st.chance_outcomes() == [("card 1", pytest.approx(2 / 3)),
                                    ("card 2", pytest.approx(1 / 3))]
    st.apply("card 2")
    # every card left is alike: the rest of the shuffle is no event
    assert not st.is_chance and st.to_move == 0
    assert st.history == ["card 2"]


def test_a_roll_and_a_rolled_die_are_outcomes_over_their_faces():
    st = rulesdsl.load(CHANCE).new_game(2, chance="explicit")
    st.apply("card 2")
    st.apply("roll")
    assert [label for label, _ in st.chance_outcomes()] == ["1", "2", "3", "4", "5", "6"]
    st.apply("4")
    assert st.chance_outcomes() == [(str(k), pytest.approx(1 / 3)) for k in (1, 2, 3)]
    st.apply("2")
    assert st.is_over and st.var("total") == 6
    assert st.history == ["card 2", "roll", "4", "2"]


def test_an_outcome_replays_the_log_of_seeded_play():
    """The same outcomes as a seed drew give the same game, log and all."""
    game = rulesdsl.load(KUHN)
    seeded = game.new_game(2, seed=11)
    explicit = game.new_game(2, chance="explicit")
    for label in reversed(seeded.zone("deck") + seeded.zone("hand[P2]") +
                          seeded.zone("hand[P1]")):
        if explicit.is_chance:
            explicit.apply(label)
    for label in ["pass", "bet", "bet"]:
        seeded.apply(label)
        explicit.apply(label)
    assert explicit.log == seeded.log and explicit.payoffs == seeded.payoffs


def test_a_clone_at_a_random_event_goes_its_own_way():
    st = rulesdsl.load(KUHN).new_game(2, chance="explicit")
    st.apply("card 1")
    other = st.clone()
    st.apply("card 2")
    other.apply("card 3")
    assert st.zone("hand[P2]") == ["card 2"] and other.zone("hand[P2]") == ["card 3"]
    assert other.is_chance is False and other.history == ["card 1", "card 3"]


def test_an_outcome_that_is_not_offered_is_refused_and_changes_nothing():
    st = rulesdsl.load(KUHN).new_game(2, chance="explicit")
    st.apply("card 1")
    with pytest.raises(IllegalAction, match="random event's outcome"):
        st.apply("card 1")
    with pytest.raises(IllegalAction):
        st.apply("pass")
    assert st.history == ["card 1"] and st.is_chance
    assert [label for label, _ in st.chance_outcomes()] == ["card 2", "card 3"]


def test_a_playout_draws_outcomes_by_their_probability():
    game = rulesdsl.load(CHANCE)
    rng = random.Random(5)
    firsts = []
    for _ in range(600):
        st = game.new_game(2, chance="explicit")
        st.playout(rng)
        assert st.is_over
        firsts.append(st.history[0])
    assert firsts.count("card 1") / 600 == pytest.approx(2 / 3, abs=0.05)


def test_a_chance_mode_the_engine_does_not_know_is_c021():
    with pytest.raises(RulesError) as e:
        rulesdsl.load(KUHN).new_game(2, chance="lazy")
    assert e.value.code == "C021" and "explicit" in str(e.value)


def test_a_save_restores_at_a_random_event_and_plays_on_alike():
    game = rulesdsl.load(CHANCE)
    st = game.new_game(2, chance="explicit")
    st.apply("card 2")
    st.apply("roll")
    text = st.to_json()
    back = rulesdsl.restore(game, text)
    assert back.is_chance and back.chance_outcomes() == st.chance_outcomes()
    assert back.to_json() == text
    for s in (st, back):
        s.apply("6")
        s.apply("1")
    assert back.log == st.log and back.var("total") == 7


def test_a_save_whose_outcomes_were_edited_is_refused():
    game = rulesdsl.load(KUHN)
    st = game.new_game(2, chance="explicit")
    st.apply("card 1")
    st.apply("card 2")
    text = st.to_json().replace('"history":["card 1","card 2"]', '"history":["card 1","card 3"]')
    with pytest.raises(RulesError) as e:
        rulesdsl.restore(game, text)
    assert e.value.code == "S001" and "differ" in str(e.value)


def test_a_sampled_world_draws_its_own_random_events_and_the_search_plays_it():
    from rulesdsl.agents import make_agent
    st = rulesdsl.load(CHANCE).new_game(2, chance="explicit")
    st.apply("card 1")
    st.apply("card 1")
    sample = st.determinize(0, seed=4)
    sample.apply("roll")                  # no stop: the sample's own generator rolls
    assert not sample.is_chance and sample.is_over
    assert make_agent("ismcts", seed=3, iterations=20).choose(st).label == "roll"


# ---------------------------------------------------------------- the lazily shuffled pile
LAZY = str(HERE / "rules" / "lazy_pile.rules")
LEDUC = str(HERE.parent / "integrations" / "rules" / "leduc_poker.rules")


def test_a_shuffle_nobody_sees_is_no_event_until_a_card_is_drawn():
    st = rulesdsl.load(LAZY).new_game(2, chance="explicit")
    assert not st.is_chance and st.to_move == 0      # shuffled, nothing decided yet
    st.apply("count")                                # its size tells nothing of its order
    assert not st.is_chance and st.var("drawn") == 6
    st.apply("top")
    assert st.chance_outcomes() == [("card 1", pytest.approx(1 / 6)),
                                    ("card 2", pytest.approx(1 / 6)),
                                    ("card 3", pytest.approx(1 / 6)),
                                    ("card 4", pytest.approx(1 / 6)),
                                    ("card 5", pytest.approx(2 / 6))]
    st.apply("card 5")
    assert not st.is_chance and st.zone("pile") == ["card 5"]
    st.apply("again")                                # shuffled again: still nothing decided
    assert not st.is_chance
    st.apply("top")
    assert [p for _, p in st.chance_outcomes()] == [pytest.approx(1 / 5)] * 5


def test_the_bottom_card_is_decided_alone_and_a_whole_pile_from_the_top():
    st = rulesdsl.load(LAZY).new_game(2, chance="explicit")
    for label in ["top", "card 5", "bottom", "card 3"]:
        st.apply(label)
    assert not st.is_chance and st.zone("pile") == ["card 5", "card 3"]
    st.apply("all")                                  # the rest in order: from the top down
    for label in ["card 5", "card 4", "card 2"]:
        assert label in dict(st.chance_outcomes())
        st.apply(label)
    assert st.is_over and st.zone("pile") == ["card 5", "card 3", "card 1", "card 2",
                                              "card 4", "card 5"]


def test_every_card_moved_at_once_decides_no_order():
    st = rulesdsl.load(LAZY).new_game(2, chance="explicit")
    st.apply("collect")                              # `move cards to pile`: no order read
    assert not st.is_chance and st.is_over and len(st.zone("pile")) == 6


def test_cards_taken_out_by_what_they_are_decide_no_place():
    st = rulesdsl.load(LAZY).new_game(2, chance="explicit")
    st.apply("fives")                                # two cards found among all cards
    assert not st.is_chance and st.zone("pile") == ["card 5", "card 5"]
    st.apply("top")
    assert [p for _, p in st.chance_outcomes()] == [pytest.approx(1 / 4)] * 4


def test_leduc_deals_as_the_builtin_game_the_public_card_drawn_when_it_is_turned():
    st = rulesdsl.load(LEDUC).new_game(2, chance="explicit")
    assert len(st.chance_outcomes()) == 6
    st.apply("card 3 of hearts")
    assert len(st.chance_outcomes()) == 5
    st.apply("card 1 of spades")
    assert not st.is_chance and st.zone("hand[P1]") == ["card 3 of hearts"]
    st.apply("call")
    st.apply("call")                                 # the first round ends: the card turns
    assert [p for _, p in st.chance_outcomes()] == [pytest.approx(1 / 4)] * 4
    text = st.to_json()
    back = rulesdsl.restore(st.game, text)
    assert back.chance_outcomes() == st.chance_outcomes()
    for s in (st, back):
        s.apply("card 3 of spades")
    assert back.zone("board") == st.zone("board") == ["card 3 of spades"]
    assert back.log == st.log


class _Chance:
    """A chance running the rules that draws each place's card from a generator."""

    running = True

    def __init__(self, rng):
        self.rng = rng

    def card(self, cards, labels):
        return self.rng.choice(cards)


def test_a_hidden_pile_never_changes_a_place_once_read_and_keeps_its_cards():
    """Random reads, draws and puts on a hidden pile: what was read stays, no card is lost
    or made, and the undecided cards are kept in card order."""
    from rulesdsl.engine.state.piles import HiddenPile
    rng = random.Random(3)
    for trial in range(300):
        cards = list(range(rng.randint(0, 9)))
        pile = HiddenPile.shuffled(cards[::-1], _Chance(rng), [str(c) for c in cards])
        model = {}                       # place from the bottom -> the card read there
        for _ in range(12):
            n = len(pile)
            op = rng.choice(["top", "bottom", "pop", "pop0", "put", "under", "take",
                             "deal"])
            if op in ("top", "bottom") and n:
                k = n - 1 if op == "top" else 0
                assert model.setdefault(k, pile[k]) == pile[k]
                model[k] = pile[k]
            elif op in ("pop", "pop0") and n:
                k = n - 1 if op == "pop" else 0
                card = pile.pop(-1 if op == "pop" else 0)
                assert model.pop(k, card) == card
                model = {(j - 1 if j > k else j): c for j, c in model.items()}
                cards.remove(card)
            elif op in ("put", "under"):
                card = max(cards, default=-1) + 1 + trial * 100
                cards.append(card)
                if op == "put":
                    pile.append(card)
                    model[n] = card
                else:
                    pile.insert(0, card)
                    model = {j + 1: c for j, c in model.items()}
                    model[0] = card
            elif op == "take" and n:
                card = rng.choice(list(list.__iter__(pile)))
                k = list.index(pile, card)
                pile.remove(card)
                model.pop(k, None)
                model = {(j - 1 if j > k else j): c for j, c in model.items()}
                cards.remove(card)
            elif op == "deal" and n >= 2:
                dealt = pile[n - 2:]
                del pile[n - 2:]
                assert [model.get(n - 2, dealt[0]), model.get(n - 1, dealt[1])] == dealt
                model = {j: c for j, c in model.items() if j < n - 2}
                for card in dealt:
                    cards.remove(card)
            assert sorted(list.__iter__(pile)) == sorted(cards)
            assert all(list.__getitem__(pile, k) == c for k, c in model.items())
            undecided = list.__getitem__(pile, slice(pile.below, len(pile) - pile.above))
            assert undecided == sorted(undecided) and 0 <= pile.below <= len(pile) - pile.above


def test_a_sample_of_a_state_with_an_undecided_pile_plays_on_with_its_own_order():
    st = rulesdsl.load(LEDUC).new_game(2, chance="explicit")
    st.apply("card 3 of hearts")
    st.apply("card 1 of spades")
    sample = st.determinize(0, seed=2)
    assert sample.zone("hand[P1]") == ["card 3 of hearts"] and len(sample.zone("deck")) == 4
    assert all(type(z) is list for z in sample.zones)   # its own order, drawn for it
    sample.playout(random.Random(1))
    assert sample.is_over and len(sample.zone("board")) <= 1
    assert st.to_move == 0 and len(st.zone("deck")) == 4   # the real pile is untouched


def test_a_deep_copy_of_a_state_with_an_undecided_pile_draws_as_before():
    import copy
    st = rulesdsl.load(LAZY).new_game(2, chance="explicit")
    other = copy.deepcopy(st)
    assert other.zones[0].chance is other.chance        # its pile is decided by its chance
    other.apply("top")
    assert [label for label, _ in other.chance_outcomes()] == \
        ["card 1", "card 2", "card 3", "card 4", "card 5"]


# ---------------------------------------------------------------- a card picked at random
RANDOM_PILE = str(HERE / "rules" / "random_pile.rules")


def seen_and_pile(st):
    return st.var("seen"), tuple(st.zone("pile"))


def chance_tree(st, plays, end=seen_and_pile, p=Fraction(1)):
    """(leaves, chance nodes): each end reached playing `plays` in turn at the decisions,
    as `end` tells it, with its probability summed, and every chance node's outcome count."""
    leaves, nodes = {}, []
    if st.is_over:
        leaves[end(st)] = p
        return leaves, nodes
    if not st.is_chance:
        child = st.clone()
        child.apply(plays[0])
        return chance_tree(child, plays[1:], end, p)
    outcomes = st.chance_outcomes()
    nodes.append(len(outcomes))
    for label, q in outcomes:
        child = st.clone()
        child.apply(label)
        more, deeper = chance_tree(child, plays, end,
                                   p * Fraction(q).limit_denominator(1000))
        for leaf, r in more.items():
            leaves[leaf] = leaves.get(leaf, 0) + r
        nodes += deeper
    return leaves, nodes


def every_order(plays):
    """The same ends counted over every order of the shuffled deck, the pick over every
    place: what the rules mean, by brute force."""
    from itertools import permutations
    deck = [1, 1, 2, 3]
    orders = list(permutations(range(len(deck))))  # the cards' places, bottom to top
    leaves = {}
    for order in orders:
        for pick in range(len(deck)):
            seen = deck[order[-1]] if "peek" in plays else 0
            rest = [deck[c] for k, c in enumerate(order) if k != pick]
            leaf = (seen, (f"card {deck[order[pick]]}", f"card {rest[-1]}"))
            leaves[leaf] = leaves.get(leaf, 0) + Fraction(1, len(orders) * len(deck))
    return leaves


def test_a_card_picked_from_a_hidden_pile_is_one_event_over_its_cards():
    st = rulesdsl.load(RANDOM_PILE).new_game(2, chance="explicit")
    st.apply("pick")
    assert st.chance_outcomes() == [("card 1", pytest.approx(1 / 2)),
                                    ("card 2", pytest.approx(1 / 4)),
                                    ("card 3", pytest.approx(1 / 4))]
    leaves, nodes = chance_tree(st, [])
    assert leaves == every_order(["pick"])
    assert nodes == [3, 3, 2, 2]       # the pick, then the top of the three left


def test_a_pick_beside_a_place_already_read_tells_the_read_card_apart():
    """The top card was read (`peek`): a pick of its label may be that card or an alike
    one whose place is not decided; the ends are those of every order."""
    st = rulesdsl.load(RANDOM_PILE).new_game(2, chance="explicit")
    leaves, nodes = chance_tree(st, ["peek", "pick"])
    assert leaves == every_order(["peek", "pick"])
    assert len(nodes) == 8             # 21 where the pick decided the whole order


# ---------------------------------------------------------------- a hidden pile moved whole
MOVED_PILE = str(HERE / "rules" / "moved_pile.rules")


def every_order_moved(plays):
    """The piles' ends over every order of the shuffled deck (rank 4 twice), by brute force:
    what playing `plays` means."""
    from itertools import permutations
    ranks = [1, 2, 3, 4, 4]
    leaves = {}

    def play(plays, deck, stock, pile, p):
        if not plays:
            leaf = tuple(f"card {r}" for r in pile)
            leaves[leaf] = leaves.get(leaf, 0) + p
        elif plays[0] == "mix":
            mixed = list(permutations(stock))
            for order in mixed:
                play(plays[1:], deck, list(order), pile, p / len(mixed))
        elif plays[0] == "gather":
            play(plays[1:], [], stock + deck, pile, p)
        elif plays[0] == "first":
            play(plays[1:], deck[:-1], stock + deck[-1:], pile, p)
        elif plays[0] == "under":
            play(plays[1:], deck, stock[1:], pile + stock[:1], p)
        else:
            play(plays[1:], deck, stock[:-1], pile + stock[-1:], p)

    orders = list(permutations(ranks))  # bottom to top, alike cards counted apart
    for order in orders:
        play(plays, list(order), [], [], Fraction(1, len(orders)))
    return leaves


def pile_only(st):
    return tuple(st.zone("pile"))


@pytest.mark.parametrize("engine", ["generated", "closures"])
def test_a_hidden_pile_moved_onto_a_hidden_one_keeps_its_order_undecided(monkeypatch, engine):
    if engine == "closures":
        monkeypatch.setenv("RULESDSL_ENGINE", "closures")
    st = rulesdsl.load(MOVED_PILE).new_game(2, chance="explicit")
    st.apply("gather")
    assert not st.is_chance and len(st.zone("stock")) == 5   # no order decided yet
    plays = ["gather", "draw", "draw"]
    leaves, nodes = chance_tree(rulesdsl.load(MOVED_PILE).new_game(2, chance="explicit"),
                                plays, pile_only)
    assert leaves == every_order_moved(plays)
    assert nodes == [4, 3, 3, 3, 4]    # the two cards drawn; 45 nodes where `gather` decided


def test_a_hidden_pile_moved_onto_a_decided_card_keeps_that_card_under_it():
    plays = ["first", "gather", "draw", "draw"]
    st = rulesdsl.load(MOVED_PILE).new_game(2, chance="explicit")
    leaves, nodes = chance_tree(st, plays, pile_only)
    assert leaves == every_order_moved(plays)
    assert len(nodes) == 18             # 45 where `gather` decided the order


def test_a_hidden_pile_moved_onto_one_with_places_undecided_is_decided_as_it_moves():
    """Two stretches of undecided places cannot lie in one pile: the moved pile's order is
    decided top down as the move reads it, and the ends are still those of every order."""
    plays = ["first", "first", "mix", "gather", "under", "draw"]
    st = rulesdsl.load(MOVED_PILE).new_game(2, chance="explicit")
    leaves, nodes = chance_tree(st, plays, pile_only)
    assert leaves == every_order_moved(plays)
