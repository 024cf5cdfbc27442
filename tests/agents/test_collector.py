"""The collector kept to a search's own objects (rulesdsl/agents/collector.py): objects
alive before a search are set aside and given back after, whatever happens inside, and
the search chooses exactly as it would with the collector left alone."""

from __future__ import annotations

import contextlib
import gc
import random

import pytest

import rulesdsl
from rulesdsl.agents import collector, ismcts, make_agent


@pytest.fixture(autouse=True)
def _collector_as_found():
    before = (gc.isenabled(), gc.get_threshold())
    yield
    gc.unfreeze()
    gc.set_threshold(*before[1])
    (gc.enable if before[0] else gc.disable)()


def test_a_search_sets_the_objects_alive_before_it_aside_and_gives_them_back():
    threshold = gc.get_threshold()
    kept = [object() for _ in range(10)], {"a": [1, 2]}
    with collector.searching():
        assert gc.get_freeze_count() > 0
        in_passes = [o for gen in range(3) for o in gc.get_objects(generation=gen)]
        assert not any(o is kept[0] or o is kept[1] for o in in_passes)
        assert gc.get_threshold()[0] >= collector.YOUNG
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == threshold


def test_an_error_inside_the_search_still_gives_everything_back():
    threshold = gc.get_threshold()
    with pytest.raises(ZeroDivisionError):
        with collector.searching():
            raise ZeroDivisionError
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == threshold


def test_objects_somebody_else_froze_stay_frozen():
    gc.freeze()
    frozen = gc.get_freeze_count()
    with collector.searching():
        pass
    assert gc.get_freeze_count() == frozen  # a forking server's objects: not given back


def test_a_collector_turned_off_is_left_off():
    gc.disable()
    with collector.searching():
        assert gc.get_freeze_count() == 0
    assert not gc.isenabled()


def test_a_collector_set_to_never_run_is_left_so():
    gc.set_threshold(0)
    with collector.searching():
        assert gc.get_threshold()[0] == 0 and gc.get_freeze_count() == 0
    assert gc.get_threshold()[0] == 0


def test_cycles_made_during_a_search_are_still_collected():
    class Cycle:
        pass

    with collector.searching():
        a, b = Cycle(), Cycle()
        a.other, b.other = b, a
        ident = id(a)
        del a, b
        gc.collect()
        assert not any(id(o) == ident for o in gc.get_objects() if type(o) is Cycle)


@pytest.mark.parametrize("game,players,steps", [("intrige", 3, 9), ("hearts", 4, 15),
                                                ("triumvirat", 2, 11)])
def test_the_search_chooses_the_same_with_the_collector_left_alone(monkeypatch, game,
                                                                   players, steps):
    g = rulesdsl.load(game)
    state = g.new_game(players=players, seed=5)
    for i in range(steps):
        state.apply(state.legal_actions()[(i * 7) % len(state.legal_actions())])

    def chosen():
        agent = make_agent("ismcts", seed=3, iterations=120, seconds=None)
        return agent.choose(state.clone()).label, agent.analysis

    kept = chosen()
    monkeypatch.setattr(ismcts, "searching", contextlib.nullcontext)
    assert chosen() == kept


def test_a_search_makes_no_full_pass_of_the_collector(monkeypatch):
    """The point of it (counted, not timed): at an Intrige position whose search set the
    collector off hundreds of times, three of them full passes over everything alive, a
    search with it makes no full pass and next to no pass at all."""
    game = rulesdsl.load("intrige")
    state = game.new_game(players=3, seed=3)
    rng = random.Random(3)
    for _ in range(24):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])

    def passes() -> list:
        made: list = []

        def counted(phase, info):
            if phase == "start":
                made.append(info["generation"])
        gc.callbacks.append(counted)
        try:
            agent = make_agent("ismcts", seed=1, iterations=300, seconds=None)
            agent.choose(state)
        finally:
            gc.callbacks.remove(counted)
        assert agent.last_iterations == 300
        return made

    kept = passes()
    monkeypatch.setattr(ismcts, "searching", contextlib.nullcontext)
    alone = passes()
    assert 2 not in kept and len(kept) <= 5
    assert len(alone) > 10 * max(1, len(kept))
