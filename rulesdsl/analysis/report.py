"""`simulate --report F.html`: one self-contained page (plots inline as PNG, no network)
with the balance report's tables and plots. Needs matplotlib: pip install "rulesdsl[report]".
"""

from __future__ import annotations

import base64
import html
import io

from rulesdsl.analysis.stats import format_p, wilson
from rulesdsl.analysis.table import change_text
from rulesdsl.lang.errors import RulesError

TOP_OPTIONS = 25     # option labels tabled (all are in --json)
PLOTTED_OPTIONS = 12  # option labels plotted: more bars read as a wall, not a ranking
# Option counts this close to each other are "flat": bars of them show nothing, so the
# options chart shows how often the seat choosing each label won instead.
FLAT_COUNTS = 0.75   # smallest shown count / largest

# A plot as wide as the page's text column (max-width 1100px less the margins):
# WIDTH inches at DPI dots per inch is 1000 pixels before the tight crop.
WIDTH, DPI = 10.0, 100

STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em;
       color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.verdict { font-size: 1.1em; background: #f4f4f4; padding: 0.5em; }
.failed { background: #fbeaea; border-left: 4px solid #c44e52; padding: 0.5em; }
code { background: #f4f4f4; padding: 1px 4px; }
img { display: block; margin: 0.5em 0 1.5em; max-width: 100%; height: auto; }
"""

BASE_COLOUR = "#4c72b0"
OPTION_COLOUR = "#8172b2"
VARIANT_COLOURS = ["#ff7f0e", "#55a868", "#c44e52", "#8172b2", "#937860", "#da8bc3"]


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise RulesError("C013", "--report needs matplotlib, which is not installed",
                         hints=['install it with: pip install "rulesdsl[report]"']) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _figure(plt, height: float, **grid):
    """A figure a page wide whose axes fill it (constrained layout: the crop to the
    drawing takes off nothing but the margins)."""
    return plt.subplots(figsize=(WIDTH, height), layout="constrained", **grid)


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
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


def _error_bars(rates, intervals) -> list:
    """matplotlib's yerr from values and their [low, high] intervals."""
    return [[max(0.0, r - ci[0]) for r, ci in zip(rates, intervals)],
            [max(0.0, ci[1] - r) for r, ci in zip(rates, intervals)]]


def _legend_outside(ax) -> None:
    """The legend right of the plot, where it covers no bar."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)


def win_plot(plt, result) -> str:
    ci = result.stats["win_rate_ci95"]
    rates = [w / result.games for w in result.wins]
    fig, ax = _figure(plt, 3.6)
    seats = [f"seat {s} ({result.seats[s]})" for s in range(result.players)]
    ax.bar(seats, rates, yerr=_error_bars(rates, ci), capsize=6, color=BASE_COLOUR)
    equal = sum(result.wins) / result.games / result.players
    ax.axhline(equal, color="#c44e52", linestyle="--", label="equal share")
    ax.set_ylabel("win rate (95% interval)")
    _legend_outside(ax)
    return _png(fig)


def length_plot(plt, result) -> str:
    h = result.stats["length"]["histogram"]
    edges, counts = h["edges"], h["counts"]
    fig, ax = _figure(plt, 3.2)
    widths = [b - a for a, b in zip(edges, edges[1:])]
    ax.bar(edges[:-1], counts, width=widths, align="edge", color="#55a868", edgecolor="white")
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    return _png(fig)


def counts_are_flat(options: list) -> bool:
    """Whether the plotted labels were chosen about equally often (bars would all match)."""
    counts = [o["chosen"] for _, o in options]
    return bool(counts) and min(counts) >= FLAT_COUNTS * max(counts)


def option_plot(plt, result) -> str:
    """The most chosen labels and how often each was chosen; when those counts are flat
    (every card of a hand gets played), the labels whose choosers' win rates stand out
    most from an equal share instead, as points with their 95% intervals."""
    options = list(result.stats["options"].items())
    shown = options[:PLOTTED_OPTIONS]
    if not counts_are_flat(shown):
        shown = shown[::-1]
        fig, ax = _figure(plt, 0.8 + 0.3 * len(shown))
        ax.barh([label for label, _ in shown], [o["chosen"] for _, o in shown],
                color=OPTION_COLOUR)
        ax.set_xlabel("times chosen")
        return _png(fig)
    equal = sum(result.wins) / result.games / result.players
    rated = [(label, o) for label, o in options if o["win_rate"] is not None]
    rated.sort(key=lambda kv: abs(kv[1]["win_rate"] - equal))
    shown = rated[-PLOTTED_OPTIONS:]
    rates = [o["win_rate"] for _, o in shown]
    fig, ax = _figure(plt, 0.8 + 0.3 * len(shown))
    ax.errorbar(rates, range(len(shown)), xerr=_error_bars(rates, [o["win_rate_ci95"]
                                                                   for _, o in shown]),
                fmt="o", markersize=9, elinewidth=3, capsize=5, color=OPTION_COLOUR)
    ax.set_yticks(range(len(shown)), [label for label, _ in shown])
    ax.set_ylim(-0.6, len(shown) - 0.4)
    ax.axvline(equal, color="#c44e52", linestyle="--", label="equal share")
    ax.set_xlim(0, 1)
    ax.set_xlabel("games won by the seat that chose it (95% interval)")
    _legend_outside(ax)
    return _png(fig)


def option_caption(result) -> str:
    """Says what the options chart shows, and why when the counts were flat."""
    options = list(result.stats["options"].items())
    shown = options[:PLOTTED_OPTIONS]
    if not counts_are_flat(shown):
        return f"<p>The {len(shown)} labels chosen most often.</p>"
    counts = [o["chosen"] for _, o in options]
    return (f"<p>Every label was chosen about as often as the others ({min(counts)} to "
            f"{max(counts)} times), so the chart shows instead the {min(len(options), PLOTTED_OPTIONS)}"
            " labels whose choosers won most unlike an equal share.</p>")


def compare_plot(plt, result) -> str:
    """Per seat the win rate as given and with each variant, with 95% intervals; beside
    it the change in game length each variant makes (paired, 95% interval)."""
    compared = [c for c in result.compare if "failed" not in c]
    fig, (wins, length) = _figure(plt, 3.8, ncols=2, gridspec_kw={"width_ratios": [3, 2]})
    n = len(compared) + 1
    width = 0.8 / n
    seats = range(result.players)
    games = result.games
    base = [result.wins[s] / games for s in seats]
    wins.bar([s - 0.4 + width / 2 for s in seats], base, width, color=BASE_COLOUR,
             yerr=_error_bars(base, result.stats["win_rate_ci95"]), capsize=4,
             label="as given")
    labels = []
    for k, c in enumerate(compared, start=1):
        change = change_text(c)
        labels.append(change)
        rates = [c["seats"][s]["win_rate"] for s in seats]
        intervals = [wilson(c["wins"][s], c["games"]) for s in seats]
        wins.bar([s - 0.4 + width * (k + 0.5) for s in seats], rates, width,
                 yerr=_error_bars(rates, intervals), capsize=4,
                 color=VARIANT_COLOURS[(k - 1) % len(VARIANT_COLOURS)], label=change)
    wins.set_xticks(list(seats), [f"seat {s}" for s in seats])
    wins.set_ylabel("win rate (95% interval)")
    wins.set_ylim(0, 1.05)
    wins.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=min(n, 3),
                frameon=False)
    differences = [c["length_difference"] for c in compared]
    rows = range(len(compared))
    for k, (difference, c) in enumerate(zip(differences, compared)):
        length.errorbar([difference], [k], xerr=_error_bars([difference], [c["length_ci95"]]),
                        fmt="o", markersize=9, elinewidth=3, capsize=5,
                        color=VARIANT_COLOURS[k % len(VARIANT_COLOURS)])
    length.axvline(0, color="#222", linewidth=0.8)
    length.set_yticks(list(rows), labels)
    length.set_ylim(-0.6, len(compared) - 0.4)
    length.set_xlabel("change in actions per game (95% interval)")
    length.set_title(f"length as given: {result.mean_length:.1f} actions", fontsize=10)
    return _png(fig)


def failed_variant(c: dict) -> str:
    """A variant that broke: which game, the error, the command that replays it."""
    f = c["failed"]
    at = f" at {f['at']}" if f["at"] else ""
    return (f"<div class='failed'><h3>{html.escape(change_text(c))}: failed</h3>"
            f"<p>Game {f['game']} of {f['of']} (seed {f['seed']}) ended in "
            f"error[{html.escape(f['code'])}]{html.escape(at)}: "
            f"{html.escape(f['message'])}. No comparison for this variant; replay that game "
            f"with:</p><p><code>{html.escape(f['replay'])}</code></p></div>")


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
    if getattr(result, "cooperative", False):
        ended = f"won together {result.games - result.draws}, lost together {result.draws}"
        verdict = "A cooperative game: the seats win or lose together."
    else:
        ended, verdict = f"draws {result.draws}", st["balance"]["verdict"]
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>",
             f"<style>{STYLE}</style></head><body><h1>{title}</h1>",
             f"<p>Seeds {result.seed}..{result.seed + result.games - 1}; {ended}; "
             f"{result.workers} worker(s), {html.escape(result.backend)}.</p>",
             "<h2>Who wins</h2>",
             _table(["seat", "agent", "wins", "win %", "95% interval", "mean score"],
                    seat_rows),
             f"<p class='verdict'>{html.escape(verdict)}</p>",
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
        parts += [f"<h2>Options ({len(options)} labels)</h2>", option_caption(result),
                  option_plot(plt, result),
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
    compared = [c for c in result.compare if "failed" not in c]
    if result.compare:
        parts.append("<h2>Comparison (same seeds)</h2>")
        parts += [failed_variant(c) for c in result.failed_variants]
    if compared:
        parts.append(compare_plot(plt, result))
        for c in compared:
            change = change_text(c)
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
