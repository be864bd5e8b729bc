"""The rule set of No Thanks! and the scoring of a hand.

`Rules` is the one place a variant is described: a lesson that wants a smaller deck, fewer
cards removed or other chip counts builds a different `Rules` value; no other code path changes.
Scoring is defined here on plain lists of cards, as a person would count it; the bit-mask
versions used by the engine live in :mod:`nothanks_lab.core` and are tested against these.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import numpy as np

__all__ = ["Rules", "card_points", "runs", "score"]

#: The engine stores a hand as a 64-bit mask, so no card may exceed this value.
MAX_CARD = 62
#: Most starting chips per player a rule set may give (the standard game gives 11).
MAX_CHIPS = 1000
#: Most players a rule set may seat (the standard game seats 3 to 7).
MAX_PLAYERS = 12

_STANDARD_CHIPS: tuple[tuple[int, int], ...] = ((3, 11), (4, 11), (5, 11), (6, 9), (7, 7))


def is_int(value: object) -> TypeGuard[int | np.integer[Any]]:
    """True for a Python int or numpy integer; False for bools (and everything else).

    Defined here, at the bottom of the package, so that :mod:`nothanks_lab.validate` (which
    re-exports it with the other checks) can check rule sets without an import cycle.
    """
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


#: Items of one sequence argument read whole, such as cards, seen cards, events, pots or sizes.
#: The longest round of the largest rule set has under a million events. An endless iterator is
#: refused after one item more than this, not read for ever (`take_items`). Defined here with
#: `take_items` and `short_repr` for the same reason as `is_int` (validate re-exports them).
MAX_ITEMS = 10**6


def short_repr(value: object, limit: int = 80) -> str:
    """`repr(value)` cut to at most `limit` characters, for an error message that echoes input.

    Long lists and strings are shortened before the text is built (`reprlib`), so echoing a
    10**6-item list or a 1 MB string costs little and the error stays one readable line.

    >>> short_repr(list(range(10**6)))
    '[0, 1, 2, 3, 4, 5, ...]'
    >>> len(short_repr("x" * 10**6))
    80
    """
    import reprlib

    shortener = reprlib.Repr()
    shortener.maxstring = shortener.maxother = limit
    try:
        text = shortener.repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def take_items(value: Iterable[Any], name: str, max_items: int = MAX_ITEMS) -> list[Any]:
    """The items of `value` as a list, else `ValueError` once more than `max_items` are read.

    >>> take_items(itertools.count(), "pots", 3)
    Traceback (most recent call last):
    ...
    ValueError: pots has more than 3 items (MAX_ITEMS); give fewer
    """
    items = list(itertools.islice(value, max_items + 1))
    if len(items) > max_items:
        raise ValueError(f"{name} has more than {max_items} items (MAX_ITEMS); give fewer")
    return items


@dataclass(frozen=True)
class Rules:
    """A rule set; the default is the standard game.

    >>> r = Rules()
    >>> r.n_cards, r.n_in_play, r.starting_chips(5), r.starting_chips(7)
    (33, 24, 11, 7)
    >>> Rules(low_card=1, high_card=10, n_removed=2).n_in_play
    8
    """

    low_card: int = 3
    """Lowest card of the deck."""
    high_card: int = 35
    """Highest card of the deck."""
    n_removed: int = 9
    """Cards set aside face down, unseen, before each round."""
    chips: tuple[tuple[int, int], ...] = field(default=_STANDARD_CHIPS)
    """Starting chips as ``(number of players, chips each)`` pairs; also fixes the allowed
    player counts."""

    def __post_init__(self) -> None:
        for name in ("low_card", "high_card", "n_removed"):
            value = getattr(self, name)
            try:
                if isinstance(value, bool):
                    raise TypeError
                # operator.index takes ints and numpy integers, never floats or strings.
                object.__setattr__(self, name, operator.index(value))
            except TypeError:
                raise ValueError(
                    f"Rules.{name} must be a whole number (int); got {value!r}"
                ) from None
        if not 1 <= self.low_card < self.high_card <= MAX_CARD:
            raise ValueError(
                f"cards must satisfy 1 <= low_card < high_card <= {MAX_CARD}; "
                f"got low_card={self.low_card}, high_card={self.high_card}"
            )
        if not 0 <= self.n_removed < self.n_cards:
            raise ValueError(
                f"n_removed must be between 0 and {self.n_cards - 1} for a deck of "
                f"{self.n_cards} cards; got {self.n_removed}"
            )
        chips = self.chips
        if isinstance(chips, str | bytes | Mapping) or not isinstance(chips, Iterable):
            raise ValueError(
                "Rules.chips must be a tuple of (number of players, chips each) pairs, "
                f"e.g. ((3, 11), (4, 11)); got {chips!r}"
            )
        table = tuple(_chip_entry(entry) for entry in chips)
        if not table:
            raise ValueError("Rules.chips must name at least one player count")
        counts = [n for n, _ in table]
        if len(set(counts)) != len(counts):
            raise ValueError(f"Rules.chips names a player count twice: {counts}")
        for n, c in table:
            if n < 2:
                raise ValueError(f"a game needs at least 2 players; Rules.chips has {n}")
            if n > MAX_PLAYERS:
                raise ValueError(
                    f"Rules.chips: at most {MAX_PLAYERS} players are supported; got {n}"
                )
            if c < 0:
                raise ValueError(f"starting chips cannot be negative; {n} players get {c}")
            if c > MAX_CHIPS:
                # Chips are 64-bit integers in compiled code; a bound keeps every sum exact.
                raise ValueError(
                    f"Rules.chips: starting chips must be at most {MAX_CHIPS} per player; "
                    f"{n} players get {c}"
                )
        object.__setattr__(self, "chips", tuple(sorted(table)))
        # What was checked, to compare on use: `object.__setattr__` can change a frozen field.
        object.__setattr__(self, "_checked", self._fields())

    def _fields(self) -> tuple[object, ...]:
        return (self.low_card, self.high_card, self.n_removed, self.chips)

    def check_unaltered(self) -> Rules:
        """This rule set, or `ValueError` if a field was changed after it was checked.

        A frozen dataclass can still be altered with ``object.__setattr__``; every entry
        point that takes a rule set (`validate.check_rules`) calls this, a tuple comparison.
        """
        checked = getattr(self, "_checked", None)
        if checked is None:  # unpickled from a build without the record: check it whole now
            self.__post_init__()
        elif checked != self._fields():
            raise ValueError(
                "rules were altered after they were checked (object.__setattr__ on a frozen "
                f"Rules); build a new one, e.g. dataclasses.replace(rules, ...); got {self!r}"
            )
        return self

    @property
    def n_cards(self) -> int:
        """Cards in the box: ``high_card - low_card + 1``."""
        return self.high_card - self.low_card + 1

    @property
    def n_in_play(self) -> int:
        """Cards turned face up in a round (the draw deck)."""
        return self.n_cards - self.n_removed

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card of the box, ascending."""
        return tuple(range(self.low_card, self.high_card + 1))

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts this rule set allows."""
        return tuple(n for n, _ in self.chips)

    def starting_chips(self, n_players: int) -> int:
        """Chips each player starts with; `ValueError` for a player count the rules lack.

        Parameters
        ----------
        n_players : int
            The number of players at the table.

        Returns
        -------
        int
            The chips each player starts with (11 for 3–5 players in the standard game, 9 for
            6, 7 for 7).

        Raises
        ------
        ValueError
            If these rules have no chip count for `n_players`.
        """
        if is_int(n_players):
            for n, c in self.chips:
                if n == n_players:
                    return c
        raise ValueError(
            f"{n_players!r} players is not allowed by these rules; "
            f"allowed player counts: {', '.join(map(str, self.player_counts))}"
        )

    def check_cards(self, cards: Iterable[int], what: str = "cards") -> tuple[int, ...]:
        """Return `cards` as a tuple of ints, or raise `ValueError` naming the bad ones.

        At most `MAX_ITEMS` items are read: an endless iterator is refused, not read
        for ever.
        """
        out = []
        for c in take_items(cards, what):
            if isinstance(c, bool) or not _is_int(c):
                raise ValueError(f"{what} must be whole numbers; got {short_repr(c)}")
            out.append(int(c))
        bad = sorted({c for c in out if not self.low_card <= c <= self.high_card})
        if bad:
            bad_text = short_repr(bad)
            verb = "contain" if what.endswith("s") else "contains"  # "the deck contains"
            raise ValueError(
                f"{what} {verb} {bad_text}, outside the deck {self.low_card}..{self.high_card}"
            )
        return tuple(out)


def _chip_entry(entry: object) -> tuple[int, int]:
    """One ``(number of players, chips each)`` pair of `Rules.chips` as ints, or `ValueError`."""
    n: object
    c: object
    try:
        if isinstance(entry, str | bytes | Mapping):
            raise TypeError
        n, c = entry  # type: ignore[misc]
    except (TypeError, ValueError):
        raise ValueError(
            f"Rules.chips must hold (number of players, chips each) pairs; got {entry!r}"
        ) from None
    for x in (n, c):
        if not is_int(x):
            raise ValueError(f"Rules.chips entries must be whole numbers (int); got {entry!r}")
    return int(n), int(c)  # type: ignore[call-overload]


def _is_int(x: object) -> bool:
    try:
        as_int: int = int(x)  # type: ignore[call-overload]
        return as_int == x
    except (TypeError, ValueError, OverflowError):
        return False


def _as_hand(cards: Iterable[int]) -> list[int]:
    if isinstance(cards, str | bytes | Mapping) or not isinstance(cards, Iterable):
        raise ValueError(f"a hand is a list of cards (ints), such as [8, 13, 14]; got {cards!r}")
    hand = []
    # A hand holds each card of 1..MAX_CARD at most once: one item more is a card twice, so an
    # endless iterator is refused after MAX_CARD + 1 items instead of read for ever.
    for c in itertools.islice(cards, MAX_CARD + 1):
        if not is_int(c):  # ints and numpy integers only: 3.0 is not a card
            raise ValueError(f"a hand holds whole-numbered cards (int); got {c!r}")
        if not 1 <= c <= MAX_CARD:  # any rule set's deck (variants may hold 1, 2, 36...)
            raise ValueError(f"a hand holds cards from 1 to {MAX_CARD}; got {c!r}")
        hand.append(int(c))
    if len(set(hand)) != len(hand):
        dupes = sorted({c for c in hand if hand.count(c) > 1})
        raise ValueError(f"a hand holds each card at most once; {dupes} appear twice")
    return sorted(hand)


def runs(cards: Iterable[int]) -> list[tuple[int, ...]]:
    """Maximal runs of consecutive cards, ascending.

    Parameters
    ----------
    cards : iterable of int
        A hand, in any order.

    Returns
    -------
    list of tuple of int
        Each maximal run of consecutive cards as an ascending tuple, the runs ascending.

    Raises
    ------
    ValueError
        If a card is not a whole number from 1 to 62 (the largest deck of any rule set;
        a variant may hold cards the standard 3..35 has not) or appears twice.

    >>> runs([17, 8, 14, 13, 15])
    [(8,), (13, 14, 15), (17,)]
    >>> runs([])
    []
    """
    out: list[list[int]] = []
    for c in _as_hand(cards):
        if out and out[-1][-1] == c - 1:
            out[-1].append(c)
        else:
            out.append([c])
    return [tuple(r) for r in out]


def card_points(cards: Iterable[int]) -> int:
    """Points of a hand: each run scores only its lowest card.

    Parameters
    ----------
    cards : iterable of int
        A hand, in any order.

    Returns
    -------
    int
        The sum of the lowest card of each run (0 for an empty hand).

    Raises
    ------
    ValueError
        If a card is not a whole number from 1 to 62 (the largest deck of any rule set;
        a variant may hold cards the standard 3..35 has not) or appears twice.

    >>> card_points([8, 13, 14, 15, 17])
    38
    >>> card_points([27, 28, 29, 30])
    27
    """
    return sum(r[0] for r in runs(cards))


def score(cards: Sequence[int] | Iterable[int], chips: int) -> int:
    """Final score of a hand and its chips (lowest wins): card points minus chips.

    Parameters
    ----------
    cards : iterable of int
        A hand, in any order.
    chips : int
        The chips held at the end, a whole number >= 0.

    Returns
    -------
    int
        ``card_points(cards) - chips``.

    Raises
    ------
    ValueError
        If `chips` is not a whole number >= 0, or a card is not a whole number or appears
        twice.

    >>> score([8, 13, 14, 15, 17], 13)
    25
    """
    if isinstance(chips, bool) or not _is_int(chips) or chips < 0:
        raise ValueError(f"chips must be a whole number >= 0; got {chips!r}")
    return card_points(cards) - int(chips)
