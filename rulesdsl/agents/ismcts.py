"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
2012) over `Knowledge.sample`: one tree for the mover's information set; each iteration
samples a full state from what the mover knows, walks the tree with UCB1 over the actions
available in that sample, adds one node, plays on at random and backs the outcome up.

A node's statistics are from the point of view of the player who moved into it, so every
player in the tree plays to win; rewards are win shares at the end of the game, or the
scaled scores when a playout is cut short.
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
            return actions[0]
        me = state.to_move
        knowledge = Knowledge(state, me)
        sign = score_sign(state)
        root = _Node(None)
        rng = self.rng
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.iterations
        done = 0
        while (budget is None or done < budget) and \
                (deadline is None or time.perf_counter() < deadline or done == 0):
            self._iterate(root, knowledge.sample(rng.getrandbits(63)), sign)
            done += 1
        self.last_iterations = done
        by_label = root.children
        return max(actions, key=lambda a: (by_label[a.label].visits, by_label[a.label].total)
                   if a.label in by_label else (-1, 0.0))

    def _iterate(self, root: _Node, s, sign: int) -> None:
        rng = self.rng
        c = self.exploration
        node = root
        path = [root]
        # selection: down the tree while every available action has a node
        while not s.is_over:
            labels = [a.label for a in s.legal_actions()]
            children = node.children
            untried = [lb for lb in labels if lb not in children]
            if untried:
                label = untried[rng.randrange(len(untried))]
                mover = s.to_move
                s.apply(label)
                child = children[label] = _Node(mover)
                child.avail = 1
                for lb in labels:
                    if lb != label and lb in children:
                        children[lb].avail += 1
                path.append(child)
                break
            best, best_value = None, -1.0
            for lb in labels:
                ch = children[lb]
                ch.avail += 1
                value = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if value > best_value:
                    best, best_value = lb, value
            s.apply(best)
            node = children[best]
            path.append(node)
        # playout
        cap = self.playout_cap
        steps = 0
        while not s.is_over and (cap is None or steps < cap):
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
            steps += 1
        reward = rewards(s, sign)
        for n in path:
            n.visits += 1
            if n.player is not None:
                n.total += reward[n.player]

    def __repr__(self) -> str:
        return (f"ISMCTSAgent(seed={self.seed!r}, level={self.level!r}, "
                f"iterations={self.iterations!r}, seconds={self.seconds!r})")
