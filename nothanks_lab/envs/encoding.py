"""The observation, action and reward conventions shared by every environment in `.envs`.

One fixed-length float32 vector encodes what one seat may know (its `PlayerView`), *relative
to that seat*: seat order is rotated so that entry 0 of each per-seat block is the observing
seat, entry 1 the seat after it clockwise (the next to act after a pass), and so on. With
``C = rules.n_cards`` (33 in the standard game) and ``P`` seats, the blocks are, in order:

====================  =========  ==================================================
block                 length     value
====================  =========  ==================================================
active card           ``C``      1 at ``card - low_card`` (all 0 once the round is over)
pot                   1          chips on the active card
chips                 ``P``      chips of each seat, the observer first
cards                 ``P * C``  seat-major: 1 at ``q * C + card - low_card`` when seat
                                 ``q`` (relative) holds ``card``
cards left            1          face-down cards still to come (not the active one)
====================  =========  ==================================================

so ``obs_size(rules, P) == C * (P + 1) + P + 2`` (137 for the standard game with three
players). No removed card and no deck order enters it. Actions are ``1`` = take and ``0`` =
pass (PettingZoo's classic convention of an index into the action mask
``[pass allowed, take allowed]``). Rewards come at the end of a round: ``"win_share"`` (1 for a
sole winner, ``1/k`` each for ``k`` tied winners, else 0, from :func:`nothanks_lab.core.score_rows`)
or ``"score"`` (minus the seat's final score). `encode_into` is written in the subset of Python
numba compiles, so the vector environment's kernel writes observations with the same function
the single environments call on a view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import core
from ..engine import Action, Game
from ..rules import Rules
from ..view import PlayerView

__all__ = [
    "REWARDS",
    "check_action",
    "check_reward",
    "encode_into",
    "encode_view",
    "mask_of_view",
    "obs_high",
    "obs_size",
    "observe_seat",
    "round_rewards",
]

#: The reward kinds every environment accepts.
REWARDS = ("win_share", "score")


def check_reward(reward: object) -> str:
    """`reward` if it is a known kind, else `ValueError` naming the kinds."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(map(repr, REWARDS))}; got {reward!r}")
    return reward


def check_action(action: object) -> Action:
    """The engine move for an action of the space (1 = take, 0 = pass), else `ValueError`."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = int(action)
        else:
            raise ValueError(f"action must be 0 (pass) or 1 (take); got {action!r}")
    if action not in (0, 1):
        raise ValueError(f"action must be 0 (pass) or 1 (take); got {action!r}")
    return Action.TAKE if action == 1 else Action.PASS


def obs_size(rules: Rules, n_players: int) -> int:
    """Length of the observation vector for `n_players` seats under `rules`."""
    return rules.n_cards * (n_players + 1) + n_players + 2


def obs_high(rules: Rules, n_players: int) -> np.ndarray:
    """float32 upper bounds of each entry (the lower bounds are 0)."""
    c = rules.n_cards
    high = np.ones(obs_size(rules, n_players), dtype=np.float32)
    all_chips = n_players * rules.starting_chips(n_players)  # every chip in one place
    high[c : c + 1 + n_players] = all_chips
    high[-1] = rules.n_in_play - 1
    return high


def encode_into(
    out: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
    low_card: int | np.int64,
    n_cards: int | np.int64,
) -> None:
    """Write `seat`'s observation into `out` (float32[obs_size]); `card` < 0 once over.

    The arguments are the public facts in the form the bots' decision functions take (hands as
    int64[P] bit masks, chips int64[P]). Numba-compilable: the vector kernel calls it compiled.
    """
    n = chips.shape[0]
    for i in range(out.shape[0]):
        out[i] = 0.0
    if card >= 0:
        out[card - low_card] = 1.0
    out[n_cards] = pot
    base = n_cards + 1 + n
    for r in range(n):
        q = seat + r
        if q >= n:
            q -= n
        out[n_cards + 1 + r] = chips[q]
        mask = hands[q]
        for k in range(n_cards):
            if (mask >> (low_card + k)) & 1:
                out[base + r * n_cards + k] = 1.0
    out[base + n * n_cards] = cards_left


def encode_view(view: PlayerView) -> np.ndarray:
    """The observation of `view`'s seat (float32[obs_size]).

    >>> import nothanks_lab as nt
    >>> obs = encode_view(nt.Game(3, deck=range(3, 27)).view(0))
    >>> obs.shape, obs[:33].tolist().index(1.0), obs[33:37].tolist(), obs[-1].item()
    ((137,), 0, [0.0, 11.0, 11.0, 11.0], 23.0)
    """
    rules = view.rules
    out = np.empty(obs_size(rules, view.n_players), dtype=np.float32)
    encode_into(
        out,
        -1 if view.active_card is None else view.active_card,
        view.pot,
        view.seat,
        np.array(view.hand_masks, dtype=np.int64),
        np.array(view.chips, dtype=np.int64),
        view.cards_left,
        rules.low_card,
        rules.n_cards,
    )
    return out


def mask_of_view(view: PlayerView, to_act: bool) -> np.ndarray:
    """int8[2] action mask ``[pass, take]``: all 0 unless `to_act`; pass needs a chip."""
    mask = np.zeros(2, dtype=np.int8)
    if to_act and not view.is_over:
        mask[1] = 1
        mask[0] = 1 if view.my_chips > 0 else 0
    return mask


def observe_seat(game: Game, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """`seat`'s observation in `game` and its action mask (all 0 unless the seat is to act)."""
    view = game.view(seat)
    to_act = not game.is_over and game.current_player == seat
    return encode_view(view), mask_of_view(view, to_act)


def round_rewards(points: Any, chips: Any, reward: str) -> np.ndarray:
    """float64[P] end-of-round reward of every seat from card points and final chips."""
    pts = np.asarray(points, dtype=np.int64)[None, :]
    chp = np.asarray(chips, dtype=np.int64)[None, :]
    n = pts.shape[1]
    scores = np.empty((1, n), dtype=np.int64)
    winners = np.empty((1, n), dtype=np.bool_)
    share = np.empty((1, n), dtype=np.float64)
    core.score_rows(pts, chp, scores, winners, share)
    rewards: np.ndarray = share[0] if reward == "win_share" else -scores[0].astype(np.float64)
    return rewards
