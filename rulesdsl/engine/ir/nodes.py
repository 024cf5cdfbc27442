"""The expression nodes: what a value of the rules is computed from, typed.

Every node has `type` (the checker's name for it: "int", "bool", "card", "player",
"zone", an enum's name, "list of ...") and `may_be_none`, decided here from what the
node computes: checked arithmetic, comparisons and sizes never give none; a local, a
variable or a card's field may. The back ends drop a none check where an operand cannot
be none. `span` is the place in the rules an error names."""

from __future__ import annotations

from typing import Any, ClassVar, Optional

import attrs


@attrs.frozen(eq=False)
class Node:
    type: str

    @property
    def may_be_none(self) -> bool:
        return True

    @property
    def is_leaf(self) -> bool:
        """Read in one step (no work worth a function of its own)."""
        return False


@attrs.frozen(eq=False)
class Sure(Node):
    """A node that never gives none (a sum, a comparison, a size, a list)."""

    @property
    def may_be_none(self) -> bool:
        return False


# ---------------------------------------------------------------- leaves
@attrs.frozen(eq=False)
class Const(Node):
    """A value known when the game loads (a number, a truth, none, an enum value)."""
    value: Any

    @property
    def may_be_none(self) -> bool:
        return self.value is None

    @property
    def is_leaf(self) -> bool:
        return True


@attrs.frozen(eq=False)
class Table(Sure):
    """A list known when the game loads, shared and never changed (the seats, the cards,
    an enum's values); `name` is what the rules call it."""
    value: list
    name: str

    @property
    def is_leaf(self) -> bool:
        return True


class BoundOnce:
    """A read of a value bound once (a Local, a Temp): `never_none` where it cannot be
    none; read in one step."""
    __slots__ = ()
    never_none: bool

    @property
    def may_be_none(self) -> bool:
        return not self.never_none

    @property
    def is_leaf(self) -> bool:
        return True


@attrs.frozen(eq=False)
class Local(BoundOnce, Node):
    """A name the rules bind (a parameter, a `let`, a loop's element): slot `slot` of the
    frame. `never_none`: bound to a value that is never none (a `let` of a count, an
    element of a zone or an enum); `below`: where more than 0, it is also a number from 0
    to below - 1 (a card's id, an enum's value, a seat) and needs no range check as a key."""
    slot: int
    name: str
    never_none: bool = False
    below: int = 0


@attrs.frozen(eq=False)
class Var(Node):
    """A variable without indexes: slot `index` of the state's variables."""
    index: int
    name: str

    @property
    def is_leaf(self) -> bool:
        return True


# ---------------------------------------------------------------- reads
@attrs.frozen(eq=False)
class Instance(Sure):
    """The flat number of one instance of a per-player or per-enum family (`hand[p]`,
    the index of `score[p]`): `base` plus the keys by their strides; a key that is none
    or out of range fails with R010."""
    name: str
    base: int
    sizes: tuple
    keys: tuple
    span: Any


@attrs.frozen(eq=False)
class VarAt(Node):
    """The value of a variable instance (`score[p]`)."""
    at: Instance


@attrs.frozen(eq=False)
class Pile(Sure):
    """The cards of a zone instance, its live list (read it, never change it)."""
    zone: Node


@attrs.frozen(eq=False)
class Item(Node):
    """`list[k]`; outside the list fails with R014. `in_range`: k is known to lie within
    the list (passes.known_not_none: `k > 0 and k < size(r) and ... r[k]`), no check."""
    seq: Node
    key: Node
    span: Any
    in_range: bool = False

    @property
    def may_be_none(self) -> bool:
        """Not an item of a table that holds no none (an enum's values: `Pip[k]`)."""
        return not isinstance(self.seq, Table) or None in self.seq.value


def within(key: Node, size: int) -> bool:
    """Is `key` sure to be a number from 0 to size - 1 (a key that needs no range check):
    such a constant, an item of a table of such numbers (`checkers[p, Pip[k]]`), a field
    whose table holds only such numbers, or a
    seat (`next(p)`, `seat(1)`: each fails itself rather than give another) among `size`?"""
    if isinstance(key, (NextSeat, Seat)):
        return key.seats == size
    if isinstance(key, (Local, Temp)):
        return 0 < key.below <= size
    if isinstance(key, Const):
        values = [key.value]
    elif isinstance(key, Item) and isinstance(key.seq, Table):
        values = key.seq.value
    elif isinstance(key, Field) and key.never_none:  # `tricks[winning.colour]`: a card's
        values = key.table  # field read fails itself on none, else gives a table's value
    else:
        return False
    return all(type(v) is int and 0 <= v < size for v in values)


@attrs.frozen(eq=False)
class Field(Node):
    """`obj.name` read from a table by card id or enum value; none fails with R013.
    `of`: "card" or an enum's name (the message differs). `never_none`: no value of the
    table is none."""
    name: str
    table: list
    of: str
    obj: Node
    span: Any
    never_none: bool = False

    @property
    def may_be_none(self) -> bool:
        return not self.never_none


@attrs.frozen(eq=False)
class PieceField(Node):
    """`piece.name` of a piece, whose fields change: its value now, a variable at
    `base + piece`."""
    name: str
    base: int
    obj: Node
    span: Any


# ---------------------------------------------------------------- operators
@attrs.frozen(eq=False)
class Not(Sure):
    operand: Node


@attrs.frozen(eq=False)
class Neg(Sure):
    operand: Node


@attrs.frozen(eq=False)
class Logic(Node):
    """`and` / `or`: Python's, the value of the operand that decided."""
    op: str
    left: Node
    right: Node

    @property
    def may_be_none(self) -> bool:
        return self.left.may_be_none or self.right.may_be_none


@attrs.frozen(eq=False)
class Equal(Sure):
    """`==` / `!=`: none equals none only."""
    op: str
    left: Node
    right: Node


@attrs.frozen(eq=False)
class Compare(Sure):
    """`<`, `>`, `<=`, `>=`; an operand of none fails with R013."""
    op: str
    left: Node
    right: Node
    span: Any


@attrs.frozen(eq=False)
class Arith(Sure):
    """`+`, `-`, `*`: none fails with R013, a result past MAX_INT with R030. `ints`: both
    operands numbers (else the value is checked only where it is a number)."""
    op: str
    left: Node
    right: Node
    span: Any
    ints: bool = True


@attrs.frozen(eq=False)
class Divide(Sure):
    """`/` (rounding down) and `%`: by zero (or none) fails with R015."""
    op: str
    left: Node
    right: Node
    span: Any
    ints: bool = True


@attrs.frozen(eq=False)
class Join(Sure):
    """Two lists (or zones' cards) one after the other: a new list, its length checked
    against the budget's list limit."""
    left: Node
    right: Node
    span: Any


@attrs.frozen(eq=False)
class IfElse(Node):
    cond: Node
    then: Node
    else_: Node

    @property
    def may_be_none(self) -> bool:
        return self.then.may_be_none or self.else_.may_be_none


@attrs.frozen(eq=False)
class IsKind(Sure):
    """`c is KIND` (`negated`: `is not`): none is of no kind."""
    kind: str
    members: list
    operand: Node
    negated: bool


class Scoped:
    """A value bound, then a body computed with it (a Let, a Bind): none where the body is."""
    __slots__ = ()
    body: Node

    @property
    def may_be_none(self) -> bool:
        return self.body.may_be_none


@attrs.frozen(eq=False)
class Let(Scoped, Node):
    """`let name = value in body`: the value into slot `slot` of the frame, then the body."""
    slot: int
    name: str
    value: Node
    body: Node


@attrs.frozen(eq=False)
class Bind(Scoped, Node):
    """`value` computed once into a temporary (`cell`), then `body`, which reads it as
    Temp nodes of the same cell: an inlined definition's argument or `let`
    (passes.inline). `name` is the rules' name of the parameter or the `let`."""
    cell: list
    name: str
    value: Node
    body: Node


@attrs.frozen(eq=False)
class Temp(BoundOnce, Node):
    """A read of the temporary that the Bind of the same `cell` computed (`never_none`,
    `below`: as a Local's)."""
    cell: list
    name: str
    never_none: bool = False
    below: int = 0


@attrs.frozen(eq=False)
class ListOf(Sure):
    """`[a, b, c]`: a new list."""
    items: tuple


@attrs.frozen(eq=False)
class Range(Sure):
    """`start..stop by step`: a new list, its length spent from the budget (R016 past the
    range limit or for a step that is not positive)."""
    start: Node
    stop: Node
    step: Node
    span: Any


@attrs.frozen(eq=False)
class IsIn(Sure):
    """`x is in list` (`negated`: `is not in`); the list's length is spent each time."""
    element: Node
    collection: Node
    negated: bool
    span: Any


# ---------------------------------------------------------------- built-in calls
@attrs.frozen(eq=False)
class Others(Sure):
    """`others(p)`: the other seats, in turn after p."""
    seats: int
    operand: Node


@attrs.frozen(eq=False)
class NextSeat(Sure):
    """`next(p)` (step 1) / `previous(p)` (step -1) among `seats`; none fails with R013."""
    name: str
    step: int
    seats: int
    operand: Node
    span: Any


@attrs.frozen(eq=False)
class Seat(Sure):
    """`seat(k)`: k itself where a seat has that number, else R017."""
    seats: int
    operand: Node
    span: Any


@attrs.frozen(eq=False)
class Size(Sure):
    """The length of a list (or of a pile)."""
    of: Node


@attrs.frozen(eq=False)
class End(Node):
    """`top(zone)` (`index` -1) or `bottom(zone)` (0): none where the zone is empty."""
    index: int
    pile: Pile


@attrs.frozen(eq=False)
class Run(Sure):
    """Cells of a list read against a variable of one index, with no call per cell
    (engine/grid.py): a cell `meets` where the variable's value there (`values[base +
    x]`) equals E (`same`; else: differs from it). The cells are taken first, then E
    worked out once, only where there is a cell. `prefix` (`[x in CELLS while v[x] ==
    E]`): the leading cells that meet, `gives` "cells" (a new list) or "count" (their
    number, spent from the work budget as the count of a list is); else (`x in CELLS
    where v[x] == E`), `gives` "count" (of the cells that meet), "any" or "all"."""
    cells: Node
    base: int
    want: Node
    same: bool
    prefix: bool
    gives: str
    span: Any

    @property
    def title(self) -> str:
        """What generated code calls its loop (`--show`)."""
        return ("list" if self.gives == "cells" else "count") if self.prefix else \
            f"{self.gives} over a variable"


@attrs.frozen(eq=False)
class Aggregate(Node):
    """A loop over a list's elements, each bound to slot `slot` in turn: `gives` "list"
    (`[x in L where W]`, `[V for x in L where W]`: a new list), "prefix" (`[x in L while
    W]`: the leading elements that meet W, spending nothing), or an aggregate of the
    elements that meet `where` (None: all), of their `value` (None: the element itself):
    "any", "all", "count", "first", "last", "sum", "max" or "min". Every form but a
    prefix spends the list's length from the work budget as it starts. `sure`: no
    element can be none (None: one may), each below it where more than 0
    (Lowering.sure_elements)."""
    gives: str
    slot: int
    items: Node
    where: Optional[Node]
    value: Optional[Node]
    span: Any
    sure: Optional[int] = None

    @property
    def may_be_none(self) -> bool:
        return self.gives not in ("list", "prefix", "any", "all", "count", "sum")

    @property
    def title(self) -> str:
        """What generated code calls its loop (`--show`)."""
        return "list" if self.gives in ("list", "prefix") else self.gives


@attrs.frozen(eq=False)
class Shown(Sure):
    """How a value of type `of` reads in a text or an option ("none" for none): `names`
    its words by value where they are fixed (a card's label, an enum's value names), else
    None (`labeller` says, with the state: a piece reads as it is now)."""
    of: str
    value: Node
    names: Optional[list]
    labeller: Any


# ---------------------------------------------------------------- words by seat
@attrs.frozen(eq=False)
class Hole:
    """A hole of words each seat reads as it may: its words (`shown`, a Shown of its
    value), what a seat that may not read it reads instead (`mask`), and who may:
    `readers` None (every seat), () (no seat), else (owner, others) pairs, each a seat
    that must be the owner (`others` false) or must not be (`others` true)."""
    shown: Node
    mask: str
    readers: Optional[tuple]


@attrs.frozen(eq=False)
class SeatWords(Sure):
    """Words some of whose holes not every seat may read (compile/seat_words.py): the
    pair (the full words, what each of `seats` seats reads), each hole's value and its
    readers taken once, in order; the full words past the text limit fail (R008)."""
    parts: tuple  # a text (str) or a Hole, in order
    seats: int
    span: Any


def hole_parts(node: SeatWords) -> tuple:
    """The nodes a SeatWords node is computed from: each hole's words, then its owners."""
    return tuple(x for h in node.parts if isinstance(h, Hole)
                 for x in (h.shown, *(owner for owner, _ in h.readers or ())))


# ---------------------------------------------------------------- not lowered yet
@attrs.frozen(eq=False)
class Opaque(Node):
    """A checked expression of a construct not lowered yet: the compiler compiles it
    (through its loop invariants and memos), and the back ends take what it gives."""
    source: Any
    never_none: bool = False

    @property
    def may_be_none(self) -> bool:
        return not self.never_none


@attrs.frozen(eq=False)
class Definition:
    """A rules definition (`define f(x, y) = value`, with its modifiers), one per name: its
    parameters (slots 0..k-1 of its own frame), its value and each modifier's condition and
    value (`modifiers`, run in order, each seeing the value so far in slot k), the size of
    its frame, the unit of work each call spends (0 for one that calls no other:
    hoist.Scanner.simple_define), and whether a call is remembered while a decision's
    options are computed (`memo`: pure, up to two parameters, none a card:
    Scanner.memoised_define). Its parts are the compiler's to compile (Opaque): a body
    runs on a frame of its own, with no loop of its caller open."""
    name: str
    params: tuple  # the parameters' names
    type: str
    body: Node
    modifiers: tuple  # (condition, value) per modifier
    size: int
    unit: int
    memo: bool
    span: Any


@attrs.frozen(eq=False)
class DefCall(Node):
    """A call of `definition` on `args` (one node each, computed in order onto a fresh
    frame); `span` is the call's place in the rules (the definition's where none). A call
    from inside the definition's own body (or one it calls) recurses, bounded
    (engine/recursion.py)."""
    definition: Definition
    args: tuple
    span: Any


def children(node: Node) -> tuple:
    """The nodes `node` is computed from, in the order it computes them."""
    return tuple(getattr(node, f.name) for f in attrs.fields(type(node))
                 if isinstance(getattr(node, f.name), Node)) + \
        (node.keys if isinstance(node, Instance) else ()) + \
        (node.items if isinstance(node, ListOf) else ()) + \
        (hole_parts(node) if isinstance(node, SeatWords) else ()) + \
        (node.args if isinstance(node, DefCall) else ())


def walk(node: Node):
    """`node` and every node it is computed from (not inside an Opaque part)."""
    todo = [node]
    while todo:
        x = todo.pop()
        yield x
        todo.extend(children(x))


def strides(sizes: tuple) -> list:
    """How far one step of each key moves in the flat numbering (the last key: 1)."""
    strides, acc = [], 1
    for size in reversed(sizes):
        strides.append(acc)
        acc *= size
    strides.reverse()
    return strides


def leaf_name(node: Node) -> Optional[str]:
    """The rules' name of a leaf (for names of temporaries), else None."""
    if isinstance(node, (Local, Temp, Var, Field)):
        return node.name
    if isinstance(node, VarAt):
        return node.at.name
    return None


# ---------------------------------------------------------------- operations
@attrs.frozen(eq=False)
class Operation:
    """A statement of a procedure: it changes the frame or the game, and gives nothing."""
    span: Any
    leaves: ClassVar[bool] = False  # does it change the frames (the procedure stops)?


@attrs.frozen(eq=False)
class SetLocal(Operation):
    """`let x = v`, `set x = v` (`sign` 0) or `set x += v` / `-= v` (`sign` 1 / -1, the sum
    checked against the bound): slot `slot` of the frame. `memo`: computed with a memo of
    its own (`st.memo`), where the value may work out one of the position's facts more
    than once (hoist.Scanner.repeats_a_fact): the state stands still until it is set."""
    slot: int
    value: Node
    sign: int = 0
    memo: bool = False


@attrs.frozen(eq=False)
class SetVar(Operation):
    """`set v[k] = x` (`sign` 0), `+= x`, `-= x` (1, -1: checked): the variable instance
    `at` gives (its index first, then the value, as the rules read). `memo`: as
    SetLocal's."""
    at: Node
    value: Node
    sign: int = 0
    memo: bool = False


@attrs.frozen(eq=False)
class Jump(Operation):
    """Go on at instruction `target` of the procedure."""
    target: int


@attrs.frozen(eq=False)
class JumpUnless(Operation):
    """Go on at instruction `target` unless `cond` holds (else at the next one).
    `hands_memo`: the next one is a decision (`while can_move(p) { ask p ... }`), so
    the state stands still from the test to the options: the test is read with the
    decision's memo (`st.memo`), which the options go on with when it holds, and the
    definitions both call are computed once."""
    cond: Node
    target: int
    hands_memo: bool = False


@attrs.frozen(eq=False)
class Return(Operation):
    """The procedure ends: its frame goes (and any card effect's above it)."""
    leaves: ClassVar[bool] = True


@attrs.frozen(eq=False)
class CallPhase(Operation):
    """A phase called with `args` (`proc`: its number), unless phases are nested
    `depth_limit` deep already (R004)."""
    proc: int
    args: tuple
    depth_limit: int
    leaves: ClassVar[bool] = True


@attrs.frozen(eq=False)
class Log(Operation):
    """`log "..."`: the entry `("text", words)` in the game's events."""
    text: Node


@attrs.frozen(eq=False)
class LogBySeat(Operation):
    """`log "..."` whose holes not every seat may read: the entry `("text", full words,
    what each seat reads)`, or `("text", full words)` where every seat reads them all."""
    words: SeatWords


@attrs.frozen(eq=False)
class Finish(Operation):
    """`win who` (`one`: a player, else a list of players; none: nobody) or `end game`
    (`who` None): the game is over (State.finish), every frame gone."""
    who: Optional[Node]
    one: bool = True
    leaves: ClassVar[bool] = True


# ---------------------------------------------------------------- loops
@attrs.frozen(eq=False)
class EachStart(Operation):
    """A loop over a list taken as it starts (`for x in LIST`, `ask each`): the list's
    elements into slot `seq` (a copy: the loop goes on over them whatever the body
    changes), the position in slot `at` 0. `memo`: a memo begins here and ends where
    the loop does (hoist.Scanner.keeps_facts: nothing the body changes is read by what
    it works out)."""
    seq: int
    at: int
    items: Node
    memo: bool = False


@attrs.frozen(eq=False)
class EachStep(Operation):
    """The head of such a loop: the next element from slot `at` on that meets `where`
    (None: any) into slot `slot`; none left, the loop ends: go on at `end` (ending the
    memo its EachStart began, `memo`)."""
    slot: int
    seq: int
    at: int
    where: Optional[Node]
    end: int
    memo: bool = False


@attrs.frozen(eq=False)
class TurnsStart(Operation):
    """`turns p from start`: the first seat to try into slot `cur` (none fails with
    R011)."""
    cur: int
    start: Node


@attrs.frozen(eq=False)
class TurnsStep(Operation):
    """The head of the turns: where `until` holds they end (go on at `end`); else the
    next seat from slot `cur` on (round the `seats`) not skipped by `skip` into slot
    `slot`, `cur` the seat after it; every seat skipped, they end."""
    slot: int
    cur: int
    seats: int
    skip: Optional[Node]
    until: Optional[Node]
    end: int


# ---------------------------------------------------------------- moving cards
@attrs.frozen(eq=False)
class MoveCards(Operation):
    """`move what to ZONE [to bottom]`: the cards `what` gives (`one`: a card, none is no
    card; else a list or a zone's Pile), their cost in moves spent first, then
    onto zone `to` as State.move_cards moves them. `shape`: how the Python back end may
    write it where no card effect runs, the compiler having checked the destination (a
    zone `like` one without a limit): "card" (one card, `unordered`: the zone keeps its
    cards sorted), "pile" (a zone's cards onto one that keeps them in order), "all"
    (every card of the game: State.move_all_cards), or "general" (State.move_cards).
    `openly`: then every seat is shown the cards where they now lie (a piece by its label
    of the moment), into a hidden place too. `words` (`move ... as "..."`): the move's
    entry in the log carries them, computed once the cards are known, before their cost
    in moves is spent: as everyone reads them, and `masked`, each hole that
    tells a card MASK, which reads "a card" or "N cards" (runtime/cards.py `told`).
    `later`: the Python back end's form
    of the same words, where the compiler found they cannot fail: their values taken
    now, the texts written when the log is read (journal.Later; it may read the cards
    moved as `_c`)."""
    what: Node
    one: bool
    to: Node
    bottom: bool
    shape: str = "general"
    unordered: bool = False
    openly: bool = False
    words: Optional[Node] = None
    masked: Optional[Node] = None
    later: Optional[Node] = None
    short_piles: bool = False  # the game has fewer than 1000 cards: one card costs 1


@attrs.frozen(eq=False)
class MoveBySeat(Operation):
    """`move what to ZONE as "..."` whose words' holes not every seat may read: the cards
    (`what`, a fresh list), their words (`words`), the words with the moved cards masked
    (`masked`: a SeatWords, or a text every seat reads whole), then onto zone `to` by
    State.move_cards with the words of both kinds, as everyone reads them and by seat,
    MASK read "a card" or "N cards"."""
    what: Node
    to: Node
    bottom: bool
    words: SeatWords
    masked: Node


@attrs.frozen(eq=False)
class Shuffle(Operation):
    """`shuffle ZONE`: its cards' count spent from the moves, then State.shuffle."""
    zone: Node


@attrs.frozen(eq=False)
class Deal(Operation):
    """`deal COUNT from SOURCE to FAMILY starting with START`: the source's cards' count
    spent from the moves, then State.deal (`count` None: all; `start` None: seat 0)."""
    source: Node
    family: int
    count: Optional[Node]
    start: Optional[Node]


@attrs.frozen(eq=False)
class Swap(Operation):
    """`swap A with B`: State.swap (none fails with R012)."""
    a: Node
    b: Node


# ---------------------------------------------------------------- playing a card
@attrs.frozen(eq=False)
class Play(Operation):
    """`play CARD by PLAYER to ZONE` as it starts: the card and its player (either none
    fails with R012) into slots `card` and `by`, slot `cancelled` false, the play in the
    log, and the card onto zone `to` without a move entry of its own. `shape` as
    MoveCards's: "card" (the compiler checked the zone: no limit; `unordered`: it keeps
    its cards sorted) or "general" (State.move_cards)."""
    card: Node
    by: Node
    to: Node
    card_slot: int
    by_slot: int
    cancelled: int
    shape: str = "general"
    unordered: bool = False


@attrs.frozen(eq=False)
class CallResponse(Operation):
    """Response `proc` called with the played card and its player (slots `card_slot`,
    `by_slot` of the frame). After a `play` (`cancelled`, its slot): only where the card
    is not cancelled and its kind's `on play` holds no `respond` (`defers`, by kind id;
    `kind_of`, by card). In a card's effect (`cancelled` None: `respond`): always."""
    proc: int
    card_slot: int
    by_slot: int
    depth_limit: int
    cancelled: Optional[int] = None
    defers: Optional[list] = None
    kind_of: Optional[list] = None
    leaves: ClassVar[bool] = True


@attrs.frozen(eq=False)
class Cancelled(Operation):
    """After a response of a `play`: where it cancelled the card (State.cancelled), that
    noted in slot `cancelled` and the log, the state's flag cleared."""
    card_slot: int
    cancelled: int


@attrs.frozen(eq=False)
class StopIfCancelled(Operation):
    """After a response inside a card's effect (`respond`): where it cancelled the card,
    that in the log, the flag cleared, and the effect stops (its frame goes)."""
    card_slot: int
    leaves: ClassVar[bool] = True


@attrs.frozen(eq=False)
class CallEffect(Operation):
    """The played card's `on play` (the procedure `on_play` gives its kind, `kind_of` the
    card's kind; none: no effect) called as a card effect with the card and its player,
    unless slot `cancelled` says the card was cancelled."""
    card_slot: int
    by_slot: int
    cancelled: int
    on_play: list
    kind_of: list
    depth_limit: int
    leaves: ClassVar[bool] = True


@attrs.frozen(eq=False)
class NameChosen(Operation):
    """Before a `respond`: each card its decision's options chose (`chosen`: (who chose,
    the slot), the card none: nothing) named in the log, where it lies, for the table to
    see as its place lets each seat."""
    chosen: tuple


def makes_a_new_list(node: Node) -> bool:
    """Whether `node`'s value is a list made for it, shared with nothing (no copy needed
    to keep it as it is)."""
    return isinstance(node, (ListOf, Range, Join, Others))


# ---------------------------------------------------------------- decisions
@attrs.frozen(eq=False)
class Choice:
    """One alternative of a decision: `kind` "named" (an option of its own, offered where
    `where` holds), "binder" (each element of `items[0]` that meets `where`, bound to
    `slots[0]`) or "tuple" (each combination of `items`, one per slot, each read once the
    slots before it are bound). `label`: its text (None: each value as `shown` reads it,
    one Shown per slot). The body starts at instruction `body`.

    What the compiler worked out for the Python back end: `table`, the labels by value
    (a card's label or an enum's name read, not written; `ids`: the values are the
    table's indexes, never none); `numbers`, a range of numbers (no two alike);
    `from_zone`, the cards of one zone."""
    kind: str
    body: int
    label: Optional[Node] = None
    where: Optional[Node] = None
    slots: tuple = ()
    items: tuple = ()
    shown: tuple = ()
    table: Optional[list] = None
    ids: bool = False
    numbers: bool = False
    from_zone: bool = False

    @property
    def by_value(self) -> bool:
        """Labelled by its value (a card reads as its label): alike cards may need their
        places to be told apart."""
        return self.kind == "binder" and self.label is None


@attrs.frozen(eq=False)
class Ask(Operation):
    """The options of a decision for `who`: (label, alternative, value) for each choice in
    order, a label an earlier option has made told apart by the alternative's number
    (an alternative's own repeat dropped: two cards that read alike are one action);
    alike cards told apart by their places where the chooser sees their ordered zones;
    `optional`: "decline" last where any option is offered, or always (`openly`).
    `card_labels`: the cards' labels where they are fixed (None: pieces, whose labels
    change); `unordered`: per zone, does it keep its cards sorted."""
    who: Node
    choices: tuple
    optional: bool
    openly: bool
    card_labels: Optional[list]
    unordered: list

    @property
    def alike(self) -> bool:
        """May two cards read alike?"""
        labels = self.card_labels
        return labels is None or len(set(labels)) < len(labels)


@attrs.frozen(eq=False)
class Resume(Operation):
    """A decision resumed at the option chosen, `chosen` (label, alternative, value): the
    value bound and the frame on at the alternative's body; alternative -1 (declined) on
    at `decline`. `binds`, per alternative: (the slot its value binds or None, whether
    that is a tuple of slots, its body, whether the choice is logged as "P1 chose ..."; a
    chosen card shows up in the log through its move instead). Run by the machine (the
    interpreter) or inside the generated phase (`chosen` and `seat` handed to it);
    `optional`: may it be declined."""
    binds: tuple
    decline: int
    optional: bool
