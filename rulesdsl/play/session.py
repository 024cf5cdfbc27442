"""Starting a game at the terminal: choosing it, its seats and saves, then running it to its end."""

import json
import os
import sys
from typing import IO, Optional

from rulesdsl.lang.limits import bounded_int
from rulesdsl.agents import agent_names
from rulesdsl.lang.errors import RulesError
from rulesdsl.agents.seats import parse_seats
from rulesdsl.play.answers import parse_names, parse_options
from rulesdsl.play.rulestext import wrap
from rulesdsl.play.runner import DEFAULT_OPPONENT, HUMAN, InputEnded, Quit, Runner, log_lines
from rulesdsl.play.saves import (default_save_path, read_save, read_script, replay_path_for,
                                 write_file)


def load_game(name: str, options: Optional[dict] = None):
    """A bundled game or a path, through the public API."""
    import rulesdsl
    return rulesdsl.load(name, options=options) if options else rulesdsl.load(name)


def choose_game(out: IO, inp: IO) -> tuple:
    """`rulesdsl play` without a game: list the bundled games and examples, read a choice
    and a number of players. Returns (game name, players)."""
    import rulesdsl
    from rulesdsl.lang.resources import bundled_games, example_games

    names = list(bundled_games()) + list(example_games())
    games = []
    for name in names:
        try:
            g = rulesdsl.load(name)
            games.append((name, g))
        except RulesError:
            continue
    print("bundled games:", file=out)
    for k, (name, g) in enumerate(games, 1):
        n = (f"{g.min_players}" if g.min_players == g.max_players
             else f"{g.min_players}-{g.max_players}")
        print(f"  {k}. {g.name:<30} {n:>3} players   (rulesdsl play {name})", file=out)
    print("you play against the computer (ismcts at medium); --seats changes that",
          file=out)

    def ask(prompt):
        out.write(prompt)
        out.flush()
        try:
            tty = inp is sys.stdin and inp.isatty()
        except (AttributeError, ValueError):
            tty = False
        if tty:
            try:
                return input().strip()
            except EOFError:
                raise InputEnded() from None
        line = inp.readline()
        if not line:
            raise InputEnded()
        return line.strip()

    while True:
        text = ask(f"which game? (1-{len(games)}) ")
        pick = None
        if text.isdecimal() and 1 <= bounded_int(text) <= len(games):
            pick = games[bounded_int(text) - 1]
        else:
            hits = [g for g in games if g[0].startswith(text.lower())
                    or g[1].name.lower().startswith(text.lower())] if text else []
            if len(hits) == 1:
                pick = hits[0]
        if pick:
            break
        print(f"  type a number from 1 to {len(games)}", file=out)
    name, g = pick
    if g.about:  # what the chosen game is about, short enough for a small terminal
        for line in wrap(g.about[0], 78, "  "):
            print(line, file=out)
        if len(g.about) > 1:
            print(f"  (the whole rules: rulesdsl rules {name})", file=out)
    players = g.min_players
    if g.max_players > g.min_players:
        while True:
            text = ask(f"how many players? ({g.min_players}-{g.max_players}, "
                       f"Enter for {g.min_players}) ")
            if text == "":
                break
            if text.isdecimal() and g.min_players <= bounded_int(text) <= g.max_players:
                players = bounded_int(text)
                break
            print(f"  type a number from {g.min_players} to {g.max_players}", file=out)
    return name, players


def run_play(args, out: Optional[IO] = None, inp: Optional[IO] = None) -> int:
    """`rulesdsl play`: args carry game, players, seed, seats, option, scenario, script,
    save, resume and plain (argparse names). RulesErrors propagate to the caller.

    Every game with a person in it is saved after every action (in --save's file, else in
    ~/.rulesdsl/saves/); `--resume FILE` continues it, the game coming from the file."""
    import rulesdsl

    given_options = parse_options(getattr(args, "option", None))
    script_path = getattr(args, "script", None)
    script = read_script(script_path) if script_path else None
    from rulesdsl.play.saves import resolve_resume
    resume = resolve_resume(getattr(args, "resume", None))   # `last`: the newest autosave
    game_name = getattr(args, "game", None)
    requested_players = args.players
    seats_arg = args.seats
    meta: dict = {}
    saved = None
    if resume:
        text = read_save(resume)
        try:
            saved = json.loads(text)
        except ValueError:
            saved = None
        meta = saved.get("runner") if isinstance(saved, dict) and \
            isinstance(saved.get("runner"), dict) else {}
        if game_name is None:
            game_name = meta.get("game") or (saved.get("source") if isinstance(saved, dict)
                                             else None)
            if not isinstance(game_name, str) or not game_name:
                raise RulesError("C001", f"{resume} does not say which game it is",
                                 hints=["name the game: rulesdsl play GAME --resume FILE"])
        if not given_options and isinstance(meta.get("options"), dict):
            given_options = meta["options"]
        if seats_arg is None and isinstance(meta.get("seats"), list):
            seats_arg = ",".join(str(k) for k in meta["seats"])
    elif game_name is None:
        try:
            game_name, requested_players = choose_game(out or sys.stdout, inp or sys.stdin)
        except InputEnded:
            print("", file=out or sys.stdout)
            return 0
        if requested_players is not None and seats_arg is None:
            seats_arg = ",".join([HUMAN] + [DEFAULT_OPPONENT] * (requested_players - 1))
    game = load_game(game_name, given_options)
    seed = args.seed if args.seed is not None else 0
    if args.seed is None and not resume and not script and \
            (seats_arg is None or HUMAN in str(seats_arg).split(",")):
        import random
        seed = random.SystemRandom().randrange(1, 100_000)   # a new deal each time; shown
    scenario = getattr(args, "scenario", None)
    if resume:
        state = rulesdsl.restore(game, text)
        players = _players_of(state, requested_players, game)
        if args.seed is None and isinstance(getattr(state, "seed", None), int):
            seed = state.seed
        scenario = meta.get("scenario") if scenario is None else scenario
    else:
        players = requested_players if requested_players is not None else game.min_players
        state = game.new_game(players=players, seed=seed, scenario=scenario or None)
    allowed = [HUMAN] + agent_names()
    if seats_arg is None:
        seats = [HUMAN] + [DEFAULT_OPPONENT] * (players - 1)
    else:
        seats = parse_seats(seats_arg, players, allowed=allowed)
    game_ref = game_name if not os.path.exists(game_name) else os.path.abspath(game_name)
    takebacks = meta.get("takebacks")        # moves taken back before a resume
    meta = {"game": game_ref, "options": given_options, "seed": seed,
            "scenario": os.path.abspath(scenario) if isinstance(scenario, str) and
            os.path.exists(scenario) else None, "takebacks": takebacks}
    save = getattr(args, "save", None)
    if save is None and resume:
        save = resume
    if save is None and HUMAN in seats:
        save = default_save_path(game)
    runner = Runner(state, seats, seed=seed, script=script, script_path=script_path,
                    save=save, out=out, inp=inp, plain=bool(getattr(args, "plain", False)),
                    meta=meta, game=game, force=bool(getattr(args, "force", False)),
                    known={os.path.abspath(resume): text} if resume else None)
    runner.save()   # before anything is said: a save it may not replace stops the game here
    given = parse_names(getattr(args, "names", None), players)
    if given:
        runner.names, runner.given_names = given, True
    runner.say(f"{getattr(game, 'name', game_name)}: {players} players, seed {seed}; "
               + ", ".join(f"{runner.names[s]} {k}" for s, k in enumerate(seats)), "bold")
    if save and HUMAN in seats:
        runner.say(f"the game is saved after every move in {save}")
    if resume:
        runner.say(f"resumed after {len(state.history)} actions")
        runner.log_seen = len(log_lines(state, runner.viewer))
        for s in runner.seen:
            runner.seen[s] = max(0, len(log_lines(state, s)) - 12)
    try:
        code = runner.run()
    except Quit:
        runner.say("stopped" + (f"; the game is saved in {runner.save_path}; continue with: "
                                f"rulesdsl play --resume {runner.save_path}"
                                if runner.save_path else ""))
        return 0
    except KeyboardInterrupt:
        _save_quietly(runner)
        if runner.save_path:
            runner.say(f"\nstopped; the game is saved in {runner.save_path}; continue with: "
                       f"rulesdsl play --resume {runner.save_path}")
        raise
    except InputEnded:
        _save_quietly(runner)
        if runner.screens and runner.save_path:
            # Ctrl-D at a prompt on a terminal: the person leaves; the game is kept
            runner.say(f"stopped; the game is saved in {runner.save_path}; continue with: "
                       f"rulesdsl play --resume {runner.save_path}")
            return 0
        hints = ([f"the game is saved in {runner.save_path}; continue with: rulesdsl play "
                  f"--resume {runner.save_path}"] if runner.save_path else [])
        raise RulesError("C012", "the input ended before the game was over",
                         hints=hints) from None
    if runner.save_path and HUMAN in seats and runner.state.is_over:
        path = replay_path_for(runner.save_path)
        try:
            write_file(path, json.dumps(runner.replay_data(), indent=1), "the replay file")
            runner.say(f"the whole game is in {path}; watch it again with: "
                       f"rulesdsl replay {path}")
        except RulesError as e:
            runner.say(e.message)
    return code


def _save_quietly(runner) -> None:
    try:
        runner.save()
    except Exception:
        pass


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
