"""rulesdsl fmt: the canonical layout, its properties, and the `fmt` and `check --format json`
commands.

Properties, on every bundled file and on generated programs (hypothesis): the formatted text
parses to the same syntax tree (spans aside), keeps every comment in order, and formatting
it again changes nothing. The bundled games and examples must be in the layout already.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Token

from rulesdsl import cli
from rulesdsl.lang import syntax
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.fmt import comments_of, format_source, parse_with_comments
from rulesdsl.lang.resources import grammar_text

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted(ROOT.glob("games/*.rules")) + sorted(ROOT.glob("examples/*.rules"))
ALL_FILES = BUNDLED + sorted(ROOT.glob("tests/lang/*.rules"))


def rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def fmt(text: str, verify: bool = True) -> str:
    return format_source(text, "<test>", verify=verify)


# ---------------------------------------------------------------- the bundled files

@pytest.mark.parametrize("path", BUNDLED, ids=rel)
def test_bundled_file_is_formatted(path):
    text = path.read_text(encoding="utf-8")
    assert format_source(text, str(path), verify=False) == text, \
        f"{rel(path)} is not in the canonical layout: run `rulesdsl fmt {rel(path)}`"


@pytest.mark.parametrize("path", ALL_FILES, ids=rel)
def test_formatting_keeps_meaning_and_comments_and_is_idempotent(path):
    text = path.read_text(encoding="utf-8")
    out = format_source(text, str(path), verify=False)
    assert syntax.parse(out, str(path)) == syntax.parse(text, str(path))
    assert comments_of(out) == comments_of(text)
    assert format_source(out, str(path), verify=False) == out


def test_there_are_bundled_files():
    assert any(p.parent.name == "games" for p in BUNDLED)
    assert any(p.parent.name == "lang" for p in ALL_FILES)


# ---------------------------------------------------------------- the layout, rule by rule

LAYOUT = [
    # spacing: none inside brackets, around '.' and '..', after unary minus
    ("define  f( a : int,b:int )=a.b+ - c*[ 1,2 ]  [ 0 ]",
     "define f(a: int, b: int) = a.b + -c * [1, 2][0]\n"),
    ("players 2 .. 5", "players 2..5\n"),
    ("define r = 10_000 .. money [ p ]  step 10_000",
     "define r = 10_000..money[p] step 10_000\n"),
    ("score ( p : player ) = won [ p ]   private", "score(p: player) = won[p] private\n"),
    # numbers and strings keep their text
    ('define s = "  {p}  wins \\" {a.b}"  + 1_000_000',
     'define s = "  {p}  wins \\" {a.b}" + 1_000_000\n'),
    # one statement per line; '{' at the end of the line; '} else {'
    ("phase p { let a = 1 set b += 2 if a { win a }\n else { end game } }",
     "phase p {\n  let a = 1\n  set b += 2\n  if a { win a } else { end game }\n}\n"),
    ("phase p {\n  if a {\n    win a\n  }\n  else if b { break }\n}",
     "phase p {\n  if a {\n    win a\n  } else if b { break }\n}\n"),
    # empty bodies are '{ }'; one-item bodies stay on one line only when written so
    ('phase p { ask q { "pass" {\n}\n c in hand[q] { move c to pile } } }',
     'phase p {\n  ask q {\n    "pass" { }\n    c in hand[q] { move c to pile }\n  }\n}\n'),
    ("setup {\n  shuffle s\n}", "setup {\n  shuffle s\n}\n"),
    ("setup { shuffle s }", "setup { shuffle s }\n"),
    ("setup { repeat { x } until y }", "setup {\n  repeat { x } until y\n}\n"),
    # kinds: one item per line; decks lose their commas
    ('kind card { colour: Colour  value: int  label "{colour} {value}" }',
     'kind card {\n  colour: Colour\n  value: int\n  label "{colour} {value}"\n}\n'),
    ('kind veto: card { label "veto" }', 'kind veto: card { label "veto" }\n'),
    ("deck s { 2 x a(1), b, c(Colour, [1, 2]) }",
     "deck s {\n  2 x a(1)\n  b\n  c(Colour, [1, 2])\n}\n"),
    ("deck s per player as p { f(p) }", "deck s per player as p { f(p) }\n"),
    # enums: one line if written so, else a line per group, each ending with ','
    ('enum C { red "Caesar" , yellow }', 'enum C { red "Caesar", yellow }\n'),
    ("enum A(s: int) {\n a(1), b(2)\n ,c(3) }",
     "enum A(s: int) {\n  a(1), b(2),\n  c(3),\n}\n"),
    # boards are always laid out
    ("board L { N, S, E  borders N - S, S - E, }",
     "board L {\n  N, S, E\n  borders N - S, S - E\n}\n"),
    ("board L { N, S,\n E\n borders\n N - S,\n S - E }",
     "board L {\n  N, S,\n  E\n  borders\n    N - S,\n    S - E\n}\n"),
    # blank lines: between sorts always, within a sort as written, never two
    ('game "g"\nplayers 2\noption o: bool = false\nzone a\nzone b\n\n\n\nzone c\nvar v: int = 0',
     'game "g"\nplayers 2\noption o: bool = false\n\nzone a\nzone b\n\nzone c\n\n'
     'var v: int = 0\n'),
    ("define f = 1\nmodifier m of f when a = 2\nflow main",
     "define f = 1\nmodifier m of f when a = 2\n\nflow main\n"),
    ("phase p {\n\n  a\n\n\n  b\n\n}", "phase p {\n  a\n\n  b\n}\n"),
    # long expressions stay on one line; the author's breaks are kept at good places
    ("define f = a and\n b and c", "define f = a and\n    b and c\n"),
    ("define f =\n  a\n  and b", "define f =\n  a and\n  b\n"),
    ("define f = g(a,\n b)", "define f = g(a,\n" + " " * 13 + "b)\n"),
    ("define f = a\n + b", "define f = a +\n    b\n"),
    ("define f = a.\nb[\nc\n]", "define f = a.b[c]\n"),
    ("phase p {\n  for q in players where a and\n b {\n x\n }\n}",
     "phase p {\n  for q in players where a and\n      b {\n    x\n  }\n}\n"),
    ("define f = any(q in c where\n d)", "define f = any(q in c\n" + " " * 15 + "where d)\n"),
    # a conditional written over lines: every 'else' starts a line
    ("define beats(a: card, b: card) =\n  if a then b else if c then d\n  else e",
     "define beats(a: card, b: card) =\n  if a then b\n  else if c then d\n  else e\n"),
    ("define f = if a then b else c", "define f = if a then b else c\n"),
    ("define f =\n  if a then b\n  else c + (d and\n e)",
     "define f =\n  if a then b\n  else c + (d and\n" + " " * 12 + "e)\n"),
    ("define f =\n  if a then b\n  else c +\n d",
     "define f =\n  if a then b\n  else c +\n    d\n"),
    # override
    ("override   phase p { }", "override phase p { }\n"),
    # a named invariant: its parameters glued to its name, as a definition's
    ("invariant  kept ( q : player , i : 1..5 )=ok(q,i)",
     "invariant kept(q: player, i: 1..5) = ok(q, i)\n"),
]


@pytest.mark.parametrize("source, expected", LAYOUT)
def test_layout(source, expected):
    assert fmt(source) == expected
    assert fmt(expected) == expected


COMMENTED = [
    # own-line comments keep their line, before what followed; the file's head stays
    ("# head\n\n\ngame \"g\"  # the title\n# before players\nplayers 2\n",
     "# head\n\ngame \"g\"  # the title\n# before players\nplayers 2\n"),
    # trailing comments of a section are aligned, two spaces after the longest line
    ("zone a public # one\nzone bb hidden   # two\nzone c\nzone dddd # four\n\nzone e  # five\n",
     "zone a public   # one\nzone bb hidden  # two\nzone c\nzone dddd       # four\n\n"
     "zone e  # five\n"),
    # a comment before '}' stays inside the block; one at the end of the file stays last
    ("phase p {\n  a\n      # last words\n}\n# the end\n",
     "phase p {\n  a\n  # last words\n}\n# the end\n"),
    ("phase p { # why\n a }", "phase p {  # why\n  a\n}\n"),
    ("phase p {\n  # nothing yet\n}", "phase p {\n  # nothing yet\n}\n"),
    # a comment in a body keeps it laid out
    ("setup { shuffle s # mix\n}", "setup {\n  shuffle s  # mix\n}\n"),
    # a comment inside an expression forces the break it needs
    ("define f = g(a, # first\n b)", "define f = g(a,  # first\n" + " " * 13 + "b)\n"),
    ("define f = g(a\n# between\n, b)", "define f = g(a\n" + " " * 13 + "# between\n" + " " * 13 + ",\n" + " " * 13 + "b)\n"),
    # enum values with comments
    ("enum C { red, # r\n blue }", "enum C {\n  red,  # r\n  blue,\n}\n"),
    # blank line between sorts goes before the declaration's comments
    ("zone a\n# about v\nvar v: int = 0", "zone a\n\n# about v\nvar v: int = 0\n"),
    # a '#' inside a string is not a comment
    ('define s = "#1"  # one', 'define s = "#1"  # one\n'),
]


@pytest.mark.parametrize("source, expected", COMMENTED)
def test_comments(source, expected):
    out = fmt(source)
    assert out == expected
    assert comments_of(out) == comments_of(source)
    assert fmt(out) == out


def test_empty_and_comment_only_files():
    assert fmt("") == ""
    assert fmt("\n\n   \n") == ""
    assert fmt("# only a comment") == "# only a comment\n"


def test_line_endings_and_tabs():
    assert fmt('game "g"\r\nplayers 2\r\n') == 'game "g"\nplayers 2\n'
    assert fmt("setup {\n\tshuffle s\n}") == "setup {\n  shuffle s\n}\n"


@pytest.mark.parametrize("source, code", [
    ('game "x"\nzone hand per player privat', "E101"),
    ("phase p {", "E102"),
    ("phase p { log \"{\" }", "E103"),
    ("game 'x'", "E100"),
])
def test_bad_input_is_a_rules_error(source, code):
    with pytest.raises(RulesError) as info:
        fmt(source)
    assert info.value.code == code
    assert info.value.span is not None


# ---------------------------------------------------------------- hypothesis: generated programs

NAMES = ["a", "b", "c", "hand", "pile", "total", "p", "q", "n1", "red"]
name = st.sampled_from(NAMES)
ints = st.sampled_from(["0", "1", "3", "10_000", "320_000", "1_0"])
strings = st.sampled_from(['"pass"', '"{p} wins"', '"{a.b} and {size(hand[p])}"',
                          '"a \\" quote"', '"  spaced  {q}  "', '"#not a comment"',
                          '"\\{x"', '""'])


def seq(*parts):
    """Tokens from parts: strings are tokens, lists are token lists."""
    out = []
    for part in parts:
        if part is None:
            continue
        out += part if isinstance(part, list) else [part]
    return out


atoms = st.one_of(name.map(lambda n: [n]), ints.map(lambda n: [n]),
                  st.sampled_from([["true"], ["false"], ["none"]]),
                  strings.map(lambda s: [s]))


def comma_list(items):
    out = []
    for k, item in enumerate(items):
        if k:
            out.append(",")
        out += item
    return out


def extend(children):
    operand = st.one_of(atoms, children.map(lambda e: seq("(", e, ")")))
    args = st.lists(children, min_size=1, max_size=3).map(comma_list)
    binary = st.tuples(operand, st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", "<=",
                                                 ">", ">="]), operand)
    chain = st.tuples(st.sampled_from(["and", "or"]), st.lists(operand, min_size=2, max_size=4))
    return st.one_of(
        binary.map(lambda t: seq(t[0], t[1], t[2])),
        chain.map(lambda t: [tok for k, o in enumerate(t[1])
                             for tok in ([t[0]] if k else []) + o]),
        operand.map(lambda e: seq("not", e)),
        operand.map(lambda e: seq("-", e)),
        st.tuples(name, name).map(lambda t: [t[0], ".", t[1]]),
        st.tuples(name, args).map(lambda t: seq(t[0], "[", t[1], "]")),
        st.tuples(name, args).map(lambda t: seq(t[0], "(", t[1], ")")),
        name.map(lambda n: [n, "(", ")"]),
        st.tuples(name, name, operand, st.one_of(st.none(), operand)).map(
            lambda t: seq(t[0], "(", t[1], "in", t[2], ["where"] + t[3] if t[3] else None, ")")),
        st.tuples(name, operand, name, operand).map(
            lambda t: seq(t[0], "(", t[1], "for", t[2], "in", t[3], ")")),
        args.map(lambda a: seq("[", a, "]")),
        st.just(["[", "]"]),
        st.tuples(name, operand, operand).map(
            lambda t: seq("[", t[0], "in", t[1], "where", t[2], "]")),
        st.tuples(st.lists(st.tuples(children, children), min_size=1, max_size=3), children).map(
            lambda t: [tok for c, v in t[0] for tok in seq("if", c, "then", v, "else")] + t[1]),
        st.tuples(operand, st.booleans(), name).map(
            lambda t: seq(t[0], "is", "not" if t[1] else None, t[2])),
        st.tuples(operand, st.booleans(), operand).map(
            lambda t: seq(t[0], "is", "not" if t[1] else None, "in", t[2])),
        st.tuples(operand, operand, st.one_of(st.none(), operand)).map(
            lambda t: seq(t[0], "..", t[1], ["step"] + t[2] if t[2] else None)),
    )


exprs = st.recursive(atoms, extend, max_leaves=6)
types = st.recursive(st.one_of(st.just(["player"]), name.map(lambda n: [n]),
                               st.just(["1", "..", "9"])),
                     lambda inner: inner.map(lambda t: seq("list", "of", t)), max_leaves=2)
target = st.one_of(name.map(lambda n: [n]),
                   st.tuples(name, st.lists(exprs, min_size=1, max_size=2)).map(
                       lambda t: seq(t[0], "[", comma_list(t[1]), "]")))
opt = st.one_of(st.none(), exprs)

simple_stmts = st.one_of(
    st.tuples(name, st.one_of(st.none(), types), exprs).map(
        lambda t: seq("let", t[0], [":"] + t[1] if t[1] else None, "=", t[2])),
    st.tuples(target, st.sampled_from(["=", "+=", "-="]), exprs).map(
        lambda t: seq("set", t[0], t[1], t[2])),
    st.tuples(exprs, exprs, st.booleans()).map(
        lambda t: seq("move", t[0], "to", t[1], ["at", "bottom"] if t[2] else None)),
    exprs.map(lambda e: seq("shuffle", e)),
    st.tuples(st.one_of(st.just(["all"]), exprs), exprs, name, opt).map(
        lambda t: seq("deal", t[0], "from", t[1], "to", t[2],
                      ["starting", "with"] + t[3] if t[3] else None)),
    exprs.map(lambda e: seq("reveal", e)),
    strings.map(lambda s: ["log", s]),
    name.map(lambda n: [n]),
    st.tuples(name, st.lists(exprs, max_size=2)).map(
        lambda t: seq(t[0], "(", comma_list(t[1]), ")")),
    exprs.map(lambda e: seq("win", e)),
    st.sampled_from([["end", "game"], ["break"], ["return"], ["cancel"]]),
    st.tuples(exprs, exprs, exprs).map(lambda t: seq("play", t[0], "by", t[1], "to", t[2])),
    st.tuples(exprs, exprs).map(lambda t: seq("swap", t[0], "with", t[1])),
)

LABELLED_CHOICE = "labelled_choice" in grammar_text()


def block_of(stmts):
    return st.lists(stmts, max_size=3).map(lambda ss: seq("{", *ss, "}"))


def compound(stmts):
    block = block_of(stmts)
    choice_forms = [
        st.tuples(strings, opt, block).map(
            lambda t: seq(t[0], ["if"] + t[1] if t[1] else None, t[2])),
        st.tuples(name, exprs, opt, block).map(
            lambda t: seq(t[0], "in", t[1], ["where"] + t[2] if t[2] else None, t[3])),
    ]
    if LABELLED_CHOICE:
        choice_forms.append(st.tuples(strings, name, exprs, opt, block).map(
            lambda t: seq(t[0], "for", t[1], "in", t[2], ["where"] + t[3] if t[3] else None,
                          t[4])))
    choices = st.lists(st.one_of(*choice_forms), min_size=1, max_size=3).map(lambda cs: seq(*cs))
    return st.one_of(
        stmts,
        st.tuples(exprs, block, st.lists(st.tuples(exprs, block), max_size=2),
                  st.one_of(st.none(), block)).map(
            lambda t: seq("if", t[0], t[1], *[seq("else", "if", c, b) for c, b in t[2]],
                          ["else"] + t[3] if t[3] else None)),
        st.tuples(block, exprs).map(lambda t: seq("repeat", t[0], "until", t[1])),
        st.tuples(exprs, block).map(lambda t: seq("while", t[0], t[1])),
        st.tuples(name, exprs, opt, block).map(
            lambda t: seq("for", t[0], "in", t[1], ["where"] + t[2] if t[2] else None, t[3])),
        st.tuples(name, exprs, opt, opt, block).map(
            lambda t: seq("turns", t[0], "from", t[1], ["skip", "if"] + t[2] if t[2] else None,
                          ["until"] + t[3] if t[3] else None, t[4])),
        st.tuples(exprs, choices).map(lambda t: seq("ask", t[0], "{", t[1], "}")),
        st.tuples(name, exprs, opt, choices).map(
            lambda t: seq("ask", "each", t[0], "in", t[1], ["where"] + t[2] if t[2] else None,
                          "{", t[3], "}")),
    )


stmts = st.recursive(simple_stmts, compound, max_leaves=6)
block = block_of(stmts)
params = st.lists(st.tuples(name, types).map(lambda t: seq(t[0], ":", t[1])), max_size=2).map(
    lambda ps: seq("(", comma_list(ps), ")"))
field = st.tuples(name, types, opt).map(
    lambda t: seq(t[0], ":", t[1], ["="] + t[2] if t[2] else None))
visibility = st.one_of(st.none(), st.sampled_from(["public", "private", "hidden"]))
dims = st.lists(st.one_of(st.just(["per", "player"]), name.map(lambda n: ["per", n])),
                max_size=2).map(lambda ds: seq(*ds))
kind_item = st.one_of(
    field,
    strings.map(lambda s: ["label", s]),
    st.tuples(name, exprs).map(lambda t: seq("playable", "by", t[0], "if", t[1])),
    st.tuples(name, block).map(lambda t: seq("on", "play", "by", t[0], t[1])),
)
enum_item = st.tuples(name, st.one_of(st.none(), st.lists(exprs, min_size=1, max_size=2)),
                      st.one_of(st.none(), strings)).map(
    lambda t: seq(t[0], seq("(", comma_list(t[1]), ")") if t[1] else None, t[2]))
deck_entry = st.tuples(st.one_of(st.none(), ints), name,
                       st.one_of(st.none(), st.lists(exprs, max_size=2)), st.booleans()).map(
    lambda t: seq([t[0], "x"] if t[0] else None, t[1],
                  seq("(", comma_list(t[2]), ")") if t[2] is not None else None,
                  "," if t[3] else None))

decl_bodies = st.one_of(
    strings.map(lambda s: ["game", s]),
    strings.map(lambda s: ["extends", s]),
    st.tuples(ints, st.one_of(st.none(), ints)).map(
        lambda t: seq("players", t[0], ["..", t[1]] if t[1] else None)),
    st.tuples(name, types, exprs, st.one_of(st.none(), strings)).map(
        lambda t: seq("option", t[0], ":", t[1], "=", t[2], t[3])),
    st.tuples(name, st.one_of(st.none(), st.lists(field, min_size=1, max_size=2)),
              st.lists(enum_item, min_size=1, max_size=4), st.booleans()).map(
        lambda t: seq("enum", t[0], seq("(", comma_list(t[1]), ")") if t[1] else None, "{",
                      comma_list(t[2]), "," if t[3] else None, "}")),
    st.tuples(name, st.lists(name, min_size=1, max_size=4),
              st.lists(st.tuples(name, name), min_size=1, max_size=3)).map(
        lambda t: seq("board", t[0], "{", comma_list([[n] for n in t[1]]), "borders",
                      comma_list([[a, "-", b] for a, b in t[2]]), "}")),
    st.tuples(name, st.one_of(st.none(), name),
              st.one_of(st.none(), st.lists(kind_item, max_size=3))).map(
        lambda t: seq("kind", t[0], [":", t[1]] if t[1] else None,
                      seq("{", *t[2], "}") if t[2] is not None else None)),
    st.tuples(name, st.one_of(st.none(), name), st.lists(deck_entry, max_size=3)).map(
        lambda t: seq("deck", t[0], ["per", "player", "as", t[1]] if t[1] else None, "{",
                      *t[2], "}")),
    st.tuples(name, dims, st.lists(st.one_of(
        st.sampled_from([["public"], ["private"], ["hidden"], ["unordered"]]),
        ints.map(lambda n: ["capacity", n])), max_size=2)).map(
        lambda t: seq("zone", t[0], t[1], *t[2])),
    st.tuples(name, types, dims, exprs, visibility).map(
        lambda t: seq("var", t[0], ":", t[1], t[2], "=", t[3], t[4])),
    st.tuples(name, st.one_of(st.none(), params), exprs).map(
        lambda t: seq("define", t[0], t[1], "=", t[2])),
    st.tuples(name, name, exprs, exprs).map(
        lambda t: seq("modifier", t[0], "of", t[1], "when", t[2], "=", t[3])),
    st.tuples(name, st.one_of(st.none(), params), block).map(
        lambda t: seq("phase", t[0], t[1], t[2])),
    block.map(lambda b: seq("setup", b)),
    name.map(lambda n: ["flow", n]),
    st.tuples(name, name, name, opt, block).map(
        lambda t: seq("response", t[0], "to", t[1], "played", "by", t[2],
                      ["where"] + t[3] if t[3] else None, t[4])),
    st.tuples(name, ints).map(lambda t: seq("invariant", t[0], "keeps", t[1], "during",
                                            "effects")),
    st.tuples(name, types, exprs, visibility).map(
        lambda t: seq("score", "(", t[0], ":", t[1], ")", "=", t[2], t[3])),
)
decls = st.tuples(st.booleans(), decl_bodies).map(
    lambda t: seq("override" if t[0] else None, t[1]))
programs = st.lists(decls, max_size=5).map(lambda ds: seq(*ds))

GAPS = [" "] * 6 + ["", "  ", "\t", "\n", "\n", "\n\n", "\n    ", "\n\n\n  ", " \n "]
NEEDS_SPACE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_\"")


def lay_out(tokens: list, rnd: random.Random, comment_rate: float = 0.08) -> str:
    """The tokens joined by random whitespace, with comments dropped into some gaps."""
    out = []
    n_comment = 0
    for k, tok in enumerate(tokens):
        if k:
            gap = rnd.choice(GAPS)
            if gap == "" and (out[-1][-1] in NEEDS_SPACE or tok[0] in NEEDS_SPACE
                              or out[-1][-1] in "+-*/%=!<>." or tok[0] in "+-*/%=!<>."):
                gap = " "
            if rnd.random() < comment_rate:
                n_comment += 1
                gap = gap + f"# note {n_comment}: {{ x }} \"q\"\n" + rnd.choice(["", "  ", "\n"])
            out.append(gap)
        out.append(tok)
    if rnd.random() < 0.3:
        out.append(f"  # the end {n_comment}")
    return "".join(out)


def respace(text: str, rnd: random.Random) -> str:
    """The same text with different amounts of blank space wherever there was some, same
    line breaks: the canonical layout must not depend on it."""
    tree, comments = parse_with_comments(text, checked=True)
    toks = sorted([t for t in tree.scan_values(lambda v: isinstance(v, Token))] + comments,
                  key=lambda t: t.start_pos)
    out, pos = [], 0
    for t in toks:
        gap = text[pos:t.start_pos]
        breaks = gap.count("\n")
        if breaks:
            gap = "\n" * breaks + " " * rnd.randrange(0, 7)
        elif gap:
            gap = " " * rnd.randrange(1, 4)
        elif str(t).startswith("#"):
            gap = " "
        out.append(gap + str(t))
        pos = t.end_pos
    return "".join(out) + text[pos:]


def check_properties(text: str) -> str:
    """Same tree, same comments, a fixed point; the formatted text is returned."""
    original = syntax.parse(text)
    out = fmt(text, verify=False)
    assert syntax.parse(out) == original
    assert comments_of(out) == comments_of(text)
    assert fmt(out, verify=False) == out, out
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@given(programs, st.randoms(use_true_random=False))
def test_generated_programs(tokens, rnd):
    text = lay_out(tokens, rnd)
    out = check_properties(text)
    assert fmt(respace(text, rnd), verify=False) == out


def decl_windows():
    """(path, text of a few consecutive declarations) of every bundled file."""
    windows = []
    for path in ALL_FILES:
        text = path.read_text(encoding="utf-8")
        tree, _ = parse_with_comments(text)
        decls = [d for d in tree.children if d is not None]
        for k in range(0, len(decls), 3):
            part = decls[k:k + 3]
            windows.append((rel(path), text[part[0].meta.start_pos:part[-1].meta.end_pos]))
    return windows


WINDOWS = decl_windows()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(WINDOWS), st.randoms(use_true_random=False))
def test_bundled_declarations_laid_out_at_random(window, rnd):
    _, text = window
    tree, comments = parse_with_comments(text, checked=True)
    toks = sorted(tree.scan_values(lambda v: isinstance(v, Token)), key=lambda t: t.start_pos)
    # the declarations' tokens with random layout; their comments dropped for new ones
    check_properties(lay_out([str(t) for t in toks], rnd))
    # the declarations as written, with other amounts of blank space
    assert fmt(respace(text, rnd), verify=False) == fmt(text, verify=False)


# ---------------------------------------------------------------- the command

def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


UGLY = 'game "g"\nplayers 2\nzone a   # z\nsetup { shuffle a  move a to a }\nflow main\n'
PRETTY = format_source(UGLY)


def test_fmt_rewrites_files_in_place(tmp_path, capsys):
    ugly, pretty = tmp_path / "ugly.rules", tmp_path / "pretty.rules"
    ugly.write_text(UGLY)
    pretty.write_text(PRETTY)
    code, out, err = run(capsys, "fmt", str(ugly), str(pretty))
    assert code == 0, err
    assert ugly.read_text() == PRETTY
    assert pretty.read_text() == PRETTY
    assert str(ugly) in out and str(pretty) not in out


def test_fmt_check_writes_nothing_and_lists_what_would_change(tmp_path, capsys):
    ugly, pretty = tmp_path / "ugly.rules", tmp_path / "pretty.rules"
    ugly.write_text(UGLY)
    pretty.write_text(PRETTY)
    code, out, err = run(capsys, "fmt", "--check", str(ugly), str(pretty))
    assert code == 1
    assert ugly.read_text() == UGLY
    assert str(ugly) in out and str(pretty) not in out
    code, out, err = run(capsys, "fmt", "--check", str(pretty))
    assert code == 0 and out == ""


def test_fmt_bad_files(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text('game "g"\nzone hand per player privat\n')
    code, out, err = run(capsys, "fmt", str(bad), str(tmp_path / "missing.rules"))
    assert code == 1
    assert f"{bad}:2:22: error[E101]" in err
    assert "zone hand per player privat" in err and "^" in err     # source line and caret
    assert "missing.rules: error: cannot read the file" in err
    assert bad.read_text() == 'game "g"\nzone hand per player privat\n'
    binary = tmp_path / "binary.rules"
    binary.write_bytes(b'game "\xff"\n')
    code, out, err = run(capsys, "fmt", "--check", str(binary))
    assert code == 1 and "E105" in err


def test_fmt_check_on_the_bundled_games_and_examples(capsys):
    code, out, err = run(capsys, "fmt", "--check", *map(str, BUNDLED))
    assert code == 0, f"run `rulesdsl fmt` on:\n{out}{err}"


KEYS = ["path", "line", "column", "end_line", "end_column", "severity", "code", "meaning",
        "message", "hints"]


def test_check_json(tmp_path, capsys):
    good = ROOT / "games" / "triumvirat.rules"
    bad = tmp_path / "bad.rules"
    bad.write_text('game "g"\nplayers 2\nzone hand per player privat\n')
    code, out, err = run(capsys, "check", "--format", "json", str(good))
    assert code == 0 and json.loads(out) == []
    code, out, err = run(capsys, "check", "--format", "json", str(bad), str(good),
                         str(tmp_path / "missing.rules"))
    assert code == 1
    found = json.loads(out)
    assert [sorted(d) for d in found] == [sorted(KEYS)] * len(found)
    first = found[0]
    assert (first["path"], first["line"], first["severity"], first["code"]) == \
        (str(bad), 3, "error", "E101")
    assert first["column"] <= first["end_column"] and isinstance(first["hints"], list)
    assert found[-1]["path"].endswith("missing.rules") and found[-1]["line"] is None
    assert found[-1]["severity"] == "error"


def test_check_json_reports_checker_errors_and_warnings(tmp_path, capsys):
    unknown = tmp_path / "unknown.rules"
    unknown.write_text('game "g"\nplayers 2\nzone pile\nflow main\n'
                       'phase main { move pile to heap  win seat(0) }\n')
    code, out, err = run(capsys, "check", "--format", "json", str(unknown))
    assert code == 1
    found = json.loads(out)
    assert any(d["code"].startswith("E2") and d["line"] == 5 for d in found), found
    warned = tmp_path / "warned.rules"
    warned.write_text('game "g"\nplayers 2\nzone pile\ndefine unused = 1\nflow main\n'
                      'phase main { win seat(0) }\n')
    code, out, err = run(capsys, "check", "--format", "json", str(warned))
    found = json.loads(out)
    assert code == 0, found
    assert all(d["severity"] == "warning" for d in found)


def test_check_text_format_unchanged(capsys):
    good = str(ROOT / "games" / "triumvirat.rules")
    code, out, err = run(capsys, "check", good)
    assert code == 0 and f"{good}: ok" in out
    assert run(capsys, "check", "--format", "text", good)[1] == out
