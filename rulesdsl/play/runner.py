"""The text runner: play a game in a terminal, people and computer players in any mix.

Written against the public API plus two general accessors (State.describe, for laying the
view out from the declarations, and State.phase_path). At each decision the seat's kind
decides who answers: "human" reads from a script (`--script`, one action label per line)
and then from standard input; any agent name (see rulesdsl.agents) lets that agent choose.

On a terminal each person's decision gets a screen of its own (cleared first; with several
people a hand-over screen comes before it, so each sees only their own view): what
happened since their last move, the table, their hand grouped and sorted, the others'
counts, the scores and the options, in colour unless --plain. Elsewhere (a pipe, a file)
the runner writes a transcript: the log as it grows and the same view.

At a prompt a person may type an option's number, its label (any unique start, any case),
or, where every label is a number (an amount), the number itself (`#N` then picks option
N); `help`, `rules`, `log`, `history`, `save FILE`, `quit`. Wrong input gets a message and
the same prompt. A game with a person in it is saved after every action (--save's file,
else a new file in ~/.rulesdsl/saves/); Ctrl-C and the end of input leave it saved, and
`play --resume FILE` continues it. At the end a replay file is written beside the save
(see rulesdsl.play.replay).
"""

from __future__ import annotations

import json
import shutil
import sys
from typing import IO, Optional, Sequence

from rulesdsl.agents import make_agent
from rulesdsl.lang.errors import RulesError, Span, did_you_mean
from rulesdsl.play.screen import clean
from rulesdsl.agents.seats import agent_seed
from rulesdsl.play.answers import _is_int, _ranges, match_action, numeric_labels
from rulesdsl.play.saves import write_file

HUMAN = "human"
DEFAULT_OPPONENT = "ismcts"  # at its default level, medium


class Quit(Exception):
    """The person asked to stop."""


# ---------------------------------------------------------------- arguments


# ---------------------------------------------------------------- matching input


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
    """The log in the game's words, as `seat` may read it (everything when seat is None)."""
    return [str(line) for line in state.story(seat)]


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


def rename_seats(text: str, names: Sequence[str]) -> str:
    """P1, P2, ... in a line replaced by the seats' names (whole words only)."""
    import re
    return re.sub(r"\bP([1-9][0-9]?)\b",
                  lambda m: names[int(m.group(1)) - 1] if int(m.group(1)) <= len(names)
                  else m.group(0), text)


# a game with only computer players stops after this many actions, as simulate does
MAX_AGENT_ACTIONS = 100_000

# ---------------------------------------------------------------- the runner

HELP = ["choose: type an option's number, or its label (any unique start of it, any case)",
        "  help      this help and the options again",
        "  rules     the rules: how to win, what each card does, the flow",
        "  ? NAME    explain one card or word (also: help NAME)",
        "  log       everything you have seen so far",
        "  history   the actions so far, as you saw them",
        "  save F    save the game in the file F too (it is saved after every move anyway)",
        "  quit      stop; continue later with rulesdsl play --resume FILE"]


class Runner:
    """Plays one game to its end (or until quit) through the public API.

    On a terminal each person's decision gets a screen of its own: it is cleared, and with
    several people at the table a hand-over screen comes first, so each sees only their own
    view. Elsewhere (a pipe, a file, a script) the runner writes a transcript instead."""

    def __init__(self, state, seats: Sequence[str], *, seed: int = 0,
                 script: Optional[list[str]] = None, script_path: Optional[str] = None,
                 save: Optional[str] = None, out: Optional[IO] = None,
                 inp: Optional[IO] = None, plain: bool = False, meta: Optional[dict] = None,
                 game=None):
        from rulesdsl.play.screen import Layout, Out
        self.state = state
        self.game = game if game is not None else getattr(state, "game", None)
        self.seats = list(seats)
        self.agents = {seat: make_agent(kind, agent_seed(seed, seat))
                       for seat, kind in enumerate(self.seats) if kind != HUMAN}
        self.script = list(script or [])
        self.script_path = script_path or "<script>"
        self.script_pos = 0           # index of the next script line to read
        self.save_path = save
        self.extra_saves: list = []   # files named with `save FILE`
        self.meta = dict(meta or {})  # what --resume needs besides the state
        # the position before the first action, for `history` as each seat saw it
        self.initial = state.clone() if not getattr(state, "history", None) else None
        self._out = out
        self._inp = inp
        self.o = Out(out, plain=plain)
        self.layout = Layout(state)
        self.log_seen = 0             # log entries printed so far
        self.names = seat_names(state)
        self.given_names = False
        humans = [seat for seat, kind in enumerate(self.seats) if kind == HUMAN]
        self.humans = humans
        # whose eyes the log is printed through: the one human, else none (everything)
        self.viewer = humans[0] if len(humans) == 1 else None
        self.several_humans = len(humans) > 1
        # an agent's choice may be secret (a card laid face down): with people watching,
        # the log, which respects visibility, is the only report of it
        self.omniscient = not humans
        # screens on a terminal; a transcript otherwise
        self.screens = bool(humans) and self.o.tty and self._interactive_input()
        self.seen = {s: 0 for s in humans}   # per person: log lines seen at their last move
        self.last_on_screen = None           # the person whose view is on screen

    def seat_name(self, seat: int) -> str:
        return self.names[seat]

    def named(self, text: str) -> str:
        """A line with the seats' labels (P1, P2, ...) replaced by the names given with
        --names; unchanged without them."""
        return rename_seats(text, self.names) if self.given_names else text

    @property
    def out(self) -> IO:
        return self._out if self._out is not None else sys.stdout

    @property
    def inp(self) -> IO:
        return self._inp if self._inp is not None else sys.stdin

    def _interactive_input(self) -> bool:
        try:
            return self.inp.isatty()
        except (AttributeError, ValueError):
            return False

    def say(self, text="", style=None) -> None:
        if isinstance(text, list):
            self.o.line(text)
        else:
            self.o.line([(str(text), style)])

    def flush_log(self, viewer=None) -> None:
        """Print the log lines not printed yet, as `viewer` (or self.viewer) may see them."""
        if len(self.state.events) <= self.log_seen:
            return
        seat = viewer if viewer is not None else self.viewer
        lines = log_lines(self.state, seat)
        for line in lines[self.log_seen:]:
            self.say(f"  {self.named(line)}")
        self.log_seen = len(lines)

    def save_data(self) -> str:
        """The autosave: the state's JSON plus, under "runner", what --resume needs."""
        text = self.state.to_json()
        if not self.meta:
            return text
        data = json.loads(text)
        data["runner"] = dict(self.meta, seats=self.seats)
        return json.dumps(data, separators=(",", ":"))

    def save(self) -> None:
        # only a state that waits for a decision (or is over): Ctrl-C in the middle of the
        # rules must not replace the last good autosave with a half-applied state
        if self.save_path and at_decision(self.state):
            write_file(self.save_path, self.save_data(), "the save file")

    def history_lines(self, seat) -> list:
        """The actions so far as `seat` saw them (others' secret choices unnamed); the
        seat's log when the game cannot be replayed from its start."""
        from rulesdsl.play.seen import history_seen
        try:
            initial = self.initial
            if initial is None:
                initial = self.game.new_game(players=self.state.players,
                                             seed=self.meta.get("seed", self.state.seed),
                                             scenario=self.meta.get("scenario") or None)
            return history_seen(initial, list(self.state.history), seat)
        except (RulesError, AttributeError, TypeError):
            return log_lines(self.state, seat)

    def replay_data(self) -> dict:
        return {"format": "rulesdsl-replay", "game": self.meta.get("game"),
                "options": self.meta.get("options", {}), "players": self.state.players,
                "seed": self.meta.get("seed", getattr(self.state, "seed", 0)),
                "scenario": self.meta.get("scenario"), "seats": self.seats,
                "actions": list(self.state.history)}

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
                self.say()
                return None
            except UnicodeDecodeError:
                return "\ufffd"       # undecodable bytes: an unknown label
        self.out.write(prompt)
        self.out.flush()
        try:
            line = stream.readline()
        except UnicodeDecodeError:
            return "\ufffd"
        if not line:
            self.say()
            return None
        line = line.rstrip("\r\n")
        self.say(clean(line, 200))    # echo, so a transcript reads like a session
        return line

    def show_options(self, seat: int, actions: Sequence) -> None:
        o = self.o
        if self.screens:
            o.clear()
            try:
                where = " > ".join(p.replace("_", " ") for p in self.state.phase_path())
            except Exception:
                where = ""
            self.say([(f" {getattr(self.game, 'name', '')} ", "bold reverse"),
                      (f"  {self.seat_name(seat)} to move", "bold"),
                      ("   (you)" if len(self.humans) == 1 else "", "dim"),
                      (f"   {where}" if where else "", "dim")])
            self.show_recent(seat)
        else:
            self.say(f"{self.seat_name(seat)} to move; what you see:")
        try:
            view = self.state.view(seat)
        except RulesError:
            view = None
        if view:
            for line in self.layout.view_lines(view, seat, compact=True, width=o.width - 3,
                                               shown=self.shown(seat)):
                self.say([("  ", None)] + [(self.named(t), st) for t, st in line])
        self.show_choices(actions, view)

    def show_recent(self, seat: int) -> None:
        """What happened since this seat last moved, as it may see it (at most a screenful)."""
        lines = log_lines(self.state, seat)
        new = lines[self.seen.get(seat, 0):]
        if not new:
            return
        limit = max(6, min(14, shutil.get_terminal_size((100, 30)).lines // 3))
        self.say("since your last move:" if self.seen.get(seat) else "so far:", "bold")
        if len(new) > limit:
            self.say(f"  ... {len(new) - limit} earlier lines (type log to see them)", "dim")
            new = new[-limit:]
        for line in new:
            line = self.named(line)
            self.say([("  ", None), (line, "cyan" if line.startswith(self.names[seat])
                                     else None)])

    def what_is_asked(self, actions: Sequence, view) -> str:
        """'a card from hand[P1]', 'a Region', ...: read off the labels and the view."""
        labels = [a.label for a in actions]
        info = self.layout.info
        cards = [l for l in labels if l in info.get("cards", {})]
        if isinstance(view, dict) and cards:
            seat = view.get("seat")
            zones = sorted((view.get("zones") or {}).items(),
                           key=lambda z: info["zones"].get(z[0], {}).get("owner") != seat)
            for name, held in zones:
                if isinstance(held, list) and all(l in held for l in cards):
                    rest = len(labels) - len(cards)
                    return f"a card from {name}" + (" (or another option)" if rest == 1
                                                    else " (or other options)" if rest
                                                    else "")
        for board, nodes in info.get("boards", {}).items():
            if all(l in nodes for l in labels):
                return f"a {board}"
        for enum, values in info.get("enums", {}).items():
            if all(l in values for l in labels):
                return f"a {enum}"
        seats = [f"P{k + 1}" for k in range(self.state.players)]
        if all(l in seats for l in labels):
            return "a player"
        return ""

    def show_choices(self, actions: Sequence, view=None) -> None:
        if numeric_labels(actions):
            question = self.question()
            if question:
                self.say(question, "bold")
            values = sorted(int(a.label) for a in actions)
            self.say([("options: ", "bold"), ("type an amount: ", None),
                      (_ranges(values), "bold yellow")])
            self.say("  (a number here is the amount itself; #N picks option N)", "dim")
            return
        what = self.what_is_asked(actions, view) if self.screens else ""
        question = self.question()
        if question:
            self.say(question, "bold")
            what = ""
        self.say([("options:", "bold"), (f" {what}" if what else "", "bold"),
                  ("  (type a number or the start of a label; help: commands)"
                   if self.screens else "", "dim")])
        width = len(str(len(actions)))
        cells = [[(f"  {k:>{width}}. ", "bold yellow"),
                  (a.label, self.layout.card_style(a.label))] + self.option_note(a.label)
                 for k, a in enumerate(actions, 1)]
        cols = 1
        if self.screens and len(actions) > 8:
            cell_w = max(sum(len(t) for t, _ in c) for c in cells) + 2
            cols = max(1, min(4, self.o.width // cell_w))
        if cols == 1:
            for c in cells:
                self.say(c)
            return
        cell_w = max(sum(len(t) for t, _ in c) for c in cells) + 2
        rows = -(-len(cells) // cols)
        for r in range(rows):
            line = []
            for col in range(cols):
                k = col * rows + r
                if k < len(cells):
                    c = cells[k]
                    pad = cell_w - sum(len(t) for t, _ in c)
                    line += c + ([(" " * pad, None)] if col < cols - 1 else [])
            self.say(line)

    def shown(self, seat: int) -> list:
        """The values the rules declare for the screen (`show`), as `seat` may see them."""
        shown = getattr(self.state, "shown", None)
        try:
            return shown(seat) if callable(shown) else []
        except RulesError:
            return []

    def question(self) -> str:
        """The rules' question for the pending decision, names filled in ("" if none)."""
        ask = getattr(self.state, "question", None)
        try:
            text = ask() if callable(ask) else None
        except RulesError:
            text = None
        return self.named(text) if text else ""

    def hand_order(self, actions: list, seat: Optional[int] = None) -> list:
        """The options in the order the hand is shown above them: cards sorted as the
        screen sorts a hand, every other option after them, in the rules' order. Cards
        from a pile the screen shows in its own order (a display) keep the rules' order."""
        cards = self.layout.info.get("cards", {})
        labels = [a.label for a in actions if a.label in cards]
        if len(labels) < 2 or not self.shown_sorted(labels, seat):
            return list(actions)
        order = {lab: k for k, lab in enumerate(self.layout.sort_cards(
            [a.label for a in actions if a.label in cards]))}
        return sorted(actions, key=lambda a: (0, order[a.label]) if a.label in order
                      else (1, 0))

    def shown_sorted(self, labels: list, seat: Optional[int]) -> bool:
        """Every card lies in a zone the screen shows sorted: an unordered zone, or one of
        the seat's own zones the others may not see (Layout.zone_pieces groups those)."""
        if seat is None:
            return True
        try:
            zones = self.state.view(seat).get("zones") or {}
        except RulesError:
            return True
        info = self.layout.info.get("zones", {})
        sorted_cards = set()
        for name, held in zones.items():
            z = info.get(name, {})
            if isinstance(held, list) and (z.get("unordered") or (
                    z.get("owner") == seat and z.get("visibility") != "public")):
                sorted_cards.update(held)
        return all(lab in sorted_cards for lab in labels)

    def option_note(self, label: str) -> list:
        """An enum value's declared title beside the option: "a10  (the 10,000 area)"."""
        for titles in self.layout.info.get("enum_titles", {}).values():
            if label in titles:
                return [(f"  ({titles[label]})", "dim")]
        return []

    def hand_over(self, seat: int) -> None:
        """Several people at one screen: hide the last person's view until the next one is
        at the keyboard."""
        if not (self.screens and self.several_humans) or self.last_on_screen == seat:
            return
        self.o.clear()
        self.say(f"pass the keyboard to {self.names[seat]}, "
                 "then press Enter", "bold")
        text = self._read_line("")
        if text is None:
            raise InputEnded()
        if text.strip().lower() in ("quit", "exit", "q"):
            raise Quit()
        self.last_on_screen = None

    def ask_human(self, seat: int):
        actions = self.hand_order(self.state.legal_actions(), seat)
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
        self.hand_over(seat)
        self.show_options(seat, actions)
        self.last_on_screen = seat
        numeric = numeric_labels(actions)
        while True:
            text = self._read_line(f"{self.names[seat]}> ")
            if text is None:
                raise InputEnded()
            cmd = text.strip().lower()
            word, _, rest = text.strip().partition(" ")
            if word.lower() in ("?", "help", "h") and rest.strip():
                self.explain(rest)
                continue
            if cmd in ("?", "help", "options", "h"):
                for line in HELP:
                    self.say(line)
                if numeric:
                    self.say("this decision asks for an amount: type the number itself "
                             "(#N picks option N)")
                self.show_choices(actions)
                continue
            if cmd in ("quit", "exit", "q"):
                raise Quit()
            if cmd == "history":
                for k, line in enumerate(self.history_lines(seat), 1):
                    self.say(f"  {k}. {line}")
                continue
            if cmd == "log":
                for line in log_lines(self.state, seat):
                    self.say(f"  {line}")
                continue
            if cmd == "rules":
                self.show_rules()
                continue
            if word.lower() == "save":
                self.save_as(rest.strip())
                continue
            if numeric and _is_int(text) and not any(a.label == text.strip() for a in actions):
                self.say(f"  {clean(text)} is not an amount you may choose here: "
                         f"{_ranges(sorted(int(a.label) for a in actions))}; type ? for help")
                continue
            action, problem = match_action(text, actions)
            if action is None:
                self.say(f"  {clean(problem, 120)}; type ? for help")
                continue
            return action

    def show_rules(self) -> None:
        """`rules`: the rules text the file declares (about, cards, table, flow)."""
        from rulesdsl.play.rulestext import rules_text
        for line in rules_text(self.game, self.state.players, width=min(self.o.width, 100)):
            self.say(line)

    def explain(self, what: str) -> None:
        """`help NAME` / `? NAME`: one card, kind or word of the game."""
        from rulesdsl.play.rulestext import explain
        for line in explain(self.game, self.state.players, clean(what, 80),
                            width=min(self.o.width, 100)):
            self.say(line)

    def save_as(self, path: str) -> None:
        if not path:
            self.say("  save needs a file name, e.g.  save mygame.json")
            return
        try:
            write_file(path, self.save_data(), "the save file")
        except RulesError as e:
            self.say(f"  {e.message}")
            return
        self.say(f"  saved in {path}; continue with: rulesdsl play --resume {path}")

    # -- the loop

    def run(self) -> int:
        state = self.state
        self.save()                   # a bad --save path shows up before the game starts
        agent_actions = 0
        while not state.is_over:
            seat = state.to_move
            kind = self.seats[seat]
            if not self.humans:
                agent_actions += 1
                if agent_actions > MAX_AGENT_ACTIONS:
                    raise RulesError("C010", f"the game did not end within "
                                     f"{MAX_AGENT_ACTIONS} actions",
                                     hints=["the rules may loop forever; look at the end "
                                            "conditions"])
            if not self.screens:
                # with several people at one screen, each sees the log through their own eyes
                self.flush_log(seat if self.several_humans and kind == HUMAN else None)
            if kind == HUMAN:
                action = self.ask_human(seat)
                # what this person saw before choosing; their own move is theirs to know
                self.seen[seat] = len(log_lines(state, seat))
            else:
                action = self.agent_choice(seat, kind)
                if self.omniscient:
                    self.say(f"{self.names[seat]} ({kind}) plays: {action.label}")
            state.apply(action)
            self.save()
        if self.screens:
            self.o.clear()
            viewer = self.viewer
            lines = log_lines(state, viewer)
            start = self.seen.get(viewer, 0) if viewer is not None else len(lines) - 12
            start = max(start, len(lines) - 20)
            self.say("the end of the game:", "bold")
            for line in lines[max(0, start):]:
                self.say(f"  {line}")
        else:
            self.flush_log()
        self.show_result()
        return 0

    def agent_choice(self, seat: int, kind: str):
        """The agent's move; a person at a terminal sees that it is thinking."""
        from rulesdsl.play.thinking import describe_agent, thinking
        agent = self.agents[seat]
        text = f"{self.names[seat]} ({describe_agent(kind, agent)}) is thinking..."
        with thinking(self.out, text, bool(self.humans) and self.o.tty):
            return agent.choose(self.state)

    def show_result(self) -> None:
        state = self.state
        winners = list(state.winners or [])
        self.say("")
        self.say("game over after %d actions" % len(state.history), "bold")
        if not winners:
            self.say("no winner: the game is drawn")
        elif len(winners) == 1:
            self.say(f"winner: {self.seat_name(winners[0])}, {self.seats[winners[0]]}",
                     "bold green")
        else:
            self.say("winners: " + "; ".join(f"{self.seat_name(w)}, {self.seats[w]}"
                                             for w in winners), "bold green")
        try:
            scores = state.scores
        except (AttributeError, RulesError):
            scores = None
        if scores:
            items = scores.items() if isinstance(scores, dict) else enumerate(scores)
            self.say("scores: " + ", ".join(f"{self.names[s] if isinstance(s, int) else s}: {v}"
                                            for s, v in items))


class InputEnded(Exception):
    """Standard input ended (Ctrl-D, or a pipe ran dry) before the game did."""


def at_decision(state) -> bool:
    """A state the engine stopped at: over, or a pending decision with the rules at an ask."""
    if getattr(state, "over", False):
        return True
    frames = getattr(state, "frames", None)
    if getattr(state, "pending", None) is None or not frames:
        return False
    fr = frames[-1]
    return hasattr(state.prog.procs[fr[0]].code[fr[1]], "options")


__all__ = ["Runner", "view_lines", "log_lines", "at_decision"]
