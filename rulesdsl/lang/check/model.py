"""What the checker learns about a file: the declared names and their types (the model),
and scopes of local names."""

from __future__ import annotations

from typing import Optional
import attrs

from rulesdsl.lang import ast


NULLABLE_BASE = ("player", "card", "int")  # a number may be none: not yet known


RESERVED_TYPE_NAMES = {"int", "bool", "player", "card", "list", "text", "zone"}


# Words that start a statement: a phase of such a name could never be run.
STATEMENT_KEYWORDS = {"let", "set", "move", "shuffle", "deal", "reveal", "log", "ask", "if",
                      "repeat", "while", "for", "turns", "win", "end", "break", "return",
                      "cancel", "play", "swap", "sequence"}


# Built-in names usable as values, and their types.
BUILTIN_VALUES = {"players": "list of player", "cards": "list of card", "player_count": "int"}


# Built-in functions that take ordinary arguments: name -> (parameter types, result type).
# A parameter type "zone|list" accepts a zone or any list; "T" ties to the element type.
BUILTIN_CALLS = {
    "size": (("coll",), "int"),
    "next": (("player",), "player"),
    "previous": (("player",), "player"),
    "others": (("player",), "list of player"),
    "seat": (("int",), "player"),
    "top": (("zone",), "card"),
    "bottom": (("zone",), "card"),
    "abs": (("int",), "int"),
    "random": (("coll",), "elem"),
    "largest_group": (("list of node",), "int"),
    "neighbours": (("node",), "list of node"),
    "connected": (("node", "node"), "bool"),
    "playable": (("card", "player"), "bool"),
    "roll": (("int", "int"), "list of int"),
    "sorted": (("coll",), "list of elem"),
    # grid boards: "cell" is a cell of any grid; the result "cell" is the argument's grid
    "column_of": (("cell",), "int"),
    "row_of": (("cell",), "int"),
    "neighbour": (("cell", "Direction"), "cell"),
    "ray": (("cell", "Direction"), "list of cell"),
    "around": (("cell",), "list of cell"),
    "distance": (("cell", "cell"), "int"),
    "opposite": (("Direction",), "Direction"),
    "words": (("int",), "text"),  # a number in words: 3 -> "three"
    # a chain of neighbouring nodes of the list links a node of the second to the third
    "joins": (("list of node", "list of node", "list of node"), "bool"),
}


# The directions of grid boards: name, columns and rows moved (north: up a row).
DIRECTIONS = (("north", 0, 1), ("north_east", 1, 1), ("east", 1, 0), ("south_east", 1, -1),
              ("south", 0, -1), ("south_west", -1, -1), ("west", -1, 0),
              ("north_west", -1, 1))


# The directions of hex boards (a rhombus of hexagons, each row half a cell to the right of
# the one below): the six neighbours, with columns and rows moved; opposite ones 3 apart.
HEX_DIRECTIONS = (("north_east", 0, 1), ("east", 1, 0), ("south_east", 1, -1),
                  ("south_west", 0, -1), ("west", -1, 0), ("north_west", -1, 1))


GRID_MAX = (26, 99)  # columns a..z, rows 1..99


RANDOM_CALLS = ("random", "roll")  # drawn once: only directly in let, set or move


AGGREGATES = {"count", "sum", "max", "min", "any", "all", "first", "last"}


def list_of(t: str) -> str:
    return f"list of {t}"


def elem_of(t: str) -> Optional[str]:
    if t.startswith("list of "):
        return t[8:]
    if t == "zone":
        return "card"
    if t == "any":
        return "any"
    return None


@attrs.define
class EnumInfo:
    name: str
    values: list  # value names in order
    fields: dict  # field name -> type
    attrs: list  # per value: dict field -> ast expr
    decl: object
    is_board: bool = False
    borders: list = attrs.Factory(list)  # (a_index, b_index)
    grid: tuple = ()  # (width, height) of a grid board; cells row by row from a1
    hex: bool = False  # a hex board (its grid's cells are hexagons)
    layout: tuple = ()  # a laid-out board's rows, top first: cell names, None for a gap
    # value -> its index: a board may have thousands of nodes, looked up once per use
    positions: dict = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self):
        self.positions = {}
        for i, v in enumerate(self.values):
            self.positions.setdefault(v, i)


@attrs.define
class KindInfo:
    name: str
    decl: ast.Kind
    parent: str
    fields: dict  # all fields, inherited ones first: name -> (type, default expr)
    ancestors: list  # itself first, then parents
    changing: set = attrs.Factory(set)  # its `var` fields (inherited too): a piece's state


@attrs.define
class ZoneInfo:
    name: str
    decl: ast.Zone
    dims: list  # "player" or enum names
    visibility: str
    unordered: bool
    capacity: int
    keep: int = 0  # invariant: effects keep this many cards


@attrs.define
class VarInfo:
    name: str
    decl: ast.Var
    type: str
    dims: list


@attrs.define
class DefineInfo:
    name: str
    decl: ast.Define
    params: list  # (name, type)
    type: str = "any"
    modifiers: list = attrs.Factory(list)
    nslots: int = 0


@attrs.define
class PhaseInfo:
    name: str
    decl: ast.Phase
    params: list  # (name, type)
    asks: bool = False  # can reach a decision
    calls: set = attrs.Factory(set)
    nslots: int = 0


@attrs.define
class Model:
    """What the checker learned: declarations by name and side tables keyed by node id."""
    title: str = ""
    min_players: int = 0
    max_players: int = 0
    cooperative: bool = False  # `players N cooperative`: all win or lose together
    options: dict = attrs.Factory(dict)  # name -> ast.Option
    enums: dict = attrs.Factory(dict)  # name -> EnumInfo (boards too)
    kinds: dict = attrs.Factory(dict)  # name -> KindInfo, in declaration order
    decks: list = attrs.Factory(list)
    zones: dict = attrs.Factory(dict)
    vars: dict = attrs.Factory(dict)
    defines: dict = attrs.Factory(dict)
    phases: dict = attrs.Factory(dict)
    responses: list = attrs.Factory(list)
    setup: Optional[ast.Setup] = None
    flow: str = ""
    score: Optional[ast.Score] = None
    evaluate: Optional[ast.Evaluate] = None
    payoff: Optional[ast.Payoff] = None
    truths: dict = attrs.Factory(dict)  # name -> ast.Truth: `invariant NAME(...) = COND`
    resolved: dict = attrs.Factory(dict)  # id(Name/Call/CallStmt/Set) -> (category, payload)
    types: dict = attrs.Factory(dict)  # id(expr) -> type
    slots: dict = attrs.Factory(dict)  # id(binder node) -> slot
    nslots: dict = attrs.Factory(dict)  # id(context node) -> number of checker slots
    slot_names: dict = attrs.Factory(dict)  # id(context node) -> each slot's name, in order
    sources: dict = attrs.Factory(dict)  # path -> text
    files: list = attrs.Factory(list)
    kind_handlers: dict = attrs.Factory(dict)  # kind name -> nslots for playable/on_play
    present: object = None  # rulesdsl.lang.present.Presentation: what a player reads
    # pieces: the changing (`var`) fields of kinds -> their type, and those declared with a
    # range of numbers (what `roll` draws) -> (low, high)
    piece_fields: dict = attrs.Factory(dict)
    piece_ranges: dict = attrs.Factory(dict)


class Scope:
    """Locals of one function-like context (a phase, a definition, a handler)."""

    def __init__(self, context: object):
        self.context = context
        self.frames: list[dict] = [{}]
        self.count = 0
        self.bound: list[str] = []  # each slot's name, by slot (a name bound twice: twice)
        self.loop_depth = 0
        self.in_together = False  # a break here would leave an ask together's bodies
        self.in_sequence = False  # inside `sequence`: its trials may not leave it or draw

    def push(self):
        self.frames.append({})

    def pop(self):
        self.frames.pop()

    def bind(self, name: str, type_: str) -> int:
        slot = self.count
        self.count += 1
        self.bound.append(name)
        self.frames[-1][name] = (slot, type_)
        return slot

    def lookup(self, name: str):
        for f in reversed(self.frames):
            if name in f:
                return f[name]
        return None

    def names(self):
        for f in self.frames:
            yield from f
