"""Checking the bodies of definitions, phases and cards, and what the whole file leaves
unused or unreachable."""

from __future__ import annotations

from rulesdsl.lang import ast
from rulesdsl.lang.check.model import DefineInfo, PhaseInfo, Scope
from rulesdsl.lang.limits import nodes_of


class Bodies:
    """Walks every body once the model is known; reports unused and unreachable parts."""

    # ------------------------------------------------------------------ bodies
    def check_bodies(self, decls):
        m = self.m
        self.field_types = self.all_fields()
        # definitions get their types on first use, even from an option's or a variable's
        # starting value (checked before them), and in dependency order
        self.define_state: dict[str, str] = {}
        # option defaults
        for o in m.options.values():
            t = self.type_of_ref(o.type)
            self.scope = Scope(o)
            self.context = "define"
            vt = self.expr(o.default)
            self.expect(t, vt, o.default, "the option's default")
            if not self.plain_value(o.default):
                self.err("E607", "an option's default must be a plain value", o.default.span,
                         ["write a number, true/false or an enum value; a formula that "
                          "depends on the game belongs in a definition"])
            if o.type.name == "range" and isinstance(o.default, ast.Int) and \
                    o.type.low <= o.type.high and \
                    not o.type.low <= o.default.value <= o.type.high:  # (an empty range: above)
                self.err("E601", f"the default {o.default.value} is outside {o.type.low}.."
                         f"{o.type.high}", o.default.span)
        for e in m.enums.values():
            for item_attrs in e.attrs:
                for fname, a in item_attrs.items():
                    self.scope = Scope(e.decl)
                    self.context = "define"
                    self.expect(e.fields[fname], self.expr(a), a, f"field {fname}")
        # variables
        for v in m.vars.values():
            self.scope = Scope(v.decl)
            self.context = "define"
            vt = self.expr(v.decl.default)
            self.expect(v.type, vt, v.decl.default, f"the starting value of {v.name}")
        # definitions not used above
        for d in m.defines.values():
            self.infer_define(d)
        for d in m.defines.values():
            for mod in d.modifiers:
                self.scope = Scope(mod)
                for name, t in d.params:
                    self.scope.bind(name, t)
                self.scope.bind(d.name, d.type)  # the value so far
                self.context = "define"
                self.cond(mod.cond, "a modifier's condition")
                self.expect(d.type, self.expr(mod.value), mod.value, f"modifier {mod.name}")
                self.count_slots(mod)
        # kinds
        for k in m.kinds.values():
            d = k.decl
            for f in d.fields:
                if f.default is not None:
                    self.scope = Scope(f)
                    self.context = "define"
                    self.expect(k.fields[f.name][0], self.expr(f.default), f.default,
                                f"the default of {f.name}")
            if d.label is not None:
                self.scope = Scope(d.label)
                self.context = "label"
                self.label_fields = k.fields
                self.text(d.label)
                self.label_fields = None
            if d.playable is not None:
                who, cond = d.playable
                self.scope = self.card_scope(d.playable, who)
                self.context = "define"
                self.cond(cond, "a playability condition")
                self.count_slots(d.playable)
            if d.on_play is not None:
                who, block = d.on_play
                self.scope = self.card_scope(d.on_play, who)
                self.context = "effect"
                self.current_phase = PhaseInfo(f"on play of {k.name}", None, [])
                self.block(block)
                self.count_slots(d.on_play)
                self.kind_asks = getattr(self, "kind_asks", set())
                if self.current_phase.asks:
                    self.kind_asks.add(k.name)
                self.effect_calls.update(self.current_phase.calls)
        # decks
        for deck in m.decks:
            self.deck(deck)
        # phases
        for p in m.phases.values():
            self.scope = Scope(p.decl)
            for name, t in p.params:
                self.scope.bind(name, t)
            self.context = "phase"
            self.current_phase = p
            self.block(p.decl.body)
            self.count_slots(p.decl)
        # responses
        for r in m.responses:
            self.scope = Scope(r)
            self.scope.bind(r.card, "card")
            self.scope.bind(r.player, "player")
            if r.where is not None:
                self.context = "define"
                self.cond(r.where, "a response's condition")
            self.context = "response"
            self.current_phase = PhaseInfo(f"response {r.name}", None, [])
            self.block(r.body)
            self.count_slots(r)
            self.effect_calls.update(self.current_phase.calls)
        # setup
        if m.setup is not None:
            self.scope = Scope(m.setup)
            self.context = "setup"
            self.current_phase = PhaseInfo("setup", None, [])
            self.block(m.setup.body)
            self.count_slots(m.setup)
            self.setup_calls = self.current_phase.calls
        # score, the computer players' estimate, and what the game pays
        for s, what, word in ((m.score, "the score", "score"),
                              (m.evaluate, "the evaluation", "evaluate"),
                              (m.payoff, "the payoff", "payoff")):
            if s is None:
                continue
            self.scope = Scope(s)
            self.scope.bind(s.param.name, self.type_of_ref(s.param.type))
            self.context = "define"
            if self.type_of_ref(s.param.type) != "player":
                self.err("E300", f"{what}'s parameter must be a player", s.param.span,
                         [f"write it per player: {word}(p: player) = ..."])
            self.expect("int", self.expr(s.value), s.value, what)
            self.count_slots(s)
        for d in m.truths.values():
            self.check_truth(d)
        if m.payoff is not None and m.cooperative:
            self.check_shared_payoff(m.payoff)
            if m.payoff.zero_sum:
                self.err("E615", "a cooperative game pays every player the same, so its "
                         "payoff cannot be zero-sum (it would pay 0 to each)", m.payoff.span,
                         ["drop 'zero-sum', or 'cooperative' if each plays for itself"])
        self.check_decisions_reach()

    def check_truth(self, d: ast.Truth):
        """`invariant NAME(params) = COND`: a condition, tried for every value of its
        parameters, so each parameter's type must have a few values to try."""
        self.scope = Scope(d)
        for prm in d.params:
            t = self.type_of_ref(prm.type)
            if t not in ("player", "bool") and t not in self.m.enums and \
                    not (prm.type is not None and prm.type.name == "range"):
                self.err("E300", f"an invariant is kept for every value of its parameters, "
                         f"but '{prm.name}' is of type {t}, whose values cannot all be tried",
                         prm.span, ["make it a player, a bool, an enum or board, or a range "
                                    "like 1..5"])
            self.scope.bind(prm.name, t)
        self.context = "define"
        self.expect("bool", self.expr(d.value), d.value, f"invariant {d.name}")
        self.count_slots(d)

    def check_shared_payoff(self, d: ast.Payoff):
        """A cooperative game pays every seat the same, so its payoff may not name its
        player: a payoff that does could pay the seats of one team differently."""
        if d.param is None:
            return
        seat = d.param.name
        if any(n.name == seat for n in nodes_of(d.value, ast.Name)):
            self.err("E612", f"a cooperative game pays every player the same, but this payoff "
                     f"depends on the player '{seat}'", d.value.span,
                     [f"pay the team's result, without '{seat}': payoff({seat}: player) = "
                      "sum(points[q] for q in players)",
                      "or drop 'cooperative' from the players line if each plays for itself"])

    @staticmethod
    def card_scope(node, who: str) -> Scope:
        """The scope of a kind's `playable by p if ...` or `on play by p { ... }`: `self` is
        the card, `p` the player."""
        scope = Scope(node)
        scope.bind("self", "card")
        scope.bind(who, "player")
        return scope

    def plain_value(self, e) -> bool:
        """A literal an option may start from (what loading can read without running)."""
        if isinstance(e, (ast.Int, ast.Bool)):
            return True
        if isinstance(e, ast.Unary):
            return e.op == "-" and isinstance(e.operand, ast.Int)
        return isinstance(e, ast.Name) and e.name in self.enum_value_owner

    def infer_define(self, d: DefineInfo):
        state = self.define_state.get(d.name)
        if state == "done":
            return
        if state == "busy":
            if d.params:  # a call of itself with arguments: recursion, bounded when run
                return
            self.err("E602", f"definition {d.name} depends on itself", d.decl.span,
                     ["a definition without parameters that uses itself never ends; "
                      "give it a parameter that comes closer to an end at every call"])
            d.type = "any"
            return
        self.define_state[d.name] = "busy"
        saved = (self.scope, self.context)
        self.scope = Scope(d.decl)
        for name, t in d.params:
            self.scope.bind(name, t)
        self.context = "define"
        d.type = self.expr(d.decl.body)
        d.nslots = self.scope.count
        self.count_slots(d.decl)
        self.scope, self.context = saved
        self.define_state[d.name] = "done"

    def check_decisions_reach(self):
        """Which phases can reach a decision; setup must not."""
        m = self.m
        # from each phase that asks back to its callers, each phase once: sweeping every
        # phase until nothing changes took a sweep per link of a long chain of calls
        callers: dict = {}
        for p in m.phases.values():
            for c in p.calls:
                callers.setdefault(c, []).append(p)
        todo = [p for p in m.phases.values() if p.asks]
        while todo:
            for caller in callers.get(todo.pop().name, ()):
                if not caller.asks:
                    caller.asks = True
                    todo.append(caller)
        if m.setup is not None:
            for c in sorted(getattr(self, "setup_calls", ())):
                if c in m.phases and m.phases[c].asks:
                    self.err("E603", f"setup runs phase {c}, which asks a player to decide",
                             m.setup.span, ["setup runs before the first decision; move the "
                                            "decision into the flow"])

    def check_unused(self):
        m = self.m
        used = self.used
        for name, z in m.zones.items():
            if name not in used:
                self.warn("W700", f"zone {name} is never used", z.decl.span)
        for name, v in m.vars.items():
            if name not in used:
                self.warn("W700", f"variable {name} is never used", v.decl.span)
        for name, d in m.defines.items():
            if name not in used:
                self.warn("W700", f"definition {name} is never used", d.decl.span)
        reachable = set()
        todo = [m.flow] + sorted(getattr(self, "setup_calls", set())) + \
            sorted(self.effect_calls)
        while todo:
            n = todo.pop()
            if n in reachable or n not in m.phases:
                continue
            reachable.add(n)
            todo.extend(m.phases[n].calls)
        for name, p in m.phases.items():
            if name not in reachable and name not in used:
                self.warn("W701", f"phase {name} is never run", p.decl.span,
                          ["run it from the flow, or remove it"])
        self.check_unplayable()

    def check_unplayable(self):
        """Cards no rule can ever play: W702 (an effect or condition nothing reaches), W703
        (a kind no deck makes)."""
        m = self.m
        made = set()
        for deck in m.decks:
            for entry in deck.entries:
                if entry.kind in m.kinds:
                    made.update(m.kinds[entry.kind].ancestors)
        plays = getattr(self, "has_play", False)
        for name, k in m.kinds.items():
            d = k.decl
            if name not in made:
                self.warn("W703", f"no deck makes cards of kind {name}", d.span,
                          [f"add them to a deck: deck stock {{ {name}(...) }}, or remove the kind"])
            elif not plays and d.on_play is not None:
                self.warn("W702", f"the `on play` of {name} never runs: no rule plays a card",
                          d.span, ["play cards with: play c by p to ZONE"])
            elif not plays and d.playable is not None and \
                    not getattr(self, "reads_playable", False):
                self.warn("W702", f"the `playable` condition of {name} is never read: no rule "
                          "plays a card or asks playable(c, p)", d.span,
                          ["play cards with: play c by p to ZONE"])
