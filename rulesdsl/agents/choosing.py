"""What every agent does first: take the decision's legal actions."""

from __future__ import annotations

from rulesdsl.lang.errors import RulesError


def actions_to_choose(state) -> list:
    """The legal actions an agent chooses among. None at all is R019, the code the engine
    gives a decision without a legal option (it stops there first, so an agent meets one
    only in a state made some other way)."""
    actions = state.legal_actions()
    if not actions:
        raise RulesError("R019", "the game asked for a decision with no legal action",
                         hints=["add an option that is always open, such as \"pass\", or "
                                "check before asking"])
    return actions
