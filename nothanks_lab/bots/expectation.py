"""The expectation bot: weighs taking against passing in expected points, with exact chances.

`ExpectationBot` prices a decision in points. Taking costs the card's change in card points and
gains the pot, each chip worth `chip_value` points early in the round (a chip is one more
refusal, so it buys more than its face value while the deck is long) sliding to 1 point at the
end, more when the bot is short of chips. Taking also buys futures, valued with the exact
chances of :mod:`nothanks_lab.probability` that an unseen card is still to come: a neighbour
card that will arrive can be taken cheaply with the chips the table piles on it, and a card two
away from one of the bot's runs may later be bridged. Passing costs one chip. The bot takes
when taking is worth at least as much as passing, plus a `margin`. The defaults come from a
coarse sweep at 3 players against the heuristic bot and ``MarginalCostBot(10)``.
"""

from __future__ import annotations

from typing import Any

from ..core import marginal_points
from ..engine import Action
from ..i18n import N_
from ..probability import p_all_in_play
from ..view import PlayerView
from .base import Bot, Param, register

__all__ = ["ExpectationBot"]


@register("expectation")
class ExpectationBot(Bot):
    """Takes when the expected points of taking beat those of passing (exact in-play chances).

    >>> from nothanks_lab import Game
    >>> g = Game(3, deck=range(3, 27))
    >>> e = ExpectationBot().explain(g.view(0))
    >>> e["cost"], round(e["p_neighbours"][4], 4), round(23 / 32, 4)  # 23 of 32 unseen in play
    (3, 0.7188, 0.7188)
    """

    PARAMS = (
        Param("chip_value", 2.0, 1.0, 20.0, N_("points a chip is worth at the round's start")),
        Param("scarcity", 4.0, 0.0, 30.0, N_("extra chip value when short: this / (chips + 1)")),
        Param(
            "neighbour_value", 0.5, 0.0, 3.0, N_("chips expected per unseen neighbour (0 = off)")
        ),
        Param("bridge_value", 0.5, 0.0, 1.0, N_("share of a bridgeable card's cost forgiven")),
        Param(
            "margin", 0.0, -20.0, 20.0, N_("take when take minus pass value is at least -margin")
        ),
    )
    chip_value: float
    scarcity: float
    neighbour_value: float
    bridge_value: float
    margin: float

    def chip_worth(self, view: PlayerView) -> float:
        """Points one chip is worth to this seat now."""
        frac_left = view.cards_left / max(1, view.rules.n_in_play - 1)
        return 1.0 + (self.chip_value - 1.0) * frac_left + self.scarcity / (view.my_chips + 1)

    def terms(self, view: PlayerView) -> dict[str, Any]:
        """Every number of the decision: cost, chip worth, chances, values of both moves."""
        card = int(view.active_card)  # type: ignore[arg-type]
        rules = view.rules
        mine = view.hand_masks[view.seat]
        hand = set(view.my_hand)
        seen = view.seen_cards
        cost = marginal_points(mine, card)
        chip = self.chip_worth(view)

        # Futures bought by taking: unseen neighbours still to come, and bridgeable gaps.
        p_nb: dict[int, float] = {}
        for nb in (card - 1, card + 1):
            if rules.low_card <= nb <= rules.high_card and nb not in seen:
                p_nb[nb] = p_all_in_play([nb], seen=tuple(seen), rules=rules)
        neighbours = self.neighbour_value * chip * (view.n_players - 1) * sum(p_nb.values())
        bridge = 0.0
        if cost > 0:
            for d in (-2, 2):
                mid = card + d // 2
                if card + d in hand and mid not in seen:
                    p = p_all_in_play([mid], seen=tuple(seen), rules=rules)
                    bridge = max(bridge, self.bridge_value * p * cost)
        take_value = -cost + chip * view.pot + neighbours + bridge
        pass_value = -chip
        forced = not view.can_pass
        take = forced or take_value - pass_value >= -self.margin
        return {
            "action": Action.TAKE if take else Action.PASS,
            "card": card,
            "pot": view.pot,
            "cost": cost,
            "chip_worth": chip,
            "p_neighbours": p_nb,
            "neighbour_value": neighbours,
            "bridge_value": bridge,
            "value_take": take_value,
            "value_pass": pass_value,
            "margin": self.margin,
            "forced": forced,
        }

    def act(self, view: PlayerView) -> Action:
        if not view.can_pass:
            return Action.TAKE
        action: Action = self.terms(view)["action"]
        return action

    def explain(self, view: PlayerView) -> dict[str, Any]:
        return self.terms(view)
