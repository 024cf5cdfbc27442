"""The gauntlet's yardsticks (benchmarks/rule_of_thumb.py): every bundled game and example
has a rule-of-thumb player; each finishes a game choosing legal actions, and decides only
from what its seat knows (the property of test_no_cheating.py). And the gauntlet's log
and table (benchmarks/gauntlet.py) on a short match of cheap agents."""

import json
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.agents import make_agent

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import gauntlet  # noqa: E402
from arena import share_of  # noqa: E402
from rule_of_thumb import PLAYERS, LoveLetter, make_thumb  # noqa: E402
from thumb_b import PLAYERS as SECOND, make_thumb_b  # noqa: E402
from test_no_cheating import GAMES, states  # noqa: E402


def test_every_game_and_example_has_a_rule_of_thumb_player():
    assert {Path(p).stem for p in GAMES} == set(PLAYERS)
    with pytest.raises(KeyError, match="known"):
        make_thumb("no_such_game", 1)


def finishes_against_random(path, player, players: int) -> bool:
    """Does `player` in seat 0, random players in the others, finish a game?"""
    st = rulesdsl.load(path).new_game(players=players, seed=5)
    agents = [player] + [make_agent("random", s) for s in range(1, players)]
    for _ in range(20000):
        if st.is_over:
            break
        st.apply(agents[st.to_move].choose(st))  # an illegal choice raises here
    return st.is_over


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_it_finishes_a_game_against_random(path):
    assert finishes_against_random(path, make_thumb(path, 1), rulesdsl.load(path).min_players)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_it_chooses_from_what_its_seat_knows(path):
    seen = 0
    for i, s in enumerate(states(path, count=4, seed=3)):
        p = s.to_move
        for k in (1, 2):
            d = s.determinize(p, k)
            assert make_thumb(path, i).choose(s) == make_thumb(path, i).choose(d)
        seen += 1
    assert seen


BUNDLED = [p for p in GAMES if Path(p).stem in SECOND]


def test_every_bundled_game_has_a_second_authors_player():
    assert {Path(p).stem for p in BUNDLED} == set(SECOND) and len(SECOND) == 5
    with pytest.raises(KeyError, match="known"):
        make_thumb_b("hearts", 1)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: Path(p).stem)
def test_the_second_authors_player_finishes_games_at_every_count(path):
    game = rulesdsl.load(path)
    for players in sorted({game.min_players, game.max_players}):
        assert finishes_against_random(path, make_thumb_b(path, 1), players)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: Path(p).stem)
def test_the_second_authors_player_chooses_from_what_its_seat_knows(path):
    for i, s in enumerate(states(path, count=4, seed=3)):
        for k in (1, 2):
            d = s.determinize(s.to_move, k)
            assert make_thumb_b(path, i).choose(s) == make_thumb_b(path, i).choose(d)


class PeekingLoveLetter(LoveLetter):
    """Guesses the card the guard's target really holds: the check above must catch it."""

    def decide(self, seen, labels):
        if all(lab.startswith("guess ") for lab in labels):
            for q in seen.others():
                for card in seen.state.zone("hand", seat=q):
                    if f"guess {card}" in labels:
                        return f"guess {card}"
        return super().decide(seen, labels)


def guard_guesses(count):
    """Love Letter positions where a guard's player names a card, from random play."""
    game = rulesdsl.load(ROOT / "examples" / "love_letter.rules")
    found = []
    for seed in range(200):
        st = game.new_game(players=2, seed=seed)
        agent = make_agent("random", seed)
        while not st.is_over and len(found) < count:
            if st.legal_actions()[0].label.startswith("guess "):
                found.append(st.clone())
                break
            st.apply(agent.choose(st))
    return found


def test_the_check_catches_a_player_that_peeks():
    differ = honest = 0
    for i, s in enumerate(guard_guesses(8)):
        d = s.determinize(s.to_move, 1)
        differ += PeekingLoveLetter(i).choose(s) != PeekingLoveLetter(i).choose(d)
        honest += LoveLetter(i).choose(s) != LoveLetter(i).choose(d)
    assert differ and not honest


def test_a_draw_is_a_share_and_an_unfinished_game_is_none():
    assert share_of(0, [], 2) == 0.5
    assert share_of(1, [0, 1], 3) == 0.5
    assert share_of(2, [0, 1], 3) == 0.0
    assert share_of(0, None, 2) == 0.0


def test_the_gauntlet_logs_each_game_and_sums_them_up(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    argv = ["--log", str(log), "--games", "2", "--only", "connect_four", "--against",
            "thumb", "--agent", "random"]
    assert gauntlet.main(argv) == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["g"] for r in records] == [0, 1]
    assert [r["a_seat"] for r in records] == [0, 1]  # seats rotate
    assert all(len(r["times"]) == len(r["options"]) for r in records)
    assert all(r["capped"] == 0 for r in records)  # random is never cut short by a cap
    assert gauntlet.main(argv) == 0  # a restart finds the match played
    assert len(log.read_text().splitlines()) == 2
    capsys.readouterr()
    assert gauntlet.main(["--summary", str(log)]) == 0
    table = capsys.readouterr().out.splitlines()
    row = next(line for line in table if line.startswith("| connect_four"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    share = sum(r["share"] for r in records) / 2
    assert cells[:5] == ["connect_four (`random`)", "2", "thumb", "2", f"{share:.0%}"]
    assert cells[7] == "65%"
    assert cells[12] == "0"  # moves the CPU cap cut short


def test_two_logs_are_compared_deal_for_deal(tmp_path, capsys):
    """`--summary AFTER --paired BEFORE`: the deals both played, each side's wins on them,
    the deals one did better on and the sign test; another agent on the same match pairs."""
    def log(name, agent, shares):
        path = tmp_path / name
        path.write_text("".join(json.dumps({"g": g, "share": s, "match":
                                            f"gops|2|{agent}|greedy"}) + "\n"
                                for g, s in enumerate(shares)))
        return str(path)
    before = log("before.jsonl", "ismcts", [1, 0, 0, 0.5, 1, 0, 1])
    after = log("after.jsonl", "ismcts:rival=0", [1, 1, 1, 1, 1, 1])  # deal 6 not played
    assert gauntlet.main(["--summary", after, "--paired", before]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "gops" in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells == ["gops", "2", "greedy", "0-5", "2.5", "6", "4 better, 0 worse",
                     "p = 0.12"]
    assert gauntlet.sign_test(4, 0) == 0.125 and gauntlet.sign_test(0, 0) == 1.0
    assert gauntlet.sign_test(14, 5) == pytest.approx(0.0636, abs=1e-4)


def test_the_bar_and_the_verdict():
    assert gauntlet.bar(2) == 0.65 and gauntlet.bar(4) == 1.5 / 4
    assert gauntlet.verdict(0.70, 0.85, 0.65) == "met"
    assert gauntlet.verdict(0.50, 0.80, 0.65) == "open"
    assert gauntlet.verdict(0.30, 0.60, 0.65) == "missed"


def test_in_a_cooperative_game_a_team_of_the_agent_meets_a_team_of_the_other_kind():
    from arena import one_game
    game = rulesdsl.load(str(ROOT / "tests" / "agents" / "rules" / "cooperative_score.rules"))
    # the same agents on the same deal play the same game: neither team did better
    alike = [one_game(game, 2, g, "random", "random") for g in range(4)]
    assert all(r["share"] == 0.5 and r["team"] == r["baseline"] for r in alike)
    # a team that always launches scores the most; a random team, less wherever it waited
    played = [one_game(game, 2, g, "ismcts:iterations=60", "random") for g in range(6)]
    for r in played:
        assert r["team"] == [0, 4.0]
        assert r["share"] == (1.0 if r["baseline"] < [0, 4.0] else 0.5)
    assert any(r["share"] == 1.0 for r in played)


def test_a_game_record_keeps_every_seats_final_score():
    from arena import one_game
    game = rulesdsl.load("triumvirat")
    r = one_game(game, 2, 0, "random", "random")
    assert r["winners"] is not None and len(r["scores"]) == 2
    # the winner scored the most (Triumvirat: the highest score wins)
    assert all(r["scores"][w] == max(r["scores"]) for w in r["winners"])


def test_each_record_names_the_code_that_played_it_and_the_table_never_merges_codes_unseen(
        tmp_path, capsys):
    import arena
    game = rulesdsl.load(str(ROOT / "examples" / "connect_four.rules"))
    code = arena.code_of(game)
    engine, rules = code.split(":")
    assert len(engine) == 12 and rules == game.source_hash[:12]
    log = tmp_path / "g.jsonl"
    argv = ["--log", str(log), "--games", "2", "--only", "connect_four", "--against",
            "thumb", "--agent", "random"]
    assert gauntlet.main(argv) == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["code"] for r in records] == [code, code]
    # a game of other code in the same match: the row says so, and --code keeps one code
    other = dict(records[0], g=2, code="0123456789ab:" + rules)
    with open(log, "a") as f:
        f.write(json.dumps(other) + "\n")

    def row(*extra):
        capsys.readouterr()
        assert gauntlet.main(["--summary", str(log), *extra]) == 0
        line = next(x for x in capsys.readouterr().out.splitlines()
                    if x.startswith("| connect_four"))
        return [c.strip() for c in line.strip("|").split("|")]
    assert row()[3] == "3" and row()[-1] == "2 codes merged"
    assert row("--code", engine)[3] == "2" and row("--code", engine)[-1] == code[:8]
    assert row("--code", "0123")[3] == "1"
