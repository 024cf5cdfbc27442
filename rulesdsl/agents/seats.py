"""Seat specs: which agent sits at each seat, and the seed each one gets."""

from __future__ import annotations

import random
from typing import Optional, Sequence, Union

from rulesdsl.agents import agent_names
from rulesdsl.lang.errors import RulesError


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in the game dealt with `game_seed` (stable across runs)."""
    return random.Random(f"rulesdsl-agent:{game_seed}:{seat}").getrandbits(63)


def parse_seats(spec: Union[None, str, Sequence[str]], players: int,
                allowed: Optional[Sequence[str]] = None, default: str = "random") -> list[str]:
    """Seat kinds from "random,random" or a list: one per seat, or one name for every seat.

    `allowed` names the kinds accepted (the known agents unless told); anything else is a
    RulesError C002 that lists them.
    """
    allowed = list(allowed) if allowed is not None else agent_names()
    if spec is None:
        return [default] * players
    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else \
        [str(s).strip() for s in spec]
    if len(names) == 1 and players > 1:
        names = names * players
    for name in names:
        if name not in allowed:
            from rulesdsl.lang.errors import did_you_mean
            shown = repr(name) if name else "an empty name"
            raise RulesError("C002", f"unknown seat kind {shown} in --seats; known: "
                             f"{', '.join(allowed)}", hints=did_you_mean(name, allowed))
    if len(names) != players:
        raise RulesError("C013", f"--seats names {len(names)} seats but the game has {players} "
                         f"players", hints=["give one kind per seat, separated by commas, "
                                            "or a single kind for every seat"])
    return names
