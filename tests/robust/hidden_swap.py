"""The secrecy property (rulesdsl.analysis.secrets), as the robust tests use it."""

from __future__ import annotations

from rulesdsl.analysis.secrets import find_leaks


def check_game(game, players: int, seed: int, steps: int = 150, swaps: int = 4,
               follow: int = 6) -> list:
    """The leaks of one random game as (step, the cards swapped, what differed)."""
    return [(leak.step, leak.cards, leak.what)
            for leak in find_leaks(game, players, seed, steps, swaps, follow)]
