"""Monte Carlo twins of the exact chances: sampled rounds, counted, with confidence intervals.

Each exact function of :mod:`~nothanks_lab.probability.cards` and
:mod:`~nothanks_lab.probability.runs` has an ``mc_*`` twin with the same question and arguments
plus ``n`` (rounds to simulate), ``seed`` and ``confidence``. A twin samples removed sets consistent
with the seen cards in vectorized batches (:func:`sample_removed`, :func:`sample_in_play`),
applies one statistic to each batch of in-play masks and sums it over the batches (so memory is
one batch, whatever ``n``), then returns an :class:`Interval`: a share with scipy's Wilson
interval or a mean with a Student-t interval, both from :mod:`nothanks_lab.stats`.
:func:`convergence` tabulates simulations of growing size next to the exact value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

import numpy as np

from ..rules import Rules
from ..stats import Interval, check_confidence, mean_interval, proportion_interval
from ..validate import (
    MAX_SAMPLE_ROWS,
    check_number,
    check_sequence,
    is_int,
    make_rng,
    renamed_keywords,
)
from ..view import PlayerView
from .cards import _gap_query
from .cards import p_all_in_play as p_all_in_play  # the doctests compare with it
from .common import Cards, Seed, Seen, _card_tuple, _check_n, _resolve_seen
from .runs import _max_runs

#: Samples drawn per vectorized batch; bounds memory (a batch holds ``_BATCH x n_cards`` keys).
_BATCH = 1 << 16

#: A statistic of a batch of sampled rounds: bool [b, n_cards] in-play masks -> an int array.
Stat = Callable[[np.ndarray], np.ndarray]


def _wilson(successes: np.ndarray, n: int, confidence: float) -> list[Interval]:
    """Wilson intervals (scipy's) for the proportions `successes / n`, one per entry."""
    k = np.asarray(successes, dtype=np.int64).ravel()
    return [proportion_interval(int(ki), n, confidence=confidence, method="wilson") for ki in k]


def sample_removed(
    n: int, seen: Seen = (), rules: Rules | None = None, *, seed: Seed = None
) -> np.ndarray:
    """Draw `n` removed sets consistent with `seen`: int array [n, n_removed], rows ascending.

    Each row is a uniform ``n_removed``-subset of the unseen cards (seen cards are in play),
    which is exactly what a round dealt at random looks like to a player who has seen `seen`.

    >>> removed = sample_removed(3, seen=[27, 29], seed=1)
    >>> removed.shape, bool(np.isin([27, 29], removed).any())
    ((3, 9), False)
    """
    n = _check_n(n, ceiling=MAX_SAMPLE_ROWS)  # returned whole: at most a million rows
    rules, seen_set = _resolve_seen(seen, rules)
    rng = make_rng(seed)
    unseen = np.array([c for c in rules.cards if c not in seen_set], dtype=np.int64)
    r = rules.n_removed
    if r == len(unseen):  # every in-play card was seen: the removed set is known
        known: np.ndarray = np.broadcast_to(unseen, (n, r)).copy()
        return known
    if r == 0:
        return np.zeros((n, 0), dtype=np.int64)
    # The r smallest of independent uniform keys pick a uniform r-subset, all rows at once.
    keys = rng.random((n, len(unseen)))
    picks = np.argpartition(keys, r - 1, axis=1)[:, :r]
    return np.sort(unseen[picks], axis=1)


def sample_in_play(
    n: int, seen: Seen = (), rules: Rules | None = None, *, seed: Seed = None
) -> np.ndarray:
    """Draw `n` rounds consistent with `seen`: bool array [n, n_cards], True = card in play.

    Column ``i`` is card ``rules.low_card + i``.

    >>> x = sample_in_play(4, seed=7)
    >>> x.shape, x.sum(axis=1).tolist()
    ((4, 33), [24, 24, 24, 24])
    """
    n = _check_n(n, ceiling=MAX_SAMPLE_ROWS)
    rules, seen_set = _resolve_seen(seen, rules)
    removed = sample_removed(n, seen_set, rules, seed=seed)
    out = np.ones((n, rules.n_cards), dtype=bool)
    out[np.arange(n)[:, None], removed - rules.low_card] = False
    return out


class _Simulation(NamedTuple):
    """A checked simulation: the rounds to sample (`rules`, `seen`), how many, at which level."""

    rules: Rules
    seen: frozenset[int]
    n: int
    confidence: float

    def total(self, stat: Stat, seed: Seed) -> np.ndarray:
        """The sum of `stat` over `n` sampled rounds, drawn and reduced one batch at a time."""
        rng = make_rng(seed)
        total: np.ndarray | int = 0
        done = 0
        while done < self.n:
            size = min(_BATCH, self.n - done)
            total = total + stat(sample_in_play(size, self.seen, self.rules, seed=rng))
            done += size
        return np.asarray(total)

    def shares(self, stat: Stat, seed: Seed) -> list[Interval]:
        """Share of rounds with each outcome `stat` counts, each with its Wilson interval."""
        return _wilson(self.total(stat, seed), self.n, self.confidence)

    def mean(self, value: Stat, seed: Seed) -> Interval:
        """Mean of a whole number per round (`value`: int [b]) with its Student-t interval."""
        sums = self.total(lambda x: _power_sums(value(x)), seed)
        # The same exact integer sums mean_interval forms from the values themselves.
        return mean_interval(
            n=self.n, total=int(sums[0]), total_sq=int(sums[1]), confidence=self.confidence
        )


def _simulation(
    seen: Seen, rules: Rules | None, n: int, confidence: float, least: int = 1
) -> _Simulation:
    """Check a twin's arguments (`n` at least `least`) and resolve its seen cards."""
    n, confidence = _check_n(n, least), check_confidence(confidence)
    rules, seen_set = _resolve_seen(seen, rules)
    return _Simulation(rules, seen_set, n, confidence)


def _count(flags: np.ndarray) -> np.ndarray:
    """Rounds with each flag set: bool [b] -> int [1], bool [b, k] -> int [k]."""
    return np.atleast_1d(flags.sum(axis=0))


def _tally(values: np.ndarray, size: int) -> np.ndarray:
    """Rounds with each value 0 .. size - 1: int [b] -> int [size]."""
    return np.bincount(values, minlength=size)


def _power_sums(values: np.ndarray) -> np.ndarray:
    """int [b] -> [sum, sum of squares], as exact Python integers."""
    return np.array([int(values.sum()), int((values * values).sum())], dtype=object)


def _run_starts(x: np.ndarray) -> np.ndarray:
    """bool [n, n_cards]: the card is in play and the card below it is not."""
    starts: np.ndarray = x.copy()
    starts[:, 1:] &= ~x[:, :-1]
    return starts


def _longest_run(x: np.ndarray) -> np.ndarray:
    """int [n]: the longest run of in-play cards in each round."""
    current = np.zeros(len(x), dtype=np.int64)
    best = np.zeros(len(x), dtype=np.int64)
    for col in x.T:
        current = (current + 1) * col
        np.maximum(best, current, out=best)
    return best


def _column(rules: Rules, cards: Iterable[int]) -> np.ndarray:
    """The mask columns of `cards`."""
    return np.array([c - rules.low_card for c in cards], dtype=np.int64)


@renamed_keywords(level="confidence")
def mc_p_all_in_play(
    cards: Cards,
    seen: Seen = (),
    rules: Rules | None = None,
    *,
    n: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> Interval:
    """Simulated twin of :func:`p_all_in_play`: share of sampled rounds with all `cards` in play.

    >>> est = mc_p_all_in_play(28, seen=[27, 29], n=20_000, seed=5)
    >>> est.covers(p_all_in_play(28, seen=[27, 29])), round(est.half_width, 3)
    (True, 0.006)
    """
    sim = _simulation(seen, rules, n, confidence)
    cols = _column(sim.rules, _card_tuple(cards, sim.rules, "cards"))
    return sim.shares(lambda x: _count(np.asarray(x[:, cols].all(axis=1))), seed)[0]


@renamed_keywords(level="confidence")
def mc_removed_count_pmf(
    cards: Cards,
    seen: Seen = (),
    rules: Rules | None = None,
    *,
    n: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> list[Interval]:
    """Simulated twin of :func:`removed_count_pmf`: one estimate per count j = 0 .. m."""
    sim = _simulation(seen, rules, n, confidence)
    asked = _card_tuple(cards, sim.rules, "cards")
    cols = _column(sim.rules, [c for c in asked if c not in sim.seen])
    return sim.shares(lambda x: _tally((~x[:, cols]).sum(axis=1), len(cols) + 1), seed)


@renamed_keywords(level="confidence")
def mc_p_in_play_each(
    seen: Seen = (),
    rules: Rules | None = None,
    *,
    n: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> dict[int, Interval]:
    """Simulated twin of :func:`p_in_play_each`: per card, the share of rounds it is in play."""
    sim = _simulation(seen, rules, n, confidence)
    return dict(zip(sim.rules.cards, sim.shares(_count, seed), strict=True))


@renamed_keywords(level="confidence")
def mc_p_gap_fillable(
    hand: Cards | PlayerView,
    seen: Seen = (),
    rules: Rules | None = None,
    *,
    taken: Iterable[int] = (),
    n: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> dict[tuple[int, ...], Interval]:
    """Simulated twin of :func:`p_gap_fillable`: one estimate per gap of the hand."""
    n, confidence = _check_n(n), check_confidence(confidence)
    rules, seen_set, taken_set, gap_list = _gap_query(hand, seen, rules, taken)
    if not gap_list:
        return {}
    ok = np.array([not any(c in taken_set for c in g) for g in gap_list])
    cols = [_column(rules, g) for g in gap_list]

    def stat(x: np.ndarray) -> np.ndarray:
        fillable = [x[:, c].all(axis=1) & k for c, k in zip(cols, ok, strict=True)]
        return _count(np.stack(fillable, axis=1))

    sim = _Simulation(rules, seen_set, n, confidence)
    return dict(zip(gap_list, sim.shares(stat, seed), strict=True))


@renamed_keywords(level="confidence")
def mc_run_count_pmf(
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> list[Interval]:
    """Simulated twin of :func:`run_count_pmf`: one estimate per run count (same length)."""
    sim = _simulation(seen, rules, n, confidence)
    size = _max_runs(sim.rules) + 1
    return sim.shares(lambda x: _tally(_run_starts(x).sum(axis=1), size), seed)


@renamed_keywords(level="confidence")
def mc_longest_run_pmf(
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> list[Interval]:
    """Simulated twin of :func:`longest_run_pmf`: one estimate per length 0 .. n_in_play."""
    sim = _simulation(seen, rules, n, confidence)
    size = sim.rules.n_in_play + 1
    return sim.shares(lambda x: _tally(_longest_run(x), size), seed)


@renamed_keywords(level="confidence")
def mc_p_longest_run_at_least(
    k: int,
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> Interval:
    """Simulated twin of :func:`p_longest_run_at_least`."""
    if not is_int(k) or k < 0:
        raise ValueError(f"k (a run length) must be a whole number >= 0; got {k!r}")
    sim = _simulation(seen, rules, n, confidence)
    return sim.shares(lambda x: _count(_longest_run(x) >= int(k)), seed)[0]


@renamed_keywords(level="confidence")
def mc_expected_card_points_all(
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> Interval:
    """Simulated twin of :func:`expected_card_points_all` (mean with a t interval)."""
    sim = _simulation(seen, rules, n, confidence, least=2)
    values = np.array(sim.rules.cards, dtype=np.int64)
    return sim.mean(lambda x: _run_starts(x) @ values, seed)


@renamed_keywords(level="confidence")
def mc_expected_run_count(
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> Interval:
    """Simulated twin of :func:`expected_run_count` (mean with a t interval)."""
    sim = _simulation(seen, rules, n, confidence, least=2)
    return sim.mean(lambda x: _run_starts(x).sum(axis=1), seed)


class ConvergenceRow(NamedTuple):
    """One row of a convergence table: a simulation of `n` rounds against the exact value."""

    n: int
    """Simulated rounds."""
    estimate: float
    """The simulated value."""
    low: float
    """Lower end of its confidence interval."""
    high: float
    """Upper end of its confidence interval."""
    exact: float
    """The exact value it should approach."""


def convergence(
    exact_fn: Callable[[], float] | float,
    mc_fn: Callable[..., Interval],
    ns: Iterable[int],
    *,
    seed: Seed = None,
) -> list[ConvergenceRow]:
    """A table of simulations of growing size next to the exact value, for a convergence plot.

    `mc_fn` is called as ``mc_fn(n=n, seed=rng)`` for each `n`, every run drawing fresh samples
    from one generator built from `seed` (so the runs are independent and the table repeatable);
    `exact_fn` is a number or a function of no arguments.

    >>> from functools import partial
    >>> rows = convergence(partial(p_all_in_play, 28), partial(mc_p_all_in_play, 28),
    ...                    ns=[100, 10_000], seed=3)
    >>> [r.n for r in rows], all(r.low <= r.estimate <= r.high for r in rows)
    ([100, 10000], True)
    >>> rows[1].high - rows[1].low < rows[0].high - rows[0].low
    True
    """
    if not callable(mc_fn):
        raise ValueError(f"mc_fn must be a function returning an Interval; got {mc_fn!r}")
    exact = check_number(exact_fn() if callable(exact_fn) else exact_fn, "exact_fn")
    sizes = [_check_n(n) for n in check_sequence(ns, "ns", "a sequence of simulation sizes")]
    rng = make_rng(seed)
    rows = []
    for size in sizes:
        est = mc_fn(n=size, seed=rng)
        if not isinstance(est, Interval):
            raise ValueError(f"mc_fn must return one Interval; got {type(est).__name__}")
        rows.append(ConvergenceRow(size, est.value, est.low, est.high, exact))
    return rows
