"""The compiled backward induction of `solve`: two seats, both perfect, on a dense memo.

A chance node (pot empty, a seat about to see a fresh card) is memoised in a flat float array
at index ``(hand_index * (total_chips + 1) + chips_of_seat_0) * 2 + seat_to_act``, where the
hand index gives each card a base-3 digit (0 unseen or removed, 1 held by seat 0, 2 by seat 1);
NaN marks a node not solved yet. `_value` expands a chance node by averaging over the unseen
cards and solves the short chain of passes around each card backwards, recursing into the
chance nodes the takes lead to. Everything here is numba-compiled and reads the rule set from
the int64 array `cfg` laid out by the ``_CFG_*`` indices below; the objective codes live here
too. A finished round is scored by `core`'s one definition of card points.
"""

from __future__ import annotations

import numba
import numpy as np

from .. import core
from ..jit import jit_pure

#: The values a position can be measured in; the compiled code uses their index.
OBJECTIVES = ("win", "margin")
_WIN, _MARGIN = 0, 1

# Layout of the int64 configuration array handed to the compiled search.
_CFG_N, _CFG_LOW, _CFG_IN_PLAY, _CFG_TOTAL, _CFG_OBJECTIVE = range(5)
# Counters the compiled search updates.
_STAT_NODES, _STAT_DECISIONS = range(2)


def _score(hand: int, chips: int, low: int) -> int:
    """Score of a hand mask relative to `low` (bit i = card low + i): the rules' one scoring."""
    return core.card_points_mask(hand << low) - chips


def _terminal_value(h0: int, h1: int, c0: int, c1: int, seat: int, cfg: np.ndarray) -> float:
    """Value of a finished round to `seat`."""
    s0 = _score(h0, c0, cfg[_CFG_LOW])
    s1 = _score(h1, c1, cfg[_CFG_LOW])
    mine, theirs = (s0, s1) if seat == 0 else (s1, s0)
    if cfg[_CFG_OBJECTIVE] == _MARGIN:
        return float(theirs - mine)
    if mine < theirs:
        return 1.0
    return 0.5 if mine == theirs else 0.0


# Compiled with `core`'s scoring (jit_pure follows the call into core.py), so the solver
# scores a round exactly as the engine and the simulator do; it is compiled once per process
# because numba's disk cache would not notice a change in core.py.
_terminal = jit_pure(_terminal_value)


# Not cached on disk: numba's cache of this recursive function loads into a crash (numba 0.6x),
# so it compiles (a few seconds) on the first solve of each process.
@numba.njit
def _value(
    memo: np.ndarray,
    stats: np.ndarray,
    pow3: np.ndarray,
    cfg: np.ndarray,
    h0: int,
    h1: int,
    idx: int,
    c0: int,
    c1: int,
    pot: int,
    actor: int,
    card: int,
) -> float:
    """Value to `actor` of a position, both seats playing perfectly.

    With ``card < 0`` the position is a chance node (pot empty, `actor` about to see a card
    drawn uniformly from the unseen ones), memoised in `memo`; otherwise `actor` decides on
    `card` with `pot` on it, and the chain of passes around that card is solved backwards.
    Hands `h0`, `h1` are masks relative to the lowest card, `idx` their base-3 index.
    """
    total = cfg[_CFG_TOTAL]
    win = cfg[_CFG_OBJECTIVE] == _WIN
    if card < 0:
        key = (idx * (total + 1) + c0) * 2 + actor
        v: float = memo[key]
        if v == v:
            return v
        taken = h0 | h1
        n_taken = 0
        for i in range(cfg[_CFG_N]):
            n_taken += (taken >> i) & 1
        if n_taken == cfg[_CFG_IN_PLAY]:
            v = _terminal(h0, h1, c0, c1, actor, cfg)
        else:
            acc = 0.0
            m = 0
            for i in range(cfg[_CFG_N]):
                if not (taken >> i) & 1:
                    acc += _value(memo, stats, pow3, cfg, h0, h1, idx, c0, c1, 0, actor, i)
                    m += 1
            v = acc / m
        memo[key] = v
        stats[_STAT_NODES] += 1
        return v
    # The chain of passes on `card`: at step k the actor is `actor` for even k and the other
    # seat for odd k; it ends at the first step whose actor has no chip (a forced take).
    ca, cb = (c0, c1) if actor == 0 else (c1, c0)
    last = min(2 * ca, 2 * cb + 1)
    stats[_STAT_DECISIONS] += last + 1
    bit = np.int64(1) << card
    v = 0.0
    for k in range(last, -1, -1):
        paid_a = (k + 1) // 2
        paid_b = k // 2
        s0, s1 = (c0 - paid_a, c1 - paid_b) if actor == 0 else (c0 - paid_b, c1 - paid_a)
        taker = actor if k % 2 == 0 else 1 - actor
        gain = pot + k
        if taker == 0:
            nh0, nh1, nidx, ns0, ns1 = h0 | bit, h1, idx + pow3[card], s0 + gain, s1
        else:
            nh0, nh1, nidx, ns0, ns1 = h0, h1 | bit, idx + 2 * pow3[card], s0, s1 + gain
        take = memo[(nidx * (total + 1) + ns0) * 2 + taker]
        if take != take:
            take = _value(memo, stats, pow3, cfg, nh0, nh1, nidx, ns0, ns1, 0, taker, -1)
        if k == last:
            v = take
        else:
            after_pass = 1.0 - v if win else -v
            v = take if take >= after_pass else after_pass
    return v
