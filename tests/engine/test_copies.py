"""What a search copies thousands of times, copied as before: a frame's locals (a list
among them copied too, the rest by one slice), and the secret choices a sample hides
(found per procedure once)."""

from pathlib import Path

import rulesdsl
from rulesdsl.engine.state.data import REPLAY_SPAN, copy_frames
from rulesdsl.engine.together import AskTogether, _asks_together

ROOT = Path(__file__).resolve().parents[2]


def test_locals_are_copied_with_their_lists_and_nothing_else():
    inner = [1, 2]
    L = [3, None, inner, "x", (4, 5)]
    flat = [3, None, "x"]
    frames = [[0, 5, L, 0], [2, 1, flat, 1]]
    out = copy_frames(frames)
    assert out == frames and all(f is not g for f, g in zip(out, frames))
    assert out[0][2] is not L and out[0][2][2] is not inner and out[0][2][4] is L[4]
    assert out[1][2] is not flat


def test_a_clones_frames_share_no_list_with_the_original():
    game = rulesdsl.load(str(ROOT / "games" / "triumvirat.rules"))
    st = game.new_game(players=2, seed=4)
    for _ in range(7):
        st.apply(st.legal_actions()[0])
    copy = st.clone()
    for f, g in zip(st.frames, copy.frames):
        assert f[2] == g[2] and f[2] is not g[2]
        for a, b in zip(f[2], g[2]):
            assert type(a) is not list or a is not b


def test_the_asks_together_of_a_procedure_are_found_once():
    game = rulesdsl.load(str(ROOT / "examples" / "gops.rules"))
    st = game.new_game(players=2, seed=1)
    found = 0
    for proc in st.prog.procs:
        mine = [ins for ins in proc.code if isinstance(ins, AskTogether)]
        assert list(_asks_together(proc.code)) == mine
        assert _asks_together(proc.code) is _asks_together(proc.code)  # found once
        found += len(mine)
    assert found


# the fields a clone shares with its source by being a position of the same game: take_over
# (which becomes a clone of this very state) leaves them as they are
SAME_GAME = {"game", "prog", "seed", "scenario"}


def _fields() -> tuple:
    from rulesdsl.engine.state import State
    slots = [s for cls in State.__mro__ for s in getattr(cls, "__slots__", ())]
    return State, slots


def test_a_clone_sets_every_field_of_the_state():
    State, slots = _fields()
    game = rulesdsl.load(str(ROOT / "games" / "triumvirat.rules"))
    st = game.new_game(players=2, seed=4)
    st.apply(st.legal_actions()[0])
    copy = st.clone()
    assert slots, "the state's fields are read from its __slots__"
    unset = [s for s in slots if not hasattr(copy, s)]
    assert not unset, f"State._copy / clone set no value for {unset}"


def test_take_over_takes_every_field_a_clone_copies():
    """A field added to the state and copied by `clone` must be taken over too (or be one
    of the game's own, SAME_GAME): else a playout that takes over its look-ahead's position
    keeps a stale part of the old one."""
    State, slots = _fields()
    game = rulesdsl.load(str(ROOT / "games" / "triumvirat.rules"))
    st = game.new_game(players=2, seed=4)
    src = st.clone()
    marks = {}
    for s in slots:
        if s in SAME_GAME:
            continue
        marks[s] = [] if s == "frames" else object()  # take_over walks the frames
        setattr(src, s, marks[s])
    st.take_over(src, [])
    missed = [s for s, mark in marks.items() if getattr(st, s) is not mark]
    assert not missed, f"State.take_over leaves {missed} as they were"
    assert SAME_GAME <= set(slots), "a field of SAME_GAME is no longer the state's"


def test_a_sample_keeps_one_origin_for_its_clones():
    """keep_origin takes the snapshot a sample's next apply would take, and its clones share
    it: a clone's failed apply goes back to the sample's position as before."""
    game = rulesdsl.load(str(ROOT / "games" / "triumvirat.rules"))
    st = game.new_game(players=2, seed=4)
    for _ in range(9):
        st.apply(st.legal_actions()[0])
    d = st.determinize(st.to_move, 5)
    label = d.legal_actions()[-1].label
    alone = d.clone()
    alone.apply(label)  # its own snapshot, taken at its first apply
    d.keep_origin()
    shared = d.clone()
    shared.apply(label)
    assert shared._origin is d._origin and shared._origin_due == alone._origin_due
    assert shared._origin[:7] == alone._origin[:7] and \
        shared._origin[7:] == alone._origin[7:]
    assert shared.view(0) == alone.view(0) and shared.rng == alone.rng
    shared._rewind(shared._origin_due - REPLAY_SPAN)  # what an apply that fails does
    assert shared.zones == d.zones and shared.frames == d.frames and \
        shared.history == d.history and shared.rng == d.rng
