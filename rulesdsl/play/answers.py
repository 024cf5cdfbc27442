"""What a person types: option values, seat names, and matching an answer to the options."""

from typing import Optional, Sequence

from rulesdsl.lang.limits import bounded_int
from rulesdsl.lang.errors import RulesError, did_you_mean
from rulesdsl.play.screen import clean, number_text


def parse_option_value(text: str):
    """"true"/"false" -> bool, an integer -> int, anything else stays a string."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text.strip())
    except ValueError:
        return text


def parse_options(items: Optional[Sequence[str]]) -> dict:
    """["K=V", ...] from --option into a dict; a malformed item is a RulesError (C003)."""
    options: dict = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RulesError("C013", f"--option expects NAME=VALUE, not {item!r}",
                             hints=["for example: --option games_to_win=3"])
        options[key] = parse_option_value(value)
    return options


def match_action(text: str, actions: Sequence, allow_number: bool = True):
    """The action that `text` names, or None. Returns (action, problem message)."""
    text = text.strip()
    if not text:
        return None, "type a number or a label"
    labels = [a.label for a in actions]
    # an exact label first, so labels that are numbers ("3") mean themselves
    for a in actions:
        if a.label == text:
            return a, None
    if allow_number:
        digits = text[1:] if text.startswith("#") else text
        if digits.isdecimal():
            k = bounded_int(digits)
            if 1 <= k <= len(actions):
                return actions[k - 1], None
            choose = "1" if len(actions) == 1 else f"1 to {len(actions)}"
            return None, f"there is no option {k}; choose {choose}"
    low = text.casefold()
    same = [a for a in actions if a.label.casefold() == low]
    if len(same) == 1:
        return same[0], None
    starts = [a for a in actions if a.label.casefold().startswith(low)]
    if len(starts) == 1:
        return starts[0], None
    if len(starts) > 1:
        shown = ", ".join(repr(a.label) for a in starts[:5])
        return None, f"{text!r} could be {shown}{', ...' if len(starts) > 5 else ''}"
    hint = did_you_mean(text, labels)
    return None, f"{text!r} is not one of the options" + (f"; {hint[0]}" if hint else "")


def parse_names(text: Optional[str], players: int) -> Optional[list]:
    """--names Ann,Bob: one short name per seat (C013 when they do not fit)."""
    if not text:
        return None
    names = [clean(n.strip(), 20) for n in text.split(",")]
    if len(names) != players or any(not n for n in names) or len(set(names)) != len(names):
        raise RulesError("C013", f"--names needs {players} different names, one per seat, "
                         f"not {text!r}", hints=["for example: --names Ann,Bob"])
    return names


def numeric_labels(actions: Sequence) -> bool:
    """A decision whose labels are all numbers (an amount): typing a number names the
    label itself, and `#N` picks option N."""
    return bool(actions) and all(_is_int(a.label) for a in actions)


def _is_int(text: str) -> bool:
    t = text.strip()
    return t.lstrip("-").isdecimal()


def _ranges(values: list, most: int = 40) -> str:
    """[0, 1, 2, 3, 5, 10, 15] -> '0..3, 5..15 by 5'; past `most` pieces, the count of
    the rest (a million scattered amounts make one line, not megabytes)."""
    out, k = [], 0
    while k < len(values):
        if len(out) == most:
            return ", ".join(out) + f", ... ({len(values) - k:,} more amounts up to " \
                f"{number_text(values[-1])})"
        j = k
        step = values[k + 1] - values[k] if k + 1 < len(values) else 0
        while step > 0 and j + 1 < len(values) and values[j + 1] - values[j] == step:
            j += 1
        if j - k >= 2:
            out.append(f"{number_text(values[k])}..{number_text(values[j])}" +
                       (f" by {number_text(step)}" if step != 1 else ""))
            k = j + 1
        else:
            out.append(number_text(values[k]))
            k += 1
    return ", ".join(out)


def amount_typed(text: str) -> str:
    """An amount as typed, read as the screen writes it: "10,000" (or "10_000") is
    10000; anything else as it is."""
    bare = text.strip().replace(",", "").replace("_", "")
    return bare if _is_int(bare) else text
