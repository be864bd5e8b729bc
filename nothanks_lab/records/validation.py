"""Checking parsed documents field by field: every helper returns the value in its Python form
or raises a `ValueError` that names the field (``events[3].pot``, ``rules.chips[1]``) and what
is allowed there. Reading a round or a match goes through these alone, so a file is refused
the same way wherever it is loaded, and nothing half-checked reaches the engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import Action, Event
from ..rules import Rules
from ..validate import check_int, check_text_size
from .schema import _EVENT_KEYS, _RULE_KEYS, VERSION, Seat


def _int(value: object, where: str, low: int | None = None) -> int:
    """`value` as an int (a JSON whole number, never a bool or a float), or `ValueError`."""
    return check_int(value, where, low=low)


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: must be a list; got {type(value).__name__} {value!r}")
    return value


def _dict(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: must be an object; got {type(value).__name__} {value!r}")
    return value


def _keys(doc: Mapping[str, Any], allowed: set[str], required: Sequence[str], where: str) -> None:
    unknown = sorted(set(doc) - allowed)
    if unknown:
        raise ValueError(
            f"{where}{unknown[0]}: unknown key; allowed keys are {', '.join(sorted(allowed))}"
        )
    for key in required:
        if key not in doc:
            raise ValueError(f"{where}{key}: missing (required)")


def _cards(value: object, rules: Rules, where: str) -> list[int]:
    cards = [_int(c, f"{where}[{i}]") for i, c in enumerate(_list(value, where))]
    for i, c in enumerate(cards):
        if not rules.low_card <= c <= rules.high_card:
            raise ValueError(
                f"{where}[{i}]: card {c} is outside the deck {rules.low_card}..{rules.high_card}"
            )
        if c in cards[:i]:
            raise ValueError(f"{where}[{i}]: card {c} appears twice")
    return cards


def _parse(text: object, what: str) -> dict[str, Any]:
    if isinstance(text, str | bytes | bytearray):
        check_text_size(bytes(text) if isinstance(text, bytearray) else text, f"the {what} text")
    if isinstance(text, bytes | bytearray):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"a {what} file must be UTF-8 JSON text: {e}") from None
    if not isinstance(text, str):
        raise ValueError(f"a {what} must be given as JSON text (str); got {type(text).__name__}")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e}") from None
    except RecursionError:
        raise ValueError("not JSON this package can read: nested too deeply") from None
    return _dict(doc, "the document")


def _check_header(doc: Mapping[str, Any], fmt: str) -> None:
    if doc.get("format") != fmt:
        raise ValueError(f"format: must be {fmt!r}; got {doc.get('format')!r}")
    version = doc.get("version")
    if isinstance(version, bool) or version != VERSION or not isinstance(version, int):
        raise ValueError(
            f"version: unknown version {version!r}; this nothanks_lab reads version {VERSION}"
        )


#: A key left out of a document, as opposed to one written as ``null``.
MISSING = object()


def _rules(value: object) -> Rules:
    if value is MISSING:
        return Rules()
    if value is None:
        raise ValueError("rules: null is not rules; leave the key out for the standard rules")
    doc = _dict(value, "rules")
    unknown = sorted(set(doc) - set(_RULE_KEYS))
    if unknown:
        raise ValueError(f"rules.{unknown[0]}: unknown rule; allowed: {', '.join(_RULE_KEYS)}")
    params: dict[str, Any] = {}
    for key in ("low_card", "high_card", "n_removed"):
        if key in doc:
            params[key] = _int(doc[key], f"rules.{key}")
    if "chips" in doc:
        pairs = _list(doc["chips"], "rules.chips")
        table = []
        for i, pair in enumerate(pairs):
            where = f"rules.chips[{i}]"
            entry = _list(pair, where)
            if len(entry) != 2:
                raise ValueError(f"{where}: must be [players, chips each]; got {entry!r}")
            table.append((_int(entry[0], f"{where}[0]"), _int(entry[1], f"{where}[1]")))
        params["chips"] = tuple(table)
    try:
        return Rules(**params)
    except ValueError as e:
        raise ValueError(f"rules: {e}") from None


def _seats(value: object, n_players: int) -> tuple[Seat, ...]:
    if value is MISSING:
        return tuple(Seat(f"Seat {i}", None) for i in range(n_players))
    if value is None:
        raise ValueError("seats: null is not a list of seats; leave the key out for unnamed seats")
    items = _list(value, "seats")
    if len(items) != n_players:
        raise ValueError(f"seats: must list one seat per player ({n_players}); got {len(items)}")
    out = []
    for i, item in enumerate(items):
        where = f"seats[{i}]"
        seat = _dict(item, where)
        _keys(seat, {"name", "bot"}, (), f"{where}.")
        name = seat.get("name", f"Seat {i}")
        if not isinstance(name, str):
            raise ValueError(f"{where}.name: must be a string; got {name!r}")
        bot = seat.get("bot")
        if bot is not None:
            bot = _check_bot_spec(bot, f"{where}.bot")
        out.append(Seat(name, bot))
    return tuple(out)


def _check_bot_spec(spec: object, where: str) -> str:
    """`spec` if it builds a registered bot, else `ValueError` naming `where`."""
    from ..bots.specs import make_policy

    if not isinstance(spec, str):
        raise ValueError(f"{where}: must be a bot spec like 'marginal:threshold=10' or null")
    try:
        make_policy(spec)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    return spec


def _events(value: object, n_players: int, rules: Rules) -> list[Event]:
    out = []
    for i, item in enumerate(_list(value, "events")):
        where = f"events[{i}]"
        ev = _dict(item, where)
        _keys(ev, set(_EVENT_KEYS), _EVENT_KEYS, f"{where}.")
        seat = _int(ev["seat"], f"{where}.seat", low=0)
        if seat >= n_players:
            raise ValueError(f"{where}.seat: {seat} is not a seat of {n_players} players")
        action = ev["action"]
        if action not in ("take", "pass"):
            raise ValueError(f"{where}.action: must be 'take' or 'pass'; got {action!r}")
        card = _int(ev["card"], f"{where}.card")
        if not rules.low_card <= card <= rules.high_card:
            raise ValueError(
                f"{where}.card: {card} is outside the deck {rules.low_card}..{rules.high_card}"
            )
        pot = _int(ev["pot"], f"{where}.pot", low=0)
        out.append(Event(seat, Action(action), card, pot))
    return out


def _table(doc: Mapping[str, Any], fmt: str) -> tuple[Rules, int]:
    """Check the header of a document of format `fmt`; its rule set and number of players."""
    _check_header(doc, fmt)
    rules = _rules(doc.get("rules", MISSING))
    n_players = _int(doc["n_players"], "n_players")
    try:
        rules.starting_chips(n_players)
    except ValueError as e:
        raise ValueError(f"n_players: {e}") from None
    return rules, n_players
