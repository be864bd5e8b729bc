"""The bot lab: pick a field of bots and run a tournament with progress."""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W
import numpy as np

from .. import render
from ..engine import Game
from ..parallel import SerialExecutor
from ..rules import Rules
from ..table import (
    MAX_TABLE_SEED,
    BotSpec,
)
from ..validate import (
    check_int,
    check_sequence,
)
from .common import _WRAP, BotPicker, ErrorLine, FigureArea, paint, plotly_loader


class Cancelled(Exception):
    """A long run stopped by its Cancel button."""


class _ProgressExecutor(SerialExecutor):
    """Runs tournament chunks one at a time, reporting each, stopping when asked to cancel."""

    def __init__(self, on_chunk: Callable[[], None], cancel: threading.Event) -> None:
        self.on_chunk = on_chunk
        self.cancel = cancel

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """Run the call now (unless cancelled), then report progress."""
        if self.cancel.is_set():
            raise Cancelled("cancelled")
        future = super().submit(fn, *args, **kwargs)
        self.on_chunk()
        return future


#: Warn before a run expected to take longer than this many seconds.
LONG_RUN_S = 10.0
#: Decisions in one round of the standard game, roughly (24 cards, passes between takes).
DECISIONS_PER_ROUND = 60


def seconds_per_decision(bot: object, rules: Rules | None = None, probes: int = 3) -> float:
    """A bot's mean time per decision on a few positions (a quick estimate, never cached)."""
    from ..fast import has_fast_path

    if has_fast_path(bot):
        return 2e-7  # compiled: the simulator plays millions of decisions a second
    bot = copy.deepcopy(bot)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(probes):
        g = Game(3, rules=rules, seed=rng)
        bot.act(g.view(0))  # type: ignore[attr-defined]
    return (time.perf_counter() - start) / probes


class BotLab:
    """Pick bots and their parameters, run a tournament with progress and Cancel, see win shares.

    The tournament (rotated seats, paired deals, 95% intervals) is
    :func:`nothanks_lab.tournaments.tournament`, run on a thread so the page keeps answering:
    the progress line shows an estimate of the time left and a Cancel button stops the run
    between chunks. Before a run that should take more than about 10 s, the lab says so.
    `run` (what the button calls, on a thread) or `run_now` (here, blocking) start it.
    """

    def __init__(
        self,
        bots: Sequence[BotSpec] | None = None,
        *,
        n_games: int = 200,
        seed: int = 1,
        chunks: int = 20,
    ) -> None:
        if bots is None:
            bots = [("marginal", {"threshold": t}) for t in (0, 10)]
        bots = check_sequence(bots, "bots", "a list of bots")
        bots += ["random"] * max(0, 3 - len(bots))
        if len(bots) > 7:
            raise ValueError(f"bots: a bot lab seats 3 to 7 bots; got {len(bots)}")
        # Checked here: the sliders and boxes would silently clamp an out-of-range value.
        n_games = check_int(n_games, "n_games", low=10, high=20_000)
        seed = check_int(seed, "seed", low=0, high=MAX_TABLE_SEED)
        chunks = check_int(chunks, "chunks", low=1, high=1000)
        self.errors = ErrorLine()
        self.chunks = chunks
        self.pickers = [
            BotPicker(f"Bot {i + 1}", bots[i] if i < len(bots) else "random") for i in range(7)
        ]
        self.players = W.IntSlider(
            value=len(bots), min=3, max=7, description="bots", continuous_update=False
        )
        self.n_games = W.IntSlider(
            value=n_games,
            min=10,
            max=20_000,
            step=10,
            description="deals",
            continuous_update=False,
        )
        self.seed = W.BoundedIntText(value=seed, min=0, max=MAX_TABLE_SEED, description="seed")
        self.run_button = paint(W.Button(description="Run tournament"), "primary")
        self.cancel_button = paint(W.Button(description="Cancel"), "danger")
        self.cancel_button.layout.display = "none"
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress")
        self.progress_text = W.HTML()
        self.estimate = W.HTML()
        self.estimate.add_class("nothanks-estimate")
        self.table = W.HTML()
        self.result: Any = None
        self.figure = FigureArea(height=420)
        self.figure.output.layout.display = "none"
        self.seats_box = W.VBox(layout=W.Layout(width="100%"))
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._speed: dict[str, float] = {}
        self.widget = W.VBox(
            [
                plotly_loader(),
                W.HTML(render.heading_html("Bot lab")),
                W.Box([self.players, self.n_games, self.seed], layout=_WRAP),
                self.seats_box,
                self.estimate,
                W.Box(
                    [self.run_button, self.cancel_button, self.progress, self.progress_text],
                    layout=_WRAP,
                ),
                self.errors.widget,
                self.table,
                self.figure.output,
            ],
            layout=W.Layout(width="100%"),
        )
        g = self.errors.guard
        self.players.observe(g(lambda _: self._layout()), names="value")
        self.n_games.observe(g(lambda _: self._estimate()), names="value")
        for p in self.pickers:
            p.dropdown.observe(g(lambda _: self._estimate()), names="value")
        self.run_button.on_click(g(lambda _: self.run()))
        self.cancel_button.on_click(g(lambda _: self.cancel()))
        self._layout()

    def _layout(self) -> None:
        self.seats_box.children = tuple(p.widget for p in self.pickers[: self.players.value])
        self._estimate()

    def expected_seconds(self) -> float:
        """Rough time the chosen run takes: each bot's time per decision × decisions played."""
        total = 0.0
        pickers = self.pickers[: self.players.value]
        for p in pickers:
            key = p.spec()
            if key not in self._speed:
                self._speed[key] = seconds_per_decision(p.make(seed=np.random.SeedSequence(0)))
            total += self._speed[key] / len(pickers)
        return total * DECISIONS_PER_ROUND * int(self.n_games.value)

    def _estimate(self) -> None:
        s = self.expected_seconds()
        if s > LONG_RUN_S:
            self.estimate.value = render.notice_html(
                f"This run will take about {_duration(s)} (slow bots at the table); "
                "it can be cancelled."
            )
        else:
            self.estimate.value = ""

    def _field(self) -> list[Any]:
        pickers = self.pickers[: self.players.value]
        return [
            p.make(seed=np.random.SeedSequence([self.seed.value, i])) for i, p in enumerate(pickers)
        ]

    def run(self) -> threading.Thread:
        """Start the tournament on a thread (the page keeps answering; Cancel stops it)."""
        if self._thread is not None and self._thread.is_alive():
            raise RuntimeError("a tournament is already running; wait or press Cancel")
        self._estimate()
        self._thread = threading.Thread(target=self._run_guarded, daemon=True)
        self._thread.start()
        return self._thread

    def _run_guarded(self) -> None:
        try:
            self.run_now()
        except Cancelled:
            self.progress_text.value = "cancelled"
        except Exception as exc:
            self.errors.report(exc)

    def cancel(self) -> None:
        """Stop the running tournament after the chunk in progress."""
        self._cancel.set()

    def run_now(self) -> Any:
        """Play the tournament of the chosen bots here (every bot at one table, seats rotated)."""
        from ..plots import plot_win_shares
        from ..tournaments import tournament

        field = self._field()
        n_games = int(self.n_games.value)
        chunk = max(1, -(-n_games // self.chunks))
        self.progress.max = -(-n_games // chunk)
        self.progress.value = 0
        self.progress_text.value = ""
        self._cancel.clear()
        start = time.perf_counter()

        def on_chunk() -> None:
            done = self.progress.value = min(self.progress.max, self.progress.value + 1)
            left = (time.perf_counter() - start) / done * (self.progress.max - done)
            self.progress_text.value = (
                f"{done} of {self.progress.max} chunks; about {_duration(left)} left"
                if done < self.progress.max
                else f"done in {_duration(time.perf_counter() - start)}"
            )

        self.run_button.disabled = True
        self.cancel_button.layout.display = ""
        self.errors.clear()
        try:
            result = tournament(
                field,
                n_games=n_games,
                seed=int(self.seed.value),
                chunk_size=chunk,
                executor=_ProgressExecutor(on_chunk, self._cancel),
                progress=False,
            )
        finally:
            self.run_button.disabled = False
            self.cancel_button.layout.display = "none"
        self.result = result
        self.table.value = result._repr_html_()
        self.figure.show(plot_win_shares(result))
        return result

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def _duration(seconds: float) -> str:
    """``"12 s"``, ``"3 min"``: a rough duration for a person.

    >>> _duration(4.2), _duration(54), _duration(400)
    ('4 s', '54 s', '7 min')
    """
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    return f"{round(seconds / 60)} min"
