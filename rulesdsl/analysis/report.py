"""`simulate --report F.html`: one self-contained page (plots inline as PNG, no network)
with the balance report's tables and plots. Needs matplotlib: pip install "rulesdsl[report]".
"""

from __future__ import annotations

import base64
import html
import io

from rulesdsl.analysis.stats import format_p
from rulesdsl.lang.errors import RulesError

TOP_OPTIONS = 25     # option labels plotted and tabled (all are in --json)

STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.verdict { font-size: 1.1em; background: #f4f4f4; padding: 0.5em; }
img { display: block; margin: 0.5em 0 1.5em; }
"""


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise RulesError("C013", "--report needs matplotlib, which is not installed",
                         hints=['install it with: pip install "rulesdsl[report]"']) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    fig.clf()
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def _table(header, rows) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def win_plot(plt, result) -> str:
    ci = result.stats["win_rate_ci95"]
    rates = [w / result.games for w in result.wins]
    low = [r - c[0] for r, c in zip(rates, ci)]
    high = [c[1] - r for r, c in zip(rates, ci)]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    seats = [f"seat {s} ({result.seats[s]})" for s in range(result.players)]
    ax.bar(seats, rates, yerr=[low, high], capsize=6, color="#4c72b0")
    equal = sum(result.wins) / result.games / result.players
    ax.axhline(equal, color="#c44e52", linestyle="--", label="equal share")
    ax.set_ylabel("win rate (95% interval)")
    ax.legend()
    return _png(fig)


def length_plot(plt, result) -> str:
    h = result.stats["length"]["histogram"]
    edges, counts = h["edges"], h["counts"]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    widths = [b - a for a, b in zip(edges, edges[1:])]
    ax.bar(edges[:-1], counts, width=widths, align="edge", color="#55a868", edgecolor="white")
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    return _png(fig)


def option_plot(plt, result) -> str:
    shown = list(result.stats["options"].items())[:TOP_OPTIONS][::-1]
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.28 * len(shown)))
    ax.barh([label for label, _ in shown], [o["chosen"] for _, o in shown], color="#8172b2")
    ax.set_xlabel("times chosen")
    return _png(fig)


def compare_plot(plt, result) -> str:
    fig, ax = plt.subplots(figsize=(7, 3.5))
    n = len(result.compare) + 1
    width = 0.8 / n
    seats = range(result.players)
    base = [result.wins[s] / result.games for s in seats]
    ax.bar([s - 0.4 + width / 2 for s in seats], base, width, label="as given")
    for k, c in enumerate(result.compare, start=1):
        change = ", ".join(f"{a}={b}" for a, b in c["change"].items())
        ax.bar([s - 0.4 + width * (k + 0.5) for s in seats],
               [c["seats"][s]["win_rate"] for s in seats], width, label=change)
    ax.set_xticks(list(seats), [f"seat {s}" for s in seats])
    ax.set_ylabel("win rate")
    ax.legend()
    return _png(fig)


def render(result) -> str:
    """The page as one HTML string."""
    plt = _pyplot()
    st = result.stats
    title = html.escape(f"{result.game}: {result.games} games, {result.players} players")
    seat_rows = []
    for s in range(result.players):
        ci = st["win_rate_ci95"][s]
        seat_rows.append([s, result.seats[s], result.wins[s],
                          _pct(result.wins[s] / result.games),
                          f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%",
                          "-" if result.mean_scores is None else f"{result.mean_scores[s]:.2f}"])
    length, branching = st["length"], st["branching"]
    spread = [[name, f"{d['mean']:.1f}", f"{d['median']:.1f}", f"{d['p5']:.1f}",
               f"{d['p95']:.1f}", d["min"], d["max"]]
              for name, d in (("actions", length), ("rounds", length["rounds"]),
                              ("turns", length["turns"]))]
    options = list(st["options"].items())
    never = [label for label, o in options if o["chosen"] == 0]
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>",
             f"<style>{STYLE}</style></head><body><h1>{title}</h1>",
             f"<p>Seeds {result.seed}..{result.seed + result.games - 1}; draws "
             f"{result.draws}; {result.workers} worker(s), {html.escape(result.backend)}.</p>",
             "<h2>Who wins</h2>",
             _table(["seat", "agent", "wins", "win %", "95% interval", "mean score"],
                    seat_rows),
             f"<p class='verdict'>{html.escape(st['balance']['verdict'])}</p>",
             win_plot(plt, result),
             "<h2>How long</h2>",
             _table(["length", "mean", "median", "5%", "95%", "min", "max"], spread),
             f"<p>Rounds: {html.escape(length['rounds_are'])}.</p>",
             length_plot(plt, result),
             "<h2>Decisions</h2>",
             f"<p>{branching['mean_options']:.2f} options per decision on average, at most "
             f"{branching['max_options']}; {_pct(branching['forced_share'])} of "
             f"{branching['decisions']} decisions were forced.</p>"]
    flow = st.get("score_flow")
    if flow:
        parts.append(_table(["scores", "mean", "median", "5%", "95%"],
                            [[name, f"{d['mean']:.1f}", f"{d['median']:.1f}", f"{d['p5']:.1f}",
                              f"{d['p95']:.1f}"]
                             for name, d in (("lead changes", flow["lead_changes"]),
                                             ("winning margin", flow["margin"]))]))
    if options:
        parts += [f"<h2>Options ({len(options)} labels)</h2>", option_plot(plt, result),
                  _table(["option", "chosen", "offered", "chooser won", "95% interval"],
                         [[label, o["chosen"], o["offered"], _pct(o["win_rate"]),
                           "-" if o["win_rate_ci95"] is None else
                           f"{100 * o['win_rate_ci95'][0]:.0f}-"
                           f"{100 * o['win_rate_ci95'][1]:.0f}%"]
                          for label, o in options[:TOP_OPTIONS]])]
        if never:
            parts.append(f"<p>Never chosen though offered ({len(never)}): "
                         f"{html.escape(', '.join(never[:40]))}"
                         f"{' ...' if len(never) > 40 else ''}</p>")
    if result.compare:
        parts += ["<h2>Comparison (same seeds)</h2>", compare_plot(plt, result)]
        for c in result.compare:
            change = ", ".join(f"{k}={v}" for k, v in c["change"].items())
            rows = [[s, _pct(x["base_win_rate"]), _pct(x["win_rate"]),
                     f"{100 * x['difference']:+.1f}",
                     f"{100 * x['ci95'][0]:+.1f} to {100 * x['ci95'][1]:+.1f}"]
                    for s, x in enumerate(c["seats"])]
            rows.append(["length", f"{c['base_mean_length']:.1f}", f"{c['mean_length']:.1f}",
                         f"{c['length_difference']:+.1f}",
                         f"{c['length_ci95'][0]:+.1f} to {c['length_ci95'][1]:+.1f}"])
            parts += [f"<h3>{html.escape(change)}</h3>",
                      _table(["seat", "as given", f"with {change}", "difference (points)",
                              "95% interval"], rows),
                      f"<p>{html.escape(c['balance']['verdict'])}</p>"]
    parts.append("</body></html>")
    plt.close("all")
    return "\n".join(parts)


def write_report(result, path: str) -> None:
    page = render(result)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as e:
        raise RulesError("C001", f"cannot write {path}: {e.strerror or e}",
                         hints=["check that the folder exists and can be written"]) from None


__all__ = ["render", "write_report", "format_p"]
