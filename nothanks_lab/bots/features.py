"""Public-fact features that several bots' compiled decisions read, each written once.

The heuristic bot (`heuristic_terms_after_passes`) and the linear bot (`linear_features`) look
at the same facts of a position: how late in the round it is, whether a card may bridge two of
the seat's runs, how many rivals a card fits, which rival leads and whether the card extends
that leader's runs, and what each seat holds once a round of passes has been paid. Each fact is
one pure, numba-compilable function here, taking the arguments of a ``FAST_DECIDE`` (bit-mask
``hands``, ``chips``) and the rule constants, so `jit_pure` compiles it with its callers and a
bot's ``act`` runs the very same code as the simulator's fast path.
"""

from __future__ import annotations

import numpy as np

from ..core import card_points_mask, marginal_points

__all__ = [
    "bridge_chance",
    "chips_after_passes",
    "lateness",
    "leader_block",
    "rivals_fitting",
]


def lateness(cards_left: int, low: int, high: int, n_removed: float) -> float:
    """Share of the in-play cards already turned: 0 at a round's first card, 1 at its last.

    >>> lateness(23, 3, 35, 9.0), lateness(0, 3, 35, 9.0)
    (0.0, 1.0)
    """
    in_play = high - low + 1 - n_removed
    return 1.0 - cards_left / max(1.0, in_play - 1.0)


def bridge_chance(
    card: int,
    seat: int,
    hands: np.ndarray,
    cards_left: int,
    low: int,
    high: int,
    n_removed: float,
) -> float:
    """Chance that `card` may later join two of `seat`'s runs (pure, numba-compilable).

    For a card two away from one of the seat's cards with the card between unseen: the chance
    that a given unseen card is still to come, ``cards_left / (cards_left + n_removed)``;
    otherwise 0.
    """
    mine = hands[seat]
    seen = np.int64(1) << card
    for o in range(hands.shape[0]):
        seen |= hands[o]
    for d in (-2, 2):
        nb = card + d
        mid = card + d // 2
        if low <= nb <= high and (mine >> nb) & 1 and not (seen >> mid) & 1:
            return cards_left / (cards_left + n_removed) if cards_left + n_removed > 0 else 0.0
    return 0.0


def chips_after_passes(chips: np.ndarray, q: int, first: int, n_paid: int) -> int:
    """Seat `q`'s chips once `n_paid` seats, clockwise from `first`, have each paid one chip.

    Reads ``chips`` without changing it (pure, numba-compilable), so a caller can look ahead
    at a pass round without copying or mutating the array.
    """
    own: int = chips[q]
    if n_paid == 0:  # a seat's own decisions: keep them as cheap as a plain read
        return own
    k = q - first
    if k < 0:
        k += chips.shape[0]
    return own - 1 if k < n_paid else own


def rivals_fitting(card: int, seat: int, hands: np.ndarray) -> int:
    """How many of `seat`'s rivals would not raise their card points by taking `card`."""
    n_fit = 0
    for o in range(hands.shape[0]):
        if o != seat and marginal_points(hands[o], card) <= 0:
            n_fit += 1
    return n_fit


def leader_block(
    card: int, seat: int, hands: np.ndarray, chips: np.ndarray, first: int, n_paid: int
) -> tuple[int, bool]:
    """The best (lowest) rival score, and whether `card` extends that leader's runs while the
    leader leads or ties `seat`; chips as seen after `n_paid` passes from `first`.

    The leader is the first rival with the best score in turn order from `seat`, so ties go the
    same way from every seat.
    """
    n = hands.shape[0]
    leader = -1
    best = 1 << 30
    for k in range(1, n):
        o = (seat + k) % n
        s = card_points_mask(hands[o]) - chips_after_passes(chips, o, first, n_paid)
        if s < best:
            best = s
            leader = o
    mine = card_points_mask(hands[seat]) - chips_after_passes(chips, seat, first, n_paid)
    return best, bool(marginal_points(hands[leader], card) <= 0 and best <= mine)
