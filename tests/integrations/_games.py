"""Every bundled game and example, at its fewest and most players: what the integration
tests run over."""

from pathlib import Path

import rulesdsl
from rulesdsl.lang.resources import bundled_games

ROOT = Path(__file__).resolve().parents[2]


def every_game():
    """(name or path, players) for each bundled game and example at both player counts."""
    out = []
    for name in bundled_games() + sorted(str(p) for p in (ROOT / "examples").glob("*.rules")):
        game = rulesdsl.load(name)
        for n in sorted({game.min_players, game.max_players}):
            out.append((name, n))
    return out


def short(name: str) -> str:
    return Path(name).stem
