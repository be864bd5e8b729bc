"""Exact chances of what the hidden removed cards allow, and their Monte Carlo twins.

Before a round, ``n_removed`` cards are set aside unseen, uniformly at random. Every card turned
face up is known to be in play, so given the ``seen`` cards the removed ones are a uniform subset
of the ``U = n_cards - len(seen)`` unseen cards. Everything here follows from that one fact:
hypergeometric answers for "is 28 still coming?" and "how many of these were removed?", and
combinatorial ones for the runs the in-play cards form. Each exact function has an ``mc_*`` twin
that samples removed sets in vectorized batches and returns an :class:`Estimate` with a
confidence interval, so a notebook can show the exact value and a simulation converging to it
(:func:`convergence`). Exact answers are computed in integers (``math.comb`` or an int64 dynamic
program whose counts cannot overflow for decks up to 62 cards) and rounded once to a float.
Wherever a ``seen`` argument is taken, a :class:`~nothanks_lab.view.PlayerView` may be passed
instead: its seen cards and rules are used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from math import comb
from typing import NamedTuple

import numpy as np

from .rules import Rules
from .stats import Interval, mean_interval, proportion_interval
from .validate import check_number, check_sequence, is_int, make_rng
from .view import PlayerView

__all__ = [
    "ConvergenceRow",
    "Estimate",
    "convergence",
    "expected_card_points_all",
    "expected_run_count",
    "gaps",
    "longest_run_pmf",
    "mc_expected_card_points_all",
    "mc_expected_run_count",
    "mc_longest_run_pmf",
    "mc_p_all_in_play",
    "mc_p_gap_fillable",
    "mc_p_in_play_each",
    "mc_p_longest_run_at_least",
    "mc_removed_count_pmf",
    "mc_run_count_pmf",
    "p_all_in_play",
    "p_gap_fillable",
    "p_in_play_each",
    "p_longest_run_at_least",
    "removed_count_pmf",
    "run_count_pmf",
    "sample_in_play",
    "sample_removed",
]

Cards = int | Iterable[int]
"""One card number or a collection of card numbers."""
Seen = Iterable[int] | PlayerView
"""Cards turned face up so far, or a view whose seen cards (and rules) are used."""
Seed = int | np.random.Generator | np.random.SeedSequence | None
"""Anything :func:`numpy.random.default_rng` accepts."""

#: Samples drawn per vectorized batch; bounds memory (a batch holds ``_BATCH x n_cards`` keys).
_BATCH = 1 << 16


# --------------------------------------------------------------------------------------------
# Input checking
# --------------------------------------------------------------------------------------------


#: Building a `Rules` validates it (~20 us), so the default rule set is built once.
_STANDARD = Rules()


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return _STANDARD
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nothanks_lab.Rules or None; got {rules!r}")
    return rules


def _card_tuple(cards: Cards, rules: Rules, what: str, *, strict: bool = False) -> tuple[int, ...]:
    """`cards` as a tuple of distinct ints in the deck, or a ValueError naming the problem.

    A set of cards asked about (or seen) may name a card twice, which changes nothing; a hand
    (`strict`) that holds a card twice is malformed.
    """
    if isinstance(cards, (str, bytes)):
        raise ValueError(f"{what} must be card numbers, not the text {cards!r}")
    if isinstance(cards, (int, np.integer)) and not isinstance(cards, bool):
        cards = (cards,)
    try:
        items = list(cards)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(
            f"{what} must be a card number or a collection of card numbers; got {cards!r}"
        ) from None
    out = rules.check_cards(items, what)
    if not strict:
        return tuple(dict.fromkeys(out))
    if len(set(out)) != len(out):
        dupes = sorted({c for c in out if out.count(c) > 1})
        raise ValueError(f"{what} name each card at most once; {dupes} appear more than once")
    return out


def _resolve_seen(seen: Seen, rules: Rules | None) -> tuple[Rules, frozenset[int]]:
    """The rule set and seen cards of a query, from a view or from explicit cards."""
    if isinstance(seen, PlayerView):
        if rules is not None and rules != seen.rules:
            raise ValueError(f"rules {rules!r} differ from the view's rules {seen.rules!r}")
        return seen.rules, seen.seen_cards
    rules = _rules(rules)
    cards = _card_tuple(seen, rules, "seen cards")
    _check_seen_count(len(cards), rules)
    return rules, frozenset(cards)


def _check_seen_count(n_seen: int, rules: Rules) -> None:
    if n_seen > rules.n_in_play:
        raise ValueError(
            f"{n_seen} seen cards, but a round turns at most {rules.n_in_play} face up "
            f"({rules.n_removed} of the {rules.n_cards} cards are removed)"
        )


def _check_n(n: int, least: int = 1) -> int:
    if not is_int(n) or n < least:
        raise ValueError(f"n (the number of simulated rounds) must be a whole number >= {least}")
    return int(n)


def _check_level(level: float) -> float:
    level = check_number(level, "level (the confidence level)")
    if not 0.0 < level < 1.0:
        raise ValueError(
            f"level (the confidence level) must lie strictly between 0 and 1; got {level!r}"
        )
    return float(level)


def _comb(n: int, k: int) -> int:
    """Binomial coefficient that is 0 outside 0 <= k <= n (math.comb refuses k < 0)."""
    return comb(n, k) if k >= 0 else 0


def _ratio(num: int, den: int) -> float:
    # Python's int / int is correctly rounded, so an exact count ratio loses nothing extra.
    return num / den


# --------------------------------------------------------------------------------------------
# Exact: which cards are in play
# --------------------------------------------------------------------------------------------


def p_all_in_play(cards: Cards, seen: Seen = (), rules: Rules | None = None) -> float:
    """Chance that every card in `cards` is in play, given the `seen` cards are.

    Among the ``U`` unseen cards exactly ``n_removed`` are removed, uniformly; the ``m`` unseen
    cards asked about are all in play when the removed ones come from the other ``U - m``:
    ``C(U - m, n_removed) / C(U, n_removed)``. A card already seen counts as certainly in play.

    Is 28 still coming, at the start of a standard round? 24 of the 33 cards are played:

    >>> round(p_all_in_play([28]), 4), round(24 / 33, 4)
    (0.7273, 0.7273)

    Holding 27 and 29 (both seen) with nothing else turned, 22 of the 31 unseen cards are in play:

    >>> round(p_all_in_play(28, seen=[27, 29]), 4)
    0.7097
    >>> p_all_in_play([27, 29], seen=[27, 29])
    1.0
    """
    rules, seen_set = _resolve_seen(seen, rules)
    asked = _card_tuple(cards, rules, "cards")
    m = sum(c not in seen_set for c in asked)
    unseen = rules.n_cards - len(seen_set)
    return _ratio(comb(unseen - m, rules.n_removed), comb(unseen, rules.n_removed))


def removed_count_pmf(cards: Cards, seen: Seen = (), rules: Rules | None = None) -> np.ndarray:
    """Distribution of how many of the unseen cards in `cards` were removed (hypergeometric).

    Entry ``j`` is the chance that exactly ``j`` of the ``m`` unseen cards asked about are among
    the removed, for ``j = 0 .. m``. Seen cards in `cards` are in play, so they do not count.

    How many of the five highest cards were set aside in a standard round?

    >>> np.round(removed_count_pmf(range(31, 36)), 3)
    array([0.179, 0.403, 0.307, 0.098, 0.013, 0.001])

    With 30 seen, only 31 is in question: 9 of the 32 unseen cards were removed.

    >>> removed_count_pmf([30, 31], seen=[30])
    array([0.71875, 0.28125])
    """
    rules, seen_set = _resolve_seen(seen, rules)
    asked = _card_tuple(cards, rules, "cards")
    m = sum(c not in seen_set for c in asked)
    unseen = rules.n_cards - len(seen_set)
    r = rules.n_removed
    total = comb(unseen, r)
    return np.array([_ratio(comb(m, j) * _comb(unseen - m, r - j), total) for j in range(m + 1)])


def p_in_play_each(seen: Seen = (), rules: Rules | None = None) -> dict[int, float]:
    """Chance that each card of the deck is in play: 1 for a seen card, the same for the rest.

    The cards still face down are a uniform subset of the unseen ones, so every unseen card has
    the chance ``(n_in_play - len(seen)) / (n_cards - len(seen))`` of still coming.

    >>> p = p_in_play_each(seen=[3, 10, 27, 29])
    >>> p[27], round(p[28], 4), round(20 / 29, 4)
    (1.0, 0.6897, 0.6897)
    """
    rules, seen_set = _resolve_seen(seen, rules)
    unseen = rules.n_cards - len(seen_set)
    p_unseen = _ratio(rules.n_in_play - len(seen_set), unseen) if unseen else 0.0
    return {c: 1.0 if c in seen_set else p_unseen for c in rules.cards}


def gaps(hand: Cards | PlayerView, rules: Rules | None = None) -> list[tuple[int, ...]]:
    """The cards missing between consecutive runs of a hand, one tuple per gap, ascending.

    Filling a gap joins two runs, so the higher run stops scoring.

    >>> gaps([27, 29])
    [(28,)]
    >>> gaps([20, 23, 8, 13, 14, 15, 17])
    [(9, 10, 11, 12), (16,), (18, 19), (21, 22)]
    >>> gaps([5])
    []
    """
    if isinstance(hand, PlayerView):
        cards = sorted(hand.my_hand)
    else:
        cards = sorted(_card_tuple(hand, _rules(rules), "hand cards", strict=True))
    return [tuple(range(a + 1, b)) for a, b in pairwise(cards) if b > a + 1]


def _gap_query(
    hand: Cards | PlayerView, seen: Seen, rules: Rules | None, taken: Iterable[int]
) -> tuple[Rules, frozenset[int], frozenset[int], list[tuple[int, ...]]]:
    """Rules, all seen cards, taken cards and gaps of a gap question (view or explicit)."""
    if isinstance(hand, PlayerView):
        if not (isinstance(seen, tuple) and seen == ()) or tuple(taken) != ():
            raise ValueError("pass either a PlayerView or hand/seen/taken cards, not both")
        view = hand
        rules, seen_set = _resolve_seen(view, rules)
        taken_set = frozenset(c for h in view.hands for c in h)
        return rules, seen_set, taken_set, gaps(view)
    rules, seen_set = _resolve_seen(seen, rules)
    hand_t = _card_tuple(hand, rules, "hand cards", strict=True)
    taken_set = frozenset(_card_tuple(taken, rules, "taken cards")) | frozenset(hand_t)
    # The hand and every taken card were turned face up, so they are seen too.
    seen_set = seen_set | taken_set
    _check_seen_count(len(seen_set), rules)
    return rules, seen_set, taken_set, gaps(hand_t, rules)


def p_gap_fillable(
    hand: Cards | PlayerView,
    seen: Seen = (),
    rules: Rules | None = None,
    *,
    taken: Iterable[int] = (),
) -> dict[tuple[int, ...], float]:
    """For each gap in `hand`, the chance that all its cards can still come to the table.

    A gap is fillable when none of its cards is already in someone's hand (`taken`; the
    `hand` itself counts as taken and seen) and every unseen one is in play. A gap card that
    is seen but not taken (the active card) counts as available. Given a
    :class:`~nothanks_lab.view.PlayerView`, the hand is the view's own, and every seat's cards
    are taken.

    Holding 27 and 29 at the start of a standard round: 22 of the 31 unseen cards are in play.

    >>> {g: round(p, 4) for g, p in p_gap_fillable([27, 29]).items()}
    {(28,): 0.7097}
    >>> {g: round(p, 4) for g, p in p_gap_fillable([20, 23, 27, 29], taken=[28]).items()}
    {(21, 22): 0.4524, (24, 25, 26): 0.2958, (28,): 0.0}
    """
    rules, seen_set, taken_set, gap_list = _gap_query(hand, seen, rules, taken)
    unseen = rules.n_cards - len(seen_set)
    out = {}
    for gap in gap_list:
        if any(c in taken_set for c in gap):
            out[gap] = 0.0
            continue
        m = sum(c not in seen_set for c in gap)
        out[gap] = _ratio(comb(unseen - m, rules.n_removed), comb(unseen, rules.n_removed))
    return out


# --------------------------------------------------------------------------------------------
# Exact: runs of the in-play cards
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Monte Carlo
# --------------------------------------------------------------------------------------------


#: A simulated value with its confidence interval: the package's one interval type,
#: :class:`nothanks_lab.stats.Interval` (``value``, ``low``, ``high``, ``n``, ``level``).
Estimate = Interval


def _wilson(successes: np.ndarray, n: int, level: float) -> list[Estimate]:
    """Wilson intervals (scipy's) for the proportions `successes / n`, one per entry."""
    k = np.asarray(successes, dtype=np.int64).ravel()
    return [proportion_interval(int(ki), n, level=level, method="wilson") for ki in k]


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
    n = _check_n(n)
    rules, seen_set = _resolve_seen(seen, rules)
    rng = make_rng(seed)
    unseen = np.array([c for c in rules.cards if c not in seen_set], dtype=np.int64)
    r = rules.n_removed
    if r == len(unseen):  # every in-play card was seen: the removed set is known
        return np.broadcast_to(unseen, (n, r)).copy()
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
    n = _check_n(n)
    rules, seen_set = _resolve_seen(seen, rules)
    removed = sample_removed(n, seen_set, rules, seed=seed)
    out = np.ones((n, rules.n_cards), dtype=bool)
    out[np.arange(n)[:, None], removed - rules.low_card] = False
    return out


def _simulate(
    stat: Callable[[np.ndarray], np.ndarray],
    n: int,
    seen: frozenset[int],
    rules: Rules,
    seed: Seed,
) -> np.ndarray:
    """Apply `stat` to `n` sampled in-play masks, in batches; concatenated along axis 0."""
    rng = make_rng(seed)
    parts = []
    done = 0
    while done < n:
        size = min(_BATCH, n - done)
        parts.append(stat(sample_in_play(size, seen, rules, seed=rng)))
        done += size
    return np.concatenate(parts, axis=0)


def _run_starts(x: np.ndarray) -> np.ndarray:
    """bool [n, n_cards]: the card is in play and the card below it is not."""
    starts = x.copy()
    starts[:, 1:] &= ~x[:, :-1]
    return starts


def _longest_run(x: np.ndarray) -> np.ndarray:
    current = np.zeros(len(x), dtype=np.int64)
    best = np.zeros(len(x), dtype=np.int64)
    for col in x.T:
        current = (current + 1) * col
        np.maximum(best, current, out=best)
    return best


def _column(rules: Rules, cards: Iterable[int]) -> np.ndarray:
    return np.array([c - rules.low_card for c in cards], dtype=np.int64)


def mc_p_all_in_play(
    cards: Cards,
    seen: Seen = (),
    rules: Rules | None = None,
    *,
    n: int = 10_000,
    seed: Seed = None,
    level: float = 0.95,
) -> Estimate:
    """Simulated twin of :func:`p_all_in_play`: share of sampled rounds with all `cards` in play.

    >>> est = mc_p_all_in_play(28, seen=[27, 29], n=20_000, seed=5)
    >>> est.covers(p_all_in_play(28, seen=[27, 29])), round(est.half_width, 3)
    (True, 0.006)
    """
    n, level = _check_n(n), _check_level(level)
    rules, seen_set = _resolve_seen(seen, rules)
    cols = _column(rules, _card_tuple(cards, rules, "cards"))
    hits = _simulate(lambda x: np.asarray(x[:, cols].all(axis=1)), n, seen_set, rules, seed)
    return _wilson(hits.sum(), n, level)[0]


def mc_removed_count_pmf(
    cards: Cards,
    seen: Seen = (),
    rules: Rules | None = None,
    *,
    n: int = 10_000,
    seed: Seed = None,
    level: float = 0.95,
) -> list[Estimate]:
    """Simulated twin of :func:`removed_count_pmf`: one estimate per count j = 0 .. m."""
    n, level = _check_n(n), _check_level(level)
    rules, seen_set = _resolve_seen(seen, rules)
    unseen_asked = [c for c in _card_tuple(cards, rules, "cards") if c not in seen_set]
    cols = _column(rules, unseen_asked)
    n_out = _simulate(lambda x: (~x[:, cols]).sum(axis=1), n, seen_set, rules, seed)
    return _wilson(np.bincount(n_out, minlength=len(cols) + 1), n, level)


def mc_p_in_play_each(
    seen: Seen = (),
    rules: Rules | None = None,
    *,
    n: int = 10_000,
    seed: Seed = None,
    level: float = 0.95,
) -> dict[int, Estimate]:
    """Simulated twin of :func:`p_in_play_each`: per card, the share of rounds it is in play."""
    n, level = _check_n(n), _check_level(level)
    rules, seen_set = _resolve_seen(seen, rules)
    counts = np.zeros(rules.n_cards, dtype=np.int64)
    rng = make_rng(seed)
    done = 0
    while done < n:  # accumulate counts rather than keep n x n_cards samples
        size = min(_BATCH, n - done)
        counts += sample_in_play(size, seen_set, rules, seed=rng).sum(axis=0)
        done += size
    return dict(zip(rules.cards, _wilson(counts, n, level), strict=True))


def mc_p_gap_fillable(
    hand: Cards | PlayerView,
    seen: Seen = (),
    rules: Rules | None = None,
    *,
    taken: Iterable[int] = (),
    n: int = 10_000,
    seed: Seed = None,
    level: float = 0.95,
) -> dict[tuple[int, ...], Estimate]:
    """Simulated twin of :func:`p_gap_fillable`: one estimate per gap of the hand."""
    n, level = _check_n(n), _check_level(level)
    rules, seen_set, taken_set, gap_list = _gap_query(hand, seen, rules, taken)
    if not gap_list:
        return {}
    ok = np.array([not any(c in taken_set for c in g) for g in gap_list])
    cols = [_column(rules, g) for g in gap_list]

    def stat(x: np.ndarray) -> np.ndarray:
        return np.stack([x[:, c].all(axis=1) & k for c, k in zip(cols, ok, strict=True)], axis=1)

    hits = _simulate(stat, n, seen_set, rules, seed).sum(axis=0)
    return dict(zip(gap_list, _wilson(hits, n, level), strict=True))


def mc_run_count_pmf(
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    level: float = 0.95,
) -> list[Estimate]:
    """Simulated twin of :func:`run_count_pmf`: one estimate per run count (same length)."""
    n, level = _check_n(n), _check_level(level)
    rules, seen_set = _resolve_seen(seen, rules)
    runs = _simulate(lambda x: _run_starts(x).sum(axis=1), n, seen_set, rules, seed)
    return _wilson(np.bincount(runs, minlength=_max_runs(rules) + 1), n, level)


def mc_longest_run_pmf(
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    level: float = 0.95,
) -> list[Estimate]:
    """Simulated twin of :func:`longest_run_pmf`: one estimate per length 0 .. n_in_play."""
    n, level = _check_n(n), _check_level(level)
    rules, seen_set = _resolve_seen(seen, rules)
    longest = _simulate(_longest_run, n, seen_set, rules, seed)
    return _wilson(np.bincount(longest, minlength=rules.n_in_play + 1), n, level)


def mc_p_longest_run_at_least(
    k: int,
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    level: float = 0.95,
) -> Estimate:
    """Simulated twin of :func:`p_longest_run_at_least`."""
    if not is_int(k) or k < 0:
        raise ValueError(f"k (a run length) must be a whole number >= 0; got {k!r}")
    n, level = _check_n(n), _check_level(level)
    rules, seen_set = _resolve_seen(seen, rules)
    longest = _simulate(_longest_run, n, seen_set, rules, seed)
    return _wilson((longest >= int(k)).sum(), n, level)[0]


def mc_expected_card_points_all(
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    level: float = 0.95,
) -> Estimate:
    """Simulated twin of :func:`expected_card_points_all` (mean with a t interval)."""
    n, level = _check_n(n, least=2), _check_level(level)
    rules, seen_set = _resolve_seen(seen, rules)
    values = np.array(rules.cards, dtype=np.int64)
    points = _simulate(lambda x: _run_starts(x) @ values, n, seen_set, rules, seed)
    return mean_interval(points, level=level)


def mc_expected_run_count(
    rules: Rules | None = None,
    *,
    seen: Seen = (),
    n: int = 10_000,
    seed: Seed = None,
    level: float = 0.95,
) -> Estimate:
    """Simulated twin of :func:`expected_run_count` (mean with a t interval)."""
    n, level = _check_n(n, least=2), _check_level(level)
    rules, seen_set = _resolve_seen(seen, rules)
    runs = _simulate(lambda x: _run_starts(x).sum(axis=1), n, seen_set, rules, seed)
    return mean_interval(runs, level=level)


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
    mc_fn: Callable[..., Estimate],
    ns: Iterable[int],
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
        raise ValueError(f"mc_fn must be a function returning an Estimate; got {mc_fn!r}")
    exact = check_number(exact_fn() if callable(exact_fn) else exact_fn, "exact_fn")
    sizes = [_check_n(n) for n in check_sequence(ns, "ns", "a sequence of simulation sizes")]
    rng = make_rng(seed)
    rows = []
    for size in sizes:
        est = mc_fn(n=size, seed=rng)
        if not isinstance(est, Estimate):
            raise ValueError(f"mc_fn must return one Estimate; got {type(est).__name__}")
        rows.append(ConvergenceRow(size, est.value, est.low, est.high, exact))
    return rows
