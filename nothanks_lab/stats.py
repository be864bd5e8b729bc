"""Confidence intervals, computed one way for the whole package, on scipy.

One result type, `Interval` (value, low, high, n, confidence), prints itself and is what every
estimate with an interval should be. An interval's level is called `confidence` everywhere
(the older keyword ``level`` still works one release, with a `DeprecationWarning`). Means get
Student-t intervals (`mean_interval`, from
values or from exact sums, so a tournament's integer sums give the same interval however they
were added up), chances of independent trials get exact binomial intervals
(`proportion_interval`, scipy's ``binomtest(...).proportion_ci``), and a paired difference is
the mean interval of the per-unit differences (`paired_interval`). A *share* measured as the
mean of per-unit values in [0, 1] (a win share over deals, ties split 1/k, each deal played in
several seatings) gets `share_interval`: the Clopper–Pearson interval at the share's effective
sample size, so its ends lie in [0, 1], it has positive width for any finite sample and the
point estimate lies inside; a difference of two such shares gets
`share_difference_interval` (Student t, kept inside [-1, 1] with positive width). scipy is
imported on first use: it costs most of the package's import time.

>>> print(mean_interval([1, 2, 3, 4]))
2.5 [0.446, 4.554] (95%, n=4)
>>> print(proportion_interval(7, 10))
0.7 [0.3475, 0.9333] (95%, n=10)
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

import numpy as np

from .i18n import _, fmt_decimal, fmt_percent, fmt_separator
from .validate import check_int, is_number, renamed_keywords

__all__ = [
    "Interval",
    "check_confidence",
    "check_level",
    "fmt_share",
    "mean_interval",
    "paired_interval",
    "proportion_interval",
    "share_difference_interval",
    "share_interval",
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
    confidence: float = 0.95
    """Confidence level, e.g. 0.95."""

    def __post_init__(self) -> None:
        """Refuse an interval that cannot be one: ends the wrong way round, a count below 0."""
        if self.low > self.high:  # False when either end is NaN (too few units)
            raise ValueError(f"Interval: low ({self.low!r}) must not be above high ({self.high!r})")
        if isinstance(self.n, bool) or not isinstance(self.n, int | np.integer) or self.n < 0:
            raise ValueError(f"Interval: n must be a whole number of units >= 0; got {self.n!r}")

    @property
    def level(self) -> float:
        """Deprecated spelling of `confidence` (kept one release)."""
        warnings.warn(
            "Interval.level is deprecated; use Interval.confidence",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.confidence

    @property
    def half_width(self) -> float:
        """Half the interval's width: the "plus or minus" of the estimate."""
        return (self.high - self.low) / 2

    def covers(self, x: float) -> bool:
        """True when `x` lies inside the interval (ends included)."""
        return self.low <= x <= self.high

    def __str__(self) -> str:
        """``53.61 [52.39, 54.83] (95%, n=400)``; ``53,61 [52,39; 54,83] (95%, n=400)`` in
        Portuguese (a decimal comma, so ``;`` between the ends).

        Both ends print with the same decimals (`_ends_spec`), never ``[-1.234, -0.7612]``.
        """
        level = fmt_percent(self.confidence)
        value = fmt_number(self.value, ".4g")
        ends = fmt_ends(self.low, self.high, _ends_spec(self.low, self.high), exact_zero=True)
        return f"{value} {ends} ({level}, n={self.n})"


def fmt_number(x: float, spec: str) -> str:
    """`x` formatted by `spec`, with the decimal mark of the language in use."""
    text = f"{x:{spec}}"
    return text.replace(".", _decimal_mark())


def _decimal_mark() -> str:
    return fmt_decimal(0.5, 1)[1]


def _ends_spec(low: float, high: float, digits: int = 4) -> str:
    """A format for both ends of an interval: the same decimals, `digits` significant on the
    larger end, trailing zeros both ends share dropped.

    >>> _ends_spec(-1.2341, -0.76123), _ends_spec(0.2, 0.35), _ends_spec(0.2, 0.3)
    ('.3f', '.2f', '.1f')
    """
    largest = max(abs(low), abs(high))
    if not math.isfinite(largest):
        return f".{digits}g"
    d = max(0, digits - 1 - math.floor(math.log10(largest))) if largest > 0 else 0
    while d > 0 and all(f"{x:.{d}f}".endswith("0") for x in (low, high)):
        d -= 1
    return f".{d}f"


def fmt_ends(low: float, high: float, spec: str, *, exact_zero: bool = False) -> str:
    """An interval's ends formatted by `spec`: ``[52.39, 54.83]``; ``[52,39; 54,83]`` where
    the decimal mark is a comma (Portuguese); ``[n/a]`` when undefined (NaN). With
    `exact_zero`, an end that is exactly 0 reads ``0`` (``[0, 0.3085]``, not ``[0.0000, ...``)."""
    if math.isnan(low) or math.isnan(high):
        return "[" + _("n/a") + "]"

    def end(x: float) -> str:
        return "0" if exact_zero and x == 0 else fmt_number(x, spec)

    return f"[{end(low)}{fmt_separator()}{end(high)}]"


def fmt_share(value: float, low: float, high: float, digits: int = 0) -> str:
    """A share and its interval as percentages, with at least `digits` decimals and as many
    more (up to 3) as it takes for the two ends not to print alike.

    So a share of 0 out of 4,000 reads ``0% [0%, 0.1%]``, never ``0% [0%, 0%]``. In Portuguese
    the decimal mark is a comma and ``;`` separates the ends (``0% [0%; 0,1%]``).

    >>> fmt_share(0.0, 0.0, 0.00096), fmt_share(0.5, 0.25, 0.75)
    ('0% [0%, 0.1%]', '50% [25%, 75%]')
    """
    if math.isnan(low) or math.isnan(high):
        return f"{fmt_percent(value, digits)} [" + _("n/a") + "]"
    d = digits
    while d < digits + 3 and f"{low:.{d}%}" == f"{high:.{d}%}":
        d += 1

    def pct(x: float) -> str:  # no trailing zeros on an exact 0 or 1
        return fmt_percent(x, 0 if x in (0.0, 1.0) else d)

    return f"{pct(value)} [{pct(low)}{fmt_separator()}{pct(high)}]"


def check_confidence(confidence: object, name: str = "confidence") -> float:
    """A confidence level in (0, 1) as a float, or `ValueError` naming `name`."""
    if not is_number(confidence) or not 0 < confidence < 1:  # type: ignore[operator]
        raise ValueError(
            f"{name} (a confidence level) must be a number in (0, 1), e.g. 0.95; got {confidence!r}"
        )
    return float(confidence)  # type: ignore[arg-type]


def check_level(level: object, name: str = "level") -> float:
    """Deprecated name of `check_confidence` (kept one release)."""
    warnings.warn(
        "check_level is deprecated; use check_confidence", DeprecationWarning, stacklevel=2
    )
    return check_confidence(level, name)


@renamed_keywords(level="confidence")
def t_quantile(confidence: float, n: int) -> float:
    """The two-sided Student-t multiplier for `n` units (``n - 1`` degrees of freedom).

    >>> round(t_quantile(0.95, 10), 4), math.isnan(t_quantile(0.95, 1))
    (2.2622, True)
    """
    from scipy import stats

    return float(stats.t.ppf(0.5 + confidence / 2, n - 1)) if n >= 2 else math.nan


@renamed_keywords(level="confidence")
def mean_interval(
    values: Iterable[float] | None = None,
    *,
    n: int | None = None,
    total: float | Rational | None = None,
    total_sq: float | Rational | None = None,
    confidence: float = 0.95,
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
    confidence = check_confidence(confidence)
    if values is not None:
        x = _values_array(values, n, total, total_sq)
        if np.issubdtype(x.dtype, np.integer):
            ints = [int(v) for v in x]
            return mean_interval(
                n=len(ints),
                total=sum(ints),
                total_sq=sum(v * v for v in ints),
                confidence=confidence,
            )
        if not np.issubdtype(x.dtype, np.number) or np.issubdtype(x.dtype, np.complexfloating):
            raise ValueError(f"values must be real numbers; got {x.dtype}")
        x = x.astype(np.float64)
        if not np.all(np.isfinite(x)):
            bad = int(np.flatnonzero(~np.isfinite(x))[0])
            raise ValueError(f"values must be finite numbers; values[{bad}] is {float(x[bad])!r}")
        m = float(np.mean(x))
        if len(x) < 2:
            return Interval(m, math.nan, math.nan, len(x), confidence)
        half = t_quantile(confidence, len(x)) * float(np.std(x, ddof=1)) / math.sqrt(len(x))
        return Interval(m, m - half, m + half, len(x), confidence)
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
        for name, v in (("total", total), ("total_sq", total_sq)):
            if not isinstance(v, int | float | np.number) or not math.isfinite(float(v)):
                raise ValueError(f"{name} must be a finite number; got {v!r}")
        mean = float(total) / n
        var = (n * float(total_sq) - float(total) ** 2) / (n * (n - 1)) if n >= 2 else math.nan
    if n < 2:
        return Interval(mean, math.nan, math.nan, n, confidence)
    half = t_quantile(confidence, n) * math.sqrt(max(var, 0.0) / n)
    return Interval(mean, mean - half, mean + half, n, confidence)


@renamed_keywords(level="confidence")
def paired_interval(
    a: Iterable[float], b: Iterable[float], *, confidence: float = 0.95, shares: bool = False
) -> Interval:
    """Mean of ``a - b`` over paired units (the same deals, say) with a Student-t interval.

    Pairing removes what the two share (the luck of the cards), so the interval is much
    tighter than one built from two separate intervals. With ``shares=True`` every value must
    lie in [0, 1] (win chances, win shares) and the interval is `share_difference_interval`'s:
    inside [-1, 1], positive width.

    >>> print(paired_interval([3, 5, 4, 6], [2, 5, 3, 5]))
    0.75 [-0.046, 1.546] (95%, n=4)
    """
    if not isinstance(shares, bool):
        raise ValueError(f"shares must be True or False; got {shares!r}")
    x, y = np.asarray(list(a)), np.asarray(list(b))
    if x.shape != y.shape:
        raise ValueError(f"a and b must pair up: shapes {x.shape} and {y.shape}")
    if shares:
        for name, v in (("a", x), ("b", y)):
            _check_unit_values(v, name)
        return share_difference_interval(x.astype(np.float64) - y, confidence=confidence)
    return mean_interval(x - y, confidence=confidence)


#: Largest sample a proportion interval is computed for (scipy's binomial works in int64).
MAX_PROPORTION_N = 10**15


@renamed_keywords(level="confidence")
def proportion_interval(
    k: int, n: int, *, confidence: float = 0.95, method: str = "exact"
) -> Interval:
    """The share ``k / n`` with scipy's binomial interval (Clopper–Pearson by default).

    `method` is that of ``scipy.stats.binomtest(...).proportion_ci``: ``"exact"``,
    ``"wilson"`` or ``"wilsoncc"``.

    >>> p = proportion_interval(0, 20)
    >>> p.value, p.low, round(p.high, 4)
    (0.0, 0.0, 0.1684)
    """
    from scipy import stats

    confidence = check_confidence(confidence)
    k, n = check_int(k, "k", low=0), check_int(n, "n", low=0, high=MAX_PROPORTION_N)
    if n < 1 or k > n:
        raise ValueError(f"need 0 <= k <= n and n >= 1; got k={k}, n={n}")
    if method not in ("exact", "wilson", "wilsoncc"):
        raise ValueError(f"method must be 'exact', 'wilson' or 'wilsoncc'; got {method!r}")
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method=method)
    low, high = min(max(float(ci.low), 0.0), k / n), max(min(float(ci.high), 1.0), k / n)
    return Interval(k / n, low, high, n, confidence)


def _check_unit_values(x: np.ndarray, name: str) -> None:
    if x.ndim != 1 or not len(x):
        raise ValueError(f"{name} must be a non-empty 1-d sequence; got shape {x.shape}")
    if not np.issubdtype(x.dtype, np.number) or np.issubdtype(x.dtype, np.complexfloating):
        raise ValueError(f"{name} must hold numbers in [0, 1]; got dtype {x.dtype}")
    if not np.all((x >= 0) & (x <= 1)):
        raise ValueError(
            f"{name} must hold shares, numbers in [0, 1]; got {x[~((x >= 0) & (x <= 1))][:3]}"
        )


def _values_array(
    values: Iterable[float],
    n: int | None,
    total: float | Rational | None,
    total_sq: float | Rational | None,
) -> np.ndarray:
    """`values` as a non-empty 1-d array; `ValueError` if the sums are given beside them."""
    if n is not None or total is not None or total_sq is not None:
        raise ValueError("give values, or n, total and total_sq; not both")
    x = np.asarray(list(values) if not isinstance(values, np.ndarray) else values)
    if x.ndim != 1 or not len(x):
        raise ValueError(f"values must be a non-empty 1-d sequence; got shape {x.shape}")
    return x


def _moments(
    values: Iterable[float] | None,
    n: int | None,
    total: float | Rational | None,
    total_sq: float | Rational | None,
    *,
    low: float,
    high: float,
) -> tuple[int, float, float]:
    """Units, mean and sample variance (ddof 1; NaN below two units) of values in [low, high].

    From the values or from their exact sums, as `mean_interval` takes them.
    """
    if values is not None:
        x = _values_array(values, n, total, total_sq)
        if not np.issubdtype(x.dtype, np.number) or np.issubdtype(x.dtype, np.complexfloating):
            raise ValueError(f"values must be numbers in [{low:g}, {high:g}]; got {x.dtype}")
        x = x.astype(np.float64)
        if not np.all((x >= low) & (x <= high)):
            raise ValueError(f"values must lie in [{low:g}, {high:g}]")
        var = float(np.var(x, ddof=1)) if len(x) >= 2 else math.nan
        if len(x) >= 2 and np.ptp(x) == 0:  # all equal: no spread (not rounding's 1e-33)
            var = 0.0
        return len(x), float(np.mean(x)), var
    iv = mean_interval(n=n, total=total, total_sq=total_sq)  # validates the sums
    mean = iv.value
    if not low - 1e-12 <= mean <= high + 1e-12:
        raise ValueError(f"total / n must lie in [{low:g}, {high:g}]; got {mean!r}")
    if iv.n < 2:
        return iv.n, min(max(mean, low), high), math.nan
    se = iv.half_width / t_quantile(iv.confidence, iv.n)
    var = se * se * iv.n
    if var <= 1e-12 * max(mean * mean, 1e-12):  # float sums of equal values: rounding only
        var = 0.0
    return iv.n, min(max(mean, low), high), var


def _beta_ends(p: float, m: float, confidence: float) -> tuple[float, float]:
    """Clopper–Pearson ends for a share `p` of `m` trials, ``p * m`` successes (may be
    fractional): the beta quantiles that ``binomtest(k, n).proportion_ci()`` uses."""
    from scipy import stats

    a = 1 - confidence
    k = p * m
    low = 0.0 if p <= 0 else float(stats.beta.ppf(a / 2, k, m - k + 1))
    high = 1.0 if p >= 1 else float(stats.beta.ppf(1 - a / 2, k + 1, m - k))
    return min(max(low, 0.0), p), max(min(high, 1.0), p)


@renamed_keywords(level="confidence")
def share_interval(
    values: Iterable[float] | None = None,
    *,
    n: int | None = None,
    total: float | Rational | None = None,
    total_sq: float | Rational | None = None,
    n_trials: int | None = None,
    confidence: float = 0.95,
) -> Interval:
    """A share measured as the mean of per-unit values in [0, 1], with an interval in [0, 1].

    The units (deals, say) are independent; each value is a share within its unit (the win
    share of a bot over the seatings of one deal, a tie won by k players counting 1/k). Give
    the values, or `n`, `total` and `total_sq` as for `mean_interval`.

    How: a share ``p`` of ``m`` independent trials has variance ``p(1 - p) / m``, so the
    per-unit standard error ``se`` (``sqrt(sample variance / n)``, the design effect included)
    measures the *effective sample size* ``m = p(1 - p) / se**2``, scaled by ``(z / t)**2``
    (normal over Student-t quantile, n - 1 degrees of freedom) so that a few units give the t
    interval's width. The interval is the Clopper–Pearson (exact binomial) interval for
    ``p * m`` successes in ``m`` trials, from scipy's beta quantiles. A value in [0, 1] with
    mean ``p`` has variance at most ``p(1 - p)``, so ``m`` is at least about ``n``; it is
    clipped to ``[n, n_trials]`` (`n_trials`: an upper limit on the trials, None for none;
    a tournament gives none, because its balanced seatings make a deal's games negatively
    correlated, so a share is measured more precisely than by as many independent games).
    When the variance is 0 or ``p`` is 0 or 1 (nothing measured the spread), or below two
    units, ``m = n``: an all-zero sample of 10 deals gives ``[0, 0.308]``, what 0 successes in
    10 trials allow. With 0/1 values this is exactly
    ``proportion_interval(k, n)``; for many units and a share away from 0 and 1 it is close to
    the Student-t interval. Clopper–Pearson rather than Wilson because Wilson's coverage dips
    to about 92.5% at n = 20, p = 0.05.

    The ends lie in [0, 1], ``low <= value <= high`` and ``low < high`` for any finite sample.

    >>> print(share_interval([0.0] * 10))
    0 [0, 0.3085] (95%, n=10)
    >>> a, b = share_interval([0, 1, 1, 0]), proportion_interval(2, 4)
    >>> math.isclose(a.low, b.low) and math.isclose(a.high, b.high)
    True
    """
    confidence = check_confidence(confidence)
    units, p, var = _moments(values, n, total, total_sq, low=0.0, high=1.0)
    cap = math.inf
    if n_trials is not None:
        cap = check_int(n_trials, "n_trials", low=units)
    m = float(units)
    if units >= 2 and 0 < p < 1 and var > 0:
        from scipy import stats

        # (z / t)^2: a few units give the t interval's width, not the normal one's.
        small = (float(stats.norm.ppf(0.5 + confidence / 2)) / t_quantile(confidence, units)) ** 2
        m = min(max(p * (1 - p) / (var / units) * small, float(units)), cap)
    low, high = _beta_ends(p, m, confidence)
    if not low < high:  # m beyond what the beta quantiles resolve: what n trials allow
        low, high = _beta_ends(p, float(units), confidence)
    return Interval(p, low, high, units, confidence)


@renamed_keywords(level="confidence")
def share_difference_interval(
    values: Iterable[float] | None = None,
    *,
    n: int | None = None,
    total: float | Rational | None = None,
    total_sq: float | Rational | None = None,
    confidence: float = 0.95,
) -> Interval:
    """Mean of per-unit differences of two shares (values in [-1, 1]) with a Student-t
    interval kept inside [-1, 1] and of positive width.

    Pairing is what makes these intervals tight, so the t interval of the differences is kept
    as it is, clipped to [-1, 1]. When it has no width (every difference the same, ``c``, or
    fewer than two units) nothing measured the spread: the interval is ``c ± w`` with
    ``w = z**2 / (n + z**2)``, the Wilson upper bound on the share of units that could differ
    from ``c`` by up to 1 when none of ``n`` did (clipped to [-1, 1]).

    >>> iv = share_difference_interval([0.0] * 100)
    >>> iv.value, round(iv.low, 4), round(iv.high, 4)
    (0.0, -0.037, 0.037)
    """
    from scipy import stats

    confidence = check_confidence(confidence)
    units, d, var = _moments(values, n, total, total_sq, low=-1.0, high=1.0)
    if units >= 2 and var > 0:
        half = t_quantile(confidence, units) * math.sqrt(var / units)
    else:
        z = float(stats.norm.ppf(0.5 + confidence / 2))
        half = z * z / (units + z * z)
    return Interval(d, max(d - half, -1.0), min(d + half, 1.0), units, confidence)
