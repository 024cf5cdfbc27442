"""What a seat saw of the actions taken so far: its own choices by their labels, the others'
as the table saw them. A card chosen from a hand in secret (laid face down, kept back) is
not named: the seat reads what its log read, e.g. "hand[P2] -> influence[P2]: 1 card"."""

from __future__ import annotations

from typing import Optional


def history_seen(initial, actions: list, seat: Optional[int]) -> list:
    """One line per action, "P2: label" or "P2: <what seat saw>", from a clone of the state
    before the first action; `seat` None sees everything. A RulesError if the actions do
    not fit the rules."""
    st = initial.clone()
    out = []
    for label in actions:
        mover = st.to_move
        who = f"P{mover + 1}" if mover is not None else "?"
        card = st.chosen_card(label)
        before = len(st.events)
        st.apply(label)
        new = st.events[before:]
        public = any(e[0] == "choice" and e[1] == mover and e[2] == label for e in new)
        if seat is None or mover == seat or public or _card_seen(st, card, new, seat):
            out.append(f"{who}: {label}")
            continue
        lines = [st.render_log(e, seat) for e in new if e[0] in ("move", "reveal", "named")]
        out.append(f"{who}: " + (lines[0] if lines else "a choice you do not see"))
    return out


def _card_seen(st, card, events, seat) -> bool:
    """Did `seat` see the chosen card in what the choice did: a play of it (`play c by p`:
    face up, for everyone), a move of it from or to a place the seat sees, or a showing of
    it to the seat? (Where it lay is not enough: a card picked from the table and not yet
    moved is a choice the others have not seen.)"""
    if card is None:
        return False
    for e in events:
        if e[0] == "play" and e[2] == card:
            return True
        if e[0] == "move" and card in e[1] and (st.can_see(e[2], seat) or
                                                st.can_see(e[3], seat)):
            return True
        if e[0] == "reveal" and card in e[1] and (len(e) < 4 or seat in e[3]):
            return True
        if e[0] == "named" and e[2] == card and st.can_see(e[3], seat):
            return True
    return False
