"""The text sections of a simulation report below the seat table: length, decisions,
options, scores, comparisons. Plain lines, no colours, for terminals and files alike."""

from __future__ import annotations

from rulesdsl.analysis.stats import format_p

TOP_OPTIONS = 12    # option labels shown in the text (all of them are in --json)


def _spread(d: dict, digits: int = 1) -> str:
    f = f"{{:.{digits}f}}"
    return (f"mean {f.format(d['mean'])}, median {f.format(d['median'])}, "
            f"5-95% {f.format(d['p5'])}-{f.format(d['p95'])}")


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return "" if ci is None else f"{100 * ci[0]:+.1f} to {100 * ci[1]:+.1f}"


def details(result) -> list[str]:
    st = result.stats
    length, branching = st["length"], st["branching"]
    n = result.games
    rows = [["seat", "win %", "95% interval"]]
    for seat, (low, high) in enumerate(st["win_rate_ci95"]):
        rows.append([str(seat), _pct(result.wins[seat] / n), f"{100 * low:.1f}-{100 * high:.1f}%"])
    if getattr(result, "cooperative", False):
        lines = ["", "balance", "  a cooperative game: the seats win or lose together, so no "
                 "seat is compared with another"]
    else:
        lines = ["", "balance"] + ["  " + line for line in _rows(rows)]
        lines.append(f"  {st['balance']['verdict']}")
    if len(set(result.seats)) > 1:
        lines.append(f"  the seats have different agents ({', '.join(result.seats)}): these "
                     "shares compare the agents more than the seats")
    lines += ["", "length",
              f"  actions: {_spread(length)}",
              f"  rounds:  {_spread(length['rounds'])}  ({length['rounds_are']})",
              f"  turns:   {_spread(length['turns'])}",
              "", "decisions",
              f"  options per decision: mean {branching['mean_options']:.2f}, "
              f"max {branching['max_options']}",
              f"  forced moves (one option): {_pct(branching['forced_share'])} of "
              f"{branching['decisions']}"]
    if branching.get("dropped_samples"):
        lines.append(f"  search samples dropped: {branching['dropped_samples']:,} (the computer "
                     "players sampled hidden cards that broke the rules when played on)")
    options = st["options"]
    if options:
        shown = list(options.items())[:TOP_OPTIONS]
        rows = [["option", "chosen", "offered", "chooser won"]]
        rows += [[label, str(o["chosen"]), str(o["offered"]), _pct(o["win_rate"])]
                 for label, o in shown]
        never = [label for label, o in options.items() if o["chosen"] == 0]
        lines += ["", f"options ({len(options)} labels, most chosen first)"]
        lines += ["  " + line for line in _rows(rows)]
        if never:
            sample = ", ".join(never[:5]) + (", ..." if len(never) > 5 else "")
            lines.append(f"  never chosen though offered: {len(never)} ({sample})")
    flow = st.get("score_flow")
    if flow:
        lines += ["", f"scores ({flow['games']} games with a clear winner on score)",
                  f"  lead changes: {_spread(flow['lead_changes'])}",
                  f"  winning margin: {_spread(flow['margin'])}"]
    for c in result.compare:
        change = change_text(c)
        if "failed" in c:
            lines += [""] + failure_lines(c)
            continue
        rows = [["seat", "win %", f"with {change}", "difference", "95% interval"]]
        for seat, s in enumerate(c["seats"]):
            rows.append([str(seat), _pct(s["base_win_rate"]), _pct(s["win_rate"]),
                         f"{100 * s['difference']:+.1f}", _ci(s["ci95"])])
        rows.append(["length", f"{c['base_mean_length']:.1f}", f"{c['mean_length']:.1f}",
                     f"{c['length_difference']:+.1f}",
                     f"{c['length_ci95'][0]:+.1f} to {c['length_ci95'][1]:+.1f}"])
        lines += ["", f"compare: {change} (same seeds)"]
        lines += ["  " + line for line in _rows(rows)]
        lines.append(f"  balance with {change}: {c['balance']['verdict']}")
    lines += ["", f"workers: {result.workers} ({result.backend})"]
    return lines


def change_text(compared: dict) -> str:
    """A variant's options as typed: "games_to_win=1, refund=true"."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in compared["change"].items())


def failure_lines(compared: dict) -> list[str]:
    """What a variant that broke says: which game, the error, and how to replay it."""
    f = compared["failed"]
    at = f" at {f['at']}" if f["at"] else ""
    return [f"compare: {change_text(compared)} failed at game {f['game']} of {f['of']} "
            f"(seed {f['seed']}): error[{f['code']}]{at}: {f['message']}",
            f"  no comparison for it; replay that game with: {f['replay']}"]


def _rows(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                      for i, (c, w) in enumerate(zip(r, widths))).rstrip() for r in rows]


__all__ = ["details", "change_text", "failure_lines", "format_p"]
