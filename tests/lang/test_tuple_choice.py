"""Options that bind several values at once: `(a, b) in A, B [where C] { ... }`, with a
label of their own or the elements' labels. Checked on its own (tuple_choice.rules)."""

from pathlib import Path

import rulesdsl
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree

HERE = Path(__file__).resolve().parent


def labels(s):
    return [a.label for a in s.legal_actions()]


def test_bids_of_a_quantity_and_a_face():
    assert rulesdsl.check_file(HERE / "tuple_choice.rules") == []
    s = rulesdsl.load(HERE / "tuple_choice.rules").new_game(2)
    assert labels(s) == [f"bid {q} {f}" for q in (1, 2, 3) for f in ("ones", "twos", "threes")]
    s.apply("bid 2 twos")
    assert s.var("bid_q") == 2 and s.var("bid_f") == "twos" and s.var("bidder") == 0
    assert s.log[-1] == "P1 chooses bid 2 twos"
    assert labels(s) == ["bid 2 threes", "bid 3 ones", "bid 3 twos", "bid 3 threes", "call"]
    s.apply("bid 3 ones")
    s.apply("call")
    assert s.is_over and s.winners == [1]


def run(tmp_path, body: str):
    path = tmp_path / "t.rules"
    path.write_text(PROGRAM.format(body=body))
    return rulesdsl.load(path).new_game(2)


PROGRAM = """game "T"
players 2
kind card {{ value: int  label "card {{value}}" }}
deck pile {{ card([1, 2, 2, 3]) }}
zone pile public
zone table public
flow main
phase main {{
  ask seat(0) {{
    {body}
  }}
  win seat(0)
}}
"""


def test_without_a_label_the_elements_labels_are_joined(tmp_path):
    s = run(tmp_path, "(a, c) in 1..2, pile where c.value > a { move c to table }")
    # the two copies of "card 2" are one action, as in a one-name option
    assert labels(s) == ["1 card 2", "1 card 3", "2 card 3"]
    s.apply("2 card 3")
    assert s.zone("table") == ["card 3"]


def test_a_later_collection_may_use_the_earlier_names(tmp_path):
    # the second collection is read once per first element, never as a whole product:
    # 100,000 x 100,000 pairs would not fit, the hundred that exist are cheap
    s = run(tmp_path, '"{a}/{b}" for (a, b) in 1..100_000, [a * 2] where a % 1000 == 0 { }')
    assert len(labels(s)) == 100 and labels(s)[:2] == ["1000/2000", "2000/4000"]


def errors_of(body: str) -> list:
    try:
        check_file_tree(load_tree(PROGRAM.format(body=body), "t.rules", {}), {})
    except CheckFailed as e:
        return [(err.code, err.message) for err in e.errors]
    return []


def test_one_collection_per_name_each_typed():
    errs = errors_of("(a, b) in 1..2, 1..2, 1..2 { }")
    assert [code for code, _ in errs] == ["E400"] and "3 collections" in errs[0][1]
    errs = errors_of("(a, a) in 1..2, 1..2 { }")
    assert [code for code, _ in errs] == ["E502"]
    errs = errors_of("(a, c) in 1..2, pile where c > a { }")
    assert [code for code, _ in errs] == ["E300"]
    errs = errors_of("(a, b) in 1..2, 3 { }")
    assert [code for code, _ in errs] == ["E302"]
