"""What a decision's screen must hold at 80x24 and 120x40, read off a terminal emulator's
rows (pyte): shared by the pty test (test_screen_fits.py) and the in-process one that
goes through every decision of a game (test_every_decision_fits.py)."""

from __future__ import annotations

import re

from rulesdsl.lang.resources import bundled_games, example_games

SIZES = [(24, 80), (40, 120)]      # (rows, columns)


def games() -> list:
    """Every bundled game and example, by name."""
    return sorted(bundled_games()) + sorted(example_games())


def amounts(actions) -> bool:
    """A decision whose options are all numbers: typed as the amount itself."""
    return all(a.label.lstrip("-").isdigit() for a in actions)


def _flat(text: str) -> str:
    return " ".join(text.split())


def check_screen(rows: list, state, game, where: str) -> None:
    """The screen of P1, the person, at its prompt: the title bar whole on the top row (nothing
    scrolled off above it), the news's heading under it, the question and the first
    option (or the amounts) shown, a cut list of options saying how many there are, and
    the prompt on the last row written, inside the screen."""
    shown = "\n".join(rows)
    where = f"{game.name} at {where}:\n{shown}"
    # the title bar on the top row, whole: nothing scrolled off above it, and the flow
    # (cut from its outer end) not wrapped onto the next row
    assert game.name in rows[0] and "P1 to move" in rows[0], where
    path = state.phase_path()
    if path:
        assert rows[0].endswith(path[-1].replace("_", " ")), where
    # the news, if any, starts right under it, its heading with it
    heads = [k for k, r in enumerate(rows) if r.startswith(("since your last move:",
                                                            "so far:"))]
    assert heads in ([], [1]), where
    body = _flat(" ".join(rows))
    question = state.question()
    if question:
        assert _flat(question) in body, where
    actions = state.legal_actions()
    if amounts(actions):
        assert "type an amount" in body, where
    else:
        numbers = {int(n) for n in re.findall(r"(?:^|\s)(\d+)\. ", shown)}
        listed = len([n for n in numbers if n <= len(actions)])
        assert 1 in numbers, where
        if listed < len(actions):      # the rest said to be there, and how to reach them
            assert f"({len(actions):,} in all)" in body, where
    # the prompt on the last line written, inside the screen
    used = [k for k, r in enumerate(rows) if r.strip()]
    assert rows[used[-1]].startswith("P1>"), where
