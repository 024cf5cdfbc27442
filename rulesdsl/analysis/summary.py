"""From the records of a run's games to the statistics a designer reads (JSON-ready).

Everything is computed from the records in game order, so it does not depend on how
many workers played them.
"""

from __future__ import annotations

from typing import Optional, Sequence

from rulesdsl.analysis.stats import balance_test, describe, paired_difference, wilson


def seat_stats(records: Sequence[dict], players: int) -> dict:
    games = len(records)
    wins = [0] * players
    for r in records:
        for w in r["winners"]:
            wins[w] += 1
    return {"wins": wins,
            "win_rate_ci95": [wilson(w, games) for w in wins],
            "balance": balance_test(wins, games)}


def length_stats(records: Sequence[dict]) -> dict:
    """Lengths in actions, rounds and turns (see record.py for what a round is)."""
    out = describe([r["actions"] for r in records])
    out["rounds"] = describe([r["rounds"] for r in records])
    out["turns"] = describe([r["turns"] for r in records])
    out["rounds_are"] = "times play came back to the first decision's phase and seat"
    return out


def branching_stats(records: Sequence[dict]) -> dict:
    decisions = sum(r["decisions"] for r in records)
    offered = sum(r["options_total"] for r in records)
    forced = sum(r["forced"] for r in records)
    return {"decisions": decisions,
            "mean_options": offered / decisions if decisions else 0.0,
            "max_options": max((r["options_max"] for r in records), default=0),
            "forced": forced,
            "forced_share": forced / decisions if decisions else 0.0,
            # search samples dropped for breaking the rules (records of older runs lack it)
            "dropped_samples": sum(r.get("dropped", 0) for r in records)}


def option_stats(records: Sequence[dict]) -> dict:
    """Per action label: how often offered and chosen, in how many (game, seat) pairs it
    was chosen, and how often the seat that chose it won that game."""
    table: dict[str, dict] = {}
    for r in records:
        winners = set(r["winners"])
        for label, (chosen, offered, mask) in r["labels"].items():
            row = table.setdefault(label, {"offered": 0, "chosen": 0, "choosers": 0,
                                           "chooser_wins": 0})
            row["offered"] += offered
            row["chosen"] += chosen
            seat = 0
            while mask:
                if mask & 1:
                    row["choosers"] += 1
                    row["chooser_wins"] += seat in winners
                mask >>= 1
                seat += 1
    for row in table.values():
        n = row["choosers"]
        row["win_rate"] = row["chooser_wins"] / n if n else None
        row["win_rate_ci95"] = wilson(row["chooser_wins"], n) if n else None
    return dict(sorted(table.items(), key=lambda kv: (-kv[1]["chosen"], kv[0])))


def score_stats(records: Sequence[dict]) -> Optional[dict]:
    """Lead changes and the winner's end margin, for games that keep scores."""
    scored = [r for r in records if r["lead_changes"] is not None]
    if not scored:
        return None
    return {"games": len(scored),
            "lead_changes": describe([r["lead_changes"] for r in scored]),
            "margin": describe([r["margin"] for r in scored])}


def summarize(records: Sequence[dict], players: int) -> dict:
    out = seat_stats(records, players)
    out["length"] = length_stats(records)
    out["branching"] = branching_stats(records)
    out["options"] = option_stats(records)
    out["score_flow"] = score_stats(records)
    return out


def _won(records: Sequence[dict], seat: int) -> list[float]:
    return [1.0 if seat in r["winners"] else 0.0 for r in records]


def compare(base: Sequence[dict], other: Sequence[dict], players: int) -> dict:
    """The other setting against the base on the same seeds: per seat win rates and the
    mean length, each with the paired difference (other - base) and its 95% interval."""
    seats = []
    for seat in range(players):
        a, b = _won(base, seat), _won(other, seat)
        d = paired_difference(a, b)
        seats.append({"win_rate": sum(b) / len(b), "base_win_rate": sum(a) / len(a),
                      "difference": d["difference"], "ci95": d["ci95"]})
    la = [float(r["actions"]) for r in base]
    lb = [float(r["actions"]) for r in other]
    length = paired_difference(la, lb)
    other_wins = [0] * players
    for r in other:
        for w in r["winners"]:
            other_wins[w] += 1
    return {"seats": seats,
            "wins": other_wins,
            "draws": sum(1 for r in other if not r["winners"]),
            "mean_length": sum(lb) / len(lb), "base_mean_length": sum(la) / len(la),
            "length_difference": length["difference"], "length_ci95": length["ci95"],
            "balance": balance_test(other_wins, len(other))}
