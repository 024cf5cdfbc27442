"""Where rulesdsl keeps what it makes once and reuses: the parse tables, native modules.

The cache is trusted only as far as it can be shown to be this user's own: every folder
of it is owned by this user and writable by nobody else (the folders made here are made
0700), and every file read from it is a regular file owned by this user and writable by
nobody else. Anything else is refused with a warning (once per folder and process) and
the command runs without the cache: nobody else can plant what a later run reads. What it
reads is data (the parse tables are JSON), except native modules, which are loaded only
when their digest is the one the build recorded (engine/cython_build.py)."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import warnings
from typing import Optional

_warned: set = set()  # folders and files refused already in this process


def cache_folder(*parts: str) -> Optional[str]:
    """$RULESDSL_CACHE, else $XDG_CACHE_HOME/rulesdsl, else ~/.cache/rulesdsl (then `parts`
    below it), made if missing; None (no cache) when it cannot be made or written, when
    RULESDSL_CACHE is "off", or when a folder of it is not this user's own (a warning)."""
    root = os.environ.get("RULESDSL_CACHE")
    if root == "off":
        return None
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
        root = os.path.join(base, "rulesdsl")
    folder = os.path.abspath(root)
    if not _made(folder) or not _trusted_folder(folder) or not _steady_parents(folder):
        return None
    for part in parts:
        folder = os.path.join(folder, part)
        if not _made(folder) or not _trusted_folder(folder):
            return None
    return folder if os.access(folder, os.W_OK) else None


def _made(folder: str) -> bool:
    """The folder exists, or was made now with every missing parent readable by this user
    alone (os.makedirs gives the parents it makes the umask's mode)."""
    missing = []
    while not os.path.lexists(folder):
        missing.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    try:
        for path in reversed(missing):
            os.mkdir(path, 0o700)
    except FileExistsError:
        return True  # another process made it meanwhile: checked like any other
    except OSError:
        return False
    return True


def _owner_problem(info: os.stat_result) -> Optional[str]:
    """What makes a file or folder not this user's own, or None."""
    uid = getattr(os, "getuid", None)
    if uid is not None and info.st_uid != uid():
        return f"it belongs to user {info.st_uid}, not to you ({uid()})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "others may write to it"
    return None


def _refuse(path: str, problem: str, fix: str) -> None:
    if path in _warned:
        return
    _warned.add(path)
    warnings.warn(f"rulesdsl: the cache {path!r} is not used: {problem}; {fix} (or point "
                  "RULESDSL_CACHE at a folder of your own, or set it to off)",
                  RuntimeWarning, stacklevel=3)


def _trusted_folder(folder: str) -> bool:
    try:
        info = os.stat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    problem = _owner_problem(info)
    if problem is not None:
        _refuse(folder, problem, f"make it yours alone (chmod 700 {folder!r}) or remove it")
        return False
    return True


def _steady_parents(folder: str) -> bool:
    """No folder above the cache lets anyone rename what is in it: none is writable by
    all without the sticky bit (/tmp has it)."""
    parent = os.path.dirname(folder)
    while True:
        try:
            mode = os.stat(parent).st_mode
        except OSError:
            return False
        if mode & stat.S_IWOTH and not mode & stat.S_ISVTX:
            _refuse(folder, f"anyone may rename what is in {parent!r}",
                    f"chmod o-w {parent!r} or choose another folder")
            return False
        above = os.path.dirname(parent)
        if above == parent:
            return True
        parent = above


def read_trusted(path: str) -> Optional[bytes]:
    """A cache file's bytes: None when it is missing, or (with a warning) when it is not a
    regular file of this user's that nobody else may write. Checked on the open file, so
    what is read is what was checked."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) |
                     getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        problem = "it is not a regular file" if not stat.S_ISREG(info.st_mode) else \
            _owner_problem(info)
        if problem is not None:
            _refuse(path, problem, f"remove it (rm {path!r})")
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def write_atomic(path: str, data: bytes) -> bool:
    """Write a cache file whole (a fresh file of this user's, readable by nobody else,
    then renamed over the old one); False where the folder takes nothing."""
    try:
        f = tempfile.NamedTemporaryFile("wb", dir=os.path.dirname(path), suffix=".tmp",
                                        delete=False)
    except OSError:
        return False
    try:
        with f:
            f.write(data)
        os.replace(f.name, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(f.name)
        return False
    return True
