"""The fuzzing campaign's kinds of input: for each, a maker of one random input from a seed
and a judge of its outcome. The pytest fuzzers (test_replay_fuzz.py, test_keyboard_lines.py,
test_lsp_fuzz.py, test_code_execution.py) and `campaign.py` share them.

An outcome is one of OUTCOMES: "ok" (success or a RulesError, the documented clean end),
"traceback" (any other exception, or an internal error from the command line), "hang" (past
the per-input bound, or a server that stops answering), "code execution" (the marker file
that the hostile inputs ask to create exists), "lost save" (a save that was there before is
damaged or gone after)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shutil
import signal
import tempfile
import time
from pathlib import Path

from _fuzz import BUNDLED, ROOT

OUTCOMES = ("ok", "traceback", "hang", "code execution", "lost save")
PER_INPUT_SECONDS = 30        # generous: a check of the largest bundled file takes 0.4 s


class Hang(Exception):
    pass


class Workspace:
    """A scratch folder per run: the marker the hostile inputs try to create, and room for
    the files a fuzzer writes (saves, replays, rules files with hostile names)."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="rulesdsl-fuzz-"))
        self.marker = self.dir / "MARKER"

    def payloads(self) -> list:
        m = str(self.marker)
        return [f"__import__('os').system('touch {m}')",
                f"\"\"\"\n__import__('os').system('touch {m}')\n\"\"\"",
                f"\nimport os; os.system('touch {m}')\n",
                f"');open({m!r},'w')#", f"\\n__import__('pathlib').Path({m!r}).touch()\\n",
                f"{{__import__('os').system('touch {m}')}}", f"\\\"; open({m!r}, 'w'); \\\""]

    def executed(self) -> bool:
        return self.marker.exists()

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def time_bound(seconds: float = PER_INPUT_SECONDS):
    """Raise Hang when the body runs past `seconds` (SIGALRM; the main thread only)."""
    def ring(signum, frame):
        raise Hang()
    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def judged(body, ws: Workspace, detail: list, seconds: float = PER_INPUT_SECONDS) -> str:
    """Run body() under the time bound: its outcome ("ok" unless it says otherwise)."""
    from rulesdsl.lang.errors import RulesError
    try:
        with time_bound(seconds):
            outcome = body() or "ok"
    except Hang:
        outcome = "hang"
    except RulesError:
        outcome = "ok"
    except Exception as e:  # noqa: BLE001 - anything else is what the campaign counts
        import traceback
        detail.append("".join(traceback.format_exception(e))[-3000:])
        outcome = "traceback"
    if ws.executed():
        ws.marker.unlink()
        outcome = "code execution"
    return outcome


def quiet_cli(argv: list, stdin_text: str = "") -> tuple:
    """`rulesdsl ARGV` in this process with its input and output in memory: (status, err)."""
    import sys
    from rulesdsl import cli
    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    sys.stdin = io.StringIO(stdin_text)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
    finally:
        sys.stdin = old_in
    return status, err.getvalue()


def cli_outcome(argv: list, stdin_text: str = "") -> str:
    status, err = quiet_cli(argv, stdin_text)
    if "internal error" in err or "Traceback" in err:
        raise AssertionError(err[-3000:])
    return "ok"


# ------------------------------------------------------------------ rules files
SOURCES = {f.name: f.read_bytes() for f in BUNDLED}
SMALL = [n for n, d in SOURCES.items() if len(d) < 5000]   # cheap to check: most draws
SNIPPETS = ['{', '}', '(', ')', '[', ']', '"', ',', '.', ':', '=', '<', '>', '+', '-', '*',
            '/', '%', '#', '\\', '\t', '\n', ' ', 'x', 'z', '0', '9', '_', 'é', 'λ', '\x00',
            '\x1b[2J', '\u2028', '\r', '99999999999999999999', 'extends "', 'log "{']


def mutated_rules(rng: random.Random, ws: Workspace) -> tuple:
    """(file name, bytes): a bundled file mutated one to three times; a quarter of the time
    with a hostile payload in a string, a comment, a title or an `extends` file name."""
    name = rng.choice(SMALL) if rng.random() < 0.8 else rng.choice(sorted(SOURCES))
    data = SOURCES[name]
    for _ in range(rng.randint(1, 3)):
        how = rng.choice(["delete", "duplicate", "swap", "cut", "insert", "bytes", "replace",
                          "payload"])
        lines = data.split(b"\n")
        if how in ("delete", "duplicate", "swap"):
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if how == "delete":
                del lines[i:i + rng.randint(1, 5)]
            elif how == "duplicate":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif how == "cut":
            data = data[:rng.randint(0, len(data))]
        elif how in ("insert", "bytes", "payload"):
            at = rng.randint(0, len(data))
            if how == "insert":
                extra = "".join(rng.choice(SNIPPETS) for _ in range(rng.randint(1, 4))).encode()
            elif how == "bytes":
                extra = rng.choice([b"\xff", b"\xc3", b"\x80\x80", b"\xed\xa0\x80",
                                    b"\xef\xbb\xbf"])
            else:
                extra = hostile_text(rng, ws).encode("utf-8", "surrogatepass")
            data = data[:at] + extra + data[at:]
        else:
            words = sorted(set(re.findall(rb"[A-Za-z_][A-Za-z0-9_]*", data)))
            if words:
                data = data.replace(rng.choice(words), rng.choice(words), rng.randint(1, 3))
    return name, data


def hostile_text(rng: random.Random, ws: Workspace) -> str:
    """A payload where a string, a comment or a title would hold it."""
    payload = rng.choice(ws.payloads())
    return rng.choice([f'"{payload}"', f"# {payload}\n", f'\ngame "{payload}"\n',
                       f'\nextends "{payload}"\n', f'log "{payload}"', payload])


def hostile_extends(rng: random.Random, ws: Workspace, folder: Path) -> tuple:
    """(file name, bytes): a bundled file extending a copy of itself whose name holds a new
    line and a payload (legal on Linux), written with the rules string's escape."""
    base = rng.choice(SMALL)
    payload = rng.choice(ws.payloads()).replace("/", "\u2215") if rng.random() < 0.5 \
        else f"x\nimport os; os.system('touch {ws.marker.name}')"
    odd = "a" + rng.choice(["\n", "\r", "\u2028", "\x85", "\n# "]) + payload + ".rules"
    try:
        (folder / odd).write_bytes(SOURCES[base])
    except (OSError, ValueError):
        odd = "plain.rules"
        (folder / odd).write_bytes(SOURCES[base])
    escaped = json.dumps(odd, ensure_ascii=rng.random() < 0.5)
    text = f'extends {escaped}\ngame "child"\n'
    return "child.rules", text.encode("utf-8", "surrogatepass")


def rules_input(rng: random.Random, ws: Workspace, detail: list) -> str:
    """One rules file through check, and (a fifth of those that check) load and a few moves:
    generated code runs there."""
    folder = Path(tempfile.mkdtemp(dir=ws.dir))
    try:
        if rng.random() < 0.08:
            name, data = hostile_extends(rng, ws, folder)
        else:
            name, data = mutated_rules(rng, ws)
            for other in SOURCES:        # a file that extends another finds it beside it
                if other != name:
                    os.symlink(game_path(other), folder / other)
        path = folder / name
        path.write_bytes(data)
        play = rng.random() < 0.2

        def body():
            from rulesdsl.engine.game import check_path
            check_path(path)
            if play:
                play_a_little(path, rng)
        return judged(body, ws, detail)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def game_path(name: str) -> str:
    """A bundled game's or example's file (examples are not found by name)."""
    name = name.removesuffix(".rules") + ".rules"
    return str(ROOT / ("games" if (ROOT / "games" / name).exists() else "examples") / name)


def play_a_little(path, rng: random.Random, moves: int = 8) -> None:
    import rulesdsl
    game = rulesdsl.load(path)
    state = game.new_game(players=game.min_players, seed=rng.randrange(1000))
    for _ in range(moves):
        if state.is_over:
            return
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


# ------------------------------------------------------------------ saves
SAVE_GAMES = ["triumvirat", "no_thanks", "liars_dice"]
_saved_cache: dict = {}


def saved(name: str):
    """(game, state after 12 random moves): a game in progress to save and damage."""
    if name not in _saved_cache:
        import rulesdsl
        game = rulesdsl.load(game_path(name))
        state = game.new_game(players=min(game.min_players + 1, game.max_players), seed=3)
        pick = random.Random(3)
        for _ in range(12):
            if state.is_over:
                break
            actions = state.legal_actions()
            state.apply(actions[pick.randrange(len(actions))])
        _saved_cache[name] = (game, state)
    return _saved_cache[name]


JUNK_VALUES = [None, 0, -1, 2 ** 70, 10 ** 4000, 1.5, True, "x", "", [], {}, [[]], [None],
               ["a"], "\x00", "../../etc/passwd", "/dev/stdin", "a\nb", -(10 ** 30)]


def damaged_json(rng: random.Random, text: str) -> str:
    """A JSON text cut, with a byte inserted, or with a value deleted, retyped or moved."""
    how = rng.choice(["cut", "bytes", "delete", "type", "deep", "deep", "shuffle"])
    if how == "cut":
        return text[:rng.randrange(len(text))]
    if how == "bytes":
        at = rng.randint(0, len(text))
        return text[:at] + rng.choice(["\x00", "}", "\"", "[", "9", "-", "\\", "\ud800"]) \
            + text[at:]
    data = json.loads(text)
    if how in ("delete", "type"):
        key = rng.choice(sorted(data))
        if how == "delete":
            del data[key]
        else:
            data[key] = rng.choice(JUNK_VALUES)
    elif how == "deep":          # a value somewhere inside replaced
        set_somewhere(rng, data, rng.choice(JUNK_VALUES))
    else:                        # two values swapped
        a, b = rng.sample(sorted(data), 2) if len(data) > 1 else (None, None)
        if a is not None:
            data[a], data[b] = data[b], data[a]
    return json.dumps(data)


def set_somewhere(rng: random.Random, data, value) -> None:
    node = data
    for _ in range(6):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = rng.choice(keys)
        child = node[key]
        if not isinstance(child, (dict, list)) or not child or rng.random() < 0.3:
            node[key] = value
            return
        node = child


def restores(game, text: str) -> bool:
    import rulesdsl
    from rulesdsl.lang.errors import RulesError
    try:
        rulesdsl.restore(game, text)
        return True
    except RulesError:
        return False


def save_input(rng: random.Random, ws: Workspace, detail: list) -> str:
    """A damaged save resumed with `play --resume`, one line typed, then quit. Beside it,
    another game's save in progress, which the resumed game is told to save over half of
    the time: it must be there, unchanged, afterwards (and the resumed file must still
    hold a save, damaged as it came, or the game that was played on)."""
    name = rng.choice(SAVE_GAMES)
    game, state = saved(name)
    damaged = damaged_json(rng, state.to_json())
    folder = Path(tempfile.mkdtemp(dir=ws.dir))
    target, other = folder / "resumed.json", folder / "other.json"
    target.write_text(damaged, encoding="utf-8", errors="surrogatepass")
    other_game, other_state = saved(rng.choice([g for g in SAVE_GAMES if g != name]))
    other.write_text(other_state.to_json())
    argv = ["play", game_path(name), "--resume", str(target), "--seats",
            ",".join(["human"] + ["random"] * (state.players - 1)), "--plain"]
    if rng.random() < 0.5:
        argv += ["--save", str(other)]
    lines = rng.choice(["1\nquit\n", "quit\n", "save other.json\nquit\n", ""])

    def body():
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            cli_outcome(argv, lines)
        finally:
            os.chdir(cwd)
        if other.read_text() != other_state.to_json():
            return "lost save"
        if not target.exists():
            return "lost save"
        after = target.read_text(encoding="utf-8", errors="surrogatepass")
        if after != damaged:      # written again: it must be a save that restores
            return "ok" if restores(game, after) else "lost save"
        return "ok"
    try:
        return judged(body, ws, detail)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def whole_then_played(state, rng: random.Random, moves: int, lost: str) -> None:
    """Every card in exactly one place (else AssertionError `lost`), then up to `moves`
    random actions played: a state built from untrusted input must hold and play on."""
    ncards = len(state.prog.card_label)
    if sorted(c for z in state.zones for c in z) != list(range(ncards)):
        raise AssertionError(lost)
    for _ in range(moves):
        if state.is_over:
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def restore_input(rng: random.Random, ws: Workspace, detail: list) -> str:
    """A damaged save through the API: refused (S001/S002) or consistent and playable."""
    import rulesdsl
    game, state = saved(rng.choice(SAVE_GAMES))
    text = damaged_json(rng, state.to_json())

    def body():
        whole_then_played(rulesdsl.restore(game, text), rng, 4,
                          "a restored save holds a card twice or lost one")
    return judged(body, ws, detail)


# ------------------------------------------------------------------ replays
REPLAY_GAMES = ["triumvirat", "no_thanks", "gops", "skull"]
_replay_cache: dict = {}


def a_replay(name: str) -> dict:
    """A replay of a finished game (random seats), as the runner writes it."""
    if name not in _replay_cache:
        import rulesdsl
        game = rulesdsl.load(game_path(name))
        state = game.new_game(players=game.min_players, seed=7)
        pick = random.Random(7)
        while not state.is_over and len(state.history) < 300:
            actions = state.legal_actions()
            state.apply(actions[pick.randrange(len(actions))])
        _replay_cache[name] = {"format": "rulesdsl-replay", "game": game_path(name), "options": {},
                               "players": state.players, "seed": 7, "scenario": None,
                               "seats": ["random"] * state.players,
                               "actions": list(state.history)}
    return _replay_cache[name]


def replay_text(rng: random.Random, ws: Workspace) -> str:
    data = json.loads(json.dumps(a_replay(rng.choice(REPLAY_GAMES))))
    for _ in range(rng.randint(0, 2)):
        how = rng.choice(["cut actions", "swap actions", "label", "field", "autosave",
                          "scenario", "game"])
        actions = data["actions"] if isinstance(data.get("actions"), list) else []
        if how == "cut actions" and actions:
            del actions[rng.randrange(len(actions)):]
        elif how == "swap actions" and len(actions) > 1:
            i, j = rng.randrange(len(actions)), rng.randrange(len(actions))
            actions[i], actions[j] = actions[j], actions[i]
        elif how == "label" and actions:
            actions[rng.randrange(len(actions))] = rng.choice(
                ["", "\x00", "x" * 5000, "\x1b[2J", str(actions[0]).upper(), "1", "-1"])
        elif how == "field":
            data[rng.choice(["options", "players", "seed", "seats", "format", "actions"])] = \
                rng.choice(JUNK_VALUES + [{"x": 1}, {"players": 9}, 99, 1, 2])
        elif how == "autosave":
            data = {"format": "rulesdsl-state", "history": data.get("actions"),
                    "players": data.get("players"), "seed": data.get("seed"),
                    "runner": rng.choice([{"game": data.get("game")}, None, [],
                                          {"game": rng.choice(JUNK_VALUES)}])}
        elif how == "scenario":
            data["scenario"] = rng.choice(JUNK_VALUES + [str(ws.dir), "/dev/null",
                                                          {"zones": {"x": [1]}}])
        else:
            data["game"] = rng.choice(["triumvirat\n", "../" * 30 + "etc/passwd", "/dev/zero",
                                       "nosuchgame", "", "\ud800", str(ws.marker)]
                                      + ws.payloads())
    text = json.dumps(data)
    return damaged_json(rng, text) if rng.random() < 0.3 else text


def replay_input(rng: random.Random, ws: Workspace, detail: list) -> str:
    """A replay file through `rulesdsl replay`: stepped with typed keys or `--to N`."""
    folder = Path(tempfile.mkdtemp(dir=ws.dir))
    path = folder / "game.replay.json"
    path.write_text(replay_text(rng, ws), encoding="utf-8", errors="surrogatepass")
    argv = ["replay", str(path), "--plain"]
    keys = ""
    if rng.random() < 0.4:
        argv += ["--to", str(rng.choice([0, 1, 3, 40, -1, 10 ** 6]))]
    else:
        keys = "\n".join(rng.choice(["n", "", "p", "g 3", "g -1", "g 99999999999999999999",
                                     "g", "x", "q", "b", "next", "\x00"])
                         for _ in range(rng.randint(0, 12))) + "\n"
    if rng.random() < 0.2:
        argv += rng.choice([["--all"], ["--seat", "P2"], ["--seat", "P9"], ["--seat", "x"]])
    try:
        return judged(lambda: cli_outcome(argv, keys), ws, detail)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ------------------------------------------------------------------ scenarios
SCENARIO_GAMES = ["triumvirat", "no_thanks", "crazy_eights"]
_scenario_cache: dict = {}


def scenario_names(name: str) -> tuple:
    if name not in _scenario_cache:
        import rulesdsl
        game = rulesdsl.load(game_path(name))
        state = game.new_game(players=game.min_players, seed=5)
        prog = game.program(game.min_players)
        _scenario_cache[name] = (game, sorted(set(state.prog.card_label)), sorted(prog.zones),
                                 sorted(prog.vars))
    return _scenario_cache[name]


def a_scenario(rng: random.Random, labels, zones, variables, ws: Workspace):
    def value():
        return rng.choice(JUNK_VALUES + [True, 3, "P1", "P2", "red", "none", [0, 1]])

    def zone_name():
        z = rng.choice(zones)
        return rng.choice([z, f"{z}[P1]", f"{z}[P9]", z.upper(), f" {z}", "", "\x00"])
    scenario = {}
    if rng.random() < 0.8:
        scenario["zones"] = {zone_name(): [rng.choice(labels + ["", "\x1b[2J", 7, None])
                                           for _ in range(rng.randint(0, 12))]
                             for _ in range(rng.randint(0, 3))} \
            if rng.random() < 0.9 else value()
    if rng.random() < 0.6:
        scenario["vars"] = {rng.choice(variables + [f"{v}[P1]" for v in variables]
                                       + ["", "x", "\x00"]): value()
                            for _ in range(rng.randint(0, 3))} if rng.random() < 0.9 \
            else value()
    if rng.random() < 0.2:
        scenario["displaced_to"] = rng.choice(zones + ["nowhere", None, 1])
    if rng.random() < 0.1:
        scenario["extra"] = rng.choice(ws.payloads())
    return scenario


def scenario_input(rng: random.Random, ws: Workspace, detail: list) -> str:
    """A scenario (as a dict, or a file, cut short a third of the time) through new_game,
    then ten random moves."""
    game, labels, zones, variables = scenario_names(rng.choice(SCENARIO_GAMES))
    scenario = a_scenario(rng, labels, zones, variables, ws)
    given = scenario
    if rng.random() < 0.5:
        text = json.dumps(scenario)
        if rng.random() < 0.3:
            text = text[:rng.randrange(len(text) + 1)]
        path = ws.dir / "scenario.json"
        path.write_text(text)
        given = str(path)

    def body():
        whole_then_played(game.new_game(players=game.min_players, seed=5, scenario=given),
                          rng, 10, "a scenario left a card twice or lost one")
    return judged(body, ws, detail)


# ------------------------------------------------------------------ keyboard lines
KEYBOARD_GAMES = ["triumvirat", "no_thanks", "liars_dice", "gops"]
COMMANDS = ["", " ", "\t", "?", "help", "h", "options", "log", "history", "rules", "0", "1",
            "2", "99", "-1", "#1", "#0", "# 2", "1e9", "⁴", "٣", "10" * 3000, "save",
            "save other.json", "save ./other.json", "save --force", "save /dev/full",
            "save /nonexistent/x.json", "save .", "save a\x00b", "? move", "help zone", "\x1b[2J",
            "\x7f", "\ufffd", "\u2028", "q" * 5000]


def keyboard_lines(rng: random.Random, labels: list, ws: Workspace, n: int) -> list:
    out = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.3:
            out.append(rng.choice(COMMANDS))
        elif kind < 0.5 and labels:
            label = rng.choice(labels)
            out.append(rng.choice([label, label.upper(), f"  {label} ", label[:3],
                                   label + "x", f"? {label}"]))
        elif kind < 0.55:
            out.append("save " + rng.choice(ws.payloads()).replace("\n", " "))
        else:
            alphabet = "abcdefxyz 0123456789#?-+.,/\\'\"\t\x00\x1b\x7féλ\u200b\U0001f600"
            out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20))))
    return out


_loaded: dict = {}


def loaded(name: str):
    """A bundled game or example, loaded once per process."""
    if name not in _loaded:
        import rulesdsl
        _loaded[name] = rulesdsl.load(game_path(name))
    return _loaded[name]


def keyboard_input(rng: random.Random, ws: Workspace, detail: list, lines: int = 20) -> str:
    """`lines` typed lines at a person's prompt, in this process (the runner's own reading
    and matching). Another game's save in progress lies in the folder, and some lines ask
    to save over it: it must be unchanged after, and the game's own save must restore."""
    from rulesdsl.play.runner import InputEnded, Quit, Runner
    name = rng.choice(KEYBOARD_GAMES)
    game = loaded(name)
    state = game.new_game(players=game.min_players, seed=rng.randrange(100))
    labels = [a.label for a in state.legal_actions()]
    typed = keyboard_lines(rng, labels, ws, lines)
    folder = Path(tempfile.mkdtemp(dir=ws.dir))
    other_game, other_state = saved(rng.choice([g for g in SAVE_GAMES if g != name]))
    other = folder / "other.json"
    other.write_text(other_state.to_json())
    mine = folder / "mine.json"
    seats = ["human"] + ["random"] * (state.players - 1)
    runner = Runner(state, seats, seed=1, out=io.StringIO(),
                    inp=io.StringIO("\n".join(typed) + "\n"), save=str(mine),
                    meta={"game": name, "options": {}, "seed": 1, "scenario": None},
                    game=game)

    def body():
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            runner.run()
        except (InputEnded, Quit):
            pass
        finally:
            os.chdir(cwd)
        if other.read_text() != other_state.to_json() or not mine.exists():
            return "lost save"
        return "ok" if restores(game, mine.read_text()) else "lost save"
    try:
        return judged(body, ws, detail)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ------------------------------------------------------------------ language-server messages
class Server:
    """`rulesdsl lsp` in another process, spoken to in raw bytes: what comes back is read
    on a thread into a queue of messages (and standard error into a list)."""

    def __init__(self, cwd: Path):
        import queue
        import subprocess
        import sys
        import threading
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(ROOT), os.environ.get("PYTHONPATH", "")]))
        self.proc = subprocess.Popen([sys.executable, "-m", "rulesdsl", "lsp"], cwd=cwd,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.messages: "queue.Queue" = queue.Queue()
        self.errors: list = []
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        self.next_id = 1_000_000

    def _read_out(self) -> None:
        stream = self.proc.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = stream.read(length or 0)
            try:
                self.messages.put(json.loads(body))
            except ValueError:
                self.messages.put({"unreadable": body[:200]})

    def _read_err(self) -> None:
        for line in self.proc.stderr:
            self.errors.append(line.decode("utf-8", "replace"))

    def send_raw(self, data: bytes) -> bool:
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def send(self, message: dict) -> bool:
        body = json.dumps(message).encode()
        return self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method: str, params) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def answer(self, ident: int, seconds: float):
        """The response to request `ident` within `seconds`, else None; what came before it
        is looked at for internal errors (a handler's exception)."""
        import queue
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            try:
                msg = self.messages.get(timeout=left)
            except queue.Empty:
                return None
            if isinstance(msg, dict) and msg.get("error", {}).get("code") == -32603:
                self.internal_errors.append(msg)
            if isinstance(msg, dict) and msg.get("id") == ident:
                return msg

    internal_errors: list = []

    def close(self) -> None:
        try:
            self.proc.kill()
            self.proc.wait(10)
        except OSError:
            pass


DOC_URI = "file:///fuzz/doc.rules"


def initialise(server: Server) -> bool:
    ident = server.request("initialize", {"processId": None, "rootUri": None,
                                          "capabilities": {}})
    if server.answer(ident, 60) is None:
        return False
    server.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    return True


def hostile_document(rng: random.Random, ws: Workspace) -> str:
    choice = rng.random()
    if choice < 0.5:
        return mutated_rules(rng, ws)[1].decode("utf-8", "replace")
    if choice < 0.7:
        return hostile_text(rng, ws) * rng.randint(1, 3)
    if choice < 0.8:
        return "extends \"" + rng.choice(["/dev/stdin", "/dev/zero", "/proc/self/mem", "\n",
                                          "../" * 40, "x" * 5000]) + "\"\n"
    return "".join(rng.choice("{}()\"\n\x00\ud800é 1a#") for _ in range(rng.randint(0, 300)))


def position(rng: random.Random) -> dict:
    pick = [0, 1, 3, 10, -1, 2 ** 31, 2 ** 70, None, "x", 1.5]
    return {"line": rng.choice(pick), "character": rng.choice(pick)}


def lsp_message(rng: random.Random, ws: Workspace, version: list) -> bytes:
    """One message, mostly well framed: documents with hostile text, requests at any
    position, wrong methods and params; or a broken header or body."""
    uri = rng.choice([DOC_URI, DOC_URI, "file:///fuzz/other.rules", "untitled:x", "", "%%",
                      "file:///dev/stdin", "file:///" + "a/" * 500])
    doc = {"uri": uri}
    version[0] += 1
    methods = [
        ("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rules",
                                                   "version": version[0],
                                                   "text": hostile_document(rng, ws)}}),
        ("textDocument/didChange", {"textDocument": {"uri": uri, "version": version[0]},
                                    "contentChanges": [{"text": hostile_document(rng, ws)}]}),
        ("textDocument/didChange", {"textDocument": {"uri": uri, "version": version[0]},
                                    "contentChanges": [{"range": {"start": position(rng),
                                                                  "end": position(rng)},
                                                        "text": rng.choice(["x", "\n", ""])}]}),
        ("textDocument/didSave", {"textDocument": doc}),
        ("textDocument/didClose", {"textDocument": doc}),
        ("textDocument/hover", {"textDocument": doc, "position": position(rng)}),
        ("textDocument/definition", {"textDocument": doc, "position": position(rng)}),
        ("textDocument/completion", {"textDocument": doc, "position": position(rng)}),
        ("textDocument/documentSymbol", {"textDocument": doc}),
        ("textDocument/formatting", {"textDocument": doc, "options": {"tabSize": 2,
                                                                      "insertSpaces": True}}),
        ("textDocument/hover", rng.choice([None, [], {}, 5, "x", {"textDocument": None}])),
        (rng.choice(["no/such", "", "$/cancelRequest", "workspace/symbol", "initialize",
                     "textDocument/rename", "\x00"]), rng.choice([None, {}, {"id": 1}])),
    ]
    method, params = rng.choice(methods)
    message = {"jsonrpc": "2.0", "method": method, "params": params}
    if method not in ("textDocument/didOpen", "textDocument/didChange",
                      "textDocument/didSave", "textDocument/didClose") or rng.random() < 0.1:
        message["id"] = rng.choice([rng.randrange(10 ** 6), "s", None, [1], {"a": 1}, 1.5])
    if rng.random() < 0.05:
        message["jsonrpc"] = rng.choice(["1.0", None, 2])
    body = json.dumps(message).encode()
    frame = rng.random()
    if frame < 0.8:
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    header = rng.choice([b"Content-Length: -5", b"Content-Length: abc", b"Content-Length:",
                         b"Content-Length: 99999999999999999999", b"Content-Length: 1e3",
                         b"Content-Type: x", b"content-length: %d" % len(body),
                         b"Content-Length: %d\r\nContent-Length: -1" % len(body),
                         b"Content-Length: %d" % (len(body) + 10 ** 12)])
    if frame < 0.9:
        return header + b"\r\n\r\n" + body
    # a body shorter than said, then a new line: the server waits for the bytes promised,
    # which the next messages give (the probe is sent three times, 430 bytes each); a body
    # cut by more is a server waiting as the protocol says, not a hang
    cut = body[:max(0, len(body) - rng.randint(1, 300))]
    return b"Content-Length: %d\r\n\r\n" % len(body) + cut + b"\r\n"


GOOD_TEXT = 'game "Probe"\nplayers 2\nzone pile public\nphase main { win seat(0) }\nflow main\n'


def answers_a_hover(server: Server, seconds: float = 20) -> bool:
    """Open a good document and hover over it: answered in time (three tries, since a body
    cut short just before may have eaten what follows it)."""
    for _ in range(3):
        server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                     "params": {"textDocument": {"uri": "file:///fuzz/probe.rules",
                                                 "languageId": "rules", "version": 1,
                                                 "text": GOOD_TEXT}}})
        ident = server.request("textDocument/hover", {
            "textDocument": {"uri": "file:///fuzz/probe.rules"},
            "position": {"line": 2, "character": 1}})
        if server.answer(ident, seconds) is not None:
            return True
    return False


def server_tracebacks(server: Server, seen: int) -> list:
    """Tracebacks on standard error since `seen` lines that pass through rulesdsl's code
    (pygls's own notes on a message it could not read are not ours)."""
    text = "".join(server.errors[seen:])
    blocks = text.split("Traceback (most recent call last):")[1:]
    return [b[:3000] for b in blocks if re.search(r'File "[^"]*/rulesdsl/', b)]


class LspCampaign:
    """One server for many batches; a new one after a hang or a death."""

    def __init__(self, ws: Workspace):
        self.ws = ws
        self.server = None
        self.version = [0]

    def start(self) -> None:
        self.server = Server(self.ws.dir)
        self.server.internal_errors = []
        if not initialise(self.server):
            raise RuntimeError("the language server does not answer initialize")

    def batch(self, rng: random.Random, detail: list, size: int = 10) -> str:
        if self.server is None or self.server.proc.poll() is not None:
            self.start()
        server = self.server
        seen = len(server.errors)
        for _ in range(size):
            if not server.send_raw(lsp_message(rng, self.ws, self.version)):
                break
        answered = answers_a_hover(server)
        time.sleep(0.05)
        found = server_tracebacks(server, seen)
        if server.internal_errors:
            found += [json.dumps(e)[:2000] for e in server.internal_errors]
            server.internal_errors.clear()
        outcome = "ok"
        if server.proc.poll() is not None:
            detail.append("the server died: " + "".join(server.errors[-40:]))
            outcome = "traceback"
        elif not answered:
            detail.append("no answer to a hover after: " + "".join(server.errors[-40:]))
            outcome = "hang"
        elif found:
            detail.extend(found)
            outcome = "traceback"
        if outcome != "ok":
            server.close()
            self.server = None
        if self.ws.executed():
            self.ws.marker.unlink()
            outcome = "code execution"
        return outcome

    def shutdown_cleanly(self) -> bool:
        """initialize (done), shutdown, exit: the server ends by itself."""
        if self.server is None:
            self.start()
        ident = self.server.request("shutdown", None)
        ok = self.server.answer(ident, 20) is not None
        self.server.send({"jsonrpc": "2.0", "method": "exit"})
        try:
            self.server.proc.wait(20)
        except Exception:  # noqa: BLE001
            ok = False
        self.server.close()
        self.server = None
        return ok


# ------------------------------------------------------------------ planted caches
class Planted:
    """Pickles that create the marker when unpickled."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def cache_input(rng: random.Random, ws: Workspace, detail: list) -> str:
    """Every file in the cache folder replaced (a pickle that creates the marker, junk, or
    the file cut short), then `check` and a game between computer seats in a new process
    (a process reads the parse tables once)."""
    import pickle
    import subprocess
    import sys
    folder = Path(os.environ.get("RULESDSL_CACHE") or
                  Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulesdsl")
    planted = pickle.dumps(Planted(ws.marker))
    for path in [p for p in folder.rglob("*") if p.is_file()]:
        how = rng.choice(["pickle", "junk", "cut", "keep"])
        try:
            if how == "pickle":
                path.write_bytes(planted)
            elif how == "junk":
                path.write_bytes(os.urandom(rng.randint(0, 64)))
            elif how == "cut":
                data = path.read_bytes()
                path.write_bytes(data[:rng.randint(0, len(data))])
        except OSError:
            continue
    name = game_path(rng.choice(SMALL).removesuffix(".rules"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")]))

    def body():
        for argv in (["check", name], ["play", name, "--seats", "random,random", "--seed",
                                       "1", "--plain"]):
            try:
                r = subprocess.run([sys.executable, "-m", "rulesdsl"] + argv, env=env,
                                   capture_output=True, text=True, cwd=ws.dir,
                                   timeout=PER_INPUT_SECONDS * 4)
            except subprocess.TimeoutExpired:
                return "hang"
            if "Traceback" in r.stderr or "internal error" in r.stderr:
                raise AssertionError(r.stderr[-3000:])
    return judged(body, ws, detail)


def assert_clean(one, seed: int) -> None:
    """For the pytest fuzzers: one input of a kind from `seed` ends "ok"; else the details."""
    ws = Workspace()
    detail: list = []
    try:
        outcome = one(random.Random(seed), ws, detail)
    finally:
        ws.close()
    assert outcome == "ok", f"{outcome} (seed {seed}):\n" + "\n".join(detail)
