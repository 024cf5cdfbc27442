"""What every part of the compiler reads: the checked rules, the number of players, the
options, the program being built and its work budget, and whether Python is generated."""

from __future__ import annotations

import copy

from rulesdsl.lang.check import Model
from rulesdsl.engine.hoist import Scanner
from rulesdsl.engine.compile.program import Program


class Unit:
    """One game compiled for one number of players and one choice of options."""

    def __init__(self, model: Model, nplayers: int, options: dict, generate: bool):
        self.m = model
        self.n = nplayers
        self.options = options
        self.p = Program(model.title, nplayers, dict(options),
                         {k: list(v.values) for k, v in model.enums.items()})
        self.b = self.p.budget
        self.scanner = Scanner(model)
        # inside a loop that keeps one memo (nodes.EachStart.memo): its statements set none
        self.facts_kept = 0
        self.kinds = list(model.kinds)  # kind names, in the order of their ids
        self.p.kind_names = self.kinds
        # False: closures only (the reference the tests compare); set once, never flipped
        self.generate = generate

    def closures_only(self) -> Unit:
        """The same game, for the parts that compile to closures only: the parts of
        generated code Python has no form for, or that nest past its parser."""
        unit = copy.copy(self)
        unit.generate = False
        return unit
