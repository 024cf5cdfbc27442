"""Checking statements: blocks, loops, set, calls and the choices of a decision."""

from __future__ import annotations

from typing import Optional

import attrs

from rulesdsl.lang import ast
from rulesdsl.lang.present import question_missing
from rulesdsl.lang.secrets import choices_read_secret, hole_reads, reads_secret
from rulesdsl.lang.check.model import AGGREGATES, BUILTIN_CALLS
from rulesdsl.lang.check.results import what_is_set


class Statements:
    """Checks one statement at a time, with its scope."""

    # ------------------------------------------------------------------ statements
    def block(self, block: ast.Block):
        self.scope.push()
        for s in block.stmts:
            self.stmt(s)
        self.scope.pop()

    def loop_block(self, block: ast.Block):
        """A loop's body: `break` may stand in it."""
        self.scope.loop_depth += 1
        self.block(block)
        self.scope.loop_depth -= 1

    def no_decision_here(self, span, what):
        if self.context == "setup":
            self.err("E603", f"{what} cannot stand in setup", span,
                     ["setup runs before the first decision; move this into the flow"])

    def stmt(self, s):
        m = self.m
        t = type(s)
        if t is ast.Let:
            vt = self.expr(s.value, allow_random=True)
            if s.type is not None:  # let x: T = value
                declared = self.type_of_ref(s.type)
                self.expect(declared, vt, s.value, f"the value of {s.name}")
                vt = declared
            if vt == "none":
                self.err("E300", f"'{s.name}' would have no type: it is set to none", s.span,
                         [f"declare its type: let {s.name}: card = none"])
            if self.scope.lookup(s.name) is not None:
                self.err("E502", f"'{s.name}' is already a local here", s.span,
                         ["use 'set' to change it, or pick another name"])
            if s.name in self.globals or s.name in m.kinds:
                self.err("E502", f"'{s.name}' would hide the {self.globals.get(s.name, 'kind')} "
                         f"of that name", s.span, ["pick another name for the local"])
            m.slots[id(s)] = self.scope.bind(s.name, vt)
        elif t is ast.Set:
            self.set_stmt(s)
        elif t is ast.SetField:
            self.set_field(s)
        elif t is ast.Roll:
            self.roll(s)
        elif t is ast.Move:
            wt = self.expr(s.what, allow_random=True)
            if wt not in ("card", "zone", "list of card", "any"):
                self.err("E300", f"move needs a card, a list of cards or a zone, not "
                         f"{self.show(wt)}", s.what.span)
            self.expect("zone", self.expr(s.to), s.to, "the destination of move")
            if s.words is not None:
                self.words(s.words, in_move_words=True)
        elif t is ast.Shuffle:
            self.expect("zone", self.expr(s.zone), s.zone, "shuffle")
            self.no_random_in_sequence(s.span, "shuffle")
        elif t is ast.Deal:
            if s.count is not None:
                self.expect("int", self.expr(s.count), s.count, "the number of cards to deal")
            self.expect("zone", self.expr(s.source), s.source, "the pile to deal from")
            z = m.zones.get(s.family)
            self.used.add(s.family)
            if z is None:
                self.err("E202", f"unknown zone '{s.family}'",
                         self.name_at(s.span, s.family, r"\bto\s+"),
                         self.suggest(s.family, m.zones))
            elif z.dims != ["player"]:
                self.err("E401", f"deal needs a zone per player; {s.family} is "
                         f"{'indexed by ' + ', '.join(z.dims) if z.dims else 'shared'}",
                         self.name_at(s.span, s.family, r"\bto\s+"))
            if s.start is not None:
                self.expect("player", self.expr(s.start), s.start, "the first player dealt to")
        elif t is ast.Reveal:
            wt = self.expr(s.what)
            if wt not in ("card", "zone", "list of card", "any") and \
                    not self.revealable_value(s.what, wt):
                self.err("E300", f"reveal needs a card, a list of cards or a zone, not "
                         f"{self.show(wt)}", s.what.span)
            if s.to is not None:
                tt = self.expr(s.to)
                if tt not in ("player", "list of player", "any"):
                    self.err("E300", f"reveal ... to needs a player or a list of players, not "
                             f"{self.show(tt)}", s.to.span)
        elif t is ast.RevealFact:
            self.expect("zone", self.expr(s.zone), s.zone, "what a fact is told of")
            self.scope.push()
            m.slots[id(s)] = self.scope.bind(s.binder, "card")
            self.cond(s.cond, "the fact's condition")
            self.scope.pop()
        elif t is ast.Log:
            self.words(s.text)
        elif t is ast.Sequence:
            self.sequence(s)
        elif t is ast.Ask:
            self.no_decision_here(s.span, "a decision")
            self.current_phase.asks = True
            self.expect("player", self.expr(s.who), s.who, "who decides")
            self.question(s)
            self.choices(s.choices)
        elif t is ast.AskEach:
            self.one_chooser_in_sequence(s.span, "ask each")
            self.players_asked(s)
            self.scope.loop_depth += 1  # `break` in an option ends the round of asking
            self.choices(s.choices)
            self.scope.loop_depth -= 1
            self.scope.pop()
            self.warn_secret_asking(s)
        elif t is ast.AskTogether:
            self.one_chooser_in_sequence(s.span, "ask together")
            self.players_asked(s)
            # a break out of the bodies would drop the choices not yet taken into effect
            saved = self.scope.loop_depth, self.scope.in_together
            self.scope.loop_depth, self.scope.in_together = 0, True
            self.choices(s.choices)
            self.scope.loop_depth, self.scope.in_together = saved
            self.scope.pop()
            found = reads_secret(s.where, self.m) if s.where is not None else ""
            if found:  # every listed player is asked: only the list itself could tell
                self.warn("W704", f"who is asked here depends on {found}, which not every "
                          "seat may see: asking tells the table what it holds", s.span,
                          ["ask every player and test the secret in the options"])
        elif t is ast.If:
            for cond, block in s.branches:
                self.cond(cond, "an if")
                self.block(block)
            if s.else_ is not None:
                self.block(s.else_)
        elif t is ast.Repeat:
            self.loop_block(s.body)
            self.cond(s.until, "until")
        elif t is ast.While:
            self.cond(s.cond, "while")
            self.loop_block(s.body)
        elif t is ast.For:
            et = self.collection(s.source)
            self.scope.push()
            m.slots[id(s)] = self.scope.bind(s.binder, et)
            if s.where is not None:
                self.cond(s.where, "a condition")
            self.loop_block(s.body)
            self.scope.pop()
            self.warn_secret_asking(s)
        elif t is ast.Turns:
            self.expect("player", self.expr(s.start), s.start, "the first player")
            self.scope.push()
            m.slots[id(s)] = self.scope.bind(s.binder, "player")
            if s.skip is not None:
                self.cond(s.skip, "skip if")
            if s.until is not None:
                self.cond(s.until, "until")
                self.until_reads_no_turn_player(s)
            self.loop_block(s.body)
            self.scope.pop()
        elif t is ast.CallStmt:
            self.call_stmt(s)
        elif t is ast.Win:
            wt = self.expr(s.who)
            if wt not in ("player", "list of player", "any", "none"):
                self.err("E300", f"win needs a player or a list of players, not {self.show(wt)}",
                         s.who.span, ["name the winners: win [q in players where ...]"]
                         if wt == "bool" else [])
            self.no_decision_here(s.span, "win")
        elif t is ast.EndGame:
            self.no_decision_here(s.span, "end game")
        elif t is ast.Break:
            if self.scope.loop_depth == 0 and self.scope.in_sequence:
                self.err("E604", "break cannot leave a sequence: its moves are tried to its "
                         "end, and a break would leave it half way", s.span,
                         ["put the loop inside the sequence, or end it with a named option: "
                          "sequence longest { repeat { ask p { ... \"stop\" { break } } } "
                          "until false }"])
            elif self.scope.loop_depth == 0 and self.scope.in_together:
                self.err("E604", "break cannot leave an ask together: the choices not yet "
                         "taken into effect would be lost", s.span,
                         ["set a variable in the option and test it after the ask"])
            elif self.scope.loop_depth == 0:
                self.err("E604", "break outside a loop", s.span,
                         ["break leaves repeat, while, for, turns or an ask each; use return "
                          "to leave a phase"])
        elif t is ast.Return:
            if self.context in ("setup",):
                self.err("E604", "return cannot stand in setup", s.span)
            elif self.scope.in_sequence:
                self.err("E604", "return cannot leave a sequence: its moves are tried to its "
                         "end, which a return would skip", s.span,
                         ["set a local and test it after the sequence, or end a loop "
                          "inside it with break"])
        elif t is ast.Cancel:
            if self.context != "response":
                self.err("E604", "cancel only stands in a response", s.span,
                         ["declare: response NAME to x played by p { ... cancel ... }"])
        elif t is ast.Respond:
            if self.context != "effect":
                self.err("E604", "respond only stands in a kind's `on play`", s.span,
                         ["write it in the card's effect, after its choices: "
                          "on play by p { ask p { ... { respond  ... } } }"])
            elif m.responses:
                self.current_phase.asks = True
        elif t is ast.Play:
            self.has_play = True
            self.expect("card", self.expr(s.card), s.card, "the card played")
            self.expect("player", self.expr(s.by), s.by, "who plays")
            self.expect("zone", self.expr(s.to), s.to, "where the card goes")
            if m.responses or self.kinds_on_play:
                self.no_decision_here(s.span, "play")
            self.current_phase.asks = self.current_phase.asks or bool(m.responses) or \
                bool(getattr(self, "kind_asks", None))
        elif t is ast.Swap:
            self.expect("card", self.expr(s.a), s.a, "swap")
            self.expect("card", self.expr(s.b), s.b, "swap")
        else:  # pragma: no cover - the grammar makes no other statements
            self.err("E699", f"unknown statement {t.__name__}", getattr(s, "span", None))

    def sequence(self, s: ast.Sequence):
        """`sequence longest { ... }`, `sequence most KEY { ... }`: the block's decisions
        are tried to its end, so it must reach its end, draw nothing at random and ask one
        player; KEY is read at the end, in the scope where the sequence starts."""
        self.no_decision_here(s.span, "a sequence")
        if self.scope.in_sequence:
            self.err("E613", "a sequence cannot stand inside another: the outer one already "
                     "tries every move of the inner", s.span,
                     ["write one sequence around all the moves, with the goal of the outer"])
        if s.key is not None:
            self.expect("int", self.expr(s.key), s.key, "what a sequence makes the most of")
        if s.bound is not None:
            self.expect("int", self.expr(s.bound), s.bound, "the most a sequence can make")
        saved = self.scope.loop_depth, self.scope.in_sequence
        self.scope.loop_depth, self.scope.in_sequence = 0, True
        assert s.body is not None  # the grammar gives every sequence its block
        self.block(s.body)
        self.scope.loop_depth, self.scope.in_sequence = saved

    def no_random_in_sequence(self, span, what: str) -> None:
        """E606: a sequence's moves are tried before one is chosen; a random draw in them
        would tell the player what chance brings next."""
        if self.scope.in_sequence:
            self.err("E606", f"{what} cannot stand in a sequence: its moves are tried before "
                     "the player chooses, and a random draw there would tell what comes",
                     span, ["draw before the sequence (roll the dice first), or after it"])

    def one_chooser_in_sequence(self, span, what: str) -> None:
        if self.scope.in_sequence:
            self.err("E613", f"{what} cannot stand in a sequence: a sequence is the moves of "
                     "one player, who chooses with ask", span,
                     ["ask that player: sequence longest { ask p { ... } }"])

    def revealable_value(self, e, t: str) -> bool:
        """`reveal cup[p]`: a variable's value (dice, a secret number) may be shown too."""
        return self.m.resolved.get(id(e), ("",))[0] == "var" and not t.startswith("family:")

    def until_reads_no_turn_player(self, s: ast.Turns) -> None:
        """`turns p ... until C`: C is checked before each turn, before p is the next seat
        (before the first turn p is none), so C reading p is a mistake (E601)."""
        slot = self.m.slots[id(s)]
        found = _reads_local(s.until, self.m.resolved, slot)
        if found is not None:
            self.err("E601", f"until is checked before each turn, before {s.binder} is the "
                     f"next player (before the first turn {s.binder} is none), so it cannot "
                     f"read {s.binder}", found.span,
                     ["end the turns on what holds for every player: until any(q in players "
                      "where ...); or on what the last turn did: set a variable in the "
                      "turn (set done = ...) and write `until done`"])

    def warn_secret_asking(self, s) -> None:
        """W704: who is asked would tell what some seat may not see (a hand's contents)."""
        found = reads_secret(s.where, self.m) if s.where is not None else ""
        if isinstance(s, ast.For):
            if not found or not any(isinstance(x, (ast.Ask, ast.AskEach))
                                    for x in (s.body.stmts if s.body else ())):
                return
        elif not found and not s.openly:
            found = choices_read_secret(s.choices, self.m)
        if found:
            self.warn("W704", f"who is asked here depends on {found}, which not every seat "
                      "may see: asking tells the table what it holds", s.span,
                      ["ask every player openly and test the secret in the options: "
                       "ask each q in ... openly { ... }"])

    def players_asked(self, s):
        """The head of `ask each` / `ask together`: a list of players, its binder in a new
        scope (the caller pops it after the options), the condition and the question."""
        self.no_decision_here(s.span, "a decision")
        self.current_phase.asks = True
        self.expect("player", self.collection(s.source), s.source, "who is asked")
        self.scope.push()
        self.m.slots[id(s)] = self.scope.bind(s.binder, "player")
        if s.where is not None:
            self.cond(s.where, "a condition")
        self.question(s)

    def set_stmt(self, s: ast.Set):
        m = self.m
        local = self.scope.lookup(s.name)
        if local is not None:
            slot, lt = local
            if s.index:
                self.err("E303", f"'{s.name}' is a local and takes no index",
                         self.name_at(s.span, s.name, r"set\s+"))
            m.resolved[id(s)] = ("local", slot)
            target_type = lt
        elif s.name in m.vars:
            self.used.add(s.name)
            v = m.vars[s.name]
            self.indexes(s.name, v.dims, s.index, s.span)
            m.resolved[id(s)] = ("var", s.name)
            target_type = v.type
        else:
            what = self.globals.get(s.name)
            where = self.name_at(s.span, s.name, r"set\s+")
            if what:
                self.err("E304", f"'{s.name}' is a {what} and cannot be set", where,
                         ["only variables (var) and locals (let) can be set"])
            else:
                self.err("E200", f"unknown variable '{s.name}'", where, self.unknown_hints(
                    s.name, self.suggest(s.name, m.vars, self.scope.names()) or
                    [f"declare it: var {s.name}: int = 0"]))
            self.expr(s.value)
            return
        self.assignment(s, target_type, self.expr(s.value, allow_random=True))

    def assignment(self, s, target_type: str, value_type: str):
        """`set x = v` (a variable or a piece's field) wants a value of x's type; `+=` and
        `-=` want numbers on both sides."""
        if s.op != "=":
            self.expect("int", target_type, s, f"what '{s.op}' changes")
            self.expect("int", value_type, s.value, f"the amount after '{s.op}'")
        else:
            self.expect(target_type, value_type, s.value, what_is_set(s.name))

    def set_field(self, s: ast.SetField):
        """`set c.rank = king`: a piece's changing field."""
        self.expect("card", self.expr(s.piece), s.piece, f"the piece whose {s.name} is set")
        want = self.m.piece_fields.get(s.name)
        vt = self.expr(s.value, allow_random=True)
        if want is None:
            if s.name in self.field_types:
                self.err("E304", f"field {s.name} never changes: it is fixed when the cards "
                         "are made", s.span, [f"declare it in the kind as: var {s.name}: "
                                              f"{self.field_types[s.name]} = ..."])
            else:
                self.err("E203", f"no kind of card has a field '{s.name}'", s.span,
                         self.suggest(s.name, self.field_types))
            return
        self.assignment(s, want, vt)

    def roll(self, s: ast.Roll):
        """`roll cup[p]`: pieces whose changing fields of a range of numbers take new values."""
        self.no_random_in_sequence(s.span, "roll")
        wt = self.expr(s.what)
        if wt not in ("card", "zone", "list of card", "any"):
            self.err("E300", f"roll needs a piece, a list of pieces or a zone, not "
                     f"{self.show(wt)}", s.what.span)
        if not self.m.piece_ranges:
            self.err("E300", "roll changes the changing fields of a range of numbers, but no "
                     "kind has one", s.span, ["declare the die's face in its kind: "
                                              "var face: 1..6 = 1"])

    def call_stmt(self, s: ast.CallStmt):
        m = self.m
        p = m.phases.get(s.name)
        if p is None:
            if s.name in m.defines or s.name in BUILTIN_CALLS or s.name in AGGREGATES:
                self.err("E605", f"'{s.name}' is a value, not a phase; a statement cannot use it "
                         "alone", s.span, ["store it with let, or use it in a condition"])
            else:
                self.err("E204", f"unknown phase '{s.name}'", s.span,
                         self.suggest(s.name, m.phases))
            for a in s.args:
                self.expr(a)
            return
        self.used.add(s.name)
        self.current_phase.calls.add(s.name)
        if len(s.args) != len(p.params):
            self.err("E400", f"phase {s.name} takes {len(p.params)} argument"
                     f"{'s' if len(p.params) != 1 else ''}, not {len(s.args)}", s.span,
                     [f"write {s.name}({', '.join(n for n, _ in p.params)})"] if p.params else [])
        for a, (pname, pt) in zip(s.args, p.params):
            self.expect(pt, self.expr(a), a, f"parameter {pname}")
        for a in s.args[len(p.params):]:
            self.expr(a)
        m.resolved[id(s)] = ("phase", s.name)

    def question(self, s):
        """A decision's question: its holes are checked like a log line's; none is W705."""
        if getattr(s, "question", None) is not None:
            self.words(s.question)
        else:
            question_missing(self, s)

    def choices(self, choices):
        labels = set()
        for c in choices:
            if isinstance(c, ast.NamedChoice):
                self.option_label(c.label)
                plain = "".join(x for x in c.label.parts if isinstance(x, str))
                if plain in labels and all(isinstance(x, str) for x in c.label.parts):
                    self.err("E501", f"two options are labelled \"{plain}\"", c.span,
                             ["labels must tell the options apart"])
                labels.add(plain)
                if c.cond is not None:
                    self.cond(c.cond, "an option's condition")
                self.block(c.body)
            elif isinstance(c, ast.TupleChoice):
                self.tuple_choice(c)
            else:
                et = self.collection(c.source)
                self.scope.push()
                self.m.slots[id(c)] = self.scope.bind(c.binder, et)
                self.bound_option(c)

    def tuple_choice(self, c: ast.TupleChoice):
        """`(a, b) in A, B where ...`: one binder per collection; B may use a."""
        if len(c.binders) != len(c.sources):
            self.err("E400", f"{len(c.binders)} names but {len(c.sources)} collections", c.span,
                     ["give one collection for each name: (q, f) in 1..10, 1..6"])
        if len(set(c.binders)) != len(c.binders):
            self.err("E502", "a name appears twice in ( ... )", c.span)
        self.scope.push()
        slots = []
        for name, src in zip(c.binders, c.sources):
            slots.append(self.scope.bind(name, self.collection(src)))
        self.m.slots[id(c)] = tuple(slots)
        self.bound_option(c)

    def bound_option(self, c):
        """The rest of an option over a collection once its names are bound (a scope pushed):
        its condition, label and body; then the names go out of scope."""
        if c.where is not None:
            self.cond(c.where, "an option's condition")
        if c.label is not None:
            self.option_label(c.label)
        self.block(c.body)
        self.scope.pop()

    def words(self, text: ast.Text, in_move_words: bool = False):
        """A log line, a question or a move's words. A hole that reads a secret is read
        only by the seat it belongs to (engine/compile/seat_words.py); W707 where no seat
        may read it, so every seat reads "?" in its place."""
        self.text(text)
        for part in text.parts:
            if isinstance(part, str):
                continue
            blind = next((r.name for r in hole_reads(part, self.m, in_move_words)
                          if r.owner is None), "")
            if blind:
                self.warn("W707", f"no seat may read this hole: it reads {blind}, and not as "
                          "one player's own (zone[p] or var[p]); every seat reads \"?\"",
                          getattr(part, "span", None) or text.span,
                          ["read the secret as its owner's: secret[p], top(hand[p]); or "
                           "`reveal` it first"])

    def option_label(self, label: ast.Text):
        """An option's label is shown to every seat (the log, `history`): W706 where it
        reads a secret."""
        self.text(label)
        found = reads_secret(label, self.m)
        if found:
            self.warn("W706", f"this label reads {found}, which not every seat may see: "
                      "every seat reads an option's label", label.span,
                      ["keep the secret out of the label: test it in the option's `where` "
                       "or `if`, and tell it with `log`, whose holes only their owner reads"])

    def indexes(self, name, dims, args, span):
        if len(args) != len(dims):
            if not dims:
                self.err("E401", f"{name} takes no index", span)
            else:
                self.err("E401", f"{name} is indexed by {', '.join(dims)}: it takes {len(dims)} "
                         f"index{'es' if len(dims) != 1 else ''}, not {len(args)}", span,
                         [f"write {name}[" +
                          ", ".join("p" if d == "player" else d.lower() for d in dims) + "]"])
        for a, d in zip(args, dims):
            self.expect(d, self.expr(a), a, f"an index of {name}")
        for a in args[len(dims):]:
            self.expr(a)


def _reads_local(e, resolved: dict, slot) -> Optional[ast.Name]:
    """The first name in `e` that reads the local in `slot`, or None."""
    if isinstance(e, (list, tuple)):
        for x in e:
            found = _reads_local(x, resolved, slot)
            if found is not None:
                return found
        return None
    if not attrs.has(type(e)):
        return None
    if isinstance(e, ast.Name) and resolved.get(id(e)) == ("local", slot):
        return e
    return _reads_local([getattr(e, f.name) for f in attrs.fields(type(e)) if f.name != "span"],
                        resolved, slot)
