"""Declaration nodes: the game, its players, options, kinds, decks, zones, variables,
definitions, phases and scores, and the file that holds them."""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang.errors import Span
from rulesdsl.lang.ast.expressions import Text
from rulesdsl.lang.ast.statements import Block
from rulesdsl.lang.ast.types import Param, TypeRef
from rulesdsl.lang.ast.node import node, span_field


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
    """How many may play, and whether they play as one team. Example: `players 2..5`,
    `players 2..5 cooperative`"""
    span: Span = span_field()
    low: int = 0
    high: int = 0
    cooperative: bool = False  # all win or lose together; the agents play for the team


@node
class Option:
    """A variant chosen before the game. Example: `option refund: bool = false`"""
    span: Span = span_field()
    name: str = ""
    type: Optional[TypeRef] = None
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
    type: Optional[TypeRef] = None
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
class Layout:
    """A board of named cells laid out in rows as the table shows them, top row first
    (a gap: None), and its tracks: the orders pieces or seeds travel along. Example:
    `board Pit { row _, b2, b1, _  row sb, _, _, sa  row _, a1, a2, _
    track sow: a1, a2, sa, b1, b2, sb, a1 }`"""
    span: Span = span_field()
    name: str = ""
    rows: tuple = ()  # each a tuple of Ref, CellRange or None (a gap)
    tracks: tuple = ()  # Track


@node
class Track:
    """One track of a laid-out board: its cells in order; the first cell written again at
    the end makes it a loop. Example: `track sow: a1, a2, sa, b1, b2, sb, a1`"""
    span: Span = span_field()
    name: str = ""
    cells: tuple = ()  # Ref or CellRange, or None where a gap `_` was written (an error)


@node
class CellRange:
    """Cells named by one prefix and the numbers from one to another, either way up.
    Example: `b6..b1` is b6, b5, b4, b3, b2, b1"""
    span: Span = span_field()
    first: str = ""
    last: str = ""


@node
class Kind:
    """A kind of card, with fields, a label, a playability condition and an effect. Example:
    `kind joker: card { label "{colour} joker" }`"""
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
    """Every card of the game and the zone it starts in.
    Example: `deck stock { joker(Colour, 0) }`"""
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
    type: Optional[TypeRef] = None
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
    """A named part of the flow, with parameters, and the type of the value it gives, if
    any. Example: `phase trick { ... }`, `phase challenged(p: player): bool { ... }`"""
    span: Span = span_field()
    name: str = ""
    params: tuple = ()
    body: Optional[Block] = None
    result: Optional[TypeRef] = None  # `: bool`: it gives a value with `return (VALUE)`


@node
class Setup:
    """Runs once before the first decision; scenarios apply right after it. Example:
    `setup { shuffle stock }`"""
    span: Span = span_field()
    body: Optional[Block] = None


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
    body: Optional[Block] = None


@node
class Invariant:
    """Card effects never take any instance of a zone below N cards; the earliest stay.
    Example: `invariant display keeps 1 during effects` (a condition the rules keep, for
    every value of its parameters: `invariant NAME(p: player) = COND`)"""
    span: Span = span_field()
    zone: str = ""
    keep: int = 1


@node
class Truth:
    """A condition the rules keep true, for every value of its parameters, and that every
    player knows: the computer players' guesses at hidden cards keep it too. Example:
    `invariant told_true(q: player, i: 1..5) = told[q, i] == none or
    slot(q, i).colour == told[q, i]`"""
    span: Span = span_field()
    name: str = ""
    params: tuple = ()
    value: object = None


@node
class Score:
    """Each player's score. Example: `score(p: player) = games_won[p]`"""
    span: Span = span_field()
    param: Optional[Param] = None
    value: object = None
    visibility: str = "public"


@node
class Evaluate:
    """How well each player stands, as the computer players estimate it where a search
    stops before the game ends; never shown to anyone. Example:
    `evaluate(p: player) = 10 * tricks_won[p] + size(hand[p])`"""
    span: Span = span_field()
    param: Optional[Param] = None
    value: object = None


@node
class Payoff:
    """What each player is paid when the game ends, read by the OpenSpiel and PettingZoo
    adapters as returns and rewards; `zero-sum` declares that the payoffs always sum to 0.
    Example: `payoff(p: player) = chips[p] - 2`, `payoff(p: player) = net[p] zero-sum`"""
    span: Span = span_field()
    param: Optional[Param] = None
    value: object = None
    zero_sum: bool = False


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
