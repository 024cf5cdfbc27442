"""Asking a person: reading a line from a script or the keyboard, the hand-over screen, and the commands at a prompt."""

from __future__ import annotations

import sys
from typing import Optional, Sequence

from rulesdsl import Action

from rulesdsl.lang.errors import RulesError, Span, did_you_mean
from rulesdsl.play.screen import clean
from rulesdsl.play.answers import _is_int, _ranges, amount_typed, match_action, numeric_labels
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
        line = self._next_script_line()
        if line is not None:
            actions = self.hand_order(self.state.legal_actions(), seat)
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
        while True:
            # asked again after an undo: the position is an earlier one
            actions = self.hand_order(self.state.legal_actions(), seat)
            self.show_options(seat, actions)
            self.last_on_screen = seat
            action = self.read_answer(seat, actions)
            if action is not None:
                return action

    def read_answer(self, seat: int, actions: Sequence):
        """The option the person types, after any commands; None after an undo (the
        position changed: ask again)."""
        numeric = numeric_labels(actions)
        while True:
            text = self._read_line(f"{self.names[seat]}> ")
            if text is None:
                raise InputEnded()
            if numeric:
                text = amount_typed(text)     # "10,000" as the amounts are written
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
            shows = {"history": lambda: self.show_history(seat),
                     "log": lambda: self.show_log(seat), "rules": self.show_rules,
                     "view": lambda: self.show_view(seat),
                     "hint": lambda: self.show_hint(seat, actions)}
            if cmd in shows:
                shows[cmd]()
                continue
            if cmd == "undo":
                if self.take_back(seat):
                    return None
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

    def show_history(self, seat: int) -> None:
        """`history`: the actions so far as the seat saw them, numbered, with the moves
        taken back where they were."""
        from rulesdsl.play.takeback import with_notes
        for k, line in with_notes(self.history_lines(seat), self.takebacks, "at", self.names):
            self.say(f"  {k + 1}. {self.named(line)}" if k is not None else f"  -- {line}")

    def show_log(self, seat: int) -> None:
        """`log`: everything the seat has seen, with the moves taken back where they were."""
        from rulesdsl.play.takeback import with_notes
        for k, line in with_notes(log_lines(self.state, seat), self.takebacks, "lines",
                                  self.names):
            self.say(f"  {self.named(line)}" if k is not None else f"  -- {line}")

    def show_hint(self, seat: int, actions: Sequence) -> None:
        """`hint`: the computer's choice for this seat and its chances; Ctrl-C stops the
        search and leaves the position as it was (the search works on a copy)."""
        from rulesdsl.agents import make_agent
        from rulesdsl.play.hint import advise, hint_seed, hint_spec, hint_text
        from rulesdsl.play.thinking import describe_agent, thinking
        if len(actions) == 1:
            self.say(f'  only one option here: "{self.named(actions[0].label)}"')
            return
        spec = hint_spec(self.seats)
        agent = make_agent(spec, hint_seed(self.state.seed, self.state, seat))
        who = describe_agent(spec, agent)
        try:
            with thinking(self.out, f"the computer ({who}) is thinking about a hint...",
                          self.o.tty):
                choice, analysis = advise(self.state, agent)
        except KeyboardInterrupt:
            self.say("  hint stopped; the position is as it was")
            return
        self.say("  " + hint_text(choice, analysis, who, self.named))

    def take_back(self, seat: int) -> bool:
        """`undo`: back to this person's previous decision, the computer moves after it
        taken back too; True when the position changed. Only against computer seats:
        another person's moves are not this person's to take back."""
        from rulesdsl.play.takeback import make_note, previous_decision, rewound, note_text
        others = [self.names[s] for s in self.humans if s != seat]
        if others:
            self.say(f"  undo works only against computer players: {', '.join(others)} "
                     f"{'is a person' if len(others) == 1 else 'are people'} too, and "
                     "their moves are not yours to take back")
            return False
        actions = list(self.state.history)
        try:
            found = previous_decision(self.start_state(), actions, seat)
        except (RulesError, AttributeError, TypeError) as e:
            why = e.message if isinstance(e, RulesError) else "the game cannot be replayed"
            self.say(f"  cannot take back a move here: {why}")
            return False
        if found is None:
            self.say("  nothing to undo: this is your first move of the game")
            return False
        k, state = found
        lines = len(log_lines(state, seat))
        rewound(self.takebacks, k, lines)
        note = make_note(k, actions, lines, seat)
        self.takebacks.append(note)
        self.state = state
        self.log_seen = len(log_lines(state, self.viewer))
        self.seen[seat] = lines
        self.notice = note_text(note, self.names)
        self.save()
        return True

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
