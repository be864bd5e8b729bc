"""Bots: every one decides from its `PlayerView` alone and declares its parameters.

``make_bot(name, **params)`` builds any registered bot; ``available_bots()`` lists the names.
A bot of your own that should run on the simulator's compiled path subclasses `FastBot`:
declared parameters (`Param`), a numba-compilable ``FAST_DECIDE`` taking the public facts
`decision_args` gives, and ``fast_params`` (see the docs page "Writing your own bot",
docs/howto/write-a-bot.md).
"""

from .base import (
    Bot,
    FastBot,
    FastPathError,
    Param,
    Policy,
    SlowPathWarning,
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
    "FastBot",
    "FastPathError",
    "HeuristicBot",
    "LinearBot",
    "MarginalCostBot",
    "Param",
    "Policy",
    "RandomBot",
    "SearchBot",
    "SlowPathWarning",
    "available_bots",
    "bot_class",
    "decision_args",
    "make_bot",
    "params_of",
    "register",
]
