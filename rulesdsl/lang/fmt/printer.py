"""The token stream -> text: lines, indentation, continuation lines, and every comment put
back where it belongs."""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang.fmt.stream import Tok, STEP, NL, SOFT, BLANK, INDENT, DEDENT


class Printer:
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
