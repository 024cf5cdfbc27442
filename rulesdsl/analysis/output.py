"""Files a simulation writes besides its report: one JSON line per game."""

from __future__ import annotations

import json

from rulesdsl.lang.errors import RulesError


def write_games(result, path: str) -> None:
    """--games-out: one JSON object per line, per game, in game order."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            for record in result.game_records():
                f.write(json.dumps(record) + "\n")
    except OSError as e:
        raise RulesError("C001", f"cannot write {path}: {e.strerror or e}",
                         hints=["check that the folder exists and can be written"]) from None
