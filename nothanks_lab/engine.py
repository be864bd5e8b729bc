"""The readable one-round engine: `Game`, its moves, its public history.

`Game` validates every input and every move, keeps a public event history, and hands out
`PlayerView` objects. `step` runs the shared transitions of :mod:`nothanks_lab.core` as plain
Python on a batch of one; the play loop behind every `act(view)` bot (`_play_out`) makes the
same moves on local values and is proven equal to `core.step` by a differential test
(``tests/test_engine_fast.py``). After a move the position is read back once into immutable
values (chip and hand tuples, the active card, the legal moves) that every property and view
shares until the next move: no hand is rebuilt from its bit mask and no view is built twice."""

from __future__ import annotations

import bisect
import enum
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from . import core, validate
from .deals import check_deck, deal_one
from .i18n import _, ngettext
from .rules import Rules
from .tables import ROWS as _ROWS
from .tables import array_state as _array_state
from .tables import cards_of as _cards_of
from .tables import table_state as _table_state
from .validate import check_seat, check_sequence, keyword_only_after
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

    @property
    def label(self) -> str:
        """The move as the table's buttons name it, in the language in use (``Pegar`` in
        Portuguese); ``str`` of a move stays English, as its ``name`` does."""
        return _("Take") if self is Action.TAKE else _("No Thanks!")


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
        who = names[self.seat] if names is not None else _("Seat {i}").format(i=self.seat)
        if self.action is Action.TAKE:
            if not self.pot:
                return _("{who} takes {card}").format(who=who, card=self.card)
            return ngettext(
                "{who} takes {card} and {n} chip", "{who} takes {card} and {n} chips", self.pot
            ).format(who=who, card=self.card, n=self.pot)
        return _("{who} says No thanks! on {card} (pot {n})").format(
            who=who, card=self.card, n=self.pot
        )


@keyword_only_after(1, "seed")
def deal(rules: Rules, *, seed: SeedLike) -> np.ndarray:
    """The in-play cards of a fresh round, in turning order (removed cards are the rest).

    The one dealer (:func:`nothanks_lab.deals.deal_one`): a seed deals the round a simulation
    with that seed plays as its game 0. None draws fresh entropy.
    """
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    return deal_one(rules, seed=seed)


_BOTH = (Action.TAKE, Action.PASS)
_TAKE_ONLY = (Action.TAKE,)


class _Events(dict[tuple[int, Action, int, int], Event]):
    """Every `Event` made so far, by its move: events are immutable values, so rounds share
    them (a round records ~150 moves, drawn from a few thousand distinct ones), and a round's
    history is one ``map`` of this dict's lookup, in C, over its recorded moves."""

    def __missing__(self, move: tuple[int, Action, int, int]) -> Event:
        # Built once per distinct move, without the frozen dataclass's per-field setattr (the
        # engine's own values need no checks).
        event = object.__new__(Event)
        seat, action, card, pot = move
        object.__setattr__(
            event, "__dict__", {"seat": seat, "action": action, "card": card, "pot": pot}
        )
        self[move] = event
        return event


_EVENTS = _Events()


def _with_card(
    hands: tuple[tuple[int, ...], ...], seat: int, card: int
) -> tuple[tuple[int, ...], ...]:
    """`hands` with `card` added to the sorted hand of `seat` (what a take does to them)."""
    hand = hands[seat]
    i = bisect.bisect(hand, card)
    return (*hands[:seat], (*hand[:i], card, *hand[i:]), *hands[seat + 1 :])


class Game:
    """One round of No Thanks!

    Parameters
    ----------
    n_players : int
        The number of players, one the rule set has a chip count for (3 to 7 in the
        standard game).
    rules : Rules, optional
        The rule set; the standard game when None.
    seed : int, SeedSequence, Generator or None
        Seeds the deal; None deals at random. With `deck` given it plays no part in the deal
        (it is still checked).
    deck : iterable of int, optional
        The in-play cards in the order they will be turned (24 for the standard game); the
        removed cards are the rest.
    first_player : int
        The seat that acts first.

    Raises
    ------
    ValueError
        For a bad player count, seat, seed or deck (wrong length, duplicates, out of range).

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
            cards = deal(rules, seed=rng_seed)
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
    def _state(self) -> core.State:
        """The round as `core`'s batch of one in numpy arrays (a snapshot of the live tables)."""
        return _array_state(self._core)

    @_state.setter
    def _state(self, state: core.State) -> None:
        # A new position (a fresh deal, `from_position`): read every cached value anew.
        self._core = s = _table_state(state)
        self._row = _ROWS[s.chips.shape[1]]
        self._masks: tuple[int, ...] = _ROWS[s.hands.shape[1]](s.hands)
        self._hands = tuple(_cards_of(m) for m in self._masks)
        self._n_in_play = s.deck.shape[1]
        self._in_play = tuple(state.deck[0].tolist())
        if "_pending" not in self.__dict__:
            self._pending: list[tuple[int, Action, int, int]] = []
        self._read_back(0)  # every hand was just read: only the rest is read back

    def _read_back(self, taker: int | None) -> None:
        """Cache the position after a move, read from the core state (core's functions decide).

        A pass (`taker` None) moves chips and the turn only, so only a take re-reads the hand
        of its `taker`, the active card and the end of the round; the card joins the taker's
        sorted hand tuple instead of every hand being rebuilt from its mask.
        """
        s = self._core
        self._chips: tuple[int, ...] = self._row(s.chips)
        self._player: int = s.player[0]
        self._pot: int = s.pot[0]
        self._views: dict[int, PlayerView] = {}
        if taker is not None:
            old = self._masks[taker]
            new = int(s.hands[0, taker])
            if new != old:  # a take adds one card
                self._hands = _with_card(self._hands, taker, (new & ~old).bit_length() - 1)
                masks = self._masks
                self._masks = (*masks[:taker], new, *masks[taker + 1 :])
            self._points: tuple[int, ...] | None = None
            self._over: bool = core.is_over(s, 0)
            self._cards_left = max(0, self._n_in_play - s.turned[0] - 1)
            if self._over:
                self._active: int | None = None
                self._legal: tuple[Action, ...] = ()
                return
            self._active = core.active_card(s, 0)
        self._legal = _BOTH if core.can_pass(s, 0) else _TAKE_ONLY

    @property
    def n_players(self) -> int:
        """Seats at the table."""
        return len(self._chips)

    @property
    def first_player(self) -> int:
        """The seat that acted first."""
        return self._first_player

    @property
    def is_over(self) -> bool:
        """True once the last in-play card has been taken."""
        return self._over

    @property
    def current_player(self) -> int:
        """Seat to act (after the end: the seat that took the last card)."""
        return self._player

    @property
    def active_card(self) -> int | None:
        """The face-up card; None once the round is over."""
        return self._active

    @property
    def pot(self) -> int:
        """Chips on the active card."""
        return self._pot

    @property
    def chips(self) -> tuple[int, ...]:
        """Chips of every seat."""
        return self._chips

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Cards of every seat, each sorted ascending."""
        return self._hands

    @property
    def cards_left(self) -> int:
        """Face-down cards still in the deck, not counting the active one."""
        return int(self._cards_left)

    @property
    def history(self) -> tuple[Event, ...]:
        """Every move so far, in order: all public."""
        if self._pending:  # moves are recorded as plain tuples on the hot path
            self._history.extend(map(_EVENTS.__getitem__, self._pending))
            self._pending.clear()
        return tuple(self._history)

    def card_points(self) -> tuple[int, ...]:
        """Card points of every seat's hand."""
        if self._points is None:
            self._points = tuple(int(core.card_points_mask(m)) for m in self._masks)
        return self._points

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
        in_play = set(self._in_play)
        return tuple(c for c in self._rules.cards if c not in in_play)

    # ----------------------------------------------------------------- moves
    def legal_actions(self) -> tuple[Action, ...]:
        """Moves allowed now: none after the end; only TAKE for a seat without chips."""
        return self._legal

    def can(self, action: Action) -> bool:
        """Whether `action` is legal now."""
        return action in self.legal_actions()

    def step(self, action: Action) -> None:
        """Play `action` for the current player; `IllegalActionError` leaves the round unchanged."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"a move must be Action.TAKE or Action.PASS; got {action!r}")
        legal = self._legal
        if action not in legal:
            if not legal:
                why = "the round is over; no move is allowed"
            else:
                why = (
                    f"seat {self.current_player} has no chips, so cannot say No thanks!; "
                    "the only legal move is Action.TAKE"
                )
            raise IllegalActionError(f"illegal move {action.name}: {why}")
        self._play(action)

    def _play_out(
        self,
        policies: Sequence[object],
        ask: Callable[[object, PlayerView, tuple[Action, ...]], Action],
    ) -> None:
        """Play to the end: each move is ``ask(policies[seat], view, legal moves)``, which must
        return a legal move (`nothanks_lab.play.ask` checks it).

        The hot loop of every act(view) bot (`_decisions` with no seat answered from outside).
        """
        for _view in self._decisions(policies, ask, (False,) * len(self._chips)):
            raise AssertionError("no seat is answered from outside")  # pragma: no cover

    def _decisions(
        self,
        policies: Sequence[object],
        ask: Callable[[object, PlayerView, tuple[Action, ...]], Action],
        outside: Sequence[bool],
    ) -> Generator[PlayerView, Action, None]:
        """Play to the end, yielding the view of each decision of a seat with `outside` true
        and playing the move sent back (a legal one: the caller checks it); every other move
        is ``ask(policies[seat], view, legal moves)``, which must return a legal move.

        The hot loop of every act(view) bot, on local values: the chips a list, the hands
        tuples shared by every view until the next take, one unchecked view per decision.
        Its moves are `core.step`'s on those values (a call into core's batch of one per
        decision would cost more than the rest of the loop); ``tests/test_engine_fast.py``
        proves them equal. The core state is written back at the end, on a policy error, and
        when the generator is closed unfinished (`Game`'s properties are read back then; until
        then they show the position where the loop started). Many games paused at their
        outside seats let a lockstep ask a bot in another process the decisions of all of them
        in one message (`nothanks_lab.tournaments.lockstep`).
        """
        s, rules = self._core, self._rules
        chips = list(self._chips)
        n = len(chips)
        deck, n_in_play = self._in_play, self._n_in_play
        hands, masks = self._hands, self._masks
        turned, seat, pot = s.turned[0], s.player[0], s.pot[0]
        record = self._pending.append
        new, set_fields, view_type = object.__new__, object.__setattr__, PlayerView
        take_move = Action.TAKE
        try:
            while turned < n_in_play:
                card = deck[turned]
                # What every view on this card shares; a decision copies it (a copy of a
                # small dict costs about half a literal's build) and sets its own fields.
                shared = {
                    "n_players": n,
                    "active_card": card,
                    "hands": hands,
                    "cards_left": n_in_play - turned - 1,
                    "rules": rules,
                    "hand_masks": masks,
                }
                while True:  # the decisions on one card, up to its take
                    mine = chips[seat]
                    fields = shared.copy()
                    fields["seat"] = fields["current_player"] = seat
                    fields["pot"] = pot
                    fields["my_chips"] = mine
                    fields["chips"] = tuple(chips)
                    view = new(view_type)
                    set_fields(view, "__dict__", fields)
                    if outside[seat]:
                        action = yield view
                        if action is not take_move and (action is not Action.PASS or not mine):
                            raise IllegalActionError(f"illegal move {action!r} for seat {seat}")
                    else:
                        action = ask(policies[seat], view, _BOTH if mine > 0 else _TAKE_ONLY)
                    record((seat, action, card, pot))
                    if action is take_move:  # core.step(take=True)
                        hands = _with_card(hands, seat, card)
                        masks = (*masks[:seat], masks[seat] | 1 << card, *masks[seat + 1 :])
                        chips[seat] = mine + pot
                        pot = 0
                        turned += 1
                        break
                    chips[seat] = mine - 1  # core.step(take=False)
                    pot += 1
                    seat = seat + 1 if seat + 1 < n else 0
        finally:
            # Written back also when a policy error stops the round: the moves made so far.
            s.turned[0], s.player[0], s.pot[0] = turned, seat, pot
            for p in range(n):
                s.chips[0, p] = chips[p]
                s.hands[0, p] = masks[p]
            self._hands, self._masks = hands, masks
            self._read_back(seat)  # every hand already read: the rest of the position

    def _play(self, action: Action) -> None:
        """Play a legal `action` (the caller has checked it against `legal_actions()`)."""
        seat = self._player
        self._pending.append((seat, action, self._active, self._pot))  # type: ignore[arg-type]
        take = action is Action.TAKE
        core.step(self._core, 0, take)
        self._read_back(seat if take else None)

    # ----------------------------------------------------------------- views and copies
    def view(self, seat: int) -> PlayerView:
        """What `seat` may know: public facts only (no removed card, no deck order)."""
        chips = self._chips
        if type(seat) is not int or not 0 <= seat < len(chips):
            seat = check_seat(seat, len(chips))
        elif seat in self._views:  # same position, same (immutable) view
            return self._views[seat]
        # Every field is an immutable value shared with the engine's cache, never its tables.
        view = PlayerView._of_engine(
            {
                "seat": seat,
                "n_players": len(chips),
                "active_card": self._active,
                "pot": self._pot,
                "my_chips": chips[seat],
                "chips": chips,
                "hands": self._hands,
                "cards_left": self._cards_left,
                "rules": self._rules,
                "current_player": None if self._over else self._player,
                "hand_masks": self._masks,
            }
        )
        self._views[seat] = view
        return view

    def copy(self) -> Game:
        """An independent copy (for search): same deck, same position, same history."""
        new = object.__new__(Game)
        new.__dict__.update(self.__dict__)  # the cached values are immutable: shared
        new._core = core.State(*(a.copy() for a in self._core))  # tables and lists: copies
        new._history = list(self._history)
        new._pending = list(self._pending)
        new._views = {}
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
