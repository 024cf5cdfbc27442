"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012) over
`Knowledge.sample`: each iteration samples a full state from what the mover knows, walks
down with UCB1 over the actions available in that sample, adds one node, plays on at
random and backs the outcome up.

The search keeps one tree per player (their "multiple-observer" variant): the player to
move chooses from its own tree, in which the others' moves appear as it saw them, so a
card bid face down does not tell the opponent's statistics what was bid. A node's
statistics are from the point of view of the player who moved into it; rewards are win
shares at the end of the game, or the scaled scores when a playout is cut short.
"""

from __future__ import annotations

import math
import random
import time

from rulesdsl.agents.outcome import rewards, score_sign
from rulesdsl.engine.determinize import Knowledge

# level -> (iterations, seconds): the time cap keeps slow games playable, the iteration
# count keeps fast ones from thinking longer than they need to
LEVELS = {
    "easy": (100, 0.25),
    "medium": (1500, 0.8),
    "hard": (10000, 4.0),
}


CHECK_EVERY = 16  # iterations between checks whether the search can stop early


class _Node:
    __slots__ = ("player", "visits", "total", "avail", "children")

    def __init__(self, player):
        self.player = player      # who chose the action leading here
        self.visits = 0
        self.total = 0.0
        self.avail = 0            # iterations in which this action could be chosen
        self.children = {}        # label -> _Node


class ISMCTSAgent:
    """ISMCTS with an iteration and/or time budget.

    iterations: at most this many samples per decision; seconds: stop after this long
    (None: no time cap, the search is then fully reproducible); exploration: UCB1's c;
    playout_cap: actions per playout before the scores judge it (None: play to the end).
    """

    name = "ismcts"

    def __init__(self, seed: int | None = None, level: str | None = None,
                 iterations: int | None = None, seconds: float | None = None,
                 exploration: float = 0.7, playout_cap: int | None = 200):
        if level is None and iterations is None and seconds is None:
            level = "medium"
        if level is not None:
            if level not in LEVELS:
                from rulesdsl.lang.errors import RulesError, did_you_mean
                raise RulesError("C002", f"unknown level '{level}' for ismcts; known: "
                                 f"{', '.join(LEVELS)}", hints=did_you_mean(level, LEVELS))
            li, ls = LEVELS[level]
            iterations = li if iterations is None else iterations
            seconds = ls if seconds is None else seconds
        self.level = level
        self.seed = seed
        self.rng = random.Random(seed)
        self.iterations = int(iterations) if iterations is not None else None
        self.seconds = float(seconds) if seconds is not None else None
        self.exploration = float(exploration)
        self.playout_cap = None if playout_cap in (None, 0) else int(playout_cap)
        self.last_iterations = 0

    def choose(self, state):
        actions = state.legal_actions()
        if not actions:
            from rulesdsl import RulesError
            raise RulesError("E900", "the game asked for a decision with no legal action")
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        me = state.to_move
        knowledge = Knowledge(state, me)
        sign = score_sign(state)
        roots = [_Node(None) for _ in range(state.players)]
        rng = self.rng
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.iterations
        stats = roots[me].children
        start = time.perf_counter()
        done = 0
        while (budget is None or done < budget) and \
                (deadline is None or time.perf_counter() < deadline or done == 0):
            self._iterate(roots, knowledge.sample(rng.getrandbits(63)), sign)
            done += 1
            if done % CHECK_EVERY == 0 and _settled(stats, me, actions, self._left(
                    done, budget, start, deadline)):
                break
        self.last_iterations = done
        return max(actions, key=lambda a: (stats[me, a.label].visits, stats[me, a.label].total)
                   if (me, a.label) in stats else (-1, 0.0))

    @staticmethod
    def _left(done: int, budget, start: float, deadline):
        """Iterations still to come: the budget's rest, or what the time left allows at
        the rate so far (None: no limit)."""
        left = None if budget is None else budget - done
        if deadline is not None:
            now = time.perf_counter()
            by_time = (deadline - now) * done / max(now - start, 1e-9)
            left = by_time if left is None else min(left, by_time)
        return left

    def _iterate(self, roots: list, s, sign: int) -> None:
        """One iteration over one tree per player (multiple-observer ISMCTS): each player
        chooses from its own tree, and the others' trees follow the move as they saw it,
        so no one's statistics depend on what it could not see (a card bid face down)."""
        rng = self.rng
        c = self.exploration
        n = len(roots)
        at = list(roots)
        paths = [[r] for r in roots]
        while not s.is_over:
            mover = s.to_move
            node = at[mover]
            labels = [a.label for a in s.legal_actions()]
            children = node.children
            mine = [(mover, lb) for lb in labels]
            for k in mine:
                if k in children:
                    children[k].avail += 1
            untried = [k for k in mine if k not in children]
            if untried:
                label = untried[rng.randrange(len(untried))][1]
            else:
                label, best_value = None, -1.0
                for k in mine:
                    ch = children[k]
                    value = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if value > best_value:
                        label, best_value = k[1], value
            before = len(s.events)
            s.apply(label)
            new = s.events[before:]
            for q in range(n):
                # keyed by who moved too: whose turn it is may differ between samples
                key = (mover, label if q == mover else _seen_as(s, new, q, label))
                child = at[q].children.get(key)
                if child is None:
                    child = at[q].children[key] = _Node(mover)
                    if q == mover:
                        child.avail = 1
                at[q] = child
                paths[q].append(child)
            if untried:
                break
        s.playout(rng, self.playout_cap)
        reward = rewards(s, sign)
        for path in paths:
            for node in path:
                node.visits += 1
                if node.player is not None:
                    node.total += reward[node.player]

    def __repr__(self) -> str:
        return (f"ISMCTSAgent(seed={self.seed!r}, level={self.level!r}, "
                f"iterations={self.iterations!r}, seconds={self.seconds!r})")


def _settled(stats: dict, me: int, actions: list, left) -> bool:
    """True when the most visited action cannot be overtaken in the iterations left: each
    iteration visits one root action, so more search would choose the same."""
    if left is None:
        return False
    first = second = 0
    for a in actions:
        node = stats.get((me, a.label))
        v = node.visits if node is not None else 0
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left


def _seen_as(s, new: list, q: int, label: str):
    """How seat q saw a move: its label when q could see everything the move showed, else
    what q saw of it up to the first thing hidden from q (later events are not told
    apart, as a player's own tree does not tell chance apart either)."""
    for i, e in enumerate(new):
        if s.render_log(e, q) != s.render_log(e):
            return ("hidden",) + tuple(s.render_log(x, q) for x in new[:i + 1])
    return label
