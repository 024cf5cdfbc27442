"""The statistics behind the balance report, against values from tables and by hand."""

from __future__ import annotations

import math

import pytest

from rulesdsl.analysis.stats import (balance_test, chi2_sf, describe, histogram,
                                     paired_difference, percentile, wilson)


@pytest.mark.parametrize("x, df, p", [
    (3.841459, 1, 0.05), (6.634897, 1, 0.01), (5.991465, 2, 0.05), (9.210340, 2, 0.01),
    (7.814728, 3, 0.05), (0.584375, 3, 0.90), (18.307038, 10, 0.05), (2.0, 2, math.exp(-1)),
])
def test_chi_square_tail_matches_the_tables(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-5)


def test_wilson_interval():
    # Wilson's interval for 40/100 (95%): 0.3094-0.4980 (standard worked example)
    low, high = wilson(40, 100)
    assert low == pytest.approx(0.3094, abs=1e-4) and high == pytest.approx(0.4980, abs=1e-4)
    low, high = wilson(0, 50)
    assert low == 0.0 and 0.05 < high < 0.08        # never below 0, unlike p +- 2se
    assert wilson(0, 0) == [0.0, 1.0]


def test_balance_finds_a_weak_seat_and_says_so():
    result = balance_test([435, 515, 50], 1000)
    assert result["p_value"] < 0.001
    assert "seat 2" in result["verdict"] and "less often" in result["verdict"]
    assert "p < 0.001" in result["verdict"]
    even = balance_test([251, 249], 500)
    assert even["p_value"] > 0.5 and "no evidence" in even["verdict"]
    assert balance_test([0, 0], 10)["p_value"] is None


def test_describe_and_percentiles():
    values = list(range(1, 101))
    d = describe(values)
    assert d["mean"] == 50.5 and d["median"] == 50.5
    assert d["p5"] == pytest.approx(5.95) and d["p95"] == pytest.approx(95.05)
    assert d["min"] == 1 and d["max"] == 100
    assert sum(d["histogram"]["counts"]) == 100
    assert percentile([7], 95) == 7


def test_histogram_of_integers_has_whole_bins_covering_every_value():
    h = histogram([3, 3, 4, 10], bins=4)
    assert all(float(e).is_integer() for e in h["edges"])
    assert h["edges"][0] == 3 and h["edges"][-1] > 10
    assert sum(h["counts"]) == 4 and h["counts"][0] == 3


def test_paired_difference():
    d = paired_difference([1, 0, 1, 0], [1, 1, 1, 1])
    assert d["difference"] == 0.5
    assert d["ci95"][0] < 0.5 < d["ci95"][1]
    same = paired_difference([3, 5, 9], [4, 6, 10])
    assert same["difference"] == 1 and same["ci95"] == [1, 1]   # pairing removes the spread
