"""`hint` at a prompt: what the computer would choose for the person's seat, with its
estimated chances for the best few options.

The hint is the computer opponent's own search (ISMCTS), run for the person's seat. That
search samples complete states from what the mover's seat knows, so a hint tells nothing
the seat could not know. Its seed comes from the game's seed, the seat and the log as that
seat read it: the same position gives the same hint, and two positions the seat cannot
tell apart give the same hint too."""

from __future__ import annotations

import random
from typing import Callable, Optional, Sequence

from rulesdsl.agents.seats import parse_spec
from rulesdsl.play.runner.text import DEFAULT_OPPONENT, HUMAN

SHOWN = 3  # options a hint names: the computer's choice and the next best


def hint_spec(seats: Sequence[str]) -> str:
    """The agent that gives hints: the first searching computer seat's own spec (its
    level), else the default opponent at its default level."""
    default = parse_spec(DEFAULT_OPPONENT)[0]
    for kind in seats:
        if kind != HUMAN and parse_spec(kind)[0] == default:
            return kind
    return DEFAULT_OPPONENT


def hint_seed(game_seed: int, state, seat: int) -> int:
    """A seed from what `seat` knows: the game's seed, the number of actions and the log as
    the seat read it (never the hidden cards, nor others' secret choices)."""
    seen = "\n".join(str(line) for line in state.story(seat))
    key = f"rulesdsl-hint:{game_seed}:{seat}:{len(state.history)}:{seen}"
    return random.Random(key).getrandbits(63)


def advise(state, agent) -> tuple:
    """(the label `agent` chooses, [(label, visits, mean reward or None)] best first),
    worked out on a copy: the state is never changed."""
    action = agent.choose(state.clone())
    return action.label, list(getattr(agent, "analysis", None) or [(action.label, 0, None)])


def hint_text(choice: str, analysis: list, who: str,
              named: Callable[[str], str] = str) -> str:
    """'The computer (ismcts, medium) would play "bid 7" (about 62% to win); next: "bid 3"
    48%, "bid 9" 41%.'  Options the search never tried are left out of "next"."""
    values = {label: value for label, _, value in analysis}
    text = f'The computer ({who}) would play "{named(choice)}"{_chance(values.get(choice))}'
    rest = [(label, value) for label, _, value in analysis
            if label != choice and value is not None][:SHOWN - 1]
    if rest:
        text += "; next: " + ", ".join(f'"{named(label)}" {_percent(value)}'
                                       for label, value in rest)
    return text + "."


def _chance(value: Optional[float]) -> str:
    return "" if value is None else f" (about {_percent(value)} to win)"


def _percent(value: float) -> str:
    return f"{round(100 * value)}%"
