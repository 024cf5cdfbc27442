"""The `rulesdsl` command, called in-process: rulesdsl.cli.main(argv) with captured output."""

from __future__ import annotations

import io
import json
import random
import re

import pytest

import rulesdsl
from rulesdsl import cli
from rulesdsl.lang.resources import bundled_path

GAME = "triumvirat"
BAD_RULES = 'game "x"\nplayers 2\nzone hand per player privat'


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def no_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def feed(monkeypatch, text):
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def random_game_labels(players=2, seed=0, choice_seed=1):
    """The labels of one full game played with random choices through the public API."""
    state = rulesdsl.load(GAME).new_game(players=players, seed=seed)
    rng = random.Random(choice_seed)
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return list(state.history), state


# ---------------------------------------------------------------- check


def test_check_good_file(capsys):
    path = str(bundled_path(GAME))
    code, out, err = run(capsys, "check", path)
    assert code == 0
    assert f"{path}: ok" in out


def test_check_bad_file(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text(BAD_RULES)
    code, out, err = run(capsys, "check", str(bad))
    assert code == 1
    text = out + err
    assert re.search(re.escape(str(bad)) + r":3:\d+: error\[\w+\]: ", text), text
    assert re.search(r"^\s*\^+\s*$", text, re.M), text          # the caret line
    assert "zone hand per player privat" in text                # the source line
    assert f"{bad}: ok" not in out


def test_check_several_files_reports_each(tmp_path, capsys):
    good = str(bundled_path(GAME))
    bad = tmp_path / "bad.rules"
    bad.write_text(BAD_RULES)
    code, out, err = run(capsys, "check", str(bad), good)
    assert code == 1
    assert f"{good}: ok" in out
    assert f"{bad}:3:" in err


def test_check_missing_file(tmp_path, capsys):
    missing = tmp_path / "nope.rules"
    code, out, err = run(capsys, "check", str(missing))
    assert code == 1
    assert str(missing) in err


def test_check_needs_a_file(capsys):
    code = cli.main(["check"])
    capsys.readouterr()
    assert code == 2


# ---------------------------------------------------------------- simulate


def test_simulate_prints_a_table(capsys):
    code, out, err = run(capsys, "simulate", GAME, "--games", "4", "--seed", "1")
    assert code == 0
    assert "wins" in out and "games/s" in out and "actions/s" in out
    for seat in ("0", "1"):
        assert re.search(rf"^\s*{seat}\s+random\s+\d+", out, re.M), out


def test_simulate_json(capsys):
    code, out, err = run(capsys, "simulate", GAME, "--games", "3", "--seed", "2", "--json",
                         "--players", "2", "--seats", "random,random")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 3 and data["players"] == 2
    assert len(data["wins"]) == 2
    assert sum(data["wins"]) + data["draws"] >= 3
    assert data["games_per_second"] > 0


def test_simulate_json_is_deterministic(capsys):
    runs = []
    for _ in range(2):
        code, out, _ = run(capsys, "simulate", GAME, "--games", "3", "--seed", "9", "--json")
        assert code == 0
        d = json.loads(out)
        runs.append((d["wins"], d["draws"], d["total_actions"], d["longest"]))
    assert runs[0] == runs[1]


def test_simulate_options(capsys):
    lengths = []
    for k in ("1", "3"):
        code, out, _ = run(capsys, "simulate", GAME, "--games", "5", "--json",
                           "--option", f"games_to_win={k}")
        assert code == 0
        lengths.append(json.loads(out)["mean_length"])
    assert lengths[0] < lengths[1]


def test_simulate_bad_seats(capsys):
    code, out, err = run(capsys, "simulate", GAME, "--games", "2", "--seats", "random,wizard")
    assert code == 1
    assert "wizard" in err and "random" in err
    assert "error[C002]" in err


def test_simulate_wrong_number_of_seats(capsys):
    code, out, err = run(capsys, "simulate", GAME, "--games", "2",
                         "--seats", "random,random,random")
    assert code == 1
    assert "seats" in err


def test_simulate_unknown_game(capsys):
    code, out, err = run(capsys, "simulate", "no_such_game_anywhere", "--games", "1")
    assert code == 1
    assert err.strip()


def test_simulate_bad_option_syntax(capsys):
    code, out, err = run(capsys, "simulate", GAME, "--games", "1", "--option", "games_to_win")
    assert code == 1
    assert "NAME=VALUE" in err


def test_simulate_bad_file(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text(BAD_RULES)
    code, out, err = run(capsys, "simulate", str(bad), "--games", "1")
    assert code == 1
    assert f"{bad}:3:" in err


# ---------------------------------------------------------------- play


def test_play_with_agents_only(capsys, no_stdin):
    code, out, err = run(capsys, "play", GAME, "--seats", "random,random", "--seed", "3")
    assert code == 0
    assert "game over" in out
    assert "winner" in out or "drawn" in out


def test_play_script_replays_a_game(tmp_path, capsys, no_stdin):
    labels, final = random_game_labels(seed=4)
    script = tmp_path / "game.txt"
    script.write_text("\n".join(labels) + "\n")
    code, out, err = run(capsys, "play", GAME, "--seed", "4", "--seats", "human,human",
                         "--script", str(script))
    assert code == 0, err
    assert f"game over after {len(labels)} actions" in out
    if final.winners:
        assert f"winner: P{final.winners[0] + 1}," in out.split("game over")[1]
    # the log is printed as it happens: check the lines every seat sees alike
    public = [x for x, y in zip(final.story(0), final.story(1)) if x == y]
    assert public
    for line in public[:5] + public[-5:]:
        assert line in out


def test_play_script_then_stdin(tmp_path, capsys, monkeypatch):
    labels, _ = random_game_labels(seed=5)
    half = len(labels) // 2
    script = tmp_path / "half.txt"
    script.write_text("# the first half\n" + "\n".join(labels[:half]) + "\n")
    feed(monkeypatch, "\n".join(labels[half:]) + "\n")
    code, out, err = run(capsys, "play", GAME, "--seed", "5", "--seats", "human,human",
                         "--script", str(script))
    assert code == 0, err
    assert f"game over after {len(labels)} actions" in out


def test_play_bad_input_reprompts(capsys, monkeypatch):
    feed(monkeypatch, "not a card at all\n0\n999\n\n" + "1\n" * 2000)
    code, out, err = run(capsys, "play", GAME, "--seed", "1", "--seats", "human,random")
    assert code == 0, err
    assert "not one of the options" in out
    assert "no option 999" in out
    assert "options:" in out and "  1. " in out
    assert "game over" in out


def test_play_by_label(capsys, monkeypatch):
    game = rulesdsl.load(GAME)
    state = game.new_game(players=2, seed=8)
    first = state.legal_actions()[-1].label
    feed(monkeypatch, first + "\nquit\n")
    code, out, err = run(capsys, "play", GAME, "--seed", "8", "--seats", "human,human")
    assert code == 0
    assert "stopped" in out


def test_play_input_ends_early(capsys, no_stdin):
    code, out, err = run(capsys, "play", GAME, "--seed", "1", "--seats", "human,random")
    assert code == 1
    assert "input ended" in err


def test_play_bad_script_line(tmp_path, capsys, no_stdin):
    script = tmp_path / "bad.txt"
    script.write_text("the card of destiny\n")
    code, out, err = run(capsys, "play", GAME, "--seed", "1", "--seats", "human,human",
                         "--script", str(script))
    assert code == 1
    assert f"{script}:1:1: error[C011]" in err
    assert "^" in err


def test_play_missing_script(tmp_path, capsys, no_stdin):
    code, out, err = run(capsys, "play", GAME, "--script", str(tmp_path / "none.txt"))
    assert code == 1
    assert "none.txt" in err


def test_play_bad_seats(capsys, no_stdin):
    code, out, err = run(capsys, "play", GAME, "--seats", "human,robot")
    assert code == 1
    assert "robot" in err and "human" in err and "random" in err


def test_play_shows_only_what_the_human_may_see(capsys, monkeypatch):
    feed(monkeypatch, "1\n" * 2000)
    code, out, err = run(capsys, "play", GAME, "--seed", "2", "--seats", "human,random")
    assert code == 0, err
    assert "11 cards: from the draw pile to P2's hand" in out   # dealt face down
    assert "(random) plays" not in out         # an agent's choice may be secret
    assert "P1 to move" in out and "(seat" not in out


def test_play_with_a_scenario(tmp_path, capsys, monkeypatch):
    scenario = tmp_path / "s.json"
    dealt = rulesdsl.load(GAME).new_game(players=2, seed=1)
    p1, p2 = dealt.zone("hand", 0), dealt.zone("hand", 1)
    scenario.write_text(json.dumps({"zones": {"hand[P1]": p2, "hand[P2]": p1}}))
    feed(monkeypatch, "quit\n")
    code, out, err = run(capsys, "play", GAME, "--seed", "1", "--seats", "human,random",
                         "--scenario", str(scenario))
    assert code == 0, err
    shown = [l for l in out.splitlines() if l.strip().startswith("hand:")][-1]
    assert sorted(shown.split(":", 1)[1].strip().split(", ")) == sorted(p2)


def test_play_with_a_bad_scenario(tmp_path, capsys, no_stdin):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"zones": {"hand[P1]": ["the golden card"]}}))
    code, out, err = run(capsys, "play", GAME, "--seats", "random,random",
                         "--scenario", str(scenario))
    assert code == 1
    assert "golden card" in err
    code, out, err = run(capsys, "play", GAME, "--scenario", str(tmp_path / "none.json"))
    assert code == 1
    assert "none.json" in err


def test_play_save_and_resume(tmp_path, capsys, monkeypatch):
    labels, final = random_game_labels(seed=6)
    save = tmp_path / "saved.json"
    feed(monkeypatch, "\n".join(labels[:6]) + "\nquit\n")
    code, out, err = run(capsys, "play", GAME, "--seed", "6", "--seats", "human,human",
                         "--save", str(save))
    assert code == 0, err
    assert save.exists()
    restored = rulesdsl.restore(rulesdsl.load(GAME), save.read_text())
    assert list(restored.history) == labels[:6]
    feed(monkeypatch, "\n".join(labels[6:]) + "\n")
    code, out, err = run(capsys, "play", GAME, "--seats", "human,human",
                         "--resume", str(save))
    assert code == 0, err
    assert f"game over after {len(labels)} actions" in out


# ---------------------------------------------------------------- the rest


def test_fmt_of_a_missing_file_fails_cleanly(tmp_path, capsys):
    code, out, err = run(capsys, "fmt", str(tmp_path / "x.rules"))
    assert code in (1, 2)           # 2 while fmt was a placeholder
    assert (out + err).strip()


def test_no_command_prints_the_help_and_exits_0(capsys):
    code = cli.main([])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("usage: rulesdsl")
    for command in ("check", "play", "replay", "simulate", "fmt"):
        assert command in out


def test_keyboard_interrupt_exits_130(capsys, monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "run_play", interrupted)
    code, out, err = run(capsys, "play", GAME)
    assert code == 130
    assert "interrupted" in err


def test_option_values_are_typed():
    from rulesdsl.play.answers import parse_options
    assert parse_options(["a=true", "b=False", "c=3", "d=-2", "e=ivanhoe"]) == \
        {"a": True, "b": False, "c": 3, "d": -2, "e": "ivanhoe"}


def test_interactive_terminal_session():
    """A real terminal: prompt, a bad answer re-prompts, Ctrl-C exits 130 without a traceback."""
    pexpect = pytest.importorskip("pexpect")
    import sys
    from tests.play.test_terminal import interrupt
    child = pexpect.spawn(sys.executable, ["-m", "rulesdsl", "play", GAME, "--seed", "2"],
                          encoding="utf-8", timeout=30)
    try:
        child.expect("P1> ")
        child.sendline("1")
        child.expect("P1> ")
        child.sendline("no such thing")
        child.expect("not one of the options")
        child.expect("P1> ")
        interrupt(child)      # twice if readline lost the first: see its docstring
    finally:
        child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in child.before


def test_a_command_whose_extra_is_missing_says_which_to_install(capsys):
    from rulesdsl.cli import _from_extra
    assert _from_extra("serve", "web", "rulesdsl.no_such_module", "serve") is None
    err = capsys.readouterr().err
    assert "rulesdsl serve: needs the web extra" in err
    assert "pip install 'rulesdsl[web]'" in err
    assert _from_extra("lsp", "lsp", "rulesdsl.cli", "main") is not None
