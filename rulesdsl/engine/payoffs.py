"""What a finished game pays each seat (`State.payoffs`), for the adapters' returns and
rewards.

A file that declares `payoff(p: player) = ...` is paid what it says. Otherwise the game
pays by who won, so that the payoffs always sum to 0 in a game played against each other:
- a sole winner gets +1 and each loser -1/(n-1);
- w winners sharing a win get (n/w - 1)/(n-1) each (what is left of the losers' stakes);
- nobody winning, or everybody, is a draw: 0 each.
A cooperative game (`players N cooperative`) pays every seat the same: +1 each when the
team won, -1 each when it lost; a one-player game is paid the same way (a team of one).
A payoff declared `zero-sum` is checked at every end (C022).
"""

from __future__ import annotations

from rulesdsl.lang.errors import RulesError


def win_payoffs(winners: list, players: int, cooperative: bool = False) -> list:
    """The payoffs of a game that declares none, from its winners."""
    won = set(winners)
    if cooperative or players < 2:
        return [1.0 if won else -1.0] * players
    if not won:
        return [0.0] * players
    win = (players / len(won) - 1.0) / (players - 1)  # 1.0 exactly for a sole winner
    return [win if p in won else -1.0 / (players - 1) for p in range(players)]


def checked_zero_sum(paid: list, state, declared: str) -> list:
    """`paid`, where it sums to 0 as `declared` says it does; else C022 with the history
    of `state` that made it."""
    if abs(sum(paid)) > 1e-9 * max(1.0, *map(abs, paid)):
        raise RulesError("C022", f"the payoff is declared zero-sum ({declared}) but pays "
                         f"{paid}, which sums to {sum(paid):g}, after "
                         f"{' | '.join(state.history)[-200:]}", None,
                         ["make the payoff zero-sum, or leave the declaration out: the game "
                          "is then general-sum"])
    return paid
