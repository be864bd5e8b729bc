"""Match files: a played match (:class:`~nothanks_lab.play.MatchResult`) as a match document
and back. A match document holds the rules and seats once and its finished rounds in the round
format's terms (:mod:`~nothanks_lab.records.rounds`); loading replays every round and checks
the totals add up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..rules import Rules
from ..validate import check_rules
from .rounds import _event_dict, _replay, _rules_dict, _seat_list, dumps, round_from_dict
from .schema import _MATCH_KEYS, _MATCH_ROUND_KEYS, MATCH_FORMAT, ROUND_FORMAT, VERSION, MatchRecord
from .validation import MISSING, _dict, _int, _keys, _list, _parse, _seats, _table


def match_to_dict(
    match: Any,
    *,
    rules: Rules | None = None,
    names: Sequence[str] | None = None,
    bots: Sequence[object] | None = None,
) -> dict[str, Any]:
    """The match document of a :class:`~nothanks_lab.play.MatchResult` as plain data.

    A match result does not keep its rules: pass the `rules` it was played with (default the
    standard game).
    """
    from ..play import MatchResult

    if not isinstance(match, MatchResult):
        raise ValueError(f"match must be a MatchResult; got {type(match).__name__}")
    rules = check_rules(rules)
    n_players = len(match.round_scores[0])
    rounds = []
    for r, result in enumerate(match.games):
        deck = [*dict.fromkeys(e.card for e in result.history)]
        doc = {
            "first_player": result.first_player,
            "deck": deck,
            "events": [_event_dict(e) for e in result.history],
            "removed": sorted(result.removed),
            "scores": list(result.scores),
        }
        try:
            _replay(doc, rules, n_players, result.first_player, list(result.history), 0)
        except ValueError as e:
            raise ValueError(f"match round {r} does not fit rules {rules}: {e}") from None
        rounds.append(doc)
    return {
        "format": MATCH_FORMAT,
        "version": VERSION,
        "rules": _rules_dict(rules),
        "n_players": n_players,
        "seats": _seat_list(n_players, names, bots),
        "rounds": rounds,
        "totals": [int(t) for t in match.totals],
    }


def match_to_json(
    match: Any,
    *,
    rules: Rules | None = None,
    names: Sequence[str] | None = None,
    bots: Sequence[object] | None = None,
) -> str:
    """A played match as a JSON match document (see :func:`match_to_dict`)."""
    return dumps(match_to_dict(match, rules=rules, names=names, bots=bots))


def match_from_json(text: str | bytes) -> MatchRecord:
    """A match document (JSON text) as a replayed match; `ValueError` naming the bad field."""
    from ..play import GameResult, MatchResult

    doc = _parse(text, "match")
    _keys(doc, _MATCH_KEYS, ("format", "version", "n_players", "rounds"), "")
    rules, n_players = _table(doc, MATCH_FORMAT)
    seats = _seats(doc.get("seats", MISSING), n_players)
    rounds = _list(doc["rounds"], "rounds")
    if not rounds:
        raise ValueError("rounds: a match holds at least one round")
    results = []
    for r, item in enumerate(rounds):
        where = f"rounds[{r}]"
        sub = _dict(item, where)
        _keys(sub, _MATCH_ROUND_KEYS, ("events",), f"{where}.")
        round_doc = {
            **sub,
            "format": ROUND_FORMAT,
            "version": VERSION,
            "rules": _rules_dict(rules),
            "n_players": n_players,
        }
        try:
            game = round_from_dict(round_doc, seed=0).game
        except ValueError as e:
            raise ValueError(f"{where}.{e}") from None
        if not game.is_over:
            raise ValueError(
                f"{where}.events: the round is not finished; a match holds whole rounds"
            )
        results.append(GameResult.of(game))
    match = MatchResult(
        round_scores=np.array([g.scores for g in results], dtype=np.int64), games=tuple(results)
    )
    if doc.get("totals") is not None:
        totals = _list(doc["totals"], "totals")
        if len(totals) != n_players:
            raise ValueError(f"totals: must hold one total per seat ({n_players}); got {totals}")
        for s, (claimed, actual) in enumerate(zip(totals, match.totals, strict=True)):
            if _int(claimed, f"totals[{s}]") != int(actual):
                raise ValueError(
                    f"totals[{s}]: {claimed} does not add up; the rounds give {int(actual)}"
                )
    return MatchRecord(match, rules, seats)
