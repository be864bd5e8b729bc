"""The readable one-round engine: `Game`, its moves, its public history.

`Game` validates every input and every move, keeps a public event history, and hands out
`PlayerView` objects; the transitions themselves are the shared functions of
:mod:`nothanks_lab.core`, run here as plain Python on a batch of one.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from . import core, validate
from .deals import deal_one
from .rules import Rules
from .validate import check_sequence
from .view import PlayerView, position_state

__all__ = ["Action", "Event", "Game", "IllegalActionError", "SeedLike", "deal"]

SeedLike = validate.SeedLike

#: The standard rule set, built once (building a `Rules` validates it).
_STANDARD = Rules()


class Action(enum.Enum):
    """The two moves of No Thanks!"""

    TAKE = "take"
    """Take the active card and every chip on it, then act again on the next card."""
    PASS = "pass"
    """Say "No thanks!": put one chip on the active card; the next seat acts."""

    def __str__(self) -> str:
        return "Take" if self is Action.TAKE else "No Thanks!"


class IllegalActionError(ValueError):
    """A move the rules do not allow now (passing with no chips, any move after the end)."""


@dataclass(frozen=True)
class Event:
    """One public move of a round."""

    seat: int
    """Who moved."""
    action: Action
    """What they did."""
    card: int
    """The active card they decided on."""
    pot: int
    """Chips on the card before the move (what a taker gains)."""

    def describe(self, names: Sequence[str] | None = None) -> str:
        """The move in words, e.g. ``"Seat 2 says No thanks! on 27 (pot 3)"``."""
        who = names[self.seat] if names is not None else f"Seat {self.seat}"
        if self.action is Action.TAKE:
            gain = f" and {self.pot} chip{'s' * (self.pot != 1)}" if self.pot else ""
            return f"{who} takes {self.card}{gain}"
        return f"{who} says No thanks! on {self.card} (pot {self.pot})"


def deal(rules: Rules, seed: SeedLike) -> np.ndarray:
    """The in-play cards of a fresh round, in turning order (removed cards are the rest).

    The one dealer (:func:`nothanks_lab.deals.deal_one`): a seed deals the round a simulation
    with that seed plays as its game 0. None draws fresh entropy.
    """
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    return deal_one(rules, seed)


def check_deck(deck: Iterable[int], rules: Rules) -> np.ndarray:
    """Return `deck` as an int array, or raise `ValueError` saying what is wrong with it."""
    items = check_sequence(
        deck, "the deck", f"a sequence of {rules.n_in_play} cards in turning order"
    )
    cards = rules.check_cards(items, what="the deck")
    if len(cards) != rules.n_in_play:
        raise ValueError(
            f"the deck must hold exactly {rules.n_in_play} in-play cards "
            f"({rules.n_cards} cards minus {rules.n_removed} removed); got {len(cards)}"
        )
    if len(set(cards)) != len(cards):
        dupes = sorted({c for c in cards if cards.count(c) > 1})
        raise ValueError(f"the deck holds {dupes} more than once; each card appears at most once")
    return np.array(cards, dtype=np.int64)


def check_seat(seat: object, n_players: int, what: str = "seat") -> int:
    """Return `seat` as an int, or raise `ValueError` if it is not 0..n_players-1."""
    return validate.check_seat(seat, n_players, what)


def _cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a bit-mask hand, ascending (one step per card held, not per card of the box)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


class Game:
    """One round of No Thanks!

    >>> g = Game(3, deck=range(3, 27))
    >>> g.active_card, g.current_player, g.legal_actions()
    (3, 0, (<Action.TAKE: 'take'>, <Action.PASS: 'pass'>))
    >>> g.step(Action.PASS); g.step(Action.TAKE)
    >>> g.hands, g.chips, g.pot, g.active_card, g.current_player
    (((), (3,), ()), (10, 12, 11), 0, 4, 1)
    """

    def __init__(
        self,
        n_players: int,
        *,
        rules: Rules | None = None,
        seed: SeedLike = None,
        deck: Iterable[int] | None = None,
        first_player: int = 0,
    ) -> None:
        rules = _STANDARD if rules is None else validate.check_rules(rules)
        n_players = validate.check_players(n_players, rules)
        chips = rules.starting_chips(n_players)
        first_player = check_seat(first_player, n_players, "first_player")
        # The seed is checked even when a deck makes it play no part: one rule everywhere.
        rng_seed = validate.check_seed(seed)
        if deck is None:
            cards = deal(rules, rng_seed)
        else:
            cards = check_deck(deck, rules)
        self._rules = rules
        self._first_player = first_player
        self._state = core.new_state(cards[None, :], int(n_players), chips, first_player)
        self._history: list[Event] = []

    # ----------------------------------------------------------------- public state
    @property
    def rules(self) -> Rules:
        """The rule set of this round."""
        return self._rules

    @property
    def n_players(self) -> int:
        """Seats at the table."""
        return self._state.chips.shape[1]

    @property
    def first_player(self) -> int:
        """The seat that acted first."""
        return self._first_player

    @property
    def is_over(self) -> bool:
        """True once the last in-play card has been taken."""
        return bool(core.is_over(self._state, 0))

    @property
    def current_player(self) -> int:
        """Seat to act (after the end: the seat that took the last card)."""
        return int(self._state.player[0])

    @property
    def active_card(self) -> int | None:
        """The face-up card; None once the round is over."""
        return None if self.is_over else int(core.active_card(self._state, 0))

    @property
    def pot(self) -> int:
        """Chips on the active card."""
        return int(self._state.pot[0])

    @property
    def chips(self) -> tuple[int, ...]:
        """Chips of every seat."""
        return tuple(int(c) for c in self._state.chips[0])

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Cards of every seat, each sorted ascending."""
        return tuple(_cards_of(int(m)) for m in self._state.hands[0])

    @property
    def cards_left(self) -> int:
        """Face-down cards still in the deck, not counting the active one."""
        return max(0, self._rules.n_in_play - int(self._state.turned[0]) - 1)

    @property
    def history(self) -> tuple[Event, ...]:
        """Every move so far, in order: all public."""
        return tuple(self._history)

    def card_points(self) -> tuple[int, ...]:
        """Card points of every seat's hand."""
        return tuple(int(core.card_points_mask(int(m))) for m in self._state.hands[0])

    def scores(self) -> tuple[int, ...]:
        """Score of every seat (card points minus chips; lowest wins); final once over."""
        return tuple(p - c for p, c in zip(self.card_points(), self.chips, strict=True))

    def winners(self) -> tuple[int, ...]:
        """Every seat with the lowest score (ties are shared)."""
        s = self.scores()
        return tuple(i for i, v in enumerate(s) if v == min(s))

    def removed_cards(self) -> tuple[int, ...]:
        """The cards set aside unseen; revealed only once the round is over."""
        if not self.is_over:
            raise IllegalActionError(
                "the removed cards stay hidden until the round is over "
                f"({self.cards_left + 1} cards still to play)"
            )
        in_play = {int(c) for c in self._state.deck[0]}
        return tuple(c for c in self._rules.cards if c not in in_play)

    # ----------------------------------------------------------------- moves
    def legal_actions(self) -> tuple[Action, ...]:
        """Moves allowed now: none after the end; only TAKE for a seat without chips."""
        if self.is_over:
            return ()
        if core.can_pass(self._state, 0):
            return (Action.TAKE, Action.PASS)
        return (Action.TAKE,)

    def can(self, action: Action) -> bool:
        """Whether `action` is legal now."""
        return action in self.legal_actions()

    def step(self, action: Action) -> None:
        """Play `action` for the current player; `IllegalActionError` leaves the round unchanged."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"a move must be Action.TAKE or Action.PASS; got {action!r}")
        legal = self.legal_actions()
        if action not in legal:
            if not legal:
                why = "the round is over; no move is allowed"
            else:
                why = (
                    f"seat {self.current_player} has no chips, so cannot say No thanks!; "
                    "the only legal move is Action.TAKE"
                )
            raise IllegalActionError(f"illegal move {action.name}: {why}")
        self._history.append(Event(self.current_player, action, self.active_card, self.pot))  # type: ignore[arg-type]
        core.step(self._state, 0, action is Action.TAKE)

    # ----------------------------------------------------------------- views and copies
    def view(self, seat: int) -> PlayerView:
        """What `seat` may know: public facts only (no removed card, no deck order)."""
        seat = check_seat(seat, self.n_players)
        chips = self.chips
        over = self.is_over
        return PlayerView._of_engine(
            seat=seat,
            n_players=len(chips),
            active_card=None if over else int(core.active_card(self._state, 0)),
            pot=self.pot,
            my_chips=chips[seat],
            chips=chips,
            hands=self.hands,
            cards_left=self.cards_left,
            rules=self._rules,
            current_player=None if over else self.current_player,
        )

    def copy(self) -> Game:
        """An independent copy (for search): same deck, same position, same history."""
        new = object.__new__(Game)
        new._rules = self._rules
        new._first_player = self._first_player
        new._state = core.State(*(a.copy() for a in self._state))
        new._history = list(self._history)
        return new

    @classmethod
    def replay(
        cls,
        n_players: int,
        events: Iterable[Event],
        *,
        deck: Iterable[int],
        rules: Rules | None = None,
        first_player: int = 0,
    ) -> Game:
        """Rebuild a round by playing `events` on `deck`; `ValueError` if they do not fit it."""
        if deck is None:
            raise ValueError("Game.replay needs deck=, the in-play cards in turning order")
        game = cls(n_players, rules=rules, deck=deck, first_player=first_player)
        events = check_sequence(events, "events", "a sequence of Event records")
        for i, e in enumerate(events):
            if not isinstance(e, Event):
                raise ValueError(f"events[{i}] must be an Event; got {type(e).__name__} {e!r}")
            expected = (game.current_player, game.active_card, game.pot)
            if (e.seat, e.card, e.pot) != expected:
                raise ValueError(
                    f"event {i} ({e}) does not fit the round: expected seat, card, pot {expected}"
                )
            game.step(e.action)
        return game

    @classmethod
    def from_position(
        cls,
        view: PlayerView,
        deck_rest: Sequence[int],
    ) -> Game:
        """A full round consistent with `view`: its public position plus the face-down cards.

        `deck_rest` is a guess at the face-down cards in turning order (``view.cards_left`` of
        them, drawn from ``view.unseen_cards``), as a search bot samples them. The history of
        the new game is empty.
        """
        if not isinstance(view, PlayerView):
            raise ValueError(f"view must be a PlayerView; got {type(view).__name__}")
        if view.is_over:
            raise ValueError("the view's round is over; there is no position to continue")
        rules = view.rules
        rest = rules.check_cards(check_sequence(deck_rest, "deck_rest"), what="deck_rest")
        if len(rest) != view.cards_left:
            raise ValueError(f"deck_rest must hold {view.cards_left} cards; got {len(rest)}")
        unseen = set(view.unseen_cards)
        if len(set(rest)) != len(rest) or not set(rest) <= unseen:
            raise ValueError("deck_rest must be distinct cards that the view has not seen")
        taken = [c for hand in view.hands for c in hand]
        assert view.active_card is not None and view.current_player is not None  # not over
        # A fresh game checks the deck; its state is then the position (`position_state`).
        deck = [*taken, view.active_card, *rest]
        game = cls(view.n_players, rules=rules, deck=deck, first_player=view.current_player)
        game._state = position_state(view, np.array([rest], dtype=np.int64))
        return game

    # ----------------------------------------------------------------- files
    def to_json(
        self,
        *,
        names: Sequence[str] | None = None,
        bots: Sequence[object] | None = None,
        include_deal: bool = False,
    ) -> str:
        """This round as a versioned JSON document (format: :mod:`nothanks_lab.records`)."""
        from .records import round_to_json

        return round_to_json(self, names=names, bots=bots, include_deal=include_deal)

    @classmethod
    def from_json(cls, text: str | bytes, *, seed: SeedLike = None) -> Game:
        """A round from its JSON document, replayed and checked; `ValueError` naming a bad field.

        `seed` deals the face-down cards of an unfinished round saved without its deck.
        """
        from .records import load_round

        return load_round(text, seed=seed).game

    # ----------------------------------------------------------------- display
    def __repr__(self) -> str:
        state = "over" if self.is_over else f"card {self.active_card}, pot {self.pot}"
        return (
            f"<Game {self.n_players} players, {state}, seat {self.current_player} to act, "
            f"chips {list(self.chips)}, points {list(self.card_points())}>"
        )

    def _repr_html_(self) -> str:
        from .render import game_html

        return game_html(self)
