"""Chunked error files: many small bad rules programs, each with the errors it must produce.

The files `errors_*.txt` next to this one hold rules programs separated by lines that are
exactly `---` (as starlark-go's testdata does). Every chunk is a whole program: it names its
game, its players, a phase and the flow, so that the only errors are the intended ones.

An expected error is written at the end of the line where it must be reported:

    zone hand per playr private   ### E205 col=15 "'playr' is not" hint="did you mean 'player'?"

- `###` starts an annotation; a line may carry several (`### E300 ... ### E301 ...`).
  The annotation is cut from the text (with the spaces before it) before the chunk is
  checked, so it never changes what is parsed, nor the place of an end-of-file error.
- `CODE` is the error code; `col=N` the column (from 1); the line is the annotated line,
  counted from the first line of the chunk.
- The message is `"a substring"` (backslash escapes `\\"`) or `/a regular expression/`
  (searched for, not matched whole).
- `hint="..."` or `hint=/.../` must match one of the error's hints; without it, hints are
  not checked.
- A code starting with `W` expects a warning; warnings not annotated are ignored.

Every error the checker reports must be expected and every expectation must be met; a chunk
without annotations must check cleanly. A Python exception (rather than a RulesError) fails
the test: the checker must never crash on bad input.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed, RulesError
from rulesdsl.lang.extend import load_tree

HERE = Path(__file__).resolve().parent
FILES = sorted(HERE.glob("errors_*.txt"))
MARK = "###"

_TEXT = r'"(?:[^"\\]|\\.)*"|/(?:[^/\\]|\\.)*/'
ANNOTATION = re.compile(rf"""^\s*(?P<code>[EW]\d{{3}})\s+col=(?P<col>\d+)\s+(?P<msg>{_TEXT})
                             (?:\s+hint=(?P<hint>{_TEXT}))?\s*$""", re.X)


@attrs.frozen
class Pattern:
    """A substring ("...") or a regular expression (/.../) to find in a text."""
    source: str

    def matches(self, text: str) -> bool:
        body = self.source[1:-1]
        if self.source.startswith("/"):
            return re.search(body.replace("\\/", "/"), text) is not None
        return re.sub(r"\\(.)", r"\1", body) in text

    def __str__(self) -> str:
        return self.source


@attrs.frozen
class Expected:
    line: int
    code: str
    column: int
    message: Pattern
    hint: Pattern | None

    def met_by(self, e: RulesError) -> bool:
        return (e.span is not None and e.span.line == self.line and e.span.column == self.column
                and e.code == self.code and self.message.matches(e.message)
                and (self.hint is None or any(self.hint.matches(h) for h in e.hints)))

    def __str__(self) -> str:
        hint = f" hint={self.hint}" if self.hint else ""
        return f"line {self.line}: {self.code} col={self.column} {self.message}{hint}"


@attrs.frozen
class Chunk:
    file: str
    number: int  # from 1
    first_line: int  # the line of the file where the chunk starts
    text: str  # the program, annotations cut away
    expected: tuple


def parse_annotations(comment: str, line: int, where: str) -> list[Expected]:
    out = []
    for part in comment.split(MARK)[1:]:
        m = ANNOTATION.match(part)
        if m is None:
            raise ValueError(f"{where}: bad annotation {MARK}{part!r}; write "
                             f'{MARK} CODE col=N "message" [hint="..."]')
        out.append(Expected(line, m["code"], int(m["col"]), Pattern(m["msg"]),
                            Pattern(m["hint"]) if m["hint"] else None))
    return out


def split_chunks(path: Path) -> list[Chunk]:
    chunks, lines, expected, first = [], [], [], 1

    def flush():
        chunks.append(Chunk(path.name, len(chunks) + 1, first, "\n".join(lines) + "\n",
                            tuple(expected)))

    for file_line, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if raw.rstrip() == "---":
            flush()
            lines, expected, first = [], [], file_line + 1
            continue
        code, mark, comment = raw.partition(MARK)
        if mark:
            expected += parse_annotations(mark + comment, len(lines) + 1,
                                          f"{path.name}:{file_line}")
            raw = code.rstrip()
        lines.append(raw)
    flush()
    return chunks


def check_text(text: str, path: str) -> tuple[list[RulesError], list[RulesError]]:
    """Errors and warnings of a rules program given as text."""
    sources: dict = {}
    try:
        tree = load_tree(text, path, sources)
        _, warnings = check_file_tree(tree, sources)
    except CheckFailed as failed:
        return list(failed.errors), list(failed.warnings)
    except RulesError as e:  # a syntax error, or an error in loading
        return [e], []
    return [], list(warnings)


def describe(e: RulesError, first_line: int) -> str:
    line = e.span.line if e.span else 0
    hints = "".join(f' hint="{h}"' for h in e.hints)
    return (f'line {line} (file line {first_line + line - 1}): '
            f'{MARK} {e.code} col={e.span.column if e.span else 0} "{e.message}"{hints}')


CHUNKS = [c for f in FILES for c in split_chunks(f)]


def test_the_files_are_there():
    names = {f.name for f in FILES}
    for kind in ("syntax", "names", "types", "arity", "duplicates", "structure"):
        assert f"errors_{kind}.txt" in names
    assert sum(len(c.expected) > 0 for c in CHUNKS) >= 40


def mismatches(chunk: Chunk) -> tuple[list[str], list[RulesError]]:
    """What differs between the chunk's annotations and the checker's report; and the report."""
    path = f"{chunk.file}#{chunk.number}"
    errors, warnings = check_text(chunk.text, path)
    problems = []
    for e in errors:
        if e.span is None or e.span.path != path:
            problems.append(f"an error without a place in this chunk: {e}")
    unmatched = errors + warnings
    for x in chunk.expected:
        pool = warnings if x.code.startswith("W") else errors
        hit = next((e for e in pool if any(e is u for u in unmatched) and x.met_by(e)), None)
        if hit is None:
            problems.append(f"expected but not reported: {x}")
        else:
            unmatched = [u for u in unmatched if u is not hit]
    for e in unmatched:
        if e.severity == "warning":
            continue  # warnings need not be annotated
        problems.append(f"reported but not expected: {describe(e, chunk.first_line)}")
    return problems, errors + warnings


@pytest.mark.parametrize("chunk", CHUNKS, ids=[f"{c.file}:{c.number}" for c in CHUNKS])
def test_chunk(chunk: Chunk):
    problems, reported = mismatches(chunk)
    if problems:
        got = "\n".join("  " + describe(e, chunk.first_line) for e in reported) or "  none"
        pytest.fail(f"{chunk.file} chunk {chunk.number} (from file line {chunk.first_line}):\n"
                    + "\n".join(problems) + f"\nall reported:\n{got}", pytrace=False)


# ---------------------------------------------------------------- the harness itself

SAMPLE = """game "T"
players 2
flow main
phase main {
  if 3 { }   ### ANNOTATION
}
"""


@pytest.mark.parametrize("annotation, ok", [
    ('E301 col=6 "an if needs a true/false condition"', True),
    ('E301 col=6 /needs a true.false condition, not a (number|card)$/', True),
    ('E301 col=6 "an if" hint="compare with =="', True),
    ('W700 col=1 "never used" ### E301 col=6 "an if"', False),  # no such warning
    ('E301 col=7 "an if"', False),  # wrong column
    ('E300 col=6 "an if"', False),  # wrong code
    ('E301 col=6 "a while"', False),  # wrong message
    ('E301 col=6 "an if" hint="did you mean"', False),  # wrong hint
    ('E301 col=6 "an if" ### E301 col=6 "an if"', False),  # one error, two expected
])
def test_harness_compares_every_part(tmp_path, annotation, ok):
    path = tmp_path / "errors_sample.txt"
    path.write_text(SAMPLE.replace("ANNOTATION", annotation) + "---\n" + SAMPLE
                    .replace("   ### ANNOTATION", ""))
    first, second = split_chunks(path)
    assert first.first_line == 1 and second.first_line == 8
    assert "###" not in first.text and first.text.splitlines()[4] == "  if 3 { }"
    assert (mismatches(first)[0] == []) is ok
    assert len(mismatches(second)[0]) == 1  # an error that nothing expects


def test_harness_rejects_a_malformed_annotation(tmp_path):
    path = tmp_path / "errors_sample.txt"
    path.write_text(SAMPLE.replace("ANNOTATION", "E301 at column 6"))
    with pytest.raises(ValueError, match="bad annotation"):
        split_chunks(path)
