"""How good an outcome is for each seat: win shares at the end, scores before it.

Games declare a score but not whether more is better; `score_sign` learns that once per
game and player count from a few random games (do the winners hold the higher or the
lower scores?), from new deals only, so it never depends on a game in progress.
"""

from __future__ import annotations

import random

_SIGNS: dict = {}


def score_sign(state, games: int = 6, max_actions: int = 3000) -> int:
    """+1 when a higher score is better in this game, -1 when lower is; +1 when unclear."""
    game, n = state.game, state.players
    key = (getattr(game, "source_hash", id(game)), repr(getattr(game, "options", None)), n)
    sign = _SIGNS.get(key)
    if sign is not None:
        return sign
    rnd = random.Random(12345)
    lead = 0.0
    for g in range(games):
        try:
            st = game.new_game(players=n, seed=rnd.randrange(1 << 30))
            for _ in range(max_actions):
                if st.is_over:
                    break
                st.apply(rnd.choice(st.legal_actions()))
            scores = st.scores if st.is_over else []
        except Exception:  # a game that cannot be dealt afresh: no evidence
            scores = []
        winners = set(st.winners) if scores else set()
        if not scores or not winners or len(winners) == n:
            continue
        won = [s for p, s in enumerate(scores) if p in winners]
        lost = [s for p, s in enumerate(scores) if p not in winners]
        lead += sum(won) / len(won) - sum(lost) / len(lost)
    sign = -1 if lead < 0 else 1
    _SIGNS[key] = sign
    return sign


def rewards(state, sign: int) -> list:
    """Per seat, in [0, 1]: the share of the win once over; else the score, scaled so the
    best seat gets 1 and the worst 0 (all equal, or no score: 1/n each)."""
    n = state.players
    if state.is_over:
        w = state.winners
        if not w:
            return [1.0 / n] * n
        share = 1.0 / len(w)
        return [share if p in w else 0.0 for p in range(n)]
    scores = state.scores
    if not scores:
        return [1.0 / n] * n
    vals = [sign * float(s) for s in scores]
    lo, hi = min(vals), max(vals)
    if hi == lo:
        return [1.0 / n] * n
    return [(v - lo) / (hi - lo) for v in vals]
