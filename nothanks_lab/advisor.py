"""The advisor's model: follow a round played with physical cards, without widgets.

At a real table nobody knows the deck, so `AdvisorSession` is told the round as it happens:
each card turned face up (`turn`) and each seat's move on it (`take`, `no_thanks`). It keeps
those entries and rebuilds the round through the engine after each one, on a deck that turns
the entered cards in order and fills the still-unknown rest with unseen cards (no view shows
them, the way `records` loads a round saved without its deck). So the engine's rules decide
who is to act, what the chips and scores are and when the round ends, and an impossible entry
is refused with an `EntryError` naming the problem ("27 was already turned", "card 40 is
outside 3–35", "seat 2 has no chips to pass", more cards than a round turns) before anything
changes. `undo` takes back the last entry. On the person's turn, `evaluate` gives the hint
panel's whole-round estimate of Take versus No Thanks!, and `to_json` saves the round (the
format of `Game.to_json`) for `nt.review` or the play table's Load.

>>> a = AdvisorSession(3, my_seat=1)
>>> a.turn(27); a.no_thanks(); a.take()
>>> a.phase, a.to_act, a.game.hands[1], a.game.chips
('card', 1, (27,), (10, 12, 11))
>>> a.turn(27)
Traceback (most recent call last):
...
nothanks_lab.advisor.EntryError: 27 was already turned
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Action, Game
from .i18n import _
from .rules import Rules
from .validate import check_bool, check_int, check_rules, check_seat, is_int
from .view import PlayerView

__all__ = ["AdvisorSession", "EntryError"]

#: One entry of a round: a card turned face up, or the move of the seat to act.
Entry = int | Action


class EntryError(ValueError):
    """An entry the round cannot hold (a card already seen, a pass with no chips, ...)."""


class AdvisorSession:
    """A round played with physical cards, entered card by card and move by move.

    Args:
        n_players: seats at the table (the rule set's player counts, 3–7 by default).
        my_seat: the seat the advisor helps.
        chips: starting chips per player (default: the rules' count for `n_players`).
        hidden_chips: the table keeps chips hidden: opponents' counts show as "?" (the engine
            still counts them from the public moves, to refuse a pass with no chips).
        first_player: the seat that acts first.
        rules: the rule set (default: the standard game).
        names: a display name per seat (default ``"Seat i"``, ``"Seat i (you)"``).

    Phases: ``"card"`` (the next card is to be turned and entered), ``"move"`` (the seat to
    act decides on the face-up card), ``"over"`` (the last card was taken).
    """

    def __init__(
        self,
        n_players: int = 4,
        my_seat: int = 0,
        *,
        chips: int | None = None,
        hidden_chips: bool = False,
        first_player: int = 0,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        rules = check_rules(rules)
        counts = rules.player_counts
        if not is_int(n_players) or int(n_players) not in counts:
            raise ValueError(f"n_players must be one of {list(counts)}; got {n_players!r}")
        n = int(n_players)
        if chips is not None:
            chips = check_int(chips, "chips", low=0, high=99)
            rules = Rules(
                low_card=rules.low_card,
                high_card=rules.high_card,
                n_removed=rules.n_removed,
                chips=tuple((k, chips if k == n else c) for k, c in rules.chips),
            )
        self.rules = rules
        self.n_players = n
        self.my_seat = check_seat(my_seat, n, "my_seat")
        self.first_player = check_seat(first_player, n, "first_player")
        self.hidden_chips = check_bool(hidden_chips, "hidden_chips")
        default = [
            _("Seat {i} (you)").format(i=i) if i == self.my_seat else _("Seat {i}").format(i=i)
            for i in range(n)
        ]
        self.names = list(names) if names is not None else default
        if len(self.names) != n or not all(isinstance(x, str) for x in self.names):
            raise ValueError(f"names must hold one name (a string) per seat ({n}); got {names!r}")
        self.entries: list[Entry] = []
        """Every entry so far, oldest first: a card (int) or a move (`Action`)."""
        self.game = self._rebuild([])

    # ----------------------------------------------------------------- state
    @property
    def turned(self) -> tuple[int, ...]:
        """The cards turned face up so far, in order."""
        return tuple(e for e in self.entries if isinstance(e, int))

    @property
    def phase(self) -> str:
        """``"card"``, ``"move"`` or ``"over"`` (see the class docstring)."""
        if self.game.is_over:
            return "over"
        takes = sum(e is Action.TAKE for e in self.entries)
        return "move" if len(self.turned) > takes else "card"

    @property
    def to_act(self) -> int | None:
        """The seat to act (on the face-up card, or on the next card once it is turned)."""
        return None if self.game.is_over else self.game.current_player

    @property
    def active_card(self) -> int | None:
        """The face-up card entered last, while a move on it is awaited; else None."""
        return self.game.active_card if self.phase == "move" else None

    @property
    def is_my_turn(self) -> bool:
        """Whether the person is to decide on a face-up card now."""
        return self.phase == "move" and self.to_act == self.my_seat

    @property
    def view(self) -> PlayerView:
        """The person's view of the round (in the ``"card"`` phase its face-up card is a
        placeholder nobody has seen: use `active_card`)."""
        return self.game.view(self.my_seat)

    @property
    def cards_to_come(self) -> int:
        """Cards still to be turned in this round (the face-up one not counted)."""
        return self.rules.n_in_play - len(self.turned)

    def scores(self) -> tuple[int, ...]:
        """Every seat's score now (card points minus chips); final once the round is over."""
        return self.game.scores()

    def shown_chips(self) -> list[str]:
        """Chips per seat as the table shows them ("?" for opponents with hidden chips)."""
        return [
            "?" if self.hidden_chips and i != self.my_seat else str(c)
            for i, c in enumerate(self.game.chips)
        ]

    def log_lines(self) -> list[str]:
        """The round's entries in words, oldest first."""
        lines = []
        moves = iter(self.game.history)
        for e in self.entries:
            if isinstance(e, int):
                lines.append(_("card {card} turned face up").format(card=e))
            else:
                lines.append(next(moves).describe(self.names))
        return lines

    # ----------------------------------------------------------------- entries
    def turn(self, card: object) -> None:
        """Enter the card turned face up; `EntryError` if the round cannot have turned it."""
        r = self.rules
        if self.phase == "over":
            raise EntryError(
                _("the round is over: a round turns only {n} cards, and all were taken").format(
                    n=r.n_in_play
                )
            )
        if self.phase == "move":
            raise EntryError(
                _("first enter the move of {name} on {card}: Take or No Thanks!").format(
                    name=self.names[self.game.current_player], card=self.game.active_card
                )
            )
        if not is_int(card):
            raise EntryError(
                _("a card is a whole number from {low} to {high}").format(
                    low=r.low_card, high=r.high_card
                )
            )
        c = int(card)
        if not r.low_card <= c <= r.high_card:
            raise EntryError(
                _("card {card} is outside {low}–{high}").format(
                    card=c, low=r.low_card, high=r.high_card
                )
            )
        if c in self.turned:
            raise EntryError(_("{card} was already turned").format(card=c))
        if len(self.turned) >= r.n_in_play:  # cannot happen before the end; kept as a guard
            raise EntryError(f"a round turns only {r.n_in_play} cards")
        self._push(c)

    def move(self, action: Action) -> None:
        """Enter the move of the seat to act on the face-up card; `EntryError` if impossible."""
        if not isinstance(action, Action):
            raise EntryError(f"a move is Action.TAKE or Action.PASS; got {action!r}")
        if self.phase == "over":
            raise EntryError(_("the round is over: every card has been taken"))
        if self.phase == "card":
            raise EntryError(
                _("no card is face up: enter the card {name} turns next").format(
                    name=self.names[self.game.current_player]
                )
            )
        seat = self.game.current_player
        if action is Action.PASS and not self.game.can(Action.PASS):
            raise EntryError(
                _("seat {seat} has no chips to pass; {name} must take").format(
                    seat=seat, name=self.names[seat]
                )
            )
        self._push(action)

    def take(self) -> None:
        """The seat to act takes the face-up card (and its chips)."""
        self.move(Action.TAKE)

    def no_thanks(self) -> None:
        """The seat to act says No thanks! (puts a chip on the card)."""
        self.move(Action.PASS)

    def undo(self) -> Entry:
        """Take back the last entry and return it; `EntryError` when there is none."""
        if not self.entries:
            raise EntryError("nothing to undo: no card or move has been entered yet")
        entries = self.entries[:-1]
        self.game = self._rebuild(entries)
        return self.entries.pop()

    def _push(self, entry: Entry) -> None:
        self.game = self._rebuild([*self.entries, entry])
        self.entries.append(entry)

    def _rebuild(self, entries: Sequence[Entry]) -> Game:
        """The round after `entries`, replayed through the engine on a filled-in deck."""
        cards = [e for e in entries if isinstance(e, int)]
        known = set(cards)
        rest = [c for c in self.rules.cards if c not in known]
        deck = (cards + rest)[: self.rules.n_in_play]
        game = Game(self.n_players, rules=self.rules, deck=deck, first_player=self.first_player)
        for e in entries:
            if isinstance(e, Action):
                game.step(e)
        return game

    # ----------------------------------------------------------------- advice and files
    def evaluate(
        self, *, seed: Any = None, n: int | None = None, budget_s: float | None = None
    ) -> Any:
        """Take versus No Thanks! over the whole round on the person's turn (rollouts).

        Returns a `nothanks_lab.analysis.PositionEvaluation` from the hints' evaluation
        (`analysis.hint_evaluation`, the one `nt.review` makes of the saved round): every
        seat is played out by the analysis module's default rollout bot, at most `n` rollouts
        per move (default `analysis.HINT_ROLLOUTS`), within `budget_s` seconds if given.
        `EntryError` when it is not the person's turn.
        """
        from .analysis import HINT_ROLLOUTS, hint_evaluation

        if not self.is_my_turn:
            raise EntryError("the advice is for your turn, with a card face up")
        n = HINT_ROLLOUTS if n is None else n
        return hint_evaluation(self.view, seed=seed, n=n, budget_s=budget_s)

    def to_json(self) -> str:
        """The round so far as a round document (`Game.to_json`'s format), for a review.

        Only what the table saw is written: the unknown cards still face down never are.
        """
        from .records import dumps, round_to_dict

        doc = round_to_dict(self.game, names=self.names)
        if self.phase == "card":
            doc.pop("active_card", None)  # a placeholder, not a card anyone saw
        return dumps(doc)

    def file_name(self) -> str:
        """A file name for the saved round: ``nothanks-table-4p-seat0.json``."""
        return f"nothanks-table-{self.n_players}p-seat{self.my_seat}.json"
