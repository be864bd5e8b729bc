"""The two simplest bots: a coin-flipper and the marginal-cost rule."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import marginal_points
from ..engine import Action
from ..rules import Rules
from ..view import PlayerView
from .base import FastBot, Param, RandomizedBot, register

__all__ = ["MarginalCostBot", "RandomBot"]


def marginal_decide(
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
) -> bool:
    """The marginal-cost rule on public facts (numba-compilable; ``params = [threshold]``).

    Called as plain Python by `MarginalCostBot.act` (`FastBot.act`) and compiled by the
    simulator: one definition of the decision. The forced take at zero chips is the caller's.
    """
    return marginal_points(hands[seat], card) - pot <= params[0]


@register("random")
class RandomBot(RandomizedBot):
    """Takes with probability `p_take` (always when it has no chips); seeded, reproducible.

    >>> bot = RandomBot(seed=1)
    >>> bot.p_take
    0.5
    """

    PARAMS = (Param("p_take", 0.5, 0.0, 1.0, "chance of taking when passing is allowed"),)
    p_take: float

    def act(self, view: PlayerView) -> Action:
        if not view.can_pass:
            return Action.TAKE
        return Action.TAKE if self.rng.random() < self.p_take else Action.PASS


@register("marginal")
class MarginalCostBot(FastBot):
    """Takes when the card's cost, net of the pot, is at most `threshold`.

    The cost of a card is how much it raises the hand's card points; with no chips it must
    take anyway. ``MarginalCostBot(0)`` is the greedy bot: it takes only what is free.

    >>> from nothanks_lab import Game
    >>> g = Game(3, deck=range(3, 27))
    >>> MarginalCostBot(2).explain(g.view(0))["cost"]
    3
    """

    PARAMS = (Param("threshold", 10, -40, 40, "take when card cost minus pot is at most this"),)
    threshold: float
    #: Decision function shared with the simulator's compiled fast path.
    FAST_DECIDE = staticmethod(marginal_decide)

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
