"""determinize follows a card shown to a seat through the hidden moves the seat can follow
(rulesdsl/engine/determinize.py), on tests/engine/rules/show_and_pass.rules: a card shown
and then passed face down lies in the box it went to in every sample, since the hand it
left held nothing else; a card put back into the stock is not followed, for it may have
been drawn again."""

import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine import knowledge
from rulesdsl.engine.determinize import Knowledge

SHOW = str(Path(__file__).resolve().parent / "rules" / "show_and_pass.rules")


def game_at(seed: int, moves: int, players: int = 3):
    s = rulesdsl.load(SHOW).new_game(players=players, seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        if s.is_over:
            break
        s.apply(rnd.choice(s.legal_actions()))
    return s


def passed_after_shown(state, seat):
    """Cards shown to `seat` and then passed into a box it does not see, read from the
    full log: card -> that box."""
    out = {}
    shown = set()
    for e in state.events:
        if isinstance(e, str):
            continue
        if e[0] == "reveal" and len(e) > 3 and seat in e[3]:
            shown.update(e[1])
        elif e[0] == "move":
            for c in e[1]:
                out.pop(c, None)
                if c in shown and not state.can_see(e[3], seat) and \
                        state.prog.zone_names[e[3]].startswith("box"):
                    out[c] = e[3]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_a_card_shown_then_passed_face_down_stays_followed(seed, monkeypatch):
    checked = unaware = 0
    for moves in (6, 13, 20):
        s = game_at(seed, moves, players=3 + seed % 2)
        for seat in range(s.prog.nplayers):
            followed = passed_after_shown(s, seat)
            knowledge._REPLAYED.clear()  # nor a replay carried on from one made with them
            with monkeypatch.context() as m:  # no move taken to empty its zone
                m.setattr(knowledge, "_followed_sizes", lambda *args: (set(), None))
                plain = Knowledge(s, seat)
            knowledge._REPLAYED.clear()  # not the replay made without those moves
            for k in range(8):
                d = s.determinize(seat, k)
                for c, box in followed.items():
                    assert s.loc[c] == box
                    assert d.loc[c] == box, (seat, k, s.prog.card_label[c])
                    checked += 1
                    unaware += plain.sample(k).loc[c] != box
    assert checked
    assert unaware  # without following the whole-zone move, samples lose the card


def test_a_card_put_back_into_the_stock_may_be_drawn_again():
    """Shown to P2, put back and the stock shuffled, then P1 draws: P2 cannot tell whether
    P1 drew it again, so samples put it in the stock or in P1's hand."""
    s = rulesdsl.load(SHOW).new_game(players=3, seed=5)
    card = s.zone("hold", 0)[0]
    s.apply("show P2")
    s.apply("put back")
    places = {determinize_place(s, 1, k, card) for k in range(40)}
    assert places == {"stock", "hold[P1]"}


def determinize_place(s, seat, k, label):
    d = s.determinize(seat, k)
    c = s.prog.card_label.index(label)
    return d.prog.zone_names[d.loc[c]]


def test_sizes_not_followed_from_the_layout_follow_nothing():
    """A state set up by a scenario (cards moved without a log entry) has sizes the log
    does not explain: no move is taken to empty its zone."""
    s = game_at(3, 6)
    see = [s.can_see(z, 0) for z in range(len(s.zones))]
    assert knowledge._emptying_moves(s, see)
    game = rulesdsl.load(SHOW)
    t = game.new_game(players=3, seed=3, scenario={"zones": {"box[P3]": ["card 1", "card 2"]}})
    for label in s.history:
        t.apply(label)
    assert knowledge._emptying_moves(t, see) == set()
