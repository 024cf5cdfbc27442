"""Running the rules: the frame stack, calls and returns, random numbers, and the moves of cards."""

from __future__ import annotations

from typing import Optional

from rulesdsl.lang.errors import RulesError, RuntimeRulesError
from rulesdsl.engine.state.data import fold_repeats
from rulesdsl.engine.runtime.randoms import MASK64, splitmix64
from rulesdsl.engine.runtime.cards import move_card
from rulesdsl.engine.runtime.errors import missing_value_reason, runaway
from rulesdsl.engine.runtime.places import failing_place
from rulesdsl.engine.sequences import narrow
from rulesdsl.engine.state.piles import HiddenPile

# Types for the type checker are comments here (`# type: dict`): Cython would read an
# annotation as a C type for the native build.
try:  # True where this module is built by Cython (RULESDSL_ENGINE=native)
    import cython
    _NATIVE = cython.compiled
except ImportError:
    _NATIVE = False

# SplitMix64's constants (runtime/randoms.py); machine.pxd makes them C integers
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_MASK64, _MASK32 = (1 << 64) - 1, (1 << 32) - 1


def _shuffled64(z: list, x: int) -> int:
    """Machine.shuffle's loop for 64-bit unsigned C integers (machine.pxd types it): shuffle
    z in place from generator state x, return the new state. The same numbers as the pure
    loop: every step masked to 64 bits, and the draw (b * n) >> 64, the high half of a
    128-bit product, made of 32-bit halves (n, a pile's size, is below 2**32). Slower than
    the pure loop in Python, so only the native build runs it."""
    for i in range(len(z) - 1, 0, -1):
        x = (x + _GOLDEN) & _MASK64
        b = ((x ^ (x >> 30)) * _MIX1) & _MASK64
        b = ((b ^ (b >> 27)) * _MIX2) & _MASK64
        b ^= b >> 31
        n = i + 1
        j = ((b >> 32) * n + (((b & _MASK32) * n) >> 32)) >> 32
        z[i], z[j] = z[j], z[i]
    return x


class Machine:
    """Runs instructions until a decision, and carries out card moves."""

    __slots__ = ()

    def run(self, seat=None, chosen=None) -> None:
        """Run the rules until a player must decide or the game ends. A procedure with
        generated code runs as far as it can in one call (compile/generate.py); without,
        one instruction at a time. `chosen`: the option `seat` chose at the decision the
        top frame waits at, which the run resumes first (a generated procedure is handed
        it: nodes.Resume)."""
        prog = self.prog
        procs = prog.procs
        frames = self.frames
        steps = 0
        if self.exploring is None:  # a sequence's trials spend the decision's budget
            budget = prog.budget  # the work budget is per decision, as the step limit
            budget.work = budget.work_limit
            budget.moves = budget.moves_limit
        while frames:
            fr = frames[-1]
            pc = fr[1]
            proc = procs[fr[0]]
            try:
                if proc.run is not None:
                    # (False: not called by a phase's code)
                    r = proc.run(self, fr, False, seat, chosen)
                    chosen = None
                else:
                    if chosen is not None:  # the interpreter: resumed by the machine
                        self.resume_at(fr, seat, chosen)
                        chosen = None
                        pc = fr[1]
                    fr[1] = pc + 1
                    r = proc.code[pc](self, fr)
                    if r is not None:
                        fr[1] = pc
            except RuntimeRulesError as e:
                if e.span is None:
                    e.span = self._failed_span(proc, pc, e)
                if not e.trace:
                    e.trace = tuple(self._trace())
                raise
            except RulesError:
                raise
            except (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError) as e:
                raise RuntimeRulesError("R001", "the rules used a missing value here "
                                        f"({missing_value_reason(e)})",
                                        self._failed_span(proc, pc, e),
                                        ["check for none before using a card or a player"],
                                        self._trace()) from None
            except RecursionError as e:
                raise RuntimeRulesError("R002", "the rules nest too deeply here",
                                        self._failed_span(proc, pc, e), [],
                                        self._trace()) from None
            if r is not None:
                if prog.sequences and self.pending is not None and self.exploring is None:
                    narrow(self)  # a decision inside a sequence: only its best moves
                return
            steps += 1
            if steps > prog.step_limit:
                runaway(prog.step_limit, proc.spans[min(pc, len(proc.spans) - 1)],
                        self._trace())
        self.over = True
        self.pending = None

    def resume_at(self, fr, seat, chosen) -> None:
        """The decision frame `fr` waits at resumed at the option `seat` chose, by the
        decision's own `choose` (nodes.Resume, interpreted), and the choice logged where
        it is (a chosen card shows up through its move instead, with its visibility; a
        secret choice, ask together, is logged by the decision itself at the reveal)."""
        if self.prog.procs[fr[0]].code[fr[1]].choose(self, fr, chosen):
            self._events.append(("choice", seat, chosen[0]))

    def _failed_span(self, proc, pc: int, error: BaseException):
        """The rules' place an error came from: in generated code, read off the traceback
        (in the innermost procedure it ran: a phase runs those it calls at once)."""
        if proc.run is not None:
            found = failing_place(self.prog.procs, proc, error.__traceback__)
            if found is not None:
                return found[0].spans[found[1]]
        return proc.spans[min(pc, len(proc.spans) - 1)]

    def _trace(self) -> list:
        out = []
        for fr in self.frames:
            proc = self.prog.procs[fr[0]]
            span = proc.span
            out.append(f"{proc.name}" + (f" ({span})" if span else ""))
        return fold_repeats(out)

    def call(self, pid: int, args: list, effect: bool) -> None:
        if len(self.frames) >= self.prog.depth_limit:
            raise RuntimeRulesError("R004", f"phases call each other more than "
                                    f"{self.prog.depth_limit} deep", None,
                                    ["a phase may be calling itself without end"])
        proc = self.prog.procs[pid]
        L = [None] * max(proc.nslots, len(args))
        L[:len(args)] = args
        self.frames.append([pid, 0, L, 1 if effect else 0])
        if effect:
            self.effect_depth += 1

    def return_from(self, fr) -> None:
        while self.frames:
            top = self.frames.pop()
            if top[3]:
                self.effect_depth -= 1
            if top is fr:
                return

    def finish(self, winners: list) -> None:
        self.winners = sorted(set(winners))
        self.over = True
        self.frames.clear()
        self.effect_depth = 0
        self._events.append(("end", tuple(self.winners)))

    # ------------------------------------------------------------------ primitives
    def next_random(self, n: int, first: int = 1) -> int:
        """A uniform integer in [0, n); with explicit chance (state/chance.py) an outcome
        chosen from outcomes labelled first, first + 1, ..."""
        if self.chance is not None:
            return self.chance.uniform(n, first)
        self.rng, bits = splitmix64(self.rng)
        return (bits * n) >> 64

    def random_choice(self, seq):
        if type(seq) is HiddenPile and self.chance is not None:
            return seq.picked()  # explicit chance: one event over its cards, no order decided
        seq = list(seq)
        if not seq:
            return None
        return seq[self.next_random(len(seq))]

    def shuffle(self, zi: int) -> None:
        z = self.zones[zi]
        if self.prog.zone_unordered[zi]:
            return
        if self.chance is not None:  # card by card, each an outcome (state/chance.py)
            pile = HiddenPile.shuffled(z, self.chance, self.prog.card_label)
            # a pile somebody sees is seen in order at once; one nobody sees, as it is read
            self.zones[zi] = pile if self.prog.zone_vis[zi] == "hidden" else pile.in_order()
            self._events.append(("shuffle", zi))
            return
        if _NATIVE:  # the same numbers, in C's 64-bit integers (machine.pxd)
            self.rng = _shuffled64(z, self.rng)
            self._events.append(("shuffle", zi))
            return
        x = self.rng  # next_random's SplitMix64 steps, inline: a deck costs one call
        for i in range(len(z) - 1, 0, -1):
            x = (x + 0x9E3779B97F4A7C15) & MASK64
            b = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            b = ((b ^ (b >> 27)) * 0x94D049BB133111EB) & MASK64
            j = ((b ^ (b >> 31)) * (i + 1)) >> 64
            z[i], z[j] = z[j], z[i]
        self.rng = x
        self._events.append(("shuffle", zi))

    def move_cards(self, cards: list, dest: int, bottom: bool = False, log: bool = True,
                   words: Optional[tuple] = None) -> None:
        if not cards:
            return
        if type(cards) is HiddenPile:  # a hidden pile's cards (runtime/cards.py, pile_cards)
            # (in a sample, with no explicit chance, as the list it reads as)
            in_order = list(cards) if self.chance is None else \
                self._hidden_pile_moving(cards, dest, bottom, log, words)
            if in_order is None:
                return
            cards = in_order
        zones, loc = self.zones, self.loc
        prog = self.prog
        if self.effect_depth:
            cards = self._respect_invariants(cards, dest)
        if len(cards) == 1 and not prog.zone_capacity[dest] and not (
                bottom and prog.zone_unordered[dest]):
            # the common case, one card onto a pile or into a hand: no grouping
            c = cards[0]
            src = move_card(zones, loc, c, dest, prog.zone_unordered[dest], bottom)
            if log and src != dest:
                self._events.append(("move", (c,), src, dest) +
                                    (() if words is None else tuple(words)))
            return
        if not cards:  # every card held back by a `keeps N` zone
            return
        target = zones[dest]
        unordered = prog.zone_unordered[dest]
        src = loc[cards[0]]
        if src != dest and not unordered and not bottom and not prog.zone_capacity[dest] \
                and type(zones[src]) is list and zones[src][-len(cards):] == cards:
            # a whole pile onto another (the trick to the pile), or its top cards, in order
            n = len(cards)
            target.extend(cards)
            for c in cards:
                loc[c] = dest
            if log:
                self._events.append(("move", tuple(cards), src, dest) +
                                    (() if words is None else tuple(words)))
            del zones[src][-n:]  # last: `cards` may be that very list
            return
        if len(set(cards)) != len(cards):  # a card listed twice lands where it is last
            cards = list(dict.fromkeys(cards[::-1]))[::-1]
        groups = {}  # type: dict
        for c in cards:
            groups.setdefault(loc[c], []).append(c)
        for src, cs in groups.items():  # out of their zones, which keep their order
            z = zones[src]
            if len(cs) == len(z):
                z.clear()
            elif len(cs) == 1 or type(z) is not list:
                for c in cs:  # a hidden pile decides no place for cards taken by identity
                    z.remove(c)
            else:
                gone = set(cs)
                z[:] = [c for c in z if c not in gone]
        if bottom:
            target[:0] = cards[::-1]
        else:
            target.extend(cards)
            if unordered:
                target.sort()  # card ids are unique: the same as inserting each in its place
        for c in cards:
            loc[c] = dest
        cap = prog.zone_capacity[dest]
        if cap and len(target) > cap:
            raise RuntimeRulesError("R021", f"{prog.zone_names[dest]} holds at most {cap} "
                                    f"card{'s' if cap != 1 else ''}; this move makes "
                                    f"{len(target)}", None,
                                    ["check that the place is free before moving there"])
        if log:  # by source zone, not by first card: that order would reveal a hidden card
            for src, cs in sorted(groups.items()):
                if src != dest:
                    # a move told in words: (full, masked) on its first entry, None after
                    extra = () if words is None else tuple(words)
                    self._events.append(("move", tuple(cs), src, dest) + extra)
                    words = None if words is None else (None,) * len(extra)

    def _hidden_pile_moving(self, pile: HiddenPile, dest: int, bottom: bool, log: bool,
                            words: Optional[tuple]) -> Optional[list]:
        """A whole hidden pile about to move (`pile`, its copy that decides nothing). Onto
        a hidden pile with no undecided place it moves here, its own places still
        undecided (nobody sees the order on either side): None. Else its cards in the
        order the rules read them, the pile decided top down as the move reads it."""
        zones, loc = self.zones, self.loc
        src = loc[list.__getitem__(pile, 0)]
        source = zones[src]
        if type(source) is not HiddenPile or \
                sorted(list.__iter__(source)) != sorted(list.__iter__(pile)):
            pile.chance = self.chance  # (no longer the whole pile: only the rules change it)
            return list(pile)
        if not self._keeps_undecided(source, src, dest, bottom):
            return list(source)
        target = zones[dest]
        zones[dest] = source.landed_on(target, self.chance)
        cards = list(list.__iter__(source))  # in the pile's own list order: decides nothing
        source.clear()
        for c in cards:
            loc[c] = dest
        if log:
            self._events.append(("move", tuple(cards), src, dest) +
                                (() if words is None else tuple(words)))
        return None

    def _keeps_undecided(self, source: HiddenPile, src: int, dest: int, bottom: bool) -> bool:
        """Whether `source`, moved whole onto `dest`, may keep its undecided places there:
        onto the top of a hidden pile (no limit, no card effect holding cards back) that
        has none of its own."""
        prog, target = self.prog, self.zones[dest]
        return src != dest and not bottom and not self.effect_depth and \
            prog.zone_vis[dest] == "hidden" and not prog.zone_unordered[dest] and \
            not prog.zone_capacity[dest] and source.undecided() > 0 and \
            (type(target) is list or not target.undecided())

    def all_cards_cost(self) -> int:
        """moves_cost of every card (`move cards to ZONE`): one each, plus a thousandth of
        the pile each leaves, summed pile by pile."""
        return len(self.loc) + sum([len(z) * len(z) for z in self.zones]) // 1000

    def move_all_cards(self, dest: int) -> None:
        """`move cards to ZONE` as move_cards does it with every card, without grouping
        them: the zone ends with all cards in id order, and each pile that held any is
        logged as one move. Not while a card effect runs (`keeps N` zones hold theirs),
        nor onto the bottom or into a zone with a limit (the callers check)."""
        events = self._events
        zones = self.zones
        for src, z in enumerate(zones):
            if z:
                if src != dest:
                    # (read as a list: a hidden pile's order is nothing to decide here)
                    events.append(("move", tuple(sorted(list.__iter__(z))), src, dest))
                z.clear()
        n = len(self.loc)
        zones[dest].extend(range(n))
        self.loc[:] = [dest] * n

    def _respect_invariants(self, cards: list, dest: int) -> list:
        """While a card effect runs, zones with `keeps N` keep their earliest N cards."""
        keep = self.prog.zone_keep
        loc = self.loc
        by_src = {}  # type: dict
        for c in cards:
            src = loc[c]
            if keep[src] and src != dest:
                by_src.setdefault(src, []).append(c)
        if not by_src:
            return cards
        held = set()
        for src, moving in by_src.items():
            zone = self.zones[src]
            remaining = len(zone) - len(moving)
            if remaining < keep[src]:
                need = keep[src] - remaining
                order = sorted(moving, key=zone.index)
                held.update(order[:need])
        return [c for c in cards if c not in held]

    def deal(self, source: int, family_base: int, count: Optional[int], first: int) -> None:
        n = self.prog.nplayers
        pile = self.zones[source]
        if count is not None:
            if count < 0:
                raise RuntimeRulesError("R022", f"cannot deal {count} cards")
            if count * n > len(pile):
                raise RuntimeRulesError("R022", f"dealing {count} to each of {n} players needs "
                                        f"{count * n} cards but {self.prog.zone_names[source]} "
                                        f"has {len(pile)}", None,
                                        ["deal fewer cards, or refill the pile first"])
            total = count * n
        else:
            total = len(pile)
        if not total:
            return
        # the cards in the order they leave the pile (from the top), every n-th to a seat
        order = pile[:len(pile) - total - 1:-1] if total < len(pile) else pile[::-1]
        del pile[len(pile) - total:]
        zones, loc, unordered = self.zones, self.loc, self.prog.zone_unordered
        for k in range(min(n, total)):
            seat = (first + k) % n
            dest = family_base + seat
            cs = order[k::n]
            z = zones[dest]
            z.extend(cs)
            if unordered[dest]:
                z.sort()  # card ids are unique: the same as inserting each in its place
            for c in cs:
                loc[c] = dest
        for seat in range(n):
            k = (seat - first) % n
            if k < total:
                self._events.append(("move", tuple(order[k::n]), source, family_base + seat))

    def swap(self, a: Optional[int], b: Optional[int]) -> None:
        if a is None or b is None:
            raise RuntimeRulesError("R012", "swap needs two cards, got none")
        za, zb = self.loc[a], self.loc[b]
        la, lb = self.zones[za], self.zones[zb]
        ia, ib = la.index(a), lb.index(b)
        la[ia], lb[ib] = b, a
        self.loc[a], self.loc[b] = zb, za
        for zi in (za, zb):
            if self.prog.zone_unordered[zi]:
                self.zones[zi].sort()
        self._events.append(("move", (a,), za, zb))
        self._events.append(("move", (b,), zb, za))

    def reveal(self, cards: list, seats: Optional[list] = None) -> None:
        """Show cards to everyone, or only to `seats`; the log names the zone they lie in."""
        by_zone = {}  # type: dict
        for c in cards:
            by_zone.setdefault(self.loc[c], []).append(c)
        extra = () if seats is None else (tuple(sorted(set(seats))),)
        if not by_zone:
            self._events.append(("reveal", (), -1) + extra)
        for zi, cs in by_zone.items():
            self._events.append(("reveal", tuple(cs), zi) + extra)
