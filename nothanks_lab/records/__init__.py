"""Rounds and matches as files: a small, versioned, documented JSON format.

A saved round is what the table saw, in order: the rules, the seats (a name and, for a bot, its
registry spec such as ``"marginal:threshold=10"``), every public move, and the deal only when it
may be known (the removed cards and the scores once the round is over). Loading checks every
field and rebuilds the round by replaying the moves through the engine, so a tampered or
inconsistent file (a card played twice, a pass with no chips, a score that does not add up, an
unknown version) is refused with a `ValueError` naming the field, and nothing half-loaded is
returned. A round trips exactly: every seat's view, the history and the scores are equal after
loading.

Round document, version 1 (``Game.to_json()`` writes it, ``Game.from_json(text)`` reads it)::

    {
      "format": "nothanks_lab.round",       required, exactly this
      "version": 1,                         required, exactly 1
      "rules": {"low_card": 3, "high_card": 35, "n_removed": 9,
                "chips": [[3, 11], [4, 11], [5, 11], [6, 9], [7, 7]]},
                                            optional; missing keys take the standard values
      "n_players": 3,                       required
      "first_player": 0,                    optional (default 0)
      "seats": [{"name": "Ada", "bot": null},
                {"name": "Bot 1", "bot": "marginal:threshold=10"}, ...],
                                            optional; one per seat; "bot" null for a human
      "deck": [27, 9, ...],                 optional: the in-play cards in turning order
      "active_card": 14,                    optional: the face-up card of an unfinished round
      "events": [{"seat": 0, "action": "pass", "card": 27, "pot": 0},
                 {"seat": 1, "action": "take", "card": 27, "pot": 1}, ...],
                                            required (may be empty); "pot" is the chips on
                                            the card before the move
      "removed": [5, 11, ...],              optional: the cards set aside
      "scores": [31, 40, 18]                optional: every seat's score after the events
    }

No other key is allowed, and numbers must be whole numbers (``27``, not ``27.0``).
``Game.to_json()`` writes ``deck``, ``removed`` and ``scores`` for a finished round and
``active_card`` for an unfinished one; the deck of an unfinished round (which would betray the
removed cards) only with ``include_deal=True``.

Without ``deck``, the turning order is the order in which cards first appear in the events
(every card stays face up until taken, so that is how they were turned). A finished round is
then fully known. In an unfinished round, the cards still face down (and the active card, if
the file does not give it) are nobody's knowledge: loading deals them at random from the cards
not yet seen (and not listed in ``removed``), seeded by ``seed`` or, without one, by the
document's own content, so the same file loads as the same round every time. Every view of
the events is the same whatever they are, since a view never holds a face-down card; a card
not yet turned when the file was saved is turned by that deal.

A match document (:func:`match_to_json`, :func:`match_from_json`) has ``"format":
"nothanks_lab.match"``, ``version``, ``rules``, ``n_players``, ``seats``, ``rounds`` (a list of
finished rounds, each with ``first_player``, ``deck``, ``events``, ``removed``, ``scores``, the
keys of a round document) and ``totals`` (the cumulative score per seat).

The package: :mod:`~nothanks_lab.records.schema` (names, version, allowed keys, the loaded
records), :mod:`~nothanks_lab.records.validation` (field-by-field checks of parsed documents),
:mod:`~nothanks_lab.records.rounds` (the round codec and the JSON layout) and
:mod:`~nothanks_lab.records.matches` (match files).
"""

from .matches import match_from_json, match_to_dict, match_to_json
from .rounds import dumps, load_round, round_from_dict, round_to_dict, round_to_json
from .schema import MATCH_FORMAT, ROUND_FORMAT, VERSION, MatchRecord, RoundRecord, Seat

__all__ = [
    "MATCH_FORMAT",
    "ROUND_FORMAT",
    "VERSION",
    "MatchRecord",
    "RoundRecord",
    "Seat",
    "dumps",
    "load_round",
    "match_from_json",
    "match_to_dict",
    "match_to_json",
    "round_from_dict",
    "round_to_dict",
    "round_to_json",
]
