"""The public face of a solved rule set: `Solution`, its view lookups, and `PerfectBot`.

Both solvers (`solve`'s compiled two-seat search and `best_response`'s plain-Python search
against fixed policies) hand back a `Solution`: the value of the start of a round, the size of
the search, and an engine object that answers for any position. `Solution` checks that a view
belongs to the solved rules and table, then asks its engine for ``value_of(view)`` and
``action_values(view)``; `action` and `PerfectBot` turn those values into perfect moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import Action
from ..rules import Rules
from ..view import PlayerView


@dataclass
class Solution:
    """The exact solution of a rule set: values and perfect moves of every public position.

    Made by `solve` (both seats perfect) or `best_response` (one seat perfect against fixed
    policies). `value` is the first player's value at the start of a round averaged over every
    deal (`solve`) or the responding seat's (`best_response`).
    """

    rules: Rules
    """The solved rule set."""
    n_players: int
    """Seats at the table."""
    objective: str
    """``"win"`` (chance of winning, ties shared) or ``"margin"`` (best rival's score minus
    mine)."""
    value: float
    """Value of the start of a round (before the first card is turned), see the class doc."""
    n_positions: int
    """Chance nodes (positions right after a take, and the start) solved and memoised."""
    n_decisions: int
    """Decision positions evaluated while solving (each chance node's chains of passes)."""
    seconds: float
    """Time taken to solve (compiling aside)."""
    memory_bytes: int
    """Memory held by the memo."""
    seat: int | None = None
    """The responding seat (`best_response`); None for `solve`."""
    first_player: int = 0
    """The seat that acts first in the rounds `value` describes."""
    _engine: Any = field(default=None, repr=False)

    def _check_view(self, view: object) -> PlayerView:
        if not isinstance(view, PlayerView):
            raise ValueError(f"view must be a PlayerView; got {type(view).__name__}")
        if view.rules != self.rules or view.n_players != self.n_players:
            raise ValueError(
                f"view is of a {view.n_players}-player round with {view.rules}; this solution "
                f"is of {self.n_players} players with {self.rules}"
            )
        return view

    def value_of(self, view: PlayerView) -> float:
        """Value of the view's position to the view's seat, under this solution's play."""
        view = self._check_view(view)
        return float(self._engine.value_of(view))

    def action_values(self, view: PlayerView) -> dict[Action, float]:
        """Value of each legal move to the seat to act (which must be the view's seat)."""
        view = self._check_view(view)
        if not view.is_my_turn:
            raise ValueError(f"view: seat {view.seat} is not to act; there is no move to value")
        values: dict[Action, float] = self._engine.action_values(view)
        return values

    def action(self, view: PlayerView) -> Action:
        """A perfect move in the view's position (take when both moves are worth the same)."""
        values = self.action_values(view)
        if self.seat is not None and view.seat != self.seat:
            raise ValueError(
                f"view: this best response plays seat {self.seat}; seat {view.seat} follows "
                "its fixed policy"
            )
        if Action.PASS in values and values[Action.PASS] > values[Action.TAKE]:
            return Action.PASS
        return Action.TAKE

    def bot(self) -> PerfectBot:
        """A policy playing this solution's perfect moves (at a table of the solved rules)."""
        return PerfectBot(self)

    @property
    def positions_per_second(self) -> float:
        """Decision positions evaluated per second of solving."""
        return self.n_decisions / self.seconds if self.seconds > 0 else float("inf")


class PerfectBot:
    """Plays a `Solution`'s perfect moves; `ValueError` at a table of other rules."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution

    @property
    def name(self) -> str:
        """Short name for tables and logs."""
        s = self.solution
        who = "perfect" if s.seat is None else f"best response (seat {s.seat})"
        return f"PerfectBot({who}, {s.objective})"

    def act(self, view: PlayerView) -> Action:
        """The solution's perfect move for the view's seat."""
        return self.solution.action(view)

    def __repr__(self) -> str:
        return self.name
