"""Files from outside (issue 20): sizes checked before reading, only rules files extended,
saves and fmt output written atomically, numbers of any length, clear API errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.safefile import write_atomic, is_save
from test_hostile import HEAD

ROOT = Path(__file__).resolve().parents[2]
SMALL = (ROOT / "tests" / "lang" / "smoke.rules")


@pytest.fixture
def small_limit(monkeypatch):
    monkeypatch.setenv("RULESDSL_LIMITS", "file_bytes=1000")


def test_dev_zero_as_rules_file_save_scenario_script_replay_ends_fast(capsys):
    zero = "/dev/zero"   # a device is refused before a byte is read (issue 31)
    with pytest.raises(RulesError) as info:
        rulesdsl.check_file(zero)
    assert info.value.code == "E001" and "a device" in info.value.message
    from rulesdsl.engine.scenario import read_scenario
    with pytest.raises(RulesError) as info:
        read_scenario(zero)
    assert info.value.code == "S002"
    from rulesdsl.play.saves import read_save, read_script
    from rulesdsl.play.replay import read_replay
    for read in (read_save, read_script, read_replay):
        with pytest.raises(RulesError) as info:
            read(zero)
        assert "a device" in info.value.message


def test_a_large_rules_file_save_scenario_script_replay_is_refused_by_size(tmp_path,
                                                                         small_limit):
    big = tmp_path / "big.json"
    big.write_text(" " * 5000)
    with pytest.raises(RulesError) as info:
        rulesdsl.check_file(big)
    assert info.value.code == "E107"
    from rulesdsl.engine.scenario import read_scenario
    with pytest.raises(RulesError) as info:
        read_scenario(big)
    assert info.value.code == "S002" and "larger than" in info.value.message
    from rulesdsl.play.saves import read_save, read_script
    from rulesdsl.play.replay import read_replay
    for read in (read_save, read_script, read_replay):
        with pytest.raises(RulesError) as info:
            read(big)
        assert "larger than" in info.value.message


def test_an_extended_base_past_the_size_limit_is_refused(tmp_path, small_limit):
    (tmp_path / "base.rules").write_text("# " + "x" * 5000 + "\n")
    child = tmp_path / "child.rules"
    child.write_text('extends "base"\n')
    with pytest.raises(RulesError) as info:
        rulesdsl.check_file(child)
    assert info.value.code == "E212" and info.value.span.line == 1


def test_only_rules_files_are_extended_and_never_echoed(tmp_path, capsys):
    secret = tmp_path / "environ"
    secret.write_text("SECRET_TOKEN=hunter2\n")
    child = tmp_path / "child.rules"
    child.write_text(f'extends "{secret}"\n')
    assert main(["check", str(child)]) != 0
    out = capsys.readouterr()
    assert "hunter2" not in out.out + out.err
    assert "E210" in out.out + out.err and ".rules" in out.out + out.err


def test_a_non_utf8_base_is_a_clear_error(tmp_path):
    (tmp_path / "base.rules").write_bytes(b"game \"\xff\xfe\"\n")
    child = tmp_path / "child.rules"
    child.write_text('extends "base"\n')
    with pytest.raises(RulesError) as info:
        rulesdsl.check_file(child)
    assert info.value.code == "E212" and "UTF-8" in info.value.message


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.rules"
    path.write_bytes(b"\xef\xbb\xbf" + SMALL.read_bytes())
    assert rulesdsl.load(path).name == rulesdsl.load(SMALL).name
    base = tmp_path / "base.rules"
    base.write_bytes(b"\xef\xbb\xbf" + SMALL.read_bytes())
    child = tmp_path / "child.rules"
    child.write_text('extends "base"\n')
    rulesdsl.check_file(child)


def test_numbers_past_4300_digits_never_raise_valueerror(tmp_path):
    huge = "9" * 5000
    path = tmp_path / "huge.rules"
    path.write_text(HEAD + f"phase main {{\n  set n = {huge}\n}}\n")
    with pytest.raises(RulesError) as info:
        rulesdsl.load(path).new_game()
    assert info.value.code == "R030"
    state = rulesdsl.load("triumvirat").new_game(seed=1)
    for call in (lambda: state.zone(f"hand[P{huge}]"), lambda: state.zone("hand", huge),
                 lambda: state.var("games_won", huge)):
        with pytest.raises(RulesError):
            call()
    with pytest.raises(RulesError):
        rulesdsl.load("triumvirat").new_game(seed=1, scenario={"zones": {f"hand[{huge}]": []}})


def _typed(monkeypatch, capsys, argv, lines):
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    try:
        main(argv)
    except RulesError:
        pass
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return out.out + out.err


def test_huge_numbers_at_the_prompt_the_chooser_and_replay(tmp_path, monkeypatch, capsys):
    huge = "9" * 5000
    monkeypatch.setenv("RULESDSL_SAVES", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    _typed(monkeypatch, capsys, ["play", "triumvirat", "--seed", "3", "--seats",
                                 "human,random"], [huge, f"#{huge}", "save a\0b", "quit"])
    _typed(monkeypatch, capsys, ["play"], [huge, "q"])
    replay = tmp_path / "r.json"
    replay.write_text(json.dumps({"format": "rulesdsl-replay", "game": "triumvirat",
                                  "players": 2, "seed": 1, "actions": []}))
    _typed(monkeypatch, capsys, ["replay", str(replay)], [f"g {huge}", "q"])


def test_api_errors_are_clear():
    with pytest.raises(RulesError) as info:
        rulesdsl.load("x" * 5000)
    assert info.value.code == "C001"
    with pytest.raises(RulesError) as info:
        rulesdsl.load("triumvirat", options={1: 2})
    assert info.value.code == "C003"
    state = rulesdsl.load("triumvirat").new_game(seed=1)
    with pytest.raises(RulesError) as info:
        state.view(True)
    assert info.value.code == "A002"


def test_saves_are_written_atomically_through_a_fresh_file(tmp_path):
    target = tmp_path / "game.json"
    (tmp_path / "game.json.tmp").symlink_to(tmp_path / "victim")  # the old predictable name
    write_atomic(target, json.dumps({"format": "rulesdsl-state"}), "the save file", is_save)
    assert not (tmp_path / "victim").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.tmp"]


def test_a_save_never_replaces_a_rules_file_a_link_or_a_device(tmp_path):
    rules = tmp_path / "my.rules"
    rules.write_text(SMALL.read_text())
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    for target in (rules, link, Path("/dev/null")):
        with pytest.raises(RulesError):
            write_atomic(target, "{}", "the save file", is_save, "a save or replay file")
    assert rules.read_text() == SMALL.read_text()
    assert not (tmp_path / "elsewhere.json").exists()
    with pytest.raises(RulesError):
        write_atomic(tmp_path / "a\0b", "{}", "the save file", is_save)


def test_fmt_leaves_the_original_intact_when_the_write_fails(tmp_path, monkeypatch, capsys):
    path = tmp_path / "messy.rules"
    messy = SMALL.read_text().replace("\n", "   \n")
    path.write_text(messy)

    def full_disk(fd, data):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fdopen", lambda fd, mode: _Failing(fd))
    assert main(["fmt", str(path)]) != 0
    assert path.read_text() == messy
    assert "left as it was" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["messy.rules"]


class _Failing:
    def __init__(self, fd):
        self.fd = fd

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        os.close(self.fd)

    def write(self, data):
        raise OSError(28, "No space left on device")


def test_fmt_does_not_follow_a_link_planted_over_its_file(tmp_path, monkeypatch):
    path = tmp_path / "messy.rules"
    path.write_text(SMALL.read_text().replace("\n", "   \n"))
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    from rulesdsl.lang import fmt
    original = fmt.format_source

    def plant(text, p):
        out = original(text, p)
        path.unlink()
        path.symlink_to(victim)
        return out
    monkeypatch.setattr(fmt, "format_source", plant)
    assert main(["fmt", str(path)]) != 0
    assert victim.read_text() == "keep me"
