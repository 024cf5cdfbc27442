"""What a seat's messages are made of, without a server: the log kept between messages
reads as the whole log told again, also after the game is taken back to an earlier point."""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl.web.seatview import Stories, seat_message, story_of

from _web import GAME_FILES


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_the_kept_log_is_the_log(path):
    game = rulesdsl.load(str(path))
    state = game.new_game(players=game.min_players, seed=2)
    start = state.clone()
    pick = random.Random(2)
    stories = Stories()
    seats = list(range(state.players)) + [None]
    for step in range(60):
        if state.is_over:
            break
        state.apply(pick.choice(state.legal_actions()).label)
        if step % 5 == 0:
            for seat in seats:
                assert stories.lines(state, seat) == story_of(state, seat)
    earlier = start.clone()                  # taken back to the fourth action (undo)
    for label in state.history[:4]:
        earlier.apply(label)
    for seat in seats:
        assert stories.lines(earlier, seat) == story_of(earlier, seat)
        message = seat_message(earlier, seat, ["P1"] * earlier.players, stories)
        assert message["log"] == story_of(earlier, seat)


def test_a_spectator_reads_a_hidden_draw_as_the_others_do():
    """A spectator reads a deal to P1 as P2 reads it, never as P1 does."""
    game = rulesdsl.load(str(next(p for p in GAME_FILES if p.stem == "crazy_eights")))
    state = game.new_game(players=2, seed=1)
    public = story_of(state, None)
    assert "7 cards: from the stock to P1's hand" in public
    assert "7 cards: from the stock to P2's hand" in public
    dealt = set(state.zone("hand[P1]")) | set(state.zone("hand[P2]"))
    assert not any(card in line for line in public for card in dealt)
