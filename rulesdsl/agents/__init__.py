"""Agents: things that choose an action at a decision, through the public API only.

    agent = make_agent("ismcts", seed=7, level="hard")   # or iterations=500, seconds=2
    state.apply(agent.choose(state))

Every agent decides from what the mover may know: whatever looks at more than the legal
actions works on `state.determinize(mover, seed)`, never on the real hidden parts.
"""

from __future__ import annotations

from typing import Callable

from rulesdsl.agents.greedy import GreedyAgent
from rulesdsl.agents.ismcts import LEVELS, ISMCTSAgent
from rulesdsl.agents.random_agent import RandomAgent

# name -> factory(seed, **params) -> agent with choose(state) -> Action
AGENTS: dict[str, Callable[..., object]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "ismcts": ISMCTSAgent,
}


def agent_names() -> list[str]:
    """The names `make_agent` knows, sorted."""
    return sorted(AGENTS)


def make_agent(name: str, seed: int, **params):
    """A new agent by name, or by seat spec ("ismcts:hard", "ismcts:iterations=500");
    an unknown name or parameter is a RulesError (C002) that says what is known."""
    from rulesdsl.lang.errors import RulesError, did_you_mean
    if isinstance(name, str) and ":" in name:
        from rulesdsl.agents.seats import parse_spec
        name, given = parse_spec(name)
        params = {**given, **params}
    factory = AGENTS.get(name)
    if factory is None:
        known = ", ".join(agent_names())
        raise RulesError("C002", f"unknown agent '{name}'; known agents: {known}",
                         hints=did_you_mean(name, AGENTS))
    try:
        return factory(seed, **params)
    except TypeError:
        import inspect
        accepted = [p for p in inspect.signature(factory).parameters if p != "seed"]
        # name only the settings it does not take, not every one given
        unknown = sorted(p for p in params if p not in accepted) or sorted(params)
        raise RulesError("C002", f"agent '{name}' does not take {', '.join(unknown)}",
                         hints=[f"it takes: {', '.join(accepted)}" if accepted else
                                f"'{name}' takes no settings"]) from None


__all__ = ["AGENTS", "LEVELS", "GreedyAgent", "ISMCTSAgent", "RandomAgent", "agent_names",
           "make_agent"]
