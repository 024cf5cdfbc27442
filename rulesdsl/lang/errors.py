"""One family of errors for everything that comes from outside, and how they are shown.

A RulesError names a code, a message written for the person who must act on it, the span
where it happened, and hints (advice, "did you mean ...?"). `render` prints it the way
compilers do: `path:line:col: error[CODE]: message`, the source line and a caret.
"""

from __future__ import annotations

import difflib
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
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span
        self.hints = tuple(hints)
        self.trace = tuple(trace)  # the phases being run, outermost first (runtime errors)

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        text = f"{where}{self.severity}[{self.code}]: {self.message}"
        for hint in self.hints:
            text += f"\n  hint: {hint}"
        return text

    def sort_key(self):
        s = self.span
        return (s.path, s.line, s.column, self.code) if s else ("", 0, 0, self.code)


class RulesWarning(RulesError):
    """Something legal but probably not meant, reported by the checker."""

    severity = "warning"


class CheckFailed(RulesError):
    """A rules file did not pass the checker; `errors` holds every problem, sorted."""

    def __init__(self, errors: Sequence[RulesError], warnings: Sequence[RulesError] = ()):
        errors = sorted(errors, key=RulesError.sort_key)
        first = errors[0]
        super().__init__(first.code, first.message, first.span, first.hints)
        self.errors = list(errors)
        self.warnings = list(warnings)

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


def render(error: RulesError, sources: Optional[dict] = None) -> str:
    """The error with its source line and a caret under the place, as compilers print them."""
    lines = [str(error).split("\n")[0]]
    span = error.span
    text = None
    if span is not None:
        if sources and span.path in sources:
            text = sources[span.path]
        else:
            from rulesdsl.lang.limits import limit
            from rulesdsl.lang.safefile import open_regular   # a FIFO there must not hang
            try:
                with open_regular(span.path) as f:
                    text = f.read(limit("file_bytes")).decode("utf-8", errors="replace")
            except OSError:
                text = None
    if span is not None and text is not None:
        source_lines = text.splitlines()
        if 1 <= span.line <= len(source_lines):
            src = source_lines[span.line - 1].expandtabs(1)
            width = 1
            if span.end_line == span.line and span.end_column > span.column:
                width = span.end_column - span.column
            lineno = f"{span.line:>4} | "
            lines.append(lineno + src)
            lines.append(" " * (len(lineno) + span.column - 1) + "^" * max(1, width))
    for hint in error.hints:
        lines.append(f"  hint: {hint}")
    for phase in error.trace:
        lines.append(f"  in {phase}")
    return "\n".join(lines)
