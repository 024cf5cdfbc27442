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


def through_chance(state, rng):
    """Resolve the chance nodes where `state` stands, each outcome drawn by its
    probability with `rng` (numpy's RandomState): an OpenSpiel state at its next decision."""
    while state.is_chance_node() and not state.is_terminal():
        outcomes = state.chance_outcomes()
        k = rng.choice(len(outcomes), p=[p for _, p in outcomes])
        state.apply_action(int(outcomes[k][0]))
    return state
