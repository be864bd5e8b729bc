"""How a review labels a move, and when its rollouts for one decision stop.

The label of a move comes from declared thresholds on its *cost* (expected points lost against
the better move), applied to the lower end of the cost's 95% interval; the rollouts stop once
more of them could not change the label, or once even the full budget is foreseen not to
settle it (:func:`_beyond_the_budget`). :mod:`nothanks_lab.review` applies them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine import Action
from ..stats import Interval
from .evaluation import PositionEvaluation

__all__ = ["DEFAULT_ROLLOUTS", "FIRST_BATCH", "HOPELESS_FROM", "LABELS", "THRESHOLDS", "Thresholds"]

#: The labels, from best to worst.
LABELS = ("good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    """Expected points a move must lose, beyond doubt, to earn each label."""

    inaccuracy: float = 1.0
    """The cost's 95% interval lies at or above this: an inaccuracy."""
    mistake: float = 3.0
    """The cost's 95% interval lies at or above this: a mistake."""
    blunder: float = 6.0
    """The cost's 95% interval lies at or above this: a blunder."""

    def __post_init__(self) -> None:
        values = (self.inaccuracy, self.mistake, self.blunder)
        if not all(isinstance(v, int | float) and math.isfinite(v) for v in values) or not (
            0 < self.inaccuracy <= self.mistake <= self.blunder
        ):
            raise ValueError(
                "thresholds must be finite numbers with 0 < inaccuracy <= mistake <= blunder; "
                f"got {values}"
            )

    def label(self, cost_low: float) -> str:
        """The label of a move whose cost's 95% interval starts at `cost_low`.

        >>> THRESHOLDS.label(0.4), THRESHOLDS.label(3.2), THRESHOLDS.label(12.0)
        ('good', 'mistake', 'blunder')
        """
        if cost_low >= self.blunder:
            return "blunder"
        if cost_low >= self.mistake:
            return "mistake"
        if cost_low >= self.inaccuracy:
            return "inaccuracy"
        return "good"


#: The declared thresholds every review uses unless given others.
THRESHOLDS = Thresholds()
#: Most rollouts per move a decision gets (when its label is not settled sooner).
DEFAULT_ROLLOUTS = 8000
#: Rollouts per move of the first batch; each later batch doubles the count so far.
FIRST_BATCH = 500


def _settled(action: Action, ev: PositionEvaluation, thresholds: Thresholds) -> bool:
    """Whether more rollouts could not change the label of `action` (forced: always settled).

    The cost of the move played against the other move lies, with 95% confidence, in an
    interval; the label is settled when both ends of that interval earn the same label.
    """
    return ev.score_diff is None or _settled_diff(action, ev.score_diff, thresholds)


def _settled_diff(action: Action, d: Interval, thresholds: Thresholds) -> bool:
    """`_settled` on the paired Take − No Thanks! difference `d` alone."""
    low, high = (d.low, d.high) if action is Action.TAKE else (-d.high, -d.low)
    return thresholds.label(max(low, 0.0)) == thresholds.label(max(high, 0.0))


#: The share of a review's rollouts per move after which a close call may stop early.
HOPELESS_FROM = 0.25


def _beyond_the_budget(action: Action, d: Interval, thresholds: Thresholds, n: int) -> bool:
    """Whether `n` rollouts per move are foreseen not to settle the label either.

    The interval of `d` narrows as one over the square root of the rollouts: at `n` it would be
    ``sqrt(d.n / n)`` as wide around today's estimate. When that narrower interval still lies
    across a threshold, the remaining rollouts would be spent for a label that stays as mild as
    it is now (the label comes from the interval's lower end). Judged only once `d` has at
    least :data:`HOPELESS_FROM` of `n` behind it, so the estimate it starts from is steady.
    """
    if d.n < HOPELESS_FROM * n or d.n >= n:
        return False
    low, high = (d.low, d.high) if action is Action.TAKE else (-d.high, -d.low)
    centre, half = (low + high) / 2, (high - low) / 2 * math.sqrt(d.n / n)
    return thresholds.label(max(centre - half, 0.0)) != thresholds.label(max(centre + half, 0.0))
