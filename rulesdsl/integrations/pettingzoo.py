"""PettingZoo: any game as an AEC environment (`pip install "rulesdsl[pettingzoo]"`).

    from rulesdsl.integrations.pettingzoo import env
    e = env("examples/hearts.rules", players=4, options={})
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are "player_0" .. "player_{n-1}" (seat order). An observation is a dict:
"observation", the seat's view as numbers, and "action_mask", 1 for each action id legal
now for that agent (all zeros for an agent not to move). The layouts are derived from the
declarations and documented in `rulesdsl.integrations.encoding`; `e.action_label(id)`
gives the engine's label of a legal id, `e.unwrapped.actions.describe(id)` any id in words.
Rewards come at the end only: the state's payoffs (`State.payoffs`: the file's `payoff`,
else a sole winner +1, each loser -1/(n-1), zero-sum).

Random events are the environment's randomness. By default the engine draws them from
the reset's seed. With `chance="explicit"` the engine stops at each one (a card drawn
from a shuffled pile, a roll, a random pick; engine/state/chance.py) and the environment draws its outcome
by the event's probabilities with its own `np_random`, seeded by `reset(seed)`; the drawn
outcomes are in `e.unwrapped.state.history` among the choices, never in an observation.
"""

from __future__ import annotations

import random
from typing import Optional

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

import rulesdsl
from rulesdsl.integrations.encoding import VALUE_LIMIT, ActionSpace, ObservationEncoder


class RulesEnv(AECEnv):
    """An AEC environment over one game at a fixed player count."""

    metadata = {"render_modes": ["ansi"], "name": "rulesdsl", "is_parallelizable": False}

    def __init__(self, game, players: Optional[int] = None, options: Optional[dict] = None,
                 amount_slots: int = 64, render_mode: Optional[str] = None,
                 chance: Optional[str] = None):
        super().__init__()
        self.chance = chance
        self.game = game if isinstance(game, rulesdsl.Game) else rulesdsl.load(game, options)
        self.players = players or self.game.min_players
        self.game.new_game(self.players, seed=0)          # checks the player count
        prog = self.game.program(self.players)
        self.actions = ActionSpace(prog, amount_slots, self.game.model)
        self.encoder = ObservationEncoder(prog, self.actions)
        self.metadata = dict(self.metadata, name=f"rulesdsl_{self.game.source_name}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self._action_space = {a: spaces.Discrete(self.actions.size)
                              for a in self.possible_agents}
        self._observation_space = {a: spaces.Dict({
            "observation": spaces.Box(-VALUE_LIMIT, VALUE_LIMIT, (self.encoder.size,),
                                      np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8)})
            for a in self.possible_agents}
        self.state = None
        self._legal: dict = {}

    def observation_space(self, agent):
        return self._observation_space[agent]

    def action_space(self, agent):
        return self._action_space[agent]

    # ------------------------------------------------------------ the AEC cycle
    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is None:
            seed = random.randrange(1 << 31)
        self.start(seed, options, seeding.np_random(seed)[0])

    def start(self, seed: int, options: Optional[dict], np_random) -> None:
        """Reset with the game's seed and the generator that draws the random events
        (chance="explicit"): a wrapper passes its own."""
        self.np_random = np_random
        self.state = self.game.new_game(self.players, seed=seed,
                                        scenario=(options or {}).get("scenario"),
                                        chance=self.chance)
        self._draw_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        label = self._legal.get(int(action))
        if label is None:
            raise rulesdsl.IllegalAction(
                f"action {int(action)} ({self.actions.describe(int(action))}) is not legal "
                f"for {agent} now", ["choose an id whose action_mask entry is 1"])
        self.step_label(label)

    def step_label(self, label: str) -> None:
        """Step with the engine's label for the agent to move, as `step` does with its id
        (a label with no id too: an amount past `amount_slots`, chosen by a script or an
        agent). Illegal -> IllegalAction, and nothing changes."""
        self.state.apply(label)
        self._draw_chance()
        self._cumulative_rewards[self.agent_selection] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_over:
            for a, r in zip(self.possible_agents, self.state.payoffs):
                self.rewards[a] = r
            self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self._after_move()

    def _draw_chance(self) -> None:
        """Resolve the random events the state stops at (chance="explicit"), each outcome
        drawn by its probability with the environment's generator."""
        st = self.state
        while st.is_chance:
            outcomes = st.chance_outcomes()
            k = self.np_random.choice(len(outcomes), p=[p for _, p in outcomes])
            st.apply(outcomes[int(k)][0])

    def _after_move(self):
        st = self.state
        if st.is_over:
            self._legal = {}
            self.agent_selection = self.agents[0]
            self._deads_step_first()
        else:
            self._legal = self.actions.legal(st)
            self.agent_selection = self.possible_agents[st.to_move]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.actions.size, np.int8)
        if not self.state.is_over and self.state.to_move == seat:
            mask[list(self._legal)] = 1
        return {"observation": np.asarray(self.encoder.encode(self.state, seat), np.float32),
                "action_mask": mask}

    def action_label(self, action: int) -> Optional[str]:
        """The engine's label of an id legal now, or None."""
        return self._legal.get(int(action))

    def render(self):
        if self.render_mode != "ansi" or self.state is None:
            return None
        st = self.state
        if st.is_over:
            return "over; winners: " + ", ".join(f"P{w + 1}" for w in st.winners)
        return f"P{st.to_move + 1} to move: " + ", ".join(self._legal.values())

    def close(self):
        pass


def env(game, players: Optional[int] = None, options: Optional[dict] = None,
        amount_slots: int = 64, render_mode: Optional[str] = None,
        chance: Optional[str] = None) -> RulesEnv:
    """The environment for a bundled game's name, a .rules path or a loaded Game;
    `chance="explicit"`: random events drawn by the environment (the module's doc)."""
    return RulesEnv(game, players, options, amount_slots, render_mode, chance)
