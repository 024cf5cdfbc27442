"""Statement nodes: what a block of rules does, from `let` to `ask` and `turns`."""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang.errors import Span
from rulesdsl.lang.ast.expressions import Text
from rulesdsl.lang.ast.types import TypeRef
from rulesdsl.lang.ast.node import node, span_field


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
    openly: bool = False  # `openly`: every seat is shown the cards in their new place


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
class RevealFact:
    """Tells every seat a true fact about a zone without showing a card: that it holds a
    card of a kind, or none. Example: `reveal hand[q] holds c where c.rank == r`,
    `reveal hand[q] lacks c where c.rank == r`"""
    span: Span = span_field()
    zone: object = None
    binder: str = ""
    cond: object = None
    lacks: bool = False  # `lacks`: no card of the zone meets the condition


@node
class Log:
    """Writes a line to the game log. Example: `log "{p} withdraws"`"""
    span: Span = span_field()
    text: Optional[Text] = None


@node
class NamedChoice:
    """An option named by its label. Example: `"pass" { set passed[p] = true }`"""
    span: Span = span_field()
    label: Optional[Text] = None
    cond: object = None
    body: Optional[Block] = None


@node
class BinderChoice:
    """One option per element of a collection. Example: `c in hand[p] where c is joker { ... }`;
    with a label of its own: `"discard {c}" for c in hand[p] { ... }`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    where: object = None
    body: Optional[Block] = None
    label: Optional[Text] = None  # None: the element's own label


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
    body: Optional[Block] = None
    label: Optional[Text] = None  # None: the elements' labels, joined by spaces


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
    body: Optional[Block] = None
    until: object = None


@node
class While:
    """Runs the block while the condition holds. Example: `while size(stock) > 0 { ... }`"""
    span: Span = span_field()
    cond: object = None
    body: Optional[Block] = None


@node
class For:
    """Runs the block once for each element. Example: `for p in players { ... }`"""
    span: Span = span_field()
    binder: str = ""
    source: object = None
    where: object = None
    body: Optional[Block] = None


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
    body: Optional[Block] = None


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
    """Leaves the current phase, giving a value in a phase that declares one. Example:
    `return`, `return (true)`"""
    span: Span = span_field()
    value: object = None


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


@node
class Sequence:
    """The decisions in the block are one sequence, and only those that begin a best
    sequence are open: the longest (`key` none), or one that ends with the most of `key`,
    which never passes `bound` where one is given. Example:
    `sequence most pips up to sum(dice) { while ... { ask p { ... } } }`"""
    span: Span = span_field()
    key: object = None
    body: Optional[Block] = None
    bound: object = None
