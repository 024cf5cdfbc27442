"""state.playout: random play without Action objects, the same as choosing by index."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl


@pytest.mark.parametrize("name,players", [("triumvirat", 2), ("ivanhoe", 3),
                                          ("examples/reversi.rules", 2)])
def test_playout_plays_what_choosing_by_index_plays(name, players):
    game = rulesdsl.load(name)
    a = game.new_game(players=players, seed=4)
    b = game.new_game(players=players, seed=4)
    played = a.playout(random.Random(9), 60)
    rng = random.Random(9)
    for _ in range(60):
        if b.is_over:
            break
        acts = b.legal_actions()
        b.apply(acts[rng.randrange(len(acts))])
    assert played == len(b.history) <= 60
    assert list(a.history) == list(b.history)
    assert a.to_json() == b.to_json()


def test_playout_to_the_end_and_after():
    game = rulesdsl.load("triumvirat")
    st = game.new_game(players=2, seed=1)
    n = st.playout(random.Random(1))
    assert st.is_over and n == len(st.history) > 0
    assert st.playout(random.Random(1)) == 0
    assert st.playout(random.Random(1), 0) == 0


def test_playout_leaves_a_clone_alone():
    game = rulesdsl.load("triumvirat")
    st = game.new_game(players=2, seed=2)
    before = st.to_json()
    st.clone().playout(random.Random(3), 50)
    assert st.to_json() == before


SECRET_LOG = """game "Peek"
players 2
kind card { number: int  label "card {number}" }
deck deck { card([1, 2, 3, 4, 5, 6]) }
zone deck hidden
zone hand per player private
setup {
  shuffle deck
  deal 3 from deck to hand
}
flow main
phase main {
  turns p from seat(0) until all(q in players where size(hand[q]) == 0) {
    log "{p} holds {top(hand[p])} on top"
    ask p "{p}: play?" {
      c in hand[p] { move c to deck }
    }
  }
}
"""


def test_a_seat_reads_a_logged_text_alike_without_writing_it_out(monkeypatch, tmp_path):
    """`seen_alike`, which a search asks of each new event for each seat, says what
    comparing `render_log` for that seat with the full entry says; a logged text (one for
    everyone, or each seat's own: a hole only its owner reads) is read without a call of
    `render_log`."""
    (tmp_path / "peek.rules").write_text(SECRET_LOG)
    per_seat = 0
    for name, players in ((str(tmp_path / "peek.rules"), 2), ("examples/coup.rules", 3),
                          ("examples/hearts.rules", 4)):
        st = rulesdsl.load(name).new_game(players=players, seed=5)
        st.playout(random.Random(5), 80)
        events = list(st.events)
        expected = [[st.render_log(e, q) == st.render_log(e) for q in range(players)]
                    for e in events]
        texts = [e for e in events if type(e) is tuple and e[0] == "text"]
        per_seat += sum(len(e) > 2 for e in texts)
        calls: list = []
        render = type(st).render_log
        monkeypatch.setattr(type(st), "render_log",
                            lambda s, e, q=None: calls.append(e) or render(s, e, q))
        assert [[st.seen_alike(e, q) for q in range(players)] for e in events] == expected
        assert texts and not any(type(e) is tuple and e[0] == "text" for e in calls)
        monkeypatch.undo()
    assert per_seat  # some text each seat reads as its own


def _every_game() -> list:
    root = Path(__file__).resolve().parents[2]
    return sorted(str(p) for folder in ("games", "examples")
                  for p in (root / folder).glob("*.rules"))


@pytest.mark.parametrize("path", _every_game(), ids=lambda p: Path(p).stem)
def test_seen_alike_says_what_comparing_the_renders_says_in_every_game(path):
    """The shortcuts `seen_alike` takes by an event's kind (a choice, a card played, a move
    the seat sees...) give exactly what writing the event out for the seat and for
    everyone and comparing would, over random games of every bundled game and example at
    its largest player count (pieces, secret choices, facts and rolls among them)."""
    game = rulesdsl.load(path)
    kinds = set()
    for seed in range(3):
        st = game.new_game(players=game.max_players, seed=seed)
        st.playout(random.Random(seed), 150)
        for e in st.events:
            kinds.add(e[0] if type(e) is tuple else type(e).__name__)
            for q in range(game.max_players):
                assert st.seen_alike(e, q) == (st.render_log(e, q) == st.render_log(e)), e
    assert kinds
