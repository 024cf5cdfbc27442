"""Dice and secret values: `roll(N, SIDES)` (a list of N numbers from 1 to SIDES, drawn
once: only directly in let, set or move), `sorted(LIST)`, and `reveal` of a variable's
value, to everyone or to some players. Checked on its own (dice.rules)."""

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree

HERE = Path(__file__).resolve().parent
GAME = rulesdsl.load(HERE / "dice.rules")


def test_the_example_checks():
    assert rulesdsl.check_file(HERE / "dice.rules") == []


@pytest.mark.parametrize("seed", range(20))
def test_rolls_are_dice_kept_in_a_private_cup(seed):
    s = GAME.new_game(3, seed=seed)
    for _ in range(3):
        s.apply("roll")
    cups = [s.var(f"cup[P{q}]") for q in (1, 2, 3)]
    for cup in cups:
        assert len(cup) == 3 and cup == sorted(cup) and all(1 <= x <= 6 for x in cup)
    for seat in range(3):  # a cup is its owner's alone
        assert [n for n in s.view(seat)["vars"] if n.startswith("cup")] == [f"cup[P{seat + 1}]"]
    shown = ", ".join(map(str, cups[0]))
    assert s.view(1)["log"][-3] == f"cup[P1] shows P2: {shown}"
    assert s.view(2)["log"][-3] == "cup[P1] shows P2"  # P3 learns that, not what
    s.apply("show")
    assert s.view(2)["log"][-4] == f"cup[P1] shows: {shown}"
    best = max(map(sum, cups))
    assert s.winners == [q for q in range(3) if sum(cups[q]) == best]


def test_the_dice_differ_between_seeds_and_repeat_with_one():
    def cups(seed):
        s = GAME.new_game(2, seed=seed)
        s.apply("roll")
        s.apply("roll")
        return s.var("cup[P1]") + s.var("cup[P2]")
    assert cups(3) == cups(3)
    seen = {tuple(cups(seed)) for seed in range(30)}
    assert len(seen) > 20
    faces = [x for seed in range(30) for x in cups(seed)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}


PROGRAM = """game "T"
players 2
var cup: list of int = []
var n: int = 0
flow main
phase main {{
  {body}
  win seat(0)
}}
"""


def errors_of(body: str) -> list:
    try:
        check_file_tree(load_tree(PROGRAM.format(body=body), "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


def test_a_roll_is_drawn_once():
    assert errors_of("let d = roll(2, 6)\n  set cup = roll(n, 20)\n  reveal cup\n"
                     "  reveal n to seat(1)") == []
    errs = errors_of("if size(roll(2, 6)) > 1 { }")
    assert [code for code, _ in errs] == ["E606"]
    errs = errors_of("set cup = roll(2)")
    assert [code for code, _ in errs] == ["E400"]


def test_only_variables_and_cards_can_be_revealed():
    errs = errors_of("reveal 3")
    assert [code for code, _ in errs] == ["E300"]
