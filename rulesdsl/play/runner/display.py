"""What a person sees at a decision: the recent log, the question, the options in the order of the hand, the result."""

from __future__ import annotations

from typing import Optional, Sequence

from rulesdsl.lang.errors import RulesError
from rulesdsl.play.rulestext import with_article
from rulesdsl.play.screen import clean, number_text
from rulesdsl.play.answers import _ranges, numeric_labels


SHOWN_OPTIONS = 40  # options listed at a prompt; typing part of a label lists the others
NEWS_LINES = 60     # the news on a screen at most (older lines: `log`)


def _more_line(text: str) -> list:
    """The line that says what a cut part left out, and how to see it."""
    return [(f"  ... {text}", "dim")]


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
        if self.screens:
            self.draw_screen(seat, actions)
            return
        self.show_notice()
        self.say(f"{self.seat_name(seat)} to move; what you see:")
        view = self.view_of(seat)
        if view:
            for line in self.layout.view_lines(view, seat, compact=True, width=10_000,
                                               shown=self.shown(seat)):
                self.say(self.named_line([("  ", None)] + line))
        self.show_choices(actions, view)

    def view_of(self, seat: int):
        try:
            return self.state.view(seat)
        except RulesError:
            return None

    def named_line(self, line: list) -> list:
        return [(self.named(t), st) for t, st in line]

    # -- a person's screen, fitted to the terminal (rulesdsl.play.fit)
    def draw_screen(self, seat: int, actions: Sequence) -> None:
        """A decision's screen: cleared, then the parts fitted to the terminal's rows (the
        prompt takes the last)."""
        from rulesdsl.play.fit import fit
        o = self.o
        width = o.width - 1
        rows = fit(self.screen_parts(seat, actions, width), o.height - 1, width)
        o.clear()
        for row in rows:
            o.line_as_is(row)

    def screen_parts(self, seat: int, actions: Sequence, width: int) -> list:
        """The parts of a decision's screen in the order they are drawn, each with its
        shorter versions (see rulesdsl.play.fit for what is cut first)."""
        from rulesdsl.play.fit import Part, first_lines
        more = _more_line
        parts = [Part("title", [[self.title_line(seat, width)]]),
                 Part("news", self.news_versions(seat)),
                 Part("notice", [self.captured(self.show_notice)])]
        view = self.view_of(seat)
        if view:
            shown, marked = self.shown(seat), self.last_move_cells()
            full = dict(self.layout.view_parts(view, seat, width=width - 2, shown=shown,
                                               marked=marked))
            small = dict(self.layout.view_parts(view, seat, width=width - 2, shown=shown,
                                                maps="owners", marked=marked))
            named = {k: [self.named_line([("  ", None)] + line) for line in lines]
                     for k, lines in full.items()}
            parts += [
                Part("map", [named["map"], [self.named_line([("  ", None)] + line)
                                            for line in small["map"]]]),
                # the board as drawn, then a laid-out one a line a row, then cut
                Part("board", [named["board"]] + first_lines(
                    [self.named_line([("  ", None)] + line) for line in small["board"]],
                    lambda n: more(f"{n} more line{'s' if n != 1 else ''} of the board: "
                                   "type view"), 1)),
                Part("table", first_lines(named["table"], lambda n: more(
                    f"{n} more line{'s' if n != 1 else ''} of the table: type view"), 1)),
                Part("you", first_lines(named["you"], lambda n: more(
                    f"{n} more line{'s' if n != 1 else ''} of yours: type view"), 1)),
                Part("others", first_lines(named["others"], lambda n: more(
                    f"{n} more line{'s' if n != 1 else ''} of the others: type view"))),
                Part("scores", [named["scores"]])]
        parts.append(Part("question", [self.captured(lambda: self.choices_head(actions,
                                                                                view))]))
        parts.append(Part("options", self.option_versions(actions)))
        return parts

    def captured(self, show) -> list:
        """What `show` would say, as lines, not said."""
        lines: list = []
        self.say = lambda text="", style=None: lines.append(
            text if isinstance(text, list) else [(str(text), style)])
        try:
            show()
        finally:
            del self.say          # the class's own again
        return lines

    def title_line(self, seat: int, width: int) -> list:
        """The title bar: the game, whose turn, and where in the flow, the flow cut from
        its outer end to fit the width ("... > round > turn")."""
        try:
            path = [p.replace("_", " ") for p in self.state.phase_path()]
        except Exception:
            path = []
        head = [(f" {getattr(self.game, 'name', '')} ", "bold reverse"),
                (f"  {self.seat_name(seat)} to move", "bold"),
                ("   (you)" if len(self.humans) == 1 else "", "dim")]
        used = sum(len(t) for t, _ in head)
        where = " > ".join(path)
        while path and used + 3 + len(where) > width:
            path = path[1:]
            where = "... > " + " > ".join(path) if path else ""
        line = head + ([(f"   {where}", "dim")] if where else [])
        if sum(len(t) for t, _ in line) > width:          # a long name on a narrow terminal
            line = [(line[0][0][:max(10, width - 16)], line[0][1]), line[1]]
        return line

    def last_move_cells(self) -> set:
        """The cells of a grid board the last action named: marked on the board."""
        history = self.state.history
        return self.layout.cells_named(history[-1]) if history else set()

    def news_versions(self, seat: int) -> list:
        """What happened since this seat last moved, as it may see it: all of it, then the
        last lines only, with how many earlier ones `log` shows."""
        from rulesdsl.play.fit import kept_lines
        lines = self.told.lines(self.state, seat)
        new = lines[self.seen.get(seat, 0):]
        moved = seat in self.moved
        setup = [] if moved else [_more_line(
            f"the set-up: {self.setup[seat]} line{'s' if self.setup[seat] != 1 else ''}, "
            "type log")] if self.setup.get(seat) else []
        if not new:
            return [[[("so far:", "bold")]] + setup] if setup else [[]]
        header = [("since your last move:" if moved else "so far:", "bold")]
        kept = new[-NEWS_LINES:]
        rows = []
        for line in kept:
            line = self.named(line)
            rows.append([("  ", None), (line, "cyan" if line.startswith(self.names[seat])
                                        else None)])
        earlier = len(new) - len(kept)
        versions = kept_lines(rows, header, lambda n: _more_line(
            f"{n + earlier} earlier line{'s' if n + earlier != 1 else ''}: type log"))
        if earlier:
            versions[0] = [header, _more_line(f"{earlier} earlier lines: type log")] + rows
        return [v[:1] + setup + v[1:] for v in versions]

    def option_versions(self, actions: Sequence) -> list:
        """The options in columns: all of the first SHOWN_OPTIONS, then fewer rows of them
        with how many more there are and how to reach them."""
        if numeric_labels(actions):
            return [[]]               # an amount: the ranges stand in the question part
        shown = min(len(actions), SHOWN_OPTIONS)
        numbered = list(enumerate(actions, 1))
        versions = [self.option_rows(numbered[:shown], len(actions))]
        heights = {len(versions[0])}
        if len(actions) > SHOWN_OPTIONS:
            versions[0] = versions[0] + [_more_line(
                f"{len(actions) - shown:,} more ({len(actions):,} in all): type part of a "
                "label, or #N")]
        for count in range(shown, 0, -1):
            lines = self.option_rows(numbered[:count], len(actions), columns_from=2)
            if len(lines) in heights:
                continue
            heights.add(len(lines))
            left = len(actions) - count
            if left:
                lines.append(_more_line(f"{left:,} more ({len(actions):,} in all): type "
                                        "part of a label, or #N"))
            versions.append(lines)
        return versions

    def show_notice(self) -> None:
        """A line for this screen only (a move taken back), then gone."""
        if self.notice:
            self.say(self.named(self.notice), "bold")
            self.notice = None

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
                return with_article(board)
        for enum, values in info.get("enums", {}).items():
            if all(l in values for l in labels):
                return with_article(enum)
        seats = [f"P{k + 1}" for k in range(self.state.players)]
        if all(l in seats for l in labels):
            return "a player"
        return ""

    def choices_head(self, actions: Sequence, view=None) -> None:
        """The question and the line above the options (an amount: its ranges)."""
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

    def show_choices(self, actions: Sequence, view=None) -> None:
        self.choices_head(actions, view)
        if numeric_labels(actions):
            return
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
        for line in self.option_rows(numbered[:SHOWN_OPTIONS], total):
            self.say(line)

    def option_rows(self, numbered: list, total: int, columns_from: int = 9) -> list:
        """`(number, action)` pairs as lines: one a line, or on a terminal in up to four
        columns when there are `columns_from` or more, numbered down the columns."""
        width = len(str(total))
        cells = [[(f"  {k:>{width}}. ", "bold yellow"),
                  (self.named(a.label), self.layout.card_style(a.label))] + self.option_note(a.label)
                 for k, a in numbered]
        cols = 1
        if self.screens and len(cells) >= columns_from:
            cell_w = max(sum(len(t) for t, _ in c) for c in cells) + 2
            cols = max(1, min(4, self.o.width // cell_w))
        if cols == 1:
            return cells
        cell_w = max(sum(len(t) for t, _ in c) for c in cells) + 2
        rows = -(-len(cells) // cols)
        lines = []
        for r in range(rows):
            line = []
            for col in range(cols):
                k = col * rows + r
                if k < len(cells):
                    c = cells[k]
                    pad = cell_w - sum(len(t) for t, _ in c)
                    line += c + ([(" " * pad, None)] if col < cols - 1 else [])
            lines.append(line)
        return lines

    def shown(self, seat: Optional[int]) -> list:
        """The values the rules declare for the screen (`show`), as `seat` may see them
        (None: every seat): (title, {owner: text}) each, and (title, board, {cell: text})
        for those drawn as a board."""
        shown = getattr(self.state, "shown", None)
        on_boards = getattr(self.state, "shown_on_boards", None)
        try:
            return (shown(seat) if callable(shown) else []) + \
                (on_boards() if callable(on_boards) else [])
        except (RulesError, AttributeError):
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
        """`rules`: the rules text the file declares (about, cards, table, flow), wrapped
        to the terminal's last column but one, as every line is (Out.line)."""
        from rulesdsl.play.rulestext import rules_text
        for line in rules_text(self.game, self.state.players,
                               width=min(self.o.width - 1, 100)):
            self.say(line)

    def show_view(self, seat: int) -> None:
        """`view`: the whole of what the seat sees, nothing cut (a map with its
        neighbours), whatever the terminal's size."""
        view = self.view_of(seat)
        for line in self.layout.view_lines(view, seat, compact=False,
                                           width=self.o.width - 3,
                                           shown=self.shown(seat)) if view else []:
            self.say(self.named_line([("  ", None)] + line))

    def explain(self, what: str) -> None:
        """`help NAME` / `? NAME`: one card, kind or word of the game."""
        from rulesdsl.play.rulestext import explain
        for line in explain(self.game, self.state.players, clean(what, 80),
                            width=min(self.o.width - 1, 100)):
            self.say(line)

    def show_result(self) -> None:
        """The game-over screen: the final table as the rules display it (the board, the
        map, the zones), who won, the scores in the game's unit, and each player's place."""
        state = self.state
        winners = list(state.winners or [])
        self.show_final_table()
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
        scores = self.final_scores()
        if scores is None:
            return
        unit = self.score_unit()
        self.say(f"{unit or 'scores'}: " + ", ".join(f"{self.names[s]}: {number_text(v)}"
                                                    for s, v in enumerate(scores)))
        for line in self.standings(scores, winners, unit):
            self.say(line)

    def final_scores(self):
        """The scores by seat (a list), or None for a game without scores."""
        try:
            scores = self.state.scores
        except (AttributeError, RulesError):
            return None
        if isinstance(scores, dict):
            scores = [scores[k] for k in sorted(scores)]
        return list(scores) if scores else None

    def score_unit(self) -> str:
        """What the scores count: the title of the variable a score is ("coins" for
        `score(p) = gold[p]` and `title gold "coins"`), else "" (plain points)."""
        value = getattr(getattr(getattr(self.game, "model", None), "score", None), "value",
                        None)
        name = getattr(getattr(value, "obj", value), "name", None)
        if isinstance(name, str) and name in getattr(self.game.model, "vars", {}):
            title = self.layout.title(name)
            if title != name:
                return title
        return ""

    def standings(self, scores: list, winners: list, unit: str) -> list:
        """One line a player, best first: place, name, seat kind, score, won or not."""
        others = [_key(scores[s]) for s in range(len(scores)) if s not in winners]
        # the winners hold the lowest scores (fewest points wins): the lowest next best
        low_wins = bool(winners and others) and \
            max(_key(scores[w]) for w in winners) < min(others)
        order = sorted(range(len(scores)), key=lambda s: (
            s not in winners, _key(scores[s]) if low_wins else -_key(scores[s])))
        texts = [number_text(scores[s]) for s in order]
        wide = max(len(t) for t in texts)
        name_w = max(len(self.names[s]) for s in order)
        lines = []
        for place, (s, text) in enumerate(zip(order, texts), 1):
            who = "you" if s in self.humans and len(self.humans) == 1 else self.seats[s]
            lines.append([(f"  {place}. {self.names[s]:<{name_w}}  ", "bold"),
                          (f"{text:>{wide}}" + (f" {unit}" if unit else ""), None),
                          (f"  ({who})", "dim"),
                          ("  won" if s in winners else "", "bold green")])
        return lines

    def show_final_table(self) -> None:
        """The last position as the rules lay it out, nothing cut: what the one person at
        the table may see, or with computer players alone what every seat sees."""
        seat = self.viewer
        view = self.final_view(seat)
        if not view:
            return
        marked = self.last_move_cells()
        shown = self.shown(seat)
        lines = self.layout.view_lines(view, seat, compact=True, width=self.o.width - 3,
                                       shown=shown, marked=marked)
        if lines:
            self.say("")
            self.say("the final table:", "bold")
        for line in lines:
            self.say(self.named_line([("  ", None)] + line))

    def final_view(self, seat):
        """The view of `seat`; for no seat, every seat's view laid together."""
        if seat is not None:
            view = dict(self.view_of(seat) or {})
            view.pop("scores", None)   # said below, every seat's
            return view
        merged: dict = {"zones": {}, "vars": {}}
        for s in range(self.state.players):
            view = self.view_of(s) or {}
            for name, value in (view.get("zones") or {}).items():
                if isinstance(value, list) or name not in merged["zones"]:
                    merged["zones"][name] = value
            merged["vars"].update(view.get("vars") or {})
        return merged                  # without scores: said below, every seat's


def _key(value):
    return value if isinstance(value, (int, float)) else 0
