"""Saves on disk: where autosaves go and `rulesdsl saves` listing them newest first
(`--resume last` is the newest); saves, scripts and replays read within the size limit and
written atomically."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Optional

from rulesdsl.lang.errors import RulesError


def save_folder() -> str:
    return os.environ.get("RULESDSL_SAVES") or os.path.expanduser(SAVE_DIR)


def autosaves() -> list:
    """The save files (not replays), newest first: [(path, modified time)]."""
    folder = save_folder()
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    out = []
    for name in names:
        if not name.endswith(".json") or name.endswith(".replay.json"):
            continue
        path = os.path.join(folder, name)
        try:
            out.append((path, os.path.getmtime(path)))
        except OSError:
            continue
    return sorted(out, key=lambda x: (-x[1], x[0]))


def latest() -> str:
    """The newest autosave, for `--resume last`."""
    saves = autosaves()
    if not saves:
        raise RulesError("C001", f"there is no saved game in {save_folder()}",
                         hints=["a game with a person in it is saved there after every move"])
    return saves[0][0]


def _summary(path: str) -> str:
    """"My Game, 14 actions" from the file, or why it cannot be read."""
    from rulesdsl.lang.limits import read_text   # a FIFO among the saves must not hang
    try:
        data = json.loads(read_text(path, "C001", "save"))
    except (OSError, ValueError, RecursionError, RulesError):
        return "(cannot be read)"
    if not isinstance(data, dict):
        return "(not a saved game)"
    return _described(data)


def _described(data: dict) -> str:
    """"My Game, 14 actions" (", (over)" once finished) from a save's fields."""
    runner = data.get("runner") if isinstance(data.get("runner"), dict) else {}
    game = runner.get("game") or data.get("source") or "?"
    history = data.get("history")
    n = len(history) if isinstance(history, list) else "?"
    over = " (over)" if data.get("over") else ""
    return f"{os.path.basename(str(game))}, {n} actions{over}"


def list_saves(out=None) -> int:
    out = out or sys.stdout
    saves = autosaves()
    if not saves:
        print(f"no saved games in {save_folder()}", file=out)
        return 0
    print(f"saved games in {save_folder()}, newest first:", file=out)
    for k, (path, mtime) in enumerate(saves, 1):
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(mtime))
        print(f"  {k}. {when}  {os.path.basename(path)}  {_summary(path)}", file=out)
    print("continue one with: rulesdsl play --resume FILE  (the newest: --resume last)",
          file=out)
    return 0


def resolve_resume(value: Optional[str]) -> Optional[str]:
    """`--resume last` -> the newest autosave; any other value is a path."""
    if value is not None and value.strip().lower() == "last" and not os.path.exists(value):
        return latest()
    return value


def write_file(path: str, text: str, what: str) -> None:
    """Saves and replays: written atomically, never over a file that is not one (safefile)."""
    from rulesdsl.lang.safefile import is_save, write_atomic
    write_atomic(path, text, what, is_save, "a save or replay file")


def game_in_progress(data: bytes) -> Optional[str]:
    """What unfinished game a save holds ("gops.rules, 14 actions"), or None when `data` is
    no save of a game still in progress (a finished game, a replay, anything else)."""
    try:
        value = json.loads(data.decode("utf-8").removeprefix("\ufeff"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or value.get("format") != "rulesdsl-state" or \
            value.get("over") is True:
        return None
    return _described(value)


def write_save(path: str, text: str, *, known: Optional[str] = None, force: bool = False,
               forcing: str = "--force") -> None:
    """A save written atomically (write_file), never over another game still in progress:
    what is at `path` may be replaced only when it is finished, or is `known` (the text this
    game last wrote there or was resumed from), or with `force`. A refusal names the file,
    the game in it and how to force it (`forcing`), and changes nothing."""
    from rulesdsl.lang.safefile import is_save, shown_path, write_atomic

    def may_replace(old: bytes) -> bool:
        if not is_save(old):
            return False
        if force or (known is not None and
                     old.decode("utf-8", "replace").removeprefix("\ufeff") == known):
            return True
        other = game_in_progress(old)
        if other is not None:
            raise RulesError("C001", f"{shown_path(path)} holds another game still in "
                             f"progress ({other}); it is replaced only with {forcing}", None,
                             ["save this game in another file, or continue that one with: "
                              f"rulesdsl play --resume {shown_path(path)}"])
        return True

    write_atomic(path, text, "the save file", may_replace, "a save or replay file")


def read_script(path: str) -> list[str]:
    return _read_limited(path, "the script").splitlines()


def read_save(path: str) -> str:
    return _read_limited(path, "the saved game")


def _read_limited(path: str, what: str) -> str:
    """A file's text, refused past the file size limit before it is read whole."""
    from rulesdsl.lang.limits import read_text
    from rulesdsl.lang.safefile import shown_path
    try:
        return read_text(path, "C001", what.removeprefix("the "))
    except OSError as e:
        raise RulesError("C001", f"cannot read {what} {shown_path(path)}: "
                         f"{e.strerror or e}") from None


SAVE_DIR = os.path.join("~", ".rulesdsl", "saves")


def default_save_path(game) -> str:
    """Where a game is autosaved unless --save names a file: ~/.rulesdsl/saves/, or the
    folder named by the environment variable RULESDSL_SAVES."""
    import time
    stem = getattr(game, "source_name", None) or "game"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = os.environ.get("RULESDSL_SAVES") or os.path.expanduser(SAVE_DIR)
    path = os.path.join(folder, f"{stem}-{stamp}.json")
    k = 2
    while os.path.exists(path):
        path = os.path.join(folder, f"{stem}-{stamp}-{k}.json")
        k += 1
    return path


def replay_path_for(save_path: str) -> str:
    base = save_path[:-5] if save_path.endswith(".json") else save_path
    return base + ".replay.json"
