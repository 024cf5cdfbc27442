"""Through OpenSpiel and PettingZoo, pieces are encoded by their state now (three dice
showing 4, 5, 6 are not three dice showing 1), and a decision offering more amounts than
`amount_slots` warns once, naming its line (issue 31)."""

from __future__ import annotations

import warnings

import pytest

from rulesdsl.integrations.encoding import ActionSpace

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")
from rulesdsl.integrations import openspiel as adapter  # noqa: E402
from rulesdsl.integrations.pettingzoo import env  # noqa: E402

DICE = '''game "Three dice"
players 2
kind die { var face: 1..6 = 1  label "{face}" }
deck cup { 3 x die }
zone cup public
zone table public
var face_now: int = 4
flow main
setup {
  for d in cup {
    set d.face = face_now
    set face_now += 1
  }
}
phase main {
  ask seat(0) "Which die?" { d in cup { move d to table } }
}
'''

AMOUNTS = '''game "Bids"
players 2
var bid: int = 0
flow main
phase main {
  for k in 1..3 {
    ask seat(0) "How much?" {
      n in 1..100 { set bid = n }
    }
  }
}
'''


def _file(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _counts(names: list, values, zone: str) -> dict:
    """{identity: count} of one zone's part of an observation vector."""
    return {name.split(": ", 1)[1]: v for name, v in zip(names, values)
            if name.startswith(zone + ": ") and v and not name.endswith(": cards")}


def test_pettingzoo_sees_dice_by_their_faces(tmp_path):
    e = env(_file(tmp_path, "dice.rules", DICE))
    e.reset(seed=1)
    obs = e.observe("player_0")
    assert _counts(e.unwrapped.encoder.names(), obs["observation"], "cup") == \
        {"4": 1.0, "5": 1.0, "6": 1.0}
    legal = [int(k) for k in obs["action_mask"].nonzero()[0]]
    actions = e.unwrapped.actions
    assert sorted(e.action_label(k) for k in legal) == ["4", "5", "6"]
    assert sorted(actions.describe(k) for k in legal) == \
        ["main: card 4", "main: card 5", "main: card 6"]
    five = next(k for k in legal if e.action_label(k) == "5")
    e.step(five)
    table = _counts(e.unwrapped.encoder.names(), e.observe("player_1")["observation"],
                    "table")
    assert table == {"5": 1.0}


def test_openspiel_sees_dice_by_their_faces(tmp_path):
    name = adapter.register(_file(tmp_path, "dice.rules", DICE))
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    assert not state.is_chance_node()  # nothing random: no seed to pick
    names = game.encoder.names()
    assert _counts(names, state.observation_tensor(1), "cup") == \
        {"4": 1.0, "5": 1.0, "6": 1.0}
    legal = state.legal_actions()
    # to the seat that is not deciding, an id reads as the action space describes it
    assert sorted(state.action_to_string(1, k) for k in legal) == \
        ["main: card 4", "main: card 5", "main: card 6"]
    assert sorted(state.action_to_string(0, k) for k in legal) == ["4", "5", "6"]


def test_every_label_a_piece_can_show_is_an_identity(tmp_path):
    import rulesdsl
    prog = rulesdsl.load(_file(tmp_path, "dice.rules", DICE)).program(2)
    actions = ActionSpace(prog)
    assert actions.identities == ["1", "2", "3", "4", "5", "6"]
    assert actions.copies == 3  # three dice may show one face at once


def test_more_amounts_than_slots_warn_once_naming_the_line(tmp_path):
    e = env(_file(tmp_path, "bids.rules", AMOUNTS), amount_slots=8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        e.reset(seed=1)
        for _ in range(3):  # the same decision three times: one warning
            legal = e.observe(e.agent_selection)["action_mask"].nonzero()[0]
            assert len(legal) == 8
            e.step(int(legal[-1]))
    said = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    assert len(said) == 1, said
    assert "bids.rules:7" in said[0] and "100 amounts" in said[0] and \
        "amount_slots" in said[0]


def test_openspiel_warns_when_amounts_are_cut(tmp_path):
    name = adapter.register(_file(tmp_path, "bids.rules", AMOUNTS))
    game = pyspiel.load_game(name, {"amount_slots": 16})
    state = game.new_initial_state()    # nothing random: no chance node
    with pytest.warns(RuntimeWarning, match=r"bids\.rules:7 .*amount_slots"):
        assert len(state.legal_actions()) == 16


def test_enough_slots_warn_nothing(tmp_path):
    e = env(_file(tmp_path, "bids.rules", AMOUNTS), amount_slots=100)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e.reset(seed=1)
        assert e.observe(e.agent_selection)["action_mask"].sum() == 100
