"""Examples written with the newer constructs (simultaneous decisions, options of several
values, dice, grids): each checks, plays to its end with computer seats for many seeds
and every player count, and its key rules hold."""

import pytest

from _play import load
from rulesdsl.agents.random_agent import RandomAgent


def play_out(state, seed, each_step=None, limit=20_000):
    """Computer seats (random agents, one per seat) play the game to its end."""
    agents = [RandomAgent(seed * 31 + q) for q in range(state.players)]
    steps = 0
    while not state.is_over:
        if each_step:
            each_step(state)
        actions = state.legal_actions()
        assert actions and len({a.label for a in actions}) == len(actions)
        state.apply(agents[state.to_move].choose(state))
        steps += 1
        assert steps < limit
    return state


def labels(s):
    return [a.label for a in s.legal_actions()]


# ---------------------------------------------------------------- Liar's Dice

def test_liars_dice_plays_to_the_end():
    game = load("liars_dice")
    for players in range(2, 7):
        for seed in range(6 if players > 3 else 15):
            def cups_stay_private(s):
                for q in range(players):
                    names = [n for n in s.view(q)["vars"] if n.startswith("cup")]
                    assert names == [f"cup[P{q + 1}]"]
            s = play_out(game.new_game(players, seed=seed), seed,
                         cups_stay_private if seed < 2 else None)
            alive = [q for q in range(players) if s.var(f"dice[P{q + 1}]") > 0]
            assert s.winners == alive and len(alive) == 1
            # every round but the last took one die: 5 per player, one left
            lost = sum(1 for line in s.log if "loses a die" in line)
            assert lost == 5 * players - s.var(f"dice[P{alive[0] + 1}]")


WORDS = "zero one two three four five six seven eight nine ten eleven".split()


def showing(s, players, face):
    return sum(s.var(f"cup[P{q}]").count(face) for q in range(1, players + 1))


@pytest.mark.parametrize("seed", range(8))
def test_liars_dice_a_true_bid_costs_the_caller_a_false_one_the_bidder(seed):
    game = load("liars_dice")
    for extra, loser in ((0, 1), (1, 0)):  # the bid is exactly true, or one too many
        s = game.new_game(2, seed=seed)
        n = showing(s, 2, 5) + extra
        if n == 0:
            continue
        s.apply(f"bid {WORDS[n]} fives")
        s.apply("liar")
        assert s.var(f"dice[P{loser + 1}]") == 4 and s.var(f"dice[P{2 - loser}]") == 5
        assert s.log[-1] == f"{n - extra} dice show fives: P{loser + 1} loses a die"
        assert s.to_move == loser  # the loser starts the next round


def test_liars_dice_a_bid_must_raise_the_last():
    game = load("liars_dice")
    s = game.new_game(3, seed=1)
    first = labels(s)
    assert len(first) == 15 * 6 and first[0] == "bid one ones" and "liar" not in first
    assert first[-1] == "bid fifteen sixes"  # quantities in words (the words built-in)
    s.apply("bid four threes")
    after = labels(s)
    assert after[:3] == ["bid four fours", "bid four fives", "bid four sixes"]
    assert "bid four threes" not in after and "bid three sixes" not in after
    assert after[-1] == "liar" and len(after) == 3 + 11 * 6 + 1
    assert s.view(1)["log"] == ["P1 chooses bid four threes"]  # bids are public, dice not


# ---------------------------------------------------------------- grids: Reversi, Connect Four

CELLS_8 = [f"{x}{y}" for y in range(1, 9) for x in "abcdefgh"]


def board(s, cells):
    return {c: s.var(f"disc[{c}]") for c in cells}


def test_reversi_plays_to_the_end():
    game = load("reversi")
    for seed in range(12):
        before = {}

        def every_move_flips(s):
            if before:
                now = board(s, CELLS_8)
                mover = before["to_move"]
                gained = [c for c in CELLS_8 if now[c] == mover and before["disc"][c] != mover]
                lost = [c for c in CELLS_8 if before["disc"][c] is not None and
                        now[c] != before["disc"][c]]
                if gained:  # a move (not a pass): one new disc and at least one flipped
                    assert len(gained) >= 2 and len(lost) == len(gained) - 1
            before.update(disc=board(s, CELLS_8), to_move=s.to_move)
        s = play_out(game.new_game(2, seed=seed), seed, every_move_flips if seed < 3 else None)
        discs = board(s, CELLS_8)
        counts = [sum(1 for v in discs.values() if v == q) for q in (0, 1)]
        assert s.scores == counts
        assert s.winners == [q for q in (0, 1) if counts[q] == max(counts)]
        assert sum(counts) <= 64


def test_reversi_the_opening_moves_and_a_flip():
    game = load("reversi")
    s = game.new_game(2)
    assert sorted(labels(s)) == ["c4", "d3", "e6", "f5"]
    s.apply("d3")
    assert s.var("disc[d4]") == 0 and s.var("disc[d3]") == 0  # d4 is flipped
    assert sorted(labels(s)) == ["c3", "c5", "e3"]


def test_reversi_a_player_without_a_move_passes_and_two_passes_end_it():
    game = load("reversi")
    empty = {f"disc[{c}]": None for c in ("d4", "e5", "d5", "e4")}
    s = game.new_game(2, scenario={"vars": {**empty, "disc[a1]": "P1", "disc[b1]": "P2"}})
    assert labels(s) == ["c1"]
    s.apply("c1")  # P2 has no disc left: neither can move
    assert s.log[-3:-1] == ["P2 cannot move and passes", "P1 cannot move and passes"]
    assert s.is_over and s.winners == [0] and s.scores == [3, 0]


CELLS_7 = [f"{x}{y}" for y in range(1, 7) for x in "abcdefg"]


def four_in_a_line(discs, q):
    for c in CELLS_7:
        x, y = ord(c[0]) - 97, int(c[1:])
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            line = [f"{chr(97 + x + k * dx)}{y + k * dy}" for k in range(4)]
            if all(discs.get(n) == q for n in line):
                return True
    return False


def test_connect_four_plays_to_the_end():
    game = load("connect_four")
    for seed in range(40):
        s = play_out(game.new_game(2, seed=seed), seed)
        discs = board(s, CELLS_7)
        for c in CELLS_7:  # discs lie on the bottom or on another disc
            below = f"{c[0]}{int(c[1:]) - 1}"
            assert discs[c] is None or c[1:] == "1" or discs[below] is not None
        if s.winners:
            (w,) = s.winners
            assert four_in_a_line(discs, w) and not four_in_a_line(discs, 1 - w)
        else:
            assert all(v is not None for v in discs.values())


def test_connect_four_discs_fall_and_four_win():
    game = load("connect_four")
    s = game.new_game(2)
    assert labels(s) == [f"{x}1" for x in "abcdefg"]
    for move in ("a1", "b1", "a2", "b2", "a3"):
        s.apply(move)
    assert labels(s) == ["a4", "b3", "c1", "d1", "e1", "f1", "g1"]
    s.apply("b3")
    s.apply("a4")  # four up column a
    assert s.is_over and s.winners == [0]
    s = game.new_game(2)
    for move in ("a1", "a2", "b1", "b2", "c1", "c2"):
        s.apply(move)
    s.apply("d1")  # four across
    assert s.is_over and s.winners == [0]


# ---------------------------------------------------------------- Skull

def test_skull_plays_to_the_end():
    game = load("skull")
    for players in range(3, 7):
        for seed in range(10):
            s = play_out(game.new_game(players, seed=seed), seed)
            (w,) = s.winners
            alive = [q for q in range(players)
                     if s.zone(f"hand[P{q + 1}]") or s.zone(f"mat[P{q + 1}]")]
            assert s.var(f"wins[P{w + 1}]") == 2 or alive == [w]
            for q in range(1, players + 1):  # four discs each, wherever they are
                assert sum(len(s.zone(f"{z}[P{q}]")) for z in ("hand", "mat", "shown",
                                                                  "lost")) == 4


def test_skull_the_first_discs_are_laid_at_once():
    game = load("skull")
    s = game.new_game(3)
    assert labels(s) == ["flower", "skull"]
    s.apply("skull")
    assert s.to_move == 1 and s.zone("mat[P1]") == []  # nothing is laid until all have
    assert s.view(1)["log"] == ["P1 has chosen"]
    s.apply("flower")
    s.apply("flower")
    assert [s.zone(f"mat[P{q}]") for q in (1, 2, 3)] == [["skull"], ["flower"], ["flower"]]
    assert s.view(1)["zones"]["mat[P1]"] == {"count": 1}  # face down
    assert s.view(1)["log"][-3:] == ["hand[P1] -> mat[P1]: 1 card",
                                     "hand[P2] -> mat[P2]: flower",
                                     "hand[P3] -> mat[P3]: 1 card"]
    assert labels(s) == ["flower", "bet 1", "bet 2", "bet 3"]  # P1 starts the bidding


def test_skull_a_challenge_won_and_one_lost():
    game = load("skull")
    s = game.new_game(3)
    for move in ("flower", "flower", "flower", "bet 3"):  # every disc: no more bidding
        s.apply(move)
    assert s.zone("shown[P1]") == ["flower"]  # the challenger's own disc first
    assert labels(s) == ["turn up P2", "turn up P3"]
    s.apply("turn up P3")
    s.apply("turn up P2")
    assert s.var("wins[P1]") == 1 and s.log[-1] == \
        "P1 turns up 3 flowers and wins the challenge"
    assert all(len(s.zone(f"hand[P{q}]")) == 4 for q in (1, 2, 3))  # discs taken back
    for move in ("flower", "skull", "flower", "bet 2", "pass", "pass", "turn up P2"):
        s.apply(move)
    assert s.log[-2] == "P1 turns up the skull of P2 and loses a disc"
    assert s.view(1)["log"][-1] == "hand[P1] -> lost[P1]: 1 card"  # which one is secret
    assert len(s.zone("lost[P1]")) == 1 and len(s.zone("hand[P1]")) == 3
    assert s.view(1)["zones"]["lost[P1]"] == {"count": 1}


# ---------------------------------------------------------------- Oh Hell

def test_oh_hell_plays_to_the_end_with_shrinking_hands():
    game = load("oh_hell")
    for players in range(3, 8):
        for seed in range(3):
            def follows_suit(s):
                trick = s.zone("trick")
                if trick and s.to_move is not None:
                    hand = s.zone(f"hand[P{s.to_move + 1}]")
                    suit = trick[0].split(" of ")[1]
                    if any(c.endswith(" of " + suit) for c in hand):
                        assert all(a.endswith(" of " + suit) for a in labels(s))
            s = play_out(game.new_game(players, seed=seed), seed,
                         follows_suit if seed == 0 else None)
            first = min(10, 51 // players)
            sizes = [int(line.split()[0]) for line in s.log if "cards each; trumps" in line]
            assert sizes == list(range(first, 0, -1))
            totals = [s.var(f"total[P{q}]") for q in range(1, players + 1)]
            assert s.scores == totals
            assert s.winners == [q for q in range(players) if totals[q] == max(totals)]


def test_oh_hell_the_dealer_may_not_make_the_bids_fit():
    game = load("oh_hell")
    s = game.new_game(3, seed=2)  # 10 cards each; P1 deals, P2 bids first
    assert s.to_move == 1 and labels(s) == [f"bid {k}" for k in range(11)]
    s.apply("bid 4")
    s.apply("bid 3")
    assert s.to_move == 0 and "bid 3" not in labels(s) and len(labels(s)) == 10
    assert s.var("bid[P1]") is None  # not yet bid: none
    s.apply("bid 0")
    assert s.to_move == 1  # the dealer's left leads


def test_oh_hell_an_exact_bid_scores_ten_plus_the_bid():
    game = load("oh_hell")
    for seed in range(4):
        s = play_out(game.new_game(4, seed=seed), seed)
        running = {q: 0 for q in ("P1", "P2", "P3", "P4")}
        made = 0
        for line in s.log:
            if " took " in line:  # "P2 bid 3, took 3: 25 points"
                who, _, bid, _, took, points, _ = line.replace(",", "").replace(":", "").split()
                if bid == took:
                    running[who] += 10 + int(bid)
                    made += 1
                assert int(points) == running[who]
        assert [running[f"P{q}"] for q in (1, 2, 3, 4)] == s.scores
        assert made > 0
