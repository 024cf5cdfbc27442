"""Tree -> ast for the statements: the section "statements" of grammar/rules.lark, from
`block` to `swap`."""

from __future__ import annotations

from lark import Token, v_args

from rulesdsl.lang import ast
from rulesdsl.lang.syntax.base import Rules


@v_args(inline=True, meta=True)
class StatementRules(Rules):
    """One method per rule of that section of grammar/rules.lark, each making one node."""

    def block(self, meta, *stmts):
        return ast.Block(self._span(meta), tuple(stmts))

    def let_stmt(self, meta, name, type_, value):
        return ast.Let(self._span(meta), str(name), value, type_)

    def set_stmt(self, meta, target, *rest):
        if len(rest) == 2:
            op, value = str(rest[0]), rest[1]
        else:
            op, value = "=", rest[0]
        return ast.Set(self._span(meta), target[0], target[1], op, value)

    def set_field_stmt(self, meta, piece, name, *rest):
        op, value = (str(rest[0]), rest[1]) if len(rest) == 2 else ("=", rest[0])
        return ast.SetField(self._span(meta), piece, str(name), op, value)

    def piece_name(self, meta, tok):
        return ast.Name(self._span(meta), str(tok))

    def piece_call(self, meta, name, args):
        return ast.Call(self._span(meta), str(name), tuple(args or ()))

    def piece_index(self, meta, name, args):
        return ast.Index(self._span(meta), ast.Name(self._tok_span(name), str(name)), tuple(args))

    def roll_stmt(self, meta, what):
        return ast.Roll(self._span(meta), what)

    def target(self, meta, name, args):
        return (str(name), tuple(args or ()))

    def at_bottom(self, meta):
        return True

    def move_stmt(self, meta, what, to, bottom, words=None):
        return ast.Move(self._span(meta), what, to, bool(bottom), words)

    def move_openly_stmt(self, meta, what, to, bottom, _openly):
        return ast.Move(self._span(meta), what, to, bool(bottom), None, True)

    def words(self, meta, text):
        return self._text(text)

    def shuffle_stmt(self, meta, zone):
        return ast.Shuffle(self._span(meta), zone)

    def deal_count(self, meta, what):
        if isinstance(what, Token) and what.type == "ALL":
            return None
        return what

    def deal_stmt(self, meta, count, source, family, start):
        return ast.Deal(self._span(meta), count, source, str(family), start)

    def reveal_stmt(self, meta, what, to):
        return ast.Reveal(self._span(meta), what, to)

    def reveal_fact_stmt(self, meta, zone, word, binder, cond):
        return ast.RevealFact(self._span(meta), zone, str(binder), cond, str(word) == "lacks")

    def log_stmt(self, meta, text):
        return ast.Log(self._span(meta), self._text(text))

    def ask_stmt(self, meta, who, question, *choices):
        q = self._text(question) if question is not None else None
        return ast.Ask(self._span(meta), who, tuple(choices), q)

    def ask_each_stmt(self, meta, binder, source, where, openly, question, *choices):
        q = self._text(question) if question is not None else None
        return ast.AskEach(self._span(meta), str(binder), source, where, tuple(choices),
                           openly is not None, q)

    def named_choice(self, meta, label, cond, body):
        return ast.NamedChoice(self._span(meta), self._text(label), cond, body)

    def binder_choice(self, meta, binder, source, where, body):
        return ast.BinderChoice(self._span(meta), str(binder), source, where, body)

    def labelled_choice(self, meta, label, binder, source, where, body):
        return ast.BinderChoice(self._span(meta), str(binder), source, where, body,
                                self._text(label))

    def ask_together_stmt(self, meta, binder, source, where, question, *choices):
        q = self._text(question) if question is not None else None
        return ast.AskTogether(self._span(meta), str(binder), source, where, tuple(choices), q)

    def binders(self, meta, *names):
        return tuple(str(n) for n in names)

    def sources(self, meta, *exprs):
        return tuple(exprs)

    def tuple_choice(self, meta, binders, sources, where, body):
        return ast.TupleChoice(self._span(meta), binders, sources, where, body)

    def labelled_tuple_choice(self, meta, label, binders, sources, where, body):
        return ast.TupleChoice(self._span(meta), binders, sources, where, body,
                               self._text(label))

    def if_stmt(self, meta, *items):
        items = list(items)
        else_ = items.pop() if len(items) % 2 == 1 else None
        branches = tuple((items[i], items[i + 1]) for i in range(0, len(items), 2))
        return ast.If(self._span(meta), branches, else_)

    def repeat_stmt(self, meta, body, until):
        return ast.Repeat(self._span(meta), body, until)

    def while_stmt(self, meta, cond, body):
        return ast.While(self._span(meta), cond, body)

    def for_stmt(self, meta, binder, source, where, body):
        return ast.For(self._span(meta), str(binder), source, where, body)

    def turns_stmt(self, meta, binder, start, skip, until, body):
        return ast.Turns(self._span(meta), str(binder), start, skip, until, body)

    def call_stmt(self, meta, name, args):
        return ast.CallStmt(self._span(meta), str(name), tuple(args or ()), args is not None)

    def win_stmt(self, meta, who):
        return ast.Win(self._span(meta), who)

    def end_game_stmt(self, meta):
        return ast.EndGame(self._span(meta))

    def break_stmt(self, meta):
        return ast.Break(self._span(meta))

    def return_stmt(self, meta, value):
        return ast.Return(self._span(meta), value)

    def cancel_stmt(self, meta):
        return ast.Cancel(self._span(meta))

    def respond_stmt(self, meta):
        return ast.Respond(self._span(meta))

    def play_stmt(self, meta, card, by, to):
        return ast.Play(self._span(meta), card, by, to)

    def swap_stmt(self, meta, a, b):
        return ast.Swap(self._span(meta), a, b)

    def sequence_stmt(self, meta, _longest, body):
        return ast.Sequence(self._span(meta), None, body)

    def sequence_most_stmt(self, meta, key, bound, body):
        return ast.Sequence(self._span(meta), key, body, bound)
