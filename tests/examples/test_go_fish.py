"""Go Fish (examples/go_fish.rules): public facts about hidden hands. It checks without
warnings and plays to its end at every player count; its rules hold in positions (cards
handed over face up and another ask, "go fish" and the catch that asks again, books laid
down, an empty hand drawing, who may be asked for what, most books winning); what asking
tells the table stays in every seat's samples; and its legal moves and positions match a
reference written here, independently of the rules file, over random games."""

import random

import pytest

from _play import labels, load, random_game
from _reference import follow

RANKS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "jack", "queen", "king"]
SUITS = ["clubs", "diamonds", "hearts", "spades"]


@pytest.fixture(scope="module")
def game():
    return load("go_fish")


def rank_of(label: str) -> str:
    return label.split(" of ")[0]


def four(rank: str) -> list:
    return [f"{rank} of {s}" for s in SUITS]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_go_fish_plays_to_the_end(game, players):
    for seed in range(6):
        s = random_game(game, players, seed)
        books = [len(s.zone("books", seat=p)) // 4 for p in range(players)]
        assert sum(books) == 13
        assert s.winners == [p for p in range(players) if books[p] == max(books)]
        assert s.scores == books


def test_the_deal_is_seven_each_with_few_players_and_five_with_more(game):
    assert [len(game.new_game(3, seed=1).zone("hand", seat=p)) for p in range(3)] == [7] * 3
    assert [len(game.new_game(4, seed=1).zone("hand", seat=p)) for p in range(4)] == [5] * 4


def at(game, hands: list, stock=(), players=2):
    """A position: the hands named (P1 first), `stock` its top card last. With the stock
    named, the cards left over are put out of play in the last seat's books (nothing in
    these tests reads them)."""
    zones = {f"hand[P{k + 1}]": cards for k, cards in enumerate(hands)}
    out_of_play = "stock"
    if stock:
        zones["stock"] = list(stock)
        out_of_play = f"books[P{players}]"
    return game.new_game(players, seed=0,
                         scenario={"zones": zones, "displaced_to": out_of_play})


def test_one_asks_only_for_a_rank_one_holds_and_only_one_who_holds_cards(game):
    s = at(game, [["two of clubs", "nine of hearts"], [], ["five of spades"]], players=3)
    assert labels(s) == ["ask P3 for nine", "ask P3 for two"]


def test_cards_asked_for_are_all_handed_over_face_up_and_the_asker_asks_again(game):
    s = at(game, [["two of clubs", "nine of hearts"],
                  ["two of hearts", "two of spades", "king of clubs"], ["five of spades"]],
           players=3)
    s.apply("ask P2 for two")
    assert sorted(s.zone("hand", seat=0)) == sorted(
        ["two of clubs", "nine of hearts", "two of hearts", "two of spades"])
    assert s.zone("hand", seat=1) == ["king of clubs"]
    assert s.to_move == 0                                   # asks again
    told = "\n".join(s.story(2))                            # P3 sees neither hand
    assert "P1's hand holds a two" in told
    # handed over face up: one line names the cards for every seat, none shows them again
    assert "two of hearts, two of spades: from P2's hand to P1's hand" in told
    assert "shows" not in told


def test_go_fish_tells_the_table_and_a_card_of_another_rank_ends_the_turn(game):
    s = at(game, [["two of clubs"], ["king of clubs"]], stock=["five of hearts"])
    s.apply("ask P2 for two")
    assert "five of hearts" in s.zone("hand", seat=0)
    assert s.to_move == 1
    told = "\n".join(s.story(1))
    assert "P2's hand holds no two" in told and "P2: go fish!" in told
    assert "five of hearts" not in told                    # the fished card is P1's secret


def test_fishing_the_rank_asked_for_shows_it_and_asks_again(game):
    s = at(game, [["two of clubs", "nine of hearts"], ["king of clubs"]],
           stock=["two of hearts"])
    s.apply("ask P2 for two")
    assert s.to_move == 0
    assert "two of hearts" in "\n".join(s.story(1))          # shown to the table


def test_four_of_a_rank_are_a_book_laid_down_at_once(game):
    s = at(game, [["seven of clubs", "seven of hearts", "seven of spades", "nine of hearts"],
                  ["seven of diamonds", "king of clubs"]])
    s.apply("ask P2 for seven")
    assert sorted(s.zone("books", seat=0)) == sorted(four("seven"))
    assert s.zone("hand", seat=0) == ["nine of hearts"]
    assert labels(s) == ["ask P2 for nine"]
    assert s.scores == [1, 0]


def test_an_empty_hand_draws_before_asking(game):
    s = at(game, [["seven of clubs", "seven of hearts", "seven of spades"],
                  ["seven of diamonds", "king of clubs"]], stock=["king of hearts"])
    s.apply("ask P2 for seven")                              # the book empties P1's hand
    assert s.zone("books", seat=0) and s.to_move == 0
    assert s.zone("hand", seat=0) == ["king of hearts"]
    assert labels(s) == ["ask P2 for king"]


def test_when_nobody_else_holds_a_card_one_draws_and_the_turn_ends(game):
    s = at(game, [["seven of clubs", "two of hearts"], ["seven of diamonds"]],
           stock=["two of spades", "king of hearts"])
    s.apply("ask P2 for seven")
    assert "king of hearts" in s.zone("hand", seat=0)
    assert "king of hearts" not in "\n".join(s.story(1))
    # P2's turn: an empty hand draws first, then asks
    assert s.to_move == 1 and s.zone("hand", seat=1) == ["two of spades"]
    assert labels(s) == ["ask P1 for two"]


def test_samples_keep_what_asking_and_go_fish_told(game):
    s = at(game, [["two of clubs", "nine of hearts", "four of spades"],
                  ["king of clubs", "five of hearts"], ["six of spades", "ten of hearts"]],
           stock=["ace of clubs"], players=3)
    s.apply("ask P2 for two")                    # P1 holds a two; P2 none; P1 fishes an ace
    for k in range(30):
        d = s.determinize(2, k)
        assert any(rank_of(c) == "two" for c in d.zone("hand[P1]"))
        assert not any(rank_of(c) == "two" for c in d.zone("hand[P2]"))
        assert sorted(d.zone("hand[P3]")) == ["six of spades", "ten of hearts"]


def test_samples_keep_that_a_hand_that_handed_a_rank_over_holds_no_more(game):
    s = at(game, [["two of clubs", "nine of hearts"],
                  ["two of hearts", "king of clubs", "queen of hearts", "jack of spades",
                   "five of clubs", "eight of hearts", "ace of diamonds"],
                  ["six of spades", "ten of hearts"]], players=3)
    s.apply("ask P2 for two")                    # P2 hands all its twos over, face up
    assert "P2's hand holds no two" in "\n".join(s.story(2))
    for k in range(60):                          # P3 samples P2's six other cards
        d = s.determinize(2, k)
        assert not any(rank_of(c) == "two" for c in d.zone("hand[P2]"))


class Reference:
    """Go Fish as the comment at the top of the file states it, from the same deal."""

    def __init__(self, s):
        n = s.players
        self.n = n
        # the deal, as it was before any book dealt whole was laid down
        self.hands = [list(s.zone("hand", seat=p)) + list(s.zone("books", seat=p))
                      for p in range(n)]
        self.stock = list(s.zone("stock"))        # bottom first: the top is the last
        self.books = [[] for _ in range(n)]
        for p in range(n):
            self.lay_books(p)

    def done(self):
        return sum(len(b) for b in self.books) == 52

    def lay_books(self, p):
        for r in RANKS:
            cards = [c for c in self.hands[p] if rank_of(c) == r]
            if len(cards) == 4:
                self.hands[p] = [c for c in self.hands[p] if rank_of(c) != r]
                self.books[p] += cards

    def draw(self, p):
        card = self.stock.pop()
        self.hands[p].append(card)
        return card

    def ask(self, p):
        """One ask; yields the decision, returns whether p asks again."""
        legal = sorted(f"ask P{q + 1} for {r}" for q in range(self.n) if q != p and self.hands[q]
                       for r in RANKS if any(rank_of(c) == r for c in self.hands[p]))
        chosen = yield p, legal
        q, r = int(chosen.split()[1][1:]) - 1, chosen.split()[-1]
        got = [c for c in self.hands[q] if rank_of(c) == r]
        if got:
            self.hands[q] = [c for c in self.hands[q] if rank_of(c) != r]
            self.hands[p] += got
            self.lay_books(p)
            return True
        if not self.stock:
            return False
        fish = self.draw(p)
        self.lay_books(p)
        return rank_of(fish) == r

    def flow(self):
        p = 0
        while not self.done():
            again = True
            while again and not self.done():
                self.lay_books(p)
                if not self.hands[p] and self.stock:
                    self.draw(p)
                if not self.hands[p]:
                    again = False
                elif all(not self.hands[q] for q in range(self.n) if q != p):
                    if self.stock:
                        self.draw(p)
                        self.lay_books(p)
                    again = False
                else:
                    again = yield from self.ask(p)
            p = (p + 1) % self.n

    def matches(self, s):
        for p in range(self.n):
            assert sorted(s.zone("hand", seat=p)) == sorted(self.hands[p])
            assert sorted(s.zone("books", seat=p)) == sorted(self.books[p])
        assert s.zone("stock") == self.stock


@pytest.mark.parametrize("players", [2, 3, 5])
def test_legal_moves_and_positions_match_the_reference(game, players):
    actions = 0
    for seed in range(40):
        s = game.new_game(players, 700 + seed)
        ref = Reference(s)
        actions += follow(s, ref.flow(), random.Random(seed), ref.matches)
        ref.matches(s)
        books = [len(b) // 4 for b in ref.books]
        assert s.is_over and s.winners == [p for p in range(players) if books[p] == max(books)]
    assert actions > 1000
