"""`rulesdsl replay FILE`: step through a game, forwards and backwards: a finished game
with everything shown, a game not yet over as one seat saw it (`--seat P`; `--all` shows
everything).

FILE is a replay file (JSON: format "rulesdsl-replay", game, options, players, seed,
scenario, actions, takebacks: the moves a person took back with `undo`), which the runner
writes at the end of a game, or an autosave (the state's JSON with a "runner" entry), from
which the same is derived. Keys: n or Enter next, p previous, g N go to action N, q quit.
`--to N` prints the state after N actions.
"""

from __future__ import annotations

import functools
import json
import sys

from rulesdsl.lang.limits import bounded_int
from rulesdsl.lang.errors import RulesError
from rulesdsl.engine.pieces import card_text
from rulesdsl.play.screen import Layout, Out
from rulesdsl.play.takeback import note_text, valid_notes


def read_replay(path: str) -> dict:
    """A replay's fields from a replay file or an autosave; RulesError when it is neither."""
    from rulesdsl.lang.limits import read_text
    from rulesdsl.lang.safefile import shown_path
    shown = shown_path(path)
    try:
        data = json.loads(read_text(path, "C001", "replay"))
    except OSError as e:
        raise RulesError("C001", f"cannot read {shown}: {e.strerror or e}") from None
    except (ValueError, RecursionError):
        raise RulesError("C001", f"{shown} is not a replay file (not JSON)") from None
    if not isinstance(data, dict):
        raise RulesError("C001", f"{shown} is not a replay file")
    if data.get("format") == "rulesdsl-state":          # an autosave
        meta = data.get("runner") if isinstance(data.get("runner"), dict) else {}
        data = {"game": meta.get("game") or data.get("source"),
                "options": meta.get("options") or {}, "players": data.get("players"),
                "seed": data.get("seed", 0), "scenario": meta.get("scenario"),
                "actions": data.get("history"), "takebacks": meta.get("takebacks")}
    actions = data.get("actions")
    if not isinstance(data.get("game"), str) or not isinstance(actions, list) or \
            not all(isinstance(a, str) for a in actions):
        raise RulesError("C001", f"{shown} is not a replay file: it needs a game and a list "
                         "of actions")
    return data


def states_of(data: dict) -> tuple:
    """(game, [state after 0, 1, ... actions]); a replay that stops fitting the rules is
    cut where it stops, with a RulesError's message."""
    from rulesdsl.play.session import load_game
    game = load_game(data["game"], data.get("options") or {})
    seed = data.get("seed") if isinstance(data.get("seed"), int) else 0
    state = game.new_game(players=data.get("players"), seed=seed,
                          scenario=data.get("scenario") or None)
    states = [state.clone()]
    problem = None
    for k, label in enumerate(data["actions"], 1):
        try:
            state.apply(label)
        except RulesError as e:
            problem = f"action {k} ({label!r}) does not fit the rules: {e.message}"
            break
        states.append(state.clone())
    return game, states, problem


def omniscient_lines(layout: Layout, state, width: int) -> list:
    """Every zone and variable, whoever may see it (a replay hides nothing)."""
    prog = state.prog
    zones = {name: [card_text(state, c) for c in state.zones[zi]]  # pieces as they are
             for zi, name in enumerate(prog.zone_names)}
    variables = {}
    types = layout.info["vars"]
    for name in prog.var_names:
        try:
            v = state.var(name)
        except RulesError:
            continue
        if types.get(name, {}).get("type") == "player" and isinstance(v, int) and \
                not isinstance(v, bool):
            v = f"P{v + 1}"
        variables[name] = v
    view = {"zones": zones, "vars": variables}
    try:
        scores = state.scores
        if scores:
            view["scores"] = {f"P{p + 1}": s for p, s in enumerate(scores)}
    except RulesError:
        pass
    return layout.view_lines(view, None, compact=True, width=width)


def seat_lines(layout: Layout, state, seat: int, width: int) -> list:
    """What one seat sees: its view, as at the table."""
    return layout.view_lines(state.view(seat), seat, compact=True, width=width)


def show(o: Out, game, states: list, k: int, actions: list, seat=None, seen=None,
         notes=()) -> None:
    """The position after k actions: everything (seat None), or as `seat` saw it (`seen`:
    the actions as that seat saw them); `notes`: the moves a person took back (undo)."""
    state = states[k]
    o.clear()
    layout = Layout(state)
    n = len(states) - 1
    head = f" {game.name} " if getattr(game, "name", None) else ""
    eyes = "  everything shown" if seat is None else f"  as P{seat + 1} sees it"
    o.line([(head, "bold reverse"), (f"  after action {k} of {n}", "bold"), (eyes, None)])
    if k:
        o.line([("action: ", "bold"), (actions[k - 1] if seen is None else seen[k - 1],
                                       "yellow")])
        # the log in the game's words, as the seat shown read it
        before = len(states[k - 1].story(seat))
        for line in state.story(seat)[before:][-15:]:
            o.line("  " + line)
    for note in notes:
        if note["at"] == k:
            o.line([("here " + note_text(note, [f"P{p + 1}" for p in range(state.players)]),
                     "bold")])
    lines = omniscient_lines(layout, state, o.width) if seat is None else \
        seat_lines(layout, state, seat, o.width)
    for line in lines:
        o.line([("  ", None)] + line)
    if state.is_over:
        w = ", ".join(f"P{s + 1}" for s in state.winners) or "nobody"
        o.line([("game over; winner: " + w, "bold green")])
    elif state.to_move is not None:
        o.line(f"P{state.to_move + 1} to move")


def replay_seat(args, data: dict, states: list):
    """Whose eyes the replay looks through: None (everything) for a finished game or with
    --all; else --seat, or the one person who played, or P1. A game still under way is
    never shown whole without --all: it would spoil it for whoever plays it."""
    players = states[0].players
    chosen = getattr(args, "seat", None)
    if chosen is not None:
        text = str(chosen).strip().upper().removeprefix("P")
        if not text.isdecimal() or not 1 <= int(text) <= players:
            raise RulesError("C015", f"--seat {chosen}: the game has seats P1 to P{players}",
                             None, ["write --seat P1 (or 1)"])
        return int(text) - 1
    if getattr(args, "all", False) or states[-1].is_over:
        return None
    seats = data.get("seats") if isinstance(data.get("seats"), list) else []
    humans = [k for k, kind in enumerate(seats) if kind == "human"]
    return humans[0] if len(humans) == 1 and humans[0] < players else 0


def run_replay(args, out=None, inp=None) -> int:
    data = read_replay(args.file)
    game, states, problem = states_of(data)
    o = Out(out, plain=bool(getattr(args, "plain", False)))
    actions = data["actions"]
    n = len(states) - 1
    seat = replay_seat(args, data, states)
    seen = None
    if seat is not None:
        from rulesdsl.play.seen import history_seen
        seen = history_seen(states[0], actions[:n], seat)
        if not states[-1].is_over and getattr(args, "seat", None) is None:
            problem = (problem + "\n" if problem else "") + \
                f"the game is not over: shown as P{seat + 1} sees it (--seat P chooses " \
                "the seat, --all shows every hand and hidden pile)"
    display = functools.partial(show, seat=seat, seen=seen,
                                notes=valid_notes(data.get("takebacks")))
    if getattr(args, "to", None) is not None:
        k = args.to
        if not 0 <= k <= n:
            raise RulesError("C013", f"--to {k}: the replay has actions 0 to {n}")
        display(o, game, states, k, actions)
        if problem:
            o.line(problem)
        return 0
    inp = inp if inp is not None else sys.stdin
    k = 0
    message = problem
    while True:
        display(o, game, states, k, actions)
        if message:
            o.line(message)
            message = None
        o.stream.write("n/Enter next, p previous, g N go to, q quit > ")
        o.stream.flush()
        try:
            if inp is sys.stdin and inp.isatty():
                line = input()
            else:
                line = inp.readline()
                if not line:
                    return 0
        except EOFError:
            return 0
        except KeyboardInterrupt:
            o.stream.write("\n")
            return 0
        cmd = line.strip().lower()
        if cmd in ("", "n", "next"):
            if k < n:
                k += 1
            else:
                message = "that was the last action; p goes back, q quits"
        elif cmd in ("p", "prev", "previous", "b"):
            if k > 0:
                k -= 1
        elif cmd in ("q", "quit", "exit"):
            return 0
        elif cmd.startswith("g"):
            arg = cmd[1:].strip()
            if arg.lstrip("-").isdecimal() and 0 <= bounded_int(arg) <= n:
                k = bounded_int(arg)
            else:
                message = f"g N goes to action N, from 0 to {n}"
        else:
            message = "keys: n or Enter next, p previous, g N go to action N, q quit"
