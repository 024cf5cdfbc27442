"""The errors the rules run into while a game is played: each message written once, raised
alike by the closures and by the generated code (which calls these on its failing paths
only, so they cost nothing on the usual one)."""

from __future__ import annotations

from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.engine.runtime.numbers import by_zero, too_big  # noqa: F401  (errors too)


def none_field(name: str, span, what: str = "card"):
    """R013: `.field` of none (`what`: the thing that was not found)."""
    raise RuntimeRulesError("R013", f"asked for .{name} of none", span,
                            [f"check that a {what} was found before using it"])


def none_enum_field(name: str, span):
    """R013: `.field` of an enum value that is none."""
    raise RuntimeRulesError("R013", f"asked for .{name} of none", span)


def none_operand(op: str, span):
    raise RuntimeRulesError("R013", f"'{op}' was given none", span)


def none_call(name: str, span):
    raise RuntimeRulesError("R013", f"{name}(none)", span)


def grid_none(name: str, c, d, span):
    """R013: a grid built-in given none for its cell `c` or its direction `d`."""
    none_for(name, "a cell" if c is None else "a direction", span)


def none_for(name: str, what: str, span):
    raise RuntimeRulesError("R013", f"{name}(...) was given none for {what}", span,
                            ["check for none first: a neighbour off the board is none"])


def bad_indexes(name: str, span):
    raise RuntimeRulesError("R010", f"{name}[...] was given an index of none", span)


def bad_index(name: str, k, span):
    raise RuntimeRulesError("R010", f"{name}[...] was given {'none' if k is None else k}", span)


def bad_item(k, seq, span):
    raise RuntimeRulesError("R014", f"index {k} is outside a list of {len(seq)}", span)


def no_seat(k, n: int, span):
    raise RuntimeRulesError("R017", f"seat({k}) does not exist with {n} players", span)


def turns_from_none(span):
    raise RuntimeRulesError("R011", "turns start from none", span)


def no_play(span):
    raise RuntimeRulesError("R012", "play needs a card and a player, got none", span)


def runaway(limit: int, span, trace=None):
    """R003: the step limit, counted by the machine and by generated loops alike."""
    raise RuntimeRulesError(
        "R003", f"the rules ran {limit:,} steps without asking anyone to decide", span,
        ["a loop may never end: check its condition",
         "a game that truly needs more can raise the limit: "
         "rulesdsl.load(game, step_limit=N)"], trace or ())


def untrue_fact(zone: str, lacks: bool, span) -> None:
    """`reveal Z holds/lacks ...` told what is not so: the table would be lied to."""
    raise RuntimeRulesError("R032", f"the rules tell the table that {zone} "
                            f"{'holds no' if lacks else 'holds a'} card of that kind, "
                            "and it does not", span,
                            ["tell a fact only where it is true: test it first with "
                             "any(x in ZONE where ...)"])


def missing_value_reason(e: Exception) -> str:
    """What a Python error inside a rule (R001's catch-all) says, in the rules' words: no
    Python type names ('NoneType', 'int') in front of an author."""
    text = str(e)
    if "NoneType" in text or "None" in text:
        return "none where a number, card or player was needed"
    if isinstance(e, IndexError):
        return "a position past the end of a list"
    if isinstance(e, ZeroDivisionError):
        return "a division by zero"
    if isinstance(e, ValueError) and "empty" in text:
        return "an empty list where a value was needed"
    return "a value of the wrong kind"
