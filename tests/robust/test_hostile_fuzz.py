"""Fuzzing the classes of issue 20 (scaled by RULESDSL_FUZZ_EXAMPLES): hostile but valid
rules, files of every sort where a file is read, targets of every sort where a save is
written, tampered saves, and junk through the public API. Every outcome is success or a
RulesError; no other exception, no hang past the limits, no save lost or accepted untrue."""

from __future__ import annotations

import json
import os
import random
import time

from hypothesis import given, strategies as st

from _fuzz import ROOT, fuzz_settings, span_inside
from test_hostile import HEAD
import rulesdsl
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.safefile import is_save, write_atomic

GAME = rulesdsl.load("triumvirat")
START = GAME.new_game(players=2, seed=7)

# --------------------------------------------------------------- hostile rules

TEMPLATES = [
    lambda k: "define d0 = 1\n" + "".join(f"define d{i} = d{i - 1} + d{i - 1}\n"
                                          for i in range(1, k + 1)) +
    f"phase main {{\n  set n = d{k}\n}}\n",
    lambda k: f"phase main {{\n  set n = sum(sum(1..{k * 997}) for i in 1..{k * 991})\n}}\n",
    lambda k: f"deck stock {{ {k} x card(1..100) }}\nphase main {{\n  while true {{\n"
              "    for c in stock {\n      move c to table\n    }\n"
              "    for c in table {\n      move c to stock\n    }\n  }\n}\n",
    lambda k: "var xs: list of int = [1]\nphase main {\n  while true {\n"
              "    set xs = xs + xs\n  }\n}\n",
    lambda k: f"deck stock {{ {k} x card(1..100) }}\nphase main {{\n  while true {{\n"
              "    shuffle stock\n  }\n}\n",
    lambda k: "define t0 = \"ab\"\n" + "".join(f"define t{i} = \"{{t{i - 1}}}{{t{i - 1}}}\"\n"
                                              for i in range(1, k + 1)) +
    f"phase main {{\n  log \"{{t{k}}}\"\n}}\n",
    lambda k: "phase main {\n  set n = " + " + ".join(["1"] * (k * 13)) + "\n}\n",
    lambda k: "phase main {\n" + "if true {\n" * k + "set n = 1\n" + "}\n" * k + "}\n",
    lambda k: f"zone heap per player per player\nvar grid: int per player = {k}\n"
              "phase main { }\n",
]


@fuzz_settings(30)
@given(which=st.integers(0, len(TEMPLATES) - 1), k=st.integers(1, 60))
def test_hostile_rules_end_in_a_clear_error_within_the_limits(tmp_path_factory, which, k):
    os.environ["RULESDSL_LIMITS"] = "work=100000,moves=20000,steps=50000"
    try:
        path = tmp_path_factory.mktemp("hostile") / "h.rules"
        text = HEAD + TEMPLATES[which](k)
        path.write_text(text)
        c0 = time.process_time()
        try:
            rulesdsl.load(path).new_game(players=2, seed=k)
        except RulesError as e:
            span_inside(e, {str(path): text})
        assert time.process_time() - c0 < 30
    finally:
        del os.environ["RULESDSL_LIMITS"]


# --------------------------------------------------------------- files read

def _make(kind: str, folder, payload: bytes):
    path = folder / "input.rules"
    if kind == "bytes":
        path.write_bytes(payload)
    elif kind == "bom":
        path.write_bytes(b"\xef\xbb\xbf" + payload)
    elif kind == "big":
        path.write_bytes(payload * (3000 // max(1, len(payload)) + 2) + b"x" * 3000)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link":
        path.symlink_to(folder / "nowhere")
    elif kind == "save":
        path.write_text(START.to_json()[: max(1, len(payload) * 97)])
    elif kind == "device":
        return "/dev/zero"
    return str(path)


def _readers():
    from rulesdsl.engine.scenario import read_scenario
    from rulesdsl.play.replay import read_replay
    from rulesdsl.play.saves import read_save, read_script
    return [rulesdsl.check_file, read_scenario, read_save, read_script, read_replay,
            lambda p: rulesdsl.restore(GAME, read_save(p)),
            lambda p: GAME.new_game(players=2, seed=1, scenario=p)]


@fuzz_settings(60)
@given(kind=st.sampled_from(["bytes", "bom", "big", "folder", "link", "save", "device"]),
       payload=st.binary(max_size=200), reader=st.integers(0, 6))
def test_any_file_where_a_file_is_read(tmp_path_factory, kind, payload, reader):
    os.environ["RULESDSL_LIMITS"] = "file_bytes=2000"
    try:
        path = _make(kind, tmp_path_factory.mktemp("read"), payload)
        try:
            _readers()[reader](path)
        except RulesError:
            pass
    finally:
        del os.environ["RULESDSL_LIMITS"]


# --------------------------------------------------------------- saves written

@fuzz_settings(60)
@given(kind=st.sampled_from(["none", "save", "rules", "link", "folder", "bytes", "empty"]),
       payload=st.binary(max_size=50))
def test_a_save_written_over_anything_loses_nothing(tmp_path_factory, kind, payload):
    folder = tmp_path_factory.mktemp("write")
    target = folder / "game.json"
    victim = folder / "victim"
    victim.write_bytes(b"keep")
    if kind == "save":
        target.write_text(json.dumps({"format": "rulesdsl-state", "old": True}))
    elif kind == "rules":
        target.write_text(HEAD)
    elif kind == "link":
        target.symlink_to(victim)
    elif kind == "folder":
        target.mkdir()
    elif kind == "bytes":
        target.write_bytes(b"x" + payload)
    elif kind == "empty":
        target.write_bytes(b"")
    before = sorted(p.name for p in folder.iterdir())
    text = START.to_json()
    try:
        write_atomic(target, text, "the save file", is_save, "a save or replay file")
    except RulesError:
        assert kind in ("rules", "link", "folder", "bytes")
        assert victim.read_bytes() == b"keep"
        assert sorted(p.name for p in folder.iterdir()) == before  # no temporary left
        return
    assert kind in ("none", "save", "empty")
    assert rulesdsl.restore(GAME, target.read_text()).to_json() == text
    assert victim.read_bytes() == b"keep"


# --------------------------------------------------------------- saves tampered

PLAYED = START.clone()
for _step in range(8):
    PLAYED.apply(PLAYED.legal_actions()[_step % len(PLAYED.legal_actions())])
SAVED = json.loads(PLAYED.to_json())


@fuzz_settings(150)
@given(key=st.sampled_from(["zones", "vars", "winners", "history", "rng", "frames", "log",
                            "seed", "over"]), seed=st.integers(0, 10 ** 6))
def test_a_tampered_save_is_refused_or_is_the_same_game(key, seed):
    data = json.loads(json.dumps(SAVED))
    pick = random.Random(seed)
    value = data[key]
    if isinstance(value, list) and value:
        i = pick.randrange(len(value))
        if isinstance(value[i], list) and value[i]:
            j = pick.randrange(len(value[i]))
            value[i][j] = pick.choice([0, 1, 99, None, "x", value[i][-1]])
        else:
            value[i] = pick.choice([0, 1, 99, None, "x", [], value[-1]])
    elif isinstance(value, list):
        value.append(pick.choice([0, 99, "red 1"]))
    else:
        data[key] = pick.choice([0, 1, 99, None, True, "x", (value or 0) + 1])
    try:
        state = rulesdsl.restore(GAME, json.dumps(data))
    except RulesError as e:
        assert e.code == "S001", str(e)
        return
    # accepted: then it is exactly the game its history makes
    assert json.loads(state.to_json())["zones"] == SAVED["zones"] or data != SAVED
    again = GAME.new_game(players=2, seed=state.seed)
    for label in state.history:
        again.apply(label)
    assert json.loads(again.to_json())["vars"] == json.loads(state.to_json())["vars"]
    assert json.loads(again.to_json())["zones"] == json.loads(state.to_json())["zones"]


# --------------------------------------------------------------- the public API

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 6, 10 ** 6),
                 st.integers().map(lambda n: 10 ** 5000 + n), st.text(max_size=30),
                 st.text(max_size=3).map(lambda s: s * 3000), st.floats(),
                 st.lists(st.integers(), max_size=3), st.dictionaries(st.integers(),
                                                                      st.integers(), max_size=2))


@fuzz_settings(200)
@given(call=st.integers(0, 7), a=JUNK, b=JUNK)
def test_junk_through_the_public_api(call, a, b):
    state = START.clone()
    calls = [lambda: rulesdsl.load(a if isinstance(a, str) else "triumvirat", options=b),
             lambda: GAME.new_game(players=a, seed=b if b is not None else 0),
             lambda: state.view(a),
             lambda: state.zone(a),
             lambda: state.zone("hand", a),
             lambda: state.var(a),
             lambda: state.var("games_won", a),
             lambda: rulesdsl.restore(GAME, a)]
    try:
        calls[call]()
    except RulesError:
        pass
