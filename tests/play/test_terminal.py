"""The runner through a real terminal (a pty): whole games typed key by key, bad input,
Ctrl-C and --resume, and the hand-over screen between two people."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path

import pytest

import rulesdsl

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
GAME = "triumvirat"
PROMPT = re.compile(r"P\d> ")
ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
OPTION = re.compile(r"^\s+(\d+)\. (.+?)\s*$")


def spawn(tmp_path, *args):
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT), COLUMNS="120",
               LINES="40", TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-m", "rulesdsl", *args], env=env,
                          encoding="utf-8", timeout=60, dimensions=(40, 120),
                          cwd=str(tmp_path))
    child.logfile_read = open(tmp_path / "transcript.txt", "a")
    return child


def interrupt(child) -> None:
    """Ctrl-C at a prompt, and wait for the runner to stop. A person presses it again when
    nothing happens, and so does this: CPython's readline loses a SIGINT that lands after
    it has drawn the prompt and before it waits for a key (its select() never sees EINTR),
    a window a loaded machine can hold open for longer than pexpect's 50 ms."""
    import pexpect
    child.sendcontrol("c")
    if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=15) == 1:
        child.sendcontrol("c")
        child.expect(pexpect.EOF)


def screen_text(child) -> str:
    return ESC.sub("", child.before or "")


def options_on(text: str) -> list:
    """The labels of the options on the last screen."""
    lines = text.replace("\r", "").split("\n")
    start = max(k for k, l in enumerate(lines) if l.startswith("options:"))
    labels = []
    for line in lines[start + 1:]:
        # options may stand in columns: "  1. a      5. b"
        for m in re.finditer(r"(\d+)\. (.+?)(?=\s{2,}\d+\. |\s*$)", line):
            labels.append((int(m.group(1)), m.group(2).strip()))
    labels.sort()
    return [l for _, l in labels]


def saved(path: Path):
    return json.loads(path.read_text())


def play_out(child, rng, moves=None, by_label=True, at_prompt=False) -> int:
    """Answer every prompt with a legal option read from the screen, until the game ends
    (or `moves` answers were typed). Returns the number of answers typed. `at_prompt`:
    the first prompt was already read."""
    typed = 0
    while moves is None or typed < moves:
        k = 0 if at_prompt else child.expect([PROMPT, "game over after"])
        at_prompt = False
        if k == 1:
            child.expect(pexpect.EOF)
            return typed
        labels = options_on(screen_text(child))
        assert labels, screen_text(child)[-2000:]
        pick = rng.randrange(len(labels))
        if by_label and rng.random() < 0.7:
            label = labels[pick]
            # a unique start of the label, in any case, is enough
            child.sendline(label.upper() if rng.random() < 0.5 else label)
        else:
            child.sendline(str(pick + 1))
        typed += 1
    return typed


def test_a_whole_match_typed_at_the_keyboard(tmp_path):
    save = tmp_path / "game.json"
    child = spawn(tmp_path, "play", GAME, "--seats", "human,random", "--seed", "11",
                  "--save", str(save))
    try:
        typed = play_out(child, random.Random(3))
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
    assert typed > 10
    data = saved(save)
    assert data["over"] is True
    replay = tmp_path / "game.replay.json"
    assert replay.exists()
    rep = json.loads(replay.read_text())
    assert rep["actions"] == data["history"] and rep["seed"] == 11
    # the replay file replays the same game
    state = rulesdsl.load(GAME).new_game(players=2, seed=11)
    for label in rep["actions"]:
        state.apply(label)
    assert state.is_over and state.winners == data["winners"]


GARBAGE = ["", "   ", "the card of destiny", "0", "999", "-3", "#0", "x" * 5000,
           "\x1b[A\x1b[B\x1b[2J", "\x1b]0;title\x07", "\x01\x02\x05\x06\x0b\x0e\x10",
           "save", "g 3", "; rm -rf /", "'\"\\", "1 2", "ü∂ß", "\t\t"]


def test_garbage_input_changes_nothing(tmp_path):
    save = tmp_path / "game.json"
    child = spawn(tmp_path, "play", GAME, "--seats", "human,random", "--seed", "5",
                  "--save", str(save), "--plain")
    try:
        play_out(child, random.Random(1), moves=3)
        child.expect(PROMPT)
        before = save.read_text()
        for junk in GARBAGE:
            child.sendline(junk)
            child.expect(PROMPT)
            assert "Traceback" not in child.before
            assert save.read_text() == before, repr(junk[:40])
        # the commands print and change nothing either
        for cmd in ("help", "?", "rules", "log", "history", "HELP"):
            child.sendline(cmd)
            child.expect(PROMPT)
            assert save.read_text() == before
        child.sendline("rules")
        child.expect(PROMPT)
        assert "On the table:" in child.before and "The cards" in child.before
        assert "Options" in child.before
        # still playable: ? shows the options again
        child.sendline("?")
        child.expect(PROMPT)
        labels = options_on(screen_text(child))
        child.sendline(labels[0])
        child.expect([PROMPT, "game over"])
        assert save.read_text() != before
        interrupt(child)
    finally:
        child.close()


def test_ctrl_c_then_resume_finishes_the_game(tmp_path):
    save = tmp_path / "game.json"
    child = spawn(tmp_path, "play", GAME, "--seats", "human,random", "--seed", "8",
                  "--save", str(save))
    try:
        play_out(child, random.Random(2), moves=8)
        child.expect(PROMPT)
        at_stop = saved(save)
        interrupt(child)
    finally:
        child.close()
    assert child.exitstatus == 130
    out = ESC.sub("", child.before)
    assert "Traceback" not in out
    assert "saved in" in out and str(save) in out and "--resume" in out
    assert saved(save)["history"] == at_stop["history"]

    # the game comes from the file; the state is exactly the one left
    child = spawn(tmp_path, "play", "--resume", str(save))
    try:
        child.expect(PROMPT)
        assert saved(save)["history"] == at_stop["history"]
        assert saved(save)["zones"] == at_stop["zones"]
        play_out(child, random.Random(4), by_label=False, at_prompt=True)
    finally:
        child.close()
    assert child.exitstatus == 0
    final = saved(save)
    assert final["over"] is True
    assert final["history"][:len(at_stop["history"])] == at_stop["history"]


def test_end_of_input_saves_and_says_where(tmp_path):
    """Ctrl-D at a prompt on a terminal: the person leaves; saved, and no error status."""
    save = tmp_path / "game.json"
    child = spawn(tmp_path, "play", GAME, "--seed", "3", "--save", str(save))
    try:
        child.expect(PROMPT)
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close()
    out = " ".join(ESC.sub("", child.before).split())  # a long path may wrap onto a line
    assert "Traceback" not in out
    assert "stopped" in out and f"--resume {save}" in out
    assert child.exitstatus == 0
    assert saved(save)["over"] is False


def test_hand_over_between_two_people(tmp_path):
    save = tmp_path / "game.json"
    child = spawn(tmp_path, "play", GAME, "--seats", "human,human", "--seed", "4",
                  "--save", str(save), "--plain")
    game = rulesdsl.load(GAME)
    try:
        handovers = 0
        while handovers < 4:
            # the same person may move twice in a row (a trick's winner leads): no hand-over
            if child.expect([r"pass the keyboard to (P\d)", PROMPT]) == 1:
                child.sendline(options_on(screen_text(child))[0])
                continue
            handovers += 1
            who = child.match.group(1)
            seat = int(who[1:]) - 1
            other = 1 - seat
            child.sendline("")
            child.expect(PROMPT)
            screen = screen_text(child)
            # the screen was cleared after the hand-over: only this person's view is on it
            state = rulesdsl.restore(game, save.read_text())
            assert state.to_move == seat
            hidden = f"P{other + 1}"
            theirs = [l for l in screen.splitlines() if l.strip().startswith(hidden)
                      and "hand: " in l]
            assert theirs and f"hand: {len(state.zone('hand', other))} card" in theirs[0]
            assert "hidden" in theirs[0]
            # the viewer's own hand: its own line under "P1 (you)", every card named
            mine = [l for l in screen.splitlines() if l.strip().startswith("hand:")]
            assert mine and all(c in mine[0] for c in state.zone("hand", seat))
            labels = options_on(screen)
            child.sendline(labels[0])
        interrupt(child)
    finally:
        child.close()


def test_colour_on_a_terminal_and_plain_on_request(tmp_path):
    child = spawn(tmp_path, "play", GAME, "--seed", "2")
    try:
        child.expect(PROMPT)
        coloured = child.before
        interrupt(child)
    finally:
        child.close()
    child = spawn(tmp_path, "play", GAME, "--seed", "2", "--plain")
    try:
        child.expect(PROMPT)
        plain = child.before
        interrupt(child)
    finally:
        child.close()
    assert re.search(r"\x1b\[[0-9;]*m", coloured)          # colours
    assert not re.search(r"\x1b\[[0-9;]*m", plain)         # none with --plain
