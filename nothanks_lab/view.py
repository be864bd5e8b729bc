"""What one seat may know: the immutable `PlayerView` handed to bots and the play UI.

A view is computed in one place (:meth:`nothanks_lab.engine.Game.view`) from public facts only:
the face-up card, the pot, every seat's cards and chip count (every pass and take is public, so
a perfect memory knows the counts), how many cards remain face down. It never holds a removed
card or the order of the face-down cards, so two rounds that differ only in unseen cards give
equal views.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .core import mask_of
from .rules import Rules, card_points

__all__ = ["PlayerView"]


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
    """Cards still face down in the deck, not counting the active one."""
    rules: Rules
    """The rule set of the round."""
    current_player: int | None = None
    """Seat to act; None once the round is over."""

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
        return self.current_player == self.seat and not self.is_over

    @property
    def can_pass(self) -> bool:
        """A seat may say "No thanks!" only with a chip to put on the card."""
        return self.is_my_turn and self.my_chips > 0

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

    @property
    def n_unseen_in_play(self) -> int:
        """How many of the unseen cards are still to come (the rest were removed)."""
        return self.cards_left

    def card_points(self, seat: int | None = None) -> int:
        """Card points of a seat's hand (default: this view's seat)."""
        return card_points(self.hands[self.seat if seat is None else seat])

    def scores(self) -> tuple[int, ...]:
        """Current score of every seat: card points minus chips."""
        return tuple(card_points(h) - c for h, c in zip(self.hands, self.chips, strict=True))

    def _repr_html_(self) -> str:
        from .render import view_html

        return view_html(self)
