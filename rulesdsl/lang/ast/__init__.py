"""The syntax tree of a rules file: frozen attrs nodes whose span is left out of equality.

Every node's first field is its `span`, so two trees parsed from differently laid out text
compare equal when their structure is. Each docstring shows the construct in the language.
The nodes live in one module a family; this package gathers them, so `ast.Move` reads as
it always did.
"""

from rulesdsl.lang.ast.node import node, span_field
from rulesdsl.lang.ast.expressions import (Name, Int, Bool, NoneLit, Text, ListLit,
    Comprehension, Prefix, Attr, Index, Call, Unary, Binary, IsKind, IsIn, IfExpr, Range,
    LetIn, Expr)
from rulesdsl.lang.ast.types import TypeRef, Param
from rulesdsl.lang.ast.statements import (Block, Let, Set, SetField, Roll, Move, Shuffle,
    Deal, Reveal, RevealFact, Log, NamedChoice, BinderChoice, Ask, TupleChoice, AskTogether,
    AskEach,
    If, Repeat, While, For, Turns, CallStmt, Win, EndGame, Break, Return, Cancel, Respond,
    Play, Swap, Sequence)
from rulesdsl.lang.ast.declarations import (Ref, Border, Game, Extends, Players, Option,
    EnumItem, Field, Enum, Board, Grid, Layout, Track, CellRange, Kind, DeckEntry, Deck,
    Zone, Var, Define, Modifier, Phase, Setup, Flow, Response, Invariant, Truth, Score, Evaluate,
    Payoff, Decl, File)
from rulesdsl.lang.ast.reading import About, Title, Explain, Internal, Show, Look, LookHint
