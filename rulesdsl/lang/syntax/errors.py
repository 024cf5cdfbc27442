"""Syntax errors for people: what was found, what would have fitted, and where.

Lark's exceptions become RulesErrors (E100 a stray character, E101 an unexpected token, E102
the file ends early) with hints for the usual slips: single quotes, a ';', a keyword used as
a name, '=' for '==', the bracket left open.
"""

from __future__ import annotations

import re

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulesdsl.lang.errors import RulesError, Span, did_you_mean
from rulesdsl.lang.syntax.grammar import parser

_NAMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "LBRACE": "'{'",
    "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "DOT": "'.'", "EQUAL": "'='", "COMP_OP": "a comparison",
    "MUL_OP": "'*', '/' or '%'", "PLUS": "'+'", "MINUS": "'-'", "ASSIGN_OP": "'+=' or '-='",
    "$END": "the end of the file",
}


def _describe(term: str) -> str:
    if term in _NAMES:
        return _NAMES[term]
    try:
        pattern = parser().get_terminal(term).pattern
        return f"'{pattern.value}'"
    except (KeyError, AttributeError):
        return term.lower()


def keywords() -> set[str]:
    words = set()
    for t in parser().terminals:
        value = getattr(t.pattern, "value", "")
        if t.pattern.type == "str" and re.fullmatch(r"[a-z]+", value):
            words.add(value)
    return words


def syntax_error(e: UnexpectedInput, text: str, path: str) -> RulesError:
    line = getattr(e, "line", 1) or 1
    column = getattr(e, "column", 1) or 1
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        expected = sorted(_describe(t) for t in getattr(e, "expected", ()) or ())
        msg = "the file ends too early"
        if expected:
            msg += f"; expected {_one_of(expected)}"
        hints = ["a block or a list is still open: check that every '{', '(' and '[' is closed"]
        open_ = _unclosed(text)
        if open_ is not None:
            hints = [f"the '{open_[0]}' at line {open_[1]}, column {open_[2]} is not closed"
                     f"{open_[3]}"]
        return RulesError("E102", msg, Span(path, line, column, line, column + 1), hints)
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        hints = []
        if ch == "'":
            hints.append("strings use double quotes: \"like this\"")
        elif ch == '"':
            hints.append("a string must close on the line where it opens")
        elif ch in ";":
            hints.append("statements need no ';': put each on its own line")
        else:
            hints.append("names use letters, digits and '_'; comments start with '#'")
        shown = repr(ch) if ch.isprintable() else f"character U+{ord(ch):04X}"
        return RulesError("E100", f"unexpected {shown}", Span(path, line, column, line, column + 1),
                          hints)
    assert isinstance(e, UnexpectedToken)
    tok = e.token
    found = f"'{tok.value}'" if tok.type != "STRING" else "a string"
    expected = sorted({_describe(t) for t in e.expected})
    hints = []
    if tok.type != "NAME" and str(tok.value) == "else":
        hints.append("'else' must follow the '}' that closes an 'if' block, or the 'then' "
                     "branch of an 'if ... then ... else' expression")
    elif tok.type != "NAME" and str(tok.value) in keywords() and "a name" in expected:
        hints.append(f"'{tok.value}' is a keyword of the language; choose another name")
    elif tok.type in ("COLON", "EQUAL", "ASSIGN_OP") and tok.start_pos is not None:
        before = re.search(r"\b([a-z]+)\s*$", text[max(0, tok.start_pos - 100):tok.start_pos])
        if before and before.group(1) in keywords():  # like a field called 'on'
            hints.append(f"'{before.group(1)}' is a keyword of the language here; "
                         "choose another name")
    if not hints and tok.start_pos is not None:
        before = re.search(r"\b([a-z]+)\s*$", text[max(0, tok.start_pos - 100):tok.start_pos])
        if before and f"'{before.group(1)}'" in expected:  # like 'move to pile'
            hints.append(f"'{before.group(1)}' was read as a name here: is something missing "
                         "before it?")
    if not hints and tok.start_pos is not None:  # a phase named like a keyword: 'move(p)'
        call = re.search(r"(?m)^\s*([a-z_]+)\s*\([^\n]*\)[ \t]*\n?\s*\Z",
                         text[max(0, tok.start_pos - 200):tok.start_pos])
        if call and call.group(1) in keywords():
            hints.append(f"'{call.group(1)}' begins a statement of the language, so "
                         f"'{call.group(1)}(...)' is not a phase run: name the phase "
                         f"otherwise, like {call.group(1)}_phase")
    if not hints and str(tok.value) == "borders" and "'track'" in expected:
        hints.append("a laid-out board's cells border where they are next to each other on "
                     "a track: write each line as a track, like track top: d7, d6, d5")
    if not hints and tok.type == "NAME":  # a keyword mistyped: 'privat'
        words = [x.strip("'") for x in expected if x.startswith("'") and x[1:2].isalpha()]
        hints.extend(did_you_mean(str(tok.value), words))
    if tok.type == "EQUAL" and (any(x in expected for x in ("'and'", "'or'"))
                                or "'='" not in expected):
        hints.append("to compare, write '=='")
    msg = f"unexpected {found}"
    if expected:
        msg += f"; expected {_one_of(expected)}"
    end = column + max(1, len(str(tok.value)))
    return RulesError("E101", msg, Span(path, line, column, line, end), hints)


def _unclosed(text: str):
    """The '{', '(' or '[' left open at the end of the text: (char, line, column, why).

    The innermost one, unless a closing bracket that starts a line is indented less than the
    line of the bracket it closed: then that one probably lacks its own closing bracket.
    """
    stack, suspect = [], None
    lines = text.split("\n")
    indent = [len(x) - len(x.lstrip(" \t")) for x in lines]
    line, col, i = 1, 1, 0
    pairs = {"}": "{", ")": "(", "]": "["}
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            line, col, i = line + 1, 1, i + 1
            continue
        if ch == "#" or ch == '"':  # a comment, or a string (which never spans lines)
            j = i + 1
            while j < len(text) and text[j] != "\n" and not (ch == '"' and text[j] == '"'):
                j += 2 if ch == '"' and text[j] == "\\" else 1
            j = min(j + (1 if ch == '"' else 0), len(text))
            col += j - i
            i = j
            continue
        if ch in "{([":
            stack.append((ch, line, col))
        elif ch in pairs and stack and stack[-1][0] == pairs[ch]:
            opener = stack.pop()
            if suspect is None and col == indent[line - 1] + 1 and \
                    indent[line - 1] < indent[opener[1] - 1]:
                suspect = (opener[0], opener[1], opener[2],
                           f"; the '{ch}' at line {line} lines up with an outer block")
        i += 1
        col += 1
    if not stack:
        return None
    return suspect or (stack[-1] + ("",))


def _one_of(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    if len(items) > 8:
        return "one of " + ", ".join(items[:8]) + ", ..."
    return "one of " + ", ".join(items)
