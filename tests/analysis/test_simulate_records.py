"""The balance report's numbers: per-game records checked exactly on a tiny fake game,
worker processes giving the same result as one, and the command line's new flags."""

from __future__ import annotations

import json

import pytest

import rulesdsl
from rulesdsl import cli
from rulesdsl.analysis.run import GameSpec, chunks, game_of
from rulesdsl.analysis.simulate import simulate
from rulesdsl.lang.errors import RulesError


class Act:
    def __init__(self, label):
        self.label = label


class ScoreState:
    """Seats alternate for 6 actions; every third action is forced ("pass"). Each action
    scores 1 for its seat, the last one 2: seat 0 leads until seat 1 overtakes at the end
    (one lead change, margin 1). Seed `fail` raises a RulesError at the second action."""

    def __init__(self, seed, fail):
        self.seed, self.fail = seed, fail
        self.history, self.scores = [], [0, 0]

    is_over = property(lambda self: len(self.history) >= 6)
    to_move = property(lambda self: None if self.is_over else len(self.history) % 2)
    winners = property(lambda self: [1] if self.is_over else [])

    def legal_actions(self):
        return [Act("pass")] if len(self.history) % 3 == 2 else [Act("a"), Act("b")]

    def apply(self, action):
        if self.seed == self.fail and len(self.history) == 1:
            raise RulesError("R900", "the fake rules broke")
        k = len(self.history)
        self.scores[k % 2] += 2 if k == 5 else 1
        self.history.append(action.label)


class ScoreGame:
    name, min_players, max_players, options = "Scores", 2, 2, {}

    def __init__(self, fail=None):
        self.fail = fail

    def new_game(self, players=2, seed=0, scenario=None):
        return ScoreState(seed, self.fail)


def test_a_record_holds_rounds_turns_branching_lead_and_margin():
    r = simulate(ScoreGame(), players=2, games=3, seed=4)
    rec = r.records[0]
    assert rec["seed"] == 4 and rec["index"] == 0 and rec["winners"] == [1]
    assert rec["actions"] == rec["decisions"] == 6 and rec["turns"] == 6
    assert rec["rounds"] == 3                       # seat 0's turns: where play started
    assert rec["forced"] == 2 and rec["options_total"] == 10 and rec["options_max"] == 2
    assert rec["lead_changes"] == 1 and rec["margin"] == 1.0
    assert rec["scores"] == [3.0, 4.0]
    stats = r.stats
    assert stats["branching"]["forced_share"] == pytest.approx(2 / 6)
    assert stats["branching"]["mean_options"] == pytest.approx(10 / 6)
    assert stats["options"]["pass"]["chosen"] == 6 and stats["options"]["pass"]["offered"] == 6
    assert stats["options"]["pass"]["win_rate"] == 0.5   # chosen by both seats, seat 1 wins
    assert stats["length"]["rounds"]["mean"] == 3
    assert stats["score_flow"]["margin"]["mean"] == 1.0
    assert stats["win_rate_ci95"][0][0] == 0.0 and stats["win_rate_ci95"][1][1] == 1.0


def test_one_seat_always_winning_is_called_unbalanced():
    r = simulate(ScoreGame(), players=2, games=40, seed=0)
    assert r.stats["balance"]["p_value"] < 0.001
    assert "seat 0 (P1) wins far less often" in r.stats["balance"]["verdict"]
    assert "seat 0 (P1) wins far less often" in r.table()


def test_different_agents_per_seat_are_named_beside_the_verdict():
    same = simulate(ScoreGame(), players=2, games=10, seed=0)
    assert "different agents" not in same.table()
    mixed = simulate(rulesdsl.load("triumvirat"), players=2, games=4, seed=0,
                     seats="greedy,random")
    assert "the seats have different agents (greedy, random)" in mixed.table()


def test_workers_give_the_same_records_as_one_process():
    one = simulate(ScoreGame(), players=2, games=25, seed=3, workers=1)
    two = simulate(ScoreGame(), players=2, games=25, seed=3, workers=2)
    assert one.records == two.records and two.workers == 2
    assert [r["index"] for r in two.records] == list(range(25))


def test_a_failing_game_on_a_worker_is_reported_with_its_number_and_seed():
    with pytest.raises(RulesError) as info:
        simulate(ScoreGame(fail=17), players=2, games=30, seed=10, workers=2)
    assert info.value.code == "R900"
    assert "game 8 of 30 (seed 17)" in info.value.message
    assert any("--seed 17" in h for h in info.value.hints)


def test_chunks_cover_every_game_once():
    for games, workers in ((1, 4), (7, 2), (1000, 2), (5000, 8)):
        covered = [i for a, b in chunks(games, workers) for i in range(a, b)]
        assert covered == list(range(games))


def test_a_game_travels_as_its_text(tmp_path):
    path = tmp_path / "copy.rules"
    path.write_text(open(rulesdsl.load("triumvirat").path, encoding="utf-8").read())
    spec = GameSpec.of(rulesdsl.load(str(path), options={"games_to_win": 1}))
    path.unlink()                                   # as on a machine without the file
    game = game_of(spec)
    assert game.options["games_to_win"] == 1
    assert game.new_game(players=2, seed=1).legal_actions()


def test_triumvirat_with_two_workers_equals_one():
    one = simulate("triumvirat", players=2, games=6, seed=30, workers=1).to_dict()
    two = simulate("triumvirat", players=2, games=6, seed=30, workers=2).to_dict()
    for d in (one, two):
        for key in ("seconds", "games_per_second", "actions_per_second", "workers"):
            d.pop(key)
    assert one == two


def test_compare_plays_the_same_seeds_with_an_option_changed():
    r = simulate("triumvirat", players=2, games=6, seed=0, compare=[{"games_to_win": 1}])
    (c,) = r.compare
    assert c["change"] == {"games_to_win": 1}
    assert c["base_mean_length"] == r.mean_length
    assert c["mean_length"] < c["base_mean_length"] and c["length_difference"] < 0
    low, high = c["length_ci95"]
    assert low <= c["length_difference"] <= high
    assert len(c["seats"]) == 2 and sum(c["wins"]) + c["draws"] >= 6
    assert "compare: games_to_win=1" in r.table()


def test_cli_json_keys_and_games_out(capsys, tmp_path):
    out_file = tmp_path / "games.jsonl"
    code = cli.main(["simulate", "triumvirat", "--games", "4", "--seed", "5", "--json",
                     "--workers", "2", "--compare", "games_to_win=1",
                     "--games-out", str(out_file)])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    first = {"game", "players", "games", "seed", "seats", "wins", "win_rate", "draws",
             "mean_scores", "mean_length"}
    added = {"win_rate_ci95", "balance", "length", "branching", "options", "compare",
             "workers", "backend"}
    assert first | added <= set(data)
    assert {"test", "p_value", "verdict"} <= set(data["balance"])
    assert {"mean", "median", "p5", "p95", "histogram"} <= set(data["length"])
    assert data["workers"] == 2 and data["backend"] == "local"
    assert data["compare"][0]["change"] == {"games_to_win": 1}
    lines = out_file.read_text().splitlines()
    assert len(lines) == 4
    records = [json.loads(line) for line in lines]
    assert [r["seed"] for r in records] == [5, 6, 7, 8]
    assert sum(r["actions"] for r in records) == data["total_actions"]


def test_cli_bad_workers_and_unwritable_games_out(capsys, tmp_path):
    assert cli.main(["simulate", "triumvirat", "--games", "1", "--workers", "0"]) == 1
    assert "workers" in capsys.readouterr().err
    code = cli.main(["simulate", "triumvirat", "--games", "1", "--games-out",
                     str(tmp_path / "no" / "such" / "dir" / "g.jsonl")])
    err = capsys.readouterr().err
    assert code == 1 and "cannot write" in err and "Traceback" not in err


def test_progress_bar_only_on_a_terminal(tmp_path, capsys):
    import sys

    pexpect = pytest.importorskip("pexpect")
    out_file = tmp_path / "out.json"
    command = (f"{sys.executable} -m rulesdsl.cli simulate triumvirat --games 4 --workers 1 "
               f"--json > {out_file}")
    child = pexpect.spawn("/bin/sh", ["-c", command], encoding="utf-8", timeout=120,
                          dimensions=(24, 120))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "games/s" in child.before and "left" in child.before   # the bar, on the terminal
    assert json.loads(out_file.read_text())["games"] == 4            # standard output clean
    # not a terminal: nothing but the result
    assert cli.main(["simulate", "triumvirat", "--games", "2", "--workers", "1"]) == 0
    assert capsys.readouterr().err == ""


def test_backend_ray_without_ray_says_how_to_install_it(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)       # "import ray" fails
    code = cli.main(["simulate", "triumvirat", "--games", "1", "--backend", "ray"])
    err = capsys.readouterr().err
    assert code == 1 and "rulesdsl[ray]" in err and "Traceback" not in err


def test_report_without_matplotlib_says_how_to_install_it(monkeypatch, capsys, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code = cli.main(["simulate", "triumvirat", "--games", "1", "--workers", "1",
                     "--report", str(tmp_path / "r.html")])
    err = capsys.readouterr().err
    assert code == 1 and "rulesdsl[report]" in err and "Traceback" not in err
    assert not (tmp_path / "r.html").exists()
