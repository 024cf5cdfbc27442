"""What a person sees at a decision: the recent log, the question, the options in the order of the hand, the result."""

from __future__ import annotations

import shutil
from typing import Optional, Sequence

from rulesdsl.lang.errors import RulesError
from rulesdsl.play.screen import clean
from rulesdsl.play.answers import _ranges, numeric_labels
from rulesdsl.play.runner.text import log_lines


SHOWN_OPTIONS = 40  # options listed at a prompt; typing part of a label lists the others


def options_holding(text: str, labels: Sequence[str]) -> list:
    """The numbers (from 1) of the labels that hold `text`, in any case: those it starts
    first, then the others."""
    low = text.strip().casefold()
    if not low:
        return []
    starts, inside = [], []
    for k, label in enumerate(labels, 1):
        folded = label.casefold()
        if folded.startswith(low):
            starts.append(k)
        elif low in folded:
            inside.append(k)
    return starts + inside


class Display:
    """Draws the parts of a decision's screen."""

    def show_options(self, seat: int, actions: Sequence) -> None:
        o = self.o
        if self.screens:
            o.clear()
            try:
                where = " > ".join(p.replace("_", " ") for p in self.state.phase_path())
            except Exception:
                where = ""
            self.say([(f" {getattr(self.game, 'name', '')} ", "bold reverse"),
                      (f"  {self.seat_name(seat)} to move", "bold"),
                      ("   (you)" if len(self.humans) == 1 else "", "dim"),
                      (f"   {where}" if where else "", "dim")])
            self.show_recent(seat)
            self.show_notice()
        else:
            self.show_notice()
            self.say(f"{self.seat_name(seat)} to move; what you see:")
        try:
            view = self.state.view(seat)
        except RulesError:
            view = None
        if view:
            for line in self.layout.view_lines(view, seat, compact=True, width=o.width - 3,
                                               shown=self.shown(seat)):
                self.say([("  ", None)] + [(self.named(t), st) for t, st in line])
        self.show_choices(actions, view)

    def show_notice(self) -> None:
        """A line for this screen only (a move taken back), then gone."""
        if self.notice:
            self.say(self.named(self.notice), "bold")
            self.notice = None

    def show_recent(self, seat: int) -> None:
        """What happened since this seat last moved, as it may see it (at most a screenful)."""
        lines = log_lines(self.state, seat)
        new = lines[self.seen.get(seat, 0):]
        if not new:
            return
        limit = max(6, min(14, shutil.get_terminal_size((100, 30)).lines // 3))
        self.say("since your last move:" if self.seen.get(seat) else "so far:", "bold")
        if len(new) > limit:
            self.say(f"  ... {len(new) - limit} earlier lines (type log to see them)", "dim")
            new = new[-limit:]
        for line in new:
            line = self.named(line)
            self.say([("  ", None), (line, "cyan" if line.startswith(self.names[seat])
                                     else None)])

    def what_is_asked(self, actions: Sequence, view) -> str:
        """'a card from hand[P1]', 'a Region', ...: read off the labels and the view."""
        labels = [a.label for a in actions]
        info = self.layout.info
        cards = [l for l in labels if l in info.get("cards", {})]
        if isinstance(view, dict) and cards:
            seat = view.get("seat")
            zones = sorted((view.get("zones") or {}).items(),
                           key=lambda z: info["zones"].get(z[0], {}).get("owner") != seat)
            for name, held in zones:
                if isinstance(held, list) and set(cards) <= set(held):
                    rest = len(labels) - len(cards)
                    return f"a card from {name}" + (" (or another option)" if rest == 1
                                                    else " (or other options)" if rest
                                                    else "")
        for board, nodes in info.get("boards", {}).items():
            if all(l in nodes for l in labels):
                return f"a {board}"
        for enum, values in info.get("enums", {}).items():
            if all(l in values for l in labels):
                return f"a {enum}"
        seats = [f"P{k + 1}" for k in range(self.state.players)]
        if all(l in seats for l in labels):
            return "a player"
        return ""

    def show_choices(self, actions: Sequence, view=None) -> None:
        if numeric_labels(actions):
            question = self.question()
            if question:
                self.say(question, "bold")
            values = sorted(int(a.label) for a in actions)
            self.say([("options: ", "bold"), ("type an amount: ", None),
                      (_ranges(values), "bold yellow")])
            self.say("  (a number here is the amount itself; #N picks option N)", "dim")
            return
        what = self.what_is_asked(actions, view) if self.screens else ""
        question = self.question()
        if question:
            self.say(question, "bold")
            what = ""
        self.say([("options:", "bold"), (f" {what}" if what else "", "bold"),
                  ("  (type a number or part of a label; help: commands)"
                   if self.screens else "", "dim")])
        self.show_numbered(list(enumerate(actions, 1)), len(actions))
        if len(actions) > SHOWN_OPTIONS:
            self.say(f"  ... and {len(actions) - SHOWN_OPTIONS:,} more, {len(actions):,} "
                     "options in all: type part of a label to list the options it is in, "
                     "or #N for option N", "dim")

    def show_matches(self, text: str, actions: Sequence) -> bool:
        """Typed text that names no one option: the options whose label holds it, as the
        options are listed (the first few dozen, then how many more). False if none."""
        found = options_holding(text, [self.named(a.label) for a in actions])
        if not found:
            return False
        self.say(f"  {len(found):,} option{'s' if len(found) != 1 else ''} hold "
                 f"{clean(text.strip(), 40)!r}:")
        self.show_numbered([(k, actions[k - 1]) for k in found], len(actions))
        if len(found) > SHOWN_OPTIONS:
            self.say(f"  ... and {len(found) - SHOWN_OPTIONS:,} more: type more of the "
                     "label", "dim")
        return True

    def show_numbered(self, numbered: list, total: int) -> None:
        """`(number, action)` pairs as the options are shown, the first SHOWN_OPTIONS only:
        a decision of a million options prints a screenful, not 18 MB."""
        width = len(str(total))
        cells = [[(f"  {k:>{width}}. ", "bold yellow"),
                  (self.named(a.label), self.layout.card_style(a.label))] + self.option_note(a.label)
                 for k, a in numbered[:SHOWN_OPTIONS]]
        cols = 1
        if self.screens and len(cells) > 8:
            cell_w = max(sum(len(t) for t, _ in c) for c in cells) + 2
            cols = max(1, min(4, self.o.width // cell_w))
        if cols == 1:
            for c in cells:
                self.say(c)
            return
        cell_w = max(sum(len(t) for t, _ in c) for c in cells) + 2
        rows = -(-len(cells) // cols)
        for r in range(rows):
            line = []
            for col in range(cols):
                k = col * rows + r
                if k < len(cells):
                    c = cells[k]
                    pad = cell_w - sum(len(t) for t, _ in c)
                    line += c + ([(" " * pad, None)] if col < cols - 1 else [])
            self.say(line)

    def shown(self, seat: int) -> list:
        """The values the rules declare for the screen (`show`), as `seat` may see them."""
        shown = getattr(self.state, "shown", None)
        try:
            return shown(seat) if callable(shown) else []
        except RulesError:
            return []

    def question(self) -> str:
        """The rules' question for the pending decision, names filled in ("" if none)."""
        ask = getattr(self.state, "question", None)
        try:
            text = ask() if callable(ask) else None
        except RulesError:
            text = None
        return self.named(text) if text else ""

    def hand_order(self, actions: list, seat: Optional[int] = None) -> list:
        """The options in the order the hand is shown above them: cards sorted as the
        screen sorts a hand, every other option after them, in the rules' order. Cards
        from a pile the screen shows in its own order (a display) keep the rules' order."""
        cards = self.layout.info.get("cards", {})
        labels = [a.label for a in actions if a.label in cards]
        if len(labels) < 2 or not self.shown_sorted(labels, seat):
            return list(actions)
        order = {lab: k for k, lab in enumerate(self.layout.sort_cards(
            [a.label for a in actions if a.label in cards]))}
        return sorted(actions, key=lambda a: (0, order[a.label]) if a.label in order
                      else (1, 0))

    def shown_sorted(self, labels: list, seat: Optional[int]) -> bool:
        """Every card lies in a zone the screen shows sorted: an unordered zone, or one of
        the seat's own zones the others may not see (Layout.zone_pieces groups those)."""
        if seat is None:
            return True
        try:
            zones = self.state.view(seat).get("zones") or {}
        except RulesError:
            return True
        info = self.layout.info.get("zones", {})
        sorted_cards = set()
        for name, held in zones.items():
            z = info.get(name, {})
            if isinstance(held, list) and (z.get("unordered") or (
                    z.get("owner") == seat and z.get("visibility") != "public")):
                sorted_cards.update(held)
        return all(lab in sorted_cards for lab in labels)

    def option_note(self, label: str) -> list:
        """An enum value's declared title beside the option: "a10  (the 10,000 area)"."""
        for titles in self.layout.info.get("enum_titles", {}).values():
            if label in titles:
                return [(f"  ({titles[label]})", "dim")]
        return []

    def show_rules(self) -> None:
        """`rules`: the rules text the file declares (about, cards, table, flow)."""
        from rulesdsl.play.rulestext import rules_text
        for line in rules_text(self.game, self.state.players, width=min(self.o.width, 100)):
            self.say(line)

    def explain(self, what: str) -> None:
        """`help NAME` / `? NAME`: one card, kind or word of the game."""
        from rulesdsl.play.rulestext import explain
        for line in explain(self.game, self.state.players, clean(what, 80),
                            width=min(self.o.width, 100)):
            self.say(line)

    def show_result(self) -> None:
        state = self.state
        winners = list(state.winners or [])
        self.say("")
        self.say("game over after %d actions" % len(state.history), "bold")
        if not winners:
            self.say("no winner: the game is drawn")
        elif len(winners) == 1:
            self.say(f"winner: {self.seat_name(winners[0])}, {self.seats[winners[0]]}",
                     "bold green")
        else:
            self.say("winners: " + "; ".join(f"{self.seat_name(w)}, {self.seats[w]}"
                                             for w in winners), "bold green")
        try:
            scores = state.scores
        except (AttributeError, RulesError):
            scores = None
        if scores:
            items = scores.items() if isinstance(scores, dict) else enumerate(scores)
            self.say("scores: " + ", ".join(f"{self.names[s] if isinstance(s, int) else s}: {v}"
                                            for s, v in items))
