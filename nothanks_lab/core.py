"""The one definition of how a round of No Thanks! moves and ends: state, transitions, scoring.

A batch of rounds is a `State`, a small record of arrays with one row per round (a single
`Game` is a batch of one). Every transition is a plain function of that record and a round
index, written in the subset of Python that numba compiles. The readable engine
(:class:`nothanks_lab.engine.Game`) calls these functions as ordinary Python; the many-game
simulator (:mod:`nothanks_lab.simulation`) compiles the very same functions with ``numba.njit``.
There is no second copy of the rules to drift apart, and a differential test still plays the
same deals through both paths to prove it. `score_rows` is the one definition of a round's
result (scores, winners, tie-split win shares), for `simulate` and the search bot's rollouts;
`first_broken_law` checks a reported result against those laws (chips conserved, the formula,
the cards).

Hands are bit masks: bit ``c`` of ``hands[g, p]`` is set when seat ``p`` of round ``g`` holds
card ``c``. That makes "do I hold 27 and 29?" one AND and keeps scoring branch-light.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "LAWS",
    "State",
    "active_card",
    "can_pass",
    "card_points_mask",
    "decision_facts",
    "first_broken_law",
    "is_over",
    "marginal_points",
    "mask_of",
    "new_state",
    "score_rows",
    "step",
]


class State(NamedTuple):
    """A batch of rounds in progress (``B`` rounds, ``P`` seats, ``N`` in-play cards)."""

    deck: np.ndarray
    """int[B, N]: the in-play cards in the order they are turned face up."""
    turned: np.ndarray
    """int[B]: index into ``deck`` of the active card; ``N`` once the round is over."""
    player: np.ndarray
    """int[B]: the seat to act."""
    pot: np.ndarray
    """int[B]: chips lying on the active card."""
    chips: np.ndarray
    """int[B, P]: chips in front of each seat."""
    hands: np.ndarray
    """int64[B, P]: cards each seat holds, as bit masks."""


def new_state(decks: np.ndarray, n_players: int, starting_chips: int, first_player: int) -> State:
    """Fresh rounds: the first card of each deck face up, `first_player` to act."""
    decks = np.ascontiguousarray(decks, dtype=np.int64)
    b = decks.shape[0]
    return State(
        deck=decks,
        turned=np.zeros(b, dtype=np.int64),
        player=np.full(b, first_player, dtype=np.int64),
        pot=np.zeros(b, dtype=np.int64),
        chips=np.full((b, n_players), starting_chips, dtype=np.int64),
        hands=np.zeros((b, n_players), dtype=np.int64),
    )


def is_over(s: State, g: int) -> bool:
    """The round ends when the last in-play card has been taken."""
    over: bool = s.turned[g] >= s.deck.shape[1]
    return over


def active_card(s: State, g: int) -> int:
    """The face-up card to decide on (only meaningful while the round is not over)."""
    card: int = s.deck[g, s.turned[g]]
    return card


def can_pass(s: State, g: int) -> bool:
    """Passing costs a chip, so a seat with none must take."""
    has_chips: bool = s.chips[g, s.player[g]] > 0
    return has_chips


def decision_facts(s: State, g: int) -> tuple[int, int, int, np.ndarray, np.ndarray, int]:
    """The public facts the seat to act in round `g` decides on, in the order a decision
    function takes them after its kind and parameters: ``(card, pot, seat, hands, chips,
    cards_left)``, ``hands`` and ``chips`` being round `g`'s rows (views, not copies)."""
    cards_left: int = s.deck.shape[1] - s.turned[g] - 1
    return active_card(s, g), s.pot[g], s.player[g], s.hands[g], s.chips[g], cards_left


def step(s: State, g: int, take: bool) -> None:
    """Apply one legal move to round `g` in place.

    Taking moves the card and its chips to the taker, turns the next card face up, and the
    taker acts again. Passing puts a chip on the card and hands the turn to the next seat.
    Legality (round not over, a chip to pay with) is the caller's to check.
    """
    p = s.player[g]
    if take:
        s.hands[g, p] |= np.int64(1) << s.deck[g, s.turned[g]]
        s.chips[g, p] += s.pot[g]
        s.pot[g] = 0
        s.turned[g] += 1  # next card face up; the same seat acts again
    else:
        s.chips[g, p] -= 1
        s.pot[g] += 1
        nxt = p + 1  # clockwise; a compare, not `%`: a division per pass is slow compiled
        s.player[g] = nxt if nxt < s.chips.shape[1] else 0


def mask_of(cards: tuple[int, ...] | list[int]) -> int:
    """Bit mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def card_points_mask(mask: int) -> int:
    """Card points of a hand given as a bit mask: the sum of the lowest card of each run."""
    starts = mask & ~(mask << 1)  # a card whose predecessor is absent starts a run
    total = 0
    # Every bit, not "until no start is left": a fixed count compiles to a loop without an
    # unpredictable exit (~10% of the simulator's time).
    for c in range(64):
        if (starts >> c) & 1:
            total += c
    return total


def marginal_points(mask: int, card: int) -> int:
    """Change in card points if `card` joins the hand `mask` (not already in it).

    A card alone adds its value; one extending a run downward from above adds nothing;
    one placed just below a run replaces that run's lowest card (``-1``); one filling a
    one-card gap merges two runs and removes the upper run's lowest card.
    """
    below = (mask >> (card - 1)) & 1
    above = (mask >> (card + 1)) & 1
    if below:
        return -(card + 1) if above else 0
    return -1 if above else card


def score_rows(
    points: np.ndarray,
    chips: np.ndarray,
    scores: np.ndarray,
    winners: np.ndarray,
    win_share: np.ndarray,
) -> None:
    """Fill each game's scores, winners and win shares from its card points and chips.

    The one definition of the result: a score is card points minus chips, the lowest score
    wins, and ``k`` tied winners get ``1/k`` each. Used by `simulate` and the search bot.

    Written in the subset of Python that numba compiles: one pass over the rows, where numpy
    would make five (and per-row minimums of a few seats are slow in numpy).
    """
    n = points.shape[1]
    for g in range(points.shape[0]):
        best = points[g, 0] - chips[g, 0]
        for p in range(n):
            scores[g, p] = points[g, p] - chips[g, p]
            best = min(best, scores[g, p])
        tied = 0
        for p in range(n):
            winners[g, p] = scores[g, p] == best
            tied += winners[g, p]
        for p in range(n):
            win_share[g, p] = winners[g, p] / tied


#: What each broken law of `first_broken_law` means, by its code (0 = none broken).
LAWS = (
    "",
    "does not conserve chips",
    "has a seat with negative chips",
    "does not score card points minus chips",
    "takes fewer cards than are in play",
    "has card points no deal of its cards can give",
    "names the wrong winners",
    "shares the win wrongly",
)


def first_broken_law(
    points: np.ndarray,
    chips: np.ndarray,
    scores: np.ndarray,
    winners: np.ndarray,
    win_share: np.ndarray,
    n_decisions: np.ndarray,
    chips0: np.int64,
    n_in_play: np.int64,
    low_card: np.int64,
    n_cards: np.int64,
    decks: np.ndarray,
) -> tuple[int, int]:
    """(row, law code) of the first game breaking a law of `LAWS`, or (-1, 0) (numba-compilable).

    One pass over the rows, as `score_rows` makes them. `decks` holds each game's in-play
    cards (or no rows, when they were dealt inside the kernel: then the card-point bounds are
    those of any deal).
    """
    n, p = points.shape
    seen = np.zeros(n_cards + 1, dtype=np.bool_)
    top_any = np.int64(0)
    for k in range(n_in_play):
        top_any += low_card + n_cards - 1 - k
    for g in range(n):
        total_chips = np.int64(0)
        total_points = np.int64(0)
        best = scores[g, 0]
        for s in range(p):
            total_chips += chips[g, s]
            total_points += points[g, s]
            best = min(best, scores[g, s])
            if chips[g, s] < 0:
                return g, 2
            if scores[g, s] != points[g, s] - chips[g, s]:
                return g, 3
        if total_chips != p * chips0:
            return g, 1
        if n_decisions[g] < n_in_play:
            return g, 4
        low, top = low_card, top_any
        if decks.shape[0] > 0:
            seen[:] = False
            top = np.int64(0)
            for c in decks[g]:
                seen[c - low_card + 1] = True
                top += c
            low = np.int64(0)
            for c in decks[g]:
                if not seen[c - low_card]:  # the lowest card of its run
                    low += c
        if total_points < low or total_points > top:
            return g, 5
        tied = 0
        for s in range(p):
            if winners[g, s] != (scores[g, s] == best):
                return g, 6
            tied += winners[g, s]
        for s in range(p):
            share = 1.0 / tied if winners[g, s] else 0.0
            if abs(win_share[g, s] - share) > 1e-12:
                return g, 7
    return -1, 0
