"""The syntax tree of a rules file: frozen attrs nodes whose span is left out of equality.

Every node's first field is its `span`, so two trees parsed from differently laid out text
compare equal when their structure is. Each docstring shows the construct in the language.
"""

from __future__ import annotations

from typing import Optional, Union

import attrs

from rulesdsl.lang.errors import Span


def node(cls):
    """Make `cls` a frozen attrs node; its `span` field is excluded from eq and repr."""
    return attrs.frozen(cls, eq=True, repr=True)


def span_field():
    return attrs.field(eq=False, repr=False)


# ---------------------------------------------------------------- expressions


@node
class Name:
    """A name: a local, a variable, an option, an enum value, a zone. Example: `dealer`"""
    span: Span = span_field()
    name: str = ""


@node
class Int:
    """An integer literal. Example: `320_000`"""
    span: Span = span_field()
    value: int = 0


@node
class Bool:
    """A truth value. Example: `true`"""
    span: Span = span_field()
    value: bool = False


@node
class NoneLit:
    """The absent value of a player, card or enum variable. Example: `none`"""
    span: Span = span_field()


@node
class Text:
    """A string with `{expr}` holes, for labels and the log. Example: `"{p} wins"`"""
    span: Span = span_field()
    parts: tuple = ()  # str or expression nodes, in order


@node
class ListLit:
    """A list. Example: `[7, 5, 3]`"""
    span: Span = span_field()
    items: tuple = ()


@node
class Comprehension:
    """A filtered list, or a list of values. Examples: `[c in hand[p] where c is mob]`,
    `sum(c.value for c in tableau[p] where c is treasure)`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    where: object = None
    value: object = None  # None for a filter, else the mapped expression


@node
class Prefix:
    """The leading elements of a list that satisfy a condition, up to the first that does
    not. Example: `[x in ray(c, d) while disc[x] == other]`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    cond: object = None


@node
class Attr:
    """An attribute of a card or enum value. Example: `c.colour`"""
    span: Span = span_field()
    obj: object = None
    name: str = ""


@node
class Index:
    """One instance of a per-player or per-enum zone or variable. Example: `hand[p]`"""
    span: Span = span_field()
    obj: object = None
    args: tuple = ()


@node
class Call:
    """A call of a definition or a built-in. Example: `count(c in hand[p] where c is mob)`"""
    span: Span = span_field()
    name: str = ""
    args: tuple = ()


@node
class Unary:
    """`not` or unary minus. Example: `not passed[p]`"""
    span: Span = span_field()
    op: str = ""
    operand: object = None


@node
class Binary:
    """Arithmetic, comparison, `and`, `or`. Example: `tricks[c] + 1 == 3`"""
    span: Span = span_field()
    op: str = ""
    left: object = None
    right: object = None


@node
class IsKind:
    """Tests a card's kind (or a parent kind). Example: `c is not mob`"""
    span: Span = span_field()
    expr: object = None
    kind: str = ""
    negated: bool = False


@node
class IsIn:
    """Membership in a list or zone. Example: `c is in hand[p]`"""
    span: Span = span_field()
    expr: object = None
    collection: object = None
    negated: bool = False


@node
class IfExpr:
    """A conditional value. Example: `if winter then 1 else c.value`"""
    span: Span = span_field()
    cond: object = None
    then: object = None
    else_: object = None


@node
class Range:
    """Integers from start to stop inclusive. Example: `10_000..money[p] step 10_000`"""
    span: Span = span_field()
    start: object = None
    stop: object = None
    step: object = None


@node
class LetIn:
    """A name for a value inside an expression. Example:
    `let run = size(line_of(c, d)) in run > 0 and run < 4`"""
    span: Span = span_field()
    name: str = ""
    value: object = None
    body: object = None


# ---------------------------------------------------------------- types


@node
class TypeRef:
    """A type: `int`, `bool`, `player`, `card`, an enum or board name, `list of T`, or an
    integer range for options. Example: `list of player`"""
    span: Span = span_field()
    name: str = ""  # "int", "bool", "player", "card", enum name, "list", "range"
    of: Optional["TypeRef"] = None
    low: int = 0
    high: int = 0


@node
class Param:
    """A typed parameter. Example: `p: player`"""
    span: Span = span_field()
    name: str = ""
    type: TypeRef = None


# ---------------------------------------------------------------- statements


@node
class Block:
    """Statements in braces. Example: `{ shuffle stock }`"""
    span: Span = span_field()
    stmts: tuple = ()


@node
class Let:
    """A local value, its type optionally declared. Example: `let chosen: list of card = []`"""
    span: Span = span_field()
    name: str = ""
    value: object = None
    type: Optional[TypeRef] = None


@node
class Set:
    """Assignment to a variable or local. Example: `set points[p] += 1`"""
    span: Span = span_field()
    name: str = ""
    index: tuple = ()
    op: str = "="
    value: object = None


@node
class SetField:
    """Changes a piece's changing field (a kind's `var` field). Example:
    `set top(square[c]).rank = king`, `set d.face += 1`"""
    span: Span = span_field()
    piece: object = None
    name: str = ""
    op: str = "="
    value: object = None


@node
class Roll:
    """Rolls pieces: every changing field declared with a range of numbers takes a random
    number in it. Example: `roll cup[p]`"""
    span: Span = span_field()
    what: object = None


@node
class Move:
    """Moves cards (one, a list, or a whole zone) onto a zone's top. Example:
    `move top(stock, 5) to aside`"""
    span: Span = span_field()
    what: object = None
    to: object = None
    bottom: bool = False
    words: Optional[Text] = None  # `as "{p} plays {c}"`: the log line in the game's words


@node
class Shuffle:
    """Shuffles a zone. Example: `shuffle stock`"""
    span: Span = span_field()
    zone: object = None


@node
class Deal:
    """Deals from a zone, one card at a time round the table. Example:
    `deal all from stock to hand starting with next(dealer)`"""
    span: Span = span_field()
    count: object = None  # None: all
    source: object = None
    family: str = ""
    start: object = None


@node
class Reveal:
    """Shows cards to everyone, or only to some players (in the log). Example:
    `reveal influence[p]`, `reveal hand[q] to p`"""
    span: Span = span_field()
    what: object = None
    to: object = None  # None: everyone; else a player or a list of players


@node
class Log:
    """Writes a line to the game log. Example: `log "{p} withdraws"`"""
    span: Span = span_field()
    text: Text = None


@node
class NamedChoice:
    """An option named by its label. Example: `"pass" { set passed[p] = true }`"""
    span: Span = span_field()
    label: Text = None
    cond: object = None
    body: Block = None


@node
class BinderChoice:
    """One option per element of a collection. Example: `c in hand[p] where c is mob { ... }`;
    with a label of its own: `"discard {c}" for c in hand[p] { ... }`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    where: object = None
    body: Block = None
    label: Text = None  # None: the element's own label


@node
class Ask:
    """A decision: the player picks one of the options. Example:
    `ask p { c in hand[p] { move c to trick }  "pass" { } }`"""
    span: Span = span_field()
    who: object = None
    choices: tuple = ()
    question: Optional[Text] = None  # `ask p "Lay a card face down?" { ... }`


@node
class TupleChoice:
    """One option per combination of elements, one element from each collection; a later
    collection may depend on the earlier elements. Example:
    `"bid {q} x {f}" for (q, f) in 1..dice_out, 1..6 where beats(q, f) { ... }`"""
    span: Span = span_field()
    binders: tuple = ()
    sources: tuple = ()
    where: object = None
    body: Block = None
    label: Text = None  # None: the elements' labels, joined by spaces


@node
class AskTogether:
    """A simultaneous decision: each player chooses without seeing the others' choices, then
    all the choices take effect together, in the order of the list. Example:
    `ask together p in players { "bid {c}" for c in hand[p] { move c to bid[p] } }`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    where: object = None
    choices: tuple = ()
    question: Optional[Text] = None  # what the runner asks each of them


@node
class AskEach:
    """Offers each player in turn the options, and a `decline`; players with no option are
    skipped, unless `openly`: then every player is asked, and one with no option gets only
    `decline`, so who is asked never tells what they hold.
    Example: `ask each q in others(p) openly { r in hand[q] where r is veto { cancel } }`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    where: object = None
    choices: tuple = ()
    openly: bool = False
    question: Optional[Text] = None


@node
class If:
    """Conditions. Example: `if x > 0 { ... } else if y { ... } else { ... }`"""
    span: Span = span_field()
    branches: tuple = ()  # (cond, Block) pairs
    else_: Optional[Block] = None


@node
class Repeat:
    """Runs the block, then again until the condition holds. Example:
    `repeat { trick } until tricks[red] == 3`"""
    span: Span = span_field()
    body: Block = None
    until: object = None


@node
class While:
    """Runs the block while the condition holds. Example: `while size(stock) > 0 { ... }`"""
    span: Span = span_field()
    cond: object = None
    body: Block = None


@node
class For:
    """Runs the block once for each element. Example: `for p in players { ... }`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    where: object = None
    body: Block = None


@node
class Turns:
    """Seats in turn order from a player, round and round, until the condition holds (it is
    checked before every turn) or every seat is skipped. Example:
    `turns p from starter skip if withdrawn[p] until one_left { turn(p) }`"""
    span: Span = span_field()
    binder: str = ""
    start: object = None
    skip: object = None
    until: object = None
    body: Block = None


@node
class CallStmt:
    """Runs a phase. Example: `lay_influence(dealer)`"""
    span: Span = span_field()
    name: str = ""
    args: tuple = ()
    has_parens: bool = False


@node
class Win:
    """Ends the game with these winners (a player or a list). Example: `win p`"""
    span: Span = span_field()
    who: object = None


@node
class EndGame:
    """Ends the game with no winner. Example: `end game`"""
    span: Span = span_field()


@node
class Break:
    """Leaves the innermost loop. Example: `break`"""
    span: Span = span_field()


@node
class Return:
    """Leaves the current phase. Example: `return`"""
    span: Span = span_field()


@node
class Cancel:
    """In a response: cancels the card being played, and closes the response. Example: `cancel`"""
    span: Span = span_field()


@node
class Respond:
    """In a kind's `on play`: the responses to the card run here, after the choices above
    and before the effect below; a response that cancels the card ends the effect.
    Example: `ask p { q in others(p) { respond  move top(line[q]) to discard } }`"""
    span: Span = span_field()


@node
class Play:
    """Plays a card: moves it, opens the responses, then runs its `on play` unless cancelled.
    Example: `play c by p to discard`"""
    span: Span = span_field()
    card: object = None
    by: object = None
    to: object = None


@node
class Swap:
    """Exchanges two cards' places. Example: `swap mine with theirs`"""
    span: Span = span_field()
    a: object = None
    b: object = None


# ---------------------------------------------------------------- declarations


@node
class Ref:
    """A name written in a declaration, kept with its place. Example: `per player`"""
    span: Span = span_field()
    name: str = ""


@node
class Border:
    """A border between two board nodes. Example: `North - South`"""
    span: Span = span_field()
    a: str = ""
    b: str = ""


@node
class Game:
    """The game's name. Example: `game "Lost Harbours"`"""
    span: Span = span_field()
    title: str = ""


@node
class Extends:
    """Builds on another rules file. Example: `extends "base_game"`"""
    span: Span = span_field()
    path: str = ""


@node
class Players:
    """How many may play. Example: `players 2..5`"""
    span: Span = span_field()
    low: int = 0
    high: int = 0


@node
class Option:
    """A variant chosen before the game. Example: `option refund: bool = false`"""
    span: Span = span_field()
    name: str = ""
    type: TypeRef = None
    default: object = None
    doc: str = ""


@node
class EnumItem:
    """One value of an enum, with attribute values. Example: `low(10_000)`"""
    span: Span = span_field()
    name: str = ""
    args: tuple = ()
    title: str = ""


@node
class Field:
    """An attribute of a kind or enum. Example: `value: int = 0`"""
    span: Span = span_field()
    name: str = ""
    type: TypeRef = None
    default: object = None
    changing: bool = False  # `var rank: Rank = man` in a kind: a piece's state, set in play


@node
class Enum:
    """A closed set of named values. Example: `enum Colour { red, yellow, black }`"""
    span: Span = span_field()
    name: str = ""
    fields: tuple = ()
    items: tuple = ()


@node
class Board:
    """A map: named nodes and the borders between them. Example:
    `board Region { North, South, East  borders North - South, South - East }`"""
    span: Span = span_field()
    name: str = ""
    nodes: tuple = ()  # Ref
    borders: tuple = ()  # Border


@node
class Grid:
    """A rectangular board of cells named by column letter and row number, a1 at the
    bottom left; or a rhombus of hexagonal cells. Examples: `board Cell grid 8 x 8`,
    `board Cell hex 7 x 7`"""
    span: Span = span_field()
    name: str = ""
    width: int = 0
    height: int = 0
    hex: bool = False  # `board Cell hex 7 x 7`: hexagonal cells, six neighbours each


@node
class Kind:
    """A kind of card, with fields, a label, a playability condition and an effect. Example:
    `kind mob: card { label "{colour} mob" }`"""
    span: Span = span_field()
    name: str = ""
    parent: str = ""
    fields: tuple = ()
    label: Optional[Text] = None
    playable: Optional[tuple] = None  # (player binder, expr)
    on_play: Optional[tuple] = None  # (player binder, Block)


@node
class DeckEntry:
    """Cards of a kind: a count, then arguments (an enum or a list makes one per value).
    Example: `4 x weapon(purple, [3, 4, 5])`"""
    span: Span = span_field()
    count: int = 1
    kind: str = ""
    args: tuple = ()


@node
class Deck:
    """Every card of the game and the zone it starts in. Example: `deck stock { mob(Colour, 0) }`"""
    span: Span = span_field()
    zone: str = ""
    per_player: str = ""  # binder name when the deck is made once per player
    entries: tuple = ()


@node
class Zone:
    """A place for cards: shared, or one per player or enum value; who sees it. Example:
    `zone hand per player private unordered`"""
    span: Span = span_field()
    name: str = ""
    dims: tuple = ()  # Ref: "player" or enum names
    visibility: str = "public"
    unordered: bool = False
    capacity: int = 0


@node
class Var:
    """A variable: global, per player, per enum value. Example:
    `var money: int per player = 320_000 private`"""
    span: Span = span_field()
    name: str = ""
    type: TypeRef = None
    dims: tuple = ()
    default: object = None
    visibility: str = "public"


@node
class Define:
    """A derived value. Example: `define support(p: player) = sum(c.value for c in influence[p])`"""
    span: Span = span_field()
    name: str = ""
    params: tuple = ()
    body: object = None


@node
class Modifier:
    """Changes a definition's value when a condition holds; within it the definition's name
    is the value so far. Example: `modifier frost of worth when frozen = 1`"""
    span: Span = span_field()
    name: str = ""
    target: str = ""
    cond: object = None
    value: object = None


@node
class Phase:
    """A named part of the flow, with parameters. Example: `phase trick { ... }`"""
    span: Span = span_field()
    name: str = ""
    params: tuple = ()
    body: Block = None


@node
class Setup:
    """Runs once before the first decision; scenarios apply right after it. Example:
    `setup { shuffle stock }`"""
    span: Span = span_field()
    body: Block = None


@node
class Flow:
    """The phase the game runs after setup. Example: `flow match`"""
    span: Span = span_field()
    phase: str = ""


@node
class Response:
    """Runs when a card is played, before its effect; `cancel` stops the effect. Example:
    `response veto to x played by p where x is action { ask each q in others(p) { ... } }`"""
    span: Span = span_field()
    name: str = ""
    card: str = ""
    player: str = ""
    where: object = None
    body: Block = None


@node
class Invariant:
    """Card effects never take any instance of a zone below N cards; the earliest stay.
    Example: `invariant display keeps 1 during effects`"""
    span: Span = span_field()
    zone: str = ""
    keep: int = 1


@node
class Score:
    """Each player's score. Example: `score(p: player) = games_won[p]`"""
    span: Span = span_field()
    param: Param = None
    value: object = None
    visibility: str = "public"


# ---------------------------------------------------------------- what a player reads


@node
class About:
    """The game told in a few lines: what it is, how to win, the flow; one string a line.
    Example: `about "Collect sets of fruit." "The most points after three rounds wins."`"""
    span: Span = span_field()
    lines: tuple = ()


@node
class Title:
    """What a zone, variable, phase, definition, kind or enum is called on the screen.
    Example: `title stock "the draw pile"`"""
    span: Span = span_field()
    name: str = ""
    title: str = ""


@node
class Explain:
    """What a card kind, an enum value or any declared name means, for `help NAME`.
    Example: `text wild "A wild card counts as any colour."`"""
    span: Span = span_field()
    name: str = ""
    lines: tuple = ()


@node
class Internal:
    """Variables kept for the rules' bookkeeping, never shown on a screen. Example:
    `internal passes_left, last_bid`"""
    span: Span = span_field()
    names: tuple = ()  # Ref


@node
class Show:
    """A definition shown on the screen: one value, or one per player when it takes a
    player. Example: `show wealth(p: player)` is written `show wealth "money" private`"""
    span: Span = span_field()
    name: str = ""
    title: str = ""
    visibility: str = "public"


@node
class Decl:
    """A declaration, possibly replacing a same-named one of the file it extends. Example:
    `override phase round { ... }`"""
    span: Span = span_field()
    override: bool = False
    body: object = None


@node
class File:
    """A whole rules file."""
    span: Span = span_field()
    path: str = ""
    decls: tuple = ()


Expr = Union[Name, Int, Bool, NoneLit, Text, ListLit, Comprehension, Attr, Index, Call, Unary,
             Binary, IsKind, IsIn, IfExpr, Range, LetIn, Prefix]
