"""Every code an error or a warning of rulesdsl carries, in one table: the families (the
ranges docs/language.md lists) and each code's meaning in one line.

A code is a letter and three digits. E: a rules file that cannot be read, parsed or
checked; W: the checker's warnings; R: rules that break while they run; A: actions and
names given through the Python API; C: the command line and loading (files, options,
seats, simulations); S: saves and scenarios.

The table of "Error codes" in docs/language.md is `docs_table()` (print it with
`python -m rulesdsl.lang.codes`); tests/lang/test_codes.py fails on a code raised in the
package but missing here, a code the docs name that is not here, a code listed twice, a
code outside every family, and a docs table that is not this one.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional

import attrs


@attrs.frozen
class Family:
    """Codes first..last (the same letter), and what they are about."""

    first: str
    last: str
    about: str

    def holds(self, code: str) -> bool:
        return code[0] == self.first[0] and self.first <= code <= self.last

    @property
    def span(self) -> str:
        return self.first if self.first == self.last else f"{self.first}-{self.last}"


FAMILIES = (
    Family("E001", "E001", "a rules file that cannot be read: missing, a folder, a device or "
                           "a FIFO"),
    Family("E100", "E108", "syntax: unexpected character or token, early end of file, bad "
                           "string, file too large, not UTF-8, nested too deeply (E106), file "
                           "past the size limit (E107), a control character such as ESC or "
                           "BEL (E108)"),
    Family("E200", "E221", "unknown names (with \"did you mean\"), unknown kinds, zones, "
                           "fields, phases, types, functions, files to extend; a file to "
                           "extend that is not a rules file (E212), or whose name holds a "
                           "control character such as a new line (E213); a `look` hint or "
                           "the name it is about that is not known (E220), or a value of it "
                           "that is not a colour or a side (E221)"),
    Family("E300", "E304", "types: mismatches, conditions that are not true/false, things "
                           "that are not lists, assignment to what is not a variable (or to a "
                           "piece's field that never changes, E304)"),
    Family("E400", "E402", "arity: arguments, indexes, deck entry values"),
    Family("E500", "E503", "duplicates, and `override` of nothing"),
    Family("E600", "E615", "structure: missing header, bad ranges, recursion, decisions in "
                           "setup, misplaced break/cancel/random, option defaults that are not "
                           "plain values, too many zone or variable instances (E608), labels "
                           "past the `card_labels` or `long_texts` limit, counted from the "
                           "file (E609), a `show ... if` that reads what changes in play "
                           "(E610), a deal in setup the pile cannot fit at the most players "
                           "(E611), a cooperative game's payoff that depends on the player "
                           "(E612), a `sequence` inside another or holding another player's "
                           "decision (E613), a laid-out board without rows, a range of cells "
                           "that is not one, a track with a gap or passing a cell twice, or "
                           "more tracks than the limit allows (E614), a cooperative game's "
                           "payoff declared zero-sum (E615)"),
    Family("E699", "E699", "a construct the checker does not know: a bug in rulesdsl, to "
                           "report with the file"),
    Family("W700", "W709", "warnings: unused declarations (W700), phases never run (W701), a "
                           "kind's `on play` or `playable` that nothing reaches because no "
                           "rule plays a card (W702), a kind no deck makes (W703), an `ask "
                           "each` whose players asked depend on a private or hidden zone "
                           "(W704), a decision without a question for the player (W705), an "
                           "option's label that reads a private or hidden zone or variable, "
                           "which every seat would read (W706), a hole of a `log` line, "
                           "question or move's words that reads a secret no one player owns, "
                           "so no seat reads it (W707), a public `show` that reads a private "
                           "or hidden zone or variable (W708), a range of written bounds "
                           "that counts down without a step, so is empty: `5..1` (W709)"),
    Family("R001", "R034", "errors while running rules, with the phase chain; a decision "
                           "with no legal option (R019, also when an agent is asked to choose "
                           "from none); long texts past the `long_texts` limit before a "
                           "decision (R031); a fact told of a zone that is not true "
                           "(R032); a sequence whose trial draws at random, asks another "
                           "player or runs past 200 decisions (R033); an `invariant` the "
                           "rules broke (R034)"),
    Family("A001", "A004", "bad actions and names through the API"),
    Family("C001", "C022", "the command line and loading: a game or file that cannot be "
                           "read, an unknown agent, option or player count; a simulated game "
                           "that does not end (C010); a script line that is not a legal "
                           "action (C011) or input that ends first (C012); a bad "
                           "command-line value (C013); a bad RULESDSL_LIMITS (C014); a replay "
                           "seat the game does not have (C015); games of `simulate` lost "
                           "because the worker playing them died twice (C016, the others "
                           "reported); a rules file name holding a control character (C017); "
                           "an OpenSpiel game string naming a file it cannot carry (C018) or "
                           "a file changed since the string was made (C019); a computer "
                           "player of the web table whose worker process stopped twice "
                           "(C020); a chance mode other than seeded or explicit (C021); a "
                           "payoff declared zero-sum (in the file or the OpenSpiel game "
                           "string) that does not sum to 0 (C022)"),
    Family("S001", "S002", "bad save files (among them a save whose state is not what its "
                           "history makes) and scenarios"),
)

# (code, meaning), in code order. A code is listed once: a test counts them.
ENTRIES = (
    ("E001", "a rules file cannot be read"),
    ("E100", "an unexpected character or token"),
    ("E101", "an unexpected token where another was expected"),
    ("E102", "the file ends too early: a block or a list is still open"),
    ("E103", "a bad string: a hole `{` not closed, or an escape that means nothing"),
    ("E104", "a rules file of more characters than a rules file may have"),
    ("E105", "the file is not UTF-8 text"),
    ("E106", "the syntax tree nests too deeply"),
    ("E107", "a file past the size limit"),
    ("E108", "a control character (such as ESC or BEL) in the file"),
    ("E200", "an unknown name"),
    ("E201", "an unknown kind"),
    ("E202", "an unknown zone"),
    ("E203", "an unknown field or enum value"),
    ("E204", "an unknown phase"),
    ("E205", "an unknown type"),
    ("E206", "an unknown function, or a zone or variable called as one"),
    ("E210", "a file to extend that cannot be found or read"),
    ("E211", "files that extend each other too deep, or in a circle"),
    ("E212", "a file to extend that is not a rules file"),
    ("E213", "a file to extend whose name holds a control character"),
    ("E220", "an unknown `look` hint, or a name it is about that is not declared"),
    ("E221", "a `look` value that is not a colour or a side, or too many of them"),
    ("E300", "a type mismatch"),
    ("E301", "a condition that is not true/false"),
    ("E302", "a list or zone needed, and something else given"),
    ("E303", "an index on what takes none"),
    ("E304", "an assignment to what cannot be set (not a variable, or a field that never "
             "changes)"),
    ("E400", "the wrong number of arguments"),
    ("E401", "the wrong number of indexes"),
    ("E402", "the wrong number of a deck entry's values"),
    ("E500", "a declaration made twice, or a file extending two files"),
    ("E501", "a name or label given twice"),
    ("E502", "a local bound twice in one place"),
    ("E503", "`override` of nothing"),
    ("E600", "a missing header (game, players, flow)"),
    ("E601", "a bad range, count, border or visibility"),
    ("E602", "a definition or phase that depends on itself where it may not"),
    ("E603", "a decision (or what may not run) in setup"),
    ("E604", "a misplaced break, return or cancel"),
    ("E605", "a value used as a phase, or a phase as a value"),
    ("E606", "a random draw where it may not stand"),
    ("E607", "an option default that is not a plain value"),
    ("E608", "too many zone or variable instances"),
    ("E609", "labels past the `card_labels` or `long_texts` limit, counted from the file"),
    ("E610", "a `show ... if` condition that reads what changes in play (it is read once per "
             "game: player count and options only)"),
    ("E611", "a deal at the start of setup that needs more cards than its pile holds with "
             "the most players"),
    ("E612", "a cooperative game's payoff that depends on the player (it pays every seat "
             "the same)"),
    ("E613", "a `sequence` inside another, or holding `ask each` or `ask together`"),
    ("E614", "a laid-out board without rows, a range of cells that is not one, a track "
             "with a gap or passing a cell twice, or tracks whose fields pass the instances' "
             "limit"),
    ("E615", "a cooperative game's payoff declared zero-sum (it pays every seat the same)"),
    ("E699", "a construct the checker does not know (a bug in rulesdsl)"),
    ("W700", "a declaration never used"),
    ("W701", "a phase never run"),
    ("W702", "a kind's `on play` or `playable` that no rule reaches"),
    ("W703", "a kind no deck makes"),
    ("W704", "who is asked depends on what not every seat may see"),
    ("W705", "a decision without a question for the player"),
    ("W706", "an option's label reads what not every seat may see"),
    ("W707", "a hole no seat may read"),
    ("W708", "a public `show` reads what not every seat may see"),
    ("W709", "a range of written bounds that counts down without a step: it is empty"),
    ("R001", "the rules used a missing value"),
    ("R002", "the rules nest too deeply while running"),
    ("R003", "a definition called itself too deeply"),
    ("R004", "a definition calls itself without end"),
    ("R005", "more work per decision than the `work` limit"),
    ("R006", "more card moves per decision than the `moves` limit"),
    ("R007", "a list past the `list_length` limit"),
    ("R008", "a text past the `text_length` limit"),
    ("R010", "an index that is none or out of range for a zone or variable"),
    ("R011", "turns that start from none"),
    ("R012", "a piece to set that is none"),
    ("R013", "a board function given none"),
    ("R014", "an index outside a list"),
    ("R015", "a division by zero"),
    ("R016", "a range or roll past what may be made"),
    ("R017", "a seat that does not exist"),
    ("R018", "a decision for none: nobody to ask"),
    ("R019", "a decision with no legal option"),
    ("R020", "decks that make more cards than a game may hold"),
    ("R021", "a zone past its capacity"),
    ("R022", "a deal of more cards than there are"),
    ("R030", "a number past the largest a game may hold"),
    ("R031", "long texts past the `long_texts` limit before a decision"),
    ("R032", "`reveal ZONE holds/lacks x where ...` told of a zone where it is not true"),
    ("R033", "a sequence whose moves, tried to its end, draw at random, ask another player "
             "or go on past 200 decisions"),
    ("R034", "the rules broke one of their own `invariant`s"),
    ("A001", "an action that is not among the legal ones"),
    ("A002", "a seat the game does not have"),
    ("A003", "a zone or variable name that is not text"),
    ("A004", "a zone or variable given the wrong indexes"),
    ("C001", "a game or file that cannot be read or written"),
    ("C002", "an unknown agent or seat kind"),
    ("C003", "an unknown option, or options that are not names and values"),
    ("C004", "a player count the game does not take"),
    ("C005", "a seed that is not a whole number"),
    ("C006", "an option value of the wrong type or outside its range"),
    ("C010", "a game played by the computer that does not end"),
    ("C011", "a script line that is not a legal action"),
    ("C012", "input that ended before the game did"),
    ("C013", "a bad command-line value"),
    ("C014", "a bad RULESDSL_LIMITS"),
    ("C015", "a replay seat the game does not have"),
    ("C016", "simulated games lost with their worker, twice"),
    ("C017", "a game or rules file name holding a control character"),
    ("C018", "an OpenSpiel game string naming a file it cannot carry"),
    ("C019", "an OpenSpiel game string whose rules file changed since it was made"),
    ("C020", "a computer player's worker process (the web table) that stopped twice"),
    ("C021", "a chance mode other than \"seeded\" or \"explicit\""),
    ("C022", "a payoff declared zero-sum (in the file, or an OpenSpiel game string's "
             "zero_sum=true) that does not sum to 0"),
    ("S001", "a save that cannot be restored"),
    ("S002", "a bad scenario"),
)

CODES: dict = dict(ENTRIES)


def meaning(code: str) -> Optional[str]:
    """A code's one line, or None for a code not in the table."""
    return CODES.get(code)


def family_of(code: str) -> Optional[Family]:
    return next((f for f in FAMILIES if f.holds(code)), None)


def listed_twice() -> list:
    """Codes that ENTRIES lists more than once."""
    return sorted(code for code, n in Counter(code for code, _ in ENTRIES).items() if n > 1)


def docs_table() -> str:
    """The table of docs/language.md's "Error codes"."""
    rows = ["| codes | family |", "|---|---|"]
    rows += [f"| {f.span} | {f.about} |" for f in FAMILIES]
    return "\n".join(rows)


if __name__ == "__main__":
    print(docs_table())
