"""One canonical layout for rules files: `format_source(text, path) -> str`.

The formatter works on the parse tree (every token kept, with its original text), so
strings, numbers with `_` separators and `{expr}` holes come out exactly as written, and
on the comments the lexer hands over. It only changes layout; `format_source` checks that
the result parses to the same syntax tree and keeps every comment, in order.

The layout (docs/tools.md says the same for authors):

- Two spaces per level. One statement, one declaration, one kind item, one deck entry per
  line. `{` ends the line that opens a block; `}` starts its own line; `} else {`,
  `} until ...` continue on the closing brace's line.
- A body (a block, a kind's body, a deck, an `ask`) with at most one item stays on one
  line (`{ move c to trick }`, `"pass" { }`) if the author wrote it on one line, holds no
  comment and the item holds no block; an empty body is `{ }`. Every other body is laid
  out one item per line.
- An enum is on one line if written on one line; otherwise its values go one line each
  (values the author put together on one line stay together), every line ending with a
  comma. A board is always laid out: its nodes, then `borders` and the borders, each kept
  to the lines the author grouped them on.
- Spaces: one between words and around operators; none inside brackets, before `,` `:`
  `)` `]`, around `.` and `..`, after a unary minus, before the `(` of a call or
  parameter list and the `[` of an index. Deck entries lose their optional commas.
- Expressions stay on one line. Where the author broke one across lines, the break is
  kept if it sits at a place a break reads well: after a binary operator (`and`, `or`,
  `+`, `==`, ...), after `,`, `where` or `=`; a break just before an operator moves after
  it. A conditional `if ... then ... else if ...` written over several lines is laid out
  with every `else` starting a line. Continuation lines align just inside the innermost
  open bracket; outside brackets they are indented 4 more than the statement, or 2 when
  the expression started on its own line after `=` (a `define` body).
- Blank lines: never two in a row, none after a `{` or before a `}`, none at the start or
  the end of the file. Between top-level declarations of different sorts there is always
  one; between declarations of the same sort (a run of `zone` or `var` lines, of kinds,
  of definitions) the author's choice is kept. For this, `game`, `extends`, `players` and
  `option` are one sort (the header), and `define` and `modifier` are one sort. Inside
  bodies, the author's single blank lines between items are kept.
- `about` and `text NAME` put each of their strings on a line of its own, indented one
  level; a single string written on the head's line stays there. `title`, `text`, `internal` and `show` are one sort of declaration.
- Comments are kept, in order. A comment on a line of its own stays on a line of its own,
  before the code that followed it, at that code's indentation; a comment after code stays
  at the end of that line, two spaces after the code. The trailing comments of
  consecutive lines are aligned in one column.
"""

from __future__ import annotations

import bisect
import functools
import re
import threading
from pathlib import Path
from typing import Optional

from lark import Lark, Token, Tree

from rulesdsl.lang import syntax
from rulesdsl.lang.limits import read_bytes
from rulesdsl.lang.errors import RulesError, Span
from rulesdsl.lang.resources import grammar_text

STEP = 2  # spaces per indentation level

_lock = threading.Lock()
_collected: list = []


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    """A second parser over the same grammar that keeps every token and hands over comments."""
    return Lark(grammar_text(), parser="lalr", propagate_positions=True,
                maybe_placeholders=True, keep_all_tokens=True, start="start",
                lexer_callbacks={"COMMENT": _collect})


def _collect(token: Token) -> Token:
    _collected.append(token)
    return token


class FormatError(RuntimeError):
    """The formatter would have changed a file's meaning or lost a comment: a bug."""


def parse_with_comments(text: str, path: str = "<rules>", checked: bool = False):
    """The full parse tree (all tokens kept) and the comment tokens, in order.

    Bad input raises the same RulesError `rulesdsl.lang.syntax.parse` raises (pass
    `checked=True` when the text is known to parse).
    """
    if not checked:
        syntax.parse(text, path)  # every syntax error, as the rest of the system reports it
    with _lock:
        _collected.clear()
        tree = _parser().parse(text, start="start")
        comments = list(_collected)
        _collected.clear()
    return tree, comments


def format_source(text: str, path: str = "<rules>", *, verify: bool = True) -> str:
    """The text in the canonical layout. Raises RulesError if the text does not parse.

    With `verify` (the default) the result is parsed again and compared with the input:
    same syntax tree, same comments in the same order, else FormatError (a bug).
    """
    original = syntax.parse(text, path)
    tree, comments = parse_with_comments(text, path, checked=True)
    walker = _Walker(comments)
    walker.emit(tree)
    result = _Printer(text, comments).run(walker.out)
    if verify:
        _verify(original, comments, result, path)
    return result


_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*')


def comments_of(text: str) -> list:
    """The text of every comment in a rules text that parses, in order.

    In such a text a '"' outside comments always opens a string and a '#' outside strings
    always opens a comment, so a scan for the two finds what the lexer finds.
    """
    return [m.group().rstrip() for m in _STRING_OR_COMMENT.finditer(text)
            if m.group().startswith("#")]


def read_source(path: str) -> str:
    """A rules file's text; unreadable or non-UTF-8 files are reported as RulesErrors."""
    try:
        data = read_bytes(path, "E107", "rules file").removeprefix(b"\xef\xbb\xbf")  # BOM
    except OSError as e:
        raise RulesError("E001", f"cannot read {path}: {e.strerror or e}", None,
                         ["check the path"]) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        raise RulesError("E105", "the file is not valid UTF-8 text",
                         Span(path, line, col, line, col + 1), ["save the file as UTF-8"]) from None


def _verify(original, comments, result: str, path: str) -> None:
    try:
        again = syntax.parse(result, path)
    except RulesError as e:
        raise FormatError(f"the formatted text of {path} does not parse: {e}") from None
    if again != original:
        raise FormatError(f"formatting {path} would change its meaning")
    if [str(c).rstrip() for c in comments] != comments_of(result):
        raise FormatError(f"formatting {path} would lose or reorder comments")


# ---------------------------------------------------------------- tree -> token stream

class Tok:
    """A token to print, with its place in the source and how it joins its neighbours."""

    __slots__ = ("text", "line", "end_line", "column", "start", "glue_left", "glue_right",
                 "brk", "closes_block", "chain")

    def __init__(self, token: Token):
        self.text = str(token)
        self.line = token.line
        self.end_line = token.end_line
        self.column = token.column
        self.start = token.start_pos
        plain = token.type in ("NAME", "STRING", "INT")
        self.glue_left = not plain and self.text in _GLUE_LEFT
        self.glue_right = not plain and self.text in _GLUE_RIGHT
        self.brk = "after" if token.type in _BREAK_AFTER else \
            "before" if token.type in _BREAK_BEFORE else None
        self.closes_block = False
        self.chain = False  # the `if` or an `else` of a conditional laid out over lines

    def __repr__(self) -> str:
        return f"Tok({self.text!r})"


_GLUE_LEFT = {")", "]", ",", ":", ".", ".."}
_GLUE_RIGHT = {"(", "[", ".", ".."}
_BREAK_AFTER = {"AND", "OR", "PLUS", "MINUS", "MUL_OP", "COMP_OP", "COMMA", "EQUAL", "ASSIGN_OP"}
_BREAK_BEFORE = {"WHERE"}

# markers in the stream
NL, SOFT, BLANK, INDENT, DEDENT = "nl", "soft", "blank", "indent", "dedent"

_SORTS = {"game_decl": "header", "extends_decl": "header", "players_decl": "header",
          "option_decl": "header", "define_decl": "define", "modifier_decl": "define",
          "title_decl": "present", "text_decl": "present", "internal_decl": "present",
          "show_decl": "present"}


def _first_line(x) -> int:
    return x.line if isinstance(x, Token) else x.meta.line


def _last_line(x) -> int:
    return x.end_line if isinstance(x, Token) else x.meta.end_line


def _start(x) -> int:
    return x.start_pos if isinstance(x, Token) else x.meta.start_pos


def _end(x) -> int:
    return x.end_pos if isinstance(x, Token) else x.meta.end_pos


def _is(x, type_: str) -> bool:
    return isinstance(x, Token) and x.type == type_


def _has_block(x) -> bool:
    if not isinstance(x, Tree):
        return False
    return any(isinstance(t, Tree) and t.data in ("block", "kind_body")
               for t in x.iter_subtrees())


class _Walker:
    """Turns the parse tree into tokens and layout markers; one method per shaped rule."""

    def __init__(self, comments: list):
        self.out: list = []
        self.comment_starts = sorted(c.start_pos for c in comments)

    def comment_within(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.comment_starts, start)
        return i < len(self.comment_starts) and self.comment_starts[i] < end

    def tok(self, token: Token) -> Tok:
        t = Tok(token)
        self.out.append(t)
        return t

    def emit(self, x) -> None:
        if x is None:
            return
        if isinstance(x, Token):
            self.tok(x)
            return
        handler = getattr(self, "r_" + str(x.data), None)
        if handler is not None:
            handler(x)
        else:
            self.generic(x)

    @staticmethod
    def kids(tree: Tree) -> list:
        return [c for c in tree.children if c is not None]

    # -- the file

    def r_start(self, tree: Tree) -> None:
        prev = None
        for decl in self.kids(tree):
            sort = self.sort(decl)
            if prev is not None:
                self.out.append(NL)
                if sort != prev:
                    self.out.append(BLANK)
            self.emit(decl)
            prev = sort

    @staticmethod
    def sort(decl) -> str:
        body = [c for c in decl.children if isinstance(c, Tree)] if isinstance(decl, Tree) else []
        name = str(body[-1].data) if body else str(getattr(decl, "data", decl))
        return _SORTS.get(name, name)

    # -- bodies in braces

    def body(self, lbrace: Token, items: list, rbrace: Token, emit_item=None,
             one_line_ok: bool = True) -> None:
        """`{ items }`: on one line when short and written so, else one item per line."""
        emit_item = emit_item or self.emit
        one_line = one_line_ok and not self.comment_within(lbrace.start_pos, rbrace.end_pos) \
            and (not items or (len(items) == 1 and lbrace.line == rbrace.end_line
                               and not _has_block(items[0])))
        self.tok(lbrace)
        if one_line:
            for item in items:
                emit_item(item)
            self.tok(rbrace)
            return
        self.out.append(INDENT)
        for item in items:
            self.out.append(NL)
            emit_item(item)
        self.out.append(DEDENT)
        self.out.append(NL)
        self.tok(rbrace).closes_block = True

    def generic(self, tree: Tree) -> None:
        for c in tree.children:
            self.emit(c)

    @staticmethod
    def brace_at(kids: list) -> Optional[int]:
        """Where the `{ ... }` that ends a rule opens, if it does end so."""
        if not kids or not _is(kids[-1], "RBRACE"):
            return None
        return next((k for k, c in enumerate(kids) if _is(c, "LBRACE")), None)

    def braced(self, tree: Tree, emit_item=None, skip=()) -> None:
        """A rule whose last part is `{ ... }`: the head as usual, then the body."""
        kids = self.kids(tree)
        i = self.brace_at(kids)
        if i is None:  # a shape this formatter does not know: lay it out plainly
            return self.generic(tree)
        for c in kids[:i]:
            self.emit(c)
        items = [c for c in kids[i + 1:-1] if not any(_is(c, s) for s in skip)]
        self.body(kids[i], items, kids[-1], emit_item)

    def r_block(self, tree: Tree) -> None:
        self.braced(tree)

    def r_kind_body(self, tree: Tree) -> None:
        self.braced(tree)

    def lines_of_text(self, tree: Tree) -> None:
        """`about` and `text NAME`: one string stays on the head's line if written so;
        several go one a line, indented."""
        kids = self.kids(tree)
        strings = [c for c in kids if _is(c, "STRING")]
        for c in kids:
            if not _is(c, "STRING"):
                self.emit(c)
        if len(strings) == 1 and strings[0].line == tree.meta.line:
            self.tok(strings[0])
            return
        self.out.append(INDENT)
        for c in strings:
            self.out.append(NL)
            self.tok(c)
        self.out.append(DEDENT)

    def r_about_decl(self, tree: Tree) -> None:
        self.lines_of_text(tree)

    def r_text_decl(self, tree: Tree) -> None:
        self.lines_of_text(tree)

    def r_ask_stmt(self, tree: Tree) -> None:
        self.braced(tree)

    def r_ask_each_stmt(self, tree: Tree) -> None:
        self.braced(tree)

    def r_ask_together_stmt(self, tree: Tree) -> None:
        self.braced(tree)

    def r_let_expr(self, tree: Tree) -> None:
        """`let x = v in body`: a break the author made after `in` is kept."""
        for c in tree.children:
            if isinstance(c, Token) and c.type == "IN":
                self.tok(c).brk = "after"
            else:
                self.emit(c)

    def r_deck_decl(self, tree: Tree) -> None:
        self.braced(tree)

    def r_deck_entry(self, tree: Tree) -> None:
        for c in self.kids(tree):
            if not _is(c, "COMMA"):
                self.emit(c)

    def r_enum_decl(self, tree: Tree) -> None:
        kids = self.kids(tree)
        i = self.brace_at(kids)
        if i is None:
            return self.generic(tree)
        for c in kids[:i]:
            self.emit(c)
        lbrace, rbrace = kids[i], kids[-1]
        items = [c for c in kids[i + 1:-1] if not _is(c, "COMMA")]
        one_line = lbrace.line == rbrace.end_line and \
            not self.comment_within(lbrace.start_pos, rbrace.end_pos)
        self.tok(lbrace)
        if one_line:
            for k, item in enumerate(items):
                if k:
                    self.comma()
                self.emit(item)
            self.tok(rbrace)
            return
        self.out.append(INDENT)
        self.grouped(items, trailing_comma=True)
        self.out.append(DEDENT)
        self.out.append(NL)
        self.tok(rbrace).closes_block = True

    def grouped(self, items: list, trailing_comma: bool) -> None:
        """Comma-separated items, a line for each group the author wrote on one line."""
        for k, item in enumerate(items):
            if k == 0 or _first_line(item) > _last_line(items[k - 1]):
                if k:
                    self.comma()
                self.out.append(NL)
            else:
                self.comma()
            self.emit(item)
        if trailing_comma and items:
            self.comma()

    def comma(self) -> None:
        t = Tok(Token("COMMA", ","))
        t.line = t.end_line = t.column = t.start = None
        t.brk = None
        self.out.append(t)

    def r_board_decl(self, tree: Tree) -> None:
        kids = self.kids(tree)
        i = self.brace_at(kids)
        j = next((k for k, c in enumerate(kids) if _is(c, "BORDERS")), None)
        if i is None or j is None or j < i:
            return self.generic(tree)
        for c in kids[:i]:
            self.emit(c)
        nodes = [c for c in kids[i + 1:j] if not _is(c, "COMMA")]
        borders = [c for c in kids[j + 1:-1] if not _is(c, "COMMA")]
        self.tok(kids[i])
        self.out.append(INDENT)
        self.grouped(nodes, trailing_comma=False)
        self.out.append(NL)
        self.tok(kids[j])
        if borders and _first_line(borders[0]) == kids[j].line and \
                _last_line(borders[-1]) == kids[j].line:
            for k, b in enumerate(borders):
                if k:
                    self.comma()
                self.emit(b)
        else:
            self.out.append(INDENT)
            self.grouped(borders, trailing_comma=False)
            self.out.append(DEDENT)
        self.out.append(DEDENT)
        self.out.append(NL)
        self.tok(kids[-1]).closes_block = True

    # -- glue

    def glued_open(self, tree: Tree, opener: str) -> None:
        first = True
        for c in self.kids(tree):
            if first and _is(c, opener):
                self.tok(c).glue_left = True
                first = False
            else:
                self.emit(c)

    def r_call_args(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_param_list(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_field_list(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_score_decl(self, tree: Tree) -> None:
        self.glued_open(tree, "LPAR")

    def r_index(self, tree: Tree) -> None:
        self.glued_open(tree, "LSQB")

    def r_target(self, tree: Tree) -> None:
        self.glued_open(tree, "LSQB")

    def r_piece_index(self, tree: Tree) -> None:
        self.glued_open(tree, "LSQB")

    def r_neg(self, tree: Tree) -> None:
        kids = self.kids(tree)
        if len(kids) != 2 or not _is(kids[0], "MINUS"):
            return self.generic(tree)
        t = self.tok(kids[0])
        t.glue_right, t.brk = True, None
        self.emit(kids[1])

    def r_border(self, tree: Tree) -> None:
        for c in self.kids(tree):
            if isinstance(c, Token):
                self.tok(c).brk = None
            else:
                self.emit(c)

    # -- conditional values

    def r_if_expr(self, tree: Tree, broken: Optional[bool] = None) -> None:
        if not self.is_if_expr(tree):
            return self.generic(tree)
        if broken is None:
            broken = self.chain_broken(tree)
        _if, cond, then, a, else_, b = self.kids(tree)
        self.tok(_if).chain = broken
        self.emit(cond)
        self.tok(then)
        self.emit(a)
        t = self.tok(else_)
        t.brk = "always" if broken else None
        t.chain = broken
        if self.is_if_expr(b):
            self.r_if_expr(b, broken)
        else:
            self.emit(b)

    @classmethod
    def is_if_expr(cls, x) -> bool:
        """`if C then A else B`, in the shape this formatter knows."""
        if not (isinstance(x, Tree) and x.data == "if_expr"):
            return False
        kids = cls.kids(x)
        return len(kids) == 6 and [_is(kids[k], t) for k, t in
                                   ((0, "IF"), (2, "THEN"), (4, "ELSE"))] == [True] * 3

    @classmethod
    def chain_broken(cls, tree: Tree) -> bool:
        """Whether the author wrote this `if ... then ... else if ...` over several lines."""
        node = tree
        while cls.is_if_expr(node):
            _if, cond, then, a, else_, b = cls.kids(node)
            if _last_line(cond) < then.line or then.end_line < _first_line(a) or \
                    _last_line(a) < else_.line or else_.end_line < _first_line(b):
                return True
            node = b
        return False


# ---------------------------------------------------------------- token stream -> text

class _Printer:
    """Lays the stream out in lines and puts every comment back where it belongs."""

    def __init__(self, text: str, comments: list):
        self.src = [line.rstrip("\r") for line in text.split("\n")]
        self.comments = [c for c in comments]
        self.ci = 0
        self.lines: list = []  # [code, trailing comment or None, opens a block]
        self.cur: Optional[str] = None
        self.level = 0
        self.pending: Optional[str] = None
        self.pending_blank = False
        self.brackets: list = []
        self.cont: Optional[int] = None  # continuation indent chosen for this statement
        self.chain_cont: Optional[int] = None  # continuation of an `if`/`else` line
        self.prev: Optional[Tok] = None

    # -- source facts

    def starts_line(self, line: int, column: int) -> bool:
        return not self.src[line - 1][:column - 1].strip()

    def blank_before(self, line: int) -> bool:
        return line >= 2 and not self.src[line - 2].strip()

    # -- output lines

    def close_line(self, comment: Optional[str] = None) -> None:
        if self.cur is not None:
            opens = self.prev is not None and self.prev.text == "{"
            self.lines.append([self.cur.rstrip(), comment, opens])
            self.cur = None

    def comment_line(self, width: int, text: str) -> None:
        self.lines.append([" " * width + text, None, False])

    def blank(self) -> None:
        if self.lines and self.lines[-1][0] != "" and not self.lines[-1][2]:
            self.lines.append(["", None, False])

    def indent(self) -> int:
        return self.level * STEP

    def continuation(self, after: Optional[Tok], before: Optional[Tok] = None) -> int:
        """Where a continuation line starts: inside the innermost open bracket; else 2 in
        from the statement when the expression starts after `=`, otherwise 4; the lines
        that continue an `if`/`else` line of a laid out conditional go 2 further in."""
        if self.brackets:
            return self.brackets[-1]
        if self.cont is None:
            extra = STEP if after is not None and after.text in ("=", "+=", "-=") else 2 * STEP
            self.cont = self.indent() + extra
        if self.chain_cont is not None and not (before is not None and before.chain):
            return self.chain_cont
        return self.cont

    def start_line(self, width: int) -> None:
        self.close_line()
        self.cur = " " * width

    # -- comments

    def flush_comments(self, upcoming: Optional[Tok]) -> None:
        """Print the comments that come before the next token (all of them at the end)."""
        closing = upcoming is not None and upcoming.closes_block and self.pending == NL
        while self.ci < len(self.comments) and (upcoming is None or
                                                self.comments[self.ci].start_pos < upcoming.start):
            c = self.comments[self.ci]
            self.ci += 1
            text = str(c).rstrip()
            if not self.starts_line(c.line, c.column):  # after code: end of that line
                if self.cur is not None:
                    self.close_line(text)
                    if self.pending is None:
                        self.pending = SOFT
                    continue
            if self.pending == NL or self.cur is None and self.pending != SOFT:
                self.close_line()
                if self.pending_blank or self.blank_before(c.line):
                    self.blank()
                self.pending_blank = False
                self.comment_line(self.indent() + (STEP if closing else 0), text)
            else:  # inside a line of code: a line of its own, then the code continues
                width = self.continuation(self.prev, upcoming)
                self.close_line()
                self.comment_line(width, text)
                self.pending = SOFT

    # -- the stream

    def run(self, stream: list) -> str:
        self.mark_breaks(stream)
        for item in stream:
            if item == NL:
                self.pending = NL
            elif item == SOFT:
                if self.pending is None:
                    self.pending = SOFT
            elif item == BLANK:
                self.pending_blank = True
            elif item == INDENT:
                self.level += 1
            elif item == DEDENT:
                self.level -= 1
            else:
                self.put(item)
        self.pending = NL
        self.level = 0
        self.flush_comments(None)
        self.close_line()
        while self.lines and not self.lines[-1][0].strip() and self.lines[-1][1] is None:
            self.lines.pop()
        return self.render()

    def put(self, t: Tok) -> None:
        if t.start is not None:
            self.flush_comments(t)
        if self.pending == NL or self.cur is None and self.pending != SOFT:
            first_in_file = not self.lines and self.cur is None
            self.close_line()
            if not first_in_file and not t.closes_block and (
                    self.pending_blank or (t.line is not None and self.blank_before(t.line)
                                           and self.starts_line(t.line, t.column))):
                self.blank()
            self.brackets.clear()
            self.cont = self.chain_cont = None
            self.cur = " " * self.indent()
        elif self.pending == SOFT:
            self.start_line(self.continuation(self.prev, t))
        elif self.prev is not None and not (self.prev.glue_right or t.glue_left):
            self.cur += " "
        self.pending = None
        self.pending_blank = False
        self.cur += t.text
        if t.chain and not self.brackets and self.cur.strip() == t.text:
            self.chain_cont = len(self.cur) - len(t.text) + STEP
        if t.text in ("(", "[") and t.glue_right:
            self.brackets.append(len(self.cur))
        elif t.text in (")", "]") and t.glue_left and self.brackets:
            self.brackets.pop()
        self.prev = t

    @staticmethod
    def mark_breaks(stream: list) -> None:
        """Turn the author's line breaks at good places into soft breaks in the stream."""
        out = []
        n = len(stream)
        for k, item in enumerate(stream):
            broken = False
            if isinstance(item, Tok) and item.brk in ("after", "before") and \
                    item.line is not None:
                before = stream[k - 1] if k else None
                after = stream[k + 1] if k + 1 < n else None
                broken = isinstance(before, Tok) and isinstance(after, Tok) and \
                    before.end_line is not None and after.line is not None and \
                    (before.end_line < item.line or item.end_line < after.line)
            if isinstance(item, Tok) and (item.brk == "always" or
                                          item.brk == "before" and broken):
                out.append(SOFT)
            out.append(item)
            if broken and item.brk == "after":
                out.append(SOFT)
        stream[:] = out

    def render(self) -> str:
        lines = self.lines
        # align the trailing comments of a section: lines of code with no blank line and
        # no comment line between them
        k = 0
        while k < len(lines):
            j = k
            while j < len(lines) and lines[j][0].strip() and \
                    not lines[j][0].lstrip().startswith("#"):
                j += 1
            marked = [m for m in range(k, j) if lines[m][1] is not None]
            if marked:
                col = max(len(lines[m][0]) for m in marked) + 2
                for m in marked:
                    lines[m][0] = lines[m][0].ljust(col) + lines[m][1]
                    lines[m][1] = None
            k = max(j, k + 1)
        if not lines:
            return ""
        return "\n".join(line[0] for line in lines) + "\n"
