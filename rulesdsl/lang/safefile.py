"""Writing a file so that nothing is lost: saves, replays and `fmt` output.

The text goes to a fresh temporary file in the same folder (tempfile.mkstemp: an
unpredictable name, created exclusively), is flushed to disk, and then replaces the
target in one rename. A failure (a full disk) leaves the old file as it was. What is
already at the target must be a regular file that `may_replace` accepts: a symbolic link,
a device, a folder or a file of another sort is never overwritten, nor followed.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from typing import Callable, Optional

from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.limits import limit


def write_atomic(path: str, text: str, what: str,
                 may_replace: Optional[Callable[[bytes], bool]] = None, kind: str = "",
                 code: str = "C001") -> None:
    """Write `text` (UTF-8) to `path` in one step, or raise RulesError(code) and change nothing."""
    path = os.fspath(path)
    if "\0" in path:
        raise RulesError(code, f"cannot write {what}: a file name cannot hold a NUL character")
    folder = os.path.dirname(os.path.abspath(path))
    mode = None
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as e:
        raise RulesError(code, f"cannot write {what} {path}: {e.strerror or e}") from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise RulesError(code, f"{path} is a symbolic link; {what} is not written through it",
                             None, ["remove the link, or name the file it points to"])
        if not stat.S_ISREG(info.st_mode):
            raise RulesError(code, f"{path} is not a regular file; {what} would replace it",
                             None, ["choose another file name"])
        if may_replace is not None and info.st_size:
            try:
                with open(path, "rb") as f:
                    old = f.read(limit("file_bytes") + 1)
            except OSError as e:
                raise RulesError(code, f"cannot read {path}: {e.strerror or e}") from None
            if not may_replace(old):
                raise RulesError(code, f"{path} already exists and is not {kind or what}; "
                                 f"{what} does not replace it", None,
                                 ["choose another file name"])
        mode = stat.S_IMODE(info.st_mode)
    tmp = None
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.",
                                   suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise RulesError(code, f"cannot write {what} {path}: {e.strerror or e}; the file is "
                         "left as it was") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def is_save(data: bytes) -> bool:
    """A save or replay this program wrote: JSON whose format starts with 'rulesdsl-'."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(value, dict) and str(value.get("format", "")).startswith("rulesdsl-")
