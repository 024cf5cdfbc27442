"""Golden transcripts: seeded random games reduced to a few digests, so a change to the
engine that alters any label, any save or any log line of any of them is caught.

One fixture per rules file (tests/engine/goldens/<dir>__<name>.json) holds, per game:
[seed, players, options index, number of actions, digest of the chosen labels, digest of
every decision offered (seat and all labels), to_json digest, log digest, outcome]. The digests are truncated sha256 hex: plenty to detect a change.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

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


def play(game, players: int, seed: int) -> list:
    """One seeded random game -> [actions, labels digest, offers digest, json digest,
    log digest, outcome]."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    labels = []
    offers = hashlib.sha256()
    outcome = "over"
    while not state.is_over:
        if len(labels) >= MAX_ACTIONS:
            outcome = "cut"
            break
        actions = state.legal_actions()
        offers.update(f"{state.to_move}:{'|'.join(a.label for a in actions)}\n".encode())
        action = actions[rng.randrange(len(actions))]
        try:
            state.apply(action)
        except RulesError as e:  # a rules error mid-run: the state must be as before
            outcome = f"error {e.code}"
            break
        labels.append(action.label)
    return [len(labels), digest("\n".join(labels)), offers.hexdigest()[:DIGITS],
            digest(stable_json(state)),
            digest("\n".join(state.log)), outcome]


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
