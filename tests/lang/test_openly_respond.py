"""`ask each ... openly` and `respond`, on their own (openly_respond.rules, not a bundled
game): who is asked and what the log says do not depend on who holds a guard, and the
answer to a card comes after its target and machine are named."""

from pathlib import Path

import rulesdsl

HERE = Path(__file__).resolve().parent


def start(guards_with: int, first: str = "sabotage"):
    # one of P2 and P3 holds a guard, the other a machine: the same number of cards
    hands = {"hand[P1]": [first], "hand[P2]": ["machine 4"], "hand[P3]": ["machine 4"]}
    hands[f"hand[P{guards_with}]"] = ["guard"]
    zones = {**hands, "workshop[P2]": ["machine 1", "machine 2"], "workshop[P3]": ["machine 3"]}
    return rulesdsl.load(HERE / "openly_respond.rules").new_game(3, 1, scenario={"zones": zones})


def test_the_file_checks():
    assert rulesdsl.check_file(HERE / "openly_respond.rules") == []


def test_everyone_is_asked_in_turn_whether_they_hold_a_guard_or_not():
    for holder in (2, 3):
        s = start(holder)
        s.apply("sabotage")
        s.apply("P2")
        s.apply("machine 2")
        asked = []
        while not s.is_over:
            asked.append((s.to_move, [a.label for a in s.legal_actions()]))
            s.apply("decline")
        assert [seat for seat, _ in asked] == [1, 2]
        # the holder sees the guard among its options; the other only declines
        assert [labels for _, labels in asked] == \
            [["guard", "decline"] if seat == holder - 1 else ["decline"] for seat in (1, 2)]
        # and the third seat's view (P1's) reads the same either way
        assert "P2 chooses decline" in s.view(0)["log"]


def test_the_view_of_a_seat_without_the_guard_does_not_tell_where_it_is():
    views = []
    for holder in (2, 3):
        s = start(holder)
        for label in ("sabotage", "P2", "machine 2", "decline"):
            s.apply(label)
        views.append((s.to_move, s.view(0)))
    assert views[0] == views[1]


def test_respond_answers_after_the_choices_and_cancel_stops_the_effect():
    s = start(3)
    s.apply("sabotage")
    assert s.to_move == 0            # P1 names the target first ...
    s.apply("P2")
    s.apply("machine 2")
    assert s.zone("workshop[P2]") == ["machine 1", "machine 2"]  # ... nothing happened yet
    s.apply("decline")               # P2
    assert [a.label for a in s.legal_actions()] == ["guard", "decline"]
    s.apply("guard")                 # P3 cancels the whole effect
    assert s.zone("workshop[P2]") == ["machine 1", "machine 2"]
    assert "sabotage is cancelled" in s.log and s.is_over


def test_respond_declined_lets_the_effect_run():
    s = start(3)
    for label in ("sabotage", "P2", "machine 2", "decline", "decline"):
        s.apply(label)
    assert s.zone("workshop[P2]") == ["machine 1"]


def test_a_card_without_respond_is_answered_before_its_effect():
    s = start(2, first="blind sabotage")
    s.apply("blind sabotage")
    assert s.to_move == 1 and s.zone("workshop[P2]") == ["machine 1", "machine 2"]
    s.apply("guard")
    assert s.zone("workshop[P2]") == ["machine 1", "machine 2"]
