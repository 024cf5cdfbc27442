"""The adapters' observations of a zone held facing out (`others`, examples/hanabi.rules):
every sight but the owner's own sees it; the cards a seat saw move are those it saw; a
card an effect named before the answers is seen where its zone is."""

from pathlib import Path

import rulesdsl
from rulesdsl.integrations.encoding import cards_seen, zone_seen

ROOT = Path(__file__).resolve().parents[2]


def test_a_hand_facing_out_is_seen_by_every_seat_but_its_owner():
    s = rulesdsl.load(str(ROOT / "examples" / "hanabi.rules")).new_game(3, 1)
    hand = [s.prog.zone_names.index(f"hand[P{p + 1}]") for p in range(3)]
    for seat in range(3):
        for p, zi in enumerate(hand):
            mine = p == seat
            assert zone_seen(s, zi, seat, "seat") is not mine
            assert zone_seen(s, zi, seat, "private") is not mine  # the seat's own sight
            assert zone_seen(s, zi, seat, "public") is False      # not every seat's
            assert zone_seen(s, zi, seat, "all") is True
    # the deal: each seat saw the cards dealt to the others, never its own
    for seat in range(3):
        seen = set(cards_seen(s, seat, s.events))
        own = {c for c in s.zones[hand[seat]]}
        others = {c for p in range(3) if p != seat for c in s.zones[hand[p]]}
        assert not seen & own and others <= seen
