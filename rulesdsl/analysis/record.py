"""Play one game with agents and keep what a balance report needs from it: one record.

A record is a JSON-ready dict (the lines of `--games-out`):

    index, seed        the game's number in the run (from 0) and the seed that dealt it
    winners, scores    at the end (scores: None when the game declares none)
    actions            labels applied (the length of `state.history`)
    decisions          choices the agents made (the same unless the rules apply some)
    turns              runs of consecutive decisions by the same seat
    rounds             how often play came back to where the first decision was taken: the
                       same phase path (`state.phase_path()`) with the same seat to move,
                       after having been elsewhere. In a game of turns that is a turn of the
                       table; in a game of hands that starts each hand the same way, a hand.
    forced             decisions with a single option
    options_total, options_max  options offered, summed over the decisions and at most
    lead_changes       how often the leader on score changed (None without scores)
    margin             the winner's lead over the runner-up at the end (None without scores)
    dropped            search samples the agents dropped because playing them on broke
                       the rules (a sampled deal the real game could not have dealt)

Plus `labels` ({label: [chosen, offered, chooser seats as a bit mask]}), which the summary
folds into the per-option table and `--games-out` leaves out.
"""

from __future__ import annotations

from typing import Optional, Sequence

from rulesdsl.agents import make_agent
from rulesdsl.agents.seats import agent_seed
from rulesdsl.lang.errors import RulesError


def score_list(state, players: int) -> Optional[list[float]]:
    """The state's scores as one number per seat, or None when the game has none."""
    try:
        scores = state.scores
    except (AttributeError, RulesError):
        return None
    if scores is None:
        return None
    if isinstance(scores, dict):
        try:
            values = [scores.get(seat, scores.get(str(seat))) for seat in range(players)]
        except TypeError:
            return None
    else:
        values = list(scores)
    if len(values) != players:
        return None
    try:
        return [float(v) for v in values]
    except (TypeError, ValueError):
        return None


def _leader(scores: list[float], sign: int) -> Optional[int]:
    """The seat alone in front (sign 1: highest score leads; -1: lowest), or None on a tie."""
    best = max(sign * s for s in scores)
    front = [seat for seat, s in enumerate(scores) if sign * s == best]
    return front[0] if len(front) == 1 else None


class _LeadTracker:
    """Counts leader changes for both readings of a score (high wins, low wins); which one
    applies is known only at the end, from who won."""

    def __init__(self):
        self.last = {1: None, -1: None}
        self.changes = {1: 0, -1: 0}

    def see(self, scores: list[float]) -> None:
        for sign in (1, -1):
            leader = _leader(scores, sign)
            if leader is None:
                continue
            if self.last[sign] is not None and leader != self.last[sign]:
                self.changes[sign] += 1
            self.last[sign] = leader


def _direction(scores: list[float], winners: list[int]) -> Optional[int]:
    """1 when the winners hold the highest score, -1 the lowest, None when neither."""
    if not winners:
        return None
    mine = [scores[w] for w in winners]
    if min(mine) == max(scores):
        return 1
    if max(mine) == min(scores):
        return -1
    return None


def seat_agents(seats: Sequence[str], game_seed: int) -> list:
    """The agents of one game, one per seat spec, each seeded from the game and its seat."""
    return [make_agent(kind, agent_seed(game_seed, seat)) for seat, kind in enumerate(seats)]


def play_recorded(game, players: int, game_seed: int, seats: Sequence[str],
                  max_actions: int) -> dict:
    """Play one full game; return its record. RulesErrors propagate."""
    agents = seat_agents(seats, game_seed)
    state = game.new_game(players=players, seed=game_seed)
    phase_path = getattr(state, "phase_path", None)
    has_scores = score_list(state, players) is not None
    lead = _LeadTracker() if has_scores else None
    labels: dict[str, list[int]] = {}
    actions = forced = options_total = options_max = turns = rounds = 0
    first_place = last_place = None
    last_seat = None
    while not state.is_over:
        if actions >= max_actions:
            raise RulesError("C010", f"the game did not end within {max_actions} actions",
                             hints=["the rules may loop forever; look at the end conditions"])
        seat = state.to_move
        place = (tuple(phase_path()) if phase_path else (), seat)
        if first_place is None:
            first_place = place
        if place == first_place and last_place != first_place:
            rounds += 1
        last_place = place
        if seat != last_seat:
            turns += 1
            last_seat = seat
        offered = state.legal_actions()
        n = len(offered)
        options_total += n
        options_max = max(options_max, n)
        forced += n == 1
        for a in offered:
            entry = labels.get(a.label)
            if entry is None:
                labels[a.label] = [0, 1, 0]
            else:
                entry[1] += 1
        action = agents[seat].choose(state)
        label = getattr(action, "label", action)
        entry = labels[label]
        entry[0] += 1
        entry[2] |= 1 << seat
        state.apply(action)
        actions += 1
        if lead is not None:
            scores = score_list(state, players)
            if scores is not None:
                lead.see(scores)
    winners = list(state.winners or [])
    scores = score_list(state, players) if has_scores else None
    lead_changes = margin = None
    if scores is not None:
        sign = _direction(scores, winners)
        if sign is not None:
            lead_changes = lead.changes[sign]
            ranked = sorted((sign * s for s in scores), reverse=True)
            margin = ranked[0] - ranked[1] if len(ranked) > 1 else 0.0
    return {"seed": game_seed, "winners": winners, "scores": scores,
            "actions": len(state.history),
            "decisions": actions, "turns": turns, "rounds": rounds, "forced": forced,
            "options_total": options_total, "options_max": options_max,
            "lead_changes": lead_changes, "margin": margin,
            "dropped": sum(getattr(a, "dropped", 0) for a in agents),
            "labels": labels}
