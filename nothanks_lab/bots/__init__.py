"""Bots: every one decides from its `PlayerView` alone and declares its parameters.

``make_bot(name, **params)`` builds any registered bot; ``available_bots()`` lists the names.
"""

from .base import (
    Bot,
    Param,
    Policy,
    available_bots,
    bot_class,
    decision_args,
    make_bot,
    params_of,
    register,
)
from .simple import MarginalCostBot, RandomBot

__all__ = [
    "Bot",
    "MarginalCostBot",
    "Param",
    "Policy",
    "RandomBot",
    "available_bots",
    "bot_class",
    "decision_args",
    "make_bot",
    "params_of",
    "register",
]
