"""The linear bot: a weighted sum of public features decides, weights fitted to the search bot.

`LinearBot` takes a card when ``sum(weight_i * feature_i) > 0`` over the eighteen features of
`linear_features` (the card's score change, the pot, chips, how late it is, run bridging, how
many rivals the card fits, whether it fits the leader, the score gap to the leader, whether
every rival would pass the card back to us, and a few products of these). Every weight is a
declared parameter, so a slider can switch a feature off (weight 0) and ``explain`` shows each
feature's contribution.

Where the defaults come from (``benchmarks/fit_linear.py`` reproduces them): the search bot
(`BestBot`) played 2,000 five-player rounds against four heuristic bots (`HeuristicBot`) while
its searched decisions and their rollout values were recorded; a logistic regression, weighted
by how much each decision mattered (the gap between the two moves' values), fitted the weights
that best imitate those decisions; Nelder-Mead on common random numbers then tuned them for win
share against four heuristic bots. The result wins about 40% of 5-player rounds against four
default heuristic bots (fair share 20%; a heuristic bot tuned for that table manages about 27%)
at the speed of a heuristic, and its decision function runs compiled in the simulator and in
the search bot's rollouts.

One assumption is built into a feature: ``returns`` asks whether each rival, deciding like a
default heuristic bot, would pass the card on; against other rivals it is a guess like any other.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import card_points_mask, marginal_points
from ..engine import Action
from ..i18n import N_
from ..rules import Rules
from ..validate import check_rules
from ..view import PlayerView
from .base import WEIGHT_OF, FastBot, Param, decision_args, register
from .features import bridge_chance, lateness, leader_block, rivals_fitting
from .heuristic import HEURISTIC_PARAMS, heuristic_terms_after_passes, pack_params

__all__ = ["FEATURES", "LINEAR_PARAMS", "LinearBot", "linear_decide", "linear_features"]

#: Feature names and one-line meanings, in the order `linear_features` returns them.
FEATURES: tuple[tuple[str, str], ...] = (
    ("bias", N_("1 (a constant: the base leaning to take or pass)")),
    ("cost", N_("change in card points if we take the card")),
    ("pot", N_("chips on the card")),
    ("gain", N_("the change in card points when it is negative, else 0")),
    ("chips", N_("our chips")),
    ("scarcity", N_("1 / (1 + our chips)")),
    ("late", N_("share of the in-play cards already turned (0 at the start, 1 at the end)")),
    ("pot_late", N_("pot x late")),
    ("cost_late", N_("cost x late")),
    ("bridge", N_("cost x chance the gap is filled, for a card two away from one of ours")),
    ("fits", N_("rivals whose runs the card extends")),
    ("block", N_("1 if the card extends the runs of a rival who leads or ties us")),
    ("lead_gap", N_("(our score - the best rival's score) / 10")),
    (
        "returns",
        N_("1 if every rival, deciding like a default heuristic bot, would pass the card back"),
    ),
    ("returns_cost", N_("returns x cost")),
    ("cost_per_chip", N_("cost / (1 + our chips)")),
    ("rival_chips", N_("fewest chips of any rival / 10")),
    ("returns_pot", N_("returns x pot")),
)
N_FEATURES = len(FEATURES)

#: Fitted and tuned weights (``benchmarks/fit_linear.py``), in `FEATURES` order.
WEIGHTS_5P: tuple[float, ...] = (
    0.9154, -0.1752, 0.3815, 0.1614, -0.0416, 3.1309, 0.611, -0.1725, -0.1949,
    0.2831, -0.3777, 0.7062, -0.2204, -4.0958, 0.0934, 0.323, -0.3895, -0.3515,
)  # fmt: skip

#: Declared parameters: one weight per feature, named ``w_<feature>``.
LINEAR_PARAMS: tuple[Param, ...] = tuple(
    Param(f"w_{name}", w, -100.0, 100.0, WEIGHT_OF + doc)
    for (name, doc), w in zip(FEATURES, WEIGHTS_5P, strict=True)
)

# Layout of the ``params`` array: weights, then low card, high card, removed cards, then the
# default heuristic bot's packed parameters (for the ``returns`` feature).
_LOW, _HIGH, _REMOVED, _HEURISTIC = N_FEATURES, N_FEATURES + 1, N_FEATURES + 2, N_FEATURES + 3


def linear_features(
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
) -> tuple[float, ...]:
    """The `FEATURES` of a decision, from public facts only (numba-compilable).

    Only the rule constants and the heuristic bot's parameters are read from ``params`` (see
    `pack_linear`); the weights are not used here. Pure: the pass round of ``returns`` is
    looked ahead at without changing ``chips`` (`heuristic_terms_after_passes`).
    """
    n = hands.shape[0]
    low = int(params[_LOW])
    high = int(params[_HIGH])
    n_removed = params[_REMOVED]
    cost = marginal_points(hands[seat], card)
    bridge = 0.0
    if cost > 0:
        bridge = bridge_chance(card, seat, hands, cards_left, low, high, n_removed) * cost
    my_chips = chips[seat]
    late = lateness(cards_left, low, high, n_removed)
    best, block = leader_block(card, seat, hands, chips, seat, 0)
    my_score = card_points_mask(hands[seat]) - my_chips
    min_chips = 1 << 30
    for k in range(1, n):
        min_chips = min(min_chips, chips[(seat + k) % n])
    # Would the card come back? Each rival in turn sees the card after we and the rivals
    # before it have passed, each paying a chip onto it (the first k seats from ours).
    heuristic = params[_HEURISTIC:]
    returns = 1.0
    for k in range(1, n):
        o = (seat + k) % n
        if (
            chips[o] == 0
            or heuristic_terms_after_passes(
                heuristic, card, pot + k, o, hands, chips, cards_left, seat, k
            ).take
        ):
            returns = 0.0
            break
    return (
        1.0,
        float(cost),
        float(pot),
        float(min(cost, 0)),
        float(my_chips),
        1.0 / (1.0 + my_chips),
        late,
        pot * late,
        cost * late,
        bridge,
        float(rivals_fitting(card, seat, hands)),
        1.0 if block else 0.0,
        (my_score - best) / 10.0,
        returns,
        returns * cost,
        cost / (1.0 + my_chips),
        min_chips / 10.0,
        returns * pot,
    )


def linear_decide(
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
) -> bool:
    """Take when the weighted feature sum is positive (pure, numba-compilable); True = take.

    The forced take at zero chips is the caller's.
    """
    f = linear_features(params, card, pot, seat, hands, chips, cards_left)
    z = 0.0
    for i in range(N_FEATURES):
        z += params[i] * f[i]
    return z > 0.0


def pack_linear(weights: Any, rules: Rules | None = None) -> np.ndarray:
    """The ``params`` array of `linear_decide`: weights, rule constants, heuristic bot params."""
    rules = check_rules(rules)
    w = np.asarray(weights, dtype=np.float64).ravel()
    if w.shape != (N_FEATURES,):
        raise ValueError(f"LinearBot needs {N_FEATURES} weights; got {w.shape[0]}")
    heuristic = pack_params({p.name: p.default for p in HEURISTIC_PARAMS}, rules)
    consts = [rules.low_card, rules.high_card, rules.n_removed]
    return np.concatenate([w, np.array(consts, dtype=np.float64), heuristic])


@register("linear")
class LinearBot(FastBot):
    """A weighted sum of public features: take when it is positive (weights fitted offline).

    >>> from nothanks_lab import Game
    >>> why = LinearBot().explain(Game(5, deck=range(3, 27)).view(0))
    >>> why["card"], why["features"]["cost"], why["action"]
    (3, 3.0, <Action.PASS: 'pass'>)
    >>> LinearBot(w_returns=0).params["w_returns"]
    0.0
    """

    PARAMS = LINEAR_PARAMS
    #: Decision function shared with the simulator's compiled fast path.
    FAST_DECIDE = staticmethod(linear_decide)
    FAST_DECIDE_WRAPS = False  # masks of cards and small counts: nothing overflows

    @property
    def weights(self) -> np.ndarray:
        """``float64[N_FEATURES]``: the weights in `FEATURES` order."""
        return np.array([self._params[p.name] for p in LINEAR_PARAMS], dtype=np.float64)

    def fast_params(self, rules: Rules | None = None) -> np.ndarray:
        """Parameters of `linear_decide` (the standard game's constants unless given)."""
        return pack_linear(self.weights, rules)

    def explain(self, view: PlayerView) -> dict[str, Any]:
        params = self.fast_params(view.rules)
        f = linear_features(params, *decision_args(view))
        names = [name for name, _ in FEATURES]
        contrib = {n: float(w * x) for n, w, x in zip(names, self.weights, f, strict=True)}
        z = float(sum(contrib.values()))
        forced = not view.can_pass
        return {
            "action": Action.TAKE if z > 0 or forced else Action.PASS,
            "card": view.active_card,
            "pot": view.pot,
            "features": {n: float(x) for n, x in zip(names, f, strict=True)},
            "contributions": contrib,
            "score": z,
            "forced": forced,
        }
