"""The work a decision may cost: one counter per budget, refilled when the engine starts
running toward the next decision (State.run, State._pending).

The step limit counts instructions; one instruction can still do unbounded work (a chain
of definitions, a sum over a range inside a comprehension, a move of many cards out of a
long pile). The compiled closures that can do such work spend from these counters; the
counting is a subtraction and a comparison at each such place, nothing on the plain path.
"""

from __future__ import annotations

from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.lang.limits import ENV, LONG_TEXT, limit


class Budget:
    __slots__ = ("work", "moves", "work_limit", "moves_limit", "list_length", "text_length",
                 "short_text", "texts", "texts_limit")

    def __init__(self):
        self.work_limit = limit("work")
        self.moves_limit = limit("moves")
        self.list_length = limit("list_length")
        self.text_length = limit("text_length")
        # a text up to this long is made without a call (the generated code compares with
        # it); a longer one goes through check_text, which counts it
        self.short_text = min(LONG_TEXT, self.text_length)
        self.texts_limit = limit("long_texts")
        self.work = self.work_limit
        self.moves = self.moves_limit
        self.texts = self.texts_limit

    def refill(self) -> None:
        self.work = self.work_limit
        self.moves = self.moves_limit
        self.texts = self.texts_limit

    def spend(self, n: int, span=None) -> None:
        self.work -= n
        if self.work < 0:
            self.work = 0
            raise RuntimeRulesError(
                "R005", f"the rules did more than {self.work_limit:,} units of work "
                "(definition calls, values visited) before the next decision", span,
                ["a definition may call others many times over: compute a value once with "
                 "'let'", f"a game that truly needs more can raise the limit: {ENV}=work=N"])

    def move(self, n: int, span=None) -> None:
        self.moves -= n
        if self.moves < 0:
            self.moves = 0
            raise RuntimeRulesError(
                "R006", f"the rules moved cards more than {self.moves_limit:,} times before "
                "the next decision", span,
                ["a loop may move the same cards back and forth without end",
                 f"a game that truly needs more can raise the limit: {ENV}=moves=N"])

    def check_list(self, items: list, span=None) -> list:
        if len(items) > self.list_length:
            raise RuntimeRulesError(
                "R007", f"a list grew to {len(items):,} items; the limit is "
                f"{self.list_length:,}", span,
                ["a list that doubles in a loop grows past any limit",
                 f"raise the limit with {ENV}=list_length=N"])
        self.spend(len(items), span)
        return items

    def check_text(self, text: str, span=None) -> str:
        if len(text) > self.text_length:
            raise RuntimeRulesError(
                "R008", f"a text grew to {len(text):,} characters; the limit is "
                f"{self.text_length:,}", span,
                [f"raise the limit with {ENV}=text_length=N"])
        self.texts -= len(text)
        if self.texts < 0:  # 100,000 options of a long label would fill any memory
            self.texts = 0
            raise RuntimeRulesError(
                "R031", f"the rules built more than {self.texts_limit:,} characters of long "
                f"texts (labels, log lines, questions of more than {LONG_TEXT:,} characters) "
                "before the next decision", span,
                ["a decision's options each labelled by a long text add up: label them "
                 "shortly, and show the long part elsewhere",
                 f"raise the limit with {ENV}=long_texts=N"])
        return text
