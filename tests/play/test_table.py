"""Each bundled game as a new player meets it, through a real terminal (a pty): the screen
asks a question at every decision, shows what the rules declare a player looks at (and
no bookkeeping variable, no raw zone arrow), `rules` tells how to win and `? NAME`
explains a card."""

from __future__ import annotations

import random
import re

import pytest

from tests.play.test_terminal import PROMPT, interrupt, screen_text, spawn

pexpect = pytest.importorskip("pexpect")

# game: (players, words the rules text must hold, a card to explain and words of its text,
#        values the screen must show, names it must never show)
GAMES = {
    "triumvirat": (2, ["How to win", "emperor"], ("mob", "beats any card"),
                   ["tricks this round", "consuls"], ["influence_laid"]),
    "ivanhoe": (2, ["How to win", "trophy"], ("charge", "lowest value"),
                ["display total", "trophy colours"], ["played_now", "added_now",
                                                       "purple_winner"]),
    "condottiere": (2, ["How to win", "connected"], ("winter", "counts 1"),
                    ["army strength", "next to", "condottiere token"],
                    ["surrender_played", "bishop_played"]),
    "condottiere_edition2": (2, ["How to win", "no free region"], ("spring", "3 more"),
                             ["army strength", "next to"], ["surrender_played"]),
    "intrige": (3, ["How to win", "richest"], ("figure", "salary"),
                ["income per round", "ducats"], ["paid="]),
}


def question_of(screen: str) -> str:
    """The line just above the last `options:` (the decision's question)."""
    lines = [l.strip() for l in screen.replace("\r", "").split("\n")]
    k = max(i for i, l in enumerate(lines) if l.startswith("options:"))
    before = [l for l in lines[:k] if l]
    return before[-1] if before else ""


def options_count(screen: str) -> int:
    lines = screen.replace("\r", "").split("\n")
    k = max(i for i, l in enumerate(lines) if l.startswith("options:"))
    numbers = [int(m.group(1)) for line in lines[k + 1:]
               for m in re.finditer(r"(?:^|\s)(\d+)\. ", line)]
    return max(numbers) if numbers else 0


def check_screen(screen: str, hidden_names: list) -> str:
    assert " -> " not in screen, screen[-1500:]
    assert "(seat " not in screen
    for name in hidden_names:
        assert name not in screen, name
    question = question_of(screen)
    assert question.endswith("?") or question.endswith("how much?"), screen[-1500:]
    return question


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_new_player_at_the_table(game, tmp_path):
    players, about, (card, card_words), shown, hidden_names = GAMES[game]
    save = tmp_path / "game.json"
    seats = ",".join(["human"] + ["random"] * (players - 1))
    child = spawn(tmp_path, "play", game, "--players", str(players), "--seed", "7",
                  "--seats", seats, "--save", str(save))
    rng = random.Random(game)
    questions = []
    try:
        child.expect(PROMPT)
        screen = screen_text(child)
        questions.append(check_screen(screen, hidden_names))
        seen = screen
        child.sendline("rules")
        child.expect(PROMPT)
        rules = screen_text(child)
        for words in about:
            assert words in rules, words
        child.sendline(f"? {card}")
        child.expect(PROMPT)
        assert card_words in screen_text(child)
        for _ in range(12):
            amount = re.search(r"type an amount: ([\d,]+)", seen.split("options:")[-1])
            n = options_count(seen)
            assert n >= 1 or amount
            child.sendline(amount.group(1) if amount else
                           f"#{rng.randrange(n) + 1}" if n > 1 else "1")
            if child.expect([PROMPT, "game over after"]) == 1:
                break
            seen = screen_text(child)
            questions.append(check_screen(seen, hidden_names))
            for words in shown:
                if words in seen:
                    shown = [w for w in shown if w != words]
        assert not shown, f"never on screen: {shown}"
        interrupt(child)
    finally:
        child.close()
    # every question names the player asked, or the card that asks it
    assert all(re.search(r"\bP\d\b|^[A-Z][a-z]+( [a-z]+)?: ", q) for q in questions), questions
