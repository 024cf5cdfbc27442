"""SeenKnowledge replays the log once per seat for the samples of one position
(knowledge._places_replayed): what a search's `_as_seen_by` asks for every other sample.
The places reused are the places a fresh replay finds, for every game and example, and a
state whose log, sizes or (where a card was played) cards differ is replayed again."""

import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine import knowledge
from rulesdsl.engine.determinize import Knowledge
from rulesdsl.engine.knowledge import SeenKnowledge, _possible_places

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(str(p) for p in (ROOT / "games").glob("*.rules")) + \
    sorted(str(p) for p in (ROOT / "examples").glob("*.rules"))


def _position(path, seed):
    game = rulesdsl.load(path)
    rnd = random.Random(seed)
    st = game.new_game(players=game.min_players, seed=seed)
    for _ in range(rnd.randrange(4, 60)):
        if st.is_over:
            break
        before = st.clone()
        st.apply(rnd.choice(st.legal_actions()))
    return before if st.is_over else st


def _fresh(state, seat, witness=None):
    see = [state.can_see(zi, seat) for zi in range(len(state.prog.zone_names))]
    return _possible_places(state, seat, see, witness)


def _replayed_as_fresh(state, seat, witness=None) -> bool:
    see = [state.can_see(zi, seat) for zi in range(len(state.prog.zone_names))]
    return knowledge._places_replayed(state, seat, see, witness) == \
        _possible_places(state, seat, see, witness)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_a_replay_carried_on_is_a_fresh_replay(path):
    # positions a search's walk reaches from its samples (moves on, clones between them that
    # freeze the log's tail into shared chunks), seen by each seat with the searcher as the
    # witness (agents/ismcts.py, `_as_seen_by`) and without
    knowledge._REPLAYED.clear()
    for seed in (3, 4):
        st = _position(path, seed)
        me = st.to_move if st.to_move is not None else 0
        known = Knowledge(st, me)
        rnd = random.Random(seed)
        for s in range(3):
            sample = known.sample(s)
            for q in range(st.players):
                SeenKnowledge(sample, q, me)
            moved = sample
            for step in range(40 + 30 * s):
                if moved.is_over:
                    break
                moved = moved.clone() if step % 5 == 0 else moved
                moved.apply(rnd.choice(moved.legal_actions()))
                if step % 7 == 2:
                    for q in range(st.players):
                        assert _replayed_as_fresh(moved, q, me), (path, seed, s, step, q)
                        assert _replayed_as_fresh(moved, q), (path, seed, s, step, q)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_reused_places_are_a_fresh_replays(path):
    for seed in (1, 2):
        st = _position(path, seed)
        me = st.to_move if st.to_move is not None else 0
        known = Knowledge(st, me)
        for s in range(3):
            sample = known.sample(s)
            for q in range(st.players):
                seen = SeenKnowledge(sample, q)
                again = SeenKnowledge(sample, q)  # from the memo
                assert seen.allowed == again.allowed
                fresh = _fresh(sample, q)
                for c, where in seen.allowed.items():
                    ok = tuple(sorted(fresh[c] & set(seen.hidden_zones))) \
                        if fresh[c] is not None else ()
                    assert where == (ok or tuple(seen.hidden_zones)), (path, q, c)


def _counted_replays(monkeypatch) -> tuple:
    """Knowledge of a Hearts position, and the seats whose log replays are counted."""
    st = _position(str(ROOT / "examples" / "hearts.rules"), 3)
    known = Knowledge(st, st.to_move)  # its own replay is not counted
    calls: list = []
    real = knowledge._replayed
    monkeypatch.setattr(knowledge, "_replayed",
                        lambda *a: calls.append(a[1]) or real(*a))
    return known, calls


def test_samples_of_one_position_replay_the_log_once_per_seat(monkeypatch):
    known, calls = _counted_replays(monkeypatch)
    for s in range(10):
        SeenKnowledge(known.sample(s), 1)
    assert calls == [1]
    # a state moved on (its log longer) carries the replay on from where it ended, to the
    # places a fresh replay finds
    for s in range(4):
        moved = known.sample(s)
        for _ in range(1 + s * 3):
            if not moved.is_over:
                moved.apply(moved.legal_actions()[0])
        seen = SeenKnowledge(moved, 1)
        assert calls == [1]
        fresh = _fresh(moved, 1)  # a replay from the start: counted, and taken back
        calls.pop()
        for c, where in seen.allowed.items():
            ok = tuple(sorted(fresh[c] & set(seen.hidden_zones)))
            assert where == (ok or tuple(seen.hidden_zones)), (s, c)


def test_a_card_played_makes_where_it_lies_part_of_the_key(monkeypatch):
    known, calls = _counted_replays(monkeypatch)
    a, b = known.sample(0), known.sample(1)
    moved = [c for c in range(len(a.loc)) if a.loc[c] != b.loc[c]]
    assert moved  # two deals of the cards the mover cannot see
    played = ("play", 0, moved[0])
    a._events.append(played)
    b._events.append(played)
    SeenKnowledge(a, 2)
    SeenKnowledge(b, 2)  # the same log, but the card played lies elsewhere: again
    assert calls == [2, 2]
    # where the card played lies alike, the other cards dealt differently: reused
    c = known.sample(2)
    c._events.append(played)
    keep = [x for x in range(len(a.loc)) if x != moved[0] and c.loc[x] != a.loc[x]]
    if c.loc[moved[0]] == a.loc[moved[0]] and keep:
        SeenKnowledge(c, 2)
        assert calls == [2, 2]


def test_the_positions_a_walk_reaches_do_not_push_out_the_searched_one(monkeypatch):
    # a search deals its samples again as another seat sees them at its root, and at the
    # positions its walk reaches a move on (the other seat's reply, agents/ismcts.py): both
    # logs are kept, so the root's is replayed once however the two alternate
    known, calls = _counted_replays(monkeypatch)
    for s in range(6):
        SeenKnowledge(known.sample(s), 1)
        moved = known.sample(s)
        moved.apply(moved.legal_actions()[0])
        SeenKnowledge(moved, 1)
    assert calls == [1]  # the root once; each position moved on carries it on
