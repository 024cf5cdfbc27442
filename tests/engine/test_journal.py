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


def test_deferred_words_wait_in_shared_chunks_and_are_written_once():
    """A copy shares the log's chunks without writing their words; the first read of any
    journal writes them, once, and every journal reads the same entries."""
    from rulesdsl.engine.journal import EventLog, Later
    written = []

    def render(p, c):
        written.append((p, c))
        return (f"P{p + 1} plays {c}",)
    log = EventLog()
    for k in range(100):
        log.append(("text", (Later, render, (k % 2, k))))
    copy = log.copy()  # freezes the 100 entries into a chunk both share
    copy.append(("end", (0,)))
    assert written == []
    assert copy.since(99) == [("text", "P2 plays 99"), ("end", (0,))]
    assert len(written) == 100  # the chunk was written out to read its last entry
    assert log.tolist() == copy.tolist()[:100]
    assert log[0] == ("text", "P1 plays 0") and len(written) == 100


@given(st.lists(st.integers(), max_size=100), st.lists(st.integers(), max_size=200),
       st.integers(0, 200))
def test_extending_by_another_journal_appends_its_items_in_order(items, more, copied_at):
    other = Journal(more[:copied_at])
    other.copy()  # a long tail is frozen into a chunk: read back too
    for x in more[copied_at:]:
        other.append(x)
    j = Journal(items)
    j.extend(other)
    assert j.tolist() == items + more and other.tolist() == more
