"""Parse tests: source text against a compact dump of the syntax tree, spans left out.

`dump` writes a node as an s-expression: `(ClassName field ...)` with the fields in their
declared order, trailing fields that hold their default value left out; names, numbers,
true/false/none and plain strings bare; binary and unary operators as `(op a b)`; a block as
`{stmt ...}`; a tuple as `[...]`; None inside as `_`. Every grammar rule must be exercised
by some row (test_every_grammar_rule_is_covered), so a new form needs a new row.
"""

from __future__ import annotations

import json
import re

import attrs
import lark
import pytest

from rulesdsl.lang import ast
from rulesdsl.lang import syntax
from rulesdsl.lang.resources import grammar_text

BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+|[-+*/%=!<>]+")


def dump(node) -> str:
    """The node as an s-expression, without spans."""
    if node is None:
        return "_"
    if isinstance(node, bool):
        return "#t" if node else "#f"
    if isinstance(node, int):
        return str(node)
    if isinstance(node, str):
        return node if BARE.fullmatch(node) else json.dumps(node)
    if isinstance(node, tuple):
        return "[" + " ".join(dump(x) for x in node) + "]"
    if isinstance(node, ast.Name):
        return node.name
    if isinstance(node, ast.Int):
        return str(node.value)
    if isinstance(node, ast.Bool):
        return "true" if node.value else "false"
    if isinstance(node, ast.NoneLit):
        return "none"
    if isinstance(node, ast.Text):
        if all(isinstance(p, str) for p in node.parts):
            return json.dumps("".join(node.parts))
        return "(text " + " ".join(json.dumps(p) if isinstance(p, str) else dump(p)
                                   for p in node.parts) + ")"
    if isinstance(node, (ast.Binary, ast.Unary)):
        operands = (node.left, node.right) if isinstance(node, ast.Binary) else (node.operand,)
        return f"({node.op} " + " ".join(dump(x) for x in operands) + ")"
    if isinstance(node, ast.Block):
        return "{" + " ".join(dump(s) for s in node.stmts) + "}"
    if isinstance(node, ast.Decl):
        return f"(override {dump(node.body)})" if node.override else dump(node.body)
    if isinstance(node, ast.File):
        return "\n".join(dump(d) for d in node.decls)
    if isinstance(node, ast.TypeRef):
        if node.name == "list":
            return f"(list {dump(node.of)})"
        if node.name == "range":
            return f"{node.low}..{node.high}"
        return node.name
    if isinstance(node, ast.Ref):
        return node.name
    assert attrs.has(type(node)), f"not a syntax node: {node!r}"
    fields = [f for f in attrs.fields(type(node)) if f.name != "span"]
    values = [getattr(node, f.name) for f in fields]
    while fields and values[-1] == (fields[-1].default if not isinstance(
            fields[-1].default, attrs.Factory) else fields[-1].default.factory()):
        fields.pop()
        values.pop()
    return "(" + " ".join([type(node).__name__] + [dump(v) for v in values]) + ")"


HEAD = 'game "T"\nplayers 2\nflow main\n'


def parse_decls(text: str) -> str:
    return dump(syntax.parse(text, "<test>"))


def parse_stmts(text: str) -> str:
    tree = syntax.parse(f"phase main {{\n{text}\n}}\n", "<test>")
    (decl,) = tree.decls
    return " ".join(dump(s) for s in decl.body.body.stmts)


def parse_expr(text: str) -> str:
    return dump(syntax.parse_expression(text, "<test>", 1, 1))


DECLS = [
    ('game "Triumvirat"', '(Game Triumvirat)'),
    ('extends "base"', '(Extends base)'),
    ('players 2', '(Players 2 2)'),
    ('players 2..4', '(Players 2 4)'),
    ('players 2..5 cooperative', '(Players 2 5 #t)'),
    ('phase gives(p: player): bool { }', '(Phase gives [(Param p player)] {} bool)'),
    ('show total "Total" if player_count > 2', '(Show total Total public (> player_count 2))'),
    ('board Cell grid 8 x 6', '(Grid Cell 8 6)'),
    ('board Cell hex 7 x 5', '(Grid Cell 7 5 #t)'),
    ('board Pit { row _, b2..b1, sb track sow: b2, sb, }',
     '(Layout Pit [[_ (CellRange b2 b1) sb]] [(Track sow [b2 sb])])'),
    ('option rounds: 1..9 = 2 "rounds to play"',
     '(Option rounds 1..9 2 "rounds to play")'),
    ('option fast: bool = false', '(Option fast bool false)'),
    ('enum Colour { red "Caesar", blue, }',
     '(Enum Colour [] [(EnumItem red [] Caesar) (EnumItem blue)])'),
    ('enum Suit(rank: int, name: list of int) { hearts(1, [2]) }',
     '(Enum Suit [(Field rank int) (Field name (list int))] [(EnumItem hearts [1 (ListLit [2])])])'),
    ('board Land { North, South borders North - South, }',
     '(Board Land [North South] [(Border North South)])'),
    ('kind card', '(Kind card)'),
    ('kind piece { owner: player  var rank: Rank = man }',
     '(Kind piece "" [(Field owner player) (Field rank Rank man #t)])'),
    ('kind legion: card { value: int = 7  label "legion {value}" }',
     '(Kind legion card [(Field value int 7)] (text "legion " value))'),
    ('kind thief: card { playable by p if size(hand[p]) > 0  on play by p { log "stolen" } }',
     '(Kind thief card [] _ [p (> (Call size [(Index hand [p])]) 0)] [p {(Log "stolen")}])'),
    ('deck stock { 2 x plain(Colour, [1, 2]), veto(red, 0) mob }',
     '(Deck stock "" [(DeckEntry 2 plain [Colour (ListLit [1 2])]) '
     '(DeckEntry 1 veto [red 0]) (DeckEntry 1 mob)])'),
    ('deck own per player as p { card(p) }', '(Deck own p [(DeckEntry 1 card [p])])'),
    ('zone pile', '(Zone pile)'),
    ('zone hand per player private unordered capacity 8',
     '(Zone hand [player] private #t 8)'),
    ('zone camp per player per Colour hidden', '(Zone camp [player Colour] hidden)'),
    ('var dealer: player = seat(0)', '(Var dealer player [] (Call seat [0]))'),
    ('var gold: int per player = 0 private', '(Var gold int [player] 0 private)'),
    ('define best(p: player, c: Colour) = 1',
     '(Define best [(Param p player) (Param c Colour)] 1)'),
    ('define total = 0', '(Define total [] 0)'),
    ('modifier frost of worth when winter = 1', '(Modifier frost worth winter 1)'),
    ('phase turn(p: player) { }', '(Phase turn [(Param p player)] {})'),
    ('phase main() { }', '(Phase main [] {})'),
    ('setup { shuffle stock }', '(Setup {(Shuffle stock)})'),
    ('flow match', '(Flow match)'),
    ('response veto to x played by p where x is thief { cancel }',
     '(Response veto x p (IsKind x thief) {(Cancel)})'),
    ('response any to x played by p { }', '(Response any x p _ {})'),
    ('invariant table keeps 2 during effects', '(Invariant table 2)'),
    ('invariant told(q: player, i: 1..5) = ok(q, i)',
     '(Truth told [(Param q player) (Param i 1..5)] (Call ok [q i]))'),
    ('invariant calm = true', '(Truth calm [] true)'),
    ('score(p: player) = gold[p] private', '(Score (Param p player) (Index gold [p]) private)'),
    ('evaluate(p: player) = gold[p]', '(Evaluate (Param p player) (Index gold [p]))'),
    ('payoff(p: player) = net[p] - 1', '(Payoff (Param p player) (- (Index net [p]) 1))'),
    ('payoff(p: player) = net[p] zero-sum', '(Payoff (Param p player) (Index net [p]) #t)'),
    ('payoff(p: player) = zero-sum', '(Payoff (Param p player) (- zero sum))'),
    ('override define total = 1', '(override (Define total [] 1))'),
    ('about "A game." "Win it."', '(About ["A game." "Win it."])'),
    ('title hand "your hand"', '(Title hand "your hand")'),
    ('text mob "The mob." "Wins."', '(Explain mob ["The mob." "Wins."])'),
    ('internal a, b', '(Internal [a b])'),
    ('show total "Total" private', '(Show total Total private)'),
    ('show total', '(Show total)'),
    ('look { table "#123" seats "red", "blue" sides Cell "left right" }',
     '(Look [(LookHint table _ ["#123"]) (LookHint seats _ [red blue]) '
     '(LookHint sides Cell ["left right"])])'),
    ('look { }', '(Look)'),
]

STMTS = [
    ('let x = 1', '(Let x 1)'),
    ('let chosen: list of card = []', '(Let chosen (ListLit) (list card))'),
    ('set x = 2', '(Set x [] = 2)'),
    ('set gold[p] += 3', '(Set gold [p] += 3)'),
    ('set tricks[p, c] -= 1', '(Set tricks [p c] -= 1)'),
    ('set x.rank = king', '(SetField x rank = king)'),
    ('set top(square[c]).face += 1', '(SetField (Call top [(Index square [c])]) face += 1)'),
    ('set dice[0].face = 6', '(SetField (Index dice [0]) face = 6)'),
    ('roll cup[p]', '(Roll (Index cup [p]))'),
    ('move top(stock) to hand[p]', '(Move (Call top [stock]) (Index hand [p]))'),
    ('move c to stock at bottom', '(Move c stock #t)'),
    ('shuffle stock', '(Shuffle stock)'),
    ('deal 3 from stock to hand', '(Deal 3 stock hand)'),
    ('deal all from stock to hand starting with next(dealer)',
     '(Deal _ stock hand (Call next [dealer]))'),
    ('reveal influence[p]', '(Reveal (Index influence [p]))'),
    ('reveal hand[q] to p', '(Reveal (Index hand [q]) p)'),
    ('reveal hand[q] holds c where c.rank == r',
     '(RevealFact (Index hand [q]) c (== (Attr c rank) r))'),
    ('reveal hand[q] lacks c where c.rank == r',
     '(RevealFact (Index hand [q]) c (== (Attr c rank) r) #t)'),
    ('move c to hand[q] openly', '(Move c (Index hand [q]) #f _ #t)'),
    ('return (true)', '(Return true)'),
    ('log "{p} wins {n + 1}"', '(Log (text p " wins " (+ n 1)))'),
    ('ask p { "pass" { } "bid" if gold[p] > 0 { set bid = 1 } }',
     '(Ask p [(NamedChoice "pass" _ {}) (NamedChoice "bid" (> (Index gold [p]) 0) {(Set bid [] = 1)})])'),
    ('ask p { c in hand[p] where c is mob { move c to trick } }',
     '(Ask p [(BinderChoice c (Index hand [p]) (IsKind c mob) {(Move c trick)})])'),
    ('ask p { "discard {c}" for c in hand[p] where c is mob { } }',
     '(Ask p [(BinderChoice c (Index hand [p]) (IsKind c mob) {} (text "discard " c))])'),
    ('ask each q in others(p) where q != p { "no" { } }',
     '(AskEach q (Call others [p]) (!= q p) [(NamedChoice "no" _ {})])'),
    ('ask each q in others(p) where q != p openly { "no" { } }',
     '(AskEach q (Call others [p]) (!= q p) [(NamedChoice "no" _ {})] #t)'),
    ('respond', '(Respond)'),
    ('if a { win p } else if b { end game } else { return }',
     '(If [[a {(Win p)}] [b {(EndGame)}]] {(Return)})'),
    ('if a { break }', '(If [[a {(Break)}]])'),
    ('repeat { round } until done', '(Repeat {(CallStmt round)} done)'),
    ('sequence longest { turn }', '(Sequence _ {(CallStmt turn)})'),
    ('sequence most used + 1 { turn }', '(Sequence (+ used 1) {(CallStmt turn)})'),
    ('sequence most used up to 12 { turn }', '(Sequence used {(CallStmt turn)} 12)'),
    ('while size(stock) > 0 { cancel }', '(While (> (Call size [stock]) 0) {(Cancel)})'),
    ('for c in Colour where c != red { }', '(For c Colour (!= c red) {})'),
    ('turns p from seat(0) skip if passed[p] until done { }',
     '(Turns p (Call seat [0]) (Index passed [p]) done {})'),
    ('turns p from dealer { }', '(Turns p dealer _ _ {})'),
    ('lay(p, 2)', '(CallStmt lay [p 2] #t)'),
    ('round', '(CallStmt round)'),
    ('round()', '(CallStmt round [] #t)'),
    ('play c by p to table[p]', '(Play c p (Index table [p]))'),
    ('swap a with b', '(Swap a b)'),
    ('ask together q in players where q != p { "no" { } }',
     '(AskTogether q players (!= q p) [(NamedChoice "no" _ {})])'),
    ('ask p { (q, f) in 1..n, Face where q > 1 { } }',
     '(Ask p [(TupleChoice [q f] [(Range 1 n) Face] (> q 1) {})])'),
    ('ask p { "{q} x {f}" for (q, f) in 1..n, 1..q { } }',
     '(Ask p [(TupleChoice [q f] [(Range 1 n) (Range 1 q)] _ {} (text q " x " f))])'),
    ('ask p "Bid, {p}?" { "pass" { } }',
     '(Ask p [(NamedChoice "pass" _ {})] (text "Bid, " p "?"))'),
    ('ask each q in others(p) where q != p "Veto, {q}?" { "no" { } }',
     '(AskEach q (Call others [p]) (!= q p) [(NamedChoice "no" _ {})] #f (text "Veto, " q "?"))'),
    ('ask each q in others(p) openly "Veto, {q}?" { "no" { } }',
     '(AskEach q (Call others [p]) _ [(NamedChoice "no" _ {})] #t (text "Veto, " q "?"))'),
    ('move c to trick as "{p} plays {c}"', '(Move c trick #f (text p " plays " c))'),
    ('move c to stock at bottom as "gone"', '(Move c stock #t "gone")'),
]

EXPRS = [
    ('if a then 1 else 2', '(IfExpr a 1 2)'),
    ('a or b and not c', '(or a (and b (not c)))'),
    ('(a or b) and c', '(and (or a b) c)'),
    ('1 + 2 * 3 - 4 / 5 % 6', '(- (+ 1 (* 2 3)) (% (/ 4 5) 6))'),
    ('-x + -3', '(+ (- x) (- 3))'),
    ('a == b', '(== a b)'),
    ('a != b', '(!= a b)'),
    ('a <= b', '(<= a b)'),
    ('c is mob', '(IsKind c mob)'),
    ('c is not mob', '(IsKind c mob #t)'),
    ('c is in hand[p]', '(IsIn c (Index hand [p]))'),
    ('c is not in hand[p]', '(IsIn c (Index hand [p]) #t)'),
    ('1..10', '(Range 1 10)'),
    ('0..n + 1 step 5', '(Range 0 (+ n 1) 5)'),
    ('c.colour.rank', '(Attr (Attr c colour) rank)'),
    ('tricks[p, c]', '(Index tricks [p c])'),
    ('top(stock)[0]', '(Index (Call top [stock]) [0])'),
    ('f()', '(Call f)'),
    ('seat(1 + 1)', '(Call seat [(+ 1 1)])'),
    ('count(c in hand[p] where c is mob)',
     '(Call count [(Comprehension c (Index hand [p]) (IsKind c mob))])'),
    ('sum(c.value for c in pile)', '(Call sum [(Comprehension c pile _ (Attr c value))])'),
    ('320_000', '320000'),
    ('true', 'true'),
    ('false', 'false'),
    ('none', 'none'),
    ('"plain"', '"plain"'),
    ('"a {x} b"', '(text "a " x " b")'),
    ('[]', '(ListLit)'),
    ('[1, 2, 3]', '(ListLit [1 2 3])'),
    ('[p in players where p != dealer]', '(Comprehension p players (!= p dealer))'),
    ('[c.value * 2 for c in pile where c is mob]',
     '(Comprehension c pile (IsKind c mob) (* (Attr c value) 2))'),
    ('let n = size(pile) in n * 2', '(LetIn n (Call size [pile]) (* n 2))'),
    ('let a = 1 in let b = a + 1 in a < b', '(LetIn a 1 (LetIn b (+ a 1) (< a b)))'),
    ('[x in ray(c, d) while v[x] == q]',
     '(Prefix x (Call ray [c d]) (== (Index v [x]) q))'),
]


@pytest.mark.parametrize("source, expected", DECLS, ids=[d[0][:40] for d in DECLS])
def test_declarations(source, expected):
    assert parse_decls(source) == expected


@pytest.mark.parametrize("source, expected", STMTS, ids=[s[0][:40] for s in STMTS])
def test_statements(source, expected):
    assert parse_stmts(source) == expected


@pytest.mark.parametrize("source, expected", EXPRS, ids=[e[0][:40] for e in EXPRS])
def test_expressions(source, expected):
    assert parse_expr(source) == expected


def test_a_whole_file():
    text = HEAD + 'zone pile\nphase main {\n  shuffle pile  # a comment\n}\n'
    assert parse_decls(text) == ('(Game T)\n(Players 2 2)\n(Flow main)\n(Zone pile)\n'
                                 '(Phase main [] {(Shuffle pile)})')


def test_layout_does_not_matter():
    one = syntax.parse('phase main { if a { log "x" } else { break } }', "f")
    other = syntax.parse('phase main\n{\n  if a\n  {\n    log "x"\n  }\n  else { break }\n}\n', "f")
    assert one == other  # spans are left out of equality
    assert one.decls[0].span != other.decls[0].span


def test_spans_point_at_the_source():
    tree = syntax.parse('game "T"\nphase main {\n  let x = 1 +  foo\n}\n', "<s>")
    let = tree.decls[1].body.body.stmts[0]
    assert (let.span.line, let.span.column) == (3, 3)
    assert (let.value.right.span.line, let.value.right.span.column) == (3, 16)
    assert (let.value.right.span.end_line, let.value.right.span.end_column) == (3, 19)


def test_expressions_in_strings_have_their_place_in_the_file():
    tree = syntax.parse('phase main {\n  log "sum: {a + b}"\n}\n', "<s>")
    hole = tree.decls[0].body.body.stmts[0].text.parts[1]
    assert (hole.span.line, hole.span.column) == (2, 14)
    assert (hole.right.span.line, hole.right.span.column) == (2, 18)


# ---------------------------------------------------------------- the grammar itself


def _tree_names(tree) -> set:
    return {t.data for t in tree.iter_subtrees()}


def grammar_rule_names() -> set:
    """The names of the trees the grammar can build: aliases and rules that are not inlined."""
    names = set()
    for r in syntax.parser().rules:
        name = r.origin.name
        if isinstance(name, lark.Token):
            name = str(name)
        if name.startswith("_"):
            continue
        if r.alias is not None:
            names.add(str(r.alias))
        elif not r.options.expand1:
            names.add(name)
    return names


def test_every_grammar_rule_is_covered():
    raw = syntax.parser()
    seen = set()
    for source, _ in DECLS:
        seen |= _tree_names(raw.parse(source + "\n", start="start"))
    for source, _ in STMTS:
        seen |= _tree_names(raw.parse(f"phase main {{\n{source}\n}}\n", start="start"))
    for source, _ in EXPRS:
        seen |= _tree_names(raw.parse(source, start="expr"))
    missing = grammar_rule_names() - seen
    assert not missing, f"grammar rules no row of this test parses: {sorted(missing)}"


def test_every_grammar_rule_has_a_transformer_method():
    missing = [n for n in grammar_rule_names() if not callable(getattr(syntax.Build, n, None))]
    assert not missing, f"rules the transformer does not build: {sorted(missing)}"


def test_the_grammar_is_lalr_without_conflicts():
    """lark's strict mode turns shift/reduce conflicts and terminal collisions into errors."""
    pytest.importorskip("interegular", reason="lark's strict mode needs 'interegular' "
                        "(pip install 'lark[interegular]'); add it to the test dependencies")
    lark.Lark(grammar_text(), parser="lalr", strict=True, propagate_positions=True,
              maybe_placeholders=True, start=["start", "expr"])
