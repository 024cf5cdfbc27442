"""engine/ir: expressions lowered once to typed nodes, run by the interpreter (closures) and
by the Python back end (generated code) alike: the same values, the same errors, a none
check only where a node's type allows none."""

from __future__ import annotations

import ast as py
import re
import types

import pytest

from rulesdsl.engine.compile.generate import annotate
from rulesdsl.engine.ir import nodes
from rulesdsl.engine.ir.interpret import Interpreter
from rulesdsl.engine.ir.passes import folded, known_not_none
from rulesdsl.engine.ir.python import HELPERS, ExitIf, PythonBackEnd
from rulesdsl.engine.ir.python_options import OptionsBackEnd, first_option_only
from rulesdsl.engine.runtime.numbers import MAX_INT
from rulesdsl.lang.errors import RulesError
from test_generated import load, load_text

ENGINES = ("closures", "generated")


def n_after(tmp_path, monkeypatch, expr: str, engine: str):
    """`set n = expr` run by `engine`: n, or the error's code and line."""
    body = f"phase main {{\n  set n = {expr}\n  win seat(0)\n}}\n"
    game = load(tmp_path, body, engine, monkeypatch)
    try:
        return game.new_game(seed=1).var("n")
    except RulesError as e:
        return e.code, e.span.line if e.span else None


@pytest.mark.parametrize("expr, expected", [
    ("2 * 3 + 4 - 1", 9),
    ("0 - 7 / 2 + 7 % 3", -2),
    ("if n == 0 and not (n > 1) then size(stock) else 5", 3),
    ("if next(seat(1)) == previous(seat(1)) then 1 else 0", 1),
    ("top(stock).value * 10 + bottom(stock).value", 31),
    ("7 % n", ("R015", 10)),
    ("9007199254740992 + n + 1", ("R030", 10)),
    ("top(table).value", ("R013", 10)),
    ("n + top(table).value", ("R013", 10)),
    ("if seat(2 + n) == seat(0) then 1 else 0", ("R017", 10)),
    ("size([1, 2, n] + [3]) + size(others(seat(0)))", 5),
    ("let k = 4 in k * k + size(1..5 step 2)", 19),
    ("if 3 is in 1..n + 2 and 4 is not in [n] then 1 else 0", 0),
    ("size(1..3 step n)", ("R016", 10)),
    ("let r = [4, 5, 6] in let k = n + 1 in if k > 0 and k < size(r) and r[k] > 4 then r[k] "
     "else 0", 5),
    ("let r = [4, 5, 6] in let k = n + 3 in if k >= 0 and k < size(r) then r[k] else 0 - 1", -1),
    # constants folded when the game loads (passes.folded); what fails still fails there
    ("if player_count <= 3 and not false then 10 / 3 * 2 - 7 % 4 else 0", 3),
    ("9007199254740992 + 1", ("R030", 10)),
    ("7 / (3 - 3)", ("R015", 10)),
    ("if seat(2) == seat(0) then 1 else 0", ("R017", 10)),
])
def test_both_back_ends_give_the_same_value_or_error(tmp_path, monkeypatch, expr, expected):
    for engine in ENGINES:
        assert n_after(tmp_path, monkeypatch, expr, engine) == expected, engine


@pytest.mark.parametrize("expr, expected", [
    ("count(c in stock where c.value > n + 1)", 2),
    ("sum(c.value * 2 for c in stock where c.value != 2)", 8),
    ("max(c.value for c in stock) * 10 + min(k * k for k in 2..4)", 34),
    ("first(c in stock where c.value > 1).value", 2),
    ("size([c in stock where c.value > 1]) * 10 + size([c in stock while c.value < 3])", 22),
    ("if any(c in stock where c.value == 3) and all(c in stock where c.value > 0) then 1 "
     "else 0", 1),
    ("if all(c.value > 1 for c in stock) then 1 else 0", 0),
    ("sum(c.value for c in table) + last([1, 2, n + 7])", 7),
    ("count(c in stock where c.value / n > 0)", ("R015", 10)),
    ("first(c in table).value", ("R013", 10)),
])
def test_loops_over_lists_give_the_same_value_or_error_on_both_back_ends(
        tmp_path, monkeypatch, expr, expected):
    """Aggregates, lists and prefixes are one node (nodes.Aggregate): the interpreter's
    loop and the generated function agree."""
    for engine in ENGINES:
        assert n_after(tmp_path, monkeypatch, expr, engine) == expected, engine


@pytest.mark.parametrize("body, expected", [
    ("let k = 3\n  set k += 4\n  set n = k - 1", 6),
    ("let k = 9007199254740992\n  set k += 1", ("R030", 11)),
    ("set n = 5\n  set n -= 7", -2),
    ("set n = 0 - 9007199254740992\n  set n -= 1", ("R030", 11)),
    ("set n = top(table).value", ("R013", 10)),
])
def test_a_set_runs_alike_on_both_back_ends(tmp_path, monkeypatch, body, expected):
    """`let` and `set` are operations of engine/ir: one node each, from which both the
    closures and the generated statements are made."""
    for engine, got in n_on_each_back_end(tmp_path, monkeypatch, body):
        assert got == expected, engine


def n_on_each_back_end(tmp_path, monkeypatch, body: str) -> list:
    """(back end, the variable n after a phase of `body`, or the error's code and line)."""
    out = []
    for engine in ENGINES:
        game = load(tmp_path, f"phase main {{\n  {body}\n  win seat(0)\n}}\n", engine,
                    monkeypatch)
        try:
            out.append((engine, game.new_game(seed=1).var("n")))
        except RulesError as e:
            out.append((engine, (e.code, e.span.line)))
    return out


class Host:
    """The least a back end needs: names, temporaries, no compiler."""
    b = None

    def __init__(self):
        self.names: dict = {}
        self.temps = 0

    def named(self, obj, stem: str) -> str:
        return self.names.setdefault(id(obj), stem.upper())

    def temp(self, stem: str = "t") -> str:
        self.temps += 1
        return f"_{stem}{self.temps}"

    def opaque_ast(self, node, depth):
        raise AssertionError("nothing opaque here")

    def closure_of(self, node):
        raise AssertionError("every node here has a Python form")


def text(statements: list) -> tuple:
    """Statements as lines of text (the test reads what the back end built)."""
    return tuple(line for stmt in statements
                 for line in py.unparse(py.fix_missing_locations(stmt)).split("\n"))


def unparse(tree) -> str:
    """One expression as text, bracketed unless it is one atom."""
    text = py.unparse(tree)
    if isinstance(tree, (py.Name, py.Subscript, py.Call, py.Attribute, py.List)) or \
            isinstance(tree, py.Constant) and not (isinstance(tree.value, (int, float)) and
                                                   tree.value < 0):
        return text
    return f"({text})"


SPAN = type("Span", (), {"line": 3, "column": 5})()


def source(node: nodes.Node) -> str:
    tree = PythonBackEnd(Host()).root(node)
    assert tree is not None
    text = unparse(tree)
    py.parse(text, mode="eval")  # valid Python
    return text


def test_a_none_check_is_written_only_where_a_node_may_be_none():
    card = nodes.Local("card", 0, "card")
    total = nodes.Arith("int", "+", nodes.Var("int", 4, "score"), nodes.Const("int", 1), SPAN)
    # checked arithmetic is never none: comparing it checks only the card's field
    value = nodes.Field("int", "value", [1, 2], "card", card, SPAN)
    text = source(nodes.Compare("bool", ">", total, value, SPAN))
    assert text.count("is not None") == 3, text  # `score`, the card, the field's value
    assert text.count("_none_operand('>'") == 1 and "_none_operand('+'" in text
    both_sure = source(nodes.Compare("bool", "<", total, nodes.Size("int", nodes.Table(
        "list of int", [1, 2], "values")), SPAN))
    assert "_none_operand('<'" not in both_sure, both_sure


def test_constants_are_folded_where_nothing_can_fail():
    two, three, big = nodes.Const("int", 2), nodes.Const("int", 3), nodes.Const("int", MAX_INT)
    small = nodes.Compare("bool", "<=", two, three, SPAN)
    assert folded(nodes.IfElse("int", small, nodes.Const("int", 5), two)).value == 5
    score = nodes.Var("int", 4, "score")
    assert folded(nodes.Logic("bool", "and", nodes.Not("bool", nodes.Const("bool", False)),
                              score)) is score
    assert folded(nodes.Arith("int", "-", nodes.Neg("int", two), three, SPAN)).value == -5
    assert folded(nodes.NextSeat("seat", "next", 1, 3, two, SPAN)).value == 0
    # left to fail where they stand: past MAX_INT, by zero, no such seat, none compared
    for stays in (nodes.Arith("int", "+", big, nodes.Const("int", 1), SPAN),
                  nodes.Divide("int", "%", three, nodes.Const("int", 0), SPAN),
                  nodes.Seat("seat", 2, two, SPAN),
                  nodes.Compare("bool", "<", nodes.Const("none", None), three, SPAN)):
        assert folded(stays) is stays
    assert source(folded(nodes.IfElse("int", small, score, two))) == "st.vars[4]"


def test_names_read_like_the_rules():
    card = nodes.Local("card", 0, "card")
    text = source(nodes.Field("Colour", "colour", [0, 1], "card",
                              nodes.Item("card", nodes.Table("list of card", [0, 1], "cards"),
                                         card, SPAN), SPAN))
    assert "COLOUR_OF_CARD[" in text and "CARDS" in text, text


def test_a_divisor_known_not_zero_is_not_tested():
    left = nodes.Local("int", 1, "points")
    assert source(nodes.Divide("int", "/", left, nodes.Const("int", 2), SPAN)) == \
        "(L[1] // 2)"
    assert "_by_zero" in source(nodes.Divide("int", "/", left, nodes.Const("int", 0), SPAN))


def test_a_key_known_not_none_is_not_tested_for_none():
    """A constant key (`score[P2]`-like) is never tested for none (`3 is not None`, which
    Python warns about when it compiles it); one out of range is range-checked, one in
    range is a part of the number."""
    at = nodes.Instance("int", "score", 4, (3,), (nodes.Const("int", 7),), SPAN)
    text = source(nodes.VarAt("int", at))
    assert "is not None" not in text and "0 <= 7 < 3" in text, text
    at = nodes.Instance("int", "score", 4, (3,), (nodes.Const("int", 1),), SPAN)
    assert source(nodes.VarAt("int", at)) == "st.vars[5]"
    many = nodes.Instance("int", "hand", 0, (2, 3), (nodes.Const("int", 1),
                                                     nodes.Local("int", 0, "k")), SPAN)
    text = source(many)
    assert text.count("is not None") == 1 and text.startswith("(3 + _k"), text


def test_a_key_read_from_a_table_of_keys_is_not_checked_again():
    """`score[p, Suit[k]]`: an enum's value read by its position is never none and is
    within the enum, so only the position is checked, against the table's known length."""
    text = source(nodes.Instance("int", "score", 0, (2, 4), (
        nodes.Local("int", 0, "p"),
        nodes.Item("Suit", nodes.Table("list of Suit", [0, 1, 2, 3], "Suit"),
                   nodes.Local("int", 1, "k"), SPAN)), SPAN))
    assert "0 <= _key" not in text and "-4 <= (_k" in text and "len(" not in text, text
    after = nodes.NextSeat("player", "next", 1, 2, nodes.Local("player", 0, "p"), SPAN)
    text = source(nodes.Instance("int", "score", 0, (2, 4), (after, nodes.Local(
        "int", 1, "k")), SPAN))  # `score[next(p), k]`: a seat among the 2, k checked
    assert "0 <= _key" not in text and re.search(r"0 <= _k\d+ < 4", text), text


def test_a_range_known_when_the_game_loads_is_made_then():
    """`1..24`: its values written in the generated code once, its length spent at each
    use; a range with a bound read in play is made in play."""
    one = nodes.Const("int", 1)
    known = source(nodes.Range("list of int", one, nodes.Const("int", 4), one, SPAN))
    assert known.startswith("_known_range((1, 2, 3, 4), BUDGET"), known
    read = source(nodes.Range("list of int", one, nodes.Local("int", 0, "n"), one, SPAN))
    assert read.startswith("_range_list(1, L[0], 1, BUDGET"), read


def test_a_text_reads_as_itself_without_the_labeller():
    """A text in a text (`"{place(a)}/{place(b)}"`) reads as the labeller would write it,
    without calling it: itself, or "none"."""
    text = source(shown("text", 0))
    assert "LABEL" not in text and "str(" in text, text


SUITED = """game "Suited"
players 2
enum Suit { clubs, hearts }
var score: int per player per Suit = 0
var n: int = 0
flow main
phase main {
  set score[seat(1), hearts] = 7
  set n = score[seat(1), Suit[K]] + score[seat(0), Suit[0 - 2]]
  win seat(0)
}
"""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("k, expected", [(1, 7), (-1, 7), (0, 0), (2, "R014"), (-3, "R014")])
def test_an_enum_read_by_its_position_as_a_key(tmp_path, monkeypatch, engine, k, expected):
    """The same values and errors on both engines: the position counts from the end when
    negative, outside the enum it fails (R014)."""
    game = load_text(tmp_path, SUITED.replace("K", str(k) if k >= 0 else f"0 - {-k}"),
                     engine, monkeypatch)
    try:
        assert game.new_game(seed=1).var("n") == expected
    except RulesError as e:
        assert e.code == expected


RANGED = """game "Ranged"
players 2
enum Suit { clubs, hearts, spades }
var score: int per player per Suit = 0
var n: int = 0
define at(p: player, k: int) = score[p, Suit[k]]
flow main
phase main {
  set score[seat(1), spades] = 7
  set n = count(k in RANGE where at(seat(1), k) > 0) + count(k in RANGE where score[seat(1), Suit[k]] > 5)
  win seat(0)
}
"""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("within, expected", [("0..2", 2), ("1..2", 2), ("0..3", "R014")])
def test_a_ranges_element_as_a_key_fails_only_outside(tmp_path, monkeypatch, engine, within,
                                                      expected):
    """`Suit[k]` for k of a range: a range within the enum's 3 values needs no check, one
    that leaves it fails (R014), on both engines, read directly or by an inlined `at`."""
    game = load_text(tmp_path, RANGED.replace("RANGE", within), engine, monkeypatch)
    try:
        assert game.new_game(seed=1).var("n") == expected
    except RulesError as e:
        assert e.code == expected


@pytest.mark.parametrize("within, checked", [("0..2", False), ("1..2", False), ("0..3", True)])
def test_a_ranges_element_within_a_table_is_not_checked(tmp_path, monkeypatch, within,
                                                         checked):
    """The generated code reads `Suit[k]` of k in `0..2` (or 1..2) without the check of the
    position, read directly or where the inlined `at(p, k)` reads it; of `0..3`, with.
    (`at` itself, on any k, checks it: its function's one `_bad_item`.)"""
    game = load_text(tmp_path, RANGED.replace("RANGE", within), "generated", monkeypatch)
    listing = annotate(game.program(2), game.sources)
    assert (listing.count("_bad_item(") > 1) == checked, listing


def test_a_key_known_within_a_table_is_not_checked():
    """`Suit[k]`, k known to lie in 0..3 (an element of `0..3`), is k itself: an enum's
    values are their positions; of another table, a plain read; a constant position is
    the value."""
    table = nodes.Table("list of Suit", [0, 1, 2, 3], "Suit")
    assert source(nodes.Item("Suit", table, nodes.Local("int", 1, "k", True, 4), SPAN)) == \
        "L[1]"
    assert "_bad_item" in source(nodes.Item("Suit", table, nodes.Local(
        "int", 1, "k", True, 5), SPAN))
    assert re.fullmatch(r"NUMBERS\w*\[L\[1\]\]", source(nodes.Item(
        "int", NUMBERS, nodes.Local("int", 1, "k", True, 4), SPAN)))
    assert source(nodes.Item("int", NUMBERS, nodes.Const("int", 1), SPAN)) == "1"


class ClosureHost:
    """What the interpreter needs without a compiler: each part its own closure."""
    b = None

    def __init__(self):
        self.interpreter = Interpreter(self)

    def closure_part(self, node):
        return self.interpreter.closure(node)


@pytest.mark.parametrize("sign, start, after", [(1, 5, 6), (1, MAX_INT, "R030"),
                                                 (-1, 5, -4), (-1, -MAX_INT, "R030")])
def test_one_operation_node_gives_the_instruction_and_its_python(sign, start, after):
    """`set v[2] += k` (`-= k`) as one SetVar node: the interpreter's instruction and the
    Python back end's statements do the same, the bound checked by both."""
    op = nodes.SetVar(SPAN, nodes.Const("int", 2), nodes.Local("int", 0, "k"), sign)
    lines = text(PythonBackEnd(Host()).statements(op))
    # a constant place is written to directly, with no temporary for its key; the sign
    # is the operator, not a factor
    operator = "+" if sign > 0 else "-"
    assert lines[0] == f"_v = st.vars[2] {operator} L[0]" and "_k" not in "\n".join(lines)
    assert "_too_big(LINE_3)" in "\n".join(lines)
    results = []
    for run in (ClosureHost().interpreter.operation(op),
                lambda st, fr: exec("\n".join(lines), {**HELPERS, "LINE_3": SPAN, "st": st,
                                                      "L": fr[2]})):
        st = types.SimpleNamespace(vars=[0, 0, 1])
        try:
            run(st, [0, 0, [start]])
            results.append(st.vars[2])
        except RulesError as e:
            results.append(e.code)
    assert results == [after, after]


def test_a_jump_unless_goes_on_at_its_target_only_where_its_condition_fails():
    op = nodes.JumpUnless(SPAN, nodes.Equal("bool", "==", nodes.Local("int", 0, "k"),
                                             nodes.Const("int", 1)), 7)
    run = ClosureHost().interpreter.operation(op)
    held, failed = [0, 3, [1]], [0, 3, [2]]
    run(None, held)
    run(None, failed)
    assert (held[1], failed[1]) == (3, 7)


def test_a_log_entry_is_one_node_for_both_back_ends():
    op = nodes.Log(SPAN, nodes.Const("text", "the round ends"))
    lines = text(PythonBackEnd(Host()).statements(op))
    events = []
    for run in (ClosureHost().interpreter.operation(op),
                lambda st, fr: exec("\n".join(lines), {"st": st, "L": fr[2]})):
        st = types.SimpleNamespace(_events=[])
        run(st, [0, 0, []])
        events.append(st._events)
    assert events == [[("text", "the round ends")]] * 2


@pytest.mark.parametrize("body, expected", [
    # the elements that meet the condition, in order; break leaves the loop
    ("for k in [1, 2, 3, 4] where k != 2 {\n    set n = n * 10 + k\n"
     "    if k == 3 {\n      break\n    }\n  }", 13),
    # a zone's cards as the loop starts, whatever the body moves
    ("for c in stock {\n    move c to table\n    set n += c.value\n  }\n"
     "  set n = n * 10 + size(table)", 63),
    # loops inside loops, each its own place in the list
    ("for a in 1..2 {\n    for b in [a, a] where b > 1 {\n      set n = n * 10 + b\n    }\n  }",
     22),
    # turns: skipped seats pass, `until` is asked before each turn
    ("turns p from seat(1) skip if p == seat(0) until n > 20 {\n"
     "    set n += if p == seat(1) then 10 else 1\n  }", 30),
    ("turns p from seat(0) until n >= 100 {\n"
     "    set n = n * 10 + (if p == seat(0) then 1 else 2)\n  }", 121),
    # every seat skipped: the turns end
    ("turns p from seat(0) skip if true {\n    set n = 9\n  }\n  set n += 1", 1),
    ("turns p from (if n == 0 then none else seat(0)) {\n    set n = 9\n  }", ("R011", 10)),
])
def test_loops_run_alike_on_both_back_ends(tmp_path, monkeypatch, body, expected):
    """`for` and `turns` are operations of engine/ir (a start and a step each): one node,
    from which both the closures and the generated statements are made."""
    for engine, got in n_on_each_back_end(tmp_path, monkeypatch, body):
        assert got == expected, engine


@pytest.mark.parametrize("where", [None, nodes.Equal("bool", "!=", nodes.Local("int", 0, "k"),
                                                     nodes.Const("int", 2))])
def test_a_loop_step_is_one_node_for_both_back_ends(where):
    """The step of `for k in LIST where ...`: the next element into its slot, or the
    procedure goes on at the loop's end, alike in the closure and the Python."""
    op = nodes.EachStep(SPAN, 0, 1, 2, where, 9)
    statements = PythonBackEnd(Host()).statements(op)
    exits = [s for s in statements if isinstance(s, ExitIf)]
    assert len(exits) == 1 and exits[0].target == 9

    def generated(st, fr):  # an ExitIf as generate.py writes it: a jump to the end
        env = {"L": fr[2]}
        for stmt in statements:
            if isinstance(stmt, ExitIf):
                if eval(unparse(stmt.test), env):
                    exec("\n".join(text(stmt.then)), env)
                    fr[1] = stmt.target
                    return
            else:
                exec("\n".join(text([stmt])), env)

    for run in (ClosureHost().interpreter.operation(op), generated):
        fr = [0, 4, [None, [1, 2, 3], 0]]
        seen = []
        while True:
            run(None, fr)
            if fr[1] == 9:
                break
            seen.append(fr[2][0])
        assert seen == ([1, 2, 3] if where is None else [1, 3])
        assert fr[2][2] == 3  # the position at the end, as a save holds it


@pytest.mark.parametrize("body, expected", [
    # one card, none moving nothing; a pile; a list; every card; onto the bottom
    ("move top(stock) to table\n  move top(table) to stock\n  move top(table) to stock",
     "3,0,0"),
    ("move stock to table\n  move stock to table", "0,3,0"),
    ("move [c in stock where c.value > 1] to table", "1,2,0"),
    ("move stock to table\n  move cards to stock", "3,0,0"),
    ("move top(stock) to table\n  move top(stock) to table at bottom\n"
     "  set n = bottom(table).value", "1,2,2"),
    # a family's zone found after the card, a key out of range failing where it is read
    ("move top(stock) to hand[seat(2 + n)]", ("R017", 11)),
    # shuffle, deal and swap: operations too
    ("shuffle stock\n  deal 1 from stock to hand starting with seat(1)\n"
     "  set n = size(hand[seat(1)])", "1,0,1"),
    ("deal all from stock to hand\n  move top(hand[seat(0)]) to table\n"
     "  swap top(table) with top(hand[seat(1)])\n  set n = top(table).value", "0,1,2"),
    ("swap top(table) with top(stock)", ("R012", 11)),
])
def test_a_move_runs_alike_on_both_back_ends(tmp_path, monkeypatch, body, expected):
    """`move` is one operation of engine/ir (MoveCards): the closure and the Python of
    each of its shapes (one card, a pile, every card, any list) move the same cards."""
    head = "zone hand per player private\n"
    for engine in ENGINES:
        game = load(tmp_path, f"{head}phase main {{\n  {body}\n  win seat(0)\n}}\n", engine,
                    monkeypatch)
        try:
            st = game.new_game(seed=1)
            got = f"{len(st.zone('stock'))},{len(st.zone('table'))},{st.var('n')}"
        except RulesError as e:
            got = e.code, e.span.line
        assert got == expected, engine


@pytest.mark.parametrize("body, expected", [
    ("win seat(1)", [1]),
    ("win [q in players where q != seat(0)] + [seat(0)]", [0, 1]),
    ("win (if n == 0 then none else seat(0))", []),
    ("end game", []),
])
def test_the_end_of_a_game_is_one_operation_for_both_back_ends(tmp_path, monkeypatch, body,
                                                                 expected):
    for engine in ENGINES:
        st = load(tmp_path, f"phase main {{\n  {body}\n}}\n", engine, monkeypatch).new_game(
            seed=1)
        assert (st.over, st.winners) == (True, expected), engine


class NamespaceHost(Host):
    """A Host that keeps what it names: the namespace generated code runs in."""

    def __init__(self):
        super().__init__()
        self.ns: dict = {**HELPERS}

    def named(self, obj, stem: str) -> str:
        name = super().named(obj, stem)
        self.ns[name] = obj
        return name


def labeller(t, v, st=None):
    """As a program's labeller writes seats and numbers."""
    return "none" if v is None else f"P{v + 1}" if t == "player" else str(v)


def options_on_each_back_end(op: nodes.Ask, L: list, st=None) -> list:
    """The options of decision `op` over the locals L, as the interpreter's closure and as
    the Python back end's function give them (or the error's code)."""
    host = NamespaceHost()
    tree = OptionsBackEnd(PythonBackEnd(host)).function(op)
    exec(compile(tree, "<options>", "exec"), host.ns)
    out = []
    for options in (ClosureHost().interpreter.options(op), host.ns["options"]):
        try:
            out.append(options(st, list(L)))
        except RulesError as e:
            out.append(e.code)
    return out


def shown(t: str, slot: int, names=None) -> nodes.Shown:
    return nodes.Shown("text", t, nodes.Local(t, slot, "x"), names, labeller)


def decision(*choices, optional=False, openly=False) -> nodes.Ask:
    return nodes.Ask(SPAN, nodes.Const("player", 0), choices, optional, openly, None, [])


NUMBERS = nodes.Table("list of int", [3, 1, 3, 2], "numbers")


@pytest.mark.parametrize("op, expected", [
    # named options; one whose condition fails is left out; a repeated label numbered
    (decision(nodes.Choice("named", 1, nodes.Const("text", "pass")),
              nodes.Choice("named", 2, nodes.Const("text", "bid"), nodes.Const("bool", False)),
              nodes.Choice("named", 3, nodes.Const("text", "pass"))),
     [("pass", 0, None), ("pass (3)", 2, None)]),
    # a binder labelled by its value: its own repeat dropped, another's numbered
    (decision(nodes.Choice("binder", 1, slots=(0,), items=(NUMBERS,),
                           shown=(shown("int", 0),)),
              nodes.Choice("binder", 2, slots=(0,), items=(nodes.Table("list of int", [2],
                                                                      "two"),),
                           shown=(shown("int", 0),)), optional=True),
     [("3", 0, 3), ("1", 0, 1), ("2", 0, 2), ("2 (2)", 1, 2), ("decline", -1, None)]),
    # a range of numbers first: prebuilt by the Python back end, filtered by `where`
    (decision(nodes.Choice("binder", 1, where=nodes.Compare(
        "bool", ">", nodes.Local("int", 0, "k"), nodes.Const("int", 1), SPAN), slots=(0,),
        items=(nodes.Table("list of int", [1, 2, 3], "one_to_three"),),
        shown=(shown("int", 0),), numbers=True),
              nodes.Choice("named", 2, nodes.Const("text", "3"))),
     [("2", 0, 2), ("3", 0, 3), ("3 (2)", 1, None)]),
    # pairs, each list read once the names before it are bound, labelled by both (a label
    # twice: one action)
    (decision(nodes.Choice("tuple", 1, slots=(0, 1), items=(
        nodes.Table("list of int", [1, 2], "a"), nodes.ListOf("list of int", (
            nodes.Local("int", 0, "a"), nodes.Const("int", 7)))),
        shown=(shown("int", 0), shown("Colour", 1, ["red", "blue", "green"] * 3)))),
     [("1 blue", 0, (1, 1)), ("2 green", 0, (2, 2)), ("2 blue", 0, (2, 7))]),
    # a label the rules compute from the value; none in a comparison fails alike
    (decision(nodes.Choice("binder", 1, label=shown("player", 0), slots=(0,),
                           items=(nodes.Table("list of player", [1, 0], "players"),))),
     [("P2", 0, 1), ("P1", 0, 0)]),
    (decision(nodes.Choice("binder", 1, where=nodes.Compare(
        "bool", "<", nodes.Local("int", 0, "k"), nodes.Const("int", None), SPAN), slots=(0,),
        items=(NUMBERS,), shown=(shown("int", 0),))), "R013"),
    # nothing offered: declined only where the decision is open
    (decision(nodes.Choice("named", 1, nodes.Const("text", "go"), nodes.Const("bool", False)),
              optional=True), []),
    (decision(nodes.Choice("named", 1, nodes.Const("text", "go"), nodes.Const("bool", False)),
              optional=True, openly=True), [("decline", -1, None)]),
])
def test_a_decisions_options_are_one_node_for_both_back_ends(op, expected):
    """A decision's options (nodes.Ask): the interpreter's function and the Python back
    end's give the same options in the same order, or the same error."""
    got = options_on_each_back_end(op, [None, None])
    assert got == [expected, expected]


COLOURS = nodes.Table("list of Colour", [2, 0, 1], "colours")


@pytest.mark.parametrize("op, made_as", [
    # every candidate an option made before: one map, no loop (all_at_once)
    (decision(nodes.Choice("binder", 1, slots=(1,), items=(COLOURS,), shown=(shown("int", 1),),
                           table=["0", "1", "2"], ids=True),
              nodes.Choice("named", 2, nodes.Const("text", "pass"))), "map("),
    # a candidate read as the loop's own name, its slot set once after (bound_after)
    (decision(nodes.Choice("binder", 1, where=nodes.Compare(
        "bool", ">", nodes.Local("int", 1, "k"), nodes.Local("int", 0, "m"), SPAN), slots=(1,),
        items=(NUMBERS,), shown=(shown("int", 1),))), "L[1] = x"),
    (decision(nodes.Choice("binder", 1, where=nodes.Compare(
        "bool", ">", nodes.Local("int", 1, "k"), nodes.Const("int", 9), SPAN), slots=(1,),
        items=(NUMBERS,), shown=(shown("int", 1),))), "L[1] = x"),
    # (prebuilt, with a `where`: the first option's copy stops in the loop)
    (decision(nodes.Choice("binder", 1, where=nodes.Compare(
        "bool", "<", nodes.Local("int", 1, "k"), nodes.Local("int", 0, "m"), SPAN), slots=(1,),
        items=(COLOURS,), shown=(shown("int", 1),), table=["0", "1", "2"], ids=True)),
     "OPTIONS"),
])
def test_options_leave_the_locals_alike_and_the_first_is_first(op, made_as):
    """The forms the Python back end makes a binder's options in without a step per
    candidate leave its slot as the interpreter's loop does (the last candidate, or as it
    was where there is none): a save at the decision holds it. A sequence's trial's copy
    (first_option_only) still stops at the first option."""
    host = NamespaceHost()
    tree = OptionsBackEnd(PythonBackEnd(host)).function(op)
    assert made_as in py.unparse(tree)
    exec(compile(tree, "<options>", "exec"), host.ns)
    exec(compile(first_option_only(tree), "<first>", "exec"), host.ns)
    for L in ([1, "before"], [5, "before"]):
        seen = []
        for options in (ClosureHost().interpreter.options(op), host.ns["options"]):
            mine = list(L)
            seen.append((options(None, mine), mine))
        assert seen[0] == seen[1]
        first = list(L)
        assert host.ns["first_option"](None, first) == seen[0][0][:1]
        # it leaves the slot as the loop it copies does: stopped at the first option (a
        # prebuilt alternative's loop), or past every candidate (a checked one's `mine`)
        prebuilt = op.choices[0].table is not None
        assert first[1] == (seen[0][0][0][2] if prebuilt and seen[0][0] else seen[0][1][1])


@pytest.mark.parametrize("body, expected", [
    ('ask seat(0) {\n    "1" { set n = 1 }\n    k in 1..3 where k != 2 { set n = k * 10 }\n  }',
     ["1", "1 (2)", "3"]),
    ('ask seat(0) {\n    "take {c}" for c in stock { move c to table }\n  }',
     ["take card 1", "take card 2", "take card 3"]),
    ('ask seat(0) {\n    (a, b) in 1..2, [a, a + 1] where a != b { set n = a }\n  }',
     ["1 2", "2 3"]),
    ('ask seat(0) {\n    c in stock where c.value < top(table).value { set n = 1 }\n  }',
     ("R013", 11)),
])
def test_a_decision_offers_alike_on_both_back_ends(tmp_path, monkeypatch, body, expected):
    for engine in ENGINES:
        game = load(tmp_path, f"phase main {{\n  {body}\n  win seat(0)\n}}\n", engine,
                    monkeypatch)
        try:
            got = [a.label for a in game.new_game(seed=1).legal_actions()]
        except RulesError as e:
            got = e.code, e.span.line
        assert got == expected, engine


PLAYS = '''game "Plays"
players 2
kind card {
  value: int
  label "card {value}"
  on play by p {
    set n += 1
    respond
    set n += 100
  }
}
kind quiet { label "quiet"  on play by p { set n += 1000 } }
deck stock { card(1..2)  quiet }
zone stock hidden
zone table public
zone hand per player private unordered
var n: int = 1
response odd to x played by p {
  if n % 2 == 1 {
    set n += 1
    cancel
  }
}
flow main
phase main {
  BODY
  set n += size(table) * 10000 + size(hand[seat(1)]) * 100000
  win seat(0)
}
'''


@pytest.mark.parametrize("body, expected", [
    # a response cancels the quiet card before its effect; the other's effect responds
    # itself, and is stopped there
    ("play [c in stock where c is quiet][0] by seat(0) to table\n"
     "  play [c in stock where c is card][0] by seat(0) to table", 20004),
    # n even: the quiet card's effect runs (into a hand kept sorted), the other's is
    # cancelled where it responds
    ("set n = 0\n  play [c in stock where c is quiet][0] by seat(1) to hand[seat(1)]\n"
     "  play [c in stock where c is card][0] by seat(1) to table", 111002),
    ("play top(table) by seat(0) to table", ("R012", 26)),
])
def test_a_play_runs_alike_on_both_back_ends(tmp_path, monkeypatch, body, expected):
    """`play` and `respond` are operations of engine/ir (Play, CallResponse, Cancelled,
    StopIfCancelled, CallEffect): the closures and the generated statements play the same
    cards, call the same responses and effects, and log the same."""
    logs = []
    for engine in ENGINES:
        game = load_text(tmp_path, PLAYS.replace("BODY", body), engine, monkeypatch)
        try:
            st = game.new_game(seed=1)
            got, log = st.var("n"), st.log
        except RulesError as e:
            got, log = (e.code, e.span.line), None
        assert got == expected, engine
        logs.append(log)
    assert logs[0] == logs[1]


@pytest.mark.parametrize("body, expected", [
    # one card, the words as everyone reads them (the seat who cannot see the stock sees
    # the card land on the table); none moves nothing
    ('move top(stock) to table as "{seat(1)} plays {top(stock)}"\n'
     '  move top(hand[seat(0)]) to table as "nothing"', ["P2 plays card 3"] * 2),
    # a list, its count in the masked words; into a zone kept sorted
    ('move [c in stock where c.value > 1] to hand[seat(0)] as "{seat(0)} takes {top(stock)}"',
     ["P1 takes card 3", "P1 takes 2 cards"]),
    # words that fail fail alike, before the move
    ('move top(stock) to table as "{top(table).value + 1}"', ("R013", 11)),
])
def test_a_move_with_words_runs_alike_on_both_back_ends(tmp_path, monkeypatch, body,
                                                         expected):
    """`move ... as "..."` is MoveCards with words: the same log, entry by entry, and the
    same errors, from both back ends."""
    logs = []
    for engine in ENGINES:
        game = load(tmp_path, f"zone hand per player private unordered\n"
                    f"phase main {{\n  {body}\n  win seat(0)\n}}\n", engine, monkeypatch)
        try:
            st = game.new_game(seed=1)
            got = [line for line in st.story() + st.story(1) if "plays" in line or
                   "takes" in line]
            logs.append((st.story(), st.story(1), st.story(0)))
        except RulesError as e:
            got = e.code, e.span.line
        assert got == expected, engine
    assert len(set(map(repr, logs))) <= 1



def test_a_move_with_words_spends_the_moves_it_makes(tmp_path, monkeypatch):
    """The work budget's moves count a move with words as any move (they were not
    counted: a loop of such moves ran on to the step limit, R003, moving a whole list
    per step)."""
    body = ('phase main {\n  repeat {\n    move top(stock) to table as "a"\n'
            '    move top(table) to stock as "b"\n  } until false\n}\n')
    monkeypatch.setenv("RULESDSL_LIMITS", "moves=50")
    for engine in ENGINES:
        with pytest.raises(RulesError) as info:
            load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
        assert (info.value.code, info.value.span.line) == ("R006", 11), engine


@pytest.mark.parametrize("cards, fails", [(1200, True), (999, False)])
def test_a_card_costs_a_thousandth_of_its_pile_more_on_both_back_ends(tmp_path, monkeypatch,
                                                                      cards, fails):
    """Moving one card costs 1 plus a thousandth of the pile it leaves (2 from a pile of
    1200: the second move passes the limit of 3): the Python back end writes only the 1
    where the game has fewer than 1000 cards, and both spend alike."""
    text = HEAD_CARDS.replace("CARDS", str(cards))
    monkeypatch.setenv("RULESDSL_LIMITS", "moves=3")
    for engine in ENGINES:
        game = load_text(tmp_path, text, engine, monkeypatch)
        if fails:
            with pytest.raises(RulesError) as info:
                game.new_game(seed=1)
            assert (info.value.code, info.value.span.line) == ("R006", 10), engine
        else:
            assert len(game.new_game(seed=1).zone("table")) == 2, engine


HEAD_CARDS = '''game "Many"
players 2
kind card { value: int  label "card {value}" }
zone stock hidden
zone table public
deck stock { card(1..CARDS) }
flow main
phase main {
  move top(stock) to table
  move top(stock) to table as "again"
  win seat(0)
}
'''


def test_a_local_checked_earlier_on_every_path_is_not_checked_again():
    """`if a.colour == b.colour then a.value > b.value else if a is mob ... else a.value`:
    the test reads both cards' fields first (each fails where its card is none), so every
    later read of a or b needs no check (passes.known_not_none). A read only the right of
    an `or` or one branch of an `if` checked is checked again after them."""
    a, b = nodes.Local("card", 0, "a"), nodes.Local("card", 1, "b")

    def field(name: str, card):
        return nodes.Field("int", name, [1, 2], "card", card, SPAN, never_none=True)
    test = nodes.Equal("bool", "==", field("colour", a), field("colour", b))
    rest = nodes.IfElse("bool", nodes.IsKind("bool", "mob", [True, False], a, False),
                        nodes.Const("bool", True), nodes.Compare(
                            "bool", ">", field("value", a), field("value", b), SPAN))
    beats = nodes.IfElse("bool", test, nodes.Compare("bool", ">", field("value", a),
                                                     field("value", b), SPAN), rest)
    assert source(beats).count("is not None") == 7  # as lowered: each read checked
    text = source(known_not_none(beats))
    assert text.count("_none_field('colour'") == 2 and "_none_field('value'" not in text, text
    assert text.count("is not None") == 2, text
    maybe = nodes.Logic("bool", "or", nodes.Const("bool", True), field("value", a))
    after = nodes.Compare("bool", "<", nodes.IfElse("int", maybe, field("value", a),
                                                    nodes.Const("int", 0)), field("value", a),
                          SPAN)
    assert source(known_not_none(after)).count("_none_field('value'") == 3
    one_branch = nodes.Arith("int", "+", nodes.IfElse(
        "int", nodes.Const("bool", True), field("value", a), nodes.Const("int", 0)),
        field("value", a), SPAN)
    assert source(known_not_none(one_branch)).count("_none_field('value'") == 2


def test_an_item_found_within_its_list_earlier_is_not_checked():
    """Reversi's `k > 0 and k < size(r) and disc[r[k]] == p`: where the left of an `and`
    (or an `if`'s test, for its first branch) found a local k at least 0 and below the
    size of a local list r, `r[k]` needs no range check (passes.known_not_none); on the
    right of an `or`, in an `if`'s other branch, or with only one of the two found, it
    keeps it."""
    r, k = nodes.Local("list of int", 0, "r"), nodes.Local("int", 1, "k")
    item = nodes.Item("int", r, k, SPAN)
    pos = nodes.Compare("bool", ">", k, nodes.Const("int", 0), SPAN)
    below = nodes.Compare("bool", "<", k, nodes.Size("int", r), SPAN)
    found = nodes.Logic("bool", "and", pos, below)
    for tree in (nodes.Logic("bool", "and", found, item),
                 nodes.IfElse("int", found, item, nodes.Const("int", 0)),
                 nodes.Logic("bool", "and", nodes.Compare("bool", "<=", nodes.Const("int", 0),
                                                          k, SPAN),
                             nodes.Logic("bool", "and", nodes.Compare(
                                 "bool", ">", nodes.Size("int", r), k, SPAN), item))):
        text = source(known_not_none(tree))
        assert "_bad_item" not in text and "L[0][L[1]]" in text, text
    for tree in (nodes.Logic("bool", "or", found, item),
                 nodes.IfElse("int", found, nodes.Const("int", 0), item),
                 nodes.Logic("bool", "and", pos, item),
                 nodes.Logic("bool", "and", nodes.Logic("bool", "and", below, nodes.Compare(
                     "bool", ">", k, nodes.Const("int", -1), SPAN)), item)):
        assert "_bad_item" in source(known_not_none(tree))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_dropped_check_leaves_the_first_one_failing_as_before(tmp_path, monkeypatch,
                                                                engine):
    """A none card fails at its first check, on both back ends, with its place."""
    text = ('game "Beats"\nplayers 2\nkind card { value: int }\nzone stock public\n'
            'zone table public\ndeck stock { card(1..3) }\nvar n: int = 0\n'
            'define beats(a: card, b: card) =\n'
            '  if a.value == b.value then false else a.value > b.value\n'
            'flow main\nphase main {\n'
            '  set n = if beats(top(stock), bottom(stock)) then 1 else 2\n'
            '  set n = n * 10 + (if beats(top(table), top(stock)) then 1 else 2)\n'
            '  win seat(0)\n}\n')
    game = load_text(tmp_path, text, engine, monkeypatch)
    with pytest.raises(RulesError) as info:
        game.new_game(seed=1)
    assert (info.value.code, info.value.span.line, info.value.span.column) == ("R013", 9, 6)
