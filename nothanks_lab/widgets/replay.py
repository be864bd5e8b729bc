"""The replay panel: step through a played round, move by move."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as W

from .. import render
from ..i18n import _, get_language, speaks
from ..table import (
    RoundReplay,
)
from .common import _WRAP, ErrorLine


class ReplayPanel:
    """Step through a round move by move, each step drawing the table as it was.

    Shows a `nothanks_lab.table.RoundReplay` (the model: the round after each move) with
    `render.replay_html`. Buttons ``« First`` (the deal), ``◀ Previous``, ``Next ▶`` and
    ``Last »`` (the end), and with a review a menu of the reviewed moves to jump to.
    `on_step` is called with each step shown.
    """

    def __init__(self, on_step: Callable[[int], None] | None = None) -> None:
        self.replay: RoundReplay | None = None
        self.step = 0
        self.on_step = on_step
        self.errors = ErrorLine()
        self.language = get_language()  # the page's: the panel redraws on its own clicks
        self.first_button = W.Button(
            description=_("« First"), tooltip=_("the deal, before any move")
        )
        self.previous_button = W.Button(description=_("◀ Previous"), tooltip=_("one move back"))
        self.next_button = W.Button(description=_("Next ▶"), tooltip=_("one move on"))
        self.last_button = W.Button(description=_("Last »"), tooltip=_("the end of the round"))
        for b in (self.first_button, self.previous_button, self.next_button, self.last_button):
            b.layout = W.Layout(width="auto")
        self.jump = W.Dropdown(options=[], description=_("my moves"), layout=W.Layout(width="22em"))
        self.view = W.HTML()
        self.view.add_class("nothanks-replay")
        self.widget = W.VBox(
            [
                W.HTML(render.heading_html(_("Replay"), level=4)),
                W.Box(
                    [self.first_button, self.previous_button, self.next_button, self.last_button],
                    layout=_WRAP,
                ),
                self.jump,
                self.errors.widget,
                self.view,
            ],
            layout=W.Layout(flex="1 1 36em", min_width="24em"),
        )
        g = self.errors.guard
        self.first_button.on_click(g(lambda _: self.go(0)))
        self.previous_button.on_click(g(lambda _: self.go(self.step - 1)))
        self.next_button.on_click(g(lambda _: self.go(self.step + 1)))
        self.last_button.on_click(g(lambda _: self.go(self.n_steps)))
        self.jump.observe(g(self._on_jump), names="value")

    @property
    def n_steps(self) -> int:
        """The last step of the round shown (0 when none is)."""
        return 0 if self.replay is None else self.replay.n_steps

    @speaks
    def show(self, replay: RoundReplay, step: int | None = None) -> None:
        """Show `replay` at `step` (default: its last step, the end of the round)."""
        self.replay = replay
        reviewed = [(self._jump_label(replay, k), k) for k in replay.decision_steps()]
        self.jump.unobserve_all("value")
        self.jump.options = [(_("jump to one of my moves…"), -1), *reviewed]
        self.jump.value = -1
        self.jump.observe(self.errors.guard(self._on_jump), names="value")
        self.jump.layout.display = "" if reviewed else "none"
        self.go(replay.n_steps if step is None else step)

    @staticmethod
    def _jump_label(replay: RoundReplay, step: int) -> str:
        m = replay.move_review_at(step)
        assert m is not None
        return _("move {step}: {card}, {move} ({label})").format(
            step=step, card=m.card, move=_(str(m.action)), label=_(m.label)
        )

    @speaks
    def go(self, step: int) -> None:
        """Show step `step`, kept within the round (the deal to the last move)."""
        if self.replay is None:
            return
        self.step = max(0, min(int(step), self.replay.n_steps))
        self.view.value = render.replay_html(self.replay, self.step)
        self.first_button.disabled = self.previous_button.disabled = self.step == 0
        self.next_button.disabled = self.last_button.disabled = self.step == self.n_steps
        if self.on_step is not None:
            self.on_step(self.step)

    def _on_jump(self, change: Mapping[str, Any]) -> None:
        if change["new"] is not None and change["new"] >= 0:
            self.go(change["new"])

    def clear(self) -> None:
        """Show nothing."""
        self.replay = None
        self.step = 0
        self.view.value = ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
