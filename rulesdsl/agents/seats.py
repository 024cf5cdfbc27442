"""Seat specs: which agent sits at each seat, with what settings, and the seed each gets.

A spec is an agent name, optionally followed by `:level` or `:key=value` settings, more
of them separated by `:` or `,`:  "random", "ismcts:hard", "ismcts:iterations=500",
"ismcts:hard,seconds=2". In a list of seats a comma followed by `key=value` continues the
seat before it: "ismcts:iterations=500,seconds=1,random" is two seats.
"""

from __future__ import annotations

import random
from typing import Optional, Sequence, Union

from rulesdsl.agents import AGENTS, agent_names, make_agent
from rulesdsl.lang.errors import RulesError


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in the game dealt with `game_seed` (stable across runs)."""
    return random.Random(f"rulesdsl-agent:{game_seed}:{seat}").getrandbits(63)


def parse_spec(spec: str) -> tuple[str, dict]:
    """"ismcts:hard,iterations=500" -> ("ismcts", {"level": "hard", "iterations": 500})."""
    name, _, rest = spec.strip().partition(":")
    params: dict = {}
    for part in rest.replace(",", ":").split(":"):
        part = part.strip()
        if not part:
            continue
        if "=" in part:
            key, _, value = part.partition("=")
            params[key.strip()] = _value(value.strip())
        else:
            params["level"] = part
    return name.strip(), params


def _value(text: str):
    if text.lower() in ("none", "off"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def split_seats(spec: str) -> list[str]:
    """"ismcts:iterations=5,seconds=1,random" -> ["ismcts:iterations=5,seconds=1", "random"]."""
    seats: list[str] = []
    for piece in spec.split(","):
        piece = piece.strip()
        if seats and "=" in piece and ":" not in piece and ":" in seats[-1]:
            seats[-1] += "," + piece
        else:
            seats.append(piece)
    return seats


def parse_seats(spec: Union[None, str, Sequence[str]], players: int,
                allowed: Optional[Sequence[str]] = None, default: str = "random") -> list[str]:
    """Seat specs from "random,ismcts:hard" or a list: one per seat, or one for every seat.

    `allowed` names the kinds accepted (the known agents unless told); anything else, or
    a setting the agent does not take, is a RulesError C002 that says what is known.
    """
    allowed = list(allowed) if allowed is not None else agent_names()
    if spec is None:
        return [default] * players
    names = split_seats(spec) if isinstance(spec, str) else [str(s).strip() for s in spec]
    if len(names) == 1 and players > 1:
        names = names * players
    for full in names:
        name = parse_spec(full)[0] if ":" in full else full
        if name not in allowed:
            from rulesdsl.lang.errors import did_you_mean
            shown = repr(name) if name else "an empty name"
            raise RulesError("C002", f"unknown seat kind {shown} in --seats; known: "
                             f"{', '.join(allowed)}", hints=did_you_mean(name, allowed))
        if ":" in full:
            if name not in AGENTS:
                raise RulesError("C002", f"seat kind '{name}' takes no settings ('{full}')")
            make_agent(full, 0)  # a wrong setting is reported here, before any game starts
    if len(names) != players:
        raise RulesError("C013", f"--seats names {len(names)} seats but the game has {players} "
                         f"players", hints=["give one kind per seat, separated by commas, "
                                            "or a single kind for every seat"])
    return names
