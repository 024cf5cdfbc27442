"""No command at a `play` prompt tells a seat more than its view and its story.

Two properties, over every bundled game and example (and the rules files here that hold
secrets), at the fewest and the most players, after random play to a random point:

- indistinguishable states read the same: for the seat to move, the screen of the runner
  (the view laid out, the recent log, the question and the options), `log`, `rules` and
  `? NAME` are the same on the real state and on `state.determinize(seat, k)`;
- `history` tells nothing the table did not: where another seat's options leave a seat
  with the same view and story, the seat's `history` line for that move is the same
  whichever option was taken (a secret bid of 3 must not read "P1: bid 3" because card 3
  happens to lie face up).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rulesdsl
from rulesdsl.play.runner import Runner, log_lines

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
GAMES = sorted(str(p) for p in (ROOT / "games").glob("*.rules")) + \
    sorted(str(p) for p in (ROOT / "examples").glob("*.rules")) + \
    [str(ROOT / "tests" / "lang" / "ask_together.rules"), str(HERE / "secret_words.rules")]
LOADED: dict = {}
MOVES_COMPARED = 8  # a mover's options tried per point: enough to meet the ones alike


def game_of(path):
    if path not in LOADED:
        LOADED[path] = rulesdsl.load(path)
    return LOADED[path]


def runner_for(state):
    """A runner of people only, writing to a string: what each command prints is read
    back from it."""
    return Runner(state, ["human"] * state.players, out=io.StringIO(),
                  inp=io.StringIO(""), plain=True, game=state.game)


def printed(runner, command) -> str:
    out = runner._out
    start = len(out.getvalue())
    command()
    return out.getvalue()[start:]


def prompt_outputs(runner, seat) -> dict:
    """What the runner prints for `seat` at its prompt, command by command."""
    state = runner.state
    cards = sorted(set(state.prog.card_label))[:2]
    return {
        "screen": printed(runner, lambda: runner.show_options(
            seat, runner.hand_order(state.legal_actions(), seat))),
        "log": log_lines(state, seat),
        "rules": printed(runner, runner.show_rules),
        "explain": [printed(runner, lambda c=c: runner.explain(c)) for c in cards],
    }


def observation(state, seat) -> str:
    """All the seat may know: its view (the log in it), its story and the shown values."""
    return json.dumps([state.view(seat), state.story(seat), state.shown(seat),
                       state.question() if state.to_move == seat else None],
                      sort_keys=True, default=str)


@st.composite
def points(draw, path):
    """A game at the fewest or the most players, played at random to a random point."""
    game = game_of(path)
    players = draw(st.sampled_from(sorted({game.min_players, game.max_players})))
    state = game.new_game(players=players, seed=draw(st.integers(0, 1 << 20)))
    initial = state.clone()
    for _ in range(draw(st.integers(0, 60))):
        if state.is_over:
            break
        actions = state.legal_actions()
        state.apply(actions[draw(st.integers(0, len(actions) - 1))])
    return initial, state


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_a_seat_reads_the_same_on_states_it_cannot_tell_apart(path):
    @SETTINGS
    @given(data=st.data())
    def check(data):
        _, state = data.draw(points(path))
        if state.is_over:
            return
        seat = state.to_move
        real = prompt_outputs(runner_for(state), seat)
        for k in (1, 2):
            sampled = state.determinize(seat, k)
            assert prompt_outputs(runner_for(sampled), seat) == real
    check()


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_history_tells_a_seat_nothing_its_view_did_not(path):
    @SETTINGS
    @given(data=st.data())
    def check(data):
        initial, state = data.draw(points(path))
        if state.is_over:
            return
        mover = state.to_move
        runner = runner_for(initial.clone())
        lines: dict = {}  # (seat, what it observes after the move) -> {history line: action}
        for action in state.legal_actions()[:MOVES_COMPARED]:
            after = state.clone()
            after.apply(action)
            runner.state = after
            for seat in range(state.players):
                if seat == mover:
                    continue
                line = runner.history_lines(seat)[-1]
                told = lines.setdefault((seat, observation(after, seat)), {})
                told.setdefault(line, action.label)
        for (seat, _), told in lines.items():
            assert len(told) == 1, (
                f"P{seat + 1} sees the same after {sorted(told.values())} but its history "
                f"reads {sorted(told)}")
    check()
