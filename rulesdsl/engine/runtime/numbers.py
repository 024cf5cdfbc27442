"""Numbers while a game runs: their bound, ranges, and the checks arithmetic makes.

The generated code inlines the bound's test (a call per operator would cost measurable
speed) and calls `too_big` on the failing path; closures call `checked`. Both read
MAX_INT from here."""

from __future__ import annotations

from rulesdsl.lang.errors import RuntimeRulesError

MAX_INT = 2 ** 53  # numbers stay within -MAX_INT..MAX_INT (R030): a float holds them exactly

MAX_RANGE = 100_000  # values in one range `x..y` (R016)


def too_big(span, v=None):
    """R030: a number past the bound (`v`: a literal of the rules, named in the message)."""
    said = f"the number {v} is past {MAX_INT}" if v is not None else \
        f"a number grew past {MAX_INT}"
    raise RuntimeRulesError("R030", said, span, ["numbers stay within -2^53..2^53"])


def checked(v, span):
    """`v` where it is within the bound, else R030."""
    if not -MAX_INT <= v <= MAX_INT:
        too_big(span)
    return v


def by_zero(op: str, span):
    raise RuntimeRulesError("R015", f"'{op}' by zero", span)


def range_list(x: int, y: int, k: int, budget, span) -> list:
    """`x..y step k` as a list, its length spent from the work budget: x, x + k, ... up to
    y where k is positive, down to y where it is negative (empty where y lies the other
    way). Counting up costs what it did before ranges could count down."""
    if k <= 0:
        return _counting_down(x, y, k, budget, span)
    if (y - x) // k > MAX_RANGE:
        too_many(x, y, span)
    values = range(x, y + 1, k)
    budget.spend(len(values), span)
    return list(values)


def _counting_down(x: int, y: int, k: int, budget, span) -> list:
    if k == 0:
        raise RuntimeRulesError("R016", "a range's step is 0: it would never reach its end",
                                span, ["count up with a positive step, down with a negative "
                                       "one"])
    if (y - x) // k > MAX_RANGE:
        too_many(x, y, span)
    values = range(x, y - 1, k)
    budget.spend(len(values), span)
    return list(values)


def too_many(x: int, y: int, span):
    raise RuntimeRulesError("R016", f"the range {x}..{y} has more than {MAX_RANGE} values",
                            span, ["use a larger step"])


def known_range(values: tuple, budget, span) -> list:
    """A range whose bounds are known when the game loads (`1..24`): its values made then,
    as range_list makes them, its length spent at each use."""
    budget.work -= len(values)
    if budget.work < 0:
        budget.spend(0, span)
    return list(values)
