"""The two simplest bots: a coin-flipper and the marginal-cost rule, both compiled."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import marginal_points
from ..deals import GAMMA, SHIFT_32, mix64
from ..i18n import N_
from ..rules import Rules
from ..view import PlayerView
from .base import FastBot, Param, RandomizedBot, register

__all__ = ["MarginalCostBot", "RandomBot", "random_decide"]

# Where `random_decide` reads its parameters: the chance of taking and the bot's 64-bit key,
# split in two 32-bit halves (a float64 holds each exactly).
P_TAKE, KEY_HIGH, KEY_LOW = 0, 1, 2
# Where `marginal_decide` reads its one parameter.
THRESHOLD = 0
_S11 = np.uint64(11)
_UNIT = 1.0 / 2.0**53  # 53 random bits scaled into [0, 1)


def _absorb(h: np.uint64, value: int) -> np.uint64:
    """Fold one whole number into the hash `h` (numba-compilable)."""
    return mix64((h ^ np.uint64(value)) + GAMMA)


def random_decide(
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
) -> bool:
    """Take with chance ``params[P_TAKE]``, drawn from the bot's key and the position.

    A counter-based draw (splitmix64, as the dealer uses) of the key and every public fact of
    the position: the compiled kernel has no generator per bot, so the same function gives
    the same answer in `RandomBot.act` and on the fast path. A given key answers a given
    position alike every time; different positions and keys draw independently.
    """
    h = mix64((np.uint64(params[KEY_HIGH]) << SHIFT_32) | np.uint64(params[KEY_LOW]))
    h = _absorb(_absorb(_absorb(_absorb(h, card), pot), seat), cards_left)
    for q in range(hands.shape[0]):
        h = _absorb(_absorb(h, hands[q]), chips[q])
    take: bool = np.float64(h >> _S11) * _UNIT < params[P_TAKE]
    return take


def marginal_decide(
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
) -> bool:
    """The marginal-cost rule on public facts (numba-compilable; ``params[THRESHOLD]``).

    Called as plain Python by `MarginalCostBot.act` (`FastBot.act`) and compiled by the
    simulator: one definition of the decision. The forced take at zero chips is the caller's.
    """
    take: bool = marginal_points(hands[seat], card) - pot <= params[THRESHOLD]
    return take


@register("random")
class RandomBot(FastBot, RandomizedBot):
    """Takes with probability `p_take` (always when it has no chips); seeded, reproducible.

    Its randomness is a 64-bit `key` drawn at construction from `seed` (fresh entropy for
    None): each decision is a counter-based draw from the key and the position
    (`random_decide`), so it runs on the compiled path and never depends on the games played
    before. The same bot meeting the same position again gives the same answer; across
    positions (and across seeds) it takes with chance `p_take`.

    >>> bot = RandomBot(seed=1)
    >>> bot.p_take, bot.key == RandomBot(seed=1).key
    (0.5, True)
    """

    PARAMS = (Param("p_take", 0.5, 0.0, 1.0, N_("chance of taking when passing is allowed")),)
    p_take: float
    #: Decision function shared with the simulator's compiled fast path.
    FAST_DECIDE = staticmethod(random_decide)

    def __init__(
        self,
        *,
        seed: int | np.random.Generator | np.random.SeedSequence | None = None,
        **params: Any,
    ) -> None:
        super().__init__(seed=seed, **params)
        # The bot's 64-bit key, drawn from its generator (`rng`, seeded by `seed`) once, here:
        # every decision is drawn from the key alone, so reseeding `rng` later changes nothing
        # (`with_seed` draws a new key).
        self.key: int
        self._seeded()

    def _seeded(self) -> None:
        self.key = int(self.rng.integers(0, 2**64, dtype=np.uint64))

    def fast_params(self, rules: Rules | None = None) -> np.ndarray:
        """Parameters of `random_decide`: ``p_take`` and the key's two 32-bit halves."""
        return np.array([self.p_take, self.key >> 32, self.key & 0xFFFFFFFF], dtype=np.float64)


@register("marginal")
class MarginalCostBot(FastBot):
    """Takes when the card's cost, net of the pot, is at most `threshold`.

    The cost of a card is how much it raises the hand's card points; with no chips it must
    take anyway. ``MarginalCostBot(0)`` is the greedy bot: it takes only what is free.

    Parameters
    ----------
    threshold : float
        Take when the card's cost minus the pot is at most this (from -40 to 40; default 10).

    Raises
    ------
    ValueError
        For a threshold that is not a number in that range.

    >>> from nothanks_lab import Game
    >>> g = Game(3, deck=range(3, 27))
    >>> MarginalCostBot(2).explain(g.view(0))["cost"]
    3
    """

    PARAMS = (Param("threshold", 10, -40, 40, N_("take when card cost minus pot is at most this")),)
    threshold: float
    #: Decision function shared with the simulator's compiled fast path.
    FAST_DECIDE = staticmethod(marginal_decide)
    FAST_DECIDE_WRAPS = False  # masks of cards and small counts: nothing overflows

    def __init__(self, threshold: float = 10, **params: Any) -> None:
        super().__init__(threshold=threshold, **params)

    def fast_params(self, rules: Rules | None = None) -> np.ndarray:
        """Parameters of `marginal_decide` (the same for every rule set)."""
        return np.array([self.threshold], dtype=np.float64)

    def explain(self, view: PlayerView) -> dict[str, Any]:
        cost = marginal_points(view.hand_masks[view.seat], view.active_card)  # type: ignore[arg-type]
        return {
            "action": self.act(view),
            "card": view.active_card,
            "cost": cost,
            "pot": view.pot,
            "net_cost": cost - view.pot,
            "threshold": self.threshold,
            "forced": not view.can_pass,
        }
