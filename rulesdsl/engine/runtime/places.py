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


def failing_place(procs, proc, tb) -> Optional[tuple]:
    """(procedure, instruction) a traceback through generated functions failed at: the
    innermost frame of a procedure's generated function (a phase runs the phases it calls
    at once, generate._run_called, so the failure may be in one of those), the generated
    line it is on mapped to its instruction. `proc` is the one the machine ran; None where
    the traceback passes through no generated function."""
    run = getattr(proc, "run", None)
    if run is None:
        return None
    filename = run.__code__.co_filename
    by_name = {p.run.__code__.co_name: p for p in procs if getattr(p, "run", None) is not None}
    found = None
    while tb is not None:
        f = tb.tb_frame.f_code  # a native module's frames carry its file, name and line
        if f.co_filename == filename:
            owner = by_name.get(f.co_name.rsplit(".", 1)[-1])
            if owner is not None:
                found = (owner, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return None
    pc = found[0].owner_lines.get(found[1])
    return None if pc is None else (found[0], pc)
