"""Declarations of what a player reads: the game told in a few lines, titles, explanations,
what is shown and what is kept internal."""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang.errors import Span
from rulesdsl.lang.ast.node import node, span_field


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
    player; with `if`, only in games where the condition (of the player count and the
    options) holds. Example: `show wealth "money" private`, `show fuses if player_count > 2`"""
    span: Span = span_field()
    name: str = ""
    title: str = ""
    visibility: str = "public"
    cond: object = None  # read once per game: player_count, options and constants only


@node
class LookHint:
    """One hint of a `look`: its word, the name it is about where it takes one, and its
    values. Example: `colour fire "crimson"`"""
    span: Span = span_field()
    word: str = ""
    subject: Optional[str] = None
    values: tuple = ()


@node
class Look:
    """How the table looks in a browser: colours of the cloth and the seats, a card's ink
    and face, a board's ground and the sides each seat joins. It changes nothing in play.
    Example: `look { seats "black", "white"  board Square "#2e7d4f" }`"""
    span: Span = span_field()
    hints: tuple = ()  # LookHint
