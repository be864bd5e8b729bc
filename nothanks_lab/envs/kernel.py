"""The compiled step of the vector environment: every round of a batch moved on in one call.

`step_batch` applies the agent's move in each round of a `core.State` batch, lets the opponents
(fast-path decision functions, dispatched by the simulator kernel's own ``decide``) move until
the agent is to act again, scores a finished round with :func:`nothanks_lab.core.score_rows`
and deals the next one in its place (auto-reset) with :func:`nothanks_lab.deals.deal_into`, and
writes each observation with :func:`nothanks_lab.envs.encoding.encode_into`. Nothing restates a
rule: the moves are `core.step`, the forced take at zero chips is `core.can_pass`, the facts an
opponent decides on are `core.decision_facts`, exactly as in the simulator's playout loop
(:mod:`nothanks_lab.fast.loops`). The functions are plain
Python in the subset numba compiles; :mod:`.vector` compiles them with
:func:`nothanks_lab.jit.jit_pure`, passing the kernel's ``decide`` as an argument.

Round ``k`` (counting from 0 at the last reset) of environment ``g`` of ``B`` is game
``k * B + g`` of the deal stream ``(key0, key1)``, so its deck is
``deals.deal_decks(rules, seed=seed, start=k * B + g, count=1)[0]`` whatever order the rounds
end in.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import core, deals
from .encoding import encode_into

__all__ = ["Table", "advance", "observe", "restart", "step_batch"]


def advance(
    s: core.State, g: int, seat: int, kinds: np.ndarray, params: np.ndarray, decide: Any
) -> None:
    """Let the opponents of round `g` move until `seat` is to act or the round is over.

    Opponent row ``r`` of `kinds` / `params` sits at seat ``r`` below `seat`, ``r + 1`` above.
    """
    while not core.is_over(s, g) and s.player[g] != seat:
        p = s.player[g]
        take = True  # forced when the seat has no chip to pass with
        if core.can_pass(s, g):
            r = p if p < seat else p - 1
            take = decide(kinds[r], params[r], *core.decision_facts(s, g))
        core.step(s, g, take)


def restart(
    s: core.State,
    g: int,
    key0: np.uint64,
    key1: np.uint64,
    game: np.int64,
    low_card: np.int64,
    n_cards: np.int64,
    starting_chips: int,
    first_player: int,
    box: np.ndarray,
    deal: bool,
) -> None:
    """Set round `g` up as `core.new_state` does, first dealing it game `game` of the stream
    if `deal` (else it keeps the deck ``s.deck[g]`` holds)."""
    if deal:
        deals.deal_into(key0, key1, game, low_card, n_cards, s.deck[g], box)
    s.turned[g] = 0
    s.player[g] = first_player
    s.pot[g] = 0
    for q in range(s.chips.shape[1]):
        s.chips[g, q] = starting_chips
        s.hands[g, q] = 0


def observe(
    s: core.State,
    g: int,
    seat: int,
    out: np.ndarray,
    mask: np.ndarray,
    low_card: np.int64,
    n_cards: np.int64,
) -> None:
    """`seat`'s observation of round `g` into `out` and its action mask ``[pass, take]``."""
    over = core.is_over(s, g)
    left = s.deck.shape[1] - s.turned[g] - 1
    encode_into(
        out,
        -1 if over else core.active_card(s, g),
        s.pot[g],
        seat,
        s.hands[g],
        s.chips[g],
        left if left > 0 else 0,
        low_card,
        n_cards,
    )
    mask[1] = 0 if over else 1
    mask[0] = 1 if (not over and s.chips[g, seat] > 0) else 0


def step_batch(
    s: core.State,
    actions: np.ndarray,
    table: Any,
    decide: Any,
    episodes: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    final_obs: np.ndarray,
    scratch: np.ndarray,
    share: np.ndarray,
    winners: np.ndarray,
    box: np.ndarray,
) -> None:
    """One agent move in every round (``actions[g]``: 1 take, 0 pass, legal: checked by the
    caller), the opponents' replies, and for a round that ends: its reward, its last
    observation in ``final_obs[g]``, ``done[g]``, and the next round dealt and played up to the
    agent's turn. ``actions[g] == -1`` instead deals round `g` afresh (a reset), ``-2`` restarts
    it on the deck it holds. `table` is a
    `Table`; `scratch` int64[2, P], `share` float64[1, P] and `winners` bool[1, P] are
    `score_rows`' buffers; `box` int64[n_cards] the dealer's."""
    seat = table.seat
    n = s.chips.shape[1]
    b = s.deck.shape[0]
    for g in range(b):
        rewards[g] = 0.0
        done[g] = False
        if actions[g] >= 0:
            core.step(s, g, actions[g] == 1)
            advance(s, g, seat, table.kinds, table.params, decide)
            if not core.is_over(s, g):
                observe(s, g, seat, obs[g], masks[g], table.low_card, table.n_cards)
                continue
            for q in range(n):
                scratch[0, q] = core.card_points_mask(s.hands[g, q])
            core.score_rows(scratch[0:1], s.chips[g : g + 1], scratch[1:2], winners, share)
            rewards[g] = share[0, seat] if table.win_share else -scratch[1, seat]
            done[g] = True
            observe(s, g, seat, final_obs[g], masks[g], table.low_card, table.n_cards)
            episodes[g] += 1
        deal = actions[g] != -2
        while True:  # a round the opponents finish before the agent's turn is dealt again
            restart(
                s,
                g,
                table.key0,
                table.key1,
                np.int64(episodes[g] * b + g),
                table.low_card,
                table.n_cards,
                table.starting_chips,
                table.first_player,
                box,
                deal,
            )
            deal = True
            advance(s, g, seat, table.kinds, table.params, decide)
            if not core.is_over(s, g):
                break
            episodes[g] += 1
        observe(s, g, seat, obs[g], masks[g], table.low_card, table.n_cards)


class Table(NamedTuple):
    """The fixed facts of a vector environment's table, as the kernel reads them."""

    seat: int
    """The agent's seat."""
    kinds: np.ndarray
    """int64[P - 1]: each opponent's decision kind (in the kernel module's numbering)."""
    params: np.ndarray
    """float64[P - 1, K]: each opponent's ``fast_params``."""
    key0: np.uint64
    """First word of the deal stream's key."""
    key1: np.uint64
    """Second word of the deal stream's key."""
    low_card: np.int64
    """Lowest card of the rule set."""
    n_cards: np.int64
    """Cards in the box (in play and removed)."""
    starting_chips: int
    """Chips each seat starts a round with."""
    first_player: int
    """The seat that acts first in every round."""
    win_share: bool
    """Reward the win share (True) or minus the final score (False)."""
