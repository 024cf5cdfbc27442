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
            raise RulesError("C013", f"--option expects NAME=VALUE, not {item!r}",
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
            choose = "1" if len(actions) == 1 else f"1 to {len(actions)}"
            return None, f"there is no option {k}; choose {choose}"
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
        if set(value) == {"count"}:           # a zone this seat may not look into
            n = value["count"]
            return f"{n} card{'s' if n != 1 else ''}, hidden" if n else "(empty)"
        if not value:
            return "(none)"
        return ", ".join(f"{k}: {_fmt_value(v)}" for k, v in value.items())
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _wrapped(prefix: str, items: list[str], width: int = 88) -> list[str]:
    """prefix + items joined by ", ", wrapped under the prefix."""
    lines, line = [], prefix
    for k, item in enumerate(items):
        piece = item + ("," if k < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > width and line.strip() != prefix.strip():
            lines.append(line)
            line = " " * len(prefix) + piece
        else:
            line = f"{line} {piece}" if line != prefix else prefix + piece
    lines.append(line)
    return lines


# keys of a view that the runner shows elsewhere (the log, whose turn) or not at all
_VIEW_SKIP = {"game", "seat", "you", "players", "over", "winners", "to_move", "log",
              "actions"}


def view_lines(view, indent: str = "  ") -> list[str]:
    """A seat's view (JSON-ready dict) as short readable lines: zones, variables, scores,
    and anything else the view holds, shown generically."""
    if not isinstance(view, dict):
        return [indent + _fmt_value(view)]
    lines: list[str] = []
    zones = view.get("zones")
    if isinstance(zones, dict):
        width = max((len(z) for z in zones), default=0)
        for name, cards in zones.items():
            lines.append(f"{indent}{name + ':':<{width + 1}} {_fmt_value(cards)}")
    variables = view.get("vars")
    if isinstance(variables, dict) and variables:
        lines += _wrapped(indent + "vars: ", [f"{k}={_fmt_value(v)}"
                                            for k, v in variables.items()])
    scores = view.get("scores")
    if isinstance(scores, dict) and scores:
        lines.append(indent + "scores: " + _fmt_value(scores))
    for key, value in view.items():
        if key in _VIEW_SKIP or key in ("zones", "vars", "scores"):
            continue
        lines.append(f"{indent}{key}: {_fmt_value(value)}")
    return lines


def log_lines(state, seat=None) -> list[str]:
    """The log as text: as `seat` sees it (from its view), or everything when seat is None."""
    if seat is not None:
        view = state.view(seat)
        if isinstance(view, dict) and isinstance(view.get("log"), list):
            return [str(line) for line in view["log"]]
    lines = getattr(state, "log_lines", None)
    if callable(lines):
        lines = lines()
    if lines is None:
        lines = state.log
    return [e if isinstance(e, str) else str(e) for e in lines]


def seat_names(state) -> list[str]:
    """How the game calls each seat (its view's "you"), e.g. P1, P2."""
    names = []
    for seat in range(state.players):
        try:
            name = state.view(seat).get("you")
        except (RulesError, AttributeError):
            name = None
        names.append(str(name) if name else f"seat {seat}")
    return names


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
        self.log_seen = 0             # log entries printed so far
        self.names = seat_names(state)
        humans = [seat for seat, kind in enumerate(self.seats) if kind == HUMAN]
        # whose eyes the log is printed through: the one human, else none (everything)
        self.viewer = humans[0] if len(humans) == 1 else None
        self.several_humans = len(humans) > 1
        # an agent's choice may be secret (a card laid face down): with people watching,
        # the log, which respects visibility, is the only report of it
        self.omniscient = not humans

    def seat_name(self, seat: int) -> str:
        return f"{self.names[seat]} (seat {seat})"

    @property
    def out(self) -> IO:
        return self._out if self._out is not None else sys.stdout

    @property
    def inp(self) -> IO:
        return self._inp if self._inp is not None else sys.stdin

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def flush_log(self, viewer=None) -> None:
        """Print the log lines not printed yet, as `viewer` (or self.viewer) may see them."""
        if len(self.state.events) <= self.log_seen:
            return
        seat = viewer if viewer is not None else self.viewer
        lines = log_lines(self.state, seat)
        for line in lines[self.log_seen:]:
            self.say(f"  {line}")
        self.log_seen = len(lines)

    def save(self) -> None:
        if self.save_path:
            text = self.state.to_json()
            try:
                with open(self.save_path, "w", encoding="utf-8") as f:
                    f.write(text)
            except OSError as e:
                raise RulesError("C001", f"cannot write the save file {self.save_path}: "
                                 f"{e.strerror or e}") from None

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
        line = line.rstrip("\r\n")
        self.say(line)        # echo, so a transcript reads like a session
        return line

    def show_options(self, seat: int, actions: Sequence) -> None:
        self.say(f"{self.seat_name(seat)} to move; what you see:")
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
                    "C011", f"script line {lineno}: {text!r} is not a legal action for "
                    f"{self.seat_name(seat)} here", Span(self.script_path, lineno, 1, lineno,
                                                    len(text) + 1),
                    (did_you_mean(text, [a.label for a in actions]) or [])
                    + [f"legal here: {labels}{more}"])
            self.say(f"{self.seat_name(seat)} plays: {action.label}   (script line {lineno})")
            return action
        self.show_options(seat, actions)
        while True:
            text = self._read_line(f"{self.names[seat]}> ")
            if text is None:
                hints = [f"continue with --resume {self.save_path}"] if self.save_path else []
                raise RulesError("C012", "the input ended before the game was over", hints=hints)
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
        self.save()                   # a bad --save path shows up before the game starts
        while not state.is_over:
            seat = state.to_move
            kind = self.seats[seat]
            # with several people at one screen, each sees the log through their own eyes
            self.flush_log(seat if self.several_humans and kind == HUMAN else None)
            if kind == HUMAN:
                action = self.ask_human(seat)
            else:
                action = self.agents[seat].choose(state)
                if self.omniscient:
                    self.say(f"{self.names[seat]} (seat {seat}, {kind}) plays: {action.label}")
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
            self.say(f"winner: {self.seat_name(winners[0])}, {self.seats[winners[0]]}")
        else:
            self.say("winners: " + "; ".join(f"{self.seat_name(w)}, {self.seats[w]}"
                                             for w in winners))
        try:
            scores = state.scores
        except (AttributeError, RulesError):
            scores = None
        if scores:
            items = scores.items() if isinstance(scores, dict) else enumerate(scores)
            self.say("scores: " + ", ".join(f"{self.names[s] if isinstance(s, int) else s}: {v}"
                                            for s, v in items))


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
        if args.seed is None and isinstance(getattr(state, "seed", None), int):
            seed = state.seed
    else:
        players = args.players if args.players is not None else game.min_players
        scenario = getattr(args, "scenario", None)
        state = game.new_game(players=players, seed=seed, scenario=scenario or None)
    allowed = [HUMAN] + agent_names()
    if args.seats is None:
        seats = [HUMAN] + ["random"] * (players - 1)
    else:
        seats = parse_seats(args.seats, players, allowed=allowed)
    runner = Runner(state, seats, seed=seed, script=script, script_path=script_path,
                    save=getattr(args, "save", None), out=out, inp=inp)
    runner.say(f"{getattr(game, 'name', args.game)}: {players} players, seed {seed}; "
               + ", ".join(f"{runner.names[s]} {k}" for s, k in enumerate(seats)))
    if resume:
        runner.say(f"resumed after {len(state.history)} actions")
        runner.log_seen = len(state.events)
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
