"""Exact chances of which cards are in play, given the cards seen so far.

Before a round, ``n_removed`` cards are set aside unseen, uniformly at random. Every card turned
face up is known to be in play, so given the ``seen`` cards the removed ones are a uniform subset
of the ``U = n_cards - len(seen)`` unseen cards. The answers here follow from that one fact by
hypergeometric counting: "is 28 still coming?" (:func:`p_all_in_play`), "how many of these were
removed?" (:func:`removed_count_pmf`), each card's chance (:func:`p_in_play_each`) and whether
the gaps between a hand's runs can still be filled (:func:`gaps`, :func:`p_gap_fillable`).
Counts are exact integers (``math.comb``) divided once into a float.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from math import comb

import numpy as np

from ..rules import Rules
from ..view import PlayerView
from .common import Cards, Seen, _card_tuple, _check_seen_count, _ratio, _resolve_seen, _rules


def _comb(n: int, k: int) -> int:
    """Binomial coefficient that is 0 outside 0 <= k <= n (math.comb refuses k < 0)."""
    return comb(n, k) if k >= 0 else 0


def _p_none_removed(m: int, unseen: int, n_removed: int) -> float:
    """Chance that none of `m` given unseen cards is among `n_removed` drawn from `unseen`."""
    return _ratio(comb(unseen - m, n_removed), comb(unseen, n_removed))


def p_all_in_play(cards: Cards, seen: Seen = (), rules: Rules | None = None) -> float:
    """Chance that every card in `cards` is in play, given the `seen` cards are.

    Among the ``U`` unseen cards exactly ``n_removed`` are removed, uniformly; the ``m`` unseen
    cards asked about are all in play when the removed ones come from the other ``U - m``:
    ``C(U - m, n_removed) / C(U, n_removed)``. A card already seen counts as certainly in play.

    Parameters
    ----------
    cards : int or iterable of int
        The cards asked about.
    seen : iterable of int
        Cards turned face up so far (so certainly in play).
    rules : Rules, optional
        The rule set; the standard game when None.

    Returns
    -------
    float
        The chance, in [0, 1].

    Raises
    ------
    ValueError
        For a card outside the rule set's range, or more seen cards than a round can turn
        face up.

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
    return _p_none_removed(m, rules.n_cards - len(seen_set), rules.n_removed)


def removed_count_pmf(cards: Cards, seen: Seen = (), rules: Rules | None = None) -> np.ndarray:
    """Distribution of how many of the unseen cards in `cards` were removed (hypergeometric).

    Entry ``j`` is the chance that exactly ``j`` of the ``m`` unseen cards asked about are among
    the removed, for ``j = 0 .. m``. Seen cards in `cards` are in play, so they do not count.

    Parameters
    ----------
    cards : int or iterable of int
        The cards asked about.
    seen : iterable of int
        Cards turned face up so far (so certainly in play).
    rules : Rules, optional
        The rule set; the standard game when None.

    Returns
    -------
    numpy.ndarray
        ``m + 1`` chances (float) summing to 1.

    Raises
    ------
    ValueError
        For a card outside the rule set's range, or more seen cards than a round can turn
        face up.

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
        out[gap] = _p_none_removed(m, unseen, rules.n_removed)
    return out
