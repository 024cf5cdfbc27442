"""Static checks: names, types, arity, duplicates, and where statements may stand.

`check(files)` merges a file with the files it extends, resolves every name, infers every
expression's type and reports all problems at once, sorted by position. What it learns is
kept in side tables of a `Model` (never written into the frozen nodes), which the compiler
reads: what each name refers to, each expression's type, and the local slot of each binder.

Types are strings: "int", "bool", "player", "card", "text", "zone", "none", "any", an
enum or board name, "family:<zone>" for a per-player zone not yet indexed, and
"list of <T>"."""

from __future__ import annotations

import re
from typing import Optional

from rulesdsl.lang import ast
from rulesdsl.lang.limits import card_label_errors, instance_errors, option_label_errors
from rulesdsl.lang.errors import (CheckFailed, RulesError, RulesWarning, Span, did_you_mean,
                                  line_table)
from rulesdsl.lang.present import check_presentation
from rulesdsl.lang.check.declarations import Declarations
from rulesdsl.lang.check.layouts import Layouts
from rulesdsl.lang.check.bodies import Bodies
from rulesdsl.lang.check.statements import Statements
from rulesdsl.lang.check.types import Types
from rulesdsl.lang.check.names import Names
from rulesdsl.lang.check.results import give_results
from rulesdsl.lang.check.deals import deal_errors
# the model and its helpers are this package's API to the compiler and the tools
from rulesdsl.lang.check.model import (
    AGGREGATES, BUILTIN_CALLS, BUILTIN_VALUES, DIRECTIONS, Model, PhaseInfo, Scope, elem_of,
    list_of)


# names compared for "did you mean" hints in one check: every hint of a file a person writes,
# while thousands of unknown names get theirs only until it runs out
HINT_BUDGET = 200_000


class Checker(Declarations, Layouts, Bodies, Statements, Types, Names):
    def __init__(self, file: ast.File, sources: dict):
        self.file = file
        self.m = Model(sources=dict(sources))
        self.errors: list[RulesError] = []
        self.warnings: list[RulesError] = []
        self.scope: Optional[Scope] = None
        self.context = "phase"  # "phase", "define", "setup", "response", "effect", "playable"
        self.current_phase: Optional[PhaseInfo] = None
        self.used: set = set()
        self.hint_budget = HINT_BUDGET
        # looked up per statement or name, so built once after `collect` (index_declarations)
        self.globals: dict = {}             # every global name -> what it is
        self.enum_value_owner: dict = {}    # an enum value -> (its enum, its index)
        self.kinds_on_play = False          # does some kind have an `on play` effect?
        self.effect_calls: set = set()      # phases run by cards' effects and responses
        self.refused: dict = {}             # built-in names a declaration tried to take

    # ------------------------------------------------------------------ reporting
    def err(self, code: str, msg: str, span: Optional[Span], hints=()):
        self.errors.append(RulesError(code, msg, span, hints))

    def warn(self, code: str, msg: str, span: Optional[Span], hints=()):
        self.warnings.append(RulesWarning(code, msg, span, hints))

    def suggest(self, name: str, *pools) -> list[str]:
        """"did you mean ...?" for `name` among the names of `pools`, while the check's
        budget of names compared lasts: each search reads every candidate, so thousands of
        unknown names among thousands of declarations would take minutes."""
        if self.hint_budget <= 0:
            return []
        candidates = set().union(*pools)
        self.hint_budget -= len(candidates)
        return did_you_mean(name, candidates)

    def count_slots(self, context) -> None:
        """Note how many slots the scope of `context` took, and their names (what
        `rulesdsl compile --show` calls a frame's locals)."""
        scope = self.scope
        assert scope is not None  # (called as a scope's body is done)
        self.m.nslots[id(context)] = scope.count
        self.m.slot_names[id(context)] = tuple(scope.bound)

    def scope_for(self, owner) -> None:
        """A fresh scope for an expression of a declaration (no locals, no statements)."""
        self.scope = Scope(owner)
        self.context = "define"

    def unknown_hints(self, name: str, fallback: list) -> list:
        """Hints for an unknown name: where a declaration of it was refused (a built-in
        name), to rename it everywhere; else `fallback`."""
        what = self.refused.get(name)
        seat = re.fullmatch(r"[Pp]([1-9][0-9]?)", name)
        if what is None and seat and not fallback:  # as the log and the runner name seats
            return [f"write 'seat({int(seat[1]) - 1})' for {name.upper()}: the rules count "
                    "seats from 0, the table from P1"]
        if what is None:
            return fallback
        return [f"'{name}' is a built-in name, so its {what} was not declared: rename it "
                "in the declaration and here"]

    def name_at(self, span: Optional[Span], name: str, after: str = "") -> Optional[Span]:
        """The span of the word `name` inside `span`, after the pattern `after`; else `span`."""
        if span is None:
            return None
        text = self.m.sources.get(span.path)
        if text is None or not 0 <= span.start < span.end <= len(text):
            return span
        lines = line_table(text)
        if lines.position(span.start) != (span.line, span.column):
            return span  # offsets of another text (an expression inside a string)
        found = re.compile(after + r"\b(" + re.escape(name) + r")\b").search(
            text, span.start, span.end)
        if found is None:
            return span
        start = found.start(1)
        line, col = lines.position(start)
        return Span(span.path, line, col, line, col + len(name), start, start + len(name))

    # ------------------------------------------------------------------ declarations
    def run(self) -> Model:
        decls = give_results(self, [d.body for d in self.file.decls])
        self.collect(decls)
        self.index_declarations()
        self.check_bodies(decls)
        deal_errors(self)
        self.m.present = check_presentation(self, decls)
        self.check_unused()
        if self.errors:
            raise CheckFailed(self.errors, self.warnings, self.m)
        return self.m


def check_file_tree(file: ast.File, sources: dict) -> tuple[Model, list]:
    checker = Checker(file, sources)
    model = checker.run()
    # before any layout is built (issue 20): what a small file could make is counted first
    too_many = instance_errors(model) or card_label_errors(model) or option_label_errors(file)
    if too_many:
        raise CheckFailed(too_many, checker.warnings)
    model.files = [file]
    return model, sorted(checker.warnings, key=RulesError.sort_key)
