"""How much a move, a chip or a card is worth: position evaluation, chip value, trade-off surfaces.

Everything here answers a classroom question with numbers and honest intervals, one question
per module:

- :mod:`.evaluation`: what Take and No Thanks! are each worth to the seat to act in a position
  (`evaluate_position`, by rollouts on sampled face-down cards, both moves on the same samples),
  and positions built from a description (`position_view`);
- :mod:`.chips`: what extra starting chips are worth to one seat, by table size (`chip_value`,
  paired simulation on deals from :mod:`nothanks_lab.deals`);
- :mod:`.surfaces`: a card's points against the chips it brings over card × pot: this move's
  bookkeeping (`immediate_take_minus_pass`, `break_even_pots`), the rollout surface and a
  bot's boundary (`take_pass_surface`, `bot_boundary`);
- :mod:`.rollout`: what they share: seating a table of policies, finishing rounds on the one
  compiled playout loop (:mod:`nothanks_lab.fast`; through the readable engine for a policy
  without a compiled decision), seeds and 95% intervals.

Every name is importable from ``nothanks_lab.analysis`` itself.
"""

from __future__ import annotations

from ..validate import renamed_names
from .chips import ChipValue, chip_value
from .evaluation import (
    CLEAR_MARGIN,
    EXACT_MAX_MEMORY,
    HINT_ROLLOUTS,
    MoveValue,
    PositionEvaluation,
    PositionSetup,
    evaluate_position,
    exact_cheap,
    exact_evaluation,
    hint_evaluation,
    is_clear,
    position_view,
    sample_face_down,
    warm_up,
)
from .rollout import (
    ADVICE_BOT,
    advice_policy,
    default_rollout_policy,
    describe_players,
    rollout_field,
    rollout_field_of_specs,
)
from .surfaces import (
    BotBoundary,
    TakePassSurface,
    bot_boundary,
    break_even_pots,
    immediate_take_minus_pass,
    take_pass_surface,
)

__all__ = [
    "ADVICE_BOT",
    "CLEAR_MARGIN",
    "EXACT_MAX_MEMORY",
    "HINT_ROLLOUTS",
    "BotBoundary",
    "ChipValue",
    "MoveValue",
    "PositionEvaluation",
    "PositionSetup",
    "TakePassSurface",
    "advice_policy",
    "bot_boundary",
    "break_even_pots",
    "chip_value",
    "default_rollout_policy",
    "describe_players",
    "evaluate_position",
    "exact_cheap",
    "exact_evaluation",
    "hint_evaluation",
    "immediate_take_minus_pass",
    "is_clear",
    "position_view",
    "rollout_field",
    "rollout_field_of_specs",
    "sample_face_down",
    "take_pass_surface",
    "warm_up",
]


#: ``Estimate``, the old name of the package's one interval type, works one release with a warning.
__getattr__ = renamed_names(__name__, Estimate="nothanks_lab.stats.Interval")
