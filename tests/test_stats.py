"""The package's one interval type and its three constructors, checked against scipy directly."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path

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
    iv = mean_interval(x, confidence=0.9)
    low, high = stats.t.interval(0.9, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert (iv.value, iv.n, iv.confidence) == (pytest.approx(x.mean()), 37, 0.9)
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
        lambda: mean_interval([1, 2], confidence=1.0),
        lambda: mean_interval([1, 2], confidence=True),
        lambda: proportion_interval(3, 2),
        lambda: proportion_interval(1.0, 2),  # type: ignore[arg-type]
        lambda: proportion_interval(1, 2, method="wald"),
        lambda: paired_interval([1, 2], [1, 2, 3]),
    ):
        with pytest.raises(ValueError):
            call()


@pytest.mark.parametrize("method", ["exact", "wilson"])
def test_proportion_interval_is_scipys_binomial_interval(method: str) -> None:
    iv = proportion_interval(17, 60, confidence=0.99, method=method)
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
    assert (c.diff, c.n, c.confidence, c.metric) == (c.value, 60, 0.95, "win_share")
    assert c.low < c.diff < c.high
    assert str(c).startswith("MarginalCostBot(threshold=10) - MarginalCostBot(threshold=-40)")
    iv = r.interval("MarginalCostBot(threshold=0)", "mean_score")
    assert (iv.value, iv.low, iv.high) == (r.mean_score[2], *r.score_ci[2])


# ------------------------------------------------------------------------ shares: the one rule
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from nothanks_lab.stats import share_difference_interval, share_interval  # noqa: E402


def _honest(iv: Interval, low: float = 0.0, high: float = 1.0) -> None:
    """The contract for a share: ends in [low, high], positive width, the estimate inside."""
    assert low <= iv.low <= iv.value <= iv.high <= high, iv
    assert iv.low < iv.high, iv


# Per-deal win shares as a tournament makes them: seatings per deal, ties split 1/k.
_deal_values = st.lists(
    st.integers(0, 12).map(lambda k: k / 12) | st.sampled_from([0.0, 1.0]), min_size=1, max_size=30
)


@settings(max_examples=300, deadline=None)
@given(_deal_values, st.sampled_from([0.8, 0.95, 0.99]))
def test_share_intervals_of_any_small_sample_are_honest(values: list[float], level: float) -> None:
    iv = share_interval(values, confidence=level)
    _honest(iv)
    assert iv.n == len(values) and iv.value == pytest.approx(np.mean(values))
    capped = share_interval(values, n_trials=6 * len(values), confidence=level)
    _honest(capped)
    assert capped.high - capped.low >= iv.high - iv.low - 1e-12  # a cap only widens


@settings(max_examples=300, deadline=None)
@given(_deal_values, _deal_values)
def test_share_difference_intervals_of_any_small_sample_are_honest(
    a: list[float], b: list[float]
) -> None:
    m = min(len(a), len(b))
    _honest(paired_interval(a[:m], b[:m], shares=True), -1.0, 1.0)


@pytest.mark.parametrize("n", [1, 2, 10, 100])
def test_all_zero_and_all_one_samples_have_positive_width(n: int) -> None:
    zero, one = share_interval([0.0] * n), share_interval([1.0] * n)
    _honest(zero)
    _honest(one)
    # Nothing measured the spread: what 0 (or n) successes in n trials allow, Clopper–Pearson.
    assert zero.high == pytest.approx(proportion_interval(0, n).high, rel=1e-9)
    assert one.low == pytest.approx(proportion_interval(n, n).low, rel=1e-9)
    _honest(share_difference_interval([0.0] * n), -1.0, 1.0)
    _honest(share_difference_interval([1.0] * n), -1.0, 1.0)


def test_zero_one_values_give_the_exact_binomial_interval() -> None:
    rng = np.random.default_rng(8)
    x = (rng.random(40) < 0.3).astype(float)
    iv, exact = share_interval(x), proportion_interval(int(x.sum()), 40)
    assert (iv.low, iv.high) == (pytest.approx(exact.low), pytest.approx(exact.high))


def test_many_deals_mid_range_give_nearly_the_t_interval() -> None:
    rng = np.random.default_rng(2)
    x = rng.binomial(6, 0.4, size=5000) / 6  # per-deal shares over 6 seatings
    iv, t = share_interval(x, n_trials=6 * 5000), mean_interval(x)
    assert iv.value == pytest.approx(t.value)
    assert iv.low == pytest.approx(t.low, abs=5e-4) and iv.high == pytest.approx(t.high, abs=5e-4)
    assert iv.half_width == pytest.approx(t.half_width, rel=0.02)


def _coverage(p: float, n: int, k: int, reps: int, seed: int) -> float:
    """Share of `reps` intervals covering `p`: n deals, k correlated seatings each."""
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(reps):
        # Block model: each deal has its own chance (beta around p), shared by its seatings.
        deal_p = rng.beta(2 * p / (1 - p) + 1e-9, 2.0, size=n) if k > 1 else np.full(n, p)
        values = rng.binomial(k, deal_p) / k
        hits += share_interval(values, n_trials=n * k).covers(p)
    return hits / reps


@pytest.mark.parametrize(
    ("p", "n", "k"), [(0.05, 20, 1), (0.02, 30, 1), (0.05, 10, 6), (0.1, 15, 3)]
)
def test_small_samples_near_zero_cover_at_least_93_percent(p: float, n: int, k: int) -> None:
    # 400 replications: a true 95% coverage falls below 93% with chance about 3%;
    # Wilson at (0.05, 20, 1) covers only 92.5%, which is why the rule is Clopper–Pearson.
    assert _coverage(p, n, k, 400, seed=11) >= 0.93


def test_bernoulli_coverage_is_at_least_nominal_exactly() -> None:
    # Computed, not simulated: sum the binomial probabilities of the outcomes that cover p.
    for n in (5, 12, 20, 40):
        for p in (0.01, 0.05, 0.2, 0.5):
            cover = sum(
                stats.binom.pmf(k, n, p)
                for k in range(n + 1)
                if share_interval([1.0] * k + [0.0] * (n - k)).covers(p)
            )
            assert cover >= 0.95 - 1e-9, (n, p, cover)


def test_share_intervals_refuse_what_is_not_a_share() -> None:
    for call in (
        lambda: share_interval([0.2, 1.5]),
        lambda: share_interval([-0.1, 0.5]),
        lambda: share_interval([]),
        lambda: share_interval(["a"]),  # type: ignore[list-item]
        lambda: share_interval(n=2, total=3, total_sq=5),
        lambda: share_interval([0.5, 0.5], n_trials=1),
        lambda: share_interval([0.5, 0.5], confidence=1.5),
        lambda: share_difference_interval([2.0, 0.0]),
        lambda: paired_interval([0.5, 2.0], [0.5, 0.5], shares=True),
        lambda: paired_interval([0.5], [0.5], shares="yes"),  # type: ignore[arg-type]
    ):
        with pytest.raises(ValueError):
            call()


# ------------------------------------------------------------------------ every producer
@pytest.mark.slow
def test_the_issues_tournament_has_honest_share_intervals() -> None:
    r = nt.tournament(
        ["random:p_take=0.9,seed=1", "linear", "heuristic"], 3, 30, seed=1, progress=False
    )
    assert r.win_share[0] == 0.0  # 0 of 180 games
    for ci, v in ((r.win_share_ci, r.win_share), (r.seat_win_share_ci, r.seat_win_share)):
        for (lo, hi), x in zip(ci, v, strict=True):
            _honest(Interval(float(x), float(lo), float(hi), 30))
    assert r.win_share_ci[0, 1] > 0.05  # 30 deals cannot rule out a share of 5%
    for b in range(3):
        _honest(r.interval(b))
    _honest(r.compare(0, 1), -1.0, 1.0)
    _honest(r.compare(1, 1), -1.0, 1.0)  # a bot against itself: 0, yet not [0, 0]
    pw = r.pairwise()
    off = ~np.eye(3, dtype=bool)
    assert (pw.low[off] >= 0).all() and (pw.high[off] <= 1).all()
    assert (pw.low[off] < pw.high[off]).all()
    assert ((pw.low <= pw.share) & (pw.share <= pw.high))[off].all()
    assert "[0.0000, 0.0000]" not in str(r)


def test_a_single_deal_and_identical_bots_still_get_share_intervals() -> None:
    one = nt.tournament(["marginal", "linear", "heuristic"], 3, 1, seed=2, progress=False)
    twins = nt.tournament(["marginal"] * 3, 3, 20, seed=2, progress=False)
    for r in (one, twins):
        for (lo, hi), x in zip(r.win_share_ci, r.win_share, strict=True):
            _honest(Interval(float(x), float(lo), float(hi), r.n_deals))
    assert np.isnan(one.score_ci).all()  # a score needs two deals for a t interval


def test_a_tiny_league_has_honest_share_intervals(tmp_path: Path) -> None:
    from nothanks_lab import league

    (tmp_path / "greedy.py").write_text(
        "import nothanks_lab as nt\n\n\ndef act(view):\n    return nt.Action.TAKE\n"
    )
    entries = league.collect_bots(tmp_path, seed=3)
    played = league.run_league(entries, n_games=3, seed=3, progress=False)
    for (lo, hi), x in zip(played.win_share_ci, played.win_share, strict=True):
        _honest(Interval(float(x), float(lo), float(hi), 3))
    assert any(r["win_share"] == 0.0 for r in played.leaderboard())


def test_sweeps_and_tuning_report_honest_share_intervals() -> None:
    swept = nt.sweep(
        "marginal", {"threshold": [-40, 10]}, "heuristic", 3, 4, seed=1, progress=False
    )
    for row in swept.to_records():
        _honest(Interval(row["win_share"], row["win_share_low"], row["win_share_high"], 4))


@pytest.mark.parametrize("n", [1, 3, 10])
def test_the_probability_twins_at_tiny_n_are_honest(n: int) -> None:
    from nothanks_lab import probability as pr

    for cards in ([3], [3, 4, 5, 6, 7, 8]):  # likely, and a long run: often all zero
        _honest(pr.mc_p_all_in_play(cards, n=n, seed=1))


def test_rollout_win_chances_and_their_differences_are_honest() -> None:
    from nothanks_lab import analysis as an

    # 35 for nothing against MarginalCostBots: a Take all but never wins.
    ev = an.evaluate_position(an.position_view(35, 0), n=20, seed=1)
    for m in ev.moves().values():
        _honest(m.win)
        assert "[0%, 0%]" not in str(m)
    assert ev.win_diff is not None
    _honest(ev.win_diff, -1.0, 1.0)
    cv = an.chip_value(3, extra_chips=(0, 2), n_games=10, seed=1)
    for key in cv.win:
        _honest(cv.win[key])
        _honest(cv.win_change[key], -1.0, 1.0)


def test_a_review_of_a_short_round_reports_honest_win_chances() -> None:
    from nothanks_lab.engine import Game
    from nothanks_lab.play import play_out
    from nothanks_lab.review import review

    game = play_out(Game(3, seed=4), [nt.bots.make_bot("marginal")] * 3)
    rv = review(game, 0, n=12, seed=2)
    for m in rv.moves:
        for mv in (m.take, m.no_thanks):
            if mv is not None:
                _honest(mv.win)
        if m.action is not m.best:  # the better move's cost is 0 by definition, not measured
            assert -1.0 <= m.win_cost.low < m.win_cost.high <= 1.0
    assert any(m.action is not m.best for m in rv.moves) or rv.choices == 0


@pytest.mark.parametrize(
    "method", [pytest.param("exact", marks=pytest.mark.slow), "wilson", "wilsoncc"]
)
def test_a_proportion_interval_moves_up_with_every_win_and_stays_in_the_unit_range(
    method: str,
) -> None:
    """0 wins of n is never reported wider at the top than 1 win of the same n (issue 24)."""
    for n in (1, 2, 3, 7, 30, 180, 1000):
        ivs = [proportion_interval(k, n, method=method) for k in range(n + 1)]
        for iv in ivs:
            assert 0.0 <= iv.low <= iv.value <= iv.high <= 1.0 and iv.high > iv.low
        for a, b in itertools.pairwise(ivs):
            assert a.low <= b.low and a.high <= b.high, (n, a, b)


@pytest.mark.parametrize(
    ("low", "high", "ends"),
    [
        (-1.2341, -0.76123, "[-1.234, -0.761]"),  # .4g printed [-1.234, -0.7612]
        (0.2, 0.35, "[0.20, 0.35]"),  # .4g printed [0.2, 0.35]
        (0.2, 0.3, "[0.2, 0.3]"),
        (52.39, 54.83, "[52.39, 54.83]"),
        (0.00012, 0.00098, "[0.00012, 0.00098]"),
        (9.9996, 10.5, "[10.0, 10.5]"),  # rounds up to 10.0, a decimal like 10.5
    ],
)
def test_an_interval_prints_both_ends_with_the_same_decimals(
    low: float, high: float, ends: str
) -> None:
    from nothanks_lab.i18n import language

    assert ends in str(Interval((low + high) / 2, low, high, 100))
    with language("pt_BR"):
        assert ends.replace(", ", "; ").replace(".", ",") in str(Interval(low, low, high, 100))


# ------------------------------------------------------------------ one word: confidence
OLD_LEVEL_CALLS = {
    "mean_interval": lambda **kw: mean_interval([1.0, 2.0, 4.0, 8.0], **kw),
    "paired_interval": lambda **kw: paired_interval([3, 5, 4, 6], [2, 5, 3, 5], **kw),
    "proportion_interval": lambda **kw: proportion_interval(3, 10, **kw),
    "share_interval": lambda **kw: nt.stats.share_interval([0.0, 0.5, 1.0, 1.0], **kw),
    "share_difference_interval": lambda **kw: nt.stats.share_difference_interval(
        [0.5, -0.5, 0.0], **kw
    ),
    "mc_p_all_in_play": lambda **kw: nt.probability.mc_p_all_in_play(28, n=300, seed=4, **kw),
}


@pytest.mark.parametrize("name", sorted(OLD_LEVEL_CALLS))
def test_level_is_the_old_spelling_of_confidence(name: str) -> None:
    call = OLD_LEVEL_CALLS[name]
    new = call(confidence=0.9)
    assert new.confidence == 0.9 and new != call()  # the level reaches the interval
    with pytest.warns(DeprecationWarning, match=rf"{name}\(level=\.\.\.\).*confidence="):
        assert call(level=0.9) == new
    with pytest.raises(ValueError, match="not both"):
        call(level=0.9, confidence=0.9)
    with pytest.raises(ValueError, match="confidence"):
        call(confidence=1.5)


def test_interval_level_and_check_level_are_deprecated_aliases() -> None:
    iv = mean_interval([1.0, 2.0, 4.0], confidence=0.8)
    assert iv.confidence == 0.8 and "(80%, n=3)" in str(iv)
    with pytest.warns(DeprecationWarning, match="Interval.confidence"):
        assert iv.level == 0.8
    with pytest.warns(DeprecationWarning, match="check_confidence"):
        assert nt.stats.check_level(0.9) == nt.stats.check_confidence(0.9) == 0.9
    with pytest.warns(DeprecationWarning):
        assert t_quantile(level=0.95, n=10) == t_quantile(0.95, 10)


def test_intervals_refuse_values_they_cannot_summarise() -> None:
    # Re-trial: an infinite value gave NaN ends; an Interval with its ends swapped was built.
    with pytest.raises(ValueError, match=r"values\[1\] is inf"):
        mean_interval([1.0, math.inf])
    with pytest.raises(ValueError, match="finite"):
        mean_interval(n=3, total=math.nan, total_sq=1.0)
    with pytest.raises(ValueError, match="real numbers"):
        mean_interval(["a", "b"])
    with pytest.raises(ValueError, match=r"low .* must not be above high"):
        Interval(0.5, 0.9, 0.1, 3)
    with pytest.raises(ValueError, match="n must be a whole number"):
        Interval(0.5, 0.4, 0.6, -1)
    assert math.isnan(Interval(0.5, math.nan, math.nan, 1).low)  # too few units: allowed


@pytest.mark.parametrize("value", [0.2, 1 / 3, 0.7, 0.123456789])
@pytest.mark.parametrize("units", [2, 20, 100, 5000])
def test_equal_shares_give_a_finite_interval_of_positive_width(value: float, units: int) -> None:
    # Re-trial: [0.2] * 20 left a variance of rounding's 1e-33, which gave a NaN end or zero
    # width, against "low < high for any finite sample".
    for iv in (
        share_interval([value] * units),
        share_interval(n=units, total=value * units, total_sq=value * value * units),
        share_difference_interval([value] * units),
    ):
        assert math.isfinite(iv.low) and math.isfinite(iv.high), iv
        assert iv.low <= iv.value <= iv.high, iv
        assert iv.low < iv.high, iv
