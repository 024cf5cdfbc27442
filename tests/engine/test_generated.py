"""The generated engine (rulesdsl/engine/compile/generate.py, source.py): the same games as
the closures, errors at the same places, and a listing a developer can read."""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine.compile import generate
from rulesdsl.engine.compile import source as source_module
from rulesdsl.engine.state import machine as machine_module
from rulesdsl.lang.errors import RulesError
from _golden import RULES_FILES, fixture_path, play

REVERSI = Path(__file__).parents[2] / "examples" / "reversi.rules"
HEAD = '''game "Generated"
players 2
kind card { value: int  label "card {value}" }
zone stock hidden
zone table public
deck stock { card(1..3) }
var n: int = 0
flow main
'''


def load(tmp_path, body: str, engine: str, monkeypatch, **kw):
    """HEAD and `body` as a game, loaded with `engine`."""
    return load_text(tmp_path, HEAD + body, engine, monkeypatch, **kw)


def load_text(tmp_path, text: str, engine: str, monkeypatch, **kw):
    monkeypatch.setenv("RULESDSL_ENGINE", engine)
    path = tmp_path / engine / "game.rules"  # one name: errors' call chains name the file
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return rulesdsl.load(path, **kw)


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_game_runs_as_generated_code(path):
    prog = rulesdsl.load(str(path)).program(rulesdsl.load(str(path)).min_players)
    assert prog.generated and all(proc.run is not None for proc in prog.procs)
    inline = sum(st is not None for proc in prog.procs for st in proc.stmts)
    total = sum(len(proc.code) for proc in prog.procs)
    assert inline >= 0.6 * total, f"only {inline} of {total} instructions inline"


def _codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


@pytest.mark.parametrize("path", RULES_FILES[::2], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_tree_compiles_to_the_code_its_text_does(path, monkeypatch):
    """The generated code is compiled from its `ast` trees, laid out on the lines
    `ast.unparse` writes them on (generate.lay_out): the same bytecode, line for line, as
    compiling the text --show prints, so a traceback's line finds its instruction (and the
    native module, built from that text, fails on the same lines)."""
    checked = []

    def compiled_tree(tree, text, mode):
        code = compile(tree, "<rulesdsl generated>", mode)
        again = compile(text, "<rulesdsl generated>", mode)
        for a, b in zip(_codes(code), _codes(again), strict=True):
            assert (a.co_name, a.co_code, list(a.co_lines())) == \
                (b.co_name, b.co_code, list(b.co_lines())), text
        checked.append(mode)  # (the procedures are one "exec" piece)
        return code
    monkeypatch.setattr(source_module, "compiled_tree", compiled_tree)
    game = rulesdsl.load(str(path))
    game.program(game.max_players)
    assert "exec" in checked and "eval" in checked


@pytest.mark.parametrize("path", RULES_FILES[::3], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_closures_replay_the_goldens_too(path, monkeypatch):
    """RULESDSL_ENGINE=closures is the reference the generated code is compared with."""
    monkeypatch.setenv("RULESDSL_ENGINE", "closures")
    data = json.loads(fixture_path(path).read_text(encoding="utf-8"))
    game = rulesdsl.load(str(path))
    assert all(proc.run is None for proc in game.program(data["games"][0][1]).procs)
    for g in [g for g in data["games"] if g[2] == 0][:5]:
        assert play(game, g[1], g[0]) == g[3:]


def test_a_frame_saved_mid_procedure_resumes_in_either_engine(monkeypatch):
    """Positions are the same in both: a save of one continues in the other."""
    monkeypatch.setenv("RULESDSL_ENGINE", "generated")
    game = rulesdsl.load("triumvirat")
    st = game.new_game(seed=3)
    for _ in range(40):
        st.apply(st.legal_actions()[0])
    text = st.to_json()
    monkeypatch.setenv("RULESDSL_ENGINE", "closures")
    other = rulesdsl.restore(rulesdsl.load("triumvirat"), text)
    for _ in range(60):
        a, b = st.legal_actions(), other.legal_actions()
        assert [x.label for x in a] == [x.label for x in b]
        st.apply(a[-1])
        other.apply(b[-1])
    assert st.to_json() == other.to_json()


def test_the_machine_enters_one_generated_function_per_action(monkeypatch):
    """A phase that a phase calls runs at once in its caller's code (_run_called), and a
    return goes on with the frame under it (_resume_under): in Triumvirat, whose phases
    leave only by calling, returning, asking or winning, each run of the machine after a
    choice enters the generated code once, from its loop (it took two where the trick's
    phase returned to the round's after the answer)."""
    monkeypatch.setenv("RULESDSL_ENGINE", "generated")
    game = rulesdsl.load("triumvirat")
    prog = game.program(2)
    machine = Path(machine_module.__file__).resolve()
    from_loop = [0]

    def counted(run):
        def enter(st, fr, *rest):
            caller = sys._getframe(1).f_code
            if caller.co_name == "run" and Path(caller.co_filename).resolve() == machine:
                from_loop[0] += 1
            return run(st, fr, *rest)
        return enter
    monkeypatch.setattr(prog, "procs", [with_run(proc, counted(proc.run))
                                        for proc in prog.procs])
    st = game.new_game(seed=2)
    rng = random.Random(2)
    actions = 0
    from_loop[0] = 0
    while not st.is_over and actions < 200:
        st.apply(rng.choice(st.legal_actions()))
        actions += 1
    assert from_loop[0] == actions


def with_run(proc, run):
    """A copy of procedure `proc` whose generated function is `run`."""
    made = copy.copy(proc)
    made.run = run
    return made


def test_options_made_at_once_leave_the_frame_as_the_closures_do(monkeypatch):
    """A first alternative's options made by one map (python_options all_at_once) leave
    its binder holding the last candidate, as the loop of the closures does: the frames,
    which saves hold, are the same at every decision of a game."""
    games = {}
    for engine in ("closures", "generated"):
        monkeypatch.setenv("RULESDSL_ENGINE", engine)
        games[engine] = rulesdsl.load("triumvirat")
        games[engine].program(2)  # compiled now, with this engine
    assert all(proc.run is None for proc in games["closures"].program(2).procs)
    assert "map(" in games["generated"].program(2).generated
    states = [games[e].new_game(seed=5) for e in ("closures", "generated")]
    rng = random.Random(5)
    for _ in range(120):
        labels = [[a.label for a in st.legal_actions()] for st in states]
        assert labels[0] == labels[1]
        assert states[0].frames == states[1].frames
        pick = rng.choice(labels[0])
        for st in states:
            st.apply(pick)


@pytest.mark.parametrize("body, code, line", [
    ("phase main {\n  set n = 1\n  let c = top(table)\n  set n = c.value\n}\n", "R013", 12),
    ("var z: int = none\nphase main {\n  set n = 1\n  set n = n + z\n}\n", "R013", 12),
    ("phase main {\n  while true {\n    set n = 1\n  }\n}\n", "R003", None),
    ("phase main {\n  let xs = [1, 2]\n  set n = xs[5]\n}\n", "R014", 11),
    ("var dice: list of int = [3, 4]\nphase main {\n  set n = dice[1]\n  set n = dice[2]\n}\n",
     "R014", 12),                 # a list variable of no index is indexed as its list is
    ("phase main {\n  set n = 1\n  set n = 7 / (n - 1)\n}\n", "R015", 11),
    ("var z: int = none\nphase main {\n  set n = 1\n  set n = z % 2\n}\n", "R001", 12),
    ("phase main {\n  set n = 1\n  if seat(n + 4) == seat(0) { set n = 2 }\n}\n", "R017", 11),
    ("board Cell grid 3 x 3\nvar at: Cell = none\nphase main {\n  set n = 1\n"
     "  set n = column_of(at) + row_of(at)\n}\n", "R013", 13),
    ("zone hand per player hidden\nphase main {\n  set n = 1\n  set n = 2\n"
     "  deal 5 from stock to hand\n  set n = 3\n}\n", "R022", 13),
    # generated forms of their own: playing a card, others, ranges, `is in`, max, joined lists
    ("phase main {\n  set n = 1\n  play top(table) by seat(0) to table\n}\n", "R012", 11),
    ("var z: player = none\nphase main {\n  set n = 1\n  set n = size(others(z))\n}\n",
     "R001", 12),
    ("phase main {\n  set n = 0\n  set n = sum(x for x in 1..5 step n)\n}\n", "R016", 11),
    ("var z: int = none\nphase main {\n  set n = 1\n  set n = sum(x for x in 1..z)\n}\n",
     "R001", 12),
    ("var z: int = none\nphase main {\n  set n = 1\n"
     "  set n = max(x for x in [1, z, 3] where x != 3)\n}\n", "R001", 12),
    ("phase main {\n  set n = 1\n  set n = min(c.value for c in stock + table where c.value > n)\n"
     "  if top(table) is in stock + [top(table)] { set n = top(table).value }\n}\n", "R013", 12),
    # in a phase that a phase's generated code runs at once (generate._run_called)
    ("phase main {\n  set n = 1\n  inner\n  set n = 2\n}\nphase inner {\n  set n = 1\n"
     "  let c = top(table)\n  set n = c.value\n}\n", "R013", 17),
    ("phase main {\n  inner\n}\nphase inner {\n  set n += 1\n  inner\n}\n", "R004", None),
    # (a Python error the machine turns into R001: placed by the innermost phase's line)
    ("var z: int = none\nphase main {\n  set n = 1\n  inner\n  set n = 2\n}\n"
     "phase inner {\n  set n = 1\n  set n = z % 2\n}\n", "R001", 17),
])
def test_errors_name_the_same_place_in_both_engines(tmp_path, monkeypatch, body, code, line):
    seen = [error_of(load(tmp_path, body, engine, monkeypatch, step_limit=5000), code, line)
            for engine in ("closures", "generated")]
    assert seen[0] == seen[1]


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_loop_of_phase_calls_ends_at_the_step_limit(tmp_path, monkeypatch, engine):
    """A phase the generated code runs at once (generate._run_called) comes back to its
    caller without Machine.run counting a step: the caller's loop still counts its own
    (where each engine stops inside the loop may differ, as for any runaway loop)."""
    body = ("phase main {\n  repeat {\n    inner\n  } until n < 0\n}\n"
            "phase inner {\n  set n = 1\n}\n")
    game = load(tmp_path, body, engine, monkeypatch, step_limit=5000)
    with pytest.raises(RulesError) as info:
        game.new_game(seed=1)
    assert info.value.code == "R003" and info.value.span.line in (11, 12), str(info.value)


def error_of(game, code: str, line) -> tuple:
    """The error starting a game raises: its code, message, rules line and call chain."""
    with pytest.raises(RulesError) as info:
        game.new_game(seed=1)
    e = info.value
    assert e.code == code, str(e)
    if line is not None:
        assert e.span.line == line, str(e)
    chain = [re.sub(r"\(/.*/", "(", step) for step in e.trace]  # each engine has a folder
    return e.code, e.message, e.span.line if e.span else None, chain


ROLLBACK = ("phase main {\n  repeat {\n    ask seat(0) \"pick\" {\n      \"fine\" { set n += 1 }\n"
            "      \"broken\" { set n = top(table).value }\n    }\n  } until n > 3\n"
            "  win seat(0)\n}\n")


def test_a_failed_action_leaves_the_state_unchanged_in_generated_code(tmp_path, monkeypatch):
    rolls_back(load(tmp_path, ROLLBACK, "generated", monkeypatch))


def rolls_back(game) -> None:
    """A rules error in the chosen option's body leaves the state as it was (ROLLBACK)."""
    st = game.new_game(seed=1)
    st.apply("fine")
    before = st.to_json()
    with pytest.raises(RulesError) as info:
        st.apply("broken")
    assert info.value.code == "R013" and info.value.span.line == 13
    assert st.to_json() == before
    st.apply("fine")
    assert st.var("n") == 2


def test_expressions_nested_past_pythons_parser_fall_back_to_closures(tmp_path, monkeypatch):
    body = "phase main {\n  set n = " + " + ".join(["1"] * 150) + "\n  win seat(0)\n}\n"
    st = load(tmp_path, body, "generated", monkeypatch).new_game(seed=1)
    assert st.var("n") == 150


def test_compiled_code_is_cached_by_its_text():
    rulesdsl.load("triumvirat").program(2)
    before = generate.cache_info()
    rulesdsl.load("triumvirat").program(2)
    after = generate.cache_info()
    assert after["misses"] == before["misses"] and after["hits"] > before["hits"]


def test_compile_show_prints_the_rules_above_their_python():
    out = subprocess.run([sys.executable, "-m", "rulesdsl", "compile", "triumvirat", "--show"],
                         capture_output=True, text=True, check=True).stdout
    assert "def proc_" in out and "# triumvirat.rules:" in out
    # a statement of the rules, then the Python that does it
    i = out.index("set consuls[colour] += 1")
    assert "st.vars[_k] = _v" in out[i:i + 400]
    compile(out, "<listing>", "exec")  # the listing is valid Python


def test_the_listing_shows_a_constant_where_the_rules_work_one_out(tmp_path, monkeypatch):
    """`if player_count <= 3 then 5 else 4` is 5 at two players, written as 5, and a loop
    comparing with it checks none but its other side (passes.folded)."""
    text = ('game "Folded"\nplayers 2..5\nvar n: int = 0\n'
            'define goal = if player_count <= 3 then 5 else 4\n'
            'flow main\nphase main {\n  for p in players {\n'
            '    if n + 1 >= goal {\n      set n = 0\n    }\n  }\n'
            '  set n = goal * 10 + (if player_count == 2 and not false then 1 else 2)\n'
            '  win seat(0)\n}\n')
    for players, expected in ((2, 51), (4, 42)):
        game = load_text(tmp_path, text, "generated", monkeypatch)
        assert game.new_game(players=players, seed=1).var("n") == expected
        listing = game.program(players).generated
        assert "player_count" not in listing and " <= 3" not in listing, listing
        assert f">= {expected // 10}" in listing, listing


def test_every_line_of_the_listing_that_names_a_rules_line_shows_it():
    """A function's title, a phase's `def` and each statement: where a comment names a
    line of the rules, that line follows (found from the spans the compiler kept, not by
    reading the text back)."""
    game = rulesdsl.load("triumvirat")
    prog = game.program(2)
    rules = {line.strip() for src in game.sources.values() for line in src.splitlines()}
    shown = generate.annotate(prog, game.sources).split("\n")
    plain = prog.generated.split("\n")
    assert len(shown) == len(plain)
    titles = [i for i, line in enumerate(plain) if line.startswith("# define ")]
    heads = [i for i, line in enumerate(plain) if line.startswith("def proc_")]
    assert titles and heads and prog.generated_places
    for i in titles + heads + list(prog.generated_places):
        said = shown[i][len(plain[i]):].strip()
        assert said in rules and said, shown[i]


def test_compile_reports_and_refuses_a_bad_player_count():
    ok = subprocess.run([sys.executable, "-m", "rulesdsl", "compile", "ivanhoe", "--players", "4"],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and "instructions as inline Python" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "rulesdsl", "compile", "triumvirat",
                          "--players", "5"], capture_output=True, text=True)
    assert bad.returncode != 0 and "C004" in bad.stderr and "Traceback" not in bad.stderr


def test_log_words_are_written_when_read_and_read_as_the_closures_write_them(monkeypatch):
    """A playout never reads its log, so the generated code leaves plain words (players,
    cards, colours) unwritten until somebody reads them; then they are the closures'."""
    from rulesdsl.engine.journal import Later

    def waits(entry) -> bool:  # ends in (Later, render, values)
        return type(entry[-1]) is tuple and entry[-1][:1] == (Later,)
    logs = {}
    for engine in ("generated", "closures"):
        monkeypatch.setenv("RULESDSL_ENGINE", engine)
        st = rulesdsl.load("triumvirat").new_game(seed=5)
        for _ in range(30):
            st.apply(st.legal_actions()[-1])
        waiting = sum(map(waits, st.events._tail))
        assert (waiting > 0) == (engine == "generated")
        clone = st.clone()  # shares the words, written once
        logs[engine] = (st.log, st.view(1)["log"], clone.to_json(), clone.view(0)["log"])
        assert not any(map(waits, st.events))
    assert logs["generated"] == logs["closures"]


@pytest.mark.parametrize("engine", ["generated", "closures"])
def test_words_past_the_text_limit_fail_when_the_move_is_made(tmp_path, monkeypatch, engine):
    """Words that could pass the limit are written at once, so the error comes from the
    move and the state stays as it was."""
    monkeypatch.setenv("RULESDSL_LIMITS", "text_length=12")
    body = ("phase main {\n  ask seat(0) \"go\" { \"go\" { } }\n  let c = top(stock)\n"
            "  move c to table as \"{c} is laid down here\"\n  win seat(0)\n}\n")
    st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
    before = st.to_json()
    with pytest.raises(RulesError) as info:
        st.apply("go")
    assert "12" in str(info.value) and info.value.span.line == 12
    assert st.to_json() == before


def test_playable_reads_the_same_in_both_engines(tmp_path, monkeypatch):
    """playable(c, p) as one generated function: a kind's condition, a kind without one
    (always playable), and none (never)."""
    rules = '''game "Playable"
players 2
kind card { value: int  label "card {value}" }
kind big: card { playable by p if self.value > n or p == seat(1) }
zone stock hidden
zone table public
deck stock { big(1..3)  card(7) }
var n: int = 1
flow main
phase main {
  set n = count(c in stock where playable(c, seat(1)))
  set n = n * 10 + count(c in stock where playable(c, seat(0)))
  set n = n * 10 + (if playable(top(table), seat(0)) then 1 else 0)
  win seat(0)
}
'''
    values = []
    for engine in ("generated", "closures"):
        values.append(load_text(tmp_path, rules, engine, monkeypatch).new_game(seed=1).var("n"))
    # seat 1 may play every big and the plain card: n = 4; then seat 0 no big (none above
    # 4) but the card: 41; the empty table's top is none, never playable: 410
    assert values == [410, 410]


@pytest.mark.parametrize("engine", ["generated", "closures"])
def test_a_pure_definition_is_computed_once_per_arguments_while_options_are(
        tmp_path, monkeypatch, engine):
    """While a decision's options are computed the state stands still, so `heavy(seat(0))`
    runs once for the three candidates, not once each: three runs would spend more work
    than the limit allows."""
    body = ("define heavy(p: player) = sum(x for x in 1..100)\n"
            "define check(c: card) = heavy(seat(0)) > c.value\n"
            "phase main {\n  ask seat(0) \"pick\" {\n"
            "    c in stock where check(c) { set n = c.value }\n  }\n  win seat(0)\n}\n")
    monkeypatch.setenv("RULESDSL_LIMITS", "work=300")  # one run of heavy: about 200
    st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
    assert sorted(a.label for a in st.legal_actions()) == ["card 1", "card 2", "card 3"]
    monkeypatch.setenv("RULESDSL_LIMITS", "work=150")  # not even one
    with pytest.raises(RulesError) as info:
        load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
    assert info.value.code == "R005"


@pytest.mark.parametrize("engine", ["generated", "closures"])
def test_a_definition_over_a_card_is_computed_at_each_call_while_options_are(
        tmp_path, monkeypatch, engine):
    """A definition with a card among its parameters is asked per card, so its answers
    are not kept: asked twice for each of three candidates, it runs six times, spending
    six times its work, in both engines (kept, it would run three times)."""
    body = ("define heavy(c: card) = sum(x for x in 1..50) + c.value\n"
            "phase main {\n  ask seat(0) \"pick\" {\n"
            "    c in stock where heavy(c) > 0 and heavy(c) > 1 { set n = c.value }\n"
            "  }\n  win seat(0)\n}\n")
    monkeypatch.setenv("RULESDSL_LIMITS", "work=700")  # six runs: about 6 x 100
    st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
    assert sorted(a.label for a in st.legal_actions()) == ["card 1", "card 2", "card 3"]
    monkeypatch.setenv("RULESDSL_LIMITS", "work=450")  # three runs, not six
    with pytest.raises(RulesError) as info:
        load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
    assert info.value.code == "R005"


@pytest.mark.parametrize("engine", ["generated", "closures"])
def test_a_simple_definition_spends_no_work_and_one_that_visits_a_list_does(
        tmp_path, monkeypatch, engine):
    """Within a work limit of 3 (all the deck's range spends before), simple definitions
    (reads, comparisons, `let`, a call of one that calls none) spend nothing; one that
    visits a list spends 1 a call, 5 here. Generated code writes the simple ones where they
    are called. (A chain of calls is counted: tests/robust/test_budget.py.)"""
    body = ("define big(c: card) = c.value > 2\n"
            "define small(c: card) = let v = c.value in v < 2\n"
            "define via_big(c: card) = big(c)\ndefine via_small(c: card) = small(c)\n"
            "define bigger(c: card) = count(x in table where x == c) == 0 and c.value > 2\n"
            "define smaller(c: card) = count(x in table where x == c) == 0 and c.value < 2\n"
            "phase main {\n  ask seat(0) \"pick\" {\n"
            "    c in stock where WHICH { set n = c.value }\n  }\n  win seat(0)\n}\n")
    monkeypatch.setenv("RULESDSL_LIMITS", "work=3")
    simple = body.replace("WHICH", "via_big(c) or via_small(c)")
    st = load(tmp_path, simple, engine, monkeypatch).new_game(seed=1)
    assert sorted(a.label for a in st.legal_actions()) == ["card 1", "card 3"]
    with pytest.raises(RulesError) as info:
        load(tmp_path, body.replace("WHICH", "bigger(c) or smaller(c)"), engine,
             monkeypatch).new_game(seed=1)
    assert info.value.code == "R005"
    if engine == "generated":
        text = load(tmp_path, simple, engine, monkeypatch).program(2).generated
        options = text[text.index("def options("):].split("\n\n")[0]
        # (big, a card's own value, read from its table per card; small has a let)
        assert "define_" not in options and "BIG_OF_CARD[x]" in options and "< 2" in options


@pytest.mark.parametrize("engine", ["generated", "closures"])
def test_a_definition_that_indexes_an_enum_as_a_list_is_simple(tmp_path, monkeypatch, engine):
    """`Level[k]` reads one value of a fixed list: a definition made of it (a board
    counted per point, `at(k) = counts[Level[k]]`) is as simple as the read, so it and
    one calling it spend no work (within a limit of 3, where the deck's range spends
    before, three calls that spent would fail) and generated code writes them where they
    are called."""
    body = ("enum Level { low, mid, high }\nvar counts: int per Level = 1\n"
            "define at(k: int) = counts[Level[k]]\n"
            "define open(k: int, j: int, m: int) = at(k) + at(j) + at(m) > 2\n"
            "phase main {\n  ask seat(0) \"pick\" {\n"
            "    c in stock where open(0, 1, c.value - 1) { set n = c.value }\n"
            "  }\n  win seat(0)\n}\n")
    monkeypatch.setenv("RULESDSL_LIMITS", "work=3")
    game = load(tmp_path, body, engine, monkeypatch)
    assert sorted(a.label for a in game.new_game(seed=1).legal_actions()) == \
        ["card 1", "card 2", "card 3"]
    if engine == "generated":
        text = game.program(2).generated
        options = text[text.index("def options("):].split("\n\n")[0]
        assert "define_" not in options


LABELS = '''game "Labels"
players 2
kind card { value: int  label "card {value}" }
zone stock hidden
zone hand per player private
zone table public
deck stock { card(1..4)  card(2)  card(3) }
var n: int = 0
flow main
phase main {
  move top(stock, 6) to hand[seat(0)]
  set n = 7
  repeat {
    ask seat(0) "pick" {
      "pick {c} worth {c.value}" for c in hand[seat(0)] { move c to table }
      "drop {c}" for c in hand[seat(0)] where c.value > 1 { move c to stock }
      "drop {c}" for c in table where c.value == 2 { set n -= 1 }
      "pass" { set n = 0 }
    }
    log "{top(table)} lies on the table; {n} to go"
  } until size(hand[seat(0)]) == 0 or n == 0
  win seat(0)
}
'''


def test_card_option_labels_are_worked_out_once_and_read_as_the_closures_write_them(
        tmp_path, monkeypatch):
    """An option's label that reads only its card (the card, its fields) is a table by
    card id in generated code, made when the game loads, and where no label before can
    read like one of its labels, the whole options are: the same options, in the same
    order, as the closures make per decision, alike cards (two "card 2") one option, a
    label taken by an earlier alternative numbered, and the same game. Log words reading
    the top card and a variable are written later."""
    runs = {}
    for engine in ("generated", "closures"):
        game = load_text(tmp_path, LABELS, engine, monkeypatch)
        st = game.new_game(seed=3)
        seen = []
        while not st.is_over:
            labels = [a.label for a in st.legal_actions()]
            seen.append(labels)
            st.apply(labels[len(seen) % len(labels)])
        runs[engine] = (seen, st.log, st.to_json())
        if engine == "generated":
            text = game.program(2).generated
            options = text[text.index("def options("):].split("\n\n")[0]
            # the first two alternatives' options made once per card, alike ones
            # dropped after; the third's labels may be the second's: read from a table
            assert options.count("OPTIONS") == 2 and "first_of_each_label(out)" in options
            assert options.count("LABELS") == 1 and "worth" not in options, options
            assert "(LATER, W" in text[text.index("lies on the table"):]
    assert runs["generated"] == runs["closures"]
    first = runs["generated"][0][0]
    assert first.count("pick card 2 worth 2") == 1 and "pass" in first
    assert any("drop card 2 (3)" in labels for labels in runs["generated"][0])


@pytest.mark.parametrize("engine", ["generated", "closures"])
def test_option_labels_past_the_text_limit_fail_when_the_decision_is_made(
        tmp_path, monkeypatch, engine):
    """A label table is only made where every label keeps within the text limit; past it,
    the error comes when the decision is made, naming the ask's option, in both engines."""
    monkeypatch.setenv("RULESDSL_LIMITS", "text_length=16")
    body = ("phase main {\n  ask seat(0) \"go\" { \"go\" { } }\n  ask seat(0) \"pick\" {\n"
            "    \"take {c} now, please\" for c in stock { set n = c.value }\n  }\n"
            "  win seat(0)\n}\n")
    st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
    with pytest.raises(RulesError) as info:
        st.apply("go")
    assert info.value.code == "R008" and info.value.span.line == 12


def test_a_loop_invariant_is_computed_when_first_needed(tmp_path, monkeypatch):
    """`c.value + 1` reads nothing the loop over `table` binds: generated code keeps it in a
    local of the loop's function, computed when the first card needs it. So an empty
    table never computes it (c is none there: no error), the counts are the closures',
    and with cards on the table a none fails at the same place as in the closures, which
    compute it per card."""
    body = ("define above(c: card) = count(x in table where x.value == c.value + 1)\n"
            "phase main {\n  set n = above(top(table))\n"
            "  move top(stock, 2) to table\n  set n = n * 10 + above(bottom(table))\n"
            "  set n = n * 10 + above(top(stock))\n  win seat(0)\n}\n")
    counts = []
    for engine in ("generated", "closures"):
        game = load(tmp_path, body, engine, monkeypatch)
        counts.append(game.new_game(seed=1).var("n"))
        if engine == "generated":
            text = game.program(2).generated
            loop = text[text.index("# count at"):].split("\n\n")[0]
            assert "= MISSING" in loop and loop.index("= MISSING") < loop.index("for x in s")
        broken = body.replace("above(top(stock))", "above(none)")
        with pytest.raises(RulesError) as info:
            load(tmp_path, broken, engine, monkeypatch).new_game(seed=1)
        assert info.value.code == "R013" and info.value.span.line == 9
    # an empty table: 0; then two of the three cards lie there, and both the bottom one
    # and the one left on the stock have the next value among them: 1 and 1
    assert counts == [11, 11]


GATHER = '''game "Gather"
players 2
kind card { value: int  label "card {value}"
  on play by p { move cards to table  move top(table) to hand[p] } }
zone stock hidden
zone hand per player private
zone table public
zone pile public
deck stock { card(1..4)  card(2) }
invariant pile keeps 1 during effects
var n: int = 3
var rounds: int = 0
flow main
phase main {
  repeat {
    set rounds += 1
    ask seat(0) "bid" {
      b in 1..n step 1 where b != 2 { set n += b }
      "3" { set n = 1 }
      "twice" { set n -= 1 }
    }
    ask seat(1) "guess" {
      "guess {c}" for c in cards where c.value > 1 { move c to pile }
    }
    move cards to stock
    shuffle stock
    move top(stock, 2) to hand[seat(0)]
    move top(stock) to table
    ask seat(0) "play" {
      c in hand[seat(0)] { play c by seat(0) to pile }
    }
    log "{n} now"
  } until n > 12 or rounds == 5
  win seat(0)
}
'''


def test_gathering_cards_and_options_over_numbers_and_all_cards_match_the_closures(
        tmp_path, monkeypatch):
    """`move cards to ZONE` is one engine call in generated code (State.move_all_cards),
    not a list of every card moved pile by pile; options over a range of numbers are made
    once per number; `"guess {c}" for c in cards` reads a label table. Each does what the
    closures do: the same options in the same order (a named option after the numbers
    that reads like one gets its number), the same log, the same state, the same work
    spent; inside a card's effect, where the pile keeps its first card, the gather takes
    the closures' way."""
    runs = {}
    for engine in ("generated", "closures"):
        game = load_text(tmp_path, GATHER, engine, monkeypatch)
        seen = []
        for seed in range(4):
            st = game.new_game(seed=seed)
            while not st.is_over:
                labels = [a.label for a in st.legal_actions()]
                seen.append(labels)
                st.apply(labels[(len(seen) * 7 + seed) % len(labels)])
            seen.append((st.log, st.to_json()))
        runs[engine] = seen
        if engine == "generated":
            text = game.program(2).generated
            assert text.count("st.move_all_cards(") == 2  # the effect's runs the other way
            assert "NUMBER_OPTIONS" in text and "LABELS" in text
            st = game.new_game(seed=0)
            assert all(a is b for a, b in zip(st._pending()[1], st._pending()[1]))
    assert runs["generated"] == runs["closures"]
    assert ["1", "3", "3 (2)", "twice"] == runs["generated"][0]
    assert len({lab for labs in runs["generated"][:-1] if isinstance(labs, list)
                for lab in labs if lab.startswith("guess")}) == 3


def test_gathering_cards_spends_what_moving_each_card_spends(tmp_path, monkeypatch):
    """The work budget's moves: `move cards to ZONE` costs one per card plus a thousandth
    of each pile left, the same in both engines; past the limit it fails at the move."""
    body = ("phase main {\n  move cards to table\n  move cards to stock\n  win seat(0)\n}\n")
    for engine in ("generated", "closures"):
        for limit, line in ((2, 10), (5, 11)):  # three cards, then three again
            monkeypatch.setenv("RULESDSL_LIMITS", f"moves={limit}")
            with pytest.raises(RulesError) as info:
                load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
            assert (info.value.code, info.value.span.line) == ("R006", line), engine
        monkeypatch.setenv("RULESDSL_LIMITS", "moves=6")
        st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
        assert st.zone("stock") == ["card 1", "card 2", "card 3"]


@pytest.mark.parametrize("engine", ["closures", "generated"])
def test_a_count_of_values_counts_every_element(tmp_path, monkeypatch, engine):
    """`count(v for x in L)`: one for each element, whatever its value, its values worked
    out as `sum` works them out (a value but no `where` once failed as a missing value)."""
    body = ("phase main {\n  set n = count(c.value * 0 for c in stock) + "
            "count(1 for q in players)\n  win seat(0)\n}\n")
    st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
    assert st.var("n") == 5


def test_a_definition_written_where_it_is_called_reads_its_plain_arguments_there(
        tmp_path, monkeypatch):
    """`at(k, 2)` inside a list over k: the arguments, a loop's element and a constant,
    are read where the definition's value uses them, not bound to temporaries first; an
    argument that computes something (`k + 1`) still is: computed once, before the rest;
    so is a local the value reads three times (a temporary is read quicker then), but for
    the loop's element, which the loop reads as its own local `x` (no slot per element)."""
    body = """define at(k: int, j: int) = k * 10 + j
phase main {
  set n = sum(at(k, 2) for k in 1..3) + sum(at(k + 1, 2) for k in 1..3)
  win seat(0)
}
"""
    game = load(tmp_path, body, "generated", monkeypatch)
    assert game.new_game(seed=1).var("n") == 66 + 96
    text = game.program(2).generated
    assert not re.search(r"\(_t\d+ := (L\[\d+\]|2)\) is None or True", text), text
    assert re.search(r"\(_t\d+ := \(+_v\d+ if", text), text  # k + 1: bound first
    thrice = load(tmp_path, body.replace("k * 10 + j", "k * 10 + k + k + j"), "generated",
                  monkeypatch)
    assert thrice.new_game(seed=1).var("n") == (12 * 6 + 6) + (12 * 9 + 6)
    text = thrice.program(2).generated
    assert re.search(r"\(x \* 10\)\) <= MAX_INT.* \+ x\)\) <= MAX_INT", text), text
    assert not re.search(r"for x in s:\n *L\[\d+\] = x", text), text  # no slot per element
    local = load(tmp_path, body.replace("k * 10 + j", "k * 10 + j + j + j").replace(
        "set n = ", "let m = 2\n  set n = ").replace("at(k, 2)", "at(k, m)"), "generated",
        monkeypatch)
    assert local.new_game(seed=1).var("n") == (60 + 18) + (90 + 18)
    assert re.search(r"\(_t\d+ := L\[\d+\]\) is None or True", local.program(2).generated)


@pytest.mark.parametrize("engine", ["closures", "generated"])
@pytest.mark.parametrize("statement", ["set n = z % 2", "set w = Colour[z]"])
def test_a_missing_value_is_told_in_the_rules_words(tmp_path, monkeypatch, engine, statement):
    """R001, where Python itself stops a rule: the reason in words, never Python's own
    message ("'<=' not supported between instances of 'int' and 'NoneType'")."""
    body = ("enum Colour { red, blue }\nvar z: int = none\nvar w: Colour = none\n"
            f"phase main {{\n  {statement}\n}}\n")
    with pytest.raises(RulesError) as info:
        load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
    e = info.value
    assert e.code == "R001", str(e)
    assert e.message == ("the rules used a missing value here (none where a number, card "
                         "or player was needed)")


@pytest.mark.parametrize("engine", ["generated", "closures"])
def test_a_list_variable_of_no_index_is_indexed_as_a_list(tmp_path, monkeypatch, engine):
    game = load(tmp_path, 'var dice: list of int = [3, 4]\n'
                'phase main {\n  log "{dice[0]} {dice[1]}"\n  win seat(0)\n}\n',
                engine, monkeypatch)
    assert game.new_game(2, seed=1).log[-2:-1] == ["3 4"]


def test_words_by_seat_are_written_in_the_generated_code_as_the_closures_write_them(
        monkeypatch):
    """A log line and a move's words with a hole not every seat may read are operations of
    the typed form (LogBySeat, MoveBySeat over SeatWords), which both back ends write: the
    generated procedures call no instruction's closure for them, and every seat reads the
    same log and story from either engine."""
    path = Path(rulesdsl.__file__).parent.parent / "tests" / "play" / "secret_words.rules"
    seen = {}
    for engine in ("closures", "generated"):
        monkeypatch.setenv("RULESDSL_ENGINE", engine)
        game = rulesdsl.load(str(path))
        for players in (2, 3):
            state = game.new_game(players=players, seed=1)
            state.apply("go on")
            state.apply("take")
            seen[engine, players] = (state.log, [state.view(s)["log"] for s in range(players)],
                                     [state.story(s) for s in range(players)])
        if engine == "generated":
            text = game.program(3).generated
            procs = text[text.index("def proc_"):]
            assert not re.search(r"^\s+I\d+\(st, fr\)$", procs, re.M), procs
    for players in (2, 3):
        assert seen["closures", players] == seen["generated", players]
    full, by_seat, _ = seen["generated", 2]
    assert "P1's secret is 42" in full and "P1's secret is ?" in by_seat[1]


def test_a_definition_is_written_where_it_is_called_only_if_it_nests_shallowly(tmp_path,
                                                                                monkeypatch):
    """A simple definition's value is written where it is called, unless its tree nests
    deeper than 40 (Functions.note_inline): measured on the tree, whose depth bounds its
    brackets' (ten checked sums in brackets: a tree 42 deep, written with 31 brackets).
    `deep` is called on a variable: on a constant its value is folded whole."""
    deep = "(" * 10 + "x" + "".join(f" + {k})" for k in range(10))
    text = ('game "Deep"\nplayers 2\nvar n: int = 0\n'
            'define shallow(x: int) = if x == 1 then 10 else 20\n'
            f'define deep(x: int) = {deep}\n'
            'flow main\nphase main {\n  set n = shallow(1) * 100 + deep(n + 1)\n  win seat(0)\n}\n')
    game = load_text(tmp_path, text, "generated", monkeypatch)
    assert game.new_game(seed=1).var("n") == 1046
    calls = re.findall(r"define_(\w+?)_\w*\(st", game.program(2).generated)
    assert "deep" in calls and "shallow" not in calls, calls


def test_a_definition_that_spends_work_is_written_where_it_is_called_spending_as_before(
        tmp_path, monkeypatch):
    """A definition with a `let` and an aggregate, called per card (not remembered: a card
    is among its parameters), is written where it is called (Functions.note_inline), its
    unit of work spent there and the aggregate handed a frame of its parameters and lets:
    under every work limit the two engines list the same options or fail alike (R005),
    the options' code calls no definition's function, and the work spent is the same."""
    body = ("define above(c: card) = let k = c.value in k < 3 and count(x in stock where "
            "x.value > k) >= 1\n"
            "define pick(c: card) = if n == 0 then above(c) else false\n"
            "phase main {\n  ask seat(0) \"pick\" {\n"
            "    c in stock where pick(c) { set n = c.value }\n  }\n  win seat(0)\n}\n")
    seen: dict = {}
    for work in range(0, 16):
        monkeypatch.setenv("RULESDSL_LIMITS", f"work={work}")
        for engine in ("closures", "generated"):
            try:
                st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
                seen[engine, work] = sorted(a.label for a in st.legal_actions())
            except RulesError as e:
                seen[engine, work] = e.code
        assert seen["closures", work] == seen["generated", work], work
    outcomes = [seen["generated", work] for work in range(0, 16)]
    assert "R005" in outcomes and ["card 1", "card 2"] in outcomes
    monkeypatch.delenv("RULESDSL_LIMITS")
    text = load(tmp_path, body, "generated", monkeypatch).program(2).generated
    options = text[text.index("def options("):].split("\n\n")[0]
    assert "define_" not in options and "spend" in options, options


def test_the_units_a_candidates_test_spends_first_are_taken_at_once_failing_as_before(
        tmp_path, monkeypatch):
    """Hearts' `c in hand[p] where may_play(p, c)`, may_play choosing by a test that cannot
    fail between two definitions that spend work: its unit and the chosen one's are taken
    with one check per candidate (python.spends_first, spent_in_turn); past the limit each
    is given back and spent one at a time, so that under every work limit both engines
    list the same options or fail alike, and the generated code names the definition whose
    own unit ran out (each of the three at some limit), as when each was spent alone."""
    rules = ("define low(c: card) = count(x in stock where x.value < c.value) >= 1\n"
             "define high(c: card) = count(x in table where x.value > c.value) == 0\n"
             "define pick(c: card) = if n OP 0 then low(c) else high(c)\n"
             "phase main {\n  repeat {\n    ask seat(0) \"pick\" {\n"
            "      c in stock where pick(c) { move c to table  set n += 1 }\n    }\n"
             "  } until n == 2\n  win seat(0)\n}\n")
    seen: dict = {}
    places = set()
    both_ways = [rules.replace("OP", "=="), rules.replace("OP", "!=")]
    for body, work in itertools.product(both_ways, range(1, 30)):
        monkeypatch.setenv("RULESDSL_LIMITS", f"work={work}")
        for engine in ("closures", "generated"):
            try:
                st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
                labels = [a.label for a in st.legal_actions()]
                st.apply(st.legal_actions()[-1])
                seen[engine] = (labels, [a.label for a in st.legal_actions()])
            except RulesError as e:
                seen[engine] = e.code
                if engine == "generated" and e.span is not None:
                    places.add((e.span.line, e.span.column))
        assert seen["closures"] == seen["generated"], (body, work)
    assert {(9, 1), (10, 1), (11, 1)} <= places, places  # low's, high's, pick's own unit
    monkeypatch.delenv("RULESDSL_LIMITS")
    text = load(tmp_path, rules.replace("OP", "=="), "generated", monkeypatch).program(2).generated
    options = text[text.index("def options("):].split("\n\n")[0]
    assert "work -= 2" in options and "setattr" not in options, options



def test_an_options_loop_is_unswitched_and_its_first_part_computed_after_the_first_spend(
        tmp_path, monkeypatch):
    """Hearts' may_play: `if size(table) == 0 then low(c) else high(c)`, whose test can
    neither fail nor change anything, is worked out once and the loop written for each
    branch (invariants.switch_of); in low's loop the pure `more(n)`, which every
    candidate computes first after spending its units, is computed before the loop: the
    first candidate's units taken, `more` computed, the units given back for the loop to
    take again (invariants._spent_before). Under every work limit both engines list the
    same options or fail alike, and the generated code names the places it named before
    the change (more's own units at 3-5, then pick's and low's in turn)."""
    rules = ("define more(k: int) = count(x in stock where x.value > k) >= 1\n"
             "define low(c: card) = if more(n) then c.value > 1 else c.value < 3\n"
             "define high(c: card) = count(x in table where x.value > c.value) == 0\n"
             "define pick(c: card) = if size(table) == 0 then low(c) else high(c)\n"
             "phase main {\n  repeat {\n    ask seat(0) \"pick\" {\n"
             "      c in stock where pick(c) { move c to table  set n += 1 }\n    }\n"
             "  } until n == 2\n  win seat(0)\n}\n")
    seen: dict = {}
    places = {}
    for work in range(1, 16):
        monkeypatch.setenv("RULESDSL_LIMITS", f"work={work}")
        for engine in ("closures", "generated"):
            try:
                st = load(tmp_path, rules, engine, monkeypatch).new_game(seed=1)
                labels = [a.label for a in st.legal_actions()]
                st.apply(st.legal_actions()[-1])
                seen[engine] = (labels, [a.label for a in st.legal_actions()])
            except RulesError as e:
                seen[engine] = e.code
                if engine == "generated" and e.code == "R005":
                    places[work] = (e.span.line, e.span.column)
        assert seen["closures"] == seen["generated"], work
    more, low, pick = (9, 23), (10, 1), (12, 1)
    assert places == {1: (6, 19), 2: (6, 19), 3: more, 4: more, 5: more, 6: pick, 7: low,
                      8: pick, 9: low}, places
    monkeypatch.delenv("RULESDSL_LIMITS")
    text = load(tmp_path, rules, "generated", monkeypatch).program(2).generated
    options = text[text.index("def options("):].split("\n\n")[0]
    assert options.count("for x in") == 2 and "_switch" in options, options
    assert "_once" in options and "= MISSING" not in options, options  # more's: a plain local


@pytest.mark.parametrize("sets", [False, True])
def test_a_zones_card_bound_by_a_loop_or_a_chosen_option_is_read_without_a_none_check(
        tmp_path, monkeypatch, sets):
    """`for c in stock { ... }` and an option's body `c in stock { ... }` read c, a card of
    a zone, never none: their reads of it have no none check (Lowering.body_bound), nor
    does a definition written where it is called with c (python.nones_dropped). A body
    that sets c keeps its checks, and fails on a none as the closures do."""
    body = ("define big(c: card) = c.value > 1\n"
            "phase main {\n  for c in stock {\n    if c.value > 2 { set n += c.value }\n"
            + ("    set c = none\n    set n += c.value\n" if sets else "") + "  }\n"
            "  ask seat(0) \"pick\" {\n    c in stock {\n"
            "      if big(c) { set n += 10 * c.value }\n    }\n  }\n  win seat(0)\n}\n")
    seen = {}
    for engine in ("closures", "generated"):
        try:
            st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
            st.apply(st.legal_actions()[-1])
            seen[engine] = st.var("n")
        except RulesError as e:
            seen[engine] = (e.code, e.span.line)
    assert seen["closures"] == seen["generated"]
    text = load(tmp_path, body, "generated", monkeypatch).program(2).generated
    phase = text[text.index("def proc_0("):].split("\n\n")[0]
    if sets:
        assert seen["generated"][0] == "R013" and "_none_field" in phase, phase
    else:
        assert seen["generated"] == 3 + 10 * 3 and "_none_field" not in phase, phase


def failures_on_both(make, tmp_path, text, monkeypatch) -> dict:
    """The rules error a new game of `text` raises on each engine, by engine."""
    failed = {}
    for engine in ("closures", "generated"):
        with pytest.raises(RulesError) as info:
            make(tmp_path, text, engine, monkeypatch).new_game(seed=1)
        failed[engine] = info.value
    return failed

def test_a_sum_of_terms_never_none_adds_them_without_a_check(tmp_path, monkeypatch):
    """`sum(f(c) for c in stock)`, f a choice between numbers: no term can be none, so the
    loop adds each as it is (python.never_none); a term that may be none (a variable of a
    card's value, none at first) is still left out when it is, on both engines alike."""
    body = ("var v: int per player = none\n"  # (worth reads n: no table of it per card)
            "define worth(c: card) = if c.value == 1 then 5 else c.value * 2 + n\n"
            "phase main {\n  set n = sum(worth(c) for c in stock)\n"
            "  set v[seat(0)] = 4\n"
            "  set n += sum(v[p] for p in players)\n  win seat(0)\n}\n")
    for engine in ("closures", "generated"):
        assert load(tmp_path, body, engine, monkeypatch).new_game(seed=1).var("n") == 19
    text = load(tmp_path, body, "generated", monkeypatch).program(2).generated
    worth = text[text.index("# sum at game.rules:12"):].split("\n\n")[0]
    assert "n += " in worth and "v is not None" not in worth, worth
    either = text[text.index("# sum at game.rules:14"):].split("\n\n")[0]
    assert "if v is not None:" in either, either


def test_a_definition_of_a_cards_own_fields_is_read_from_a_table_of_it(tmp_path,
                                                                          monkeypatch):
    """`define worth(c: card) = ...` over the card's fields and constants alone: worked out
    once per card when compiled (python.per_card) and read from `WORTH_OF_CARD` wherever it
    is called, its none check kept (a none card fails as before, naming the same place).
    One that reads the state, or fails for some card, is written out as before."""
    body = ("define worth(c: card) = if c.value == 1 then 5 else c.value * 2\n"
            "define ahead(c: card) = c.value > n\n"
            "define odd(c: card) = 6 / (c.value - 2)\n"
            "phase main {\n  set n = sum(worth(c) for c in stock)\n"
            "  set n += count(c in stock where ahead(c))\n"
            "  set n += count(c in stock where c.value != 2 and odd(c) > 0)\n"
            "  set n += worth(top(table))\n  win seat(0)\n}\n")
    failed = {engine: (e.code, e.span.line, e.span.column) for engine, e in
              failures_on_both(load, tmp_path, body, monkeypatch).items()}
    assert failed["closures"] == failed["generated"] and failed["generated"][0] == "R013"
    fine = body.replace("  set n += worth(top(table))\n", "")
    for engine in ("closures", "generated"):
        assert load(tmp_path, fine, engine, monkeypatch).new_game(seed=1).var("n") == 16
    text = load(tmp_path, fine, "generated", monkeypatch).program(2).generated
    assert "n += WORTH_OF_CARD[x]" in text, text
    assert "AHEAD_OF_CARD" not in text and "ODD_OF_CARD" not in text


def test_an_enums_field_of_a_cards_field_is_read_from_one_table_per_card(tmp_path,
                                                                          monkeypatch):
    """`x.rank.value`, the card's rank never none: one table of the rank's value per card
    (`RANK_VALUE_OF_CARD[x]`), read at once; the same values as the closures, and a none
    card fails naming the rank, as reading its rank does."""
    text = ('game "Ranks"\nplayers 2\nenum Rank(value: int) { low(2), high(9) }\n'
            'kind card { rank: Rank  label "{rank}" }\nzone stock hidden\nzone table public\n'
            'deck stock { card(Rank) }\nvar n: int = 0\nflow main\n'
            'phase main {\n  set n = sum(x.rank.value for x in stock)\n'
            '  set n += top(table).rank.value\n  win seat(0)\n}\n')
    failed = {engine: (e.code, e.message, e.span.column) for engine, e in
              failures_on_both(load_text, tmp_path, text, monkeypatch).items()}
    assert failed["closures"] == failed["generated"] and "rank" in failed["generated"][1]
    fine = text.replace("  set n += top(table).rank.value\n", "")
    for engine in ("closures", "generated"):
        assert load_text(tmp_path, fine, engine, monkeypatch).new_game(seed=1).var("n") == 11
    generated = load_text(tmp_path, fine, "generated", monkeypatch).program(2).generated
    assert "RANK_VALUE_OF_CARD[x]" in generated and "VALUE_OF_RANK[" not in generated


def test_a_tests_unit_of_work_is_spent_before_it_as_statements(tmp_path, monkeypatch):
    """`if many(n, 0, 2) { ... }`, many a definition that spends work, written where it is
    called: its unit is spent by the statements before the test (spends_first), not by a
    call inside it; under every work limit both engines fail alike or set the same n."""
    body = ("define many(k: int, j: int, i: int) = "
            "count(x in stock where x.value > k + j) >= i\n"
            "phase main {\n  if many(n, 0, 2) {\n    set n = 5\n  }\n  win seat(0)\n}\n")
    for work in range(1, 12):
        monkeypatch.setenv("RULESDSL_LIMITS", f"work={work}")
        seen = {}
        for engine in ("closures", "generated"):
            try:
                seen[engine] = load(tmp_path, body, engine, monkeypatch).new_game(
                    seed=1).var("n")
            except RulesError as e:
                seen[engine] = (e.code, e.span and (e.span.line, e.span.column))
        assert seen["closures"] == seen["generated"], (work, seen)
    assert seen["generated"] == 5
    monkeypatch.delenv("RULESDSL_LIMITS")
    text = load(tmp_path, body, "generated", monkeypatch).program(2).generated
    proc = text[text.index("def proc_"):]
    assert "setattr" not in proc and "BUDGET.spend(0, S" in proc, proc


def test_a_definition_with_a_run_inside_a_loop_is_written_there_spending_as_before(
        monkeypatch):
    """Reversi's `any(d in Direction where closes(p, c, d))`: closes (a `let` of a ray,
    a `let` of a run of cells counted) is written inside the aggregate's loop as statements
    (Functions.inline_statements), the run's own names made fresh, its unit of work spent
    there. The least work limit under which the first 2, 10 and 30 moves of a game are
    played is the same on both engines (each call of closes spends what it spent)."""
    def played(engine: str, work: int, moves: int) -> bool:
        monkeypatch.setenv("RULESDSL_ENGINE", engine)
        monkeypatch.setenv("RULESDSL_LIMITS", f"work={work}")
        rng = random.Random(0)
        try:
            st = rulesdsl.load(REVERSI).new_game(seed=0)
            for _ in range(moves):
                actions = st.legal_actions()
                st.apply(actions[rng.randrange(len(actions))])
        except RulesError as e:
            assert e.code == "R005"
            return False
        return True

    def least(engine: str, moves: int) -> int:
        low, high = 1, 2000  # played under high, not under low
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (low, mid) if played(engine, mid, moves) else (mid, high)
        return high
    for moves in (2, 10, 30):
        assert least("closures", moves) == least("generated", moves), moves
    monkeypatch.delenv("RULESDSL_LIMITS")
    monkeypatch.setenv("RULESDSL_ENGINE", "generated")
    text = rulesdsl.load(REVERSI).program(2).generated
    loop = text[text.index("# any at reversi.rules:29"):].split("\n\n")[0]
    body = loop.split("def aggregate(st, L):")[1]  # calls nothing handed the state
    assert "define_" not in body and "(st, " not in body and "for _" in body, loop



@pytest.mark.parametrize("name", ["triumvirat", "condottiere", "examples/backgammon.rules"])
def test_a_decision_is_resumed_inside_its_phase_code(monkeypatch, name):
    """The machine hands the chosen option to the generated phase, which binds it and goes
    on at its body itself (nodes.Resume as the Python back end writes it): the decision's
    `choose` (the same node, interpreted) is never called by the machine, as it is for
    every choice where the closures run. A binder, named options, a declined optional
    ask (Condottiere) and a tuple of values (Backgammon, whose sequences' trials call
    `choose` themselves) leave the same log, history and frames as the closures."""
    from rulesdsl.engine.compile.program import Ask
    runs = {}
    for engine in ("closures", "generated"):
        monkeypatch.setenv("RULESDSL_ENGINE", engine)
        game = rulesdsl.load(name)
        prog = game.program(2)
        by_machine = [0]

        def counted(choose):
            def wrapped(st, fr, option):
                if sys._getframe(1).f_code.co_name == "resume_at":
                    by_machine[0] += 1
                return choose(st, fr, option)
            return wrapped
        for proc in prog.procs:
            for ins in proc.code:
                if type(ins) is Ask:
                    ins.choose = counted(ins.choose)
        st = game.new_game(seed=3)
        rng = random.Random(3)
        seen = []
        for _ in range(150):
            if st.is_over:
                break
            st.apply(rng.choice(st.legal_actions()))
            seen.append((st.to_json(), list(st._events), [list(fr) for fr in st.frames]))
        runs[engine] = (seen, by_machine[0])
    assert runs["closures"][0] == runs["generated"][0]
    assert runs["closures"][1] > 0 and runs["generated"][1] == 0
