"""Loading a game: file -> merged tree -> checked model -> a Game that starts States.

A Game compiles its program once per player count and caches it; every State of that
count shares it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

from rulesdsl.lang.check import Model, check_file_tree
from rulesdsl.engine.compile import Program, compile_program
from rulesdsl.engine.runtime.truths import keep_truths
from rulesdsl.engine.state import State, source_hash
from rulesdsl.engine.state.chance import Chance, begin as begin_segment
from rulesdsl.lang.errors import RulesError, did_you_mean
from rulesdsl.lang.extend import load_tree
from rulesdsl.lang.limits import brief, limit, read_bytes, refuse_control_in_name
from rulesdsl.lang.safefile import open_regular, shown_path
from rulesdsl.lang.resources import bundled_games, bundled_path, example_games


def find_game(name_or_path: str) -> Path:
    """A bundled game's name or a path to a .rules file."""
    refuse_control_in_name(name_or_path, "C017", "game name")
    try:
        return _find_game(name_or_path)
    except (OSError, ValueError):  # a name too long for the file system, or with a NUL
        raise RulesError("C001", f"no game named '{shown_path(str(name_or_path)[:60])}"
                         f"{'...' if len(str(name_or_path)) > 60 else ''}': not a file the "
                         "system can open, not a bundled game", None,
                         [f"bundled games: {', '.join(bundled_games())}"]) from None


def _find_game(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.is_file():
        return p
    if not p.suffix and Path(f"{name_or_path}.rules").is_file():
        return Path(f"{name_or_path}.rules")
    bundled = bundled_path(str(name_or_path))
    if bundled is not None:
        return bundled
    if p.exists() and not p.is_dir():   # a FIFO or a device: say what it is
        try:
            open_regular(p).close()
        except OSError as e:
            raise RulesError("C001", f"cannot read the game {shown_path(p)}: "
                             f"{e.strerror or e}") from None
    raise RulesError("C001", f"no game named '{shown_path(name_or_path)}': not a file, not a "
                     "bundled game", None, did_you_mean(str(name_or_path), bundled_games()
                                                        + example_games()) or
                     [f"bundled games: {', '.join(bundled_games())}; examples: "
                      f"{', '.join(example_games())}"])


def check_path(path) -> tuple[Model, list, dict]:
    """Parse and check a file (and what it extends): (model, warnings, sources)."""
    refuse_control_in_name(str(path), "C017", "rules file name")
    path = Path(path)
    try:
        data = read_bytes(path, "E107", "rules file").removeprefix(b"\xef\xbb\xbf")  # BOM
    except OSError as e:
        raise RulesError("E001", f"cannot read {shown_path(path)}: {e.strerror or e}") from None
    from rulesdsl.lang.syntax import parse_file  # for its UTF-8 reporting
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        parse_file(str(path))
        raise
    sources: dict = {}
    tree = load_tree(text, str(path), sources)
    model, warnings = check_file_tree(tree, sources)
    return model, warnings, sources


def check_file(path) -> list:
    """Check a rules file; return its warnings, or raise CheckFailed with every error."""
    return check_path(path)[1]


class Game:
    """A checked game with its options fixed. `new_game` starts a State."""

    def __init__(self, model: Model, sources: dict, path: str, options: dict,
                 step_limit: Optional[int] = None):
        self.model = model
        self.sources = sources
        self.path = path
        self.source_name = Path(path).stem
        self.name = model.title
        self.min_players = model.min_players
        self.max_players = model.max_players
        self.cooperative = model.cooperative  # the players win or lose together
        present = getattr(model, "present", None)
        self.about: tuple = tuple(present.about) if present and present.about else ()
        self.options = self._resolve_options(options or {})
        self.source_hash = source_hash(sources)
        self.step_limit = step_limit if step_limit is not None else limit("steps")
        self._programs: dict[int, Program] = {}
        self.warnings: list = []

    def __repr__(self) -> str:
        return f"<Game {self.name} {self.min_players}-{self.max_players} players>"

    def _resolve_options(self, given: dict) -> dict:
        m = self.model
        out = {}
        for name, o in m.options.items():
            out[name] = _const(m, o.default)
        if not isinstance(given, dict):
            raise RulesError("C003", f"options are a dict of names and values, not "
                             f"{type(given).__name__}")
        for name, value in given.items():
            if not isinstance(name, str):
                raise RulesError("C003", f"an option's name is text, not {brief(name)}", None,
                                 [f"options: {', '.join(m.options) or 'none'}"])
            if name not in m.options:
                raise RulesError("C003", f"{self.name} has no option '{brief(name)}'", None,
                                 did_you_mean(name, m.options) or
                                 [f"options: {', '.join(m.options) or 'none'}"])
            o = m.options[name]
            out[name] = _option_value(name, o, value)
        return out

    def changed_options(self) -> dict:
        """The options whose values differ from the file's defaults (what a command line
        must say with --option to load this same game again)."""
        defaults = self._resolve_options({})
        return {name: value for name, value in self.options.items()
                if defaults.get(name) != value}

    def program(self, players: int) -> Program:
        prog = self._programs.get(players)
        if prog is None:
            prog = compile_program(self.model, players, self.options, self.step_limit)
            self._programs[players] = prog
        return prog

    def new_game(self, players: Optional[int] = None, seed: int = 0, scenario=None,
                 chance: Optional[str] = None) -> State:
        """A new game; `chance="explicit"` stops at each random event with its outcomes
        (State.is_chance, chance_outcomes) instead of drawing them from the seed."""
        if players is None:
            players = self.min_players
        if isinstance(players, bool) or not isinstance(players, int) or \
                not self.min_players <= players <= self.max_players:
            raise RulesError("C004", f"{self.name} is for {self.min_players}"
                             + (f" to {self.max_players}" if self.max_players != self.min_players
                                else "") + f" players, not {brief(players)}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RulesError("C005", f"a seed is a whole number, not {brief(seed)}")
        if chance not in (None, "seeded", "explicit"):
            raise RulesError("C021", f"chance is \"seeded\" or \"explicit\", not {brief(chance)}",
                             None, ["chance=\"explicit\" stops at each random event"])
        if chance == "seeded":
            chance = None
        prog = self.program(players)
        st = State(self, prog)
        st.seed = seed
        st.rng = seed & ((1 << 64) - 1)
        st.zones = [[] for _ in prog.zone_names]
        st.loc = list(prog.initial_zone)
        for c, z in enumerate(prog.initial_zone):
            st.zones[z].append(c)
        for zi, unordered in enumerate(prog.zone_unordered):
            if unordered:
                st.zones[zi].sort()
        st.vars = [None] * prog.nvars
        for lay in prog.vars.values():
            v = lay.default(st, [None] * 8)
            for k in range(math.prod(lay.sizes)):
                st.vars[lay.base + k] = list(v) if isinstance(v, list) else v
        if prog.pieces is not None:  # each piece's starting state (engine/pieces.py)
            st.vars[prog.pieces.first:] = prog.pieces.start
        if scenario is not None:
            from rulesdsl.engine.scenario import read_scenario
            st.scenario = read_scenario(scenario)
        if chance is None:
            self.start(st)
        else:  # stops at each random event (engine/state/chance.py)
            st.chance = Chance()
            begin_segment(st, None)
        return st

    @staticmethod
    def start(st: State) -> None:
        """Play a new state's setup, put its scenario in place and run to the first
        decision."""
        prog = st.prog
        if prog.setup is not None:
            st.call(prog.setup, [], False)
            st.run()
            st.over = False
        if st.scenario is not None:
            from rulesdsl.engine.scenario import apply_scenario
            apply_scenario(st, st.scenario)
        st.call(prog.flow, [], False)
        st.run()
        if prog.truths:
            keep_truths(st)



def _const(model: Model, expr):
    """The value of a constant expression (an option's default)."""
    from rulesdsl.lang import ast
    if isinstance(expr, ast.Int):
        return expr.value
    if isinstance(expr, ast.Bool):
        return expr.value
    if isinstance(expr, ast.Unary) and expr.op == "-" and isinstance(expr.operand, ast.Int):
        return -expr.operand.value
    if isinstance(expr, ast.Name):
        for e in model.enums.values():
            if expr.name in e.values:
                return e.values.index(expr.name)
    raise RulesError("E607", "an option's default must be a plain value", expr.span)


def _option_value(name: str, o, value):
    t = o.type
    text = str(value).strip().lower() if not isinstance(value, (bool, int)) else value
    if t.name == "bool":
        if isinstance(value, bool):
            return value
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RulesError("C006", f"option {name} is true or false, not '{brief(value)}'")
    if t.name in ("int", "range"):
        try:
            v = int(value) if not isinstance(value, bool) else None
        except (TypeError, ValueError):
            v = None
        if v is None:
            raise RulesError("C006", f"option {name} is a whole number, not '{brief(value)}'")
        if t.name == "range" and not t.low <= v <= t.high:
            raise RulesError("C006", f"option {name} must lie in {t.low}..{t.high}, not {brief(v)}")
        return v
    raise RulesError("C006", f"option {name} of type {t.name} cannot be set from outside")


def load(name_or_path, options: Optional[dict] = None,
         step_limit: Optional[int] = None) -> Game:
    path = find_game(str(name_or_path))
    model, warnings, sources = check_path(path)
    game = Game(model, sources, str(path), options or {}, step_limit)
    game.warnings = warnings
    return game


def restore(game: Game, text: str) -> State:
    """A State from `to_json` text; anything wrong gives a RulesError and no state."""
    from rulesdsl.engine.savefile import state_from_json
    return state_from_json(game, text)
