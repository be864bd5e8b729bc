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
from .best import BestBot
from .expectation import ExpectationBot
from .heuristic import HeuristicBot
from .linear import LinearBot
from .search import SearchBot
from .simple import MarginalCostBot, RandomBot

__all__ = [
    "BestBot",
    "Bot",
    "ExpectationBot",
    "HeuristicBot",
    "LinearBot",
    "MarginalCostBot",
    "Param",
    "Policy",
    "RandomBot",
    "SearchBot",
    "available_bots",
    "bot_class",
    "decision_args",
    "make_bot",
    "params_of",
    "register",
]
