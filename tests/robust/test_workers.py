"""`simulate --workers` when a moment goes wrong (issue 31): a worker killed as the OOM
killer kills (SIGKILL) is named with its signal and the games it was playing, which are
played again in a new worker (lost, and said so, if that one dies too), every finished
game kept; Ctrl-C stops parent and workers within a second, exits 130, and keeps the
finished games (their summary printed, their --games-out lines written)."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from rulesdsl import cli
from rulesdsl.analysis import run
from rulesdsl.analysis.simulate import GamesLost, SimulationInterrupted, simulate

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="signals and /proc as on Linux")

GOPS = str(Path(__file__).resolve().parents[2] / "examples" / "gops.rules")
GAMES = 1200          # random seats: chunks of 60 games, a fraction of a second each
DEATH = re.compile(r"worker (\d+) \(pid (\d+)\) was killed by SIGKILL while playing "
                   r"games (\d+)-(\d+); they are (played again in a new worker|lost)")


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`, from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def dies(chunk_start: int, times: int, marks: Path):
    """run.play_chunk, but the worker SIGKILLs itself the first `times` times it starts
    the chunk at `chunk_start` (counted in files: each try is another process)."""
    real = run.play_chunk

    def play(job, start, stop):
        if start == chunk_start:
            tries = len(list(marks.iterdir()))
            if tries < times:
                (marks / str(tries)).touch()
                os.kill(os.getpid(), signal.SIGKILL)
        return real(job, start, stop)
    return play


def test_a_killed_worker_is_named_and_its_games_played_again(tmp_path, monkeypatch):
    whole = simulate(GOPS, players=2, games=40, seed=5, workers=1)
    monkeypatch.setattr(run, "play_chunk", dies(10, 1, tmp_path))
    result = simulate(GOPS, players=2, games=40, seed=5, workers=2)   # chunks of 2 games
    assert result.records == whole.records and result.complete
    [death] = result.deaths
    match = DEATH.match(death)
    assert match and match.group(3, 4) == ("11", "12"), death
    assert match.group(5) == "played again in a new worker"


def test_games_whose_worker_dies_twice_are_lost_and_the_rest_kept(tmp_path, monkeypatch,
                                                                  capsys):
    whole = simulate(GOPS, players=2, games=40, seed=5, workers=1)
    monkeypatch.setattr(run, "play_chunk", dies(10, 2, tmp_path))
    with pytest.raises(GamesLost) as info:
        simulate(GOPS, players=2, games=40, seed=5, workers=2)
    kept = info.value.result
    assert info.value.code == "C016" and "games 11-12" in info.value.message
    assert kept.records == [r for r in whole.records if r["index"] not in (10, 11)]
    assert kept.lost == [(10, 12)] and kept.games == 38 and not kept.complete
    assert [DEATH.match(d).group(5) for d in kept.deaths] == [
        "played again in a new worker", "lost"]
    # the command line: the others reported and written, then the error, exit 1
    for mark in tmp_path.iterdir():
        mark.unlink()
    out_file = tmp_path.parent / "lost.jsonl"
    code = cli.main(["simulate", GOPS, "--games", "40", "--seed", "5", "--workers", "2",
                     "--games-out", str(out_file)])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    assert "38 of 40 games finished" in out and "lost (their workers died): games 11-12" in out
    assert "error[C016]" in err and len(DEATH.findall(err)) == 2
    assert [json.loads(line)["index"] for line in out_file.read_text().splitlines()] == \
        [i for i in range(40) if i not in (10, 11)]


def interrupted_at(start_number: int, times_seen: int = 1):
    """run.play_chunk, but Ctrl-C arrives as game `start_number` starts for the
    `times_seen`-th time (as a KeyboardInterrupt in this process)."""
    real, seen = run.play_chunk, []

    def play(job, start, stop):
        seen.append(start)
        if seen.count(start_number) == times_seen:
            raise KeyboardInterrupt
        return real(job, start, stop)
    return play


def test_ctrl_c_in_one_process_keeps_the_games_finished(monkeypatch):
    whole = simulate(GOPS, players=2, games=12, seed=5, workers=1)
    monkeypatch.setattr(run, "play_chunk", interrupted_at(7))
    with pytest.raises(SimulationInterrupted) as info:
        simulate(GOPS, players=2, games=12, seed=5, workers=1)
    kept = info.value.result
    assert kept.interrupted and kept.records == whole.records[:7]
    assert "7 of 12 games finished" in kept.table() and "interrupted before games 8-12" in \
        kept.table()


def test_ctrl_c_while_comparing_keeps_the_run_compared_against(monkeypatch):
    monkeypatch.setattr(run, "play_chunk", interrupted_at(0, times_seen=2))
    with pytest.raises(SimulationInterrupted) as info:
        simulate("triumvirat", players=2, games=3, seed=1, workers=1,
                 compare=[{"games_to_win": 1}])
    kept = info.value.result
    assert kept.games == 3 and kept.interrupted and kept.compare == []
    assert "interrupted before every comparison was played" in kept.table()


def spawn(tmp_path, games: int = GAMES):
    """`simulate` on two workers on a terminal (for its progress bar), writing --games-out;
    returned once the bar shows a game finished."""
    pexpect = pytest.importorskip("pexpect")
    out_file = tmp_path / "games.jsonl"
    env = dict(os.environ, COLUMNS="120")
    child = pexpect.spawn(sys.executable, ["-m", "rulesdsl", "simulate", GOPS, "--games",
                                           str(games), "--workers", "2", "--games-out",
                                           str(out_file)],
                          env=env, encoding="utf-8", timeout=300, dimensions=(24, 120))
    child.expect(rf"\b([1-9]\d*)/{games}\b")
    return child, out_file


def test_a_worker_killed_from_outside_is_reported_and_nothing_lost(tmp_path):
    import pexpect
    child, out_file = spawn(tmp_path)
    workers = children(child.pid)
    assert len(workers) == 2, workers
    os.kill(workers[0], signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    text = child.before
    assert child.exitstatus == 0, text
    match = DEATH.search(text)
    assert match and int(match.group(2)) == workers[0], text
    assert match.group(5) == "played again in a new worker"
    assert f"GOPS: {GAMES} games" in text
    indexes = [json.loads(line)["index"] for line in out_file.read_text().splitlines()]
    assert indexes == list(range(GAMES))


def test_ctrl_c_stops_everything_at_once_and_keeps_the_finished_games(tmp_path):
    import pexpect
    child, out_file = spawn(tmp_path)
    workers = children(child.pid)
    child.sendintr()      # ^C on the terminal: SIGINT to the whole foreground group
    pressed = time.monotonic()
    child.expect(pexpect.EOF, timeout=30)
    took = time.monotonic() - pressed
    child.close()
    text = child.before
    assert child.exitstatus == 130, text
    assert took < 2.0, f"{took:.2f} s after Ctrl-C"
    assert not [pid for pid in workers if os.path.exists(f"/proc/{pid}")], "workers left"
    finished = re.search(rf"interrupted after (\d+) of {GAMES} games", text)
    assert finished and int(finished.group(1)) > 0, text
    n = int(finished.group(1))
    assert f"GOPS: {n} of {GAMES} games finished" in text and "interrupted before" in text
    records = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert len(records) == n and "Traceback" not in text


def alive(pid: int) -> bool:
    """A process that still runs (a zombie waiting to be reaped has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_workers_end_with_a_parent_killed_by_sigkill(tmp_path):
    # no terminal (whose hang-up would end them anyway): only the parent's death tells them
    import subprocess
    parent = subprocess.Popen([sys.executable, "-m", "rulesdsl", "simulate", GOPS, "--games",
                               str(GAMES * 10), "--workers", "2"], start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(workers := children(parent.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) == 2, "no workers started"
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.05)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers play on without their parent"
