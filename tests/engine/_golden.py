"""Golden transcripts: seeded random games reduced to a few digests, so a change to the
engine that alters any label, any save or any log line of any of them is caught.

One fixture per rules file (tests/engine/goldens/<dir>__<name>.json) holds, per game:
[seed, players, options index, number of actions, digest of the chosen labels, digest of
every decision offered (seat and all labels), to_json digest, log digest, outcome]. The digests are truncated sha256 hex: plenty to detect a change.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Optional

import attrs

import rulesdsl
from rulesdsl.lang.errors import RulesError

ROOT = Path(__file__).resolve().parents[2]
GOLDENS = Path(__file__).resolve().parent / "goldens"
RULES_FILES = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "examples").glob("*.rules"))
GAMES_PER_FILE = 200      # at the default options
OPTION_GAMES = 12         # more, with options changed (files that have options)
MAX_ACTIONS = 20_000      # a random game longer than this is cut off (recorded as such)
DIGITS = 10               # hex digits kept of each sha256


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGITS]


def fixture_path(path: Path) -> Path:
    return GOLDENS / f"{path.parent.name}__{path.stem}.json"


def stable_json(state) -> str:
    """to_json() without the rulesdsl version (a release must not invalidate goldens)."""
    from rulesdsl.engine.state import _version
    return state.to_json().replace(f'"rulesdsl_version":{json.dumps(_version())}', "", 1)


@attrs.frozen
class Step:
    """One step of a seeded random game, as a person reads it."""
    number: int  # 1 for the first decision
    seat: Optional[int]  # who decides; None once the game is over
    offered: tuple  # the labels of the legal actions
    chosen: Optional[str]  # the label picked (None: the game ended or failed here)
    log: tuple  # the log lines the step added
    outcome: str = ""  # at the last step: "over", "cut" or "error R0xx: message"

    def lines(self) -> list:
        who = "nobody" if self.seat is None else f"P{self.seat + 1}"
        out = [f"offered to {who}: {' | '.join(self.offered) or '-'}"]
        if self.chosen is not None:
            out.append(f"chosen: {self.chosen}")
        out += [f"log: {line}" for line in self.log]
        if self.outcome:
            out.append(f"outcome: {self.outcome}")
        return out


def steps(game, players: int, seed: int, with_log: bool = False):
    """The steps of one seeded random game (uniform choices from random.Random(seed)),
    each with the state after it; `with_log`: with the log lines each step adds."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    seen = 0
    n = 0
    while True:
        if state.is_over:
            yield Step(n + 1, None, (), None, (), "over"), state
            return
        if n >= MAX_ACTIONS:
            yield Step(n + 1, None, (), None, (), "cut"), state
            return
        seat = state.to_move
        actions = state.legal_actions()
        offered = tuple(a.label for a in actions)
        action = actions[rng.randrange(len(actions))]
        try:
            state.apply(action)
        except RulesError as e:  # a rules error mid-run: the state must be as before
            yield Step(n + 1, seat, offered, action.label, (),
                       f"error {e.code}: {e.message}"), state
            return
        n += 1
        log = ()
        if with_log:  # only the new entries: reading the whole log each step is quadratic
            events = state.events
            log = tuple(state.render_log(e) for e in list(events)[seen:])
            seen = len(events)
        yield Step(n, seat, offered, action.label, log), state


def play(game, players: int, seed: int) -> list:
    """One seeded random game -> [actions, labels digest, offers digest, json digest,
    log digest, outcome]."""
    labels = []
    offers = hashlib.sha256()
    for step, state in steps(game, players, seed):
        if step.offered:
            offers.update(f"{step.seat}:{'|'.join(step.offered)}\n".encode())
        if step.outcome:
            break
        labels.append(step.chosen)
    outcome = step.outcome.split(":")[0]
    return [len(labels), digest("\n".join(labels)), offers.hexdigest()[:DIGITS],
            digest(stable_json(state)),
            digest("\n".join(state.log)), outcome]


FIELDS = ("number of actions", "actions chosen", "decisions offered", "save", "log", "outcome")


def divergence(path: Path, options: dict, players: int, seed: int, got: list,
               expected: list) -> str:
    """Why a replayed golden differs, for a person: which of its digests changed, and the
    first step where this engine departs from the other one (the generated code from the
    closures, the reference, or the other way round), with both sides' lines."""
    differ = [f for f, a, b in zip(FIELDS, got, expected) if a != b]
    head = (f"{path.name}, seed {seed}, {players} players, options {options}: "
            f"{', '.join(differ)} differ (recorded {expected[0]} actions, outcome "
            f"{expected[5]}; got {got[0]}, {got[5]})")
    engine = os.environ.get("RULESDSL_ENGINE", "generated")
    other = "generated" if engine == "closures" else "closures"
    mine = list(steps(loaded_by(path, options, engine, players), players, seed, True))
    theirs = list(steps(loaded_by(path, options, other, players), players, seed, True))
    for (a, _), (b, _) in zip(mine, theirs):
        if a != b:
            return "\n".join(
                [head, f"first difference, at step {a.number}: {other} (expected) vs "
                       f"{engine} (got)"] +
                [f"  expected  {line}" for line in b.lines()] +
                [f"  got       {line}" for line in a.lines()])
    last = mine[-1][0]
    return "\n".join(
        [head, f"the {engine} and the {other} engines agree on all {last.number} steps: the "
               "change is in what both share (the rules, the runtime, the state); the last "
               "step:"] + [f"  got       {line}" for line in last.lines()])


def loaded_by(path: Path, options: dict, engine: str, players: int):
    """The game compiled for `players` by `engine` (RULESDSL_ENGINE's values)."""
    before = os.environ.get("RULESDSL_ENGINE")
    os.environ["RULESDSL_ENGINE"] = engine
    try:
        game = rulesdsl.load(str(path), options=options)
        game.program(players)  # compiled now, while the variable says how
        return game
    finally:
        if before is None:
            del os.environ["RULESDSL_ENGINE"]
        else:
            os.environ["RULESDSL_ENGINE"] = before


def option_variants(game, count: int) -> list:
    """`count` option settings other than the defaults, chosen by a fixed seed."""
    rng = random.Random(1234)
    opts = game.model.options
    out = []
    for _ in range(count * 4):
        if len(out) >= count:
            break
        chosen = {}
        for name, o in opts.items():
            t = o.type
            if t.name == "bool":
                chosen[name] = rng.random() < 0.5
            elif t.name == "range":
                chosen[name] = rng.randint(t.low, min(t.high, t.low + 4))
        if chosen and chosen != game.options and chosen not in out:
            out.append(chosen)
    return out


def record(path: Path) -> dict:
    game = rulesdsl.load(str(path))
    option_sets = [dict(game.options)] + option_variants(game, 4)
    games = []
    span = game.max_players - game.min_players + 1
    for seed in range(GAMES_PER_FILE):
        players = game.min_players + seed % span
        games.append([seed, players, 0] + play(game, players, seed))
    for k in range(OPTION_GAMES if len(option_sets) > 1 else 0):
        oi = 1 + k % (len(option_sets) - 1)
        seed = GAMES_PER_FILE + k
        players = game.min_players + seed % span
        variant = rulesdsl.load(str(path), options=option_sets[oi])
        games.append([seed, players, oi] + play(variant, players, seed))
    return {"file": f"{path.parent.name}/{path.name}", "source_hash": game.source_hash,
            "options": option_sets, "games": games}


def write(path: Path, data: dict) -> None:
    lines = [json.dumps(g, separators=(",", ":")) for g in data["games"]]
    head = {k: v for k, v in data.items() if k != "games"}
    text = json.dumps(head, separators=(",", ":"))[:-1] + ',"games":[\n' + ",\n".join(lines) + "\n]}\n"
    fixture_path(path).write_text(text, encoding="utf-8")
