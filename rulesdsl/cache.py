"""Where rulesdsl keeps what it makes once and reuses: the parse tables, native modules."""

from __future__ import annotations

import os
from typing import Optional


def cache_folder(*parts: str) -> Optional[str]:
    """$RULESDSL_CACHE, else $XDG_CACHE_HOME/rulesdsl, else ~/.cache/rulesdsl (then `parts`
    below it), made if missing; None (no cache) when it cannot be made or written, or when
    RULESDSL_CACHE is "off"."""
    folder = os.environ.get("RULESDSL_CACHE")
    if folder == "off":
        return None
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
        folder = os.path.join(base, "rulesdsl")
    folder = os.path.join(folder, *parts)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    return folder
