"""Playing Condottiere (both editions) through the public API, for the tests: a table set
from a scenario, moves applied with a check of whose turn it is, and what the seats see."""

import random
from collections import Counter
from itertools import chain

from condottiere_map import check_hidden


def table(game, players=3, hands=None, lines=None, vars=None, seed=1):
    """A game at its first decision (the condottiere names a battle) with the given hands
    (1-based seats -> card labels; unlisted seats hold nothing), battle lines and
    variables; every other card lies in the draw pile."""
    zones = {f"hand[P{p}]": list((hands or {}).get(p, [])) for p in range(1, players + 1)}
    for p, cards in (lines or {}).items():
        zones[f"line[P{p}]"] = list(cards)
    return game.new_game(players, seed, scenario={"zones": zones, "vars": dict(vars or {})})


def pass_forced(s):
    """Answer every decision whose only action is `decline`: after a battle everyone with
    cards is asked about throwing the hand away, so nobody learns whose hand lacks a
    mercenary; those holding one can only decline."""
    while not s.is_over and labels(s) == ["decline"]:
        s.apply("decline")


def play(s, *moves):
    """Apply (seat, label) pairs, checking whose turn it is before each (forced declines
    are answered on the way)."""
    for seat, label in moves:
        pass_forced(s)
        assert s.to_move == seat, f"expected P{seat + 1} to move before {label!r}, " \
                                  f"not P{s.to_move + 1}: {labels(s)}"
        s.apply(label)
    pass_forced(s)


def labels(s):
    return [a.label for a in s.legal_actions()]


def army(s, seat):
    return s.var(f"army[P{seat + 1}]")


def in_battle(s):
    """A battle turn is under way (rather than naming a battle or discarding a hand)."""
    return not s.is_over and "pass" in labels(s)


def owners(assignment):
    """{seat: [regions]} -> scenario variables."""
    return {f"owner[{r}]": f"P{seat + 1}" for seat, regions in assignment.items()
            for r in regions}


def played_out(game, players, seed, zones, deck, max_actions):
    """A seeded random game played to its end: after every action the deck's cards are all
    in `zones`, and every 50 actions the seat to move sees no secret. Returns the final
    state and how many actions it took."""
    s = game.new_game(players, seed)
    rng = random.Random(seed)
    steps = 0
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
        steps += 1
        assert steps < max_actions, f"seed {seed}: no end after {max_actions} actions"
        held = Counter(chain.from_iterable(s.zone(z) for z in zones))
        assert held == deck, (seed, steps)
        if steps % 50 == 0 and not s.is_over:
            check_hidden(s, s.to_move, players)
    return s, steps
