"""`hint` and `undo` at a prompt, through the real runner in a terminal (a pty): a hint
names a legal option with its chances and changes nothing; undo goes back to the
person's previous decision, says so in the log and the save, and a resume continues from
there; undo is refused where another person plays; a hint depends only on what the seat
knows."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl import cli
from rulesdsl.agents import make_agent
from rulesdsl.play.hint import advise, hint_seed, hint_spec, hint_text
from rulesdsl.play.takeback import previous_decision, valid_notes

pexpect = pytest.importorskip("pexpect")

from tests.play.test_terminal import PROMPT, options_on, saved, screen_text, spawn  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GOPS = str(ROOT / "examples" / "gops.rules")
QUICK = "ismcts:iterations=50"
HINT = re.compile(r'The computer \((.+?)\) would play "(.+?)" \(about (\d+)% to win\)'
                  r'(?:; next: (.*?))?\.\r?\n')


def gops(tmp_path, *seats, seed=7, plain=True):
    save = tmp_path / "game.json"
    args = ["play", GOPS, "--seats", ",".join(seats), "--seed", str(seed),
            "--save", str(save)] + (["--plain"] if plain else [])
    return spawn(tmp_path, *args), save


def bid(child, k=0) -> str:
    """At a prompt: bid the k-th option shown; its label."""
    label = options_on(screen_text(child))[k]
    child.sendline(label)
    return label


def test_hint_names_a_legal_option_with_chances_and_changes_nothing(tmp_path):
    child, save = gops(tmp_path, "human", QUICK)
    try:
        child.expect(PROMPT)
        bid(child)
        child.expect(PROMPT)
        labels = options_on(screen_text(child))
        before = save.read_text()
        child.sendline("hint")
        child.expect(HINT)
        who, choice, chance, rest = child.match.groups()
        child.expect(PROMPT)
        assert who == QUICK            # the level of the computer seat, said
        assert choice in labels and 0 <= int(chance) <= 100
        others = re.findall(r'"(.+?)" (\d+)%', rest or "")
        assert 1 <= len(others) <= 2 and all(label in labels for label, _ in others)
        assert save.read_text() == before
        # the same position, the same hint
        child.sendline("hint")
        child.expect(HINT)
        assert child.match.group(2) == choice and child.match.group(3) == chance
        child.expect(PROMPT)
        child.sendline("help")
        child.expect(PROMPT)
        assert "hint " in child.before and "undo " in child.before
        bid(child)
        child.expect(PROMPT)
        assert len(saved(save)["history"]) == 4
    finally:
        child.close()


def test_ctrl_c_during_a_hint_returns_to_the_prompt(tmp_path):
    # a budget far too large to finish: only Ctrl-C ends this search
    child, save = gops(tmp_path, "human", "ismcts:iterations=10000000", plain=False)
    try:
        child.expect(PROMPT)
        before = save.read_text()
        child.sendline("hint")
        child.expect("thinking about a hint")
        child.sendcontrol("c")
        child.expect("hint stopped")
        child.expect(PROMPT)
        assert save.read_text() == before
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in child.before


def test_undo_goes_back_to_the_previous_decision_and_the_log_says_so(tmp_path, capsys):
    child, save = gops(tmp_path, "human", QUICK)
    try:
        child.expect(PROMPT)
        bid(child)
        child.expect(PROMPT)
        at_decision = saved(save)
        taken = bid(child, 2)
        child.expect(PROMPT)
        assert len(saved(save)["history"]) == 4
        child.sendline("undo")
        child.expect(f'P1 took back "{taken}" and the 1 move after it')
        child.expect(PROMPT)
        # the screen again shows the decision taken back, the card in hand again
        assert taken in options_on(screen_text(child))
        after = saved(save)
        for key in ("history", "zones", "vars", "log", "rng"):
            assert after[key] == at_decision[key], key
        assert after["runner"]["takebacks"][0]["label"] == taken
        child.sendline("history")
        child.expect(PROMPT)
        assert f'-- P1 took back "{taken}"' in child.before
        child.sendline("log")
        child.expect(PROMPT)
        assert f'-- P1 took back "{taken}"' in child.before
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()

    # the replay shows the note after the action it follows
    assert cli.main(["replay", str(save), "--to", "2", "--plain"]) == 0
    assert f'here P1 took back "{taken}"' in capsys.readouterr().out

    # a resume continues at the position undone to, the note kept
    child = spawn(tmp_path, "play", "--resume", str(save), "--plain")
    try:
        child.expect(PROMPT)
        assert "resumed after 2 actions" in child.before
        labels = options_on(screen_text(child))
        assert taken in labels
        child.sendline("history")
        child.expect(PROMPT)
        assert f'-- P1 took back "{taken}"' in child.before
        child.sendline(labels[0])
        child.expect(PROMPT)
        history = saved(save)["history"]
        assert history[:2] == at_decision["history"] and len(history) == 4
        # back to the first decision; before it, there is nothing to undo
        child.sendline("undo")
        child.expect("took back")
        child.expect(PROMPT)
        child.sendline("undo")
        child.expect("took back")
        child.expect(PROMPT)
        child.sendline("undo")
        child.expect("nothing to undo")
        child.expect(PROMPT)
        assert saved(save)["history"] == []
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()


def test_undo_is_refused_where_another_person_plays(tmp_path):
    child, save = gops(tmp_path, "human", "human")
    try:
        moves = 0
        while moves < 2:
            if child.expect([r"pass the keyboard to (P\d)", PROMPT]) == 0:
                child.sendline("")
                continue
            bid(child)
            moves += 1
        child.expect(r"pass the keyboard to P1")
        child.sendline("")
        child.expect(PROMPT)
        before = save.read_text()
        child.sendline("undo")
        child.expect("undo works only against computer players: P2 is a person too")
        child.expect(PROMPT)
        assert save.read_text() == before
    finally:
        child.close()


def test_a_single_option_is_named_without_a_search(tmp_path, capsys, monkeypatch):
    # twelve bids, then the last card: the only option
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 12 + "hint\nquit\n"))
    code = cli.main(["play", GOPS, "--seats", f"human,{QUICK}", "--seed", "2",
                     "--save", str(tmp_path / "g.json")])
    out = capsys.readouterr().out
    assert code == 0
    assert re.search(r'only one option here: "bid \d+"', out)
    assert "would play" not in out


def _gops_after(bids: int, seed: int = 5):
    game = rulesdsl.load(GOPS)
    state = game.new_game(players=2, seed=seed)
    for _ in range(bids):
        state.apply(state.legal_actions()[-1])
    return state


@pytest.mark.parametrize("bids", [4, 5])   # P1 to move; P2 to move with P1's bid secret
def test_the_hint_is_the_same_in_states_the_seat_cannot_tell_apart(bids):
    state = _gops_after(bids)
    seat = state.to_move
    spec = hint_spec(["human", QUICK])
    hints = []
    differs = False
    for k in range(4):
        other = state.determinize(seat, k)
        assert other.story(seat) == state.story(seat)
        differs |= other.to_json() != state.to_json()
        seed = hint_seed(5, other, seat)
        assert seed == hint_seed(5, state, seat)
        hints.append(advise(other, make_agent(spec, seed)))
    assert differs                      # the samples do differ in what the seat cannot see
    assert all(h == advise(state, make_agent(spec, hint_seed(5, state, seat))) for h in hints)


def test_hint_text_in_the_game_words():
    analysis = [("bid 3", 30, 0.41), ("bid 7", 40, 0.623), ("pass", 20, 0.48),
                ("bid 9", 0, None), ("bid 1", 5, 0.1)]
    text = hint_text("bid 7", analysis, "ismcts, medium")
    assert text == ('The computer (ismcts, medium) would play "bid 7" (about 62% to win); '
                    'next: "bid 3" 41%, "pass" 48%.')
    assert hint_spec(["human", "greedy"]) == "ismcts"
    assert hint_spec(["human", "random", "ismcts:hard"]) == "ismcts:hard"


def test_undo_rebuilds_exactly_the_earlier_position():
    state = _gops_after(0, seed=9)
    start = state.clone()
    snapshots = []
    for _ in range(7):
        snapshots.append((state.to_move, state.to_json()))
        state.apply(state.legal_actions()[0])
    k, rebuilt = previous_decision(start, list(state.history), 0)
    assert snapshots[k][0] == 0 and all(mover != 0 for mover, _ in snapshots[k + 1:])
    assert json.loads(rebuilt.to_json()) == json.loads(snapshots[k][1])
    assert previous_decision(start, [], 0) is None


def test_notes_from_a_file_are_checked_and_made_safe_to_print():
    notes = valid_notes([{"at": 2, "lines": 5, "seat": 0, "label": "bid \x1b[2J3", "moves": 2},
                         {"at": -1, "lines": 5, "seat": 0, "label": "x", "moves": 1},
                         {"at": 1, "lines": 5, "seat": 0, "label": 7, "moves": 1}, "junk"])
    assert len(notes) == 1 and "\x1b" not in notes[0]["label"]
    assert valid_notes({"at": 1}) == []


def test_undo_after_a_resume_with_another_seed_keeps_the_deal(tmp_path, capsys, monkeypatch):
    """The start is dealt again from the saved state's seed, not from --seed."""
    save = tmp_path / "g.json"
    args = ["play", GOPS, "--seats", f"human,{QUICK}", "--seed", "4", "--save", str(save)]
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nquit\n"))
    assert cli.main(args) == 0
    after_one = saved(save)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nundo\nquit\n"))
    assert cli.main(["play", "--resume", str(save), "--seed", "99"]) == 0
    assert "took back" in capsys.readouterr().out
    back = saved(save)
    for key in ("history", "zones", "vars", "rng"):
        assert back[key] == after_one[key], key


def test_the_replay_after_a_resume_with_another_seed_is_the_game_played(tmp_path, capsys,
                                                                       monkeypatch):
    save = tmp_path / "g.json"
    args = ["play", GOPS, "--seats", f"human,{QUICK}", "--seed", "4", "--save", str(save)]
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nquit\n"))
    assert cli.main(args) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 12))
    assert cli.main(["play", "--resume", str(save), "--seed", "99"]) == 0
    final = saved(save)
    assert final["over"]
    replay = json.loads((tmp_path / "g.replay.json").read_text())
    from rulesdsl.play.replay import states_of
    _, states, problem = states_of(replay)
    assert problem is None
    assert json.loads(states[-1].to_json())["zones"] == final["zones"]


def test_a_game_finished_after_an_undo_leaves_its_replay(tmp_path, capsys, monkeypatch):
    save = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nundo\n" + "1\n" * 12))
    assert cli.main(["play", GOPS, "--seats", f"human,{QUICK}", "--seed", "6",
                     "--save", str(save)]) == 0
    final = saved(save)
    assert final["over"] and len(final["history"]) == 26
    replay = json.loads((tmp_path / "g.replay.json").read_text())
    assert replay["actions"] == final["history"]
    assert [(n["at"], n["moves"]) for n in replay["takebacks"]] == [(2, 2)]
