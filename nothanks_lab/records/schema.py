"""The vocabulary of the file format: its names and version, the keys each document allows, and
the records a loaded file becomes (`Seat`, `RoundRecord`, `MatchRecord`). Everything else in
:mod:`nothanks_lab.records` reads or writes documents in these terms; the format itself is
described in the package docstring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Game
from ..rules import Rules

#: The ``format`` value of a round document.
ROUND_FORMAT = "nothanks_lab.round"
#: The ``format`` value of a match document.
MATCH_FORMAT = "nothanks_lab.match"
#: The schema version this package writes and reads.
VERSION = 1

_ROUND_KEYS = {
    "format",
    "version",
    "rules",
    "n_players",
    "first_player",
    "seats",
    "deck",
    "active_card",
    "events",
    "removed",
    "scores",
}
_ROUND_REQUIRED = ("format", "version", "n_players", "events")
_MATCH_KEYS = {"format", "version", "rules", "n_players", "seats", "rounds", "totals"}
_MATCH_ROUND_KEYS = {"first_player", "deck", "events", "removed", "scores"}
_RULE_KEYS = ("low_card", "high_card", "n_removed", "chips")
_EVENT_KEYS = ("seat", "action", "card", "pot")


@dataclass(frozen=True)
class Seat:
    """Who sat in a seat."""

    name: str
    """Display name."""
    bot: str | None
    """The bot's registry spec (``"name:key=value,..."``), or None for a human."""


@dataclass(frozen=True)
class RoundRecord:
    """A loaded round: the rebuilt game and who sat where."""

    game: Game
    """The round, replayed through the engine."""
    seats: tuple[Seat, ...]
    """One per seat."""

    @property
    def names(self) -> tuple[str, ...]:
        """Seat names."""
        return tuple(s.name for s in self.seats)


@dataclass(frozen=True)
class MatchRecord:
    """A loaded match: its result, rules and seats."""

    match: Any
    """The :class:`nothanks_lab.play.MatchResult`, every round replayed through the engine."""
    rules: Rules
    """The rule set of every round."""
    seats: tuple[Seat, ...]
    """One per seat."""
