"""What a finished game pays each seat (`State.payoffs`), for the adapters' returns and
rewards.

A file that declares `payoff(p: player) = ...` is paid what it says. Otherwise the game
pays by who won, so that the payoffs always sum to 0 in a game played against each other:
- a sole winner gets +1 and each loser -1/(n-1);
- w winners sharing a win get (n/w - 1)/(n-1) each (what is left of the losers' stakes);
- nobody winning, or everybody, is a draw: 0 each.
A cooperative game (`players N cooperative`) pays every seat the same: +1 each when the
team won, -1 each when it lost; a one-player game is paid the same way (a team of one).
"""

from __future__ import annotations


def win_payoffs(winners: list, players: int, cooperative: bool = False) -> list:
    """The payoffs of a game that declares none, from its winners."""
    won = set(winners)
    if cooperative or players < 2:
        return [1.0 if won else -1.0] * players
    if not won:
        return [0.0] * players
    win = (players / len(won) - 1.0) / (players - 1)  # 1.0 exactly for a sole winner
    return [win if p in won else -1.0 / (players - 1) for p in range(players)]
