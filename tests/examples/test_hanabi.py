"""Hanabi (examples/hanabi.rules): hands that everyone sees but their holder (`others`), a
cooperative game. It checks without warnings, plays to its end at every player count, no
view ever holds a card of its own seat's hand, its rules hold in scenarios, and its legal
moves and positions match a reference written here, independently of the rules file,
over random games."""

import random
from collections import Counter
from pathlib import Path

import pytest

import rulesdsl

PATH = Path(__file__).resolve().parents[2] / "examples" / "hanabi.rules"
COLOURS = ["red", "yellow", "green", "blue", "white"]
SLOTS = ["s1", "s2", "s3", "s4", "s5"]


@pytest.fixture(scope="module")
def game():
    assert rulesdsl.check_file(PATH) == []  # no errors, no warnings
    return rulesdsl.load(str(PATH))


def labels(s):
    return sorted(a.label for a in s.legal_actions())


def card(label):
    colour, number = label.split()
    return colour, int(number)


def full_deck():
    return [f"{c} {n}" for c in COLOURS for n in [1, 1, 1, 2, 2, 3, 3, 4, 4, 5]]


def table(game, hands, draws=(), players=None, fireworks=None, vars=None, discard=()):
    """A game whose hands (seat -> labels, oldest first), fireworks (colour -> number
    played) and next draws (in order) are as given; the rest of the deck lies below."""
    players = players or len(hands)
    zones = {f"hand[P{p + 1}]": list(h) for p, h in enumerate(hands)}
    for c in COLOURS:
        zones[f"fireworks[{c}]"] = [f"{c} {n}" for n in range(1, (fireworks or {}).get(c, 0) + 1)]
    zones["discard"] = list(discard)
    rest = full_deck()
    for cards in list(zones.values()) + [list(draws)]:
        for lab in cards:
            rest.remove(lab)
    zones["deck"] = rest + list(reversed(draws))
    return game.new_game(players, 1, scenario={"zones": zones, "vars": dict(vars or {})})


# ---------------------------------------------------------------- whole games

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_hanabi_plays_to_the_end_at_every_player_count(game, players):
    for seed in range(4):
        s = game.new_game(players, seed)
        assert [len(s.zone(f"hand[P{p + 1}]")) for p in range(players)] == \
            [5 if players <= 3 else 4] * players
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        scores = s.scores
        assert len(set(scores)) == 1  # one shared result
        assert s.winners == ([] if scores[0] < 25 else list(range(players)))


def test_hanabi_is_declared_cooperative(game):
    assert game.cooperative


def test_no_view_holds_a_card_of_its_own_hand(game):
    """The secrets test: at every decision of random games, a seat's view shows its own
    hand as a count only, and every card that came into that hand reads as "1 card" in
    its log, while the other seats see the card."""
    for players, seed in ((2, 3), (3, 4), (5, 5)):
        s = game.new_game(players, seed)
        rng = random.Random(seed)
        step = 0
        while not s.is_over:
            for seat in range(players):
                own = f"hand[P{seat + 1}]"
                view = s.view(seat)
                assert view["zones"][own] == {"count": len(s.zone(own))}
                for other in range(players):
                    if other != seat:
                        assert view["zones"][f"hand[P{other + 1}]"] == \
                            s.zone(f"hand[P{other + 1}]")
                if step % 7 == 0:
                    into_own = [e for e in s.events
                                if e[0] == "move" and s.prog.zone_names[e[3]] == own]
                    for e in into_own:
                        assert s.render_log(e, seat).endswith(f"{len(e[1])} card" +
                                                              ("s" if len(e[1]) > 1 else ""))
                        assert s.render_log(e, (seat + 1) % players) == s.render_log(e)
                    d = s.determinize(seat, step)
                    assert d.view(seat) == view  # a sample keeps what the seat sees ...
                    for other in range(players):  # ... and the hands it sees, exactly
                        if other != seat:
                            name = f"hand[P{other + 1}]"
                            assert d.zone(name) == s.zone(name)
            s.apply(rng.choice(s.legal_actions()))
            step += 1


def test_a_seat_cannot_tell_its_own_hand_from_another(game):
    # two deals that differ only in a card of P1's hand and the deck look the same to P1,
    # so its samples are the same
    a = table(game, [["red 1", "red 2", "blue 3", "white 4", "green 5"],
                     ["yellow 1", "yellow 2", "red 3", "red 4", "blue 1"]], draws=["white 1"])
    b = table(game, [["white 1", "red 2", "blue 3", "white 4", "green 5"],
                     ["yellow 1", "yellow 2", "red 3", "red 4", "blue 1"]], draws=["red 1"])
    assert a.view(0) == b.view(0) and a.view(1) != b.view(1)
    da, db = a.determinize(0, 5), b.determinize(0, 5)
    assert [da.zone(z) for z in a.prog.zone_names] == [db.zone(z) for z in a.prog.zone_names]


# ---------------------------------------------------------------- the rules in scenarios

HANDS = [["red 1", "red 2", "blue 3", "white 4", "green 5"],
         ["yellow 1", "yellow 2", "red 3", "red 4", "blue 1"]]


def test_a_card_that_fits_is_added_to_its_firework(game):
    s = table(game, HANDS, draws=["white 1"])
    s.apply("play 1")
    assert s.zone("fireworks[red]") == ["red 1"] and s.var("fuses") == 3
    assert s.zone("hand[P1]") == ["red 2", "blue 3", "white 4", "green 5", "white 1"]
    assert "P1 plays red 1" in s.story(1) and "P1 plays red 1" in s.story(0)


def test_a_card_that_does_not_fit_burns_a_fuse(game):
    s = table(game, HANDS, draws=["white 1"])
    s.apply("play 2")
    assert s.zone("discard") == ["red 2"] and s.var("fuses") == 2
    assert "P1 plays red 2: it does not fit, a fuse burns" in s.story(1)


def test_the_third_fuse_ends_the_game_with_nothing(game):
    s = table(game, HANDS, draws=["white 1"], fireworks={"red": 1}, vars={"fuses": 1})
    s.apply("play 3")  # blue 3 on an empty blue firework
    assert s.is_over and s.scores == [0, 0] and s.winners == []


def test_a_five_completes_a_firework_and_earns_a_clue_back(game):
    s = table(game, HANDS, draws=["white 1"], fireworks={"green": 4}, vars={"clues": 5})
    s.apply("play 5")
    assert s.zone("fireworks[green]")[-1] == "green 5" and s.var("clues") == 6


def test_no_discard_with_every_clue_token(game):
    s = table(game, HANDS, draws=["white 1"])
    assert not any(label.startswith("discard") for label in labels(s))
    s = table(game, HANDS, draws=["white 1"], vars={"clues": 7})
    s.apply("discard 4")
    assert s.var("clues") == 8 and s.zone("discard") == ["white 4"]


def test_a_clue_tells_every_card_of_a_colour_or_number(game):
    s = table(game, HANDS, draws=["white 1"])
    tells = [a for a in labels(s) if a.startswith("tell")]
    # P2 holds yellow, red and blue cards, numbers 1 to 4
    assert tells == sorted(["tell P2 yellow", "tell P2 red", "tell P2 blue", "tell P2 1",
                            "tell P2 2", "tell P2 3", "tell P2 4"])
    s.apply("tell P2 red")
    assert s.var("clues") == 7
    assert s.story(1)[-1] == "P1 tells P2: red at 3, 4"
    assert s.var("told_colour", [1, "s3"]) == "red" and s.var("told_colour", [1, "s4"]) == "red"
    assert s.var("told_colour", [1, "s1"]) is None
    s.apply("play 1")  # P2 plays yellow 1: what it was told moves down with its cards
    assert s.var("told_colour", [1, "s2"]) == "red" and s.var("told_colour", [1, "s3"]) == "red"
    assert s.var("told_colour", [1, "s4"]) is None and s.var("told_colour", [1, "s5"]) is None


def test_no_clue_without_a_token(game):
    s = table(game, HANDS, draws=["white 1"], vars={"clues": 0})
    assert not any(label.startswith("tell") for label in labels(s))


def test_after_the_last_card_everyone_plays_once_more(game):
    hands = [["red 1", "red 2", "blue 3", "white 4", "green 5"],
             ["yellow 1", "yellow 2", "red 3", "red 4", "blue 1"]]
    s = table(game, hands)
    rest = s.zone("deck")
    # empty the deck down to one card by scenario: the rest go to the discard pile
    s = table(game, hands, discard=rest[:-1], draws=rest[-1:])
    s.apply("discard 4" if "discard 4" in labels(s) else "play 4")
    assert s.zone("deck") == [] and not s.is_over
    s.apply("tell P1 red")          # P2's last turn
    assert not s.is_over
    s.apply("play 1")               # P1, who drew the last card, plays last
    assert s.is_over


def test_all_fireworks_complete_is_a_win_for_everyone(game):
    s = table(game, [["red 5", "red 1", "blue 1", "white 1", "green 1"],
                     ["yellow 1", "yellow 2", "red 3", "red 4", "blue 2"]],
              draws=["white 2"], fireworks={"red": 4, "yellow": 5, "green": 5, "blue": 5,
                                             "white": 5})
    s.apply("play 1")
    assert s.is_over and s.winners == [0, 1] and s.scores == [25, 25]


# ---------------------------------------------------------------- reference

class Reference:
    """Hanabi from the rulebook, in plain Python: the legal moves and the position after
    each, started from the engine's deal (the only thing it reads from the engine)."""

    def __init__(self, state, players):
        self.n = players
        self.hands = [[card(x) for x in state.zone(f"hand[P{p + 1}]")] for p in range(players)]
        self.deck = [card(x) for x in state.zone("deck")]  # top is last
        self.fireworks = dict.fromkeys(COLOURS, 0)
        self.discard = Counter()
        self.clues, self.fuses, self.turns_left = 8, 3, None
        self.told = [[[None, None] for _ in SLOTS] for _ in range(players)]
        self.to_move = 0

    def legal(self):
        p, out = self.to_move, set()
        for i in range(1, len(self.hands[p]) + 1):
            out.add(f"play {i}")
            if self.clues < 8:
                out.add(f"discard {i}")
        if self.clues > 0:
            for q in range(self.n):
                if q == p:
                    continue
                for c in {c for c, _ in self.hands[q]}:
                    out.add(f"tell P{q + 1} {c}")
                for v in {v for _, v in self.hands[q]}:
                    out.add(f"tell P{q + 1} {v}")
        return sorted(out)

    def apply(self, label):
        p = self.to_move
        word, rest = label.split(" ", 1)
        if word == "tell":
            who, what = rest.split()
            q = int(who[1:]) - 1
            self.clues -= 1
            for i, (c, v) in enumerate(self.hands[q]):
                if what in COLOURS and c == what:
                    self.told[q][i][0] = what
                elif what.isdigit() and v == int(what):
                    self.told[q][i][1] = int(what)
        else:
            i = int(rest) - 1
            c, v = self.hands[p].pop(i)
            self.told[p] = self.told[p][:i] + self.told[p][i + 1:] + [[None, None]]
            if word == "discard":
                self.discard[(c, v)] += 1
                self.clues += 1
            elif v == self.fireworks[c] + 1:
                self.fireworks[c] = v
                if v == 5 and self.clues < 8:
                    self.clues += 1
            else:
                self.discard[(c, v)] += 1
                self.fuses -= 1
            if self.deck:
                self.hands[p].append(self.deck.pop())
                if not self.deck:
                    self.turns_left = self.n + 1
        if self.turns_left is not None:
            self.turns_left -= 1
        self.to_move = (p + 1) % self.n

    @property
    def over(self):
        return self.fuses == 0 or sum(self.fireworks.values()) == 25 or self.turns_left == 0

    def matches(self, s):
        assert [[card(x) for x in s.zone(f"hand[P{p + 1}]")] for p in range(self.n)] == \
            self.hands
        assert {c: len(s.zone(f"fireworks[{c}]")) for c in COLOURS} == self.fireworks
        assert Counter(card(x) for x in s.zone("discard")) == self.discard
        assert (s.var("clues"), s.var("fuses")) == (self.clues, self.fuses)
        for p in range(self.n):
            for k, slot in enumerate(SLOTS):
                assert [s.var("told_colour", [p, slot]), s.var("told_number", [p, slot])] \
                    == self.told[p][k]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_moves_and_positions_match_the_reference(game, players):
    actions = 0
    for seed in range(25):
        s = game.new_game(players, 100 + seed)
        ref = Reference(s, players)
        rng = random.Random(seed)
        while not s.is_over:
            assert s.to_move == ref.to_move
            assert labels(s) == ref.legal()
            label = rng.choice(ref.legal())
            s.apply(label)
            ref.apply(label)
            ref.matches(s)
            actions += 1
        assert ref.over
        score = 0 if ref.fuses == 0 else sum(ref.fireworks.values())
        assert s.scores == [score] * players
    assert actions > 300
