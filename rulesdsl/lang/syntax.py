"""Text -> syntax tree. The Lark parse and one transformer method per grammar rule; no meaning.

Parse errors become RulesErrors that say what was found, what would have fitted, and where.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Optional

import attrs
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                             UnexpectedToken, VisitError)

from rulesdsl.lang import ast
from rulesdsl.lang.limits import limit, nesting_error, read_bytes, whole_number
from rulesdsl.lang.errors import RulesError, Span
from rulesdsl.lang.resources import grammar_text

MAX_SOURCE_BYTES = 2_000_000
_PLAIN_RUN = re.compile(r"[^\\{]*")  # text up to the next escape or hole


def _whole(tok) -> int:
    """A number token's value; past 30 digits a stand-in past every limit (int() of more
    than 4,300 digits raises ValueError, and the checks report any number past 2^53)."""
    return whole_number(str(tok))


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True,
                maybe_placeholders=True, start=["start", "expr"])


def parse(text: str, path: str = "<rules>") -> ast.File:
    """Parse a whole rules file into an ast.File, or raise a RulesError pointing at the place."""
    most = limit("source_chars")  # MAX_SOURCE_BYTES unless RULESDSL_LIMITS raises it
    if len(text) > most:
        raise RulesError("E104", f"the file is {len(text):,} characters long; the limit is "
                         f"{most:,}", Span(path, 1, 1, 1, 2), ["split the game into "
                         "smaller files with 'extends'"])
    _refuse_control_characters(text, path)
    try:
        tree = parser().parse(text, start="start")
    except UnexpectedInput as e:
        raise _syntax_error(e, text, path) from None
    except RecursionError:
        raise nesting_error(path, 1, 1) from None
    _check_nesting(tree, path)
    try:
        return Build(path).transform(tree)
    except VisitError as e:  # a RulesError raised while building (a bad string template)
        raise _unwrap(e) from None


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _refuse_control_characters(text: str, path: str) -> None:
    """E108 for ESC, BEL and other control characters anywhere in a rules file: printed
    raw they could retitle or recolour a terminal and fake what a player sees."""
    m = _CONTROL.search(text)
    if m is None:
        return
    line = text.count("\n", 0, m.start()) + 1
    column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    raise RulesError("E108", f"a control character (U+{ord(m.group()):04X}) in the file",
                     Span(path, line, column, line, column + 1),
                     ["remove it; in a string, write \\n or \\t for a new line or a tab"])


def _check_nesting(tree, path: str, line_offset: int = 0, column_offset: int = 0) -> None:
    """E106 where the tree is deeper than the nesting limit; every later stage recurses."""
    most = limit("nesting")
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > most:
            meta = getattr(node, "meta", None)
            line = getattr(meta, "line", None) or getattr(node, "line", 1) or 1
            column = getattr(meta, "column", None) or getattr(node, "column", 1) or 1
            raise nesting_error(path, line + line_offset,
                                column + (column_offset if line == 1 else 0))
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in node.children)


def _unwrap(e: VisitError) -> Exception:
    """The exception a transformer method raised, out of lark's (possibly nested) wrappers."""
    orig: Exception = e
    while isinstance(orig, VisitError):
        orig = orig.orig_exc
    return orig if isinstance(orig, RulesError) else e


def parse_expression(text: str, path: str, line: int, column: int):
    """Parse an expression embedded in a string template at the given place."""
    try:
        tree = parser().parse(text, start="expr")
        _check_nesting(tree, path, line - 1, column - 1)
    except RecursionError:
        raise nesting_error(path, line, column) from None
    except UnexpectedInput as e:
        err = _syntax_error(e, text, path)
        col = column + (err.span.column - 1 if err.span else 0)
        message, hints = err.message, err.hints
        if err.code == "E102":
            message = message.replace("the file ends too early", "the expression ends too early")
            hints = ["complete the expression before the closing '}'"]
        raise RulesError("E103", f"in a {{...}} of a string: {message}",
                         Span(path, line, col, line, col + 1), hints) from None
    return Build(path, line - 1, column - 1).transform(tree)


# ---------------------------------------------------------------- errors

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


def _keywords() -> set[str]:
    words = set()
    for t in parser().terminals:
        value = getattr(t.pattern, "value", "")
        if t.pattern.type == "str" and re.fullmatch(r"[a-z]+", value):
            words.add(value)
    return words


def _syntax_error(e: UnexpectedInput, text: str, path: str) -> RulesError:
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
    elif tok.type != "NAME" and str(tok.value) in _keywords() and "a name" in expected:
        hints.append(f"'{tok.value}' is a keyword of the language; choose another name")
    elif tok.type in ("COLON", "EQUAL", "ASSIGN_OP") and tok.start_pos is not None:
        before = re.search(r"\b([a-z]+)\s*$", text[max(0, tok.start_pos - 100):tok.start_pos])
        if before and before.group(1) in _keywords():  # like a field called 'on'
            hints.append(f"'{before.group(1)}' is a keyword of the language here; "
                         "choose another name")
    if not hints and tok.start_pos is not None:
        before = re.search(r"\b([a-z]+)\s*$", text[max(0, tok.start_pos - 100):tok.start_pos])
        if before and f"'{before.group(1)}'" in expected:  # like 'move to pile'
            hints.append(f"'{before.group(1)}' was read as a name here: is something missing "
                         "before it?")
    if "'}'" in expected and tok.type in ("$END",):
        hints.append("a '{' is not closed")
    if tok.type == "EQUAL" and "'=='" not in expected and "a comparison" not in expected:
        pass
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


# ---------------------------------------------------------------- tree -> ast


def _unescape(raw: str) -> str:
    body = raw[1:-1]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


@v_args(inline=True, meta=True)
class Build(Transformer):
    """One method per grammar rule, each making one ast node."""

    def __init__(self, path: str, line_offset: int = 0, column_offset: int = 0):
        super().__init__()
        self.path = path
        self.line_offset = line_offset
        self.column_offset = column_offset

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 1 + self.line_offset, 1, 1 + self.line_offset, 1)
        col_off = self.column_offset if meta.line == 1 else 0
        return Span(self.path, meta.line + self.line_offset, meta.column + col_off,
                    meta.end_line + self.line_offset,
                    meta.end_column + (self.column_offset if meta.end_line == 1 else 0),
                    meta.start_pos, meta.end_pos)

    def _tok_span(self, tok: Token) -> Span:
        col_off = self.column_offset if tok.line == 1 else 0
        return Span(self.path, tok.line + self.line_offset, tok.column + col_off,
                    tok.end_line + self.line_offset, tok.end_column + col_off,
                    tok.start_pos, tok.end_pos)

    def _text(self, tok: Token) -> ast.Text:
        """A string token as a Text with its {expr} holes parsed."""
        raw = str(tok)
        body = raw[1:-1]
        parts = []
        i = 0
        buf: list = []  # pieces of plain text, joined once: '+=' per character was quadratic
        base_col = tok.column + (self.column_offset if tok.line == 1 else 0) + 1
        line = tok.line + self.line_offset
        while i < len(body):
            m = _PLAIN_RUN.match(body, i)
            if m.end() > i:
                buf.append(m.group())
                i = m.end()
                continue
            ch = body[i]
            if ch == "\\" and i + 1 < len(body):
                buf.append({"n": "\n", "t": "\t"}.get(body[i + 1], body[i + 1]))
                i += 2
                continue
            if ch == "{":
                close = body.find("}", i)
                if close < 0:
                    raise RulesError("E103", "a '{' in this string is not closed",
                                     Span(self.path, line, base_col + i, line, base_col + i + 1),
                                     ["write '{expression}', or '\\{' for a brace"])
                inner = body[i + 1:close]
                if not inner.strip():
                    raise RulesError("E103", "an empty '{}' in this string",
                                     Span(self.path, line, base_col + i, line, base_col + i + 2),
                                     ["put an expression between the braces, like {p}"])
                if buf:
                    parts.append("".join(buf))
                    buf = []
                parts.append(parse_expression(inner, self.path, line, base_col + i + 1))
                i = close + 1
                continue
            buf.append(ch)
            i += 1
        if buf:
            parts.append("".join(buf))
        return ast.Text(self._tok_span(tok), tuple(parts))

    @staticmethod
    def _plain(tok: Optional[Token]) -> str:
        return _unescape(str(tok)) if tok is not None else ""

    # -- file and declarations
    def start(self, meta, *decls):
        return ast.File(self._span(meta), self.path, tuple(decls))

    def decl(self, meta, override, body):
        return ast.Decl(self._span(meta), override is not None, body)

    def game_decl(self, meta, title):
        return ast.Game(self._span(meta), self._plain(title))

    def extends_decl(self, meta, path):
        return ast.Extends(self._span(meta), self._plain(path))

    def players_decl(self, meta, low, high):
        low = _whole(low)
        return ast.Players(self._span(meta), low, _whole(high) if high else low)

    def option_decl(self, meta, name, type_, default, doc):
        return ast.Option(self._span(meta), str(name), type_, default, self._plain(doc))

    def field_list(self, meta, *fields):
        return tuple(fields)

    def enum_decl(self, meta, name, fields, *items):
        items = tuple(i for i in items if i is not None)
        return ast.Enum(self._span(meta), str(name), fields or (), items)

    def enum_item(self, meta, name, args, title):
        return ast.EnumItem(self._span(meta), str(name), args or (), self._plain(title))

    def board_decl(self, meta, name, *rest):
        nodes, borders = [], []
        for item in rest:
            if item is None:
                continue
            if isinstance(item, Token):
                nodes.append(ast.Ref(self._tok_span(item), str(item)))
            else:
                borders.append(item)
        return ast.Board(self._span(meta), str(name), tuple(nodes), tuple(borders))

    def grid_decl(self, meta, name, width, height):
        return ast.Grid(self._span(meta), str(name), int(str(width).replace("_", "")),
                        int(str(height).replace("_", "")))

    def hex_decl(self, meta, name, width, height):
        return attrs.evolve(self.grid_decl(meta, name, width, height), hex=True)

    def border(self, meta, a, _minus, b):
        return ast.Border(self._span(meta), str(a), str(b))

    def kind_decl(self, meta, name, parent, body):
        fields, label, playable, on_play = [], None, None, None
        for item in body or ():
            if isinstance(item, ast.Field):
                fields.append(item)
            elif isinstance(item, ast.Text):
                label = item
            elif item[0] == "playable":
                playable = item[1:]
            else:
                on_play = item[1:]
        return ast.Kind(self._span(meta), str(name), str(parent) if parent else "",
                        tuple(fields), label, playable, on_play)

    def kind_body(self, meta, *items):
        return items

    def kind_label(self, meta, text):
        return self._text(text)

    def kind_playable(self, meta, who, cond):
        return ("playable", str(who), cond)

    def kind_on_play(self, meta, who, block):
        return ("on_play", str(who), block)

    def field(self, meta, name, type_, default):
        return ast.Field(self._span(meta), str(name), type_, default)

    def kind_var(self, meta, field):
        return attrs.evolve(field, changing=True)

    def deck_decl(self, meta, zone, per, *entries):
        return ast.Deck(self._span(meta), str(zone), per or "", tuple(entries))

    def deck_per(self, meta, binder):
        return str(binder)

    def deck_entry(self, meta, count, kind, args):
        n = _whole(count) if count is not None else 1
        return ast.DeckEntry(self._span(meta), n, str(kind), args or ())

    def zone_decl(self, meta, name, *items):
        dims, vis, unordered, cap = [], "public", False, 0
        for item in items:
            if isinstance(item, tuple) and item[0] == "dim":
                dims.append(item[1])
            elif isinstance(item, tuple) and item[0] == "vis":
                vis = item[1]
            elif item == "unordered":
                unordered = True
            elif isinstance(item, tuple) and item[0] == "cap":
                cap = item[1]
        return ast.Zone(self._span(meta), str(name), tuple(dims), vis, unordered, cap)

    def dim(self, meta, what):
        return ("dim", ast.Ref(self._tok_span(what), str(what)))

    def zone_visibility(self, meta, vis):
        return ("vis", vis)

    def zone_unordered(self, meta):
        return "unordered"

    def zone_capacity(self, meta, n):
        return ("cap", _whole(n))

    def visibility(self, meta, tok):
        return str(tok)

    def var_decl(self, meta, name, type_, *rest):
        *dims, default, vis = rest
        return ast.Var(self._span(meta), str(name), type_, tuple(d[1] for d in dims), default,
                       vis or "public")

    def define_decl(self, meta, name, params, body):
        return ast.Define(self._span(meta), str(name), params or (), body)

    def modifier_decl(self, meta, name, target, cond, value):
        return ast.Modifier(self._span(meta), str(name), str(target), cond, value)

    def phase_decl(self, meta, name, params, body):
        return ast.Phase(self._span(meta), str(name), params or (), body)

    def setup_decl(self, meta, body):
        return ast.Setup(self._span(meta), body)

    def flow_decl(self, meta, name):
        return ast.Flow(self._span(meta), str(name))

    def response_decl(self, meta, name, card, player, where, body):
        return ast.Response(self._span(meta), str(name), str(card), str(player), where, body)

    def invariant_decl(self, meta, zone, keep):
        return ast.Invariant(self._span(meta), str(zone), _whole(keep))

    def score_decl(self, meta, param, value, vis):
        return ast.Score(self._span(meta), param, value, vis or "public")

    # -- what a player reads
    def about_decl(self, meta, *lines):
        return ast.About(self._span(meta), tuple(self._plain(t) for t in lines))

    def title_decl(self, meta, name, title):
        return ast.Title(self._span(meta), str(name), self._plain(title))

    def text_decl(self, meta, name, *lines):
        return ast.Explain(self._span(meta), str(name), tuple(self._plain(t) for t in lines))

    def internal_decl(self, meta, *names):
        return ast.Internal(self._span(meta), tuple(ast.Ref(self._tok_span(n), str(n))
                                                    for n in names))

    def show_decl(self, meta, name, title, vis):
        return ast.Show(self._span(meta), str(name), self._plain(title), vis or "public")

    def param_list(self, meta, *params):
        return tuple(p for p in params if p is not None)

    def param(self, meta, name, type_):
        return ast.Param(self._span(meta), str(name), type_)

    def type_player(self, meta, _tok):
        return ast.TypeRef(self._span(meta), "player")

    def type_name(self, meta, name):
        return ast.TypeRef(self._span(meta), str(name))

    def type_list(self, meta, of):
        return ast.TypeRef(self._span(meta), "list", of)

    def type_range(self, meta, low, high):
        return ast.TypeRef(self._span(meta), "range", None, _whole(low),
                           _whole(high))

    # -- statements
    def block(self, meta, *stmts):
        return ast.Block(self._span(meta), tuple(stmts))

    def let_stmt(self, meta, name, type_, value):
        return ast.Let(self._span(meta), str(name), value, type_)

    def set_stmt(self, meta, target, *rest):
        if len(rest) == 2:
            op, value = str(rest[0]), rest[1]
        else:
            op, value = "=", rest[0]
        return ast.Set(self._span(meta), target[0], target[1], op, value)

    def set_field_stmt(self, meta, piece, name, *rest):
        op, value = (str(rest[0]), rest[1]) if len(rest) == 2 else ("=", rest[0])
        return ast.SetField(self._span(meta), piece, str(name), op, value)

    def piece_name(self, meta, tok):
        return ast.Name(self._span(meta), str(tok))

    def piece_call(self, meta, name, args):
        return ast.Call(self._span(meta), str(name), tuple(args or ()))

    def piece_index(self, meta, name, args):
        return ast.Index(self._span(meta), ast.Name(self._tok_span(name), str(name)), tuple(args))

    def roll_stmt(self, meta, what):
        return ast.Roll(self._span(meta), what)

    def target(self, meta, name, args):
        return (str(name), tuple(args or ()))

    def at_bottom(self, meta):
        return True

    def move_stmt(self, meta, what, to, bottom, words=None):
        return ast.Move(self._span(meta), what, to, bool(bottom), words)

    def words(self, meta, text):
        return self._text(text)

    def shuffle_stmt(self, meta, zone):
        return ast.Shuffle(self._span(meta), zone)

    def deal_count(self, meta, what):
        if isinstance(what, Token) and what.type == "ALL":
            return None
        return what

    def deal_stmt(self, meta, count, source, family, start):
        return ast.Deal(self._span(meta), count, source, str(family), start)

    def reveal_stmt(self, meta, what, to):
        return ast.Reveal(self._span(meta), what, to)

    def log_stmt(self, meta, text):
        return ast.Log(self._span(meta), self._text(text))

    def ask_stmt(self, meta, who, question, *choices):
        q = self._text(question) if question is not None else None
        return ast.Ask(self._span(meta), who, tuple(choices), q)

    def ask_each_stmt(self, meta, binder, source, where, openly, question, *choices):
        q = self._text(question) if question is not None else None
        return ast.AskEach(self._span(meta), str(binder), source, where, tuple(choices),
                           openly is not None, q)

    def named_choice(self, meta, label, cond, body):
        return ast.NamedChoice(self._span(meta), self._text(label), cond, body)

    def binder_choice(self, meta, binder, source, where, body):
        return ast.BinderChoice(self._span(meta), str(binder), source, where, body)

    def labelled_choice(self, meta, label, binder, source, where, body):
        return ast.BinderChoice(self._span(meta), str(binder), source, where, body,
                                self._text(label))

    def ask_together_stmt(self, meta, binder, source, where, question, *choices):
        q = self._text(question) if question is not None else None
        return ast.AskTogether(self._span(meta), str(binder), source, where, tuple(choices), q)

    def binders(self, meta, *names):
        return tuple(str(n) for n in names)

    def sources(self, meta, *exprs):
        return tuple(exprs)

    def tuple_choice(self, meta, binders, sources, where, body):
        return ast.TupleChoice(self._span(meta), binders, sources, where, body)

    def labelled_tuple_choice(self, meta, label, binders, sources, where, body):
        return ast.TupleChoice(self._span(meta), binders, sources, where, body,
                               self._text(label))

    def if_stmt(self, meta, *items):
        items = list(items)
        else_ = items.pop() if len(items) % 2 == 1 else None
        branches = tuple((items[i], items[i + 1]) for i in range(0, len(items), 2))
        return ast.If(self._span(meta), branches, else_)

    def repeat_stmt(self, meta, body, until):
        return ast.Repeat(self._span(meta), body, until)

    def while_stmt(self, meta, cond, body):
        return ast.While(self._span(meta), cond, body)

    def for_stmt(self, meta, binder, source, where, body):
        return ast.For(self._span(meta), str(binder), source, where, body)

    def turns_stmt(self, meta, binder, start, skip, until, body):
        return ast.Turns(self._span(meta), str(binder), start, skip, until, body)

    def call_stmt(self, meta, name, args):
        return ast.CallStmt(self._span(meta), str(name), tuple(args or ()), args is not None)

    def win_stmt(self, meta, who):
        return ast.Win(self._span(meta), who)

    def end_game_stmt(self, meta):
        return ast.EndGame(self._span(meta))

    def break_stmt(self, meta):
        return ast.Break(self._span(meta))

    def return_stmt(self, meta):
        return ast.Return(self._span(meta))

    def cancel_stmt(self, meta):
        return ast.Cancel(self._span(meta))

    def respond_stmt(self, meta):
        return ast.Respond(self._span(meta))

    def play_stmt(self, meta, card, by, to):
        return ast.Play(self._span(meta), card, by, to)

    def swap_stmt(self, meta, a, b):
        return ast.Swap(self._span(meta), a, b)

    # -- expressions
    def if_expr(self, meta, cond, then, else_):
        return ast.IfExpr(self._span(meta), cond, then, else_)

    def let_expr(self, meta, name, value, body):
        return ast.LetIn(self._span(meta), str(name), value, body)

    def or_op(self, meta, a, b):
        return ast.Binary(self._span(meta), "or", a, b)

    def and_op(self, meta, a, b):
        return ast.Binary(self._span(meta), "and", a, b)

    def not_op(self, meta, a):
        return ast.Unary(self._span(meta), "not", a)

    def compare(self, meta, a, op, b):
        return ast.Binary(self._span(meta), str(op), a, b)

    def binary(self, meta, a, op, b):
        return ast.Binary(self._span(meta), str(op), a, b)

    def is_kind(self, meta, a, kind):
        return ast.IsKind(self._span(meta), a, str(kind), False)

    def is_not_kind(self, meta, a, kind):
        return ast.IsKind(self._span(meta), a, str(kind), True)

    def is_in(self, meta, a, coll):
        return ast.IsIn(self._span(meta), a, coll, False)

    def is_not_in(self, meta, a, coll):
        return ast.IsIn(self._span(meta), a, coll, True)

    def range(self, meta, start, stop, step):
        return ast.Range(self._span(meta), start, stop, step)

    def neg(self, meta, _minus, a):
        return ast.Unary(self._span(meta), "-", a)

    def attr(self, meta, obj, name):
        return ast.Attr(self._span(meta), obj, str(name))

    def index(self, meta, obj, args):
        return ast.Index(self._span(meta), obj, tuple(args))

    def call(self, meta, name, args):
        return ast.Call(self._span(meta), str(name), tuple(args or ()))

    def call_args(self, meta, args):
        if args is None:
            return ()
        if isinstance(args, (ast.Comprehension, ast.Prefix)):
            return (args,)
        return args

    def args(self, meta, *items):
        return tuple(items)

    def name(self, meta, tok):
        return ast.Name(self._span(meta), str(tok))

    def int_lit(self, meta, tok):
        return ast.Int(self._span(meta), _whole(tok))

    def true_lit(self, meta):
        return ast.Bool(self._span(meta), True)

    def false_lit(self, meta):
        return ast.Bool(self._span(meta), False)

    def none_lit(self, meta):
        return ast.NoneLit(self._span(meta))

    def str_lit(self, meta, tok):
        return self._text(tok)

    def list_lit(self, meta, args):
        return ast.ListLit(self._span(meta), tuple(args or ()))

    def list_comp(self, meta, comp):
        return comp

    def filter_comp(self, meta, binder, source, where):
        return ast.Comprehension(self._span(meta), str(binder), source, where, None)

    def prefix_comp(self, meta, binder, source, cond):
        return ast.Prefix(self._span(meta), str(binder), source, cond)

    def map_comp(self, meta, value, binder, source, where):
        return ast.Comprehension(self._span(meta), str(binder), source, where, value)


def parse_file(path: str) -> ast.File:
    """Read and parse a file; unreadable or non-UTF-8 files are reported as RulesErrors."""
    try:
        data = read_bytes(path, "E107", "rules file").removeprefix(b"\xef\xbb\xbf")  # BOM
    except OSError as e:
        raise RulesError("E001", f"cannot read {path}: {e.strerror or e}", None,
                         ["check the path; bundled games can be named without '.rules'"]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        raise RulesError("E105", "the file is not valid UTF-8 text",
                         Span(path, line, col, line, col + 1),
                         ["save the file as UTF-8"]) from None
    return parse(text, path)
