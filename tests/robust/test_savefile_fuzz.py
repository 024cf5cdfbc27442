"""Save files from outside: truncated, edited, or written by another version of a game give
a clear RulesError (S001) and never a half-loaded state; whatever restores is consistent and
can be played on."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, strategies as st

from _fuzz import fuzz_settings
import rulesdsl
from rulesdsl.lang.errors import RulesError

GAMES = ["triumvirat", "ivanhoe", "condottiere"]


def _saved(name: str, steps: int, seed: int = 3):
    game = rulesdsl.load(name)
    state = game.new_game(players=min(game.min_players + 1, game.max_players), seed=seed)
    pick = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        actions = state.legal_actions()
        state.apply(actions[pick.randrange(len(actions))])
    return game, state


SAVES = {name: _saved(name, 15) for name in GAMES}


def _consistent_and_playable(game, state) -> None:
    ncards = len(state.prog.card_label)
    assert sorted(c for z in state.zones for c in z) == list(range(ncards))
    for zi, z in enumerate(state.zones):
        assert all(state.loc[c] == zi for c in z)
    pick = random.Random(0)
    for _ in range(5):
        if state.is_over:
            break
        actions = state.legal_actions()
        try:
            state.apply(actions[pick.randrange(len(actions))])
        except RulesError:  # an edited variable may break a rule: a clear error is fine
            return


@st.composite
def damaged(draw):
    name = draw(st.sampled_from(GAMES))
    game, state = SAVES[name]
    text = state.to_json()
    how = draw(st.sampled_from(["cut", "delete", "type", "shuffle", "swap", "number",
                                "frames", "bytes"]))
    if how == "cut":
        return name, text[:draw(st.integers(0, len(text) - 1))]
    if how == "bytes":
        at = draw(st.integers(0, len(text)))
        return name, text[:at] + draw(st.sampled_from(["\x00", "}", "\"", "[", "9", "-"])) + text[at:]
    data = json.loads(text)
    key = draw(st.sampled_from(sorted(data)))
    if how == "delete":
        del data[key]
    elif how == "type":
        data[key] = draw(st.sampled_from([None, 0, -1, 2 ** 70, 1.5, True, "x", [], {}, [[]],
                                          [None], ["a"]]))
    elif how == "shuffle":  # card ids moved between zones
        zones = data["zones"]
        cards = [c for z in zones for c in z]
        rnd = random.Random(draw(st.integers(0, 10 ** 6)))
        rnd.shuffle(cards)
        sizes = [len(z) for z in zones]
        if draw(st.booleans()):
            rnd.shuffle(sizes)
        out, i = [], 0
        for n in sizes:
            out.append(cards[i:i + n])
            i += n
        data["zones"] = out
    elif how == "swap":  # a card doubled, another missing, or unknown
        zones = [z for z in data["zones"] if z]
        z = draw(st.sampled_from(zones))
        z[draw(st.integers(0, len(z) - 1))] = draw(st.sampled_from([0, -1, 10 ** 6, z[0]]))
    elif how == "number":
        lst = data.get("vars") or [0]
        if lst:
            lst[draw(st.integers(0, len(lst) - 1))] = draw(st.sampled_from(
                [None, -5, 10 ** 30, "text", [1, 2], True, 1.5]))
    else:  # frames edited
        frames = data["frames"]
        if frames:
            f = frames[draw(st.integers(0, len(frames) - 1))]
            i = draw(st.integers(0, 3))
            f[i] = draw(st.sampled_from([0, 1, 9999, -1, None, [], "x", [None] * 50]))
            if draw(st.booleans()):
                del frames[draw(st.integers(0, len(frames) - 1))]
    return name, json.dumps(data)


@fuzz_settings(400)
@given(case=damaged())
def test_damaged_saves_restore_or_fail_clearly(case):
    name, text = case
    game = SAVES[name][0]
    try:
        state = rulesdsl.restore(game, text)
    except RulesError as e:
        assert e.code in ("S001", "S002"), str(e)
        return
    _consistent_and_playable(game, state)


def test_round_trip_of_every_saved_game():
    for name, (game, state) in SAVES.items():
        again = rulesdsl.restore(game, state.to_json())
        assert again.to_json() == state.to_json()


def test_save_of_an_edited_game_file_is_refused(tmp_path):
    game, state = SAVES["triumvirat"]
    src = rulesdsl.load("triumvirat").path
    edited = tmp_path / "triumvirat.rules"
    edited.write_text(open(src).read() + "\n# a comment changes the hash\n")
    other = rulesdsl.load(edited)
    with pytest.raises(RulesError) as info:
        rulesdsl.restore(other, state.to_json())
    assert info.value.code == "S001" and "changed" in info.value.message


def test_save_from_a_newer_format_names_the_versions():
    game, state = SAVES["triumvirat"]
    data = json.loads(state.to_json())
    assert data["rulesdsl_version"] == rulesdsl.__version__
    assert data["game_hash"] == game.source_hash
    data["format_version"] = 99
    data["rulesdsl_version"] = "99.0"
    with pytest.raises(RulesError) as info:
        rulesdsl.restore(game, json.dumps(data))
    e = info.value
    assert e.code == "S001" and "newer" in e.message and "99.0" in e.message
    assert e.hints


def test_save_of_another_game_is_refused():
    game, state = SAVES["triumvirat"]
    with pytest.raises(RulesError) as info:
        rulesdsl.restore(SAVES["ivanhoe"][0], state.to_json())
    assert info.value.code == "S001"
