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
not yet seen (and not listed in ``removed``), seeded by ``seed``. Every view is the same
whatever they are, since a view never holds a face-down card.

A match document (:func:`match_to_json`, :func:`match_from_json`) has ``"format":
"nothanks_lab.match"``, ``version``, ``rules``, ``n_players``, ``seats``, ``rounds`` (a list of
finished rounds, each with ``first_player``, ``deck``, ``events``, ``removed``, ``scores``, the
keys of a round document) and ``totals`` (the cumulative score per seat).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .engine import Action, Event, Game, IllegalActionError, SeedLike
from .rules import Rules

__all__ = [
    "MATCH_FORMAT",
    "ROUND_FORMAT",
    "VERSION",
    "MatchRecord",
    "RoundRecord",
    "Seat",
    "load_round",
    "match_from_json",
    "match_to_dict",
    "match_to_json",
    "round_from_dict",
    "round_to_dict",
    "round_to_json",
]

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


# --------------------------------------------------------------------------- checking helpers
def _int(value: object, where: str, low: int | None = None) -> int:
    """`value` as an int (a JSON whole number, never a bool or a float), or `ValueError`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: must be a whole number; got {value!r}")
    if low is not None and value < low:
        raise ValueError(f"{where}: must be >= {low}; got {value}")
    return value


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


def _rules(value: object) -> Rules:
    if value is None:
        return Rules()
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


def _rules_dict(rules: Rules) -> dict[str, Any]:
    return {
        "low_card": rules.low_card,
        "high_card": rules.high_card,
        "n_removed": rules.n_removed,
        "chips": [list(pair) for pair in rules.chips],
    }


def _seats(value: object, n_players: int) -> tuple[Seat, ...]:
    if value is None:
        return tuple(Seat(f"Seat {i}", None) for i in range(n_players))
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
    from .bots.specs import make_policy

    if not isinstance(spec, str):
        raise ValueError(f"{where}: must be a bot spec like 'marginal:threshold=10' or null")
    try:
        make_policy(spec)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    return spec


def _bot_spec(bot: object, where: str) -> str | None:
    """A registry spec for `bot`: a spec string, None, or one of the package's bots."""
    if bot is None:
        return None
    if isinstance(bot, str):
        return _check_bot_spec(bot, where)
    name = getattr(bot, "registry_name", "")
    params = getattr(bot, "params", None)
    if isinstance(name, str) and name and isinstance(params, Mapping):
        inner = ",".join(
            f"{k}={str(v).lower()}" if isinstance(v, bool) else f"{k}={v!r}"
            for k, v in params.items()
        )
        return _check_bot_spec(f"{name}:{inner}" if inner else name, where)
    raise ValueError(
        f"{where}: a seat's bot must be a registry spec like 'marginal:threshold=10', one of "
        f"the package's registered bots, or None; got {bot!r}"
    )


def _seat_list(
    n_players: int, names: Sequence[str] | None, bots: Sequence[object] | None
) -> list[dict[str, Any]]:
    for arg, value in (("names", names), ("bots", bots)):
        if value is not None and (isinstance(value, str) or len(value) != n_players):
            raise ValueError(f"{arg} must hold one entry per seat ({n_players}); got {value!r}")
    out = []
    for i in range(n_players):
        name = f"Seat {i}" if names is None else names[i]
        if not isinstance(name, str):
            raise ValueError(f"names[{i}] must be a string; got {name!r}")
        out.append(
            {"name": name, "bot": None if bots is None else _bot_spec(bots[i], f"bots[{i}]")}
        )
    return out


def _event_dict(e: Event) -> dict[str, Any]:
    return {"seat": e.seat, "action": e.action.value, "card": e.card, "pot": e.pot}


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


def dumps(doc: Any, indent: str = "") -> str:
    """JSON for a document, easy to read and to edit by hand: one seat, move or round a line.

    An object holding a list of objects is spread over several lines, such a list one item a
    line; everything else stays on one line.

    >>> print(dumps({"version": 1, "events": [{"seat": 0}, {"seat": 1}]}))
    {
      "version": 1,
      "events": [
        {"seat": 0},
        {"seat": 1}
      ]
    }
    """
    inner = indent + "  "
    if isinstance(doc, dict) and any(_is_object_list(v) for v in doc.values()):
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in doc.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if _is_object_list(doc):
        return "[\n" + ",\n".join(f"{inner}{dumps(v, inner)}" for v in doc) + f"\n{indent}]"
    return json.dumps(doc)


def _is_object_list(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


# --------------------------------------------------------------------------- rounds
def round_to_dict(
    game: Game,
    *,
    names: Sequence[str] | None = None,
    bots: Sequence[object] | None = None,
    include_deal: bool = False,
) -> dict[str, Any]:
    """The round document of `game` (see the module docstring) as plain data.

    `names` and `bots` give one entry per seat (a bot as a registry spec, one of the package's
    bots, or None for a human). The deck of an unfinished round is written only with
    `include_deal` (it tells which cards were removed). `ValueError` for a round whose history
    does not account for its position (one built with ``Game.from_position``).
    """
    if not isinstance(game, Game):
        raise ValueError(f"game must be a nothanks_lab.Game; got {type(game).__name__}")
    doc: dict[str, Any] = {
        "format": ROUND_FORMAT,
        "version": VERSION,
        "rules": _rules_dict(game.rules),
        "n_players": game.n_players,
        "first_player": game.first_player,
        "seats": _seat_list(game.n_players, names, bots),
    }
    if game.is_over:
        doc["deck"] = list(dict.fromkeys(e.card for e in game.history))
    else:
        if include_deal:
            doc["deck"] = [int(c) for c in game._state.deck[0]]
        doc["active_card"] = game.active_card
    doc["events"] = [_event_dict(e) for e in game.history]
    if game.is_over:
        doc["removed"] = sorted(game.removed_cards())
        doc["scores"] = list(game.scores())
    # A position built without its moves (Game.from_position) cannot be described by events.
    again = round_from_dict(doc, seed=0).game
    if not _same_round(again, game):
        raise ValueError(
            "this round's history does not account for its position (was it built with "
            "Game.from_position?); only a round played from its first move can be saved"
        )
    return doc


def _same_round(a: Game, b: Game) -> bool:
    return (
        a.history == b.history
        and a.scores() == b.scores()
        and all(a.view(s) == b.view(s) for s in range(a.n_players))
    )


def round_to_json(
    game: Game,
    *,
    names: Sequence[str] | None = None,
    bots: Sequence[object] | None = None,
    include_deal: bool = False,
) -> str:
    """`game` as a JSON round document (see :func:`round_to_dict`), one move a line.

    >>> g = Game(3, deck=range(3, 27))
    >>> g.step(Action.PASS); g.step(Action.TAKE)
    >>> Game.from_json(g.to_json()).view(1) == g.view(1)
    True
    """
    return dumps(round_to_dict(game, names=names, bots=bots, include_deal=include_deal))


def load_round(text: str | bytes, *, seed: SeedLike = None) -> RoundRecord:
    """A round document (JSON text) as a replayed game and its seats; `ValueError` if bad.

    `seed` deals the face-down cards of an unfinished round saved without its deck.
    """
    return round_from_dict(_parse(text, "round"), seed=seed)


def round_from_dict(doc: object, *, seed: SeedLike = None) -> RoundRecord:
    """A round document (parsed JSON) as a replayed game and its seats; `ValueError` if bad."""
    doc = _dict(doc, "the document")
    _keys(doc, _ROUND_KEYS, _ROUND_REQUIRED, "")
    _check_header(doc, ROUND_FORMAT)
    rules = _rules(doc.get("rules"))
    n_players = _int(doc["n_players"], "n_players")
    try:
        rules.starting_chips(n_players)
    except ValueError as e:
        raise ValueError(f"n_players: {e}") from None
    first = _int(doc.get("first_player", 0), "first_player", low=0)
    if first >= n_players:
        raise ValueError(f"first_player: {first} is not a seat of {n_players} players")
    seats = _seats(doc.get("seats"), n_players)
    events = _events(doc["events"], n_players, rules)
    game = _replay(doc, rules, n_players, first, events, seed)
    return RoundRecord(game, seats)


def _replay(
    doc: Mapping[str, Any],
    rules: Rules,
    n_players: int,
    first: int,
    events: list[Event],
    seed: SeedLike,
) -> Game:
    """Rebuild the round by playing `events`, checking each against the engine."""
    deck_value = doc.get("deck")
    removed = None if doc.get("removed") is None else _cards(doc["removed"], rules, "removed")
    active = doc.get("active_card")
    if active is not None:
        active = _int(active, "active_card")
    if deck_value is not None:
        deck = _cards(deck_value, rules, "deck")
        if len(deck) != rules.n_in_play:
            raise ValueError(
                f"deck: must hold the {rules.n_in_play} in-play cards in turning order; "
                f"got {len(deck)}"
            )
    else:
        deck = _deduced_deck(events, rules, removed, active, seed)
    game = Game(n_players, rules=rules, deck=deck, first_player=first)
    taken_at: dict[int, int] = {}
    for i, e in enumerate(events):
        where = f"events[{i}]"
        if game.is_over:
            raise ValueError(f"{where}: the round was already over after events[{i - 1}]")
        if e.card in taken_at:
            raise ValueError(
                f"{where}.card: {e.card} was already taken (events[{taken_at[e.card]}])"
            )
        if e.card != game.active_card:
            why = (
                "the deck turns that card next"
                if deck_value is not None
                else "a card stays face up until someone takes it"
            )
            raise ValueError(
                f"{where}.card: {e.card}, but the active card is {game.active_card} ({why})"
            )
        if e.seat != game.current_player:
            raise ValueError(f"{where}.seat: {e.seat}, but seat {game.current_player} is to act")
        if e.pot != game.pot:
            raise ValueError(f"{where}.pot: {e.pot}, but the card holds {game.pot} chip(s)")
        try:
            game.step(e.action)
        except IllegalActionError:
            raise ValueError(
                f"{where}.action: seat {e.seat} passes with no chips left (only 'take' is legal)"
            ) from None
        if e.action is Action.TAKE:
            taken_at[e.card] = i
    if active is not None and active != game.active_card:
        got = "the round is over" if game.is_over else f"the active card is {game.active_card}"
        raise ValueError(f"active_card: {active}, but after the events {got}")
    if removed is not None:
        _check_removed(removed, game, rules, deck)
    if doc.get("scores") is not None:
        scores = _list(doc["scores"], "scores")
        if len(scores) != n_players:
            raise ValueError(f"scores: must hold one score per seat ({n_players}); got {scores}")
        for s, (claimed, actual) in enumerate(zip(scores, game.scores(), strict=True)):
            if _int(claimed, f"scores[{s}]") != actual:
                raise ValueError(
                    f"scores[{s}]: {claimed} does not add up; the events give seat {s} "
                    f"{actual} (hand {list(game.hands[s])}, {game.chips[s]} chips)"
                )
    return game


def _check_removed(removed: list[int], game: Game, rules: Rules, deck: list[int]) -> None:
    if len(removed) != rules.n_removed:
        raise ValueError(f"removed: must list the {rules.n_removed} removed cards; got {removed}")
    clash = sorted(set(removed) & set(deck))
    if clash:
        seen = set(game.view(0).seen_cards)
        played = [c for c in clash if c in seen]
        what = f"{played} were played" if played else f"{clash} are in the deck"
        raise ValueError(f"removed: lists cards that were not removed: {what}")


def _deduced_deck(
    events: list[Event],
    rules: Rules,
    removed: list[int] | None,
    active: int | None,
    seed: SeedLike,
) -> list[int]:
    """The turning order the events imply, the unknown rest dealt at random (seeded)."""
    order = list(dict.fromkeys(e.card for e in events))
    known = order[:]
    if active is not None and active not in known:
        known.append(active)
    if len(known) > rules.n_in_play:
        # Fewer cards than this are turned in a round: some card changed without being taken.
        raise ValueError(
            f"events: name {len(known)} different cards, more than the {rules.n_in_play} "
            "in-play cards of a round"
        )
    if removed is not None:
        clash = sorted(set(removed) & set(known))
        if clash:
            raise ValueError(f"removed: lists cards that were played: {clash}")
    pool = [c for c in rules.cards if c not in set(known) and (removed is None or c not in removed)]
    need = rules.n_in_play - len(known)
    if len(pool) < need:  # only possible when `removed` lists too many cards
        raise ValueError(f"removed: must list the {rules.n_removed} removed cards; got {removed}")
    try:
        rng = np.random.default_rng(seed)
    except TypeError:
        raise ValueError(f"seed must be None, an int or a numpy Generator; got {seed!r}") from None
    rest = [int(c) for c in rng.permutation(pool)[:need]] if need else []
    return known + rest


# --------------------------------------------------------------------------- matches
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
    from .play import MatchResult

    if not isinstance(match, MatchResult):
        raise ValueError(f"match must be a MatchResult; got {type(match).__name__}")
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nothanks_lab.Rules; got {type(rules).__name__}")
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
    from .play import GameResult, MatchResult

    doc = _parse(text, "match")
    _keys(doc, _MATCH_KEYS, ("format", "version", "n_players", "rounds"), "")
    _check_header(doc, MATCH_FORMAT)
    rules = _rules(doc.get("rules"))
    n_players = _int(doc["n_players"], "n_players")
    try:
        rules.starting_chips(n_players)
    except ValueError as e:
        raise ValueError(f"n_players: {e}") from None
    seats = _seats(doc.get("seats"), n_players)
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
