"""Definitions that call themselves (`define steps(n: int) = if n == 0 then 0 else
1 + steps(n - 1)`), bounded: a chain of such calls at most MAX_DEPTH deep (R004), and at
most the program's step limit of them in one outermost call (R003), so a mistake ends in a
clear error, never in a hang or a crash.
"""

from __future__ import annotations

from typing import Callable

from rulesdsl.lang.errors import RuntimeRulesError

MAX_DEPTH = 100  # each level costs several Python frames; Python's own limit is ~1000


def recursive_call(cache: dict, name: str, args: list, span) -> Callable:
    """A call of definition `name` from inside its own body (or a definition it calls),
    made while the body is still being compiled: the compiled definition is read from
    `cache` (name -> (its value on a filled frame, frame size)) when the call runs."""
    counter = [0, 0]  # depth, calls since the outermost recursive call began

    def call(st, L):
        value, size = cache[name]
        env = [None] * size
        for i, a in enumerate(args):
            env[i] = a(st, L)
        if counter[0] >= MAX_DEPTH:
            raise RuntimeRulesError("R004", f"definition {name} calls itself more than "
                                    f"{MAX_DEPTH} deep", span,
                                    ["check that every call comes closer to the case that "
                                     "does not call again"])
        if counter[0] == 0:
            counter[1] = 0
        counter[1] += 1
        step_limit = st.prog.step_limit if st is not None else 1_000_000  # (decks)
        if counter[1] > step_limit:
            raise RuntimeRulesError("R003", f"definition {name} called itself more than "
                                    f"{step_limit:,} times", span,
                                    ["a definition that calls itself twice each time grows "
                                     "fast: compute the values in a phase with a loop"])
        counter[0] += 1
        try:
            return value(st, env)
        finally:
            counter[0] -= 1
    return call
