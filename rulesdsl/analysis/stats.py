"""Small statistics for simulation results, in plain Python (no numpy or scipy needed).

    wilson(40, 100)                  -> (0.309..., 0.498...)   95% interval of a proportion
    balance_test([430, 520, 50])     -> chi-square test that every seat wins equally often
    describe([3, 5, 9, ...])         -> mean, median, p5, p95, min, max
    paired_difference(a, b)          -> mean of b - a over the same games, with its interval
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

Z95 = 1.959963984540054     # the standard normal quantile of 0.975


def wilson(successes: int, trials: int, z: float = Z95) -> list[float]:
    """The Wilson score interval of a proportion: better than p +- z*se near 0 and 1."""
    if trials <= 0:
        return [0.0, 1.0]
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return [low, high]


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with `df` degrees of freedom."""
    if df <= 0:
        return 1.0
    if x <= 0:
        return 1.0
    return _gamma_q(df / 2.0, x / 2.0)


def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) (series or continued
    fraction, whichever converges fast; Numerical Recipes' gser/gcf)."""
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def balance_test(wins: Sequence[int], games: int) -> dict:
    """Do the seats win equally often? Pearson's chi-square goodness of fit of the win
    counts against equal shares, with a plain sentence saying what it means."""
    seats = len(wins)
    total = sum(wins)
    result = {"test": "chi-square goodness of fit against equal wins per seat",
              "statistic": None, "df": seats - 1, "p_value": None, "verdict": ""}
    if seats < 2 or total == 0:
        result["verdict"] = "no seat won a game, so there is nothing to compare"
        return result
    expected = total / seats
    statistic = sum((w - expected) ** 2 / expected for w in wins)
    p = chi2_sf(statistic, seats - 1)
    result["statistic"] = statistic
    result["p_value"] = p
    result["verdict"] = _verdict(wins, games, p, expected)
    return result


def format_p(p: Optional[float]) -> str:
    if p is None:
        return "p = -"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


def _verdict(wins: Sequence[int], games: int, p: float, expected: float) -> str:
    share = expected / games if games else 0.0
    weak, strong = [], []
    for seat, w in enumerate(wins):
        low, high = wilson(w, games)
        if high < share:
            weak.append(seat)
        elif low > share:
            strong.append(seat)
    fair = f"{100 * share:.1f}% each if the seats were equal"
    if p >= 0.05:
        small = " (with few games only large differences would show)" if expected < 5 else ""
        return (f"no evidence that any seat is favoured; the differences look like chance "
                f"({format_p(p)}){small}")
    parts = []
    if weak:
        parts.append(f"{_seats(weak)} {'wins' if len(weak) == 1 else 'win'} far less often "
                     "than the others")
    elif strong:
        parts.append(f"{_seats(strong)} {'wins' if len(strong) == 1 else 'win'} far more "
                     "often than the others")
    if not parts:
        parts.append("the seats do not win equally often")
    return f"{' and '.join(parts)} ({fair}); {format_p(p)}"


def _seats(seats: list[int]) -> str:
    names = [f"seat {s} (P{s + 1})" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation, of already sorted values."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def histogram(values: Sequence[float], bins: int = 20) -> dict:
    """Counts in `bins` equal-width bins between min and max (integer-aligned for ints)."""
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = min(values), max(values)
    if all(float(v).is_integer() for v in values):
        width = max(1, math.ceil((hi - lo + 1) / bins))
        nbins = math.ceil((hi - lo + 1) / width)
    else:
        width = (hi - lo) / bins if hi > lo else 1.0
        nbins = bins if hi > lo else 1
    counts = [0] * nbins
    for v in values:
        counts[min(nbins - 1, int((v - lo) // width))] += 1
    return {"edges": [lo + k * width for k in range(nbins + 1)], "counts": counts}


def describe(values: Sequence[float], bins: int = 20) -> dict:
    """mean, median, p5, p95, min, max and a histogram of the values."""
    s = sorted(values)
    if not s:
        return {"mean": 0.0, "median": 0.0, "p5": 0.0, "p95": 0.0, "min": 0, "max": 0,
                "histogram": histogram(s, bins)}
    return {"mean": sum(s) / len(s), "median": percentile(s, 50), "p5": percentile(s, 5),
            "p95": percentile(s, 95), "min": s[0], "max": s[-1],
            "histogram": histogram(s, bins)}


def paired_difference(base: Sequence[float], other: Sequence[float], z: float = Z95) -> dict:
    """The mean of other[i] - base[i] with a 95% normal interval: the games are the same
    seeds under two settings, so pairing removes the luck of the deal they share."""
    n = min(len(base), len(other))
    if n == 0:
        return {"difference": 0.0, "ci95": [0.0, 0.0]}
    d = [other[i] - base[i] for i in range(n)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return {"difference": mean, "ci95": [mean - half, mean + half]}
