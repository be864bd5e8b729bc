"""The package's one interval type and its three constructors, checked against scipy directly."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import nothanks_lab as nt
from nothanks_lab.stats import (
    Interval,
    mean_interval,
    paired_interval,
    proportion_interval,
    t_quantile,
)
from nothanks_lab.tournaments import Comparison


def test_mean_interval_is_the_student_t_interval() -> None:
    x = np.random.default_rng(3).normal(2.0, 1.5, size=37)
    iv = mean_interval(x, level=0.9)
    low, high = stats.t.interval(0.9, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert (iv.value, iv.n, iv.level) == (pytest.approx(x.mean()), 37, 0.9)
    assert (iv.low, iv.high) == (pytest.approx(low, rel=1e-12), pytest.approx(high, rel=1e-12))


def test_sums_give_the_interval_of_the_values_exactly() -> None:
    values = [3, -1, 4, 1, -5, 9, 2, 6]
    from_sums = mean_interval(n=len(values), total=sum(values), total_sq=sum(v * v for v in values))
    assert from_sums == mean_interval(values) == mean_interval(np.array(values))
    thirds = mean_interval(n=3, total=Fraction(1, 3) * 3, total_sq=Fraction(1, 9) * 3)
    assert (thirds.value, thirds.low, thirds.high) == (1 / 3, 1 / 3, 1 / 3)  # no rounding noise


def test_too_few_units_give_nan_ends_and_bad_input_is_refused() -> None:
    one = mean_interval([4.0])
    assert one.value == 4.0 and math.isnan(one.low) and math.isnan(one.high)
    assert str(one) == "4 [n/a] (95%, n=1)"
    assert math.isnan(t_quantile(0.95, 1))
    for call in (
        lambda: mean_interval([]),
        lambda: mean_interval([1, 2], n=2, total=3, total_sq=5),
        lambda: mean_interval(n=2, total=3),
        lambda: mean_interval([1, 2], level=1.0),
        lambda: mean_interval([1, 2], level=True),
        lambda: proportion_interval(3, 2),
        lambda: proportion_interval(1.0, 2),  # type: ignore[arg-type]
        lambda: proportion_interval(1, 2, method="wald"),
        lambda: paired_interval([1, 2], [1, 2, 3]),
    ):
        with pytest.raises(ValueError):
            call()


@pytest.mark.parametrize("method", ["exact", "wilson"])
def test_proportion_interval_is_scipys_binomial_interval(method: str) -> None:
    iv = proportion_interval(17, 60, level=0.99, method=method)
    ci = stats.binomtest(17, 60).proportion_ci(confidence_level=0.99, method=method)
    assert (iv.value, iv.low, iv.high, iv.n) == (17 / 60, ci.low, ci.high, 60)
    assert iv.covers(17 / 60) and not iv.covers(0.9)


def test_paired_interval_is_the_interval_of_the_differences() -> None:
    rng = np.random.default_rng(1)
    luck = rng.normal(0, 10, 50)
    a, b = luck + rng.normal(1, 1, 50), luck + rng.normal(0, 1, 50)
    paired = paired_interval(a, b)
    assert paired == mean_interval(a - b)
    unpaired = mean_interval(a).half_width + mean_interval(b).half_width
    assert paired.half_width < unpaired / 5  # the shared luck cancels


def test_a_tournament_comparison_is_an_interval_over_its_deals() -> None:
    r = nt.tournament(
        ["marginal:threshold=10", "marginal:threshold=-40", "marginal:threshold=0"],
        n_games=60,
        seed=4,
        progress=False,
    )
    c = r.compare(0, 1)
    assert isinstance(c, Comparison) and isinstance(c, Interval)
    assert (c.diff, c.n, c.level, c.metric) == (c.value, 60, 0.95, "win_share")
    assert c.low < c.diff < c.high
    assert str(c).startswith("MarginalCostBot(threshold=10) - MarginalCostBot(threshold=-40)")
    iv = r.interval("MarginalCostBot(threshold=0)", "mean_score")
    assert (iv.value, iv.low, iv.high) == (r.mean_score[2], *r.score_ci[2])
