"""`undo` at a prompt: a person playing against computer seats takes back their last move.

The position is rebuilt by replaying the actions before the person's previous decision
from the start of the game (the rules are deterministic), so the state, the autosave and
the replay hold exactly the game as it now stands. What was taken back is kept as a note,
{"at": actions kept, "lines": the person's log lines kept, "seat", "label": the person's
own move, "moves": actions taken back}: the person's own move by its label, the rest only
counted, so a note never names a computer's secret choice."""

from __future__ import annotations

from typing import Optional, Sequence


def previous_decision(start, actions: Sequence[str], seat: int) -> Optional[tuple]:
    """(k, the state after actions[:k]) where k is the last action `seat` chose, replayed
    from a copy of `start`; None when the seat has not chosen yet. A RulesError if the
    actions do not fit the rules."""
    state = start.clone()
    found = None
    for k, label in enumerate(actions):
        if state.to_move == seat:
            found = (k, state.clone())
        state.apply(label)
    return found


def make_note(k: int, actions: Sequence[str], lines: int, seat: int) -> dict:
    return {"at": k, "lines": lines, "seat": seat, "label": actions[k],
            "moves": len(actions) - k}


def rewound(notes: list, at: int, lines: int) -> None:
    """Earlier notes after the point taken back to now stand at it: the moves they
    followed are taken back too."""
    for note in notes:
        note["at"] = min(note["at"], at)
        note["lines"] = min(note["lines"], lines)


def note_text(note: dict, names: Sequence[str]) -> str:
    """'P1 took back "bid 5" and the 1 move after it'."""
    seat = note["seat"]
    who = names[seat] if 0 <= seat < len(names) else f"P{seat + 1}"
    after = note["moves"] - 1
    rest = "" if after <= 0 else \
        f" and the {after} move{'s' if after != 1 else ''} after it"
    return f'{who} took back "{note["label"]}"{rest}'


def valid_notes(value) -> list:
    """The notes of a save or replay file, each checked, the label made safe to print (a
    file may have been edited); anything else is left out."""
    from rulesdsl.play.screen import clean
    if not isinstance(value, list):
        return []
    keys = ("at", "lines", "seat", "moves")
    return [dict(n, label=clean(n["label"], 120)) for n in value if isinstance(n, dict)
            and all(isinstance(n.get(k), int) and not isinstance(n.get(k), bool)
                    and n[k] >= 0 for k in keys)
            and isinstance(n.get("label"), str)]


def with_notes(lines: list, notes: list, key: str, names: Sequence[str]) -> list:
    """`lines` with each note's line inserted after the first note[key] of them."""
    out = []
    for k in range(len(lines) + 1):
        out += [(None, note_text(n, names)) for n in notes if n[key] == k]
        if k < len(lines):
            out.append((k, lines[k]))
    # a note past the end (a file changed by hand) still shows, at the end
    out += [(None, note_text(n, names)) for n in notes if n[key] > len(lines)]
    return out
