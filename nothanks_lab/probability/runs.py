"""Exact distributions of the runs the in-play cards of a round form.

The in-play cards of a round (given the ``seen`` ones) split into maximal runs of consecutive
cards, and only the lowest card of each run scores. Here, counted exactly over the equally
likely removed sets: the number of runs (:func:`run_count_pmf`, by compositions unconditionally
and by a dynamic program over the deck given seen cards), the longest run
(:func:`longest_run_pmf`, :func:`p_longest_run_at_least`) and, by linearity over the cards that
start a run, the expected run count and card points of all the in-play cards
(:func:`expected_run_count`, :func:`expected_card_points_all`). The int64 dynamic programs cannot
overflow for decks up to 62 cards; every count is rounded once to a float.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

from ..rules import Rules
from ..validate import is_int
from .common import Seen, _ratio, _resolve_seen


def _max_runs(rules: Rules) -> int:
    # k in-play cards of n form at most one run per card and need a removed card between runs.
    k, n = rules.n_in_play, rules.n_cards
    return min(k, n - k + 1)


@lru_cache(maxsize=256)
def _run_counts(rules: Rules, seen: frozenset[int]) -> tuple[tuple[int, ...], int]:
    """Number of removed sets giving each run count, and the number of removed sets."""
    n, k = rules.n_cards, rules.n_in_play
    size = _max_runs(rules) + 1
    if not seen:
        # Choose k of n cards in exactly r blocks: the r blocks are a composition of k into r
        # parts (C(k-1, r-1)) placed into the n-k+1 slots around the removed cards (C(n-k+1, r)).
        counts = [0] * size
        for r in range(1, size):
            counts[r] = comb(k - 1, r - 1) * comb(n - k + 1, r)
        if k == 0:
            counts[0] = 1
        return tuple(counts), comb(n, k)
    # Dynamic program over the cards in order: state [free cards chosen, previous in play, runs].
    free_needed = k - len(seen)
    cnt = np.zeros((free_needed + 1, 2, size + 1), dtype=np.int64)
    cnt[0, 0, 0] = 1
    for c in rules.cards:
        new = np.zeros_like(cnt)
        if c in seen:
            new[:, 1, :] = cnt[:, 1, :]
            new[:, 1, 1:] += cnt[:, 0, :-1]
        else:
            new[1:, 1, :] = cnt[:-1, 1, :]
            new[1:, 1, 1:] += cnt[:-1, 0, :-1]
            new[:, 0, :] = cnt[:, 0, :] + cnt[:, 1, :]
        cnt = new
    by_runs = cnt[free_needed].sum(axis=0)
    return tuple(int(x) for x in by_runs[:size]), comb(n - len(seen), k - len(seen))


def run_count_pmf(rules: Rules | None = None, *, seen: Seen = ()) -> np.ndarray:
    """Distribution of the number of maximal runs the in-play cards of a round form.

    Entry ``r`` is the chance of exactly ``r`` runs, for ``r = 0 .. min(k, n - k + 1)`` with
    ``k`` in-play cards of ``n``: ``C(k-1, r-1) C(n-k+1, r) / C(n, k)``. Given `seen` cards the
    same counts come from a dynamic program over the deck (same length of array).

    Parameters
    ----------
    rules : Rules, optional
        The rule set; the standard game when None.
    seen : iterable of int
        Cards turned face up so far (so certainly in play).

    Returns
    -------
    numpy.ndarray
        Entry ``r``: the chance of exactly ``r`` runs (float), summing to 1.

    Raises
    ------
    ValueError
        For a seen card outside the rule set's range, or more seen cards than a round can turn
        face up.

    The 24 in-play cards of a standard round form 7 runs more often than any other number:

    >>> pmf = run_count_pmf()
    >>> len(pmf), int(pmf.argmax()), round(float(pmf.sum()), 12)
    (11, 7, 1.0)
    >>> run_count_pmf(Rules(low_card=1, high_card=4, n_removed=1))   # 1 or 2 runs of 3 cards
    array([0. , 0.5, 0.5])
    """
    rules, seen_set = _resolve_seen(seen, rules)
    counts, total = _run_counts(rules, seen_set)
    return np.array([_ratio(x, total) for x in counts])


def _compositions_capped(k: int, r: int, cap: int) -> int:
    """Ways to write k as an ordered sum of r parts, each from 1 to cap (inclusion-exclusion)."""
    if r == 0:
        return int(k == 0)
    total = 0
    for i in range(min(r, (k - r) // cap) + 1):
        total += (-1) ** i * comb(r, i) * comb(k - i * cap - 1, r - 1)
    return total


@lru_cache(maxsize=256)
def _longest_at_most(rules: Rules, seen: frozenset[int]) -> tuple[tuple[int, ...], int]:
    """Number of removed sets whose in-play longest run is at most L, for L = 0 .. k."""
    n, k = rules.n_cards, rules.n_in_play
    if not seen:
        out = []
        for cap in range(k + 1):
            if cap == 0:
                out.append(int(k == 0))
                continue
            out.append(
                sum(
                    comb(n - k + 1, r) * _compositions_capped(k, r, cap)
                    for r in range(1, _max_runs(rules) + 1)
                )
            )
        return tuple(out), comb(n, k)
    # Dynamic program for every cap L at once: state [L, free cards chosen, current run length].
    free_needed = k - len(seen)
    caps = np.arange(k + 1)
    cnt = np.zeros((k + 1, free_needed + 1, k + 2), dtype=np.int64)
    cnt[:, 0, 0] = 1
    for c in rules.cards:
        new = np.zeros_like(cnt)
        if c in seen:
            new[:, :, 1:] = cnt[:, :, :-1]
        else:
            new[:, 1:, 1:] = cnt[:, :-1, :-1]
            new[:, :, 0] = cnt.sum(axis=2)
        # A run grows by at most one card per step, so only length L + 1 can break cap L.
        new[caps, :, caps + 1] = 0
        cnt = new
    at_most = cnt[:, free_needed, :].sum(axis=1)
    return tuple(int(x) for x in at_most), comb(n - len(seen), k - len(seen))


def longest_run_pmf(rules: Rules | None = None, *, seen: Seen = ()) -> np.ndarray:
    """Distribution of the longest run among the in-play cards: entry L for L = 0 .. n_in_play.

    Unconditionally it counts the in-play sets with all runs at most L (compositions with capped
    parts, by inclusion-exclusion); given `seen` cards, by a dynamic program over the deck.

    The standard round's longest run is most often 7 cards, and almost never under 5:

    >>> pmf = longest_run_pmf()
    >>> int(pmf.argmax()), round(float(pmf[:5].sum()), 4)
    (7, 0.0152)
    """
    rules, seen_set = _resolve_seen(seen, rules)
    at_most, total = _longest_at_most(rules, seen_set)
    exact = [at_most[0]] + [at_most[i] - at_most[i - 1] for i in range(1, len(at_most))]
    return np.array([_ratio(x, total) for x in exact])


def p_longest_run_at_least(k: int, rules: Rules | None = None, *, seen: Seen = ()) -> float:
    """Chance that the in-play cards hold a run of at least `k` consecutive cards.

    >>> round(p_longest_run_at_least(5), 4), round(p_longest_run_at_least(10), 4)
    (0.9848, 0.2111)
    >>> p_longest_run_at_least(0), p_longest_run_at_least(25)
    (1.0, 0.0)
    """
    if not is_int(k) or k < 0:
        raise ValueError(f"k (a run length) must be a whole number >= 0; got {k!r}")
    rules, seen_set = _resolve_seen(seen, rules)
    k = int(k)
    if k == 0:
        return 1.0
    at_most, total = _longest_at_most(rules, seen_set)
    if k > len(at_most) - 1:
        return 0.0
    return _ratio(total - at_most[k - 1], total)


@lru_cache(maxsize=256)
def _start_probabilities(rules: Rules, seen: frozenset[int]) -> tuple[Fraction, ...]:
    """For each card c, the exact chance that c is in play and c - 1 is not (c starts a run)."""
    u = rules.n_cards - len(seen)
    r = rules.n_removed
    p_out = Fraction(r, u) if u else Fraction(0)  # an unseen card was removed
    # Both neighbours unseen: P(c in, c-1 out) = P(c-1 out) P(c in | c-1 out).
    p_in_after_out = Fraction(r * (u - r), u * (u - 1)) if u > 1 else Fraction(0)
    out = []
    for c in rules.cards:
        below_seen = c - 1 in seen
        first = c == rules.low_card
        if c in seen:
            out.append(Fraction(1) if first else Fraction(0) if below_seen else p_out)
        elif first:
            out.append(1 - p_out)
        elif below_seen:
            out.append(Fraction(0))
        else:
            out.append(p_in_after_out)
    return tuple(out)


def expected_card_points_all(rules: Rules | None = None, *, seen: Seen = ()) -> float:
    """Expected card points of all the in-play cards held by one player.

    By linearity, the sum over cards c of ``c * P(c in play and c - 1 not)``: only the lowest
    card of each run scores.

    >>> round(expected_card_points_all(), 4)
    129.8182

    Cards 1..4 with one removed leave {2,3,4}, {1,3,4}, {1,2,4} or {1,2,3}: 2, 4, 5 or 1 points.

    >>> expected_card_points_all(Rules(low_card=1, high_card=4, n_removed=1))
    3.0
    """
    rules, seen_set = _resolve_seen(seen, rules)
    return _expected_points(rules, seen_set)


@lru_cache(maxsize=256)
def _expected_points(rules: Rules, seen: frozenset[int]) -> float:
    p = _start_probabilities(rules, seen)
    return float(sum(c * q for c, q in zip(rules.cards, p, strict=True)))


def expected_run_count(rules: Rules | None = None, *, seen: Seen = ()) -> float:
    """Expected number of runs of the in-play cards (the mean of :func:`run_count_pmf`).

    Each card starts a run when it is in play and the one below is not: 24 * 10 / 33 in all.

    >>> round(expected_run_count(), 4), round(24 * 10 / 33, 4)
    (7.2727, 7.2727)
    """
    rules, seen_set = _resolve_seen(seen, rules)
    return float(sum(_start_probabilities(rules, seen_set)))
