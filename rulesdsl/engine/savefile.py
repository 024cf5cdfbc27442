"""Reading saved states back: every field is checked before anything is built, so a bad
file gives a clear RulesError and never a half-loaded game."""

from __future__ import annotations

import json

from rulesdsl.engine.state import FORMAT, FORMAT_VERSION, State
from rulesdsl.engine.runtime.numbers import MAX_INT
from rulesdsl.lang.errors import RulesError


def _fail(msg: str, hints=()) -> RulesError:
    return RulesError("S001", f"cannot restore this save: {msg}", None, hints)


def _version() -> str:
    from rulesdsl._version import __version__
    return __version__


def _ints(x, what: str, allow_none: bool = False) -> list:
    if not isinstance(x, list) or not all(
            (isinstance(v, int) and not isinstance(v, bool)) or (allow_none and v is None)
            for v in x):
        raise _fail(f"{what} is not a list of whole numbers")
    return x


def _plain_value(v, depth: int = 0) -> bool:
    """What a variable may hold: none, true/false, a number within the limits, or a list."""
    if v is None or isinstance(v, bool):
        return True
    if isinstance(v, int):
        return -MAX_INT <= v <= MAX_INT
    if isinstance(v, list) and depth == 0:
        return all(_plain_value(x, 1) for x in v)
    return False


def state_from_json(game, text: str) -> State:
    if not isinstance(text, str):
        raise _fail("a save is JSON text")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise _fail(f"it is not valid JSON ({str(e)[:80]})",
                    ["the file may be cut short or edited by hand"]) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail("it is not a rulesdsl save file")
    version = data.get("format_version")
    if version != FORMAT_VERSION:
        made_by = data.get("rulesdsl_version")
        made_by = f" (rulesdsl {made_by})" if isinstance(made_by, str) else ""
        if isinstance(version, int) and not isinstance(version, bool) and \
                version > FORMAT_VERSION:
            raise _fail(f"it was written by a newer rulesdsl{made_by}, in save format "
                        f"{version}; this rulesdsl ({_version()}) reads format "
                        f"{FORMAT_VERSION}", ["upgrade rulesdsl to resume this game"])
        raise _fail(f"it has format version {version!r}{made_by}; this rulesdsl reads "
                    f"version {FORMAT_VERSION}")
    if data.get("game") != game.name:
        raise _fail(f"it is a save of {data.get('game')!r}, not of {game.name}")
    if data.get("game_hash") != game.source_hash:
        raise _fail("the game's rules file has changed since this save was made",
                    ["replay the game's history from its replay file instead"])
    if data.get("options") != game.options:
        raise _fail(f"it was made with options {data.get('options')}, not {game.options}",
                    ["load the game with the save's options"])
    players = data.get("players")
    if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
        raise _fail(f"it has {players!r} players")
    if "chance" in data:
        return _explicit_from_json(game, data, players)
    prog = game.program(players)
    zones = data.get("zones")
    if not isinstance(zones, list) or len(zones) != len(prog.zone_names):
        raise _fail("its zones do not match the game")
    ncards = len(prog.card_kind)
    seen = [False] * ncards
    loc = [0] * ncards
    for zi, z in enumerate(zones):
        _ints(z, "a zone")
        for c in z:
            if not 0 <= c < ncards or seen[c]:
                raise _fail("a card is missing, doubled or unknown")
            seen[c] = True
            loc[c] = zi
    if not all(seen):
        raise _fail("some cards are missing")
    vars_ = data.get("vars")
    if not isinstance(vars_, list) or len(vars_) != prog.nvars:
        raise _fail("its variables do not match the game")
    for v in vars_:
        if not _plain_value(v):
            raise _fail("a variable holds a value no rule can make")
    frames = data.get("frames")
    if not isinstance(frames, list):
        raise _fail("its position in the rules is missing")
    for f in frames:
        if not (isinstance(f, list) and len(f) == 4 and isinstance(f[0], int)
                and 0 <= f[0] < len(prog.procs) and isinstance(f[1], int)
                and 0 <= f[1] < len(prog.procs[f[0]].code) and isinstance(f[2], list)
                and f[3] in (0, 1)):
            raise _fail("its position in the rules is damaged")
    over = data.get("over")
    if not isinstance(over, bool) or (not over and not frames):
        raise _fail("it is neither over nor waiting for a decision")
    rng = data.get("rng")
    if not isinstance(rng, int) or isinstance(rng, bool) or not 0 <= rng < 2 ** 64:
        raise _fail("its random state is damaged")
    history = data.get("history")
    if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
        raise _fail("its history is damaged")
    log = data.get("log")
    if not isinstance(log, list) or not all(isinstance(e, list) and e and isinstance(e[0], str)
                                            for e in log):
        raise _fail("its log is damaged")
    st = State(game, prog)
    st.zones = zones
    st.loc = loc
    st.vars = vars_
    st.rng = rng
    st.frames = frames
    st.over = over
    st.winners = _ints(data.get("winners", []), "the winners")
    st.cancelled = bool(data.get("cancelled", False))
    st.effect_depth = sum(1 for f in frames if f[3])
    st.history = history
    st.events = [tuple(tuple(x) if isinstance(x, list) else x for x in e) for e in log]
    seed = data.get("seed", 0)
    st.seed = seed if isinstance(seed, int) else 0
    if not over:
        try:
            ins = prog.procs[frames[-1][0]].code[frames[-1][1]]
            if not hasattr(ins, "options"):
                raise _fail("it does not stop at a decision")
            seat, options = st._pending()
            if not options or not isinstance(seat, int) or not 0 <= seat < players:
                raise _fail("it stops at a decision nobody can take")
        except RulesError as e:
            if e.code in ("S001", "S002"):
                raise
            raise _fail(f"its state does not fit the rules ({e.code}: {e.message})") from None
        except Exception as e:  # a damaged save must never escape as a crash
            raise _fail(f"its state does not fit the rules ({type(e).__name__})") from None
    st.scenario = data.get("scenario")
    verify_by_replay(game, st)
    return st


# what replaying the history must reproduce exactly, with the words for a difference
REPLAYED = (("zones", "cards"), ("vars", "variables"), ("winners", "winners"),
            ("over", "end of the game"), ("frames", "position in the rules"),
            ("rng", "random state"), ("cancelled", "position in the rules"),
            ("log", "log"))


def _explicit_from_json(game, data: dict, players: int) -> State:
    """A save of a state with explicit chance: its history, outcomes among the choices, is
    replayed from the start (the state may stand at a random event, in mid-statement,
    where nothing else resumes) and must make exactly the stored state."""
    if data.get("chance") != "explicit":
        raise _fail(f"its chance mode {str(data.get('chance'))[:40]!r} is not \"explicit\"")
    history = data.get("history")
    if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
        raise _fail("its history is damaged")
    seed, scenario = data.get("seed", 0), data.get("scenario")
    if not isinstance(seed, int) or isinstance(seed, bool) or \
            (scenario is not None and not isinstance(scenario, dict)):
        raise _differs("its seed or scenario is damaged")
    try:
        st = game.new_game(players=players, seed=seed, scenario=scenario, chance="explicit")
        for label in history:
            st.apply(label)
    except RulesError as e:
        raise _differs(f"its history does not replay ({e.code})") from None
    except Exception as e:  # a damaged save must never escape as a crash
        raise _differs(f"its history does not replay ({type(e).__name__})") from None
    again = json.loads(st.to_json())
    for key, what in REPLAYED:
        if data.get(key) != again.get(key):
            raise _differs(f"its {what} differ from what its history makes" if what.endswith("s")
                           else f"its {what} differs from what its history makes")
    return st


def verify_by_replay(game, st: State) -> None:
    """S001 unless replaying the save's history from its seed, options and scenario makes
    exactly the stored state: a save cannot hold cards, values or winners that no play
    makes, nor a history that was never played."""
    scenario = st.scenario
    if scenario is not None and not isinstance(scenario, dict):
        raise _differs("its scenario is damaged")
    k = 0
    try:
        again = game.new_game(players=st.prog.nplayers, seed=st.seed, scenario=scenario)
        for label in st.history:
            again.apply(label)
    except RulesError as e:
        where = f"action {k} ({st.history[k - 1][:60]!r})" if k else "its start"
        raise _differs(f"its history does not replay: {where} fails with {e.code}") from None
    except Exception as e:  # a damaged save must never escape as a crash
        raise _differs(f"its history does not replay ({type(e).__name__})") from None
    mine, theirs = json.loads(st.to_json()), json.loads(again.to_json())
    for key, what in REPLAYED:
        if mine.get(key) != theirs.get(key):
            raise _differs(f"its {what} differ from what its history makes" if what.endswith("s")
                           else f"its {what} differs from what its history makes")


def _differs(msg: str) -> RulesError:
    return RulesError("S001", f"cannot restore this save: {msg}", None,
                      ["the file was edited or damaged; its replay file (or the history) "
                       "restarts the game"])
