"""Triumvirat written by hand in plain Python: the yardstick for the engine's speed.

Own code, written for the benchmark from the rulebook and RULINGS.md (the same rulings
games/triumvirat.rules follows), with the same decision granularity as the rules file:
one decision per card played and one per influence choice ("lay no influence" included).
Actions are card numbers (NO_INFLUENCE for declining); no labels, no log, no views.

    game = Triumvirat(seed)
    while not game.over:
        actions = game.legal_actions()
        game.apply(actions[k])
"""

from __future__ import annotations

import random

# cards 0..26: colour = card // 9; within a colour the values below
VALUES = (7, 5, 3, 8, 6, 4, 2, 1, 0)
COLOUR = tuple(c // 9 for c in range(27))
VALUE = tuple(VALUES[c % 9] for c in range(27))
LEGION = tuple(VALUE[c] in (7, 5, 3) for c in range(27))
MOB = tuple(VALUE[c] == 0 for c in range(27))
NO_INFLUENCE = -1

LEAD, FOLLOW, INFLUENCE = 0, 1, 2


def beats(answer: int, led: int) -> bool:
    """Does the answering card win the trick? (RULINGS: the four cases, in order.)"""
    if COLOUR[answer] == COLOUR[led]:
        return VALUE[answer] > VALUE[led]
    if MOB[answer] and MOB[led]:
        return False
    if MOB[answer]:
        return True
    if MOB[led]:
        return False
    return VALUE[answer] > VALUE[led]


class Triumvirat:
    __slots__ = ("rng", "games_to_win", "stock", "aside", "hands", "influence", "played",
                 "led", "dealer", "leader", "tricks", "consuls", "laid", "won", "step",
                 "asked", "pending_influence", "over", "winner", "actions")

    def __init__(self, seed: int, games_to_win: int = 2):
        self.rng = random.Random(seed)
        self.games_to_win = games_to_win
        self.hands = [[], []]
        self.influence = [[], []]
        self.played = []
        self.aside = []
        self.stock = list(range(27))
        self.led = None
        self.dealer = 0
        self.leader = 1
        self.tricks = [0, 0, 0]
        self.consuls = [0, 0, 0]
        self.laid = [0, 0]
        self.won = [0, 0]
        self.over = False
        self.winner = None
        self.actions = 0
        self.pending_influence = []
        self.new_game()
        self.step = LEAD
        self.asked = self.leader

    # -------------------------------------------------------------- dealing
    def new_game(self) -> None:
        stock = self.stock
        for pile in (self.hands[0], self.hands[1], self.influence[0], self.influence[1],
                     self.played, self.aside):
            stock.extend(pile)
            pile.clear()
        self.rng.shuffle(stock)
        self.aside = [stock.pop() for _ in range(5)]
        self.deal()
        self.consuls = [0, 0, 0]
        self.laid = [0, 0]

    def deal(self) -> None:
        """Deal the whole stock, one card at a time, starting with the non-dealer."""
        seat = 1 - self.dealer
        stock = self.stock
        while stock:
            self.hands[seat].append(stock.pop())
            seat = 1 - seat

    # -------------------------------------------------------------- decisions
    def legal_actions(self) -> list:
        if self.over:
            return []
        hand = self.hands[self.asked]
        if self.step == FOLLOW:
            colour = COLOUR[self.led]
            same = [c for c in hand if COLOUR[c] == colour]
            return same or list(hand)
        if self.step == LEAD:
            return list(hand)
        return hand + [NO_INFLUENCE]

    def apply(self, card: int) -> None:
        self.actions += 1
        p = self.asked
        if self.step == LEAD:
            self.hands[p].remove(card)
            self.led = card
            self.step = FOLLOW
            self.asked = 1 - p
            return
        if self.step == FOLLOW:
            self.hands[p].remove(card)
            led = self.led
            winner_card = card if beats(card, led) else led
            colour = COLOUR[winner_card]
            self.tricks[colour] += 1
            self.leader = p if winner_card == card else 1 - p
            self.played += (led, card)
            if self.tricks[colour] == 3:
                self.end_of_round(colour)
            else:
                self.step = LEAD
                self.asked = self.leader
            return
        if card != NO_INFLUENCE:
            self.hands[p].remove(card)
            self.influence[p].append(card)
            self.laid[p] += 1
        self.next_influence()

    # -------------------------------------------------------------- rounds and games
    def end_of_round(self, colour: int) -> None:
        self.consuls[colour] += 1
        self.pending_influence = [1 - self.dealer, self.dealer]
        self.next_influence()

    def next_influence(self) -> None:
        """Ask the next player who may still lay influence, or finish the round."""
        while self.pending_influence:
            p = self.pending_influence.pop(0)
            if self.laid[p] < 3 and self.hands[p]:
                self.step = INFLUENCE
                self.asked = p
                return
        self.tricks = [0, 0, 0]
        self.dealer = 1 - self.dealer
        self.leader = 1 - self.dealer
        if 3 in self.consuls:
            self.reckoning(self.consuls.index(3))
            if self.over:
                return
        else:
            self.stock.extend(self.played)
            self.stock.extend(self.aside)
            self.played.clear()
            self.rng.shuffle(self.stock)
            self.aside = [self.stock.pop() for _ in range(3)]
            self.deal()
        self.step = LEAD
        self.asked = self.leader

    def reckoning(self, colour: int) -> None:
        support = [sum(VALUE[c] for c in self.influence[p] if LEGION[c] and COLOUR[c] == colour)
                   for p in (0, 1)]
        if support[0] != support[1]:
            self.won[0 if support[0] > support[1] else 1] += 1
        for p in (0, 1):
            if self.won[p] >= self.games_to_win:
                self.over = True
                self.winner = p
                return
        self.new_game()

    def clone(self) -> "Triumvirat":
        g = Triumvirat.__new__(Triumvirat)
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.games_to_win = self.games_to_win
        g.stock, g.aside, g.played = self.stock[:], self.aside[:], self.played[:]
        g.hands = [h[:] for h in self.hands]
        g.influence = [h[:] for h in self.influence]
        g.led, g.dealer, g.leader = self.led, self.dealer, self.leader
        g.tricks, g.consuls = self.tricks[:], self.consuls[:]
        g.laid, g.won = self.laid[:], self.won[:]
        g.step, g.asked = self.step, self.asked
        g.pending_influence = self.pending_influence[:]
        g.over, g.winner, g.actions = self.over, self.winner, self.actions
        return g


def play_random(seed: int) -> int:
    """One full game with uniformly random choices; returns the number of actions."""
    pick = random.Random(seed)
    game = Triumvirat(seed)
    while not game.over:
        actions = game.legal_actions()
        game.apply(actions[pick.randrange(len(actions))])
    return game.actions


if __name__ == "__main__":
    import time
    t = time.process_time()
    n = sum(play_random(s) for s in range(200))
    dt = time.process_time() - t
    print(f"{n / 200:.0f} actions per game, {n / dt:,.0f} actions/s")
