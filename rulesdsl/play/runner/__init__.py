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
N); `help`, `rules`, `log`, `history`, `hint`, `undo`, `save FILE`, `quit`. Wrong input
gets a message and the same prompt. A game with a person in it is saved after every
action (--save's file, else a new file in ~/.rulesdsl/saves/); Ctrl-C and the end of input
leave it saved, and `play --resume FILE` continues it. At the end a replay file is written
beside the save (see rulesdsl.play.replay)."""

from __future__ import annotations

import json
import os
import sys
from typing import IO, Optional, Sequence

from rulesdsl.agents import make_agent
from rulesdsl.lang.errors import RulesError
from rulesdsl.agents.seats import agent_seed
from rulesdsl.play.saves import write_save
from rulesdsl.play.runner.display import Display
from rulesdsl.play.runner.asking import Asking
# the runner's words are also what the session and the tests read from here
from rulesdsl.play.runner.text import (  # noqa: F401
    DEFAULT_OPPONENT, HUMAN, MAX_AGENT_ACTIONS, InputEnded, Quit, Told, at_decision,
    log_lines, rename_seats, seat_names, view_lines)


class Runner(Display, Asking):
    """Plays one game to its end (or until quit) through the public API.

On a terminal each person's decision gets a screen of its own: it is cleared, and with
several people at the table a hand-over screen comes first, so each sees only their own
view. Elsewhere (a pipe, a file, a script) the runner writes a transcript instead."""

    def __init__(self, state, seats: Sequence[str], *, seed: int = 0,
                 script: Optional[list[str]] = None, script_path: Optional[str] = None,
                 save: Optional[str] = None, out: Optional[IO] = None,
                 inp: Optional[IO] = None, plain: bool = False, meta: Optional[dict] = None,
                 game=None, force: bool = False, known: Optional[dict] = None):
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
        self.force = force            # --force: the first save may replace another game's
        # absolute path -> the text this game last wrote there (or was resumed from): what
        # a save may replace without --force besides a finished game's save
        self.known: dict = dict(known or {})
        self.meta = dict(meta or {})  # what --resume needs besides the state
        # the position before the first action, for `history` as each seat saw it
        self.initial = state.clone() if not getattr(state, "history", None) else None
        self._out = out
        self._inp = inp
        self.o = Out(out, plain=plain)
        self.layout = Layout(state)
        self.log_seen = 0             # log entries printed so far
        self.told = Told()            # the log in words, per seat, told once
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
        self.moved: set = set()              # the people who moved in this session
        # the set-up's log (a board laid out piece by piece) is no news: it is not listed
        # on a person's first screen, only counted there (`log` shows it)
        self.setup = {s: len(self.told.lines(state, s)) for s in humans} \
            if not getattr(state, "history", None) else {}
        self.seen.update(self.setup)
        self.last_on_screen = None           # the person whose view is on screen
        from rulesdsl.play.takeback import valid_notes
        self.takebacks = valid_notes(self.meta.get("takebacks"))   # moves taken back (undo)
        self.notice = None                   # a line for the next screen (a move taken back)

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
        lines = self.told.lines(self.state, seat)
        for line in lines[self.log_seen:]:
            self.say(f"  {self.named(line)}")
        self.log_seen = len(lines)

    def save_data(self) -> str:
        """The autosave: the state's JSON plus, under "runner", what --resume needs."""
        text = self.state.to_json()
        if not self.meta and not self.takebacks:
            return text
        data = json.loads(text)
        data["runner"] = dict(self.meta, seats=self.seats, takebacks=self.takebacks)
        return json.dumps(data, separators=(",", ":"))

    def save(self) -> None:
        # only a state that waits for a decision (or is over): Ctrl-C in the middle of the
        # rules must not replace the last good autosave with a half-applied state
        if self.save_path and at_decision(self.state):
            self.write_save(self.save_path, self.force)

    def write_save(self, path: str, force: bool = False, forcing: str = "--force") -> None:
        """The save in `path`, never over another game in progress unless `force`."""
        key = os.path.abspath(path)
        text = self.save_data()
        write_save(path, text, known=self.known.get(key), force=force, forcing=forcing)
        self.known[key] = text

    def history_lines(self, seat) -> list:
        """The actions so far as `seat` saw them (others' secret choices unnamed); the
        seat's log when the game cannot be replayed from its start."""
        from rulesdsl.play.seen import history_seen
        try:
            return history_seen(self.start_state(), list(self.state.history), seat)
        except (RulesError, AttributeError, TypeError):
            return log_lines(self.state, seat)

    def start_state(self):
        """The position before the first action: kept from the start of this session, else
        dealt again (a resumed game) from the state's own seed, which a restore checked
        against its history (`--seed` given with `--resume` is not the deal's). Not to be
        changed: clone it."""
        if self.initial is None:
            self.initial = self.game.new_game(players=self.state.players,
                                              seed=self.state.seed,
                                              scenario=self.meta.get("scenario") or None)
        return self.initial

    def replay_data(self) -> dict:
        return {"format": "rulesdsl-replay", "game": self.meta.get("game"),
                "options": self.meta.get("options", {}), "players": self.state.players,
                "seed": getattr(self.state, "seed", self.meta.get("seed", 0)),  # the deal's
                "scenario": self.meta.get("scenario"), "seats": self.seats,
                "actions": list(self.state.history), "takebacks": self.takebacks}

    def save_as(self, typed: str) -> None:
        """`save F` at the prompt; `save --force F` may replace another game in progress."""
        force = typed.startswith("--force ") or typed == "--force"
        path = typed.removeprefix("--force").strip() if force else typed
        if not path:
            self.say("  save needs a file name, e.g.  save mygame.json")
            return
        try:
            self.write_save(path, force, f"save --force {path}")
        except RulesError as e:
            self.say(f"  {e.message}")
            for hint in e.hints:
                self.say(f"  hint: {hint}")
            return
        self.say(f"  saved in {path}; continue with: rulesdsl play --resume {path}")

    def run(self) -> int:
        self.save()                   # a bad --save path shows up before the game starts
        try:
            self.play_to_the_end()
        finally:
            if not self.humans:       # saved once, as it stands: see play_to_the_end
                self.save()
        self.show_end()
        self.show_result()
        return 0

    def play_to_the_end(self) -> None:
        """Every decision until the game is over. A game with a person in it is saved after
        every action; one of computer players only when it stops (over, at the limit,
        interrupted): saving a long game at every action would cost more than playing it."""
        agent_actions = 0
        while not self.state.is_over:
            seat = self.state.to_move
            kind = self.seats[seat]
            if not self.humans:
                agent_actions += 1
                if agent_actions > MAX_AGENT_ACTIONS:
                    raise self.endless()
            if not self.screens:
                # with several people at one screen, each sees the log through their own eyes
                self.flush_log(seat if self.several_humans and kind == HUMAN else None)
            if kind == HUMAN:
                action = self.ask_human(seat)
                # what this person saw before choosing; their own move is theirs to know
                self.seen[seat] = len(self.told.lines(self.state, seat))
                self.moved.add(seat)
            else:
                action = self.agent_choice(seat, kind)
                if self.omniscient:
                    self.say(f"{self.names[seat]} ({kind}) plays: {self.named(action.label)}")
            # self.state, never a name kept for it: `undo` puts a rebuilt state in its place
            self.state.apply(action)
            if self.humans:
                self.save()

    def endless(self) -> RulesError:
        """C010, as simulate says it: computer players alone did not finish the game."""
        from rulesdsl.play.saves import default_save_path
        hints = ["the rules may loop forever; look at the end conditions"]
        # kept, to be looked at: where --save said, else where a person's game is saved
        self.save_path = self.save_path or default_save_path(self.game)
        try:
            self.save()
            hints.append(f"the game as it stands is saved in {self.save_path}; play it on "
                         f"from there with: rulesdsl play --resume {self.save_path}")
        except RulesError as e:
            hints.append(f"it could not be saved: {e.message}")
        return RulesError("C010", f"the game did not end within {MAX_AGENT_ACTIONS:,} "
                          "actions of computer players", hints=hints)

    def show_end(self) -> None:
        """The last lines of the log: on a terminal what the person has not seen yet (at
        most a screenful), in a transcript the rest of the log."""
        if not self.screens:
            self.flush_log()
            return
        self.o.clear()
        viewer = self.viewer
        lines = self.told.lines(self.state, viewer)
        start = self.seen.get(viewer, 0) if viewer is not None else len(lines) - 12
        start = max(start, len(lines) - 20)
        self.say("the end of the game:", "bold")
        for line in lines[max(0, start):]:
            self.say(f"  {self.named(line)}")

    def agent_choice(self, seat: int, kind: str):
        """The agent's move; a person at a terminal sees that it is thinking."""
        from rulesdsl.play.thinking import describe_agent, thinking
        agent = self.agents[seat]
        text = f"{self.names[seat]} ({describe_agent(kind, agent)}) is thinking..."
        with thinking(self.out, text, bool(self.humans) and self.o.tty):
            return agent.choose(self.state)



