"""nothanks_lab: No Thanks! for classroom probability lessons, Binder exploration and bot labs.

>>> import nothanks_lab as nt
>>> nt.card_points([8, 13, 14, 15, 17]), nt.score([27, 28, 29, 30], 2)
(38, 25)
"""

from . import analysis, bots, lessons, plots, probability
from .engine import Action, Event, Game, IllegalActionError
from .i18n import get_language, set_language
from .play import GameResult, MatchResult, PolicyError, play_game, play_match
from .review import review
from .rules import Rules, card_points, runs, score
from .simulation import SimResult, simulate
from .tournaments import (
    SweepResult,
    TournamentResult,
    TuneResult,
    head_to_head,
    sweep,
    tournament,
    tune,
)
from .view import PlayerView

__all__ = [
    "Action",
    "Event",
    "Game",
    "GameResult",
    "IllegalActionError",
    "MatchResult",
    "PlayTable",
    "PlayerView",
    "PolicyError",
    "Rules",
    "SimResult",
    "SweepResult",
    "TournamentResult",
    "TuneResult",
    "analysis",
    "bots",
    "card_points",
    "envs",
    "exact",
    "get_language",
    "head_to_head",
    "lessons",
    "play_game",
    "play_match",
    "plots",
    "probability",
    "review",
    "runs",
    "score",
    "set_language",
    "simulate",
    "sweep",
    "tournament",
    "tune",
    "widgets",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """Import the notebook widgets on first use: they pull in ipywidgets, which scripts, the
    CLI and worker processes do not need."""
    if name in ("widgets", "PlayTable"):
        import importlib

        widgets = importlib.import_module(f"{__name__}.widgets")
        return widgets if name == "widgets" else widgets.PlayTable
    # Loaded on first use: the RL environments (extra `rl`), the exact solver (compiles with
    # numba), the class league and the teacher's kit (the classroom side).
    if name in ("envs", "exact", "league", "kit"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'nothanks_lab' has no attribute {name!r}")
