"""Every bound on what a rules file, a save or a command may ask for: one table, one place.

docs/language.md ("Limits") has one row per entry of LIMITS, and tests/robust/test_limits.py
holds the two together. A limit is raised for one process with the environment variable
RULESDSL_LIMITS=name=value,name=value (for example RULESDSL_LIMITS=work=20000000).

Runtime budgets are spent through a Budget (rulesdsl/engine/budget.py); the rest is
checked where the thing is read or built.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

import attrs

from rulesdsl.lang.errors import RulesError, Span
from rulesdsl.lang.safefile import open_regular, shown_path


@attrs.frozen
class Limit:
    default: int
    code: str
    what: str


LIMITS = {
    "file_bytes": Limit(10_000_000, "E107", "bytes in any file read (rules, save, replay, "
                        "script, scenario)"),
    "source_chars": Limit(2_000_000, "E104", "characters in one rules file"),
    "nesting": Limit(200, "E106", "levels of the syntax tree: a chained '+' or 'and' or a "
                     "unary '-' or 'not' adds one, a nested block, 'if' or list two"),
    "steps": Limit(1_000_000, "R003", "steps without a decision"),
    "work": Limit(5_000_000, "R005", "work per decision: definition calls, values visited by "
                  "aggregates, comprehensions and ranges, list items joined"),
    "moves": Limit(1_000_000, "R006", "card moves per decision (a card taken from a pile of "
                   "N counts 1 + N/1000; shuffles and deals count each card)"),
    "list_length": Limit(1_000_000, "R007", "items in one list"),
    "text_length": Limit(100_000, "R008", "characters in one text the rules build"),
    "cards": Limit(1_000_000, "R020", "cards in all decks together"),
    "instances": Limit(100_000, "E608", "zone and variable instances (per player, per enum)"),
    "card_labels": Limit(10_000_000, "E609", "characters in all the cards' labels together"),
    "long_texts": Limit(10_000_000, "R031", "characters of long texts (past LONG_TEXT) the "
                        "rules build per decision: option labels, log lines, questions"),
    "generated_code": Limit(2_000_000, "", "characters of Python generated for one game; "
                            "past it the closures run the game (no error)"),
}

# Texts up to this length are built without counting (the fast path of every label and log
# line); longer ones spend their length from the long_texts budget of the decision.
LONG_TEXT = 1_000

ENV = "RULESDSL_LIMITS"


def limit(name: str) -> int:
    """The value of a limit now: RULESDSL_LIMITS's if it names it, else the default."""
    return _overrides().get(name, LIMITS[name].default)


def _overrides() -> dict:
    text = os.environ.get(ENV, "")
    out = {}
    for item in text.split(","):
        if not item.strip():
            continue
        name, _, value = item.partition("=")
        name = name.strip()
        if name not in LIMITS:
            raise RulesError("C014", f"{ENV} names no limit '{name[:40]}'", None,
                             [f"limits: {', '.join(LIMITS)}"])
        value = value.strip().replace("_", "")
        if not (value.isascii() and value.isdecimal()) or len(value) > 15 or int(value) < 1:
            raise RulesError("C014", f"{ENV}: {name} needs a positive whole number, not "
                             f"'{value[:20]}'")
        out[name] = int(value)
    return out


def whole_number(text: str, digits: int = 30):
    """A whole number written in ASCII digits (with '_' allowed), or None.

    Up to `digits` digits only: longer ones are past every limit anyway, and Python's int()
    refuses more than 4,300 digits with a ValueError.
    """
    t = text.strip().replace("_", "")
    sign = -1 if t.startswith("-") else 1
    t = t.lstrip("+-") if t[:1] in "+-" else t
    if not t or not t.isascii() or not t.isdecimal():
        return None
    t = t.lstrip("0") or "0"
    if len(t) > digits:
        return sign * 10 ** digits  # a stand-in past every limit, not the number itself
    return sign * int(t)


def read_bytes(path, code: str = "E107", what: str = "file") -> bytes:
    """A file's bytes, refusing more than file_bytes before reading them all.

    Reads at most the limit plus one byte, so a 3 GB file ends fast; only a regular file,
    opened without waiting (safefile.open_regular), so a FIFO or /dev/stdin cannot hang.
    OSError is left to the caller, who knows how to phrase it.
    """
    most = limit("file_bytes")
    with open_regular(path) as f:
        data = f.read(most + 1)
    if len(data) > most:
        raise RulesError(code, f"the {what} {shown_path(path)} is larger than {most:,} bytes",
                         None, [f"raise the limit with {ENV}=file_bytes=N if it is meant "
                                "to be this large"])
    return data


def read_text(path, code: str = "E107", what: str = "file") -> str:
    """A UTF-8 file's text (a leading byte-order mark dropped), size-limited as read_bytes."""
    data = read_bytes(path, code, what)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(code, f"the {what} {shown_path(path)} is not UTF-8 text", None,
                         ["save it as UTF-8"]) from None


def nesting_error(path: str, line: int, column: int) -> RulesError:
    most = limit("nesting")
    return RulesError("E106", f"expressions, blocks or lists nest more than {most} levels "
                      "deep here",
                      Span(path, line, column, line, column + 1),
                      ["split the expression with 'let' or a 'define'",
                       f"raise the limit with {ENV}=nesting=N"])


def is_rules_file(path: Path) -> bool:
    """What `extends` may name: a regular file whose name ends in .rules."""
    return path.suffix == ".rules" and path.is_file()


def instance_errors(model) -> list:
    """E608 for each zone or variable declaration whose instances, added up over the file,
    pass the limit: a zone `per Big per Big per Big` is refused before anything is built."""
    most = limit("instances")
    total = 0
    errors = []
    for info in list(model.zones.values()) + list(model.vars.values()):
        count = 1
        for d in info.dims:
            count *= max(1, model.max_players) if d == "player" else \
                len(model.enums[d].values) if d in model.enums else 1
        total += count
        if total > most:
            what = "zone" if info in model.zones.values() else "variable"
            errors.append(RulesError(
                "E608", f"{what} {info.name} makes {count:,} instances, {total:,} with the "
                f"ones declared before it; the limit is {most:,}", info.decl.span,
                ["index by fewer or smaller enums",
                 f"raise the limit with {ENV}=instances=N"]))
            break
    return errors


def card_label_errors(model) -> list:
    """E609 where the decks' cards, counted from the file, have labels longer in all than
    card_labels allows: each card counts its label's written characters (a hole at least
    one), so a 1 KB label on 100,000 cards is refused by `check` before any card is made.
    Holes that turn out long are counted when the decks are built (engine layout)."""
    most = limit("card_labels")
    total = cards = 0
    for deck in model.decks:
        copies = max(1, model.max_players) if deck.per_player else 1
        for entry in deck.entries:
            kind = model.kinds.get(entry.kind)
            if kind is None:
                continue
            made = copies * entry.count * values_made(model, entry.args)[0]
            cards += made
            if cards > limit("cards"):
                return []  # too many cards: R020 says so, with the count, when they are made
            total += made * _least_label_length(model, kind)
            if total > most:
                return [RulesError(
                    "E609", f"the cards' labels come to at least {total:,} characters with "
                    f"this entry; the limit is {most:,}", entry.span or deck.span,
                    ["shorten the kind's label or make fewer cards",
                     f"raise the limit with {ENV}=card_labels=N"])]
    return []


def option_label_errors(file) -> list:
    """E609 for each decision over a range of written numbers whose options are labelled by
    long texts (past LONG_TEXT characters written) adding up past long_texts: the sum
    `"{a 2,000-character text}{k}" for k in 1..100000` asks for is known from the file."""
    from rulesdsl.lang import ast
    most = limit("long_texts")
    errors = []
    for choice in nodes_of(file, ast.BinderChoice):
        if choice.label is None or type(choice.source) is not ast.Range:
            continue
        options = _range_size(choice.source)
        least = sum(len(p) if isinstance(p, str) else 1 for p in choice.label.parts)
        if options is None or least <= LONG_TEXT or options * least <= most:
            continue
        errors.append(RulesError(
            "E609", f"these {options:,} options are labelled by at least {options * least:,} "
            f"characters of long text; the limit is {most:,}", choice.span,
            ["label the options shortly and show the long part once, in the question",
             f"raise the limit with {ENV}=long_texts=N"]))
    return errors


def nodes_of(node, cls):
    """Every node of class `cls` in a tree of attrs nodes, tuples and lists (iteratively:
    a tree may be nested as deep as the nesting limit)."""
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, (tuple, list)):
            stack.extend(x)
        elif attrs.has(type(x)):
            if isinstance(x, cls):
                yield x
            stack.extend(getattr(x, f.name) for f in attrs.fields(type(x)) if f.name != "span")


def _range_size(r) -> "int | None":
    """The numbers in a range whose bounds (and step) are written numbers, else None."""
    start, stop = written_int(r.start), written_int(r.stop)
    step = 1 if r.step is None else written_int(r.step)
    if start is None or stop is None or not step:
        return None
    return max(0, (stop - start) // step + 1)


def written_int(e) -> "int | None":
    """The number `e` writes (`3`, `-1`), else None."""
    from rulesdsl.lang import ast
    if type(e) is ast.Unary and e.op == "-":
        inner = written_int(e.operand)
        return None if inner is None else -inner
    return e.value if type(e) is ast.Int else None


def values_made(model, args, binder: Optional[str] = None) -> tuple[int, bool]:
    """(cards a deck entry makes per count, whether the file says every argument's size):
    one card per value of each enum, list or written range given; a number, text, enum
    value or the deck's player (`binder`) is one value; anything else counts 1, unknown."""
    from rulesdsl.lang import ast
    made, known = 1, True
    singles = {v for e in model.enums.values() for v in e.values}
    for a in args:
        if type(a) is ast.Name and a.name in model.enums:
            made *= len(model.enums[a.name].values)
        elif type(a) is ast.ListLit:
            made *= len(a.items)
        elif type(a) is ast.Range and (size := _range_size(a)) is not None:
            made *= size
        elif not (type(a) in (ast.Int, ast.Bool, ast.NoneLit, ast.Text) or
                  type(a) is ast.Name and (a.name in singles or a.name == binder)):
            known = False
    return made, known


def _least_label_length(model, kind) -> int:
    """The fewest characters a card of `kind` can read: its label's written text, a hole
    counting one (without a label: the kind's name)."""
    for name in kind.ancestors:
        text = model.kinds[name].decl.label
        if text is not None:
            return sum(len(p) if isinstance(p, str) else 1 for p in text.parts)
    return len(kind.name)


def bounded_int(text: str) -> int:
    """int() of decimal text (already checked with isdecimal), without the ValueError that
    Python raises past 4,300 digits: past 30 digits, a stand-in past every limit."""
    t = text.strip()
    digits = t.lstrip("+-")
    if len(digits) > 30:
        return -10 ** 30 if t.startswith("-") else 10 ** 30
    return int(t)


def brief(value, width: int = 40) -> str:
    """A value from outside, shown in a message: cut short, and never the ValueError that
    str() of an int past 4,300 digits raises."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10 ** 30:
        return "a number of more than 30 digits"
    try:
        text = value if isinstance(value, str) else repr(value)
    except (ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= width else text[:width] + "..."


# C0 and C1 controls (newline, ESC, NUL, U+0085 ...) and the Unicode line and paragraph
# separators: characters that end a line or steer a terminal, never part of a game's name
_NAME_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def refuse_control_in_name(name: str, code: str, what: str,
                           span: Optional[Span] = None) -> None:
    """`code` where a file name holds a control character: such a name has no business
    naming a game, and would break every message and listing that shows it."""
    m = _NAME_CONTROL.search(str(name))
    if m is None:
        return
    raise RulesError(code, f"the {what} {brief(repr(str(name)), 60)} holds a control "
                     f"character (U+{ord(m.group()):04X})", span,
                     ["rename the file: a rules file's name is printable text "
                      "(letters, digits, spaces, '-', '_', '.')"])
