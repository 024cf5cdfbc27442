"""`look`: how the table looks in a browser, checked. Nothing here changes play.

    look {
      table "#1e4d36"                      the cloth under everything
      seats "black", "white"               each seat's colour, in seat order
      colour fire "crimson"                an enum value's colour (the ink of its cards)
      face spell "#fffaf0"                 the paper of a kind's cards
      board Square "#2e7d4f"               a board's ground
      sides Square "left right", "top bottom"  the edges each seat joins, in seat order
    }

Every value is data that ends up in a browser, so it is checked against a closed form
here (a colour is `#` and hex digits or a CSS colour name; a side is one of four words)
and never reaches generated code. Hints are the same for every seat and every moment of
a game: they cannot say anything a seat may not see.
"""

from __future__ import annotations

import re

from rulesdsl.lang import ast

E_UNKNOWN = "E220"     # a hint, or the name it is about, that is not known
E_VALUE = "E221"       # a hint's value of the wrong form or count

# word -> (what it is about, what its values are, how many: 1 or "seats")
HINTS = {
    "table": (None, "colour", 1),
    "seats": (None, "colour", "seats"),
    "colour": ("value", "colour", 1),
    "face": ("kind", "colour", 1),
    "board": ("board", "colour", 1),
    "sides": ("grid", "sides", "seats"),
}
ABOUT = {"value": "an enum value or a kind", "kind": "a kind of card",
         "board": "a board", "grid": "a board of cells (grid or hex)"}
EXAMPLES = {"table": 'table "#1e4d36"', "seats": 'seats "black", "white"',
            "colour": 'colour fire "crimson"', "face": 'face spell "#fffaf0"',
            "board": 'board Square "#2e7d4f"',
            "sides": 'sides Square "left right", "top bottom"'}
SIDES = ("top", "bottom", "left", "right")
HEX_COLOUR = re.compile(r"#(?:[0-9a-f]{3}|[0-9a-f]{6})")
# the CSS colour keywords (CSS Color Module Level 4), the names a browser knows
CSS_NAMES = frozenset("""
aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk
crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki
darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue
dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite
gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki
lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan
lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen
lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen
magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen
mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream
mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum
powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown
seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen
steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow
yellowgreen""".split())


def colour(text: str):
    """The colour as a browser reads it (lower case), or None for what is not one."""
    value = text.strip().lower()
    return value if HEX_COLOUR.fullmatch(value) or value in CSS_NAMES else None


def sides(text: str):
    """'left and right' -> ['left', 'right']; None when a word is not a side."""
    words = [w for w in re.split(r"[\s,]+", text.strip().lower()) if w and w != "and"]
    if not words or any(w not in SIDES for w in words) or len(set(words)) != len(words):
        return None
    return words


def empty_look() -> dict:
    return {"table": None, "seats": [], "colours": {}, "faces": {}, "boards": {},
            "sides": {}}


def check_look(checker, decls) -> dict:
    """The file's `look` hints as the browser gets them (later hints replace earlier
    ones, so a file that extends another can change its look); errors E220 and E221."""
    look = empty_look()
    for d in decls:
        if isinstance(d, ast.Look):
            for hint in d.hints:
                _one(checker, hint, look)
    return look


def _one(checker, hint: ast.LookHint, look: dict) -> None:
    known = HINTS.get(hint.word)
    if known is None:
        checker.err(E_UNKNOWN, f"look has no hint '{hint.word}'", _word_span(checker, hint),
                    checker.suggest(hint.word, HINTS) +
                    [f"a hint is one of: {', '.join(HINTS)}; e.g. {EXAMPLES['colour']}"])
        return
    about, form, count = known
    if not _subject_known(checker, hint, about):
        return
    values = _values(checker, hint, form, count)
    if values is None:
        return
    if hint.word == "table":
        look["table"] = values[0]
    elif hint.word == "seats":
        look["seats"] = values
    else:
        key = {"colour": "colours", "face": "faces", "board": "boards",
               "sides": "sides"}[hint.word]
        look[key][hint.subject] = values if count == "seats" else values[0]


def _word_span(checker, hint):
    return checker.name_at(hint.span, hint.word)


def _subject_known(checker, hint: ast.LookHint, about) -> bool:
    """Whether the hint names what it must (or nothing, where it takes no name)."""
    example = EXAMPLES[hint.word]
    if about is None:
        if hint.subject is not None:
            checker.err(E_UNKNOWN, f"look: '{hint.word}' is about the whole table and takes "
                        f"no name, and it is given '{hint.subject}'",
                        checker.name_at(hint.span, hint.subject, r"\w+\s+"),
                        [f"write it as {example}"])
            return False
        return True
    pool = _things(checker.m, about)
    if hint.subject in pool:
        return True
    if hint.subject is None:
        checker.err(E_UNKNOWN, f"look: '{hint.word}' names {ABOUT[about]} first",
                    _word_span(checker, hint), [f"write it as {example}"])
        return False
    checker.err(E_UNKNOWN, f"look: '{hint.word}' names '{hint.subject}', which is not "
                f"{ABOUT[about]} of this game",
                checker.name_at(hint.span, hint.subject, r"\w+\s+"),
                checker.suggest(hint.subject, pool) or
                [f"name {ABOUT[about]} the file declares, e.g. {example}"])
    return False


def _things(m, about: str) -> set:
    boards = {e.name: e for e in m.enums.values() if e.is_board}
    if about == "board":
        return set(boards)
    if about == "grid":
        return {name for name, e in boards.items() if e.grid}
    if about == "kind":
        return set(m.kinds)
    values = {v for e in m.enums.values() if not e.is_board for v in e.values}
    return values | set(m.kinds)


def _values(checker, hint: ast.LookHint, form: str, count):
    """The hint's values made plain, or None after an error (E221)."""
    most = checker.m.max_players if count == "seats" else 1
    given = len(hint.values)
    if given > most or (count == 1 and given != 1):
        what = "one value" if count == 1 else f"at most one a seat ({most})"
        checker.err(E_VALUE, f"look: '{hint.word}' takes {what}, and it is given {given}",
                    hint.span, [f"write it as {EXAMPLES[hint.word]}"])
        return None
    read = colour if form == "colour" else sides
    out = []
    for text in hint.values:
        value = read(text)
        if value is None:
            checker.err(E_VALUE, f"look: {_shown(text)} is not {_form_name(form)}",
                        hint.span, [_form_hint(form)])
            return None
        out.append(value)
    return out


def _shown(text: str) -> str:
    """A value quoted for a message, cut short (it may be long, and hostile)."""
    return repr(text if len(text) <= 40 else text[:40] + "...")


def _form_name(form: str) -> str:
    return "a colour" if form == "colour" else "a list of sides"


def _form_hint(form: str) -> str:
    if form == "colour":
        return "write a colour as #rgb, #rrggbb or a CSS colour name such as crimson"
    return "write the sides a seat joins with the words top, bottom, left and right, " \
           "e.g. \"left right\""
