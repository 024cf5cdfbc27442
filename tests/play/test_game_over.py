"""The game-over screen, built from the game's own display: the final board or table, the
scores in the game's unit with thousands separators, each player's place."""

from __future__ import annotations

import re

from rulesdsl import cli


def finish(capsys, *args) -> str:
    code = cli.main(["play", *args, "--seed", "2", "--plain"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out[out.index("the final table:"):]


def test_intrige_shows_every_players_ducats_to_check_the_result(capsys):
    end = finish(capsys, "intrige", "--seats", "random,random,random")
    # each seat's ducats in the final table, and the scores in ducats, all with separators
    assert len(re.findall(r"ducats: \d{1,3}(?:,\d{3})+", end)) == 3, end
    assert re.search(r"^ducats: P1: \d{1,3}(,\d{3})+, P2: ", end, re.M), end
    places = re.findall(r"^  (\d)\. (P\d) +([\d,]+) ducats", end, re.M)
    assert [p for p, _, _ in places] == ["1", "2", "3"], end
    values = [int(v.replace(",", "")) for _, _, v in places]
    assert values == sorted(values, reverse=True)
    assert re.search(r"^  1\. .* won$", end, re.M), end


def test_reversi_shows_its_last_board_with_the_last_move(capsys):
    end = finish(capsys, "reversi", "--seats", "random,random")
    board = end[:end.index("game over after")]
    assert board.count("●") + board.count("○") >= 40 and "[" in board, end
    assert re.search(r"^  1\. P\d +\d+  \(random\)  won", end, re.M), end


def test_places_follow_the_winners_way_of_counting():
    import rulesdsl
    from rulesdsl.play.runner import Runner
    game = rulesdsl.load("sevens")
    runner = Runner(game.new_game(players=3, seed=1), ["human", "random", "random"], game=game)

    def order(scores, winners):
        return [re.search(r"P\d", "".join(t for t, _ in line)).group()
                for line in runner.standings(scores, winners, "")]
    assert order([2, 1, 0], [2]) == ["P3", "P2", "P1"]        # fewest points wins
    assert order([5, 9, 7], [1]) == ["P2", "P3", "P1"]        # most points wins
