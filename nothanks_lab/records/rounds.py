"""The round codec: a `Game` as a round document and back, and the JSON layout files use.

Writing (:func:`round_to_dict`, :func:`round_to_json`) describes a round by its public moves and,
once it is over, its deal; reading (:func:`round_from_dict`, :func:`load_round`) checks every
field (:mod:`~nothanks_lab.records.validation`) and rebuilds the round by replaying the moves
through the engine (`_replay`), dealing the cards nobody has seen at random when the file does
not give them. The match files of :mod:`~nothanks_lab.records.matches` are written and read
with the same pieces.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import Action, Event, Game, IllegalActionError, SeedLike
from ..rules import Rules
from ..validate import check_bool, check_seed
from .schema import _ROUND_KEYS, _ROUND_REQUIRED, ROUND_FORMAT, VERSION, RoundRecord
from .validation import (
    MISSING,
    _cards,
    _check_bot_spec,
    _dict,
    _events,
    _int,
    _keys,
    _list,
    _parse,
    _seats,
    _table,
)


# --------------------------------------------------------------------------- writing
def _rules_dict(rules: Rules) -> dict[str, Any]:
    return {
        "low_card": rules.low_card,
        "high_card": rules.high_card,
        "n_removed": rules.n_removed,
        "chips": [list(pair) for pair in rules.chips],
    }


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
    include_deal = check_bool(include_deal, "include_deal")
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
    seed = check_seed(seed)  # the one seed rule, before the text is read
    return round_from_dict(_parse(text, "round"), seed=seed)


def round_from_dict(doc: object, *, seed: SeedLike = None) -> RoundRecord:
    """A round document (parsed JSON) as a replayed game and its seats; `ValueError` if bad."""
    doc = _dict(doc, "the document")
    _keys(doc, _ROUND_KEYS, _ROUND_REQUIRED, "")
    rules, n_players = _table(doc, ROUND_FORMAT)
    first = _int(doc.get("first_player", 0), "first_player", low=0)
    if first >= n_players:
        raise ValueError(f"first_player: {first} is not a seat of {n_players} players")
    seats = _seats(doc.get("seats", MISSING), n_players)
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
        if not rules.low_card <= active <= rules.high_card:
            raise ValueError(
                f"active_card: {active} is outside the deck {rules.low_card}..{rules.high_card}"
            )
    if deck_value is not None:
        deck = _cards(deck_value, rules, "deck")
        if len(deck) != rules.n_in_play:
            raise ValueError(
                f"deck: must hold the {rules.n_in_play} in-play cards in turning order; "
                f"got {len(deck)}"
            )
    else:
        if seed is None:  # the document's own digest: the same file loads the same every time
            seed = _document_seed(doc)
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


def _document_seed(doc: Mapping[str, Any]) -> int:
    """A seed from the document's content, for the cards it leaves face down (or unturned)."""
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


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
