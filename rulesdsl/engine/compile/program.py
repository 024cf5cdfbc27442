"""The compiled program: procedures, the layout of zones and variables, and the decision
instruction (`Ask`) the engine stops at."""

from __future__ import annotations

import itertools
from typing import Any, Callable, Optional

import attrs

from rulesdsl.lang import ast
from rulesdsl.engine.budget import Budget
from rulesdsl.lang.errors import RuntimeRulesError
from rulesdsl.lang.secrets import tells_card
from rulesdsl.engine.ir import nodes
from rulesdsl.engine.runtime.seats import seat_label
from rulesdsl.engine.runtime.cards import MASK


try:  # True where the engine is built by Cython (RULESDSL_ENGINE=native): this module
    import cython  # is built with the state and the machine (native_engine.HOT)
    ENGINE_BUILT = cython.compiled
except ImportError:
    ENGINE_BUILT = False

SUSPEND = True


@attrs.define
class Proc:
    """A compiled phase, response or card effect."""
    name: str
    code: list
    spans: list
    nslots: int
    nparams: int
    span: object = None
    stmts: list = attrs.Factory(list)  # per pc: its generate.Statement, or None
    run: Optional[Callable] = None  # the generated function (generate.py), if any
    owner_lines: dict = attrs.Factory(dict)  # generated line -> pc, for error places
    sequences: list = attrs.Factory(list)  # its `sequence` statements (sequences.Region)


@attrs.frozen
class ProgramShow:
    """A `show` of this game (lang.present.Shown says what it is worked out for), with
    its definition's closure (st, seat or cell or None) and the definition's type."""
    show: Any
    value: Callable
    type: Any


@attrs.define(frozen=True)
class Truth:
    """One compiled invariant: its name and place, its condition as f(st, args), and the
    values each parameter takes (seats, enum values, a range, false and true)."""
    name: str
    span: object
    holds: Callable
    domains: tuple  # per parameter: the values tried
    words: tuple  # per parameter: value -> how the rules write it

    def cases(self):
        return itertools.product(*self.domains)

    def shown(self, args: tuple) -> str:
        if not args:
            return self.name
        said = ", ".join(words[a] for words, a in zip(self.words, args))
        return f"{self.name}({said})"


@attrs.define
class ZoneLayout:
    name: str
    base: int
    dims: list  # "player" or enum names
    sizes: list
    visibility: str
    unordered: bool
    capacity: int
    keep: int


@attrs.define
class VarLayout:
    name: str
    base: int
    dims: list
    sizes: list
    type: str
    visibility: str
    default: Optional[Callable] = None


def _unlabelled(t: str, v, st=None) -> str:
    raise AssertionError("a value labelled before the compiler made the program's labeller")


@attrs.define
class Program:
    """Everything the engine needs to run one game for a fixed number of players."""
    title: str
    nplayers: int
    options: dict
    enums: dict  # name -> list of value names
    card_kind: list = attrs.Factory(list)
    card_label: list = attrs.Factory(list)
    kind_names: list = attrs.Factory(list)
    fields: dict = attrs.Factory(dict)  # field -> per-card values
    members: dict = attrs.Factory(dict)  # kind -> per-card bools
    zones: dict = attrs.Factory(dict)
    zone_names: list = attrs.Factory(list)  # per zone instance
    zone_owner: list = attrs.Factory(list)  # per zone instance: seat or None
    zone_vis: list = attrs.Factory(list)
    zone_unordered: list = attrs.Factory(list)
    zone_capacity: list = attrs.Factory(list)
    zone_keep: list = attrs.Factory(list)
    zone_layout_of: list = attrs.Factory(list)  # per instance: the layout's name
    vars: dict = attrs.Factory(dict)
    nvars: int = 0
    var_names: list = attrs.Factory(list)
    initial_zone: list = attrs.Factory(list)  # per card
    procs: list = attrs.Factory(list)
    proc_index: dict = attrs.Factory(dict)
    setup: Optional[int] = None
    flow: int = 0
    on_play: list = attrs.Factory(list)  # per kind id: proc id or None
    playable: list = attrs.Factory(list)  # per kind id: closure (st, c, p) -> bool, or None
    score: Optional[Callable] = None
    score_visibility: str = "public"
    evaluate: Optional[Callable] = None  # the file's `evaluate`, for agents only
    # (variable indices, zone indices) all that `evaluate` reads of a state, or None
    # (it may read more: lang/reads.py): equal there, equal evaluations
    evaluate_reads: Optional[tuple] = None
    payoff: Optional[Callable] = None  # the file's `payoff`, read once the game is over
    cooperative: bool = False  # `players N cooperative`: every seat is paid the same
    truths: tuple = ()  # the file's invariants (engine/runtime/truths.py)
    adjacency: dict = attrs.Factory(dict)  # board name -> list of neighbour lists
    grids: dict = attrs.Factory(dict)  # grid board name -> grid.GridTables
    layouts: dict = attrs.Factory(dict)  # laid-out board name -> rows of cell names or None
    step_limit: int = 1_000_000
    depth_limit: int = 200
    # (type, value[, state]) -> its text; set before the cards are laid out (layout.py)
    labeller: Callable = attrs.field(default=_unlabelled)
    name_cache: dict = attrs.Factory(dict)  # "hand[P1]" -> zone index, filled by State.zone
    present: Any = None  # the model's Presentation: about, titles, texts, internal
    shows: list = attrs.Factory(list)  # ProgramShow, for the `show`s of this game
    budget: Budget = attrs.Factory(Budget)  # work per decision (engine/budget.py)
    pieces: Any = None  # engine.pieces.Pieces: the changing fields of cards, if any
    generated: str = ""  # the generated Python source (rulesdsl compile --show)
    generated_places: dict = attrs.Factory(dict)  # its line -> the rules' span it names
    sequences: bool = False  # does any procedure hold a `sequence` (decisions narrowed)

    def label(self, t: str, v) -> str:
        return self.labeller(t, v)


def _unbuilt(st, L) -> list:
    raise AssertionError("a decision asked before the compiler built its options")


class Ask:
    """The decision instruction. `options(st, fr)` lists (label, alt, value); running it
    suspends the game unless it is optional and nobody has an option."""

    __slots__ = ("who", "alts", "optional", "decline_pc", "label", "span", "openly", "question",
                 "quiet", "fast", "build", "tree", "first", "who_source", "question_by_seat",
                 "memo_handed", "memo_may_be_handed", "resume", "choose", "resume_body")

    def __init__(self, who, alts, optional, decline_pc, labeller, span, openly=False):
        self.openly = openly  # asked even with no option: then `decline` is the only one
        self.who = who
        self.alts = alts
        self.optional = optional
        self.decline_pc = decline_pc
        self.label = labeller
        self.span = span
        self.question = None  # closure (st, L) -> the question, when the rules ask one
        # closure (st, L) -> (the question, as each seat reads it), where not all may
        self.question_by_seat = None
        # a chosen card shows up in the log through its move, with its visibility
        self.quiet = [alt[0] == "binder" and alt[6] == "card" for alt in alts]
        # the decision resumed at a chosen option (engine/ir nodes.Resume): the machine
        # runs it by `choose`, the generated phase by its own lines, if any
        self.resume = nodes.Resume(span, tuple((alt[4], alt[0] == "tuple", alt[3], not quiet)
                                               for alt, quiet in zip(alts, self.quiet)),
                                   decline_pc, optional)
        self.choose: Callable = _unbuilt  # (st, fr, option) -> logged, set with `build`
        self.resume_body: Optional[list] = None
        # the options, (st, L) -> [(label, alt, value)], made from the decision's node
        # (engine/ir nodes.Ask) by the interpreter, and by the Python back end, if any
        self.build: Callable = _unbuilt  # set by Decisions.ask, once its node is made
        self.fast: Optional[Callable] = None
        self.tree = None   # the Python back end's tree of `fast`, to build `first` from
        self.first = None  # `fast` up to the first option, in a program with sequences
        self.who_source = None  # who decides, as generated source (the decision inlined)
        self.memo_handed = False  # a test just before begins its memo (JumpUnless.hands_memo)
        # the first of a phase some test calls handing its memo (Flow.hand_memos): it goes
        # on with a memo it finds, else begins one
        self.memo_may_be_handed = False

    def targets(self) -> list:
        """The positions a frame goes on from after this decision: each alternative's
        body, and what follows when it is declined."""
        return [alt[3] for alt in self.alts] + [self.decline_pc]

    def options(self, st, fr) -> list:
        if st.memo is None:  # else the test just before began it (JumpUnless.hands_memo)
            st.memo = {}  # the state stands still: pure definitions are computed once per args
        try:
            return (self.fast if self.fast is not None else self.build)(st, fr[2])
        finally:
            st.memo = None

    def __call__(self, st, fr):
        seat = self.who(st, fr[2])
        if seat is None:
            raise RuntimeRulesError("R018", "a decision for none: nobody to ask", self.span)
        opts = self.options(st, fr)
        if not opts:
            if self.optional:
                fr[1] = self.decline_pc
                return None
            self.no_option(seat)
        st.pending = (seat, opts)
        return SUSPEND

    def no_option(self, seat):
        raise RuntimeRulesError("R019", f"{seat_label(seat)} must decide but has no legal "
                                "option", self.span,
                                ["add an option that is always open, such as \"pass\", or "
                                 "check before asking"])

    def chosen_card(self, option):
        """The card `option` chooses, or None. A value is a card only where the option's
        alternative binds a card: a bid of 3 is a number, never the card whose id is 3."""
        ai = option[1]
        return option[2] if ai >= 0 and self.quiet[ai] else None


def _holds_respond(node) -> bool:
    """Does a statement tree (an `on play`, a block, a choice ...) hold a `respond`?"""
    if isinstance(node, ast.Respond):
        return True
    if isinstance(node, (list, tuple)):
        return any(_holds_respond(x) for x in node)
    if isinstance(node, (ast.Block, ast.If, ast.Ask, ast.AskEach, ast.NamedChoice,
                         ast.BinderChoice, ast.Repeat, ast.While, ast.For, ast.Turns,
                         ast.AskTogether, ast.TupleChoice)):
        return any(_holds_respond(getattr(node, f.name))
                   for f in attrs.fields(type(node))  # type: ignore[arg-type]  # (@node)
                   if f.name != "span")
    return False


def mask_cards(text: ast.Text, types: dict) -> ast.Text:
    """The words with every hole that tells a card replaced by MASK; holes naming
    players, numbers of the game stay."""
    return attrs.evolve(text, parts=tuple(  # type: ignore[misc]  # (@node: attrs)
        MASK if not isinstance(p, str) and tells_card(p, types) else p for p in text.parts))
