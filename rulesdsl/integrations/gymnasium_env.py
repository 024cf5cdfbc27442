"""Gymnasium: one seat of any game as a single-agent environment, the other seats played
by rulesdsl agents (`pip install "rulesdsl[gymnasium]"`).

    from rulesdsl.integrations.gymnasium_env import SingleAgentEnv
    env = SingleAgentEnv("examples/connect_four.rules", seat=0, opponent="greedy")
    obs, info = env.reset(seed=7)
    action = env.action_space.sample(obs["action_mask"])
    obs, reward, terminated, truncated, info = env.step(action)

Observations, the action space and the mask are PettingZoo's (`rulesdsl.integrations
.pettingzoo`, the layouts in `rulesdsl.integrations.encoding`); `action_masks()` gives
the mask as sb3-contrib's MaskablePPO asks for it. The reward comes at the end: the
seat's payoff (`State.payoffs`: the file's `payoff`, else a sole winner +1, each loser
-1/(n-1)). `opponent` is an
agent name or seat spec ("random", "greedy", "ismcts:easy"), one per other seat in a
list, or an object with `choose(state)`; an agent made by name is made again at each
reset with a seed drawn from the reset's, so the same seed plays the same game.
An id whose mask entry is 0 is refused (IllegalAction), the game unchanged.
With `chance="explicit"` the game's random events (a card drawn, a roll, a random pick)
are the environment's randomness: each is drawn by its probabilities with the
environment's own `np_random`, seeded by `reset(seed)` (by default the engine draws them
from a seed drawn from it).
"""

from __future__ import annotations

from typing import Optional

import gymnasium
import numpy as np

from rulesdsl.agents import make_agent
from rulesdsl.integrations.pettingzoo import RulesEnv


class SingleAgentEnv(gymnasium.Env):
    """One seat of a game; the others answer at once with the given agents."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game, seat: int = 0, opponent="random", players: Optional[int] = None,
                 options: Optional[dict] = None, amount_slots: int = 64,
                 render_mode: Optional[str] = None, chance: Optional[str] = None):
        self.table = RulesEnv(game, players, options, amount_slots, render_mode, chance)
        self.players = self.table.players
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} is not a seat of a {self.players}-player game")
        self.seat = seat
        self.agent = f"player_{seat}"
        self.observation_space = self.table.observation_space(self.agent)
        self.action_space = self.table.action_space(self.agent)
        self.render_mode = render_mode
        others = [p for p in range(self.players) if p != seat]
        specs = opponent if isinstance(opponent, (list, tuple)) else [opponent] * len(others)
        if len(specs) != len(others):
            raise ValueError(f"{len(specs)} opponents given for {len(others)} other seats")
        self.specs = dict(zip(others, specs))
        self.opponents: dict = {}

    @property
    def state(self):
        """The engine's state of the game being played (omniscient: for tests, not play)."""
        return self.table.state

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(1 << 31))
        self.opponents = {p: make_agent(spec, seed=game_seed + p + 1) if
                          isinstance(spec, str) else spec for p, spec in self.specs.items()}
        self.table.start(game_seed, options, self.np_random)
        self._others_play()
        return self._observe(), self._info()

    def step(self, action):
        self.table.step(int(action))
        self._others_play()
        st = self.table.state
        reward = st.payoffs[self.seat]  # 0 until the game is over
        return self._observe(), float(reward), st.is_over, False, self._info()

    def _others_play(self) -> None:
        """The other seats' choices, until this seat must decide or the game is over."""
        st = self.table.state
        while not st.is_over and st.to_move != self.seat:
            chosen = self.opponents[st.to_move].choose(st)
            self.table.step_label(getattr(chosen, "label", chosen))

    def _observe(self) -> dict:
        return self.table.observe(self.agent)

    def _info(self) -> dict:
        return {"action_mask": self.table.observe(self.agent)["action_mask"]}

    def action_masks(self) -> np.ndarray:
        """The legal ids now, as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self._info()["action_mask"].astype(bool)

    def action_label(self, action: int) -> Optional[str]:
        """The engine's label of an id legal now, or None."""
        return self.table.action_label(action)

    def render(self):
        return self.table.render()
