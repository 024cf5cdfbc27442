"""The `rulesdsl` command: check, play, simulate, fmt.

    rulesdsl check FILE... [--format text|json]
    rulesdsl play GAME [--players N] [--seed S] [--seats human,random,...] [--option K=V]
                       [--scenario F] [--script F] [--save F [--force]] [--resume F]
    rulesdsl simulate GAME [--players N] [--games K] [--seed S] [--seats ...] [--json]
                           [--option K=V] [--workers N] [--backend local|ray] [--address A]
                           [--compare K=V] [--games-out F.jsonl] [--report F.html]
    rulesdsl replay FILE [--to N] [--plain]
    rulesdsl fmt FILE... [--check]
    rulesdsl rules GAME [NAME] [--players N] [--option K=V]
    rulesdsl saves
    rulesdsl lsp
    rulesdsl serve [GAME...] [--host H] [--port P] [--db PATH] [--workers N]
                   [--games-per-minute N] [--messages-per-second N] [--watch]

Every RulesError is shown with `rulesdsl.lang.errors.render` on standard error and the exit
status is 1 (`check` shows the first 20 warnings of each code, then a count of the rest);
an interrupt exits 130. Error codes raised by this layer (C003-C006 belong to loading, see
rulesdsl/game.py): C001 a file that cannot be read, C002 an unknown agent or seat kind, C010
a simulated game that does not end, C011 a script line that is not a legal action, C012
input that ended before the game did, C013 a bad command-line value, C016 simulated games
lost with their worker (rulesdsl/analysis/simulate.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from typing import Optional, Sequence

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPT = 130


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("rulesdsl")
    except Exception:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulesdsl",
        description="Check, play and simulate card games written in the rules language.")
    parser.add_argument("--version", action="version", version=f"rulesdsl {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("check", help="check rules files and report every error",
                       description="Check rules files; exit 1 if any has an error.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--format", choices=["text", "json"], default="text",
                   help="text (default): for people; json: a list of diagnostics on "
                        "standard output, for editors and CI")
    p.add_argument("--secrets", action="store_true",
                   help="also play random games and swap cards some seats cannot see: "
                        "report where who is asked, the options or a seat's view change "
                        "(exit 1 if they do)")
    p.add_argument("--games", type=int, default=3, metavar="K",
                   help="with --secrets: the random games tried (default 3)")
    p.add_argument("--players", type=int, metavar="N",
                   help="with --secrets: the player count (default 4, or the nearest the "
                        "game allows)")
    p.set_defaults(func=cmd_check)

    def game_args(p, players="number of players (default: the game's minimum)",
                  seed=True):
        p.add_argument("game", metavar="GAME", help="a bundled game's name or a .rules path")
        p.add_argument("--players", type=int, metavar="N", help=players)
        if seed:
            p.add_argument("--seed", type=int, default=None, metavar="S", help="random seed")
        p.add_argument("--option", action="append", default=[], metavar="K=V",
                       help="set a game option (true/false, integers, or text); repeatable")

    p = sub.add_parser("play", help="play a game in the terminal",
                       description="Play a game in the terminal against agents or people. "
                                   "Without GAME: choose a bundled game from a list.")
    game_args(p)
    for action in p._actions:
        if action.dest == "game":
            action.nargs = "?"
            action.default = None
    p.add_argument("--plain", action="store_true",
                   help="plain text: no colours (also the default when not on a terminal)")
    p.add_argument("--seats", metavar="KINDS",
                   help="who plays each seat, e.g. human,ismcts:hard or human,random "
                   "(default: human, then ismcts at medium)")
    p.add_argument("--scenario", metavar="F", help="a scenario (JSON) applied after setup")
    p.add_argument("--script", metavar="F",
                   help="action labels, one per line, played for the human seats first")
    p.add_argument("--save", metavar="F", help="keep the game saved in F after every action "
                   "(default with a person playing: a new file in ~/.rulesdsl/saves/)")
    p.add_argument("--force", action="store_true", help="let --save replace a save of "
                   "another game still in progress (without it, that is an error)")
    p.add_argument("--resume", metavar="F", help="continue a saved game (GAME may be left "
                   "out: the file says which game it is); 'last': the newest autosave "
                   "(see rulesdsl saves)")
    p.add_argument("--names", metavar="NAMES", help="the players' names, one per seat, "
                   "e.g. Ann,Bob (default: P1, P2, ...)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="step through a finished or saved game",
                       description="Step through a replay file (written at the end of a "
                                   "game) or an autosave: n or Enter next, p previous, "
                                   "g N go to action N, q quit.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--to", type=int, metavar="N", default=None,
                   help="print the state after N actions and exit (no keys read)")
    p.add_argument("--plain", action="store_true", help="plain text: no colours")
    look = p.add_mutually_exclusive_group()
    look.add_argument("--seat", metavar="P", default=None,
                      help="show the game as seat P (P1, P2, ... or 1, 2, ...) saw it: its "
                           "own hand, only counts of the others' (the default for a game "
                           "not yet over: the one person who played, else P1)")
    look.add_argument("--all", action="store_true",
                      help="show everything, every hand and hidden pile, also of a game "
                           "not yet over (the default only for a finished game)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play many games with agents and report statistics",
                       description="Play many games with agents; report wins, lengths, speed.")
    game_args(p)
    p.add_argument("--games", type=int, default=100, metavar="K",
                   help="number of games (default 100)")
    p.add_argument("--seats", metavar="AGENTS",
                   help="an agent per seat, e.g. ismcts,random or ismcts:iterations=500,greedy "
                   "(agents: random, greedy, ismcts[:easy|medium|hard]; default: all random)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="processes (or Ray tasks) playing at once (default: every core); "
                        "the results do not depend on it")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local processes (default) or a Ray cluster (pip install "
                        "'rulesdsl[ray]')")
    p.add_argument("--address", metavar="A", default=None,
                   help="with --backend ray: the cluster's address (default: $RAY_ADDRESS, "
                        "else a local Ray)")
    p.add_argument("--compare", action="append", default=[], metavar="K=V",
                   help="also play the same seeds with this option changed and compare; "
                        "repeatable, one variant each")
    p.add_argument("--games-out", metavar="F.jsonl", default=None,
                   help="write one JSON record per game to F")
    p.add_argument("--report", metavar="F.html", default=None,
                   help="write a self-contained HTML page with tables and plots "
                        "(pip install 'rulesdsl[report]')")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("rules", help="print a game's rules: how to win, the cards, the flow",
                       description="Print the rules text a game declares (its about, what "
                                   "each card does, the table, the options and the flow), "
                                   "or explain one card or word with NAME.")
    game_args(p, players="for the card counts (default: the game's minimum)", seed=False)
    p.add_argument("name", metavar="NAME", nargs="?", default=None,
                   help="a card's label, a kind or another word of the game to explain")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("compile", help="show the Python the engine generates for a game",
                       description="Compile a game for a number of players and report what "
                                   "was generated; with --show, print the generated Python "
                                   "(each statement under the line of the rules it comes "
                                   "from). Nothing is written: games compile when loaded.")
    game_args(p, players="compile for N players (default: the game's minimum)", seed=False)
    p.add_argument("--show", action="store_true", help="print the generated Python")
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser("saves", help="list the autosaved games, newest first",
                       description="List the games saved in ~/.rulesdsl/saves/ (or "
                                   "$RULESDSL_SAVES), newest first; continue one with "
                                   "rulesdsl play --resume FILE, the newest with "
                                   "--resume last.")
    p.set_defaults(func=cmd_saves)

    p = sub.add_parser("fmt", help="lay rules files out in the one canonical layout",
                       description="Rewrite rules files in place in the canonical layout "
                                   "(comments kept). With --check, write nothing and exit 1 "
                                   "if any file would change.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--check", action="store_true",
                   help="write nothing; list the files that would change and exit 1 if any")
    p.set_defaults(func=cmd_fmt)

    p = sub.add_parser("lsp", help="a language server for editors, on standard input/output",
                       description="Run the rules language server (Language Server Protocol "
                                   "over standard input and output): diagnostics, hover, go "
                                   "to definition, completion, symbols, formatting. Needs "
                                   "the lsp extra: pip install 'rulesdsl[lsp]'.")
    p.set_defaults(func=cmd_lsp)

    p = sub.add_parser("serve", help="a table in the browser: play against the computer or "
                                     "friends on the network",
                       description="Serve a lobby and a table page for the games named (all "
                                   "the bundled games and examples without GAME). Each person "
                                   "plays from a private link; spectators from a public one. "
                                   "Games are kept in SQLite and resume after a restart. Needs "
                                   "the web extra: pip install 'rulesdsl[web]'.")
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="bundled game names or .rules paths to offer")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; "
                        "0.0.0.0 lets friends on the network join)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--db", metavar="PATH", default=None,
                   help="the SQLite file of games (default: "
                        "$XDG_DATA_HOME/rulesdsl/games.sqlite)")
    p.add_argument("--workers", type=int, default=2, metavar="N",
                   help="worker processes for the computer players' searches (default 2)")
    p.add_argument("--games-per-minute", type=float, default=None, metavar="N",
                   help="new games a client address may make a minute, after a first ten "
                        "(default 6; 0 for no limit, as for a load test on loopback)")
    p.add_argument("--messages-per-second", type=float, default=None, metavar="N",
                   help="messages a table page may send a second, after a first thirty "
                        "(default 10; 0 for no limit)")
    p.add_argument("--watch", action="store_true",
                   help="read the rules files named again when they change; the table "
                        "offers to restart the game or replay its actions, or shows "
                        "check's errors")
    p.set_defaults(func=cmd_serve)
    return parser


# ---------------------------------------------------------------- commands

def _unreadable(path: str) -> str:
    """Why a rules file cannot be read, or "" when it can (a regular file, opened without
    waiting: a FIFO or a device is named as such)."""
    from rulesdsl.lang.safefile import open_regular
    try:
        with open_regular(path):
            return ""
    except FileNotFoundError:
        return "no such file"
    except OSError as e:
        return e.strerror or str(e)


def cmd_check(args) -> int:
    if getattr(args, "format", "text") == "json":
        if getattr(args, "secrets", False):
            print("rulesdsl check: --secrets tells its leaks as text; run it without "
                  "--format json (its exit status says whether secrets are kept)",
                  file=sys.stderr)
            return EXIT_USAGE
        return check_json(args.files)
    import rulesdsl
    from rulesdsl.lang.errors import CheckFailed, RulesError
    from rulesdsl.lang.safefile import shown_path

    status = EXIT_OK
    for path in args.files:
        shown = shown_path(path)
        why = _unreadable(path)
        if why:
            print(f"{shown_path(path)}: error: cannot read the file: {why}", file=sys.stderr)
            status = EXIT_ERROR
            continue
        try:
            warnings = rulesdsl.check_file(path)
        except CheckFailed as failed:
            _print_diagnostics(path, failed.errors, failed.warnings)
            n = len(failed.errors)
            print(f"{shown}: {n} error{'s' if n != 1 else ''}", file=sys.stderr)
            status = EXIT_ERROR
            continue
        except RulesError as e:
            _print_diagnostics(path, [e], [])
            print(f"{shown}: 1 error", file=sys.stderr)
            status = EXIT_ERROR
            continue
        except OSError as e:
            print(f"{shown}: error: cannot read the file: {e.strerror or e}", file=sys.stderr)
            status = EXIT_ERROR
            continue
        _print_diagnostics(path, [], warnings or ())
        n = len(warnings or ())
        print(f"{shown}: ok" + (f" ({n} warning{'s' if n != 1 else ''})" if n else ""))
        if getattr(args, "secrets", False) and not _secrets_kept(path, args):
            status = EXIT_ERROR
    return status


LEAKS_SHOWN = 3


def _secrets_kept(path: str, args) -> bool:
    """`check --secrets`: random games with swapped hidden cards; True when no seat could
    tell the difference, else the leaks are told on standard error."""
    import rulesdsl
    from rulesdsl.analysis.secrets import check_secrets
    from rulesdsl.lang.errors import RulesError
    from rulesdsl.lang.safefile import shown_path

    shown = shown_path(path)
    games = max(1, args.games)
    try:
        game = rulesdsl.load(path)
        leaks = check_secrets(game, args.players, games)
    except RulesError as e:
        print(f"{shown}: secrets: could not play a random game: {e}", file=sys.stderr)
        return False
    tried = f"{games} random game{'s' if games != 1 else ''}"
    if not leaks:
        print(f"{shown}: secrets kept in {tried}")
        return True
    for leak in leaks[:LEAKS_SHOWN]:
        print(f"{shown}: secrets: {leak.sentence()}", file=sys.stderr)
    more = len(leaks) - LEAKS_SHOWN
    print(f"  hint: what happens next must not depend on cards those seats cannot see: let "
          "the player who holds them decide it (an option such as \"cannot play\" if not "
          "can_play(p) { ... }), ask everyone (ask each ... openly), or tell the table first "
          "(reveal hand[p] holds c where ...); see docs/language.md, \"Asking openly\"",
          file=sys.stderr)
    print(f"{shown}: secrets: {len(leaks)} leak{'s' if len(leaks) != 1 else ''} in {tried}"
          + (f" ({more} more not shown)" if more > 0 else ""), file=sys.stderr)
    return False


WARNINGS_SHOWN_PER_CODE = 20


def _print_diagnostics(path: str, errors, warnings) -> None:
    """Every error, and the first WARNINGS_SHOWN_PER_CODE warnings of each code with a count
    of the rest: a file of 15,000 unused definitions gives a screen, not 15,000 excerpts.
    Each file is read and split into lines once for all of them."""
    from rulesdsl.lang.errors import SourceExcerpts, visible
    excerpts = SourceExcerpts()
    shown, held = capped_per_code(warnings, WARNINGS_SHOWN_PER_CODE)
    for w in shown:
        print(excerpts.render(w), file=sys.stderr)
    for e in errors:
        print(excerpts.render(e), file=sys.stderr)
    for code, n in held.items():
        print(f"{visible(path)}: ... and {n:,} more {code} warning{'s' if n != 1 else ''} "
              "(--format json lists every one)", file=sys.stderr)


def capped_per_code(diagnostics, most: int) -> tuple[list, dict]:
    """The first `most` diagnostics of each code, in order, and how many of each code are
    left out."""
    seen: dict = {}
    shown, held = [], {}
    for d in diagnostics:
        seen[d.code] = seen.get(d.code, 0) + 1
        if seen[d.code] <= most:
            shown.append(d)
        else:
            held[d.code] = held.get(d.code, 0) + 1
    return shown, held


def cmd_play(args) -> int:
    return run_play(args)


def run_play(args) -> int:
    from rulesdsl.play import session  # imported only when playing
    return session.run_play(args)


def cmd_rules(args) -> int:
    from rulesdsl.play.rulestext import print_rules
    return print_rules(args)


def cmd_compile(args) -> int:
    import rulesdsl
    from rulesdsl.lang.errors import RulesError
    from rulesdsl.play.answers import parse_options
    from rulesdsl.engine.compile import shown_program
    from rulesdsl.engine.compile.generate import annotate, summary
    options = parse_options(args.option)
    game = rulesdsl.load(args.game, options=options) if options else rulesdsl.load(args.game)
    players = args.players or game.min_players
    if not game.min_players <= players <= game.max_players:
        most = game.max_players
        raise RulesError("C004", f"{game.name} is for {game.min_players}" +
                         (f" to {most}" if most != game.min_players else "") +
                         f" players, not {players}",
                         hints=[f"use --players {game.min_players}"])
    prog = game.program(players)
    if args.show:
        if prog.generated:  # compiled again, its listing in the rules' names
            prog = shown_program(game.model, players, game.options, game.step_limit)
        print(annotate(prog, game.sources) if prog.generated else
              "# nothing generated: RULESDSL_ENGINE=closures, or the rules nest past what "
              "Python compiles")
    else:
        print(summary(prog))
    return 0


def cmd_saves(args) -> int:
    from rulesdsl.play.saves import list_saves
    return list_saves()


def cmd_replay(args) -> int:
    from rulesdsl.play.replay import run_replay
    return run_replay(args)


def cmd_simulate(args) -> int:
    from rulesdsl.play import answers, session
    from rulesdsl.analysis import simulate as sim
    from rulesdsl.analysis.run import default_workers
    options = answers.parse_options(args.option)
    compare = []
    for item in args.compare:
        if "=" not in item or not item.partition("=")[0].strip():
            from rulesdsl.lang.errors import RulesError
            raise RulesError("C013", f"--compare expects NAME=VALUE, not {item!r}",
                             hints=["name one of the game's options and a value for it"])
        compare.append(answers.parse_options([item]))
    game = session.load_game(args.game, options)
    workers = args.workers if args.workers is not None else default_workers()
    try:
        result = sim.simulate(game, players=args.players, games=args.games,
                              seed=args.seed if args.seed is not None else 0, seats=args.seats,
                              options=options, workers=workers, backend=args.backend,
                              address=args.address, compare=compare, progress=True)
    except sim.GamesLost as lost:   # the others are reported, then the error
        for death in lost.deaths:
            print(f"rulesdsl: {death}", file=sys.stderr)
        if lost.result is not None:
            _simulation_out(lost.result, args)
        raise
    except sim.SimulationInterrupted as stopped:
        done = stopped.result
        if done is not None:
            _simulation_out(done, args, report=False)
        print(f"\nrulesdsl: interrupted after {done.games if done else 0} of {args.games} "
              "games" + ("; their summary is above" if done else ""), file=sys.stderr)
        return EXIT_INTERRUPT
    for death in result.deaths:
        print(f"rulesdsl: {death}", file=sys.stderr)
    _simulation_out(result, args)
    return _variants_failed(result)


def _variants_failed(result) -> int:
    """After the results: each variant that broke, on standard error; exit 1 if any did."""
    from rulesdsl.analysis.table import failure_lines
    for compared in result.failed_variants:
        print("rulesdsl: " + "\n".join(failure_lines(compared)), file=sys.stderr)
    return EXIT_ERROR if result.failed_variants else EXIT_OK


def _simulation_out(result, args, report: bool = True) -> None:
    """A simulation's files (--games-out, --report) and its summary on standard output;
    after Ctrl-C no report (the person wants out: only the quick files)."""
    if args.games_out:
        from rulesdsl.analysis.output import write_games
        write_games(result, args.games_out)
    if args.report and report:
        from rulesdsl.analysis.report import write_report
        write_report(result, args.report)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result.table())


def _diagnostic(error, path: str, severity: Optional[str] = None) -> dict:
    span = getattr(error, "span", None)
    return {"path": span.path if span else path,
            "line": span.line if span else None,
            "column": span.column if span else None,
            "end_line": span.end_line if span else None,
            "end_column": span.end_column if span else None,
            "severity": severity or getattr(error, "severity", "error"),
            "code": error.code, "meaning": error.meaning, "message": error.message,
            "hints": list(error.hints)}


def check_json(files) -> int:
    """`check --format json`: every diagnostic of every file as one JSON list on stdout."""
    import rulesdsl
    from rulesdsl.lang.errors import CheckFailed, RulesError

    status = EXIT_OK
    found: list = []
    for path in files:
        diagnostics = []
        why = _unreadable(path)
        if why:
            diagnostics.append(_diagnostic(RulesError("C001", f"cannot read the file: {why}"),
                                           path))
        else:
            try:
                warnings = rulesdsl.check_file(path)
                diagnostics += [_diagnostic(w, path, "warning") for w in warnings or ()]
            except CheckFailed as failed:
                diagnostics += [_diagnostic(w, path, "warning") for w in failed.warnings]
                diagnostics += [_diagnostic(e, path) for e in failed.errors]
            except RulesError as e:
                diagnostics.append(_diagnostic(e, path))
            except OSError as e:
                diagnostics.append(_diagnostic(RulesError(
                    "C001", f"cannot read the file: {e.strerror or e}"), path))
        if any(d["severity"] == "error" for d in diagnostics):
            status = EXIT_ERROR
        diagnostics.sort(key=lambda d: (d["path"] != path, d["path"], d["line"] or 0,
                                        d["column"] or 0, d["code"]))
        found += diagnostics
    print(json.dumps(found, indent=2))
    return status


def cmd_fmt(args) -> int:
    from rulesdsl.lang.errors import RulesError, render
    from rulesdsl.lang.fmt import format_source, read_source
    from rulesdsl.lang.safefile import shown_path

    status = EXIT_OK
    for path in args.files:
        why = _unreadable(path)
        if why:
            print(f"{shown_path(path)}: error: cannot read the file: {why}", file=sys.stderr)
            status = EXIT_ERROR
            continue
        text = None
        try:
            text = read_source(path)
            formatted = format_source(text, path)
        except RulesError as e:
            print(render(e, {path: text} if text is not None else None), file=sys.stderr)
            status = EXIT_ERROR
            continue
        if formatted == text:
            continue
        if args.check:
            print(f"{path}: would be reformatted")
            status = EXIT_ERROR
        else:
            from rulesdsl.lang.safefile import write_atomic
            try:  # atomically, and only over the rules file just read: a full disk or a
                # link planted meanwhile leaves everything as it was
                write_atomic(path, formatted, "the formatted file",
                             lambda old: old.removeprefix(b"\xef\xbb\xbf").decode(
                                 "utf-8", "replace") == text, "the rules file just read")
            except RulesError as e:
                print(f"{path}: error: {e.message}", file=sys.stderr)
                status = EXIT_ERROR
                continue
            print(f"{path}: reformatted")
    return status


def _from_extra(command: str, extra: str, module: str, name: str):
    """`name` from `module`, or None once it has said which extra `command` needs."""
    import importlib
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError as e:
        print(f"rulesdsl {command}: needs the {extra} extra ({e.name or e} is missing): "
              f"pip install 'rulesdsl[{extra}]'", file=sys.stderr)
        return None


def cmd_lsp(args) -> int:
    serve = _from_extra("lsp", "lsp", "rulesdsl.integrations.lsp", "serve")
    return EXIT_ERROR if serve is None else serve()


def cmd_serve(args) -> int:
    serve = _from_extra("serve", "web", "rulesdsl.web.server", "serve")
    if serve is None:
        return EXIT_ERROR
    if not 0 < args.port < 65536:
        from rulesdsl.lang.errors import RulesError
        raise RulesError("C013", f"--port {args.port} is not a port",
                         hints=["a port is a number from 1 to 65535"])
    if not 0 < args.workers <= 64:
        from rulesdsl.lang.errors import RulesError
        raise RulesError("C013", f"--workers {args.workers} is not a number of workers",
                         hints=["give 1 to 64 worker processes, e.g. --workers 2"])
    return serve(args.games, args.host, args.port, args.db, watch=args.watch,
                 workers=args.workers, limits=_limits(args))


def _limits(args):
    """The server's rate limits: the defaults, each given rate in its place."""
    from rulesdsl.lang.errors import RulesError
    from rulesdsl.web.throttle import Limits
    given = {}
    for option in ("games_per_minute", "messages_per_second"):
        value = getattr(args, option)
        if value is None:
            continue
        if not 0 <= value <= 10_000:      # NaN too
            flag = "--" + option.replace("_", "-")
            raise RulesError("C013", f"{flag} {value:g} is out of range",
                             hints=[f"give 0 (no limit) to 10000, e.g. {flag} "
                                    f"{getattr(Limits(), option):g}"])
        given[option] = value
    return Limits(**given)


# ---------------------------------------------------------------- entry point

def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version and usage errors
        return int(e.code) if isinstance(e.code, int) else (EXIT_USAGE if e.code else EXIT_OK)
    if args.command is None:  # bare `rulesdsl`: say what it can do
        parser.print_help()
        return EXIT_OK
    from rulesdsl.lang.errors import RulesError, SourceExcerpts
    try:
        return args.func(args)
    except RulesError as e:
        excerpts = SourceExcerpts()     # each file read once, however many errors it has
        for err in getattr(e, "errors", None) or [e]:
            print(excerpts.render(err), file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("\nrulesdsl: interrupted", file=sys.stderr)
        return EXIT_INTERRUPT
    except BrokenPipeError:
        # the reader went away (| head): stop quietly
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_ERROR
    except OSError as e:
        name = f" {e.filename}" if getattr(e, "filename", None) else ""
        print(f"rulesdsl: error: cannot use{name}: {e.strerror or e}", file=sys.stderr)
        return EXIT_ERROR
    except Exception:
        print("rulesdsl: internal error (a bug in rulesdsl, not in your input); "
              "please report it with the command you ran:", file=sys.stderr)
        traceback.print_exc()
        return EXIT_INTERNAL


def entry() -> None:
    """Console-script style entry: exit with main's status."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
