"""The heuristic bot: a parametric bot whose every idea is a switch, and its compiled decision.

`HeuristicBot` takes a card when its net cost (the change in card points, minus the pot, minus
the hope of bridging a gap) is at most a threshold that loosens when the bot is short of chips
and as the deck runs out, and loosens further to deny the leader a card that fits the leader's
runs. When it would take a card that nobody else wants, it lets the card go round once more to
collect a chip from every other seat ("milking"). Each idea is a declared parameter, and setting
its weight to 0 (or ``milk=False``) switches it off. The decision itself is one pure,
numba-compilable function, `heuristic_decide`, run as plain Python by `HeuristicBot.act` and
compiled by the simulator and the search bot's rollouts. Its defaults come from
``benchmarks/tune_heuristic.py`` (common random numbers against a field of bots).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

from ..core import marginal_points
from ..engine import Action
from ..i18n import N_
from ..rules import Rules
from ..validate import check_rules
from ..view import PlayerView
from .base import FastBot, Param, decision_args, register
from .features import (
    bridge_chance,
    chips_after_passes,
    lateness,
    leader_block,
    rivals_fitting,
)

__all__ = [
    "HEURISTIC_PARAMS",
    "SWITCHES_OFF",
    "HeuristicBot",
    "HeuristicTerms",
    "bridge_chance",
    "heuristic_decide",
    "heuristic_terms",
]

#: Declared parameters, in the order `heuristic_decide` reads them from its ``params`` array.
HEURISTIC_PARAMS: tuple[Param, ...] = (
    Param("threshold", 4.31, -10.0, 40.0, N_("take when the net cost is at most this (base)")),
    Param("pot_weight", 1.95, 0.0, 3.0, N_("points one chip in the pot is worth")),
    Param("chip_ref", 2.45, 0.0, 20.0, N_("chip count below which the threshold loosens")),
    Param("chip_weight", 0.25, 0.0, 10.0, N_("threshold rise per chip below chip_ref (0 = off)")),
    Param("late_weight", 0.0, 0.0, 30.0, N_("threshold rise as the deck runs out (0 = off)")),
    Param(
        "bridge_weight", 0.52, 0.0, 1.0, N_("share of a gap-filling card's cost forgiven (0 = off)")
    ),
    Param("milk", True, False, True, N_("let a card nobody else wants go round once more"), bool),
    Param("milk_margin", 13.1, -10.0, 40.0, N_("milk only if every rival's net cost exceeds this")),
    Param(
        "block_weight",
        2.91,
        0.0,
        30.0,
        N_("threshold rise for a card fitting the leader (0 = off)"),
    ),
)

#: The settings that switch every refinement off: with them (and any other parameters left at
#: their defaults) the heuristic bot at ``threshold=t`` decides exactly as
#: ``MarginalCostBot(t)`` (the rival models of `opponents.MODELS` are built on them).
SWITCHES_OFF: Mapping[str, float | bool] = MappingProxyType(
    {
        "pot_weight": 1.0,
        "chip_weight": 0.0,
        "late_weight": 0.0,
        "bridge_weight": 0.0,
        "milk": False,
        "block_weight": 0.0,
    }
)

# Where `heuristic_terms` reads each value in its ``params`` array (see `pack_params`): the
# declared parameters in `HEURISTIC_PARAMS` order, then the rule constants. Plain module-level
# integers, which numba freezes into the compiled code as constants.
THRESHOLD, POT_WEIGHT, CHIP_REF, CHIP_WEIGHT, LATE_WEIGHT = 0, 1, 2, 3, 4
BRIDGE_WEIGHT, MILK, MILK_MARGIN, BLOCK_WEIGHT = 5, 6, 7, 8
LOW_CARD, HIGH_CARD, N_REMOVED = 9, 10, 11
#: Length of the ``params`` array.
N_PARAMS = 12


class HeuristicTerms(NamedTuple):
    """The numbers behind one decision of the heuristic bot (`heuristic_terms`)."""

    cost: int
    """Change in card points if the seat takes the card."""
    bridge: float
    """Discount for a card that may later join two of the seat's runs."""
    net: float
    """``cost - pot_weight * pot - bridge``."""
    threshold: float
    """Take when ``net`` is at most this (after the chip, endgame and blocking terms)."""
    block: bool
    """Whether the threshold was raised to deny the leader a card fitting its runs."""
    milk: bool
    """Whether the seat lets a card it would take go round once more."""
    take: bool
    """The decision: take (True) or pass."""


def heuristic_terms(
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
) -> HeuristicTerms:
    """The numbers behind the heuristic bot's choice (see `HeuristicTerms`).

    The bot takes when ``net <= threshold`` unless it milks. Pure and numba-compilable;
    ``params`` holds the declared parameters in `HEURISTIC_PARAMS` order followed by low card,
    high card and the number of removed cards (indices `THRESHOLD` ... `N_REMOVED`).
    """
    return heuristic_terms_after_passes(params, card, pot, seat, hands, chips, cards_left, seat, 0)


def heuristic_terms_after_passes(
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
    first: int,
    n_paid: int,
) -> HeuristicTerms:
    """`heuristic_terms` where the seats see `chips` less the chip each of `n_paid` seats,
    clockwise from `first`, has paid (`chips_after_passes`); ``chips`` itself is not changed.

    `LinearBot`'s ``returns`` feature asks this of every rival in a pass round.
    """
    n = hands.shape[0]
    low = int(params[LOW_CARD])
    high = int(params[HIGH_CARD])
    n_removed = params[N_REMOVED]
    cost = marginal_points(hands[seat], card)
    my_chips = chips_after_passes(chips, seat, first, n_paid)

    # Run bridging: a card two away from one of ours, the card between still unseen.
    bridge = 0.0
    if cost > 0:
        chance = bridge_chance(card, seat, hands, cards_left, low, high, n_removed)
        bridge = params[BRIDGE_WEIGHT] * chance * cost

    net = cost - params[POT_WEIGHT] * pot - bridge
    threshold = (
        params[THRESHOLD]
        + params[CHIP_WEIGHT] * (params[CHIP_REF] - my_chips)
        + params[LATE_WEIGHT] * lateness(cards_left, low, high, n_removed)
    )

    # Blocking: loosen for a card that fits the runs of the leading rival (scores are only
    # counted when some rival's runs fit the card, which keeps the common case cheap).
    block = False
    if params[BLOCK_WEIGHT] > 0 and rivals_fitting(card, seat, hands) > 0:
        block = leader_block(card, seat, hands, chips, first, n_paid)[1]
        if block:
            threshold += params[BLOCK_WEIGHT]

    take = net <= threshold
    # Milking: a card we would take and no rival wants goes round once more for their chips.
    milk = False
    if take and params[MILK] > 0.5 and my_chips > 0:
        milk = True
        for k in range(1, n):
            o = (seat + k) % n
            # A rival with no chips must take; one whose net cost is low may want it.
            broke = chips_after_passes(chips, o, first, n_paid) == 0
            if broke or marginal_points(hands[o], card) - (pot + k) <= params[MILK_MARGIN]:
                milk = False
                break
    return HeuristicTerms(cost, bridge, net, threshold, block, milk, take and not milk)


def heuristic_decide(
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
) -> bool:
    """The heuristic bot's decision on public facts (numba-compilable); True means take.

    The forced take at zero chips is the caller's.
    """
    return heuristic_terms(params, card, pot, seat, hands, chips, cards_left).take


def pack_params(values: dict[str, Any], rules: Rules | None = None) -> np.ndarray:
    """The ``params`` array of `heuristic_decide` from parameter values and a rule set."""
    rules = check_rules(rules)
    declared = [float(values[p.name]) for p in HEURISTIC_PARAMS]
    return np.array([*declared, rules.low_card, rules.high_card, rules.n_removed], dtype=np.float64)


@register("heuristic")
class HeuristicBot(FastBot):
    """The heuristic bot: chip- and endgame-aware thresholds, run bridging, milking, blocking.

    Registered as ``"heuristic"`` (its one name). It is nicknamed "the milker" because it lets
    chips pile up on a card nobody else wants (``milk``); the parameter ``prior_milker`` of
    `SearchBot` and `OpponentModel` keeps that nickname. Every idea is a parameter that can be
    switched off (a weight of 0, ``milk=False``); with all of them off and ``pot_weight=1`` it
    is ``MarginalCostBot(threshold)``.

    >>> from nothanks_lab import Game
    >>> g = Game(3, deck=range(3, 27))
    >>> why = HeuristicBot().explain(g.view(0))
    >>> why["cost"], round(why["threshold"], 2), why["action"]
    (3, 2.17, <Action.PASS: 'pass'>)
    >>> HeuristicBot(milk=False, chip_weight=0).params["milk"]
    False
    """

    PARAMS = HEURISTIC_PARAMS
    #: Decision function shared with the simulator's compiled fast path.
    FAST_DECIDE = staticmethod(heuristic_decide)
    FAST_DECIDE_WRAPS = False  # masks of cards and small counts: nothing overflows

    def fast_params(self, rules: Rules | None = None) -> np.ndarray:
        """Parameters of `heuristic_decide` (the standard game's constants unless given)."""
        return pack_params(self._params, rules)

    def explain(self, view: PlayerView) -> dict[str, Any]:
        terms = heuristic_terms(self.fast_params(view.rules), *decision_args(view))
        forced = not view.can_pass
        return {
            "action": Action.TAKE if terms.take or forced else Action.PASS,
            "card": view.active_card,
            "pot": view.pot,
            "cost": int(terms.cost),
            "bridge": float(terms.bridge),
            "net_cost": float(terms.net),
            "threshold": float(terms.threshold),
            "blocking_leader": bool(terms.block),
            "milking": bool(terms.milk),
            "forced": forced,
        }
