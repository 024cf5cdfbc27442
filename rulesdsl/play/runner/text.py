"""The runner's words: views and logs as lines of text, seat names, and the signals a session ends with."""

from __future__ import annotations

import json
from typing import Sequence

from rulesdsl.lang.errors import RulesError


HUMAN = "human"


DEFAULT_OPPONENT = "ismcts"  # at its default level, medium


class Quit(Exception):
    """The person asked to stop."""


def _fmt_value(value) -> str:
    if isinstance(value, (list, tuple)):
        if not value:
            return "(empty)"
        if all(not isinstance(v, (list, tuple, dict)) for v in value):
            return ", ".join(str(v) for v in value)
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        if set(value) == {"count"}:           # a zone this seat may not look into
            n = value["count"]
            return f"{n} card{'s' if n != 1 else ''}, hidden" if n else "(empty)"
        if not value:
            return "(none)"
        return ", ".join(f"{k}: {_fmt_value(v)}" for k, v in value.items())
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _wrapped(prefix: str, items: list[str], width: int = 88) -> list[str]:
    """prefix + items joined by ", ", wrapped under the prefix."""
    lines, line = [], prefix
    for k, item in enumerate(items):
        piece = item + ("," if k < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > width and line.strip() != prefix.strip():
            lines.append(line)
            line = " " * len(prefix) + piece
        else:
            line = f"{line} {piece}" if line != prefix else prefix + piece
    lines.append(line)
    return lines


# keys of a view that the runner shows elsewhere (the log, whose turn) or not at all
_VIEW_SKIP = {"game", "seat", "you", "players", "over", "winners", "to_move", "log",
              "actions"}


def view_lines(view, indent: str = "  ") -> list[str]:
    """A seat's view (JSON-ready dict) as short readable lines: zones, variables, scores,
    and anything else the view holds, shown generically."""
    if not isinstance(view, dict):
        return [indent + _fmt_value(view)]
    lines: list[str] = []
    zones = view.get("zones")
    if isinstance(zones, dict):
        width = max((len(z) for z in zones), default=0)
        for name, cards in zones.items():
            lines.append(f"{indent}{name + ':':<{width + 1}} {_fmt_value(cards)}")
    variables = view.get("vars")
    if isinstance(variables, dict) and variables:
        lines += _wrapped(indent + "vars: ", [f"{k}={_fmt_value(v)}"
                                            for k, v in variables.items()])
    scores = view.get("scores")
    if isinstance(scores, dict) and scores:
        lines.append(indent + "scores: " + _fmt_value(scores))
    for key, value in view.items():
        if key in _VIEW_SKIP or key in ("zones", "vars", "scores"):
            continue
        lines.append(f"{indent}{key}: {_fmt_value(value)}")
    return lines


def log_lines(state, seat=None) -> list[str]:
    """The log in the game's words, as `seat` may read it (everything when seat is None)."""
    return [str(line) for line in state.story(seat)]


class Told:
    """Each seat's log lines, put in words once: at every action only the new events are
    told, not the whole log again (a long game of computer players would slow to a crawl,
    each action costing as much as all those before it)."""

    def __init__(self):
        self._by_seat: dict = {}   # seat -> (the state told, events told, lines)

    def lines(self, state, seat=None) -> list[str]:
        """What log_lines(state, seat) says, read from the lines told before."""
        from rulesdsl.engine.words import story_lines
        told, done, lines = self._by_seat.get(seat, (None, 0, []))
        if told is not state or done > len(state.events):   # another state (undo): anew
            done, lines = 0, []
        lines += [str(line) for line in story_lines(state, seat, done)]
        self._by_seat[seat] = (state, len(state.events), lines)
        return lines


def seat_names(state) -> list[str]:
    """How the game calls each seat (its view's "you"), e.g. P1, P2."""
    names = []
    for seat in range(state.players):
        try:
            name = state.view(seat).get("you")
        except (RulesError, AttributeError):
            name = None
        names.append(str(name) if name else f"seat {seat}")
    return names


def rename_seats(text: str, names: Sequence[str]) -> str:
    """P1, P2, ... in a line replaced by the seats' names (whole words only)."""
    import re
    return re.sub(r"\bP([1-9][0-9]?)\b",
                  lambda m: names[int(m.group(1)) - 1] if int(m.group(1)) <= len(names)
                  else m.group(0), text)


# a game with only computer players stops after this many actions, as simulate does
MAX_AGENT_ACTIONS = 100_000


HELP = ["choose: type an option's number, or its label (any unique start of it, any case)",
        "          part of a label lists the options holding it, with their numbers",
        "  help      this help and the options again",
        "  rules     the rules: how to win, what each card does, the flow",
        "  ? NAME    explain one card or word (also: help NAME)",
        "  log       everything you have seen so far",
        "  view      everything you see of the table, nothing cut to fit the screen",
        "  history   the actions so far, as you saw them",
        "  hint      what the computer would play here, and its chances",
        "  undo      take back your last move (against computer players only)",
        "  save F    save the game in the file F too (it is saved after every move anyway);",
        "            save --force F  replaces another game still in progress there",
        "  quit      stop; continue later with rulesdsl play --resume FILE"]


class InputEnded(Exception):
    """Standard input ended (Ctrl-D, or a pipe ran dry) before the game did."""


def at_decision(state) -> bool:
    """A state the engine stopped at: over, or a pending decision with the rules at an ask."""
    if getattr(state, "over", False):
        return True
    frames = getattr(state, "frames", None)
    if getattr(state, "pending", None) is None or not frames:
        return False
    fr = frames[-1]
    return hasattr(state.prog.procs[fr[0]].code[fr[1]], "options")
