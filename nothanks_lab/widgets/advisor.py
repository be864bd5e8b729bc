"""The advisor widget: follow a round played with physical cards (model: `..advisor`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets as W
import numpy as np

from .. import render
from ..engine import Action, Event
from ..i18n import _, check_language, resolve_language, speaks
from ..render import final_scores_html
from ..rules import Rules
from ..table import (
    MAX_TABLE_SEED,
)
from ..validate import (
    check_int,
    check_number,
    check_rules,
    write_atomic,
)
from .common import _WRAP, ErrorLine, paint


class Advisor:
    """Follow a round played with physical cards: enter each card and move, advice on your turn.

    A thin view of `nothanks_lab.advisor.AdvisorSession` (the model: entries, refusals, undo,
    score, the file). Choose the number of players, your seat, who starts and the starting
    chips (or hide opponents' chips), then enter each card turned face up and each seat's move
    on it. On your turn the hint panel shows the chance that the neighbours of your runs are
    still to come and Take versus No Thanks! over the whole round. An impossible entry is one
    plain line naming the problem; Undo takes back the last entry; at the end a link saves the
    round (the format of `Game.to_json`) for a review, e.g. with the play table's Load.
    ``language="pt_BR"`` (or ``"en"``; default: the language in use) for all it shows.

    >>> a = Advisor(3, my_seat=1, hint_budget_s=0.05)
    >>> a.enter_card("27"); a.take_button.click()
    >>> a.session.game.hands[0], a.pass_button.description
    ((27,), 'Seat 0 says no thanks')
    """

    @speaks
    def __init__(
        self,
        n_players: int = 4,
        my_seat: int = 0,
        *,
        chips: int | None = None,
        hidden_chips: bool = False,
        first_player: int = 0,
        rules: Rules | None = None,
        seed: int = 0,
        hint_budget_s: float = 0.5,
        language: str | None = None,
    ) -> None:
        from ..advisor import AdvisorSession

        if language is not None:
            check_language(language)
        self.language = resolve_language(language)
        self._session_class = AdvisorSession
        rules = check_rules(rules)
        self.rules = rules
        self.seed = check_int(seed, "seed", low=0, high=MAX_TABLE_SEED)
        self.hint_budget_s = check_number(hint_budget_s, "hint_budget_s", low=0.01, high=60)
        self.session = AdvisorSession(
            n_players,
            my_seat,
            chips=chips,
            hidden_chips=hidden_chips,
            first_player=first_player,
            rules=rules,
        )
        s = self.session
        counts = rules.player_counts
        self.errors = ErrorLine()
        self.players = W.IntSlider(
            value=s.n_players,
            min=min(counts),
            max=max(counts),
            description=_("players"),
            continuous_update=False,
        )
        self.my_seat = W.BoundedIntText(
            value=s.my_seat, min=0, max=max(counts) - 1, description=_("my seat")
        )
        self.first = W.BoundedIntText(
            value=s.first_player, min=0, max=max(counts) - 1, description=_("first to act")
        )
        self.chips = W.BoundedIntText(
            value=s.rules.starting_chips(s.n_players), min=0, max=99, description=_("chips each")
        )
        self.hidden = W.Checkbox(value=s.hidden_chips, description=_("chips kept hidden"))
        self.start_button = paint(W.Button(description=_("Start over")), "info")
        self.card = W.Text(
            description=_("card turned"),
            placeholder=f"{rules.low_card}–{rules.high_card}",
            continuous_update=False,
            layout=W.Layout(width="14em"),
        )
        self.card_button = paint(W.Button(description=_("Enter card")), "primary")
        self.take_button = paint(W.Button(layout=W.Layout(width="auto")), "warning")
        self.pass_button = paint(W.Button(layout=W.Layout(width="auto")), "success")
        self.undo_button = W.Button(description=_("Undo"), icon="undo")
        self.status = W.HTML()
        self.table = W.HTML()
        self.hints = W.HTML()
        self.save_link = W.HTML()
        self.log = W.HTML(layout=W.Layout(max_height="14em", overflow="auto"))
        self.table.add_class("nothanks-advisor-table")
        self.hints.add_class("nothanks-advisor-hints")
        self.widget = W.VBox(
            [
                W.HTML(render.heading_html(_("Advisor for a real table"))),
                W.Box(
                    [self.players, self.my_seat, self.first, self.chips, self.hidden],
                    layout=_WRAP,
                ),
                self.start_button,
                self.status,
                self.table,
                W.Box(
                    [
                        self.card,
                        self.card_button,
                        self.take_button,
                        self.pass_button,
                        self.undo_button,
                    ],
                    layout=_WRAP,
                ),
                self.errors.widget,
                self.hints,
                self.save_link,
                W.HTML(render.caption_html(_("Entries"), _(" (newest first)"))),
                self.log,
            ],
            layout=W.Layout(width="auto"),  # not 100%: its own margins would overflow its box
        )
        g = self.errors.guard
        self.players.observe(g(self._on_players), names="value")
        self.start_button.on_click(g(lambda _: self.start(), clear=True))
        self.card.observe(g(lambda ch: self.enter_card(ch["new"]), clear=True), names="value")
        self.card_button.on_click(g(lambda _: self.enter_card(self.card.value), clear=True))
        self.take_button.on_click(g(lambda _: self.move(Action.TAKE), clear=True))
        self.pass_button.on_click(g(lambda _: self.move(Action.PASS), clear=True))
        self.undo_button.on_click(g(lambda _: self.undo(), clear=True))
        self._render()

    # ----------------------------------------------------------------- entries
    @speaks
    def _on_players(self, change: Mapping[str, Any]) -> None:
        self.chips.value = self.rules.starting_chips(int(change["new"]))

    @speaks
    def start(self) -> None:
        """A new round with the setup controls' values (the old entries are dropped)."""
        self.session = self._session_class(
            int(self.players.value),
            int(self.my_seat.value),
            chips=int(self.chips.value),
            hidden_chips=bool(self.hidden.value),
            first_player=int(self.first.value),
            rules=self.rules,
        )  # may raise (a seat beyond the players): the old round stays
        self._render()

    @speaks
    def enter_card(self, text: object) -> None:
        """Enter the card turned face up, typed as `text` (an empty box does nothing)."""
        from ..advisor import EntryError

        raw = str(text).strip()
        if not raw:
            return
        if not raw.lstrip("-").isdigit():
            raise EntryError(
                _("{raw} is not a card number ({range})").format(
                    raw=repr(raw), range=self._card_range()
                )
            )
        self.session.turn(int(raw))
        self.card.value = ""
        self._render()

    def _card_range(self) -> str:
        return _("cards run from {low} to {high}").format(
            low=self.rules.low_card, high=self.rules.high_card
        )

    @speaks
    def move(self, action: Action) -> None:
        """Enter the move of the seat to act (what the two move buttons do)."""
        self.session.move(action)
        self._render()

    @speaks
    def undo(self) -> None:
        """Take back the last entry."""
        self.session.undo()
        self._render()

    def save(self, path: str | Path) -> Path:
        """Write the round so far to `path` as a round document (`Game.to_json`'s format)."""
        path = Path(path)
        write_atomic(path, self.session.to_json())
        return path

    # ----------------------------------------------------------------- drawing
    @speaks
    def _render(self) -> None:
        s = self.session
        view, phase = s.view, s.phase
        names = s.names
        last: list[Event | None] = [None] * s.n_players
        for e in s.game.history:
            last[e.seat] = e
        if phase == "card":
            top = render.turn_prompt_html(names[s.game.current_player], s.cards_to_come)
        elif phase == "move":
            top = render.active_html(view)
        else:
            top = ""
        hide = s.hidden_chips and phase != "over"
        self.table.value = top + render.seats_html(view, names, hide, None, last, s.to_act)
        if phase == "over":
            self.status.value = final_scores_html(s.game, names)
        elif phase == "move":
            who = names[s.game.current_player]
            self.status.value = render.move_prompt_html(who, s.active_card)
        else:
            self.status.value = ""
        acting = "" if s.to_act is None else names[s.to_act]
        self.take_button.description = _("{name} takes").format(name=acting).strip()
        self.pass_button.description = _("{name} says no thanks").format(name=acting).strip()
        self.take_button.disabled = phase != "move"
        self.pass_button.disabled = phase != "move" or not s.game.can(Action.PASS)
        self.card.disabled = self.card_button.disabled = phase != "card"
        self.undo_button.disabled = not s.entries
        if s.is_my_turn:
            # Issue 25, item 8: the old advice goes first, so nothing stale shows while this
            # position is worked out, and the result is shown only if the position is the same.
            position = len(s.entries)
            self.hints.value = render.placeholder_html(_("Working out the advice for this move…"))
            seed = np.random.SeedSequence([self.seed, position])
            ev = s.evaluate(seed=seed, budget_s=self.hint_budget_s)
            if len(s.entries) == position and s.is_my_turn:
                html = render.position_evaluation_html(ev)
                self.hints.value = render.hints_html(view, names, html)
        else:
            self.hints.value = render.placeholder_html(
                _("The advice shows on your turn, with a card face up.")
            )
        self.save_link.value = (
            render.download_link_html(
                s.to_json(), s.file_name(), _("Save this round for review (JSON)")
            )
            if phase == "over"
            else ""
        )
        self.log.value = render.log_html(s.log_lines())

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
