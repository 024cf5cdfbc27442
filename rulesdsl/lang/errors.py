"""One family of errors for everything that comes from outside, and how they are shown.

A RulesError names a code, a message written for the person who must act on it, the span
where it happened, and hints (advice, "did you mean ...?"). `render` prints it the way
compilers do: `path:line:col: error[CODE]: message`, the source line and a caret.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import re
from typing import Iterable, Optional, Sequence

import attrs


@attrs.frozen(order=True)
class Span:
    """A region of a source file; lines and columns count from 1."""
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    start: int = 0
    end: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class RulesError(Exception):
    """An error in a rules file, a scenario, a save file or an action, for a person to fix."""

    severity = "error"

    def __init__(self, code: str, message: str, span: Optional[Span] = None,
                 hints: Sequence[str] = (), trace: Sequence[str] = ()):
        message = visible(message)  # a name or label from a file may hold ESC
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span
        self.hints = tuple(visible(h) for h in hints)
        # the phases being run, outermost first (runtime errors)
        self.trace = tuple(visible(t) for t in trace)

    @property
    def meaning(self) -> Optional[str]:
        """What the code means, in one line (rulesdsl/lang/codes.py), for tools."""
        from rulesdsl.lang.codes import meaning
        return meaning(self.code)

    def __str__(self) -> str:
        where = f"{visible(str(self.span))}: " if self.span else ""
        text = f"{where}{self.severity}[{self.code}]: {self.message}"
        for hint in self.hints:
            text += f"\n  hint: {hint}"
        return text

    def sort_key(self):
        s = self.span
        return (s.path, s.line, s.column, self.code) if s else ("", 0, 0, self.code)

    # what is not sent along when the error crosses to another process (a checker's
    # model): None on arrival
    _stays_here: tuple = ()

    def __reduce__(self):
        """Pickled as its fields, whatever the subclass's constructor takes: an error a
        worker process raises reaches the server whole."""
        fields = {k: v for k, v in self.__dict__.items() if k not in self._stays_here}
        return _restore_error, (type(self), self.args, fields)


def _restore_error(cls, args, fields):
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(dict.fromkeys(cls._stays_here), **fields)
    return error


class RulesWarning(RulesError):
    """Something legal but probably not meant, reported by the checker."""

    severity = "warning"


class CheckFailed(RulesError):
    """A rules file did not pass the checker; `errors` holds every problem, sorted.
    `model` is what the checker learned on the way (types of what did check), for tools
    that help while a file is being written; never compiled or run."""

    def __init__(self, errors: Sequence[RulesError], warnings: Sequence[RulesError] = (),
                 model: object = None):
        errors = sorted(errors, key=RulesError.sort_key)
        first = errors[0]
        super().__init__(first.code, first.message, first.span, first.hints)
        self.errors = list(errors)
        self.warnings = list(warnings)
        self.model = model

    _stays_here = ("model",)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


class IllegalAction(RulesError):
    """An action that is not among the legal ones; the state is unchanged."""

    def __init__(self, message: str, hints: Sequence[str] = ()):
        super().__init__("A001", message, None, hints)


class RuntimeRulesError(RulesError):
    """The rules did something impossible while running (a step limit, an empty decision)."""


def did_you_mean(name: str, candidates: Iterable[str]) -> list[str]:
    """At most one close match, phrased as a hint."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return [f"did you mean '{close[0]}'?"] if close else []


class LineTable:
    """A text split into lines once, with the offset where each line starts: a source line,
    an offset's line and column, and a line and column's offset, each without rescanning
    the text (a file of thousands of declarations has thousands of messages).

    Lines end at a newline only, as the parser counts them (a form feed or U+2028 does not
    end one; a trailing carriage return is dropped); lines and columns count from 1."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    def __len__(self) -> int:
        return len(self.starts)

    def line(self, number: int) -> Optional[str]:
        """The text of line `number`, or None past the ends."""
        if not 1 <= number <= len(self.starts):
            return None
        end = self.starts[number] - 1 if number < len(self.starts) else len(self.text)
        return self.text[self.starts[number - 1]:end].removesuffix("\r")

    def position(self, offset: int) -> tuple[int, int]:
        """The line and column of a character offset."""
        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index] + 1

    def offset(self, line: int, column: int) -> int:
        """The character offset of a line and column (clamped to the text's lines)."""
        line = min(max(line, 1), len(self.starts))
        return self.starts[line - 1] + column - 1


_NEWLINE = re.compile("\n")


@functools.lru_cache(maxsize=8)
def line_table(text: str) -> LineTable:
    """The line table of a text, built once per text: a string's hash is kept by the string,
    so asking again for the same text costs no scan."""
    return LineTable(text)


# Shown as escapes wherever a message or a source line is printed: C0 and C1 control
# characters (ESC would recolour or retitle the terminal), line and paragraph separators,
# the bidirectional controls that reorder what is shown (U+200E..U+200F, U+202A..U+202E,
# U+2066..U+2069, U+061C), and lone surrogates (a file name no text encoding can print).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f"
                          "\u202a-\u202e\u2066-\u2069\u061c\ud800-\udfff]")


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """The text with every control character shown as an escape (ESC as \\x1b), so that
    printing it cannot move the cursor, recolour the terminal or fake another line."""
    return _UNPRINTABLE.sub(lambda m: _escape(m.group()), text)


EXCERPT_CHARS = 160  # past this, an excerpt shows a window of the line around the place


def excerpt(source_line: str, column: int, width: int) -> tuple[str, int, int]:
    """A source line made safe to print, and the caret's column and width in it: a tab is
    one space (as before) and a control character its escape, so the caret moves with it.
    A line longer than EXCERPT_CHARS is cut to a window around the place, marked '...'."""
    def shown(text: str) -> str:
        return visible(text.replace("\t", " "))
    line = shown(source_line)
    before, marked = source_line[:column - 1], source_line[column - 1:column - 1 + width]
    past_end = max(0, column - 1 - len(source_line))   # a place after the line's last character
    column, width = len(shown(before)) + past_end + 1, max(1, len(shown(marked)))
    if len(line) <= EXCERPT_CHARS:
        return line, column, width
    start = max(0, min(column - 1 - EXCERPT_CHARS // 4, len(line) - EXCERPT_CHARS))
    window = line[start:start + EXCERPT_CHARS]
    head = "..." if start > 0 else ""
    tail = "..." if start + EXCERPT_CHARS < len(line) else ""
    column = column - start + len(head)
    width = max(1, min(width, EXCERPT_CHARS - (column - len(head) - 1)))
    return head + window + tail, column, width


class SourceExcerpts:
    """Renders errors with their source lines, reading and splitting each file once however
    many errors it shows (`sources` maps paths to texts already read)."""

    def __init__(self, sources: Optional[dict] = None):
        self.sources = dict(sources or {})
        self.tables: dict = {}

    def table(self, path: str) -> Optional[LineTable]:
        if path not in self.tables:
            text = self.sources.get(path)
            if text is None:
                text = _read_text(path)
            self.tables[path] = line_table(text) if text is not None else None
        return self.tables[path]

    def render(self, error: RulesError) -> str:
        """The error with its source line and a caret under the place, as compilers print them."""
        lines = [str(error).split("\n")[0]]
        span = error.span
        table = self.table(span.path) if span is not None else None
        source_line = table.line(span.line) if table is not None and span is not None \
            else None
        if source_line is not None and span is not None:
            width = 1
            if span.end_line == span.line and span.end_column > span.column:
                width = span.end_column - span.column
            shown, column, width = excerpt(source_line, span.column, width)
            lineno = f"{span.line:>4} | "
            lines.append(lineno + shown)
            lines.append(" " * (len(lineno) + column - 1) + "^" * width)
        for hint in error.hints:
            lines.append(f"  hint: {hint}")
        for phase in error.trace:
            lines.append(f"  in {phase}")
        return "\n".join(lines)


def _read_text(path: str) -> Optional[str]:
    from rulesdsl.lang.limits import limit
    from rulesdsl.lang.safefile import open_regular   # a FIFO there must not hang
    try:
        with open_regular(path) as f:
            return f.read(limit("file_bytes")).decode("utf-8", errors="replace")
    except (OSError, ValueError):  # ValueError: a path holding NUL
        return None


def render(error: RulesError, sources: Optional[dict] = None) -> str:
    """One error with its source line and caret (`SourceExcerpts` renders many, reading
    each file once)."""
    return SourceExcerpts(sources).render(error)
