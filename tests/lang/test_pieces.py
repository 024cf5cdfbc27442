"""Pieces: cards whose kind has changing fields (`var rank: Rank = low` in a kind), set with
`set PIECE.FIELD = ...`, rolled with `roll`, on zones per board cell; and `words(n)`.
Checked on their own (pieces.rules): labels follow the state, the state is seen exactly
where the piece is seen (views, log, determinize), and saves and clones keep it."""

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed, RulesError
from rulesdsl.lang.extend import load_tree
from rulesdsl.lang.fmt import format_source

HERE = Path(__file__).resolve().parent
GAME = rulesdsl.load(HERE / "pieces.rules")


def labels(s):
    return [a.label for a in s.legal_actions()]


def placed(seed=1):
    """Both tokens on the board (P1's on a1, P2's on b2), the dice rolled."""
    s = GAME.new_game(seed=seed)
    s.apply("a1")
    s.apply("b2")
    return s


def test_the_example_checks_and_is_formatted():
    assert rulesdsl.check_file(HERE / "pieces.rules") == []
    text = (HERE / "pieces.rules").read_text()
    assert format_source(text) == text


def test_a_pieces_label_and_options_follow_its_state():
    s = placed()
    assert "raise P1 low" in labels(s)
    s.apply("raise P1 low")
    for seat in (0, 1):
        assert s.view(seat)["zones"]["spot[a1]"] == ["P1 high"]
    assert s.var("raised[P1]") == 1
    assert "raise P2 low" in labels(s) and not any("P1" in x for x in labels(s))


def test_dice_in_a_private_cup_are_seen_by_their_owner_only():
    s = GAME.new_game(seed=4)
    mine = s.view(0)["zones"]["cup[P1]"]
    assert len(mine) == 3 and all(x in "123456" for x in mine)
    assert s.view(1)["zones"]["cup[P1]"] == {"count": 3}
    assert s.view(0)["log"][:2] == [f"tray[P1] -> cup[P1]: {', '.join(mine)}",
                                    f"cup[P1] rolled: {', '.join(mine)}"]
    # P2 reads that three dice went in and were rolled, not what they show
    assert s.view(1)["log"][:2] == ["tray[P1] -> cup[P1]: die, die, die", "cup[P1] rolled 3"]
    assert not any(", ".join(mine) in line for line in s.view(1)["log"] + s.story(1)
                   if "P1" in line)


def test_a_reveal_shows_the_faces_of_that_moment():
    s = placed(seed=6)
    s.apply("pass")
    s.apply("pass")
    faces = ", ".join(s.view(0)["zones"]["cup[P1]"])
    s.apply("show")
    assert f"cup[P1] shows: {faces}" in s.view(1)["log"]
    assert f"P1's cup shows: {faces}" in s.story(1)
    assert s.is_over and s.log[-2].startswith("cup[P2] rolled: ")  # rolled again after
    later = rulesdsl.restore(GAME, s.to_json())  # a save keeps the words of that moment
    assert f"cup[P1] shows: {faces}" in later.view(1)["log"]


@pytest.mark.parametrize("seed", range(10))
def test_turning_a_die_changes_it_where_its_owner_sees(seed):
    s = placed(seed)
    before = s.view(0)["zones"]["cup[P1]"]
    low = next((x for x in labels(s) if x.startswith("turn ")), None)
    if low is None:
        pytest.skip("every die shows six")
    s.apply(low)
    after = s.view(0)["zones"]["cup[P1]"]
    assert sorted(after) == sorted(before[:before.index(low[5])] + ["6"] +
                                   before[before.index(low[5]) + 1:])
    assert s.view(1)["zones"]["cup[P1]"] == {"count": 3}
    assert not any(low in line for line in s.view(1)["log"])


def test_rolls_repeat_with_a_seed_and_differ_between_seeds():
    def faces(seed):
        s = GAME.new_game(seed=seed)
        return s.view(0)["zones"]["cup[P1]"] + s.view(1)["zones"]["cup[P2]"]
    assert faces(3) == faces(3)
    seen = [faces(seed) for seed in range(30)]
    assert len({tuple(f) for f in seen}) > 20
    assert {x for f in seen for x in f} == set("123456")


def test_a_clone_and_a_save_keep_the_state_of_pieces():
    s = placed()
    s.apply("raise P1 low")
    c = s.clone()
    c.apply("raise P2 low")
    assert s.view(0)["zones"]["spot[b2]"] == ["P2 low"]  # the clone's change is its own
    assert c.view(0)["zones"]["spot[b2]"] == ["P2 high"]
    back = rulesdsl.restore(GAME, c.to_json())
    assert back.view(0) == c.view(0) and back.view(1) == c.view(1)
    assert labels(back) == labels(c)


def test_an_edited_piece_state_in_a_save_is_refused():
    s = placed()
    s.apply("raise P1 low")
    import json
    data = json.loads(s.to_json())
    data["vars"][-1] = 6 if data["vars"][-1] != 6 else 5  # a die's face: no play made it
    with pytest.raises(RulesError) as e:
        rulesdsl.restore(GAME, json.dumps(data))
    assert e.value.code == "S001"


@pytest.mark.parametrize("seed", range(6))
def test_a_sampled_state_forgets_the_faces_a_seat_cannot_see(seed):
    s = GAME.new_game(seed=seed)
    faces = s.view(0)["zones"]["cup[P1]"]
    samples = [s.determinize(1, k).view(0)["zones"]["cup[P1]"] for k in range(12)]
    assert any(x != faces for x in samples)  # P2 never learnt them
    assert {x for sample in samples for x in sample} <= set("123456")
    # P1 knows its own dice, and P2 its own
    assert all(s.determinize(0, k).view(0)["zones"]["cup[P1]"] == faces for k in range(6))
    mine = s.view(1)["zones"]["cup[P2]"]
    assert all(s.determinize(1, k).view(1)["zones"]["cup[P2]"] == mine for k in range(6))


def test_a_sample_is_the_same_for_states_the_seat_cannot_tell_apart():
    s = next(s for s in map(placed, range(40))
             if len({x for x in s.view(0)["zones"]["cup[P1]"] if x != "6"}) == 2)
    turns = [x for x in labels(s) if x.startswith("turn ")]
    a, b = s.clone(), s.clone()
    a.apply(turns[0])
    b.apply(turns[1])
    assert a.view(0) != b.view(0) and a.view(1) == b.view(1)
    da, db = a.determinize(1, 9), b.determinize(1, 9)
    assert da.vars == db.vars and da.zones == db.zones


def test_a_scenario_sets_pieces_and_refuses_unknown_fields():
    s = GAME.new_game(seed=1, scenario={"zones": {"spot[c3]": ["P2 low"]},
                                        "pieces": {"spot[c3]": {"rank": "high"}}})
    assert s.view(0)["zones"]["spot[c3]"] == ["P2 high"]
    for bad in ({"spot[c3]": {"colour": 1}}, {"spot[c3]": {"rank": "middle"}},
                {"nowhere": {"rank": "high"}}, ["rank"]):
        with pytest.raises(RulesError) as e:
            GAME.new_game(seed=1, scenario={"pieces": bad})
        assert e.value.code == "S002"


def test_the_log_reads_numbers_in_words():
    s = placed()
    s.apply("pass")
    s.apply("pass")
    s.apply("show")  # nothing raised: the best is the higher sum of the dice shown
    shown = [line.split(": ")[1] for line in s.log if " shows: " in line]
    best = max(sum(int(x) for x in faces.split(", ")) for faces in shown)
    assert len(shown) == 2
    words = "zero one two three four five six seven eight nine ten eleven twelve thirteen " \
        "fourteen fifteen sixteen seventeen eighteen".split()
    assert f"the best has {words[best]} points" in s.log


@pytest.mark.parametrize("n, text", [
    (0, "zero"), (3, "three"), (13, "thirteen"), (20, "twenty"), (21, "twenty-one"),
    (99, "ninety-nine"), (100, "one hundred"), (115, "one hundred fifteen"),
    (2_000, "two thousand"), (1_204_000, "one million two hundred four thousand"),
    (-4, "minus four")])
def test_words(n, text):
    from rulesdsl.engine.pieces import number_words
    assert number_words(n) == text


def test_the_grid_of_zones_is_drawn_with_the_top_piece_of_each_cell():
    from rulesdsl.play.screen import Layout
    s = placed()
    lines = ["".join(t for t, _ in line) for line in Layout(s).view_lines(s.view(0), 0)]
    rows = [x for x in lines if x.strip().startswith(("1 ", "2 ", "3 "))]
    # a piece is its owner's sign and its kind's initial: P1's low piece ●l, P2's ○l
    assert len(rows) == 3 and "●l" in rows[-1] and "○l" in rows[1]
    assert rows[0].split()[1:] == [".", ".", "."]
    assert not any(x.strip().startswith("spot") and "P1" in x for x in lines)


PROGRAM = """game "T"
players 2
enum Rank {{ low, high }}
kind token {{ owner: player  var rank: Rank = low  size: int = 1 }}
deck pile {{ token(seat(0)) }}
zone pile public
flow main
phase main {{
  let t = top(pile)
  {body}
  win seat(0)
}}
"""


def errors_of(body: str, program: str = PROGRAM) -> list:
    try:
        check_file_tree(load_tree(program.format(body=body), "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


@pytest.mark.parametrize("body, code, words", [
    ("set t.size = 2", "E304", "field size never changes"),
    ("set t.colour = 2", "E203", "no kind of card has a field 'colour'"),
    ("set t.rank = 2", "E300", "the value of rank should be Rank"),
    ("set t.rank += 1", "E300", "what '+=' changes should be a number"),
    ("set pile.rank = high", "E300", "the piece whose rank is set should be a card"),
    ("roll pile", "E300", "no kind has one"),
    ("roll 3", "E300", "roll needs a piece"),
])
def test_checker_errors(body, code, words):
    found = errors_of(body)
    assert any(c == code and words in m for c, m in found), found


def test_a_changing_field_holds_a_plain_value_and_changes_in_every_kind():
    bad = PROGRAM.replace("var rank: Rank = low", "var rank: list of int = []")
    assert any(c == "E300" and "a changing field holds" in m
               for c, m in errors_of("set t.rank = [1]", bad))
    two = PROGRAM.replace("deck pile", "kind flag {{ rank: Rank = low }}\ndeck pile")
    assert any(c == "E300" and "changes in one kind (var rank) but not in flag" in m
               for c, m in errors_of("set t.rank = high", two))
    assert errors_of("set t.rank = high") == []
    die = PROGRAM.replace("size: int = 1", "var face: 1..6 = 9")
    assert any(c == "E601" and "the default 9 is outside 1..6" in m
               for c, m in errors_of("roll t", die))


STACKS = """game "T"
players 2
board Cell grid 2 x 2
kind token {{ owner: player  var up: bool = true  label "{{owner}}" }}
deck pile per player as p {{ 3 x token(p) }}
zone pile per player public
zone stack per Cell
zone heap per Cell hidden
flow main
phase main {{
  move pile[seat(0)] to stack[a1]
  move top(pile[seat(1)]) to stack[b2]
  move top(pile[seat(1)]) to heap[a2]
  ask seat(0) "go" {{ "go" {{ }} }}
}}
"""


def test_a_grid_of_zones_draws_stacks_and_hidden_piles(tmp_path):
    from rulesdsl.play.screen import Layout
    path = tmp_path / "t.rules"
    path.write_text(STACKS.format())
    s = rulesdsl.load(path).new_game()
    assert s.view(1)["zones"]["stack[a1]"] == ["P1", "P1", "P1"]
    lines = ["".join(t for t, _ in line) for line in Layout(s).view_lines(s.view(1), 1)]
    rows = [x.split() for x in lines if x.strip()[:2] in ("1 ", "2 ")]
    assert rows[0] == ["2", ".", "○"] and rows[1] == ["1", "●+2", "."]  # the stacks
    assert rows[2] == ["2", "#1", "."] and rows[3] == ["1", ".", "."]  # the hidden heap


def test_setting_a_field_the_piece_lacks_stops_with_a_clear_error(tmp_path):
    text = PROGRAM.format(body="set t.rank = high").replace(
        "kind token {", "kind stone { weight: int = 1 }\nkind token {").replace(
        "deck pile { token(seat(0)) }", "deck pile { token(seat(0))  stone }")
    path = tmp_path / "t.rules"
    path.write_text(text)
    with pytest.raises(RulesError) as e:
        rulesdsl.load(path).new_game()
    assert e.value.code == "R012" and "stone 1 has no changing field rank" in e.value.message
