"""Saves never replace another game still in progress (issue 31): `play --save F` over a
save of an unfinished game stops before the game starts, naming the file, the game in it
and `--force`; a finished game's save, the game's own save and a resumed save are replaced
as before; `save F` at the prompt refuses the same way unless typed `save --force F`."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rulesdsl import cli

GOPS = str(Path(__file__).resolve().parents[2] / "examples" / "gops.rules")


def play(capsys, monkeypatch, typed: str, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = cli.main(["play", GOPS, "--seats", "human,random", *args])
    out, err = capsys.readouterr()
    return code, out, err


def saved(path: Path) -> dict:
    return json.loads(path.read_text())


def unfinished_save(capsys, monkeypatch, path: Path, seed: int = 1) -> str:
    """A save of a gops game two moves in, left unfinished; its text."""
    code, out, err = play(capsys, monkeypatch, "1\n1\nquit\n", "--seed", str(seed),
                          "--save", str(path))
    assert code == 0, err
    data = saved(path)
    assert not data["over"] and len(data["history"]) >= 2
    return path.read_text()


def test_play_save_over_another_game_in_progress_is_refused(tmp_path, capsys, monkeypatch):
    path = tmp_path / "ours.json"
    before = unfinished_save(capsys, monkeypatch, path)
    actions = len(saved(path)["history"])
    code, out, err = play(capsys, monkeypatch, "1\nquit\n", "--seed", "2", "--save", str(path))
    assert code == 1 and "Traceback" not in err
    assert err.startswith("error[C001]: ")
    assert str(path) in err and f"gops.rules, {actions} actions" in err and "--force" in err
    assert path.read_text() == before            # untouched
    assert "saved after every move" not in out   # stopped before the game began


def test_play_force_replaces_it(tmp_path, capsys, monkeypatch):
    path = tmp_path / "ours.json"
    unfinished_save(capsys, monkeypatch, path, seed=1)
    code, out, err = play(capsys, monkeypatch, "quit\n", "--seed", "2", "--save", str(path),
                          "--force")
    assert code == 0, err
    assert saved(path)["seed"] == 2


def test_a_finished_games_save_is_replaced_without_force(tmp_path, capsys, monkeypatch):
    path = tmp_path / "done.json"
    code, out, err = play(capsys, monkeypatch, "1\n" * 200, "--seed", "1", "--save", str(path))
    assert code == 0, err
    assert saved(path)["over"]
    code, out, err = play(capsys, monkeypatch, "quit\n", "--seed", "2", "--save", str(path))
    assert code == 0, err
    assert saved(path)["seed"] == 2


def test_resuming_a_save_goes_on_writing_it(tmp_path, capsys, monkeypatch):
    path = tmp_path / "ours.json"
    unfinished_save(capsys, monkeypatch, path)
    actions = len(saved(path)["history"])
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nquit\n"))
    assert cli.main(["play", "--resume", str(path)]) == 0, capsys.readouterr().err
    assert len(saved(path)["history"]) > actions


def test_resuming_into_another_games_save_is_refused(tmp_path, capsys, monkeypatch):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    unfinished_save(capsys, monkeypatch, first, seed=1)
    before = unfinished_save(capsys, monkeypatch, second, seed=2)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "--resume", str(first), "--save", str(second)]) == 1
    assert "holds another game still in progress" in capsys.readouterr().err
    assert second.read_text() == before


def test_save_at_the_prompt_refuses_another_game_unless_forced(tmp_path, capsys, monkeypatch):
    other = tmp_path / "other.json"
    before = unfinished_save(capsys, monkeypatch, other, seed=5)
    code, out, err = play(capsys, monkeypatch, f"save {other}\nquit\n", "--seed", "2",
                          "--save", str(tmp_path / "ours.json"))
    assert code == 0, err
    assert "holds another game still in progress" in out and f"save --force {other}" in out
    assert other.read_text() == before
    code, out, err = play(capsys, monkeypatch, f"save --force {other}\nquit\n", "--seed", "3",
                          "--save", str(tmp_path / "ours3.json"))
    assert code == 0, err
    assert f"saved in {other}" in out and saved(other)["seed"] == 3
