"""Files in and out so that nothing hangs and nothing is lost.

Reading (rules files, scenarios, replays, saves, scripts, files to extend): `open_regular`
opens only a regular file, without ever waiting. A FIFO, `/dev/stdin` on a terminal, a
device, a folder, or a name holding a NUL is refused as an OSError that says what it is,
which every reader already turns into its own coded error.

Writing (saves, replays, `fmt` output): the text goes to a fresh temporary file in the
same folder (tempfile.mkstemp: an unpredictable name, created exclusively), is flushed to
disk, and then replaces the target in one rename. A failure (a full disk) leaves the old
file as it was. What is already at the target must be a regular file that `may_replace`
accepts: a symbolic link, a device, a folder or a file of another sort is never
overwritten, nor followed.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from typing import BinaryIO, Callable, Optional

from rulesdsl.lang.errors import RulesError


def shown_path(path) -> str:
    """A path as a message prints it: control characters (NUL, ESC, a newline) escaped so
    that the terminal shows them rather than obeys them; a very long one shortened."""
    from rulesdsl.lang.errors import visible
    text = os.fspath(path) if isinstance(path, os.PathLike) else path
    text = visible(text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text))
    return text if len(text) <= 200 else text[:100] + "..." + text[-60:]


_SORTS = ((stat.S_ISDIR, errno.EISDIR, "a folder"),
          (stat.S_ISFIFO, errno.EINVAL, "a named pipe (FIFO)"),
          (stat.S_ISCHR, errno.EINVAL, "a device"),
          (stat.S_ISBLK, errno.EINVAL, "a device"),
          (stat.S_ISSOCK, errno.EINVAL, "a socket"))


def _refuse_unless_regular(mode: int, name: str) -> None:
    """OSError unless `mode` is a regular file's, naming the sort of thing it is instead."""
    if stat.S_ISREG(mode):
        return
    number, sort = next(((n, what) for test, n, what in _SORTS if test(mode)),
                        (errno.EINVAL, "not a file"))
    raise OSError(number, f"it is {sort}, not a regular file", name)


_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def open_regular(path) -> BinaryIO:
    """A regular file opened for reading in binary, or OSError (with a strerror for people).

    Never waits: a FIFO, a terminal or another device, a socket or a folder is refused
    before it is opened (stat), and again after (fstat of the descriptor, opened with
    O_NONBLOCK), so a name swapped for a FIFO in between cannot hang the reader. A name
    holding a NUL, or text no file name can hold, is refused without touching the disk."""
    name = os.fspath(path)
    if (b"\0" if isinstance(name, bytes) else "\0") in name:
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL character", shown_path(name))
    try:
        _refuse_unless_regular(os.stat(name).st_mode, name)
        fd = os.open(name, _READ_FLAGS)
    except ValueError:   # a lone surrogate from JSON: no file can have this name
        raise OSError(errno.EINVAL, "the file name is not valid text",
                      shown_path(name)) from None
    try:
        _refuse_unless_regular(os.fstat(fd).st_mode, name)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return open(fd, "rb")  # the caller closes it
    except BaseException:
        os.close(fd)
        raise


def write_atomic(path: str, text: str, what: str,
                 may_replace: Optional[Callable[[bytes], bool]] = None, kind: str = "",
                 code: str = "C001") -> None:
    """Write `text` (UTF-8) to `path` in one step, or raise RulesError(code) and change nothing.
    `may_replace(old bytes)` says whether what is there may go; it may instead raise a
    RulesError of its own, to say why not."""
    from rulesdsl.lang.limits import limit   # limits reads files through this module
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
                with open_regular(path) as f:
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
