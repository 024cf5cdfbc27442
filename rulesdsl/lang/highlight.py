"""Syntax highlighting of rules files: a Pygments lexer, `RulesLexer`.

Pygments is optional (`pip install "rulesdsl[highlight]"`); nothing else in rulesdsl
imports this module. Installed, the package registers the lexer with Pygments under the
names `rulesdsl` and `rules` and for `*.rules` files, so `pygmentize -l rulesdsl FILE`,
Sphinx/MkDocs code blocks marked `rulesdsl`, and anything else built on Pygments colour
rules files.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation,
                            String, Whitespace)

__all__ = ["RulesLexer"]

# Words that start a declaration.
DECLARATIONS = ("game", "extends", "option", "enum", "board", "kind", "deck", "zone", "var",
                "define", "modifier", "phase", "setup", "flow", "response", "invariant",
                "score", "evaluate", "payoff", "override", "about", "title", "text", "internal",
                "show", "look")
# Every other word of the grammar.
KEYWORDS = ("let", "set", "move", "to", "at", "bottom", "shuffle", "deal", "all", "from",
            "starting", "with", "reveal", "log", "ask", "each", "together", "where", "if",
            "then", "else", "openly", "respond",
            "repeat", "until", "while", "for", "turns", "skip", "win", "end", "break",
            "return", "cancel", "play", "played", "playable", "by", "swap", "step", "of",
            "when", "keeps", "during", "effects", "per", "as", "on", "label", "borders",
            "public", "private", "hidden", "unordered", "capacity", "players", "grid",
            "roll", "hex", "cooperative", "holds", "lacks", "others", "sequence", "longest",
            "most", "up", "row", "track")
OPERATOR_WORDS = ("and", "or", "not", "is", "in")
CONSTANTS = ("true", "false", "none")
TYPES = ("int", "bool", "player", "card", "list", "text", "zone")
# Built-in values, and built-in functions (highlighted where they are called).
BUILTIN_VALUES = ("players", "cards", "player_count")
BUILTIN_CALLS = ("size", "next", "previous", "others", "seat", "top", "bottom", "abs",
                 "random", "roll", "sorted", "column_of", "row_of", "neighbour", "ray",
                 "around", "distance", "opposite", "largest_group", "neighbours", "connected",
                 "playable", "words", "joins",
                 "count", "sum", "max", "min", "any", "all", "first", "last")

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"


class RulesLexer(RegexLexer):
    """Rules files of rulesdsl, the declarative language for card and board games."""

    name = "rulesdsl"
    aliases = ["rules", "rulesdsl"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulesdsl"]
    url = "https://github.com/rulesdsl/rulesdsl"
    version_added = ""

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "string"),
            # `players 2..5` declares; elsewhere `players` is the built-in list of seats
            (r"^(\s*)(players)\b(?=\s*[0-9])", bygroups(Whitespace, Keyword.Declaration)),
            (r"\b(phase|define|modifier|response|flow)(\s+)(" + _NAME + r")",
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"\b(kind|enum|board)(\s+)(" + _NAME + r")",
             bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (r"\b(zone|var|deck|option)(\s+)(" + _NAME + r")",
             bygroups(Keyword.Declaration, Whitespace, Name.Variable)),
            (words(DECLARATIONS, prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            include("expression"),
            (r"[{}]", Punctuation),
        ],
        "expression": [
            (r"\s+", Whitespace),
            (r"([0-9][0-9_]*)(\s+)(x)\b", bygroups(Number.Integer, Whitespace, Keyword)),
            (r"[0-9][0-9_]*", Number.Integer),
            (words(CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(OPERATOR_WORDS, prefix=r"\b", suffix=r"\b"), Operator.Word),
            (words(BUILTIN_CALLS, prefix=r"\b", suffix=r"(?=\s*\()"), Name.Builtin),
            (words(BUILTIN_VALUES, prefix=r"\b", suffix=r"\b"), Name.Builtin),
            (words(TYPES, prefix=r"\b", suffix=r"\b"), Keyword.Type),
            (words(KEYWORDS, prefix=r"\b", suffix=r"\b"), Keyword),
            (r"\bself\b", Name.Builtin.Pseudo),
            (_NAME, Name),
            (r"\+=|-=|==|!=|<=|>=|\.\.|[-+*/%<>=]", Operator),
            (r"[()\[\],.:]", Punctuation),
        ],
        "string": [
            (r"\\.", String.Escape),
            (r"\{", String.Interpol, "hole"),
            (r'[^"\\{\n]+', String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Error, "#pop"),  # a string must close on its line
        ],
        "hole": [  # an expression in a string: "{p} wins"
            (r"\}", String.Interpol, "#pop"),
            (r'"', Error, "#pop:2"),
            (r"\n", Error, "#pop:2"),
            include("expression"),
        ],
    }
