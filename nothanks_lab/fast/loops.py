"""The playout loop every compiled kernel runs: plain Python over :mod:`nothanks_lab.core`.

`play_rounds` deals (or takes) each round's deck and plays it to the end through `core`'s
transitions, asking ``decide(kind, params, ...)`` at every decision a seat can pass on;
`play_chunk` gives it the dealer's scratch space. Nothing here is called as it stands: the
source of these two functions is read once, at import, by :mod:`nothanks_lab.fast.kernel`,
which pastes it into each generated kernel module beside that module's own ``decide`` (an
if-chain over its kinds) and compiled ``core`` and ``deals``, and numba compiles it there.
`decide` below only names the dispatch the loop calls and documents its arguments.
"""

from __future__ import annotations

import numpy as np

from .. import core, deals

__all__ = ["decide", "play_chunk", "play_rounds"]


def decide(
    kind: int,
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
) -> bool:
    """Dispatch to the decision function of `kind` (each kernel module defines its own)."""
    raise NotImplementedError("decide is generated per set of kinds by kernel_module")


def play_chunk(
    s: core.State,
    kinds: np.ndarray,
    params: np.ndarray,
    deal: bool,
    key0: np.uint64,
    key1: np.uint64,
    start: np.int64,
    low_card: np.int64,
    n_cards: np.int64,
    points: np.ndarray,
    n_decisions: np.ndarray,
) -> None:
    """Play every round of the batch `s` to the end (compiled by `kernel_module`).

    With `deal`, round ``g``'s deck is first dealt as game ``start + g`` of the stream
    (`key0`, `key1`); otherwise ``s.deck`` already holds it. Seat ``p`` decides with
    ``decide(kinds[p], params[p], ...)``; a seat without chips takes. Writes each seat's card
    points into `points` and the number of moves into `n_decisions`; ``s.chips`` ends as the
    final chips.
    """
    box = np.empty(n_cards, dtype=np.int64)  # the dealer's scratch space
    play_rounds(
        s, kinds, params, deal, key0, key1, start, low_card, n_cards, points, n_decisions, box
    )


def play_rounds(
    s: core.State,
    kinds: np.ndarray,
    params: np.ndarray,
    deal: bool,
    key0: np.uint64,
    key1: np.uint64,
    start: np.int64,
    low_card: np.int64,
    n_cards: np.int64,
    points: np.ndarray,
    n_decisions: np.ndarray,
    box: np.ndarray,
) -> None:
    """The loop of `play_chunk`, given the dealer's scratch space `box` (int64[n_cards]).

    It allocates nothing, so it is compiled without reference counting (see `kernel_module`).
    """
    for g in range(s.deck.shape[0]):
        if deal:
            deals.deal_into(key0, key1, start + g, low_card, n_cards, s.deck[g], box)
        moves = 0
        while not core.is_over(s, g):
            p = s.player[g]
            take = True  # forced when the seat has no chip to pass with
            if core.can_pass(s, g):
                take = decide(kinds[p], params[p], *core.decision_facts(s, g))
            core.step(s, g, take)
            moves += 1
        n_decisions[g] = moves
        for q in range(s.hands.shape[1]):
            points[g, q] = core.card_points_mask(s.hands[g, q])
