"""What one seat may know: the immutable `PlayerView` handed to bots and the play UI.

A view is computed in one place (:meth:`nothanks_lab.engine.Game.view`) from public facts only:
the face-up card, the pot, every seat's cards and chip count (every pass and take is public, so
a perfect memory knows the counts), how many cards remain face down. It never holds a removed
card or the order of the face-down cards, so two rounds that differ only in unseen cards give
equal views.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from . import core, validate
from .core import mask_of
from .rules import MAX_CHIPS, Rules, card_points

__all__ = ["PlayerView", "any_chip_total", "hypothetical_view", "position_state"]

# Set only inside `any_chip_total()`: a made-up position may hold any number of chips.
_ANY_CHIP_TOTAL: ContextVar[bool] = ContextVar("nothanks_lab_any_chip_total", default=False)


@dataclass(frozen=True)
class PlayerView:
    """The public state of a round as seen from `seat`."""

    seat: int
    """The seat this view belongs to."""
    n_players: int
    """Seats at the table."""
    active_card: int | None
    """The face-up card to decide on; None once the round is over."""
    pot: int
    """Chips lying on the active card."""
    my_chips: int
    """Chips of `seat`."""
    chips: tuple[int, ...]
    """Chips of every seat."""
    hands: tuple[tuple[int, ...], ...]
    """Cards of every seat, each sorted ascending."""
    cards_left: int
    """Cards still face down in the deck, not counting the active one: how many of the
    `unseen_cards` are still to come (the rest were removed)."""
    rules: Rules
    """The rule set of the round."""
    current_player: int | None = None
    """Seat to act; None once the round is over."""

    def __post_init__(self) -> None:
        # Bots, probability and analysis trust a view, so an impossible one is refused here,
        # whoever built it. Kept cheap: the engine builds one per decision.
        rules = validate.check_rules(self.rules, "PlayerView: rules", optional=False)
        n = validate.check_players(self.n_players, rules, "PlayerView: n_players")
        seat = validate.check_seat(self.seat, n, "PlayerView: seat")
        limit = n * MAX_CHIPS  # every chip of the table in one place
        chips = self.chips
        if type(chips) is not tuple:
            if isinstance(chips, str | bytes) or not isinstance(chips, Iterable):
                raise ValueError(
                    f"PlayerView: chips must be a tuple of {n} counts; "
                    f"got {validate.short_repr(chips)}"
                )
            chips = tuple(itertools.islice(chips, n + 1))  # an endless iterator: n + 1 read
        if len(chips) != n:
            raise ValueError(
                f"PlayerView: chips must hold {n} counts (one per seat); "
                f"got {validate.short_repr(chips)}"
            )
        for c in chips:
            if type(c) is not int or not 0 <= c <= limit:
                chips = tuple(_count(c, "chips", limit) for c in chips)
                break
        my_chips = _count(self.my_chips, "my_chips", limit)
        if my_chips != chips[seat]:
            raise ValueError(
                f"PlayerView: my_chips={my_chips} differs from chips[{seat}]={chips[seat]}"
            )
        pot = _count(self.pot, "pot", limit)
        if not _ANY_CHIP_TOTAL.get():
            total = n * rules.starting_chips(n)
            if sum(chips) + pot != total:
                raise ValueError(
                    f"PlayerView: chips {chips} and pot {pot} add up to {sum(chips) + pot}, "
                    f"but a round of {n} players holds {total} chips (chips are never made or "
                    "lost); for a made-up position with other counts use "
                    "view.hypothetical_view(...) or analysis.position_view(...)"
                )
        hands, masks, taken = _hands(self.hands, n, rules)
        active = self.active_card
        cards_left = _count(self.cards_left, "cards_left", rules.n_in_play)
        if active is None:
            if taken != rules.n_in_play or cards_left or pot or self.current_player is not None:
                raise ValueError(
                    "PlayerView: a view without an active card is a finished round: every one "
                    f"of the {rules.n_in_play} in-play cards taken, cards_left 0, pot 0 and "
                    f"current_player None; got {taken} taken, cards_left={cards_left}, "
                    f"pot={pot}, current_player={self.current_player!r}"
                )
            current = None
        else:
            if not validate.is_int(active) or not rules.low_card <= active <= rules.high_card:
                raise ValueError(
                    f"PlayerView: active_card must be None or a card in "
                    f"{rules.low_card}..{rules.high_card}; got {active!r}"
                )
            active = int(active)
            if any((m >> active) & 1 for m in masks):
                raise ValueError(f"PlayerView: active_card {active} is also in a hand: {hands}")
            if taken + 1 + cards_left != rules.n_in_play:
                raise ValueError(
                    f"PlayerView: {taken} cards taken, the active card and cards_left="
                    f"{cards_left} face down must add up to the {rules.n_in_play} in-play "
                    "cards of these rules"
                )
            current = self.current_player
            if current is not None:
                current = validate.check_seat(current, n, "PlayerView: current_player")
        # Store the normalized values (plain ints and tuples, so views hash and compare by
        # value), and the hand masks computed anyway as the cached property's value.
        self.__dict__.update(
            n_players=n,
            seat=seat,
            chips=chips,
            my_chips=my_chips,
            pot=pot,
            hands=hands,
            active_card=active,
            cards_left=cards_left,
            current_player=current,
            hand_masks=masks,
        )

    @classmethod
    def _of_engine(cls, fields: dict[str, object]) -> PlayerView:
        """A view from the engine's own state, without re-checking it (hot path of play).

        The engine only reaches valid positions (it checks every setup and move, and the fuzz
        tests re-validate its views), so its views skip `__post_init__`; every other way to
        build a view, `dataclasses.replace` included, is checked.
        """
        view = object.__new__(cls)
        object.__setattr__(view, "__dict__", fields)  # the engine's fresh dict, not shared
        return view

    @property
    def my_hand(self) -> tuple[int, ...]:
        """Cards of `seat`."""
        return self.hands[self.seat]

    @property
    def is_over(self) -> bool:
        """True once the last card has been taken."""
        return self.active_card is None

    @property
    def is_my_turn(self) -> bool:
        """True when `seat` must decide on the active card."""
        return self.current_player == self.seat and self.active_card is not None

    @property
    def can_pass(self) -> bool:
        """A seat may say "No thanks!" only with a chip to put on the card."""
        # `is_my_turn` spelled out: every bot asks this once per decision.
        return (
            self.current_player == self.seat
            and self.active_card is not None
            and (self.my_chips > 0)
        )

    @cached_property
    def seen_cards(self) -> frozenset[int]:
        """Cards known to be in play: every card taken so far and the active card."""
        seen = {c for hand in self.hands for c in hand}
        if self.active_card is not None:
            seen.add(self.active_card)
        return frozenset(seen)

    @cached_property
    def unseen_cards(self) -> tuple[int, ...]:
        """Cards not yet seen: each is either face down in the deck or removed."""
        return tuple(c for c in self.rules.cards if c not in self.seen_cards)

    @cached_property
    def hand_masks(self) -> tuple[int, ...]:
        """Every seat's hand as a bit mask (bit c set = holds card c), as the engine stores it."""
        return tuple(mask_of(h) for h in self.hands)

    def card_points(self, seat: int | None = None) -> int:
        """Card points of a seat's hand (default: this view's seat)."""
        return card_points(self.hands[self.seat if seat is None else seat])

    def scores(self) -> tuple[int, ...]:
        """Current score of every seat: card points minus chips."""
        return tuple(card_points(h) - c for h, c in zip(self.hands, self.chips, strict=True))

    def _repr_html_(self) -> str:
        from .render import view_html

        return view_html(self)


def position_state(
    view: PlayerView, face_down: np.ndarray, take: bool | np.ndarray | None = None
) -> core.State:
    """Rounds at `view`'s position, one per row of `face_down`, each after the move `take`.

    `face_down` (int[B, cards_left]) holds guesses at the face-down cards in turning order
    (drawn from ``view.unseen_cards``; not checked here). Each deck holds the cards already
    taken first (their order no longer matters), then the active card, then its row of
    guesses. `take` is None (no move), True or False (that move in every round), or a bool per
    row; a move does not depend on the face-down cards, so each is played once, by
    :func:`core.step`, and copied to its rows. The one way a position becomes a `core.State`:
    `Game.from_position`, the rollouts of :mod:`nothanks_lab.analysis` and the search bot.

    >>> from nothanks_lab import Game
    >>> v = Game(3, deck=range(3, 27)).view(0)
    >>> s = position_state(v, [list(range(4, 27))] * 2, take=np.array([True, False]))
    >>> s.turned.tolist(), s.player.tolist(), s.pot.tolist(), s.chips[:, 0].tolist()
    ([1, 0], [0, 1], [0, 1], [11, 10])
    """
    if view.active_card is None or view.current_player is None:
        raise ValueError("the view's round is over; there is no position to continue")
    rows = np.asarray(face_down, dtype=np.int64)
    if rows.ndim != 2 or rows.shape[1] != view.cards_left:
        raise ValueError(
            f"face_down must have shape (rounds, {view.cards_left}): one guess at the "
            f"face-down cards per round; got shape {rows.shape}"
        )
    b = rows.shape[0]
    taken = [c for hand in view.hands for c in hand]
    deck = np.empty((b, len(taken) + 1 + view.cards_left), dtype=np.int64)
    deck[:, : len(taken)] = taken
    deck[:, len(taken)] = view.active_card
    deck[:, len(taken) + 1 :] = rows
    here = core.State(
        deck=np.array([[*taken, view.active_card]], dtype=np.int64),  # enough for one move
        turned=np.array([len(taken)], dtype=np.int64),
        player=np.array([view.current_player], dtype=np.int64),
        pot=np.array([view.pot], dtype=np.int64),
        chips=np.array([view.chips], dtype=np.int64),
        hands=np.array([view.hand_masks], dtype=np.int64),
    )
    state = core.State(deck, *(np.repeat(a, b, axis=0) for a in here[1:]))
    if take is None:
        return state
    moves = np.broadcast_to(np.asarray(take, dtype=bool), (b,))
    for move in (True, False):
        chosen = moves == move
        if not chosen.any():
            continue
        if not move and not core.can_pass(here, 0):
            raise ValueError(f"seat {view.current_player} has no chip to pass with")
        after = core.State(*(a.copy() for a in here))
        core.step(after, 0, move)
        for field, value in zip(state[1:], after[1:], strict=True):
            field[chosen] = value
    return state


def _count(value: object, name: str, limit: int) -> int:
    """A whole number in ``0..limit`` for field `name`, or `ValueError`."""
    if type(value) is int and 0 <= value <= limit:  # the engine's case, checked fast
        return value
    return validate.check_int(value, f"PlayerView: {name}", low=0, high=limit)


def _hands(
    hands: object, n: int, rules: Rules
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int]:
    """Every seat's hand as a sorted tuple of ints, their bit masks and the number of cards."""
    if isinstance(hands, str | bytes) or not isinstance(hands, Iterable):
        raise ValueError(
            f"PlayerView: hands must be {n} hands (one per seat); got {validate.short_repr(hands)}"
        )
    if type(hands) is not tuple:
        hands = tuple(itertools.islice(hands, n + 1))  # an endless iterator: n + 1 read
    if len(hands) != n:
        raise ValueError(
            f"PlayerView: hands must hold {n} hands (one per seat); "
            f"got {validate.short_repr(hands)}"
        )
    lo, hi = rules.low_card, rules.high_card
    masks = []
    held = 0
    taken = 0
    for h in hands:
        m = 0
        prev = lo - 1
        if type(h) is tuple:  # the engine's case: sorted tuples of ints, checked in one pass
            for c in h:
                if type(c) is not int or not prev < c <= hi:
                    break
                prev = c
                m |= 1 << c
            else:
                if held & m:
                    twice = [c for c in h if (held >> c) & 1]
                    raise ValueError(
                        f"PlayerView: hands hold {twice} more than once (every card is unique)"
                    )
                held |= m
                taken += len(h)
                masks.append(m)
                continue
        return _hands(tuple(_hand(h, lo, hi) for h in hands), n, rules)
    return hands, tuple(masks), taken


def _hand(h: object, lo: int, hi: int) -> tuple[int, ...]:
    """One hand as a sorted tuple of distinct ints in ``lo..hi``, or `ValueError`."""
    if isinstance(h, str | bytes) or not isinstance(h, Iterable):
        raise ValueError(f"PlayerView: each hand must be a tuple of cards; got {h!r}")
    cards = tuple(itertools.islice(h, hi - lo + 2))  # more than the deck holds is refused below
    if len(cards) > hi - lo + 1:
        raise ValueError(f"PlayerView: a hand holds more cards than the deck {lo}..{hi}")
    for c in cards:
        if not validate.is_int(c):
            raise ValueError(f"PlayerView: hands must hold whole-numbered cards; got {c!r}")
        if not lo <= c <= hi:
            raise ValueError(f"PlayerView: hands hold card {c}, outside the deck {lo}..{hi}")
    out = tuple(sorted(int(c) for c in cards))
    if len(set(out)) != len(out):
        raise ValueError(f"PlayerView: a hand holds a card twice: {list(cards)}")
    return out


@contextmanager
def any_chip_total() -> Iterator[None]:
    """Inside the block, views may hold any chip total (made-up positions; see below)."""
    token = _ANY_CHIP_TOTAL.set(True)
    try:
        yield
    finally:
        _ANY_CHIP_TOTAL.reset(token)


def hypothetical_view(**fields: object) -> PlayerView:
    """A `PlayerView` of a made-up position: checked like any view except for the chip total.

    A view built by hand must hold exactly the chips of a real round: every seat's chips plus
    the pot make ``n_players * rules.starting_chips(n_players)``, since no move makes or loses a
    chip. Analysis asks "what if" about positions that need not come from a round (a student's
    "I have 3 chips, they have 11 each"): `analysis.position_view`, the advisor, the hint panel
    and rollouts from such positions build their views here. Everything else is still refused
    (a card twice, a card outside the deck, counts that do not add up to the in-play cards).
    """
    with any_chip_total():
        return PlayerView(**fields)  # type: ignore[arg-type]
