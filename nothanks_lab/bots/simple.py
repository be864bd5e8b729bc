"""The two simplest bots: a coin-flipper and the marginal-cost rule."""

from __future__ import annotations

from typing import Any

from ..core import mask_of, marginal_points
from ..engine import Action
from ..view import PlayerView
from .base import Bot, Param, RandomizedBot, register

__all__ = ["MarginalCostBot", "RandomBot"]


@register("random")
class RandomBot(RandomizedBot):
    """Takes with probability `p_take` (always when it has no chips); seeded, reproducible.

    >>> bot = RandomBot(seed=1)
    >>> bot.p_take
    0.5
    """

    PARAMS = (Param("p_take", 0.5, 0.0, 1.0, "chance of taking when passing is allowed"),)

    def act(self, view: PlayerView) -> Action:
        if not view.can_pass:
            return Action.TAKE
        return Action.TAKE if self.rng.random() < self.p_take else Action.PASS


@register("marginal")
class MarginalCostBot(Bot):
    """Takes when the card's cost, net of the pot, is at most `threshold`.

    The cost of a card is how much it raises the hand's card points; with no chips it must
    take anyway. ``MarginalCostBot(0)`` is the greedy bot: it takes only what is free.

    >>> from nothanks_lab import Game
    >>> g = Game(3, deck=range(3, 27))
    >>> MarginalCostBot(2).explain(g.view(0))["cost"]
    3
    """

    PARAMS = (
        Param("threshold", 10, -40, 40, "take when card cost minus pot is at most this"),
    )

    def __init__(self, threshold: float = 10, **params: Any) -> None:
        super().__init__(threshold=threshold, **params)

    def act(self, view: PlayerView) -> Action:
        if not view.can_pass:
            return Action.TAKE
        cost = marginal_points(mask_of(view.my_hand), view.active_card)  # type: ignore[arg-type]
        return Action.TAKE if cost - view.pot <= self.threshold else Action.PASS

    def explain(self, view: PlayerView) -> dict[str, Any]:
        cost = marginal_points(mask_of(view.my_hand), view.active_card)  # type: ignore[arg-type]
        return {
            "action": self.act(view),
            "card": view.active_card,
            "cost": cost,
            "pot": view.pot,
            "net_cost": cost - view.pot,
            "threshold": self.threshold,
            "forced": not view.can_pass,
        }
