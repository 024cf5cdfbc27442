"""Agents: things that choose an action at a decision, through the public API only.

    agent = make_agent("random", seed=7)
    state.apply(agent.choose(state))
"""

from __future__ import annotations

from typing import Callable

from rulesdsl.agents.random_agent import RandomAgent

# name -> factory(seed) -> agent with choose(state) -> Action
AGENTS: dict[str, Callable[[int], object]] = {
    "random": RandomAgent,
}


def agent_names() -> list[str]:
    """The names `make_agent` knows, sorted."""
    return sorted(AGENTS)


def make_agent(name: str, seed: int):
    """A new agent by name; an unknown name is a RulesError (C002) listing the known ones."""
    factory = AGENTS.get(name)
    if factory is None:
        from rulesdsl.lang.errors import RulesError, did_you_mean
        known = ", ".join(agent_names())
        raise RulesError("C002", f"unknown agent '{name}'; known agents: {known}",
                         hints=did_you_mean(name, AGENTS))
    return factory(seed)


__all__ = ["AGENTS", "RandomAgent", "agent_names", "make_agent"]
