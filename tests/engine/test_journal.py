"""The journal (engine/journal.py) that history and log live in: shared by clones, and its
newest items read without copying the rest."""

from __future__ import annotations

from hypothesis import given, strategies as st

from rulesdsl.engine.journal import Journal


@given(st.lists(st.integers(), max_size=300), st.integers(0, 320))
def test_the_items_since_a_point_are_those_of_a_list(items, start):
    j = Journal(items)
    assert j[start:] == items[start:] == j.since(start)
    j.tolist()  # a cached flat list answers too
    assert j[start:] == items[start:]


@given(st.lists(st.integers(), max_size=200), st.lists(st.integers(), max_size=80))
def test_a_copy_grows_apart_from_its_original(items, more):
    j = Journal(items)
    c = j.copy()
    for x in more:
        c.append(x)
    assert j.tolist() == items and len(j) == len(items)
    assert c.tolist() == items + more and c[len(items):] == more
