"""Asking a person: reading a line from a script or the keyboard, the hand-over screen, and the commands at a prompt."""

from __future__ import annotations

import sys
from typing import Optional, Sequence

from rulesdsl import Action

from rulesdsl.lang.errors import RulesError, Span, did_you_mean
from rulesdsl.play.screen import clean
from rulesdsl.play.answers import _is_int, _ranges, match_action, numeric_labels
from rulesdsl.play.runner.text import HELP, InputEnded, Quit, log_lines


class Asking:
    """Reads a person's answer and carries out the commands typed at a prompt."""

    def _interactive_input(self) -> bool:
        try:
            return self.inp.isatty()
        except (AttributeError, ValueError):
            return False

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
                    self.say(f"  {k}. {self.named(line)}")
                continue
            if cmd == "log":
                for line in log_lines(self.state, seat):
                    self.say(f"  {self.named(line)}")
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
            action, problem = self.match_typed(text, actions)
            if action is None:
                if _is_int(text.lstrip("# ")) or not self.show_matches(text, actions):
                    self.say(f"  {clean(problem, 120)}; type ? for help")
                continue
            return action

    def match_typed(self, text: str, actions: Sequence):
        """The action a person means: the labels as shown (with the names given by --names:
        "Ann finance" for "P1 finance") first, then the game's own labels."""
        if not self.given_names:
            return match_action(text, actions)
        shown = [Action(self.named(a.label)) for a in actions]
        action, problem = match_action(text, shown)
        if action is not None:
            return actions[shown.index(action)], None
        action, _ = match_action(text, actions)
        return (action, None) if action is not None else (None, problem)
