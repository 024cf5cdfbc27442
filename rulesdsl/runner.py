"""The text runner: play a game in a terminal against agents, or replay a script.

Written against the public API only. At each decision the seat's kind decides who
answers: "human" reads from a script (`--script`, one action label per line) and then from
standard input; any agent name (see rulesdsl.agents) lets that agent choose. The log is
printed as it grows; the winners at the end.

At a prompt a person may type an option's number, its label (or an unambiguous start of
it), `?` to show the options again, `history` for the actions so far, or `quit`.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Optional, Sequence

from rulesdsl.agents import agent_names, make_agent
from rulesdsl.errors import RulesError, Span, did_you_mean
from rulesdsl.sim import agent_seed, parse_seats

HUMAN = "human"


class Quit(Exception):
    """The person asked to stop."""


# ---------------------------------------------------------------- arguments

def parse_option_value(text: str):
    """"true"/"false" -> bool, an integer -> int, anything else stays a string."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text.strip())
    except ValueError:
        return text


def parse_options(items: Optional[Sequence[str]]) -> dict:
    """["K=V", ...] from --option into a dict; a malformed item is a RulesError (C003)."""
    options: dict = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RulesError("C003", f"--option expects NAME=VALUE, not {item!r}",
                             hints=["for example: --option games_to_win=3"])
        options[key] = parse_option_value(value)
    return options


def load_game(name: str, options: Optional[dict] = None):
    """A bundled game or a path, through the public API."""
    import rulesdsl
    return rulesdsl.load(name, options=options) if options else rulesdsl.load(name)


# ---------------------------------------------------------------- matching input

def match_action(text: str, actions: Sequence, allow_number: bool = True):
    """The action that `text` names, or None. Returns (action, problem message)."""
    text = text.strip()
    if not text:
        return None, "type a number or a label"
    labels = [a.label for a in actions]
    # an exact label first, so labels that are numbers ("3") mean themselves
    for a in actions:
        if a.label == text:
            return a, None
    if allow_number:
        digits = text[1:] if text.startswith("#") else text
        if digits.isdigit():
            k = int(digits)
            if 1 <= k <= len(actions):
                return actions[k - 1], None
            return None, f"there is no option {k}; choose 1 to {len(actions)}"
    low = text.casefold()
    same = [a for a in actions if a.label.casefold() == low]
    if len(same) == 1:
        return same[0], None
    starts = [a for a in actions if a.label.casefold().startswith(low)]
    if len(starts) == 1:
        return starts[0], None
    if len(starts) > 1:
        shown = ", ".join(repr(a.label) for a in starts[:5])
        return None, f"{text!r} could be {shown}{', ...' if len(starts) > 5 else ''}"
    hint = did_you_mean(text, labels)
    return None, f"{text!r} is not one of the options" + (f"; {hint[0]}" if hint else "")


# ---------------------------------------------------------------- showing state

def _fmt_value(value) -> str:
    if isinstance(value, (list, tuple)):
        if not value:
            return "(empty)"
        if all(not isinstance(v, (list, tuple, dict)) for v in value):
            return ", ".join(str(v) for v in value)
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        if not value:
            return "(none)"
        return ", ".join(f"{k}: {_fmt_value(v) if not isinstance(v, dict) else json.dumps(v)}"
                         for k, v in value.items())
    if value is None:
        return "-"
    return str(value)


def view_lines(view, indent: str = "  ", depth: int = 0) -> list[str]:
    """A seat's view (a JSON-ready dict) as readable lines, whatever its exact shape."""
    lines: list[str] = []
    if not isinstance(view, dict):
        return [indent * (depth + 1) + _fmt_value(view)]
    for key, value in view.items():
        pad = indent * (depth + 1)
        if isinstance(value, dict) and value and depth < 2 and any(
                isinstance(v, (dict, list)) for v in value.values()):
            lines.append(f"{pad}{key}:")
            lines.extend(view_lines(value, indent, depth + 1))
        else:
            lines.append(f"{pad}{key}: {_fmt_value(value)}")
    return lines


def seat_name(seat) -> str:
    return f"seat {seat}"


# ---------------------------------------------------------------- the runner

class Runner:
    """Plays one game to its end (or until quit) through the public API."""

    def __init__(self, state, seats: Sequence[str], *, seed: int = 0,
                 script: Optional[list[str]] = None, script_path: Optional[str] = None,
                 save: Optional[str] = None, out: Optional[IO] = None,
                 inp: Optional[IO] = None):
        self.state = state
        self.seats = list(seats)
        self.agents = {seat: make_agent(kind, agent_seed(seed, seat))
                       for seat, kind in enumerate(self.seats) if kind != HUMAN}
        self.script = list(script or [])
        self.script_path = script_path or "<script>"
        self.script_pos = 0           # index of the next script line to read
        self.save_path = save
        self._out = out
        self._inp = inp
        self.log_seen = 0

    @property
    def out(self) -> IO:
        return self._out if self._out is not None else sys.stdout

    @property
    def inp(self) -> IO:
        return self._inp if self._inp is not None else sys.stdin

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def flush_log(self) -> None:
        log = list(self.state.log)
        for line in log[self.log_seen:]:
            self.say(f"  {line}")
        self.log_seen = len(log)

    def save(self) -> None:
        if self.save_path:
            text = self.state.to_json()
            with open(self.save_path, "w", encoding="utf-8") as f:
                f.write(text)

    # -- human decisions

    def _next_script_line(self):
        """(line number, text) of the next action in the script, or None when it ran out."""
        while self.script_pos < len(self.script):
            self.script_pos += 1
            text = self.script[self.script_pos - 1].strip()
            if text and not text.startswith("#"):
                return self.script_pos, text
        return None

    def _read_line(self, prompt: str) -> Optional[str]:
        stream = self.inp
        try:
            interactive = stream.isatty() and stream is sys.stdin and self._out is None
        except (AttributeError, ValueError):
            interactive = False
        if interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.out.write(prompt)
        self.out.flush()
        line = stream.readline()
        if not line:
            self.say()
            return None
        return line.rstrip("\r\n")

    def show_options(self, seat: int, actions: Sequence) -> None:
        self.say(f"{seat_name(seat)} to move; your view:")
        try:
            view = self.state.view(seat)
        except RulesError:
            view = None
        if view:
            for line in view_lines(view):
                self.say(line)
        self.say("options:")
        width = len(str(len(actions)))
        for k, a in enumerate(actions, 1):
            self.say(f"  {k:>{width}}. {a.label}")

    def ask_human(self, seat: int):
        actions = self.state.legal_actions()
        line = self._next_script_line()
        if line is not None:
            lineno, text = line
            action, problem = match_action(text, actions, allow_number=False)
            if action is None or action.label != text:
                labels = ", ".join(repr(a.label) for a in actions[:8])
                more = ", ..." if len(actions) > 8 else ""
                raise RulesError(
                    "C005", f"script line {lineno}: {text!r} is not a legal action for "
                    f"{seat_name(seat)} here", Span(self.script_path, lineno, 1, lineno,
                                                    len(text) + 1),
                    (did_you_mean(text, [a.label for a in actions]) or [])
                    + [f"legal here: {labels}{more}"])
            self.say(f"{seat_name(seat)} plays: {action.label}   (script line {lineno})")
            return action
        self.show_options(seat, actions)
        while True:
            text = self._read_line(f"{seat_name(seat)}> ")
            if text is None:
                hints = [f"continue with --resume {self.save_path}"] if self.save_path else []
                raise RulesError("C006", "the input ended before the game was over", hints=hints)
            cmd = text.strip().lower()
            if cmd in ("?", "help", "options"):
                self.say("type an option's number or its label; 'history' shows the actions "
                         "so far, 'quit' stops")
                self.show_options(seat, actions)
                continue
            if cmd in ("quit", "exit"):
                raise Quit()
            if cmd == "history":
                for k, label in enumerate(self.state.history, 1):
                    self.say(f"  {k}. {label}")
                continue
            action, problem = match_action(text, actions)
            if action is None:
                self.say(f"  {problem}; type ? for help")
                continue
            return action

    # -- the loop

    def run(self) -> int:
        state = self.state
        while not state.is_over:
            self.flush_log()
            seat = state.to_move
            kind = self.seats[seat]
            if kind == HUMAN:
                action = self.ask_human(seat)
            else:
                action = self.agents[seat].choose(state)
                self.say(f"{seat_name(seat)} ({kind}) plays: {action.label}")
            state.apply(action)
            self.save()
        self.flush_log()
        self.show_result()
        return 0

    def show_result(self) -> None:
        state = self.state
        winners = list(state.winners or [])
        self.say("")
        self.say("game over after %d actions" % len(state.history))
        if not winners:
            self.say("no winner: the game is drawn")
        elif len(winners) == 1:
            self.say(f"winner: {seat_name(winners[0])} ({self.seats[winners[0]]})")
        else:
            self.say("winners: " + ", ".join(f"{seat_name(w)} ({self.seats[w]})"
                                             for w in winners))
        try:
            scores = state.scores
        except (AttributeError, RulesError):
            scores = None
        if scores:
            items = scores.items() if isinstance(scores, dict) else enumerate(scores)
            self.say("scores: " + ", ".join(f"{seat_name(s)}: {v}" for s, v in items))


def read_script(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except OSError as e:
        raise RulesError("C001", f"cannot read the script {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise RulesError("C001", f"the script {path} is not UTF-8 text") from None


def read_save(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise RulesError("C001", f"cannot read the saved game {path}: {e.strerror or e}") \
            from None
    except UnicodeDecodeError:
        raise RulesError("C001", f"the saved game {path} is not UTF-8 text") from None


def run_play(args, out: Optional[IO] = None, inp: Optional[IO] = None) -> int:
    """`rulesdsl play`: args carry game, players, seed, seats, option, scenario, script,
    save and resume (argparse names). RulesErrors propagate to the caller."""
    import rulesdsl

    options = parse_options(getattr(args, "option", None))
    script_path = getattr(args, "script", None)
    script = read_script(script_path) if script_path else None
    game = load_game(args.game, options)
    seed = args.seed if args.seed is not None else 0
    resume = getattr(args, "resume", None)
    if resume:
        state = rulesdsl.restore(game, read_save(resume))
        players = _players_of(state, args.players, game)
    else:
        players = args.players if args.players is not None else game.min_players
        scenario = getattr(args, "scenario", None)
        if scenario:
            import os
            if not os.path.exists(scenario):
                raise RulesError("C001", f"cannot read the scenario {scenario}: "
                                 "no such file")
        state = game.new_game(players=players, seed=seed, scenario=scenario or None)
    allowed = [HUMAN] + agent_names()
    if args.seats is None:
        seats = [HUMAN] + ["random"] * (players - 1)
    else:
        seats = parse_seats(args.seats, players, allowed=allowed)
    runner = Runner(state, seats, seed=seed, script=script, script_path=script_path,
                    save=getattr(args, "save", None), out=out, inp=inp)
    runner.say(f"{getattr(game, 'name', args.game)}: {players} players, seed {seed}; "
               + ", ".join(f"{seat_name(s)}: {k}" for s, k in enumerate(seats)))
    if resume:
        runner.say(f"resumed after {len(state.history)} actions")
        runner.log_seen = len(list(state.log))
    try:
        return runner.run()
    except Quit:
        runner.say("stopped" + (f"; the game is saved in {runner.save_path}"
                                if runner.save_path else ""))
        return 0


def _players_of(state, requested, game) -> int:
    """The number of seats of a restored state, from its view (seat numbers) or the request."""
    for attr in ("players", "num_players", "n_players"):
        n = getattr(state, attr, None)
        if isinstance(n, int):
            return n
    scores = None
    try:
        scores = state.scores
    except Exception:
        scores = None
    if scores is not None and not isinstance(scores, (int, float)):
        try:
            return len(scores)
        except TypeError:
            pass
    if requested is not None:
        return requested
    return game.min_players


__all__ = ["Runner", "run_play", "match_action", "parse_options", "parse_option_value",
           "view_lines"]
