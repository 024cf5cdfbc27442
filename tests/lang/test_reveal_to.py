"""Two constructs on their own: `reveal CARDS to P` (cards shown to some players only)
and labelled options, `"discard {c}" for c in hand[p] { ... }` (reveal_to.rules)."""

from pathlib import Path

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree

HERE = Path(__file__).resolve().parent
SCENARIO = {"zones": {"hand[P1]": ["red 1", "blue 2"], "hand[P2]": ["red 2", "red 3"],
                      "hand[P3]": ["blue 1", "blue 3"]}}


def new_state():
    game = rulesdsl.load(HERE / "reveal_to.rules")
    return game.new_game(3, seed=1, scenario=SCENARIO)


def errors_of(text: str) -> list:
    try:
        check_file_tree(load_tree(text, "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


def test_the_file_checks():
    assert rulesdsl.check_file(HERE / "reveal_to.rules") == []


def test_labelled_options_over_players():
    s = new_state()
    assert [a.label for a in s.legal_actions()] == ["show P2", "show P3"]


def test_reveal_to_shows_the_cards_only_to_the_players_named():
    s = new_state()
    s.apply("show P2")
    own, shown_to, other = s.view(0)["log"], s.view(1)["log"], s.view(2)["log"]
    assert "hand[P1] shows P2: red 1, blue 2" in shown_to
    assert "hand[P1] shows P2: red 1, blue 2" in own        # P1 sees its own hand anyway
    assert "hand[P1] shows P2: 2 cards" in other
    assert "hand[P2] shows P1, P2: red 2, red 3" in own
    assert "hand[P2] shows P1, P2: 2 cards" in other
    assert all("red" not in line for line in other if "shows" in line)
    assert "hand[P2] shows P1, P2: red 2, red 3" in s.log   # the omniscient log


def test_labelled_options_on_cards_read_apart_and_copies_are_one_action():
    s = new_state()
    s.apply("show P3")
    assert [a.label for a in s.legal_actions()] == [
        "keep blue 2", "discard red 1", "discard blue 2", "discard all"]
    s.apply("discard blue 2")
    assert s.zone("discard") == ["blue 2"]
    # a card decision is logged through its move, never as "P1 chooses ...": the label
    # may name a secret card
    assert not any("chooses discard" in line for line in s.log)
    # every card of the stock gives the same text: one action
    assert [a.label for a in s.legal_actions()] == [f"take {s.zone('stock')[-1]}", "same text"]
    s.apply(s.legal_actions()[0].label)
    assert s.is_over and len(s.zone("hand[P1]")) == 2


def test_the_state_with_a_private_reveal_round_trips():
    s = new_state()
    s.apply("show P2")
    back = rulesdsl.restore(s.game, s.to_json())
    assert back.view(2)["log"] == s.view(2)["log"]
    assert back.view(1)["log"] == s.view(1)["log"]


PROGRAM = """game "T"
players 2
kind card {{ value: int }}
zone pile public
deck pile {{ card([1, 2]) }}
flow main
phase main {{
  {body}
}}
"""


def test_reveal_to_needs_players():
    errs = errors_of(PROGRAM.format(body="reveal pile to 3"))
    assert [c for c, _ in errs] == ["E300"]
    assert "a player or a list of players" in errs[0][1]


def test_a_labelled_option_checks_its_text_with_the_element_in_scope():
    assert errors_of(PROGRAM.format(body='ask seat(0) { "take {c.value}" for c in pile { } }')) == []
    errs = errors_of(PROGRAM.format(body='ask seat(0) { "take {d}" for c in pile { } }'))
    assert [c for c, _ in errs] == ["E200"]
