"""What every probability question shares: its argument types and their checking.

A question names cards (one number or a collection), the cards seen so far (or a
:class:`~nothanks_lab.view.PlayerView`, whose seen cards and rules are then used) and a rule
set; a simulated one also a number of rounds, a seed and a confidence level (`confidence`).
The helpers here turn those arguments into checked values (a :class:`~nothanks_lab.rules.Rules`,
a frozenset of seen cards, a tuple of distinct cards) or raise a `ValueError` naming the
argument, so the exact functions and their Monte Carlo twins check their inputs the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..rules import Rules
from ..validate import MAX_SIMULATED_ROUNDS, check_count, check_rules, is_int, take_items
from ..view import PlayerView

Cards = int | Iterable[int]
"""One card number or a collection of card numbers."""
Seen = Iterable[int] | PlayerView
"""Cards turned face up so far, or a view whose seen cards (and rules) are used."""
Seed = int | np.random.Generator | np.random.SeedSequence | None
"""Anything :func:`numpy.random.default_rng` accepts."""

#: Building a `Rules` validates it (~20 us), so the default rule set is built once.
_STANDARD = Rules()


def _rules(rules: Rules | None) -> Rules:
    """The rule set of a query: the standard game for None, else a checked `Rules`."""
    return _STANDARD if rules is None else check_rules(rules)


def _card_tuple(cards: Cards, rules: Rules, what: str, *, strict: bool = False) -> tuple[int, ...]:
    """`cards` as a tuple of distinct ints in the deck, or a ValueError naming the problem.

    A set of cards asked about (or seen) may name a card twice, which changes nothing; a hand
    (`strict`) that holds a card twice is malformed.
    """
    if isinstance(cards, (str, bytes)):
        raise ValueError(f"{what} must be card numbers, not the text {cards!r}")
    if is_int(cards):
        cards = (cards,)  # type: ignore[assignment]
    try:
        items = take_items(cards, what)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(
            f"{what} must be a card number or a collection of card numbers; got {cards!r}"
        ) from None
    out = rules.check_cards(items, what)
    if not strict:
        return tuple(dict.fromkeys(out))
    if len(set(out)) != len(out):
        dupes = sorted({c for c in out if out.count(c) > 1})
        raise ValueError(f"{what} name each card at most once; {dupes} appear more than once")
    return out


def _resolve_seen(seen: Seen, rules: Rules | None) -> tuple[Rules, frozenset[int]]:
    """The rule set and seen cards of a query, from a view or from explicit cards."""
    if isinstance(seen, PlayerView):
        if rules is not None and rules != seen.rules:
            raise ValueError(f"rules {rules!r} differ from the view's rules {seen.rules!r}")
        return seen.rules, seen.seen_cards
    rules = _rules(rules)
    cards = _card_tuple(seen, rules, "seen cards")
    _check_seen_count(len(cards), rules)
    return rules, frozenset(cards)


def _check_seen_count(n_seen: int, rules: Rules) -> None:
    """A ValueError unless a round of `rules` can turn `n_seen` cards face up."""
    if n_seen > rules.n_in_play:
        raise ValueError(
            f"{n_seen} seen cards, but a round turns at most {rules.n_in_play} face up "
            f"({rules.n_removed} of the {rules.n_cards} cards are removed)"
        )


def _check_n(n: int, least: int = 1, ceiling: int = MAX_SIMULATED_ROUNDS) -> int:
    """A number of simulated rounds in ``least..ceiling`` (`MAX_SIMULATED_ROUNDS`), as an int."""
    return check_count(n, "n (the number of simulated rounds)", ceiling, low=least)


def _ratio(num: int, den: int) -> float:
    """An exact count ratio as a float."""
    # Python's int / int is correctly rounded, so an exact count ratio loses nothing extra.
    return num / den
