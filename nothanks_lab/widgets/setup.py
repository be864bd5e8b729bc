"""The play table's setup panel: players, the opponents' preset or bots per seat, seed, rounds.

`TableSetup` is a part of `PlayTable` (a mixin): it builds the setup controls, lays out a bot
picker per seat, keeps the preset's summary beside its choice and the bots' pause in step with
its slider. `PlayTable.new_game` reads these controls, so the constructor and the "New game"
button deal through one path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as W

from .. import render
from ..i18n import _, speaks
from ..table import DIFFICULTIES, BotSpec, difficulty_bots, display_label
from .common import (
    _WRAP,
    BotPicker,
    ErrorLine,
    SeedBox,
    _fresh_seed,
    paint,
    point_readout,
    slider_row,
)


class TableSetup:
    """The setup controls of `PlayTable` and what keeps them consistent (a mixin)."""

    human_seat: int
    difficulty: str | None
    bot_delay: float | None
    errors: ErrorLine

    def _build_setup(
        self,
        n_players: int,
        counts: Sequence[int],
        specs: Sequence[BotSpec | None],
        preset: Sequence[BotSpec | None],
        *,
        hide_chips: bool,
        seed: int | None,
        rounds: int,
        bot_delay: float | None,
    ) -> None:
        """Build the controls (`setup_panel` holds them), wire them, lay out the seats."""
        self.players = W.IntSlider(
            value=n_players,
            min=min(counts),
            max=max(counts),
            description=_("players"),
            continuous_update=False,
        )
        self.difficulty_box = W.Dropdown(
            options=[(f"{_(k)}: {display_label(d.bot[0])}", k) for k, d in DIFFICULTIES.items()]
            + [(_("custom (bots below)"), "custom")],
            value=self.difficulty or "custom",
            description=_("opponents"),
        )
        self.difficulty_text = W.HTML()
        self.pickers: list[BotPicker] = [
            BotPicker(
                _("Seat {i}").format(i=i),
                specs[i] if i < len(specs) and specs[i] is not None else preset[i],
            )
            for i in range(max(counts))
        ]
        self.seats_box = W.VBox(layout=W.Layout(width="100%"))
        self.hide_chips = W.Checkbox(value=hide_chips, description=_("hide opponents' chips"))
        self.seed = SeedBox(
            _fresh_seed() if seed is None else seed,
            description=_("seed"),
            tooltip=_("deals come from this seed; it moves on by one after each deal"),
            errors=self.errors,
        )
        self.rounds_box = W.BoundedIntText(
            value=rounds, min=1, max=20, description=_("rounds"), tooltip=_("1 = a single round")
        )
        self.delay = W.FloatSlider(
            value=0.7 if bot_delay is None else min(float(bot_delay), 3.0),
            min=0.0,
            max=3.0,
            step=0.1,
            description=_("bot pause (s)"),
            style={"description_width": "7em"},
            continuous_update=False,
            readout=point_readout(),
            readout_format=".1f",
        )
        self.new_button = paint(W.Button(description=_("New game")), "info")
        self.setup = W.VBox(
            [
                W.Box([self.difficulty_box, self.difficulty_text], layout=_WRAP),
                W.Box([self.players, self.rounds_box], layout=_WRAP),
                W.Box([self.seed.widget, self.hide_chips], layout=_WRAP),
                slider_row(self.delay, 1),
                W.HTML(render.caption_html(_("Bots"), _(" (you play the seat marked 'you')"))),
                self.seats_box,
                self.new_button,
            ],
            layout=W.Layout(width="100%"),
        )
        self.setup_panel = W.Accordion(children=[self.setup], selected_index=None)
        self.setup_panel.set_title(0, _("Setup: players, opponents, seed, rounds"))
        self.setup_panel.add_class("nothanks-setup")

        g = self.errors.guard
        self.players.observe(g(lambda _: self._layout_seats()), names="value")
        self.difficulty_box.observe(g(self._on_difficulty), names="value")
        self.delay.observe(g(self._on_delay), names="value")
        self._describe_difficulty()
        self._layout_seats()

    @staticmethod
    def _seat_specs(
        bots: Sequence[BotSpec | None] | None, n: int, human: int
    ) -> list[BotSpec | None]:
        """Bot specs indexed by seat (None at the human's seat)."""
        if bots is None:
            return [None] * n
        if isinstance(bots, str) or not isinstance(bots, Sequence):
            raise ValueError(f"bots must be a list of {n - 1} bots (one per other seat)")
        bots = list(bots)
        if len(bots) == n - 1:
            bots.insert(human, None)
        elif len(bots) != n:
            raise ValueError(
                f"bots must list {n - 1} bots (one per other seat), or {n} with None at the "
                f"human's seat; got {len(bots)}"
            )
        return bots

    @speaks
    def _layout_seats(self) -> None:
        rows: list[W.Widget] = []
        for i in range(self.players.value):
            if i == self.human_seat:
                rows.append(W.HTML(render.caption_html(_("Seat {i}").format(i=i), _(": you"))))
            else:
                rows.append(self.pickers[i].widget)
        self.seats_box.children = tuple(rows)
        if self.human_seat >= self.players.value:
            self.players.value = self.human_seat + 1

    @speaks
    def _on_difficulty(self, change: Mapping[str, Any]) -> None:
        level = change["new"]
        if level in DIFFICULTIES:
            for i, spec in enumerate(difficulty_bots(level, len(self.pickers), self.human_seat)):
                if spec is not None:
                    self.pickers[i].set_spec(spec)
        self._describe_difficulty()

    def _describe_difficulty(self) -> None:
        level = self.difficulty_box.value
        text = (
            _(DIFFICULTIES[level].summary) if level in DIFFICULTIES else _("the bots chosen below")
        )
        self.difficulty_text.value = render.small_html(text, indent=True)

    def _on_delay(self, change: Mapping[str, Any]) -> None:
        if self.bot_delay is not None:  # None stays manual (tests); the slider sets the pause
            self.bot_delay = float(change["new"])
