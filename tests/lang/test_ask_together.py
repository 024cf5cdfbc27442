"""`ask together q in PLAYERS [where C] { OPTIONS }`: simultaneous decisions. Checked on
its own, with a small sealed-bid game (ask_together.rules)."""

from pathlib import Path

import rulesdsl
from rulesdsl.engine.game import restore
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree

HERE = Path(__file__).resolve().parent
GAME = rulesdsl.load(HERE / "ask_together.rules")


def labels(s):
    return [a.label for a in s.legal_actions()]


def test_the_example_checks():
    assert rulesdsl.check_file(HERE / "ask_together.rules") == []


def test_a_choice_changes_nothing_and_shows_nothing_until_all_have_chosen():
    s = GAME.new_game(3, seed=1)
    assert s.to_move == 0
    s.apply("bid 3")
    assert s.to_move == 1
    assert s.var("bid[P1]") == 0 and s.var("money[P1]") == 3  # nothing has happened yet
    for seat in (0, 1, 2):  # the others read that P1 has chosen; P1 reads what
        log = s.view(seat)["log"]
        assert log == (["P1 has chosen: bid 3"] if seat == 0 else ["P1 has chosen"])
    assert labels(s) == ["bid 1", "bid 2", "bid 3", "pass", "token"]
    s.apply("token")
    assert s.zone("hand[P2]") == ["token"] and s.zone("offered[P2]") == []
    assert s.view(0)["log"][-1] == "P2 has chosen"
    s.apply("bid 2")  # the last choice: all take effect, in the order of the list
    assert s.log[:6] == ["P1 has chosen: bid 3", "P2 has chosen: token",
                         "P3 has chosen: bid 2",
                         "P1 chooses bid 3", "hand[P2] -> offered[P2]: token",
                         "P3 chooses bid 2"]
    assert s.zone("won[P1]") == ["lot 20"] and s.var("money[P1]") == 0


def test_players_the_condition_leaves_out_are_not_asked():
    s = GAME.new_game(2, seed=1)
    s.apply("bid 3")
    s.apply("bid 1")
    assert s.var("money[P1]") == 0
    assert s.to_move == 1  # P1 has no money left: only P2 bids for the second lot
    s.apply("bid 1")
    assert s.is_over and s.winners == [0, 1]


def test_a_tie_buys_nothing():
    s = GAME.new_game(2, seed=1)
    s.apply("bid 3")
    s.apply("bid 3")
    assert s.zone("offered[P1]") == ["lot 20"] and s.var("money[P1]") == 3
    s.apply("bid 3")
    s.apply("pass")
    assert s.is_over and s.winners == [0]


def test_when_nobody_is_asked_the_rules_go_on(tmp_path):
    path = tmp_path / "t.rules"
    path.write_text(PROGRAM.format(extra="") .replace(
        "phase main { win seat(0) }",
        'phase main {\n  ask together p in players where false { "x" { win p } }\n'
        '  ask seat(1) { "y" { win seat(1) } }\n}'))
    s = rulesdsl.load(path).new_game(2)
    assert s.to_move == 1 and labels(s) == ["y"] and s.log == []


def test_a_pending_choice_survives_saving_and_cloning():
    s = GAME.new_game(3, seed=1)
    s.apply("bid 2")
    t = restore(GAME, s.to_json())
    c = s.clone()
    assert t.to_move == 1 and labels(t) == labels(s)
    for state in (t, c):
        state.apply("pass")
        state.apply("pass")
        assert state.zone("won[P1]") == ["lot 20"] and state.var("money[P1]") == 1
    assert s.to_move == 1 and s.zone("won[P1]") == []  # the original did not move


PROGRAM = """game "T"
players 2
zone pile public
flow main
phase main {{ win seat(0) }}
{extra}
"""


def errors_of(extra: str) -> list:
    try:
        check_file_tree(load_tree(PROGRAM.format(extra=extra), "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


def test_it_is_a_decision_and_asks_players():
    errs = errors_of('setup { ask together p in players { "x" { } } }')
    assert [code for code, _ in errs] == ["E603"]
    errs = errors_of('phase other { ask together p in [1, 2] { "x" { } } }')
    assert ("E300", "who is asked should be a player, but this is a number") in errs


def test_a_sampled_state_forgets_the_others_secret_choices():
    """A determinizing agent copies the state; `hide_pending_choices` re-draws the choices
    the seat cannot know, so the copy tells it nothing about them."""
    import random

    from rulesdsl.engine.together import hide_pending_choices
    s = GAME.new_game(3, seed=1)
    s.apply("bid 3")
    s.apply("token")
    outcomes = set()
    for seed in range(30):
        d = s.clone()
        assert hide_pending_choices(d, 2, random.Random(seed)) == 2
        d.apply("pass")
        outcomes.add((d.var("money[P1]"), tuple(d.zone("offered[P2]"))))
        e = s.clone()
        assert hide_pending_choices(e, 0, random.Random(seed)) == 1  # its own is kept
        e.apply("pass")
        assert "P1 chooses bid 3" in e.log
    assert len(outcomes) > 3  # P1's bid and P2's choice are no longer the true ones
    assert s.to_move == 2 and s.var("money[P1]") == 3  # the original is untouched


def test_break_may_not_leave_the_choices_half_done():
    errs = errors_of('phase other {\n  repeat {\n    ask together p in players { "x" { break } }\n'
                     '  } until true\n}')
    assert [code for code, _ in errs] == ["E604"] and "ask together" in errs[0][1]
    assert errors_of('phase other {\n  ask together p in players {\n'
                     '    "x" { repeat { break } until true }\n  }\n}') == []


def test_a_list_of_players_that_reads_a_secret_is_warned(tmp_path):
    path = tmp_path / "t.rules"
    text = (HERE / "ask_together.rules").read_text().replace(
        "var money: int per player = 3", "var money: int per player = 3 private")
    path.write_text(text)
    assert [w.code for w in rulesdsl.check_file(path)] == ["W704"]
