"""RULESDSL_ENGINE=native (rulesdsl/engine/compile/native.py): the generated code built by
Cython and the C compiler, for real. It replays the goldens, names the same rules line in
its errors, rolls a failed action back, and falls back to the pure-Python code, with a
warning, where it cannot be built. Modules are built once into the cache folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine.compile import native
from _golden import ROOT, fixture_path, play
from test_generated import ROLLBACK, error_of, load, rolls_back


@pytest.fixture
def engine(monkeypatch):
    """Native builds, or skip where this machine cannot build (CI, which installs Cython
    with the test extra, fails instead)."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        import Cython  # noqa: F401
        missing = None if shutil.which(compiler) else f"no C compiler ({compiler})"
    except ImportError:
        missing = "Cython is not installed"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"native builds need what .ci/run installs: {missing}")
        pytest.skip(missing)
    monkeypatch.setenv("RULESDSL_ENGINE", "native")


def is_native(prog) -> bool:
    return all(type(proc.run).__name__ == "cython_function_or_method" for proc in prog.procs)


@pytest.mark.parametrize("stem", ["games/triumvirat", "examples/no_thanks",
                                  "examples/hex", "games/intrige"])
def test_native_code_replays_the_goldens(engine, stem):
    path = ROOT / f"{stem}.rules"
    data = json.loads(fixture_path(path).read_text(encoding="utf-8"))
    game = rulesdsl.load(str(path))
    games = [g for g in data["games"] if g[2] == 0][:12]
    assert is_native(game.program(games[0][1]))
    for g in games:
        assert play(game, g[1], g[0]) == g[3:], f"{path.name}, seed {g[0]}"


@pytest.mark.parametrize("body, code, line", [
    ("phase main {\n  set n = 1\n  let c = top(table)\n  set n = c.value\n}\n", "R013", 12),
    ("phase main {\n  set n = 1\n  set n = 7 / (n - 1)\n}\n", "R015", 11),
    ("phase main {\n  while true {\n    set n = 1\n  }\n}\n", "R003", None),
    # an error raised without a place: found from the traceback's line in the module
    ("zone hand per player hidden\nphase main {\n  set n = 1\n  set n = 2\n"
     "  deal 5 from stock to hand\n  set n = 3\n}\n", "R022", 13),
])
def test_native_errors_name_the_same_place(tmp_path, monkeypatch, engine, body, code, line):
    seen = []
    for kind in ("native", "generated"):
        game = load(tmp_path, body, kind, monkeypatch, step_limit=5000)
        assert is_native(game.program(2)) == (kind == "native")
        seen.append(error_of(game, code, line))
    assert seen[0] == seen[1]


def test_a_failed_native_action_leaves_the_state_unchanged(tmp_path, monkeypatch, engine):
    game = load(tmp_path, ROLLBACK, "native", monkeypatch)
    assert is_native(game.program(2))
    rolls_back(game)


def test_each_program_binds_its_own_names(engine):
    """Two player counts of one game share the module's text shape but not its names:
    each program's functions read its own tables and budget."""
    game = rulesdsl.load(str(ROOT / "examples" / "no_thanks.rules"))
    for players in (3, 4):
        prog = game.program(players)
        assert is_native(prog)
        st = game.new_game(players=players, seed=5)
        while not st.is_over:
            st.apply(st.legal_actions()[-1])
        assert len(st.scores) == players


def test_without_cython_native_warns_and_runs_the_pure_code(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "Cython", None)  # `import Cython` fails, as uninstalled
    monkeypatch.setattr(native, "_loaded", {})
    with pytest.warns(RuntimeWarning, match=r"Cython is not installed: pip install"):
        game = load(tmp_path, "phase main {\n  set n = 2\n  win seat(0)\n}\n", "native",
                    monkeypatch)
        prog = game.program(2)
    assert prog.generated and not is_native(prog)
    assert game.new_game(seed=1).winners == [0]


def test_the_engine_itself_runs_as_c_too(engine):
    """RULESDSL_ENGINE=native set before the engine is imported (a process of its own):
    the state, machine, actions, journal and decision instruction are the built modules,
    State and Budget are C types the game's module reads directly, and the goldens replay
    with them."""
    script = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        import rulesdsl
        import rulesdsl.engine.state as state
        from rulesdsl.engine.state import machine, data
        from rulesdsl.engine import journal
        from rulesdsl.engine.compile import program
        hot = [state, machine, data, journal, program]
        assert all(m.__loader__.__class__.__name__ == "ExtensionFileLoader" for m in hot), \\
            [m.__file__ for m in hot]
        assert type(rulesdsl.State.apply).__name__ == "cython_function_or_method"
        assert machine._NATIVE and not hasattr(machine, "_shuffled64")  # machine.pxd read
        # State and Budget are C types (state/*.pxd, budget.pxd): fields in a C struct
        from rulesdsl.engine.budget import Budget
        for cls, field in [(machine.Machine, "zones"), (Budget, "work")]:
            assert type(vars(cls)[field]).__name__ == "getset_descriptor", cls
        assert issubclass(state.State, machine.Machine)
        from _golden import ROOT, fixture_path, play
        path = ROOT / "games" / "triumvirat.rules"
        recorded = json.loads(fixture_path(path).read_text(encoding="utf-8"))
        game = rulesdsl.load(str(path))
        for g in [g for g in recorded["games"] if g[2] == 0][:12]:
            assert play(game, g[1], g[0]) == g[3:], g[0]
        # the game's module reads them as such: its functions take a State, nothing else
        run = game.program(2).procs[0].run
        try:
            run(object(), [0, 0, [None] * 20, 0], False, None, None)
        except TypeError as e:
            assert "st" in str(e), str(e)
        else:
            raise AssertionError("a generated function took a state that is no State")
        st = game.new_game(seed=1)
        try:
            st.apply("no such card")
        except rulesdsl.IllegalAction as e:
            assert "is not a legal action for P2 now" in str(e), str(e)
        else:
            raise AssertionError("an unknown label was applied")
        print("replayed")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "RULESDSL_ENGINE": "native"}, timeout=900)
    assert done.returncode == 0 and "replayed" in done.stdout, done.stderr[-3000:]


def test_a_layout_changed_under_a_running_engine_warns_and_runs_the_pure_code(engine):
    """A process whose engine was built from one State layout (the .pxd files) never
    builds or loads a game's module against another, as when the checkout changes under
    a long run: it warns and runs the pure-Python code."""
    script = textwrap.dedent("""
        import warnings
        import rulesdsl
        from rulesdsl.engine import native_engine
        game = rulesdsl.load("triumvirat")
        assert type(game.program(2).procs[0].run).__name__ == "cython_function_or_method"
        native_engine.BUILT_FROM["state/machine.pxd"] += "# another layout"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            prog = rulesdsl.load("triumvirat").program(3)
        assert any("machine.pxd changed" in str(w.message) for w in caught), caught
        assert type(prog.procs[0].run).__name__ == "function"
        print("fell back")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "RULESDSL_ENGINE": "native"}, timeout=900)
    assert done.returncode == 0 and "fell back" in done.stdout, done.stderr[-3000:]


def test_the_shuffle_draws_splitmix64s_numbers():
    """Machine.shuffle as loaded (C integers under the native engine, machine.pxd) and
    _shuffled64 (the C loop's text, run as Python here) against SplitMix64 on Python ints:
    the same piles and generator state, so the goldens stay byte for byte."""
    import random
    from types import SimpleNamespace
    from rulesdsl.engine.state import State, machine
    from rulesdsl.engine.runtime.randoms import splitmix64

    def reference(z, x):
        for i in range(len(z) - 1, 0, -1):
            x, bits = splitmix64(x)
            j = (bits * (i + 1)) >> 64
            z[i], z[j] = z[j], z[i]
        return x

    rnd = random.Random(7)
    for n in [0, 1, 2, 3, 52, 200] + [rnd.randrange(1, 120) for _ in range(200)]:
        x = rnd.choice([0, 1, (1 << 64) - 1, rnd.getrandbits(64)])
        want = list(range(n))
        want_x = reference(want, x)
        st = State.__new__(State)  # a C type under the native engine: a real one
        st.zones, st.rng, st._events = [list(range(n))], x, []
        st.chance = None  # ordinary play: the seeded generator draws
        st.prog = SimpleNamespace(zone_unordered=[False])
        st.shuffle(0)
        assert (st.zones[0], st.rng) == (want, want_x), (n, x)
        if hasattr(machine, "_shuffled64"):  # the pure module: the C loop's text as Python
            z = list(range(n))
            assert (machine._shuffled64(z, x), z) == (want_x, want), (n, x)


EXPLICIT_PLAYOUTS = """
import json, random, sys
import rulesdsl
game = rulesdsl.load(sys.argv[1])
played = []
for seed in range(6):
    rng, st, steps = random.Random(seed), game.new_game(2, chance="explicit"), []
    while not st.is_over:
        if st.is_chance:  # a card from the lazily shuffled deck, by its odds
            outcomes = st.chance_outcomes()
            steps.append(outcomes[rng.randrange(len(outcomes))])
            st.apply(steps[-1][0])
        else:
            actions = st.legal_actions()
            steps.append(actions[rng.randrange(len(actions))].label)
            st.apply(steps[-1])
    played.append([steps, st.payoffs, st.log])
procs = game.program(2).procs
print(json.dumps([played, all(type(p.run).__name__ == "cython_function_or_method"
                              for p in procs)]))
"""


def test_explicit_chance_and_lazy_piles_play_alike_as_c(engine):
    """Leduc poker with chance="explicit" (a hidden deck decided card by card,
    state/piles.py, beside the C machine): the same outcomes and their odds, the same
    play, payoffs and log as the pure-Python engine, random events chosen alike."""
    leduc = str(ROOT / "tests" / "integrations" / "rules" / "leduc_poker.rules")
    runs = {}
    for mode in ("generated", "native"):
        done = subprocess.run([sys.executable, "-c", EXPLICIT_PLAYOUTS, leduc],
                              capture_output=True, text=True, timeout=900,
                              env={**os.environ, "RULESDSL_ENGINE": mode})
        assert done.returncode == 0, done.stderr[-3000:]
        runs[mode] = json.loads(done.stdout)
    (pure, pure_is_c), (native, native_is_c) = runs["generated"], runs["native"]
    assert native_is_c and not pure_is_c
    assert native == pure and any(len(steps) > 8 for steps, _, _ in pure)


@pytest.mark.parametrize("stem", ["games/triumvirat", "examples/reversi"])
def test_the_module_is_one_tree_whose_procedures_start_where_it_says(stem):
    """native.module_text: ast.unparse of one tree (valid Python, typed or not), the
    procedures' text line for line from the line it gives (errors map through it); typed,
    every function's state is annotated `st: State | None` (Cython's pure-Python mode)."""
    import ast
    from rulesdsl.engine.compile import Compiler
    game = rulesdsl.load(str(ROOT / f"{stem}.rules"))
    compiler = Compiler(game.model, game.min_players, game.options)
    compiler.build()
    source = compiler.source
    procs = next(t for mode, t in source.pieces if mode == "procs").split("\n")
    for typed in (False, True):
        text, first = native.module_text(source.pieces, source.piece_trees, source.ns, typed)
        tree = ast.parse(text)
        lines = text.split("\n")
        for k, line in enumerate(procs):
            got = lines[first - 1 + k]
            if typed and line.startswith("def "):
                line = line.replace("(st, fr", "(st: State | None, fr: list | None", 1)
            assert got == ("    " + line if line else line), (typed, k)
        heads = [fn for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef)
                 and fn.args.args[:1] and fn.args.args[0].arg == "st"]
        assert heads and all((fn.args.args[0].annotation is not None) == typed for fn in heads)
