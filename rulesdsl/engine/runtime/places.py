"""Places in the rules: the comment generated code carries for an instruction, and the
instruction a failure inside a generated function stands for."""

from __future__ import annotations

import os
import re
from typing import Optional

# letters and digits of any script, and a few signs: never a line break or a quote
_PLAIN = re.compile(r"[\w.,:()+ -]*")


def quoted(text) -> str:
    """Text from outside the checked tree (a file name, a title, a label) as generated
    code holds it: a Python string literal on one line. repr escapes every character a
    tokenizer or an editor might take for a line break (\\n, \\r, \\x0b, \\x0c, \\x1c-\\x1e,
    \\x85, \\u2028, \\u2029), every quote and every backslash."""
    return repr(str(text))


def comment_text(text) -> str:
    """Text for a `#` comment of the generated code: as it is where it is plain (letters,
    digits, spaces and `_.,:()+-`), else `quoted`: whatever a file is named, the comment
    ends on its own line."""
    text = str(text)
    return text if _PLAIN.fullmatch(text) else quoted(text)


def rules_place(span) -> str:
    """A comment's reference to the rules: file name and line (`--show` adds the text)."""
    return f"{comment_text(os.path.basename(span.path))}:{int(span.line)}"


def failing_pc(proc, tb) -> Optional[int]:
    """The instruction a traceback through a generated function failed at: the generated
    line the failure is on, in the procedure's map of lines to instructions."""
    run = getattr(proc, "run", None)
    if run is None:
        return None
    code = run.__code__
    lines = None
    while tb is not None:
        f = tb.tb_frame.f_code  # a native module's frames carry its file, name and line
        if f is code or (f.co_filename == code.co_filename and
                         f.co_name.rsplit(".", 1)[-1] == code.co_name):
            lines = tb.tb_lineno
        tb = tb.tb_next
    if lines is None:
        return None
    return proc.owner_lines.get(lines)
