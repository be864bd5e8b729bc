"""Confidence intervals, computed one way for the whole package, on scipy.

One result type, `Interval` (value, low, high, n, level), prints itself and is what every
estimate with an interval should be. Means get Student-t intervals (`mean_interval`, from
values or from exact sums, so a tournament's integer sums give the same interval however they
were added up), chances get exact binomial intervals (`proportion_interval`, scipy's
``binomtest(...).proportion_ci``), and a paired difference is the mean interval of the
per-unit differences (`paired_interval`). scipy is imported on first use: it costs most of the
package's import time.

>>> print(mean_interval([1, 2, 3, 4]))
2.5 [0.4457, 4.554] (95%, n=4)
>>> print(proportion_interval(7, 10))
0.7 [0.3475, 0.9333] (95%, n=10)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

import numpy as np

from .validate import check_int, is_number

__all__ = [
    "Interval",
    "check_level",
    "mean_interval",
    "paired_interval",
    "proportion_interval",
    "t_quantile",
]


@dataclass(frozen=True)
class Interval:
    """An estimate with its confidence interval.

    >>> print(Interval(0.25, 0.2, 0.3, 400))
    0.25 [0.2, 0.3] (95%, n=400)
    """

    value: float
    """The point estimate: a sample mean, a proportion or a mean difference."""
    low: float
    """Lower end of the interval (NaN when there are too few units for one)."""
    high: float
    """Upper end of the interval."""
    n: int
    """Independent units behind the estimate (games, deals, samples)."""
    level: float = 0.95
    """Confidence level, e.g. 0.95."""

    @property
    def half_width(self) -> float:
        """Half the interval's width: the "plus or minus" of the estimate."""
        return (self.high - self.low) / 2

    def covers(self, x: float) -> bool:
        """True when `x` lies inside the interval (ends included)."""
        return self.low <= x <= self.high

    def __str__(self) -> str:
        return (
            f"{self.value:.4g} {_ends(self.low, self.high, '.4g')} ({self.level:.0%}, n={self.n})"
        )


def _ends(low: float, high: float, spec: str) -> str:
    if math.isnan(low) or math.isnan(high):
        return "[n/a]"
    return f"[{low:{spec}}, {high:{spec}}]"


def check_level(level: object, name: str = "level") -> float:
    """A confidence level in (0, 1) as a float, or `ValueError` naming `name`."""
    if not is_number(level) or not 0 < level < 1:  # type: ignore[operator]
        raise ValueError(f"{name} must be a number in (0, 1), e.g. 0.95; got {level!r}")
    return float(level)  # type: ignore[arg-type]


def t_quantile(level: float, n: int) -> float:
    """The two-sided Student-t multiplier for `n` units (``n - 1`` degrees of freedom).

    >>> round(t_quantile(0.95, 10), 4), math.isnan(t_quantile(0.95, 1))
    (2.2622, True)
    """
    from scipy import stats

    return float(stats.t.ppf(0.5 + level / 2, n - 1)) if n >= 2 else math.nan


def mean_interval(
    values: Iterable[float] | None = None,
    *,
    n: int | None = None,
    total: float | Rational | None = None,
    total_sq: float | Rational | None = None,
    level: float = 0.95,
) -> Interval:
    """Mean with a Student-t interval, from `values` or from their sums.

    Give either `values`, or `n`, `total` (the sum) and `total_sq` (the sum of squares). With
    whole-number or `fractions.Fraction` sums the variance is computed exactly, so sums merged
    in any order give the same interval. Fewer than two units give NaN ends.

    >>> a = mean_interval([2, 4, 4, 6])
    >>> b = mean_interval(n=4, total=16, total_sq=72)
    >>> a == b, a.value
    (True, 4.0)
    """
    level = check_level(level)
    if values is not None:
        if n is not None or total is not None or total_sq is not None:
            raise ValueError("give values, or n, total and total_sq; not both")
        x = np.asarray(list(values) if not isinstance(values, np.ndarray) else values)
        if x.ndim != 1 or not len(x):
            raise ValueError(f"values must be a non-empty 1-d sequence; got shape {x.shape}")
        if np.issubdtype(x.dtype, np.integer):
            ints = [int(v) for v in x]
            return mean_interval(
                n=len(ints), total=sum(ints), total_sq=sum(v * v for v in ints), level=level
            )
        x = x.astype(np.float64)
        m = float(np.mean(x))
        if len(x) < 2:
            return Interval(m, math.nan, math.nan, len(x), level)
        half = t_quantile(level, len(x)) * float(np.std(x, ddof=1)) / math.sqrt(len(x))
        return Interval(m, m - half, m + half, len(x), level)
    if n is None or total is None or total_sq is None:
        raise ValueError("give values, or all of n, total and total_sq")
    n = check_int(n, "n", low=1)
    exact = all(isinstance(v, int | np.integer | Rational) for v in (total, total_sq))
    if exact:
        s1, s2 = (
            Fraction(int(total) if isinstance(total, np.integer) else total),
            Fraction(int(total_sq) if isinstance(total_sq, np.integer) else total_sq),
        )
        mean = float(s1 / n)
        var = float((n * s2 - s1 * s1) / (n * (n - 1))) if n >= 2 else math.nan
    else:
        mean = float(total) / n
        var = (n * float(total_sq) - float(total) ** 2) / (n * (n - 1)) if n >= 2 else math.nan
    if n < 2:
        return Interval(mean, math.nan, math.nan, n, level)
    half = t_quantile(level, n) * math.sqrt(max(var, 0.0) / n)
    return Interval(mean, mean - half, mean + half, n, level)


def paired_interval(a: Iterable[float], b: Iterable[float], *, level: float = 0.95) -> Interval:
    """Mean of ``a - b`` over paired units (the same deals, say) with a Student-t interval.

    Pairing removes what the two share (the luck of the cards), so the interval is much
    tighter than one built from two separate intervals.

    >>> print(paired_interval([3, 5, 4, 6], [2, 5, 3, 5]))
    0.75 [-0.04561, 1.546] (95%, n=4)
    """
    x, y = np.asarray(list(a)), np.asarray(list(b))
    if x.shape != y.shape:
        raise ValueError(f"a and b must pair up: shapes {x.shape} and {y.shape}")
    return mean_interval(x - y, level=level)


def proportion_interval(k: int, n: int, *, level: float = 0.95, method: str = "exact") -> Interval:
    """The share ``k / n`` with scipy's binomial interval (Clopper–Pearson by default).

    `method` is that of ``scipy.stats.binomtest(...).proportion_ci``: ``"exact"``,
    ``"wilson"`` or ``"wilsoncc"``.

    >>> p = proportion_interval(0, 20)
    >>> p.value, p.low, round(p.high, 4)
    (0.0, 0.0, 0.1684)
    """
    from scipy import stats

    level = check_level(level)
    k, n = check_int(k, "k", low=0), check_int(n, "n", low=0)
    if n < 1 or k > n:
        raise ValueError(f"need 0 <= k <= n and n >= 1; got k={k}, n={n}")
    if method not in ("exact", "wilson", "wilsoncc"):
        raise ValueError(f"method must be 'exact', 'wilson' or 'wilsoncc'; got {method!r}")
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=level, method=method)
    return Interval(k / n, float(ci.low), float(ci.high), n, level)
