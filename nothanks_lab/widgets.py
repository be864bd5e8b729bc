"""Notebook widgets: play a round against bots (`PlayTable`) and explore chances and bots.

Each UI is a plain class that owns its ipywidgets, wires them with ``observe(...,
names="value")`` and ``on_click``, and shows itself through its root box
(``_repr_mimebundle_``). The widgets hold no rules and no markup: the play table draws a
`nothanks_lab.table.TableSession` (deals, seeding, turns, bot moves, rounds) and forwards clicks
to it; every piece of HTML comes from :mod:`nothanks_lab.render`. A bad input shows as one
short line in plain words (`ErrorLine`), cleared by the next valid input; the traceback goes to
the ``nothanks_lab.widgets`` logger (JupyterLab's log console) and `ErrorLine.tracebacks`.

Figures are redrawn as plain HTML (``render.figure_html``) into an ``Output`` after plotly.js
is loaded once, offline, from the installed plotly package: ``FigureWidget`` and plotly's
mimetype renderer fall out of step in Voilà and after a JupyterLab reload.

Bots move one at a time after a short delay scheduled on the kernel's asyncio loop (a
``threading.Timer`` outside a kernel); ``bot_delay=0`` moves them at once and
``bot_delay=None`` waits for explicit `PlayTable.advance` calls, so tests never sleep.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import itertools
import logging
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import ipywidgets as W
import numpy as np

from . import render
from .bots import available_bots, bot_class, params_of
from .bots.base import Param
from .engine import Action, Event, Game, IllegalActionError, check_seat
from .parallel import SerialExecutor
from .play import MatchResult, PolicyError, policy_name
from .render import final_scores_html, hints_html, neighbour_cards, seats_html
from .rules import Rules
from .table import (
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    MAX_TABLE_SEED,
    BotSpec,
    RoundReplay,
    TableSession,
    build_bot,
    check_difficulty,
    difficulty_bots,
    spec_label,
)
from .validate import (
    check_bool,
    check_int,
    check_number,
    check_rules,
    check_seed,
    check_sequence,
    is_int,
)
from .view import PlayerView

__all__ = [
    "Advisor",
    "BotLab",
    "BotPicker",
    "ChipValueExplorer",
    "ErrorLine",
    "FigureArea",
    "PlayTable",
    "ProbabilityExplorer",
    "ReplayPanel",
    "evaluation_html",
    "final_scores_html",
    "hints_html",
    "neighbour_cards",
    "seats_html",
]

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger(__name__)


def default_bot_name() -> str:
    """The registry name of the default preset's bot."""
    return DIFFICULTIES[DEFAULT_DIFFICULTY].bot[0]


#: Longest pause between bot moves a table accepts, in seconds (its slider stops at 3).
MAX_BOT_DELAY_S = 60.0


def _table_seed(seed: object, name: str = "seed") -> int | None:
    """A seed for a table's seed box: the one seed rule, as an int the box can show."""
    seed = check_seed(seed, name)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(MAX_TABLE_SEED + 1))
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1)[0]) % (MAX_TABLE_SEED + 1)
    if seed is not None and seed > MAX_TABLE_SEED:
        raise ValueError(
            f"{name} must be at most {MAX_TABLE_SEED} (the seed box's limit); got {seed}"
        )
    return None if seed is None else int(seed)


def _fresh_seed() -> int:
    """A new small seed from OS entropy (never the global generator), easy to retype."""
    return int(np.random.SeedSequence().entropy) % 1_000_000  # type: ignore[arg-type]  # an int


def plain_message(exc: BaseException) -> str:
    """One short line for a person: the error's own words, without the view dump or type.

    >>> plain_message(ValueError("card 27 is already in your hand"))
    'card 27 is already in your hand'
    """
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    for cut in (" when shown ", "; it was shown ", "; it would be shown "):
        text = text.split(cut)[0]
    if not isinstance(exc, ValueError):
        text = f"{type(exc).__name__}: {text} (details in the log)"
    return text if len(text) <= 240 else text[:237] + "…"


class ErrorLine:
    """One line saying what went wrong, in plain words; tracebacks go to the log, not the page.

    `guard` wraps a callback so an exception it raises is shown here instead of being lost;
    with ``clear=True`` a callback that succeeds clears the line (the input is valid again).
    """

    def __init__(self) -> None:
        self.widget = W.HTML()
        self.widget.add_class("nothanks-errors")
        self.messages: list[str] = []
        """Every message shown, oldest first (for tests and notebooks)."""
        self.tracebacks: list[str] = []
        """The matching tracebacks, for developers."""

    @property
    def text(self) -> str:
        """The message on display ("" when none)."""
        return self.messages[-1] if self.messages and self.widget.value else ""

    def report(self, exc: BaseException) -> None:
        """Show `exc` as one line; keep and log its traceback."""
        message = plain_message(exc)
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.messages.append(message)
        self.tracebacks.append(tb)
        log.debug("%s\n%s", message, tb)  # for developers: logging.basicConfig(level=DEBUG)
        self.widget.value = render.error_html(message)

    def clear(self) -> None:
        """Hide the shown message (the history stays in `messages`)."""
        self.widget.value = ""

    def guard(self, fn: F, clear: bool = False) -> F:
        """Wrap a callback so that any exception it raises is shown here, not swallowed."""

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                out = fn(*args, **kwargs)
            except Exception as exc:
                self.report(exc)
                return None
            if clear:
                self.clear()
            return out

        return wrapper  # type: ignore[return-value]


# --------------------------------------------------------------------------- figures
_figure_ids = itertools.count()


def plotly_loader() -> W.Output:
    """An ``Output`` that defines ``window.Plotly`` from the installed package (no network)."""
    out = W.Output(layout=W.Layout(height="0px", overflow="hidden"))
    out.outputs = (_html_output(render.plotly_js_html(), "plotly.js"),)
    return out


def _html_output(html: str, text: str) -> dict[str, Any]:
    return {
        "output_type": "display_data",
        "data": {"text/html": html, "text/plain": text},
        "metadata": {},
    }


class FigureArea:
    """A figure redrawn as a whole into an ``Output``, as wide as the page.

    `figure` is the last ``go.Figure`` shown (None when hidden); `html` its markup.
    """

    def __init__(self, height: int = 420) -> None:
        self.height = height
        self.output = W.Output(layout=W.Layout(width="100%"))
        self.figure: Any = None
        self.html = ""
        self.draws = 0

    def show(self, fig: Any) -> None:
        """Draw `fig` in place of the previous figure."""
        self.draws += 1
        div = f"nothanks-fig-{next(_figure_ids)}"
        self.html = render.figure_html(fig, div, self.height)
        self.figure = fig
        title = fig.layout.title.text or "figure"
        self.output.outputs = (_html_output(self.html, f"<{title}>"),)
        self.output.layout.display = ""

    def hide(self) -> None:
        """Hide the figure (its inputs are no longer valid)."""
        self.figure = None
        self.output.layout.display = "none"


# --------------------------------------------------------------------------- bot pickers
#: The few parameters a student would change, per bot; the rest sit under "advanced".
STUDENT_PARAMS: dict[str, tuple[str, ...]] = {
    "marginal": ("threshold",),
    "random": ("p_take",),
    "heuristic": ("threshold", "pot_weight"),
    "expectation": ("chip_value", "scarcity"),
    "search": ("n_rollouts",),
    "best": ("n_rollouts",),
    "linear": (),
}


def bot_label(name: str) -> str:
    """A dropdown label: the bot's name and the difficulty preset it stands for, if any.

    >>> bot_label("best"), bot_label("random")
    ('best (hard)', 'random')
    """
    levels = [d.name for d in DIFFICULTIES.values() if d.bot[0] == name and not d.bot[1]]
    levels += [
        d.name
        for d in DIFFICULTIES.values()
        if d.bot[0] == name
        and d.bot[1]
        and all(params_of(name)[k].default == v for k, v in d.bot[1].items())
    ]
    return f"{name} ({levels[0]})" if levels else name


def param_widget(param: Param, value: Any = None) -> W.ValueWidget:
    """A slider (or checkbox) for a declared bot parameter, spanning its allowed range."""
    value = param.default if value is None else value
    style = {"description_width": "10em"}
    layout = W.Layout(width="26em", max_width="100%")
    if param.kind is bool:
        return W.Checkbox(
            value=bool(value),
            description=param.name,
            tooltip=param.doc,
            style=style,
            layout=layout,
        )
    if param.kind is int:
        return W.IntSlider(
            value=int(value),
            min=int(param.low),
            max=int(param.high),
            description=param.name,
            tooltip=param.doc,
            continuous_update=False,
            style=style,
            layout=layout,
        )
    return W.FloatSlider(
        value=float(value),
        min=float(param.low),
        max=float(param.high),
        step=(float(param.high) - float(param.low)) / 100 or 0.01,
        description=param.name,
        tooltip=param.doc,
        continuous_update=False,
        style=style,
        layout=layout,
    )


_WRAP = W.Layout(display="flex", flex_flow="row wrap", align_items="center", width="100%")


class BotPicker:
    """One seat's bot: a dropdown of registered bots, its main parameters, the rest collapsed.

    The few parameters a student would change (`STUDENT_PARAMS`) show beside the dropdown;
    the others sit in a collapsed "advanced" section whose rows wrap inside the page width.
    A policy object given as `spec` is offered as an extra choice (``"custom: <name>"``).
    """

    CUSTOM = "custom"

    def __init__(self, label: str, spec: BotSpec | None = None) -> None:
        self.custom: Any = None
        self.label_text = label
        self.label = W.HTML(f"<b>{render.escape(label)}</b>", layout=W.Layout(width="5em"))
        self.dropdown = W.Dropdown(layout=W.Layout(width="13em"))
        self.main_box = W.Box(layout=_WRAP)
        self.advanced_box = W.Box(layout=_WRAP)
        self.advanced = W.Accordion(children=[self.advanced_box], selected_index=None)
        self.advanced.layout = W.Layout(width="100%")
        self._initial: dict[str, Any] = {}
        self.set_spec(spec)
        self.dropdown.observe(self._on_name, names="value")
        self.widget = W.VBox(
            [W.Box([self.label, self.dropdown, self.main_box], layout=_WRAP), self.advanced],
            layout=W.Layout(width="100%", margin="0 0 .4em 0"),
        )

    def set_spec(self, spec: BotSpec | None) -> None:
        """Show `spec` (a name, ``(name, params)`` or a policy); `ValueError` if it is none."""
        params: Mapping[str, Any] = {}
        custom = None
        if spec is None:
            name = default_bot_name()
        elif isinstance(spec, str):
            name = spec
        elif isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
            name, params = spec[0], dict(spec[1])
        elif callable(getattr(spec, "act", None)):
            custom, name = spec, self.CUSTOM
        else:
            raise ValueError(
                f"{self.label_text}: a bot is a registered name, (name, params) or an object "
                f"with act(view); got {spec!r}"
            )
        if name != self.CUSTOM:
            bot_class(name)  # ValueError naming the available bots
            known = params_of(name)
            unknown = sorted(set(params) - set(known))
            if unknown:
                raise ValueError(
                    f"{self.label_text}: bot {name!r} has no parameter {', '.join(unknown)}; "
                    f"allowed: {', '.join(known) or 'none'}"
                )
        if custom is not None or self.custom is None:
            self.custom = custom if custom is not None else self.custom
        options = [(bot_label(n), n) for n in available_bots()]
        if self.custom is not None:
            options.insert(0, (f"custom: {policy_name(self.custom)}", self.CUSTOM))
        self._initial = dict(params)
        if list(self.dropdown.options) != options:
            self.dropdown.options = options
        self.dropdown.value = name
        self._build_params()
        self._initial = {}

    @property
    def name(self) -> str:
        """The chosen registry name (or ``"custom"``)."""
        return str(self.dropdown.value)

    @property
    def sliders(self) -> list[W.ValueWidget]:
        """Every parameter control, main ones first."""
        return [*self.main_box.children, *self.advanced_box.children]

    @property
    def params(self) -> dict[str, Any]:
        """Values of the parameter controls."""
        return {w.description: w.value for w in self.sliders}

    def _build_params(self) -> None:
        if self.name == self.CUSTOM:
            self.main_box.children = self.advanced_box.children = ()
            self.advanced.layout.display = "none"
            return
        declared = params_of(self.name)
        main = STUDENT_PARAMS.get(self.name, tuple(declared)[:2])
        self.main_box.children = tuple(
            param_widget(declared[n], self._initial.get(n)) for n in main if n in declared
        )
        rest = [n for n in declared if n not in main]
        self.advanced_box.children = tuple(
            param_widget(declared[n], self._initial.get(n)) for n in rest
        )
        self.advanced.set_title(0, f"advanced: {len(rest)} more settings of {self.name}")
        self.advanced.layout.display = "" if rest else "none"

    def _on_name(self, change: Mapping[str, Any]) -> None:
        self._build_params()

    def spec_value(self) -> BotSpec:
        """The chosen bot as a spec: ``(name, params)`` or the custom policy."""
        if self.name == self.CUSTOM:
            return self.custom
        return (self.name, self.params)

    def spec(self) -> str:
        """A short description naming only changed settings, e.g. ``"marginal(threshold=4)"``."""
        return spec_label(self.spec_value())

    def make(self, seed: np.random.SeedSequence | None = None) -> Any:
        """Build the chosen bot; a randomized bot draws from its own generator seeded by `seed`."""
        return build_bot(self.spec_value(), seed)


# --------------------------------------------------------------------------- hints
def evaluation_html(
    view: PlayerView,
    seed: int,
    budget_s: float = 0.5,
    *,
    field: Sequence[object] | None = None,
    assumed: Sequence[str] | None = None,
) -> str:
    """Take versus No Thanks! by rollouts against `field` (one policy per seat), as HTML.

    `assumed` says in words how each opponent is played; without a `field` every seat is
    played by the analysis module's default rollout bot, and the panel says so.
    """
    from .analysis import evaluate_position

    ev = evaluate_position(view, field=field, seed=seed, budget_s=budget_s)
    return render.position_evaluation_html(ev, assumed)


# --------------------------------------------------------------------------- replays
class ReplayPanel:
    """Step through a round move by move, each step drawing the table as it was.

    Shows a `nothanks_lab.table.RoundReplay` (the model: the round after each move) with
    `render.replay_html`. Buttons ``⏮ First`` (the deal), ``◀ Previous``, ``Next ▶`` and
    ``Last ⏭`` (the end), and with a review a menu of the reviewed moves to jump to.
    `on_step` is called with each step shown.
    """

    def __init__(self, on_step: Callable[[int], None] | None = None) -> None:
        self.replay: RoundReplay | None = None
        self.step = 0
        self.on_step = on_step
        self.errors = ErrorLine()
        self.first_button = W.Button(description="⏮ First", tooltip="the deal, before any move")
        self.previous_button = W.Button(description="◀ Previous", tooltip="one move back")
        self.next_button = W.Button(description="Next ▶", tooltip="one move on")
        self.last_button = W.Button(description="Last ⏭", tooltip="the end of the round")
        for b in (self.first_button, self.previous_button, self.next_button, self.last_button):
            b.layout = W.Layout(width="auto")
        self.jump = W.Dropdown(options=[], description="my moves", layout=W.Layout(width="22em"))
        self.view = W.HTML()
        self.view.add_class("nothanks-replay")
        self.widget = W.VBox(
            [
                W.HTML("<h4 style='margin:.3em 0'>Replay</h4>"),
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

    def show(self, replay: RoundReplay, step: int | None = None) -> None:
        """Show `replay` at `step` (default: its last step, the end of the round)."""
        self.replay = replay
        reviewed = [(self._jump_label(replay, k), k) for k in replay.decision_steps()]
        self.jump.unobserve_all("value")
        self.jump.options = [("jump to one of my moves…", -1), *reviewed]
        self.jump.value = -1
        self.jump.observe(self.errors.guard(self._on_jump), names="value")
        self.jump.layout.display = "" if reviewed else "none"
        self.go(replay.n_steps if step is None else step)

    @staticmethod
    def _jump_label(replay: RoundReplay, step: int) -> str:
        m = replay.move_review_at(step)
        assert m is not None
        return f"move {step}: {m.card}, {m.action} ({m.label})"

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


# --------------------------------------------------------------------------- the play table
class PlayTable:
    """Play No Thanks! against bots in a notebook: ``PlayTable()`` deals a round at once.

    Args:
        n_players: seats at the table (the rule set's player counts, 3–7 by default).
        bots: one bot per other seat, in seat order (a registered name, ``(name, params)`` or a
            policy object); default: the `difficulty` preset's bot everywhere.
        difficulty: ``"easy"``, ``"medium"`` (default) or ``"hard"``: the opponents' preset
            (see `nothanks_lab.table.DIFFICULTIES`), used when `bots` is not given.
        human_seat: the seat the person plays.
        seed: seed of the deals (and of randomized bots); None draws a fresh one.
        hide_chips: show opponents' chip counts as "?" (a memory exercise).
        rounds: 1 for a single round, more for a match with cumulative scores.
        bot_delay: seconds between bot moves; 0 moves them at once, None only on `advance()`.
        double_click_s: a second click on Take / No Thanks! within this many seconds of the
            previous move is ignored (so a double click never makes two moves).
        rules: the rule set (default: the standard game).
        review_rollouts: rollouts per move of "Review my round" (default: `nt.review`'s).

    When a round ends, "Review my round" shows the review of the person's decisions beside a
    replay (`ReplayPanel`), a link saves the round as a file, and "Load a round" shows a saved
    one in the same replay and review (`review_round`, `save`, `load_round`).

    >>> t = PlayTable(3, ["marginal", ("marginal", {"threshold": 0})], seed=1, bot_delay=0)
    >>> t.phase, t.take_button.description, t.pass_button.description
    ('human', 'Take', 'No Thanks!')
    >>> t.take_button.click()  # what a person's click does
    >>> t.game.history[0].describe(t.names)
    'Seat 0 (you) takes 16'
    """

    def __init__(
        self,
        n_players: int = 4,
        bots: Sequence[BotSpec | None] | None = None,
        *,
        difficulty: str = DEFAULT_DIFFICULTY,
        human_seat: int = 0,
        seed: int | None = None,
        hide_chips: bool = False,
        rounds: int = 1,
        bot_delay: float | None = 0.7,
        double_click_s: float = 0.3,
        rules: Rules | None = None,
        review_rollouts: int | None = None,
    ) -> None:
        rules = check_rules(rules)
        counts = [n for n, _ in rules.chips]
        if not is_int(n_players) or int(n_players) not in counts:
            raise ValueError(f"n_players must be one of {counts}; got {n_players!r}")
        n_players = int(n_players)
        difficulty = check_difficulty(difficulty)
        human_seat = check_seat(human_seat, n_players, "human_seat")
        rounds = check_int(rounds, "rounds", low=1, high=20)
        if bot_delay is not None:
            # A finite pause the timer can keep (inf would kill the timer thread silently).
            bot_delay = check_number(bot_delay, "bot_delay", low=0, high=MAX_BOT_DELAY_S)
        double_click_s = check_number(double_click_s, "double_click_s", low=0, high=10)
        hide_chips = check_bool(hide_chips, "hide_chips")
        if review_rollouts is not None:
            review_rollouts = check_int(review_rollouts, "review_rollouts", low=2, high=100_000)
        seed = _table_seed(seed)
        specs = self._seat_specs(bots, n_players, human_seat)
        preset = difficulty_bots(difficulty, max(counts), human_seat)

        self.rules = rules
        self.human_seat = human_seat
        self.bot_delay = bot_delay
        self.double_click_s = float(double_click_s)
        self.clock: Callable[[], float] = time.monotonic
        self.errors = ErrorLine()
        self._lock = threading.RLock()
        self._pending = False
        self._last_move_at = -float("inf")
        self.session: TableSession
        self.difficulty: str | None = None if bots is not None else difficulty
        self.review_rollouts = review_rollouts
        self.review: Any = None
        """The review on display (a `nothanks_lab.review.Review`), or None."""
        self._review_thread: threading.Thread | None = None
        self._review_token = 0
        self._save_key: tuple[int, int, int] | None = None

        # Setup controls: read by new_game(), so the constructor and the button share one path.
        self.players = W.IntSlider(
            value=n_players,
            min=min(counts),
            max=max(counts),
            description="players",
            continuous_update=False,
        )
        self.difficulty_box = W.Dropdown(
            options=[(f"{k}: {d.bot[0]}", k) for k, d in DIFFICULTIES.items()]
            + [("custom (bots below)", "custom")],
            value=self.difficulty or "custom",
            description="opponents",
        )
        self.difficulty_text = W.HTML()
        self.pickers: list[BotPicker] = [
            BotPicker(
                f"Seat {i}",
                specs[i] if i < len(specs) and specs[i] is not None else preset[i],
            )
            for i in range(max(counts))
        ]
        self.seats_box = W.VBox(layout=W.Layout(width="100%"))
        self.hide_chips = W.Checkbox(value=hide_chips, description="hide opponents' chips")
        self.seed = W.BoundedIntText(
            value=_fresh_seed() if seed is None else seed,
            min=0,
            max=MAX_TABLE_SEED,
            description="seed",
            tooltip="deals come from this seed; it moves on by one after each deal",
        )
        self.rounds_box = W.BoundedIntText(
            value=rounds, min=1, max=20, description="rounds", tooltip="1 = a single round"
        )
        self.delay = W.FloatSlider(
            value=0.7 if bot_delay is None else min(float(bot_delay), 3.0),
            min=0.0,
            max=3.0,
            step=0.1,
            description="bot pause (s)",
            style={"description_width": "7em"},
            continuous_update=False,
        )
        self.new_button = W.Button(description="New game", button_style="info")
        self.setup = W.VBox(
            [
                W.Box([self.difficulty_box, self.difficulty_text], layout=_WRAP),
                W.Box([self.players, self.rounds_box], layout=_WRAP),
                W.Box([self.seed, self.hide_chips], layout=_WRAP),
                self.delay,
                W.HTML("<b>Bots</b> (you play the seat marked 'you')"),
                self.seats_box,
                self.new_button,
            ],
            layout=W.Layout(width="100%"),
        )
        self.setup_panel = W.Accordion(children=[self.setup], selected_index=None)
        self.setup_panel.set_title(0, "Setup: players, opponents, seed, rounds")

        # The table.
        self.title = W.HTML()
        self.table = W.HTML()
        self.status = W.HTML()
        self.take_button = W.Button(description="Take", button_style="warning")
        self.pass_button = W.Button(description="No Thanks!", button_style="success")
        self.hint_toggle = W.ToggleButton(value=False, description="Hints")
        self.reason = W.HTML()
        self.hints = W.HTML()
        self.final = W.HTML()
        self.next_button = W.Button(description="Next round", button_style="info")
        self.again_button = W.Button(description="Play again", button_style="primary")
        self.end_box = W.HBox([self.next_button, self.again_button])
        # After a round: its review beside a replay; Save and Load of rounds as files.
        self.review_button = W.Button(description="Review my round", button_style="info")
        self.review_status = W.HTML()
        self.save_link = W.HTML()
        self.load_upload = W.FileUpload(
            accept=".json", multiple=False, description="Load a round", icon="upload"
        )
        self.replay_panel = ReplayPanel(on_step=self._on_replay_step)
        self.review_view = W.HTML(layout=W.Layout(flex="1 1 28em", min_width="22em"))
        self.review_area = W.Box(
            [self.replay_panel.widget, self.review_view],
            layout=W.Layout(display="none", flex_flow="row wrap", width="100%"),
        )
        self.files_box = W.Box(
            [self.review_button, self.save_link, self.load_upload, self.review_status],
            layout=_WRAP,
        )
        self.log = W.HTML(layout=W.Layout(max_height="14em", overflow="auto"))
        # Stable hooks for the real-browser test and for notebook CSS.
        self.table.add_class("nothanks-table")
        self.status.add_class("nothanks-status")
        self.final.add_class("nothanks-final")
        self.log.add_class("nothanks-log")
        self.end_box.add_class("nothanks-end")
        self.review_status.add_class("nothanks-review-status")
        self.review_view.add_class("nothanks-review-area")
        self.review_area.add_class("nothanks-table-replay")
        self.widget = W.VBox(
            [
                self.title,
                self.table,
                self.status,
                W.HBox([self.take_button, self.pass_button, self.hint_toggle]),
                self.reason,
                self.errors.widget,
                self.final,
                self.end_box,
                self.files_box,
                self.review_area,
                self.hints,
                W.HTML("<b>Moves</b> (newest first)"),
                self.log,
                self.setup_panel,
            ]
        )

        g = self.errors.guard
        self.take_button.on_click(g(lambda _: self.play(Action.TAKE)))
        self.pass_button.on_click(g(lambda _: self.play(Action.PASS)))
        self.new_button.on_click(g(lambda _: self.new_game()))
        self.next_button.on_click(g(lambda _: self.next_round()))
        self.again_button.on_click(g(lambda _: self.play_again()))
        self.review_button.on_click(g(lambda _: self.review_round()))
        self.load_upload.observe(g(self._on_upload), names="value")
        self.players.observe(g(lambda _: self._layout_seats()), names="value")
        self.difficulty_box.observe(g(self._on_difficulty), names="value")
        self.hide_chips.observe(g(lambda _: self._render()), names="value")
        self.hint_toggle.observe(g(lambda _: self._render()), names="value")
        self.delay.observe(g(self._on_delay), names="value")
        self._describe_difficulty()
        self._layout_seats()
        self.new_game()
        if self.bot_delay:
            self.warm_up(background=True)

    # ----------------------------------------------------------------- setup
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

    def _layout_seats(self) -> None:
        rows: list[W.Widget] = []
        for i in range(self.players.value):
            if i == self.human_seat:
                rows.append(W.HTML(f"<b>Seat {i}</b>: you"))
            else:
                rows.append(self.pickers[i].widget)
        self.seats_box.children = tuple(rows)
        if self.human_seat >= self.players.value:
            self.players.value = self.human_seat + 1

    def _on_difficulty(self, change: Mapping[str, Any]) -> None:
        level = change["new"]
        if level in DIFFICULTIES:
            for i, spec in enumerate(difficulty_bots(level, len(self.pickers), self.human_seat)):
                if spec is not None:
                    self.pickers[i].set_spec(spec)
        self._describe_difficulty()

    def _describe_difficulty(self) -> None:
        level = self.difficulty_box.value
        text = DIFFICULTIES[level].summary if level in DIFFICULTIES else "the bots chosen below"
        self.difficulty_text.value = f"<small>&nbsp;{render.escape(text)}</small>"

    def _on_delay(self, change: Mapping[str, Any]) -> None:
        if self.bot_delay is not None:  # None stays manual (tests); the slider sets the pause
            self.bot_delay = float(change["new"])

    # ----------------------------------------------------------------- state (the session's)
    @property
    def game(self) -> Game:
        """The round on the table."""
        return self.session.game

    @property
    def view(self) -> PlayerView:
        """The human's view of the current round."""
        return self.session.view

    @property
    def phase(self) -> str:
        """Who may act: ``"human"``, ``"bot"``, ``"failed"``, ``"round_over"``, ``"match_over"``."""
        return self.session.phase

    @property
    def policies(self) -> list[Any]:
        """The policy per seat (None at the person's seat)."""
        return self.session.policies

    @property
    def names(self) -> list[str]:
        """Display name per seat."""
        return self.session.names

    @property
    def notes(self) -> list[str]:
        """Each bot's short description (empty at the person's seat)."""
        return [
            "" if p is None else lab
            for p, lab in zip(self.policies, self.session.labels, strict=True)
        ]

    @property
    def results(self) -> list[Any]:
        """Finished rounds of the match."""
        return self.session.results

    @property
    def rounds(self) -> int:
        """Rounds in the match."""
        return self.session.rounds

    @property
    def match_seed(self) -> int:
        """The seed the current match was dealt from."""
        return self.session.seed

    @property
    def failed(self) -> str | None:
        """The bot that failed, if one did."""
        return self.session.failed

    @property
    def round_number(self) -> int:
        """1-based number of the round on the table."""
        return self.session.round_number

    @property
    def log_lines(self) -> list[str]:
        """The moves of the current round in words, oldest first."""
        return self.session.log_lines()

    def match_result(self) -> MatchResult | None:
        """The rounds finished so far as a `MatchResult` (None before the first one ends)."""
        return self.session.match_result()

    # ----------------------------------------------------------------- actions
    def new_game(self) -> None:
        """Deal a new round (or the first round of a match) with the setup controls' values.

        Safe at any moment, even mid-round or while bots are moving: pending bot moves of the
        old round are dropped.
        """
        with self._lock:
            n = self.players.value
            specs: list[BotSpec | None] = [
                None if i == self.human_seat else self.pickers[i].spec_value() for i in range(n)
            ]
            session = TableSession(
                specs,
                human_seat=self.human_seat,
                seed=int(self.seed.value),
                rounds=int(self.rounds_box.value),
                rules=self.rules,
            )  # may raise (a bad setting): nothing of the old round changed yet
            level = self.difficulty_box.value
            self.difficulty = level if level in DIFFICULTIES else None
            self._start(session)

    def play_again(self) -> None:
        """A new match with the same players and bots, dealt from the next seed."""
        with self._lock:
            self._start(self.session.play_again(int(self.seed.value)))

    def _start(self, session: TableSession) -> None:
        self.session = session
        self._pending = False
        self.clear_review()
        self.seed.value = (session.seed + 1) % (MAX_TABLE_SEED + 1)
        self.errors.clear()
        self._after_change()

    def next_round(self) -> None:
        """Deal the next round of the match (it starts one seat further on)."""
        with self._lock:
            try:
                self.session.next_round()
            except IllegalActionError as exc:
                if self.phase == "match_over":
                    raise IllegalActionError(f"{exc}; press Play again") from None
                raise
            self._pending = False
            self.clear_review()
            self._after_change()

    def play(self, action: Action) -> bool:
        """The human's move (what the Take / No Thanks! buttons call); False if ignored."""
        with self._lock:
            phase = self.phase
            if phase != "human":
                self._notice(
                    {
                        "bot": "Wait: it is not your turn yet.",
                        "failed": "A bot failed; press Play again.",
                        "round_over": "The round is over.",
                        "match_over": "The match is over.",
                    }[phase]
                )
                return False
            now = self.clock()
            if now - self._last_move_at < self.double_click_s:
                self._notice("Ignored a second click right after your move (a double click?).")
                return False
            self.session.play(action)  # IllegalActionError leaves the round unchanged
            self._last_move_at = now
            self._after_change()
            return True

    def advance(self) -> Event | None:
        """Make the next bot move now (one move); None if it is not a bot's turn."""
        with self._lock:
            try:
                event = self.session.bot_step()
            finally:
                self._render()
            return event

    def _after_change(self) -> None:
        """After any move or deal: redraw, let the bots go on."""
        if self.phase == "bot" and self.bot_delay == 0:
            try:
                self.session.run_bots()
            except PolicyError as exc:
                # As with a paused bot: the table shows the failure (phase "failed") and the
                # error line says why, instead of the deal or the click raising.
                self.errors.report(exc)
        self._render()
        if self.phase == "bot":
            self._schedule()

    def warm_up(self, background: bool = False) -> threading.Thread | None:
        """Let each kind of bot decide once on a throwaway copy, so its first real move is quick.

        Compiled bots pay numba's start-up cost (seconds) on their first decision; doing it
        while the person reads the freshly dealt table keeps that pause off the bots' turns.
        `background` runs it on a thread (the table keeps answering meanwhile) and returns it.
        Copies, taken here, keep the real bots and their random generators untouched.
        """
        with self._lock:
            kinds = {type(p): p for p in self.policies if p is not None}
            copies = [copy.deepcopy(p) for p in kinds.values()]
            view = Game(len(self.policies), rules=self.rules, seed=0).view(0)
        if not background:
            self._warm(copies, view)
            return None
        thread = threading.Thread(target=self._warm, args=(copies, view), daemon=True)
        thread.start()
        return thread

    def _warm(self, copies: Sequence[Any], view: PlayerView) -> None:
        for bot in copies:
            try:
                bot.act(view)
            except Exception as exc:
                self.errors.report(exc)

    @staticmethod
    def _call_later(delay: float, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` after `delay` s: on the kernel's asyncio loop, else a thread timer."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            timer = threading.Timer(delay, fn, args=args)
            timer.daemon = True
            timer.start()
        else:
            loop.call_later(delay, fn, *args)

    def _schedule(self) -> None:
        """Move the next bot after `bot_delay` seconds, on the kernel's loop if there is one."""
        if self.bot_delay is None or self._pending:
            return
        self._pending = True
        self._call_later(self.bot_delay, self._on_timer, self.session)

    def _on_timer(self, session: TableSession) -> None:
        try:
            with self._lock:
                if session is not self.session:
                    return  # a restart dropped this match
                self._pending = False
                if self.phase == "bot":
                    try:
                        self.session.bot_step()
                    finally:
                        self._after_change()
        except Exception as exc:
            self.errors.report(exc)

    # ----------------------------------------------------------------- drawing
    def _notice(self, text: str) -> None:
        self.reason.value = render.notice_html(text)

    def _render(self) -> None:
        s = self.session
        game, view, phase = s.game, s.view, s.phase
        self.title.value = render.title_html(s.round_number, s.rounds, s.seed, self.difficulty)
        over = phase in ("round_over", "match_over")
        hide = self.hide_chips.value and not over
        self.table.value = render.active_html(view) + render.seats_html(
            view, s.names, hide, self.notes, s.last_moves(), s.to_act
        )
        my_turn = phase == "human"
        self.take_button.disabled = not my_turn
        self.pass_button.disabled = not (my_turn and view.can_pass)
        if my_turn and not view.can_pass:
            reason = "You have no chips left, so you cannot say No thanks!: you must take."
            self.reason.value = render.warning_html(reason)
            self.pass_button.tooltip = reason
        else:
            self.reason.value = ""
            self.pass_button.tooltip = "put one chip on the card; the next seat decides"
        self.status.value = render.status_html(phase, s.names, view, s.failed or "")
        if self.hint_toggle.value and my_turn:
            field, assumed = s.rollout_field()
            seed = int(s.seed) * 1000 + len(game.history)
            evaluation = evaluation_html(view, seed, field=field, assumed=assumed)
            self.hints.value = render.hints_html(view, s.names, evaluation)
        elif self.hint_toggle.value:
            self.hints.value = "<i>Hints show on your turn.</i>"
        else:
            self.hints.value = ""
        self.final.value = self._final_html() if over else ""
        self.next_button.layout.display = "" if phase == "round_over" else "none"
        self.again_button.layout.display = "" if over or phase == "failed" else "none"
        self.review_button.layout.display = "" if over and s.human_decisions else "none"
        self._draw_save_link(over)
        self.log.value = render.log_html(s.log_lines())

    # ----------------------------------------------------------------- review and files
    def review_round(self, background: bool = True) -> threading.Thread | None:
        """Review the person's decisions in the finished round ("Review my round").

        The review plays rollouts (a few seconds for a whole round), so by default it runs on
        a thread while the status line says so and the page keeps answering; the replay shows
        at once and gets the labels when the review is done. `background=False` runs it here.
        """
        with self._lock:
            if self.phase not in ("round_over", "match_over"):
                raise IllegalActionError("finish the round first: a review looks at a whole round")
            s = self.session
            replay = s.replay()
            n = s.human_decisions

            def work() -> Any:
                return s.review(n=self.review_rollouts)

        return self._start_review(replay, work, n, background)

    def load_round(self, text: str | bytes, background: bool = True) -> threading.Thread | None:
        """Show a saved round (a round document) in the replay, then its review.

        The reviewed seat is the file's first seat without a bot (else seat 0). A bad file is a
        `ValueError` saying what is wrong with it; the table is left as it was.
        """
        from .records import load_round
        from .review import DEFAULT_ROLLOUTS, review

        self._check_no_review_running()
        record = load_round(text, seed=0)
        game, names = record.game, list(record.names)
        seat = next((i for i, x in enumerate(record.seats) if x.bot is None), 0)
        n = sum(e.seat == seat for e in game.history)
        rollouts = DEFAULT_ROLLOUTS if self.review_rollouts is None else self.review_rollouts

        def work() -> Any:
            return review(game, seat, seed=0, n=rollouts, name=names[seat])

        with self._lock:
            self.clear_review()
            replay = RoundReplay(game, names, seat=seat)
        return self._start_review(replay, work, n, background)

    def _check_no_review_running(self) -> None:
        if self._review_thread is not None and self._review_thread.is_alive():
            raise RuntimeError("a review is already running; it takes a few seconds")

    def _start_review(
        self, replay: RoundReplay, work: Callable[[], Any], n: int, background: bool
    ) -> threading.Thread | None:
        self._check_no_review_running()
        self._review_token += 1
        token = self._review_token
        self.review = None
        self.replay_panel.show(replay)
        self.review_view.value = ""
        self.review_area.layout.display = ""
        self.review_status.value = render.notice_html(
            f"Reviewing {n} decision{'s' * (n != 1)}… (rollouts: a few seconds)"
        )
        self.review_button.disabled = True
        if not background:
            self._review_job(token, replay, work)
            return None
        self._review_thread = threading.Thread(
            target=self._review_job, args=(token, replay, work), daemon=True
        )
        self._review_thread.start()
        return self._review_thread

    def _review_job(self, token: int, replay: RoundReplay, work: Callable[[], Any]) -> None:
        try:
            result = work()
        except Exception as exc:
            self.errors.report(exc)
            self.review_status.value = ""
            return
        finally:
            self.review_button.disabled = False
        with self._lock:
            if token != self._review_token:
                return  # a new round or file replaced this one meanwhile
            self.review = result
            step = self.replay_panel.step if self.replay_panel.replay is replay else None
            self.replay_panel.show(replay.with_review(result), step)
            self.review_status.value = f"<small>Reviewed in {result.elapsed_s:.1f} s.</small>"

    def _on_replay_step(self, step: int) -> None:
        if self.review is not None:
            self.review_view.value = render.review_html(self.review, step)

    def clear_review(self) -> None:
        """Hide the replay and the review (a new round is on the table)."""
        self._review_token += 1
        self.review = None
        self.replay_panel.clear()
        self.review_view.value = ""
        self.review_status.value = ""
        self.review_area.layout.display = "none"

    def _on_upload(self, change: Mapping[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        try:
            self.load_round(bytes(item["content"]))
        except ValueError as exc:
            raise ValueError(f"{item.get('name', 'the file')}: {plain_message(exc)}") from None
        else:
            self.errors.clear()
        finally:
            self.load_upload.value = ()  # so the same file can be loaded again

    def _draw_save_link(self, over: bool) -> None:
        s = self.session
        if not over:
            self.save_link.value = ""
            self._save_key = None
            return
        key = (id(s), s.round_number, len(s.game.history))
        if key != self._save_key:
            self._save_key = key
            self.save_link.value = render.download_link_html(
                s.round_json(), s.file_name(), "💾 Save this round (JSON)"
            )

    def save(self, path: str | Path) -> Path:
        """Write the round on the table to `path` as a round document (`Game.to_json`)."""
        path = Path(path)
        path.write_text(self.session.round_json(), encoding="utf-8")
        return path

    def _final_html(self) -> str:
        s = self.session
        html = final_scores_html(s.game, s.names)
        match = s.match_result()
        if s.is_match and match is not None:
            html += (
                f"<h4 style='margin:.5em 0 .2em'>Match: {len(s.results)} of {s.rounds} "
                "rounds</h4>" + render.match_html(match, s.names)
            )
            if len(s.results) >= s.rounds:
                who = ", ".join(s.names[i] for i in match.winners)
                html += (
                    f"<div><b>Match winner{'s' * (len(match.winners) > 1)}: "
                    f"{render.escape(who)}</b></div>"
                )
        return html

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


# --------------------------------------------------------------------------- explorers
def gap_chances_figure(chances: Mapping[tuple[int, ...], float], hand: Sequence[int]) -> Any:
    """Bars: for each gap between my runs, the chance all its cards can still come."""
    import plotly.graph_objects as go

    labels = [f"{g[0]}" if len(g) == 1 else f"{g[0]}–{g[-1]}" for g in chances]
    fig = go.Figure()
    fig.add_bar(
        x=labels,
        y=list(chances.values()),
        marker_color="#2ca02c",
        hovertemplate="gap %{x}: %{y:.1%}<extra></extra>",
        name="gap can be filled",
    )
    hand_text = " ".join(map(str, sorted(hand))) or "no cards"
    if not chances:
        hand_text += "; no gaps between runs"
    fig.update_layout(
        title={"text": f"Can the gaps in my hand still be filled?<br><sub>hand: {hand_text}</sub>"},
        font={"size": 14},
        template="plotly_white",
        xaxis_title="gap (the missing cards)",
        yaxis={"title": "chance all still to come", "range": [0, 1.05]},
        yaxis_tickformat=".0%",
        margin={"t": 80, "l": 70, "r": 20},
    )
    return fig


def _distinct_cards(cards: object, rules: Rules, name: str) -> tuple[int, ...]:
    """`cards` as distinct cards of `rules`, or `ValueError` naming `name` (never merged)."""
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise ValueError(f"{name} must be a collection of card numbers; got {cards!r}")
    out = rules.check_cards(cards, what=name)
    if len(set(out)) != len(out):
        twice = sorted({c for c in out if out.count(c) > 1})
        raise ValueError(f"{name} names {twice} more than once; each card at most once")
    return out


def _readable_cards(fig: Any) -> Any:
    """Every card on the axis, small enough to read at 1024 px, the figure as wide as the page."""
    # The legend goes above the plot: on the right it takes half of a narrow panel (JupyterLab
    # with its file browser open gives the figure about 570 px at 1024) and the 33 card labels
    # then overlap.
    fig.update_layout(
        font={"size": 13},
        margin={"l": 60, "r": 20, "t": 100, "b": 50},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "left", "x": 0},
    )
    fig.update_xaxes(dtick=1, tickangle=0, tickfont={"size": 11})
    return fig


class ProbabilityExplorer:
    """Click cards to mark them as mine or taken by others; the chance plots redraw at once.

    Two figures, each redrawn as a whole on every change (so they stay in step in Voilà and
    after a reload): the chance that each card is in play, and the chance that each gap
    between my runs can still be filled.
    """

    MODES = (("in my hand", "mine"), ("taken by others", "seen"), ("clear", "clear"))

    def __init__(
        self,
        hand: Sequence[int] = (),
        seen: Sequence[int] = (),
        *,
        rules: Rules | None = None,
    ) -> None:
        from . import plots, probability

        self._plots, self._probability = plots, probability
        self.rules = check_rules(rules)
        self.errors = ErrorLine()
        self.mine: frozenset[int] = frozenset()
        self.seen: frozenset[int] = frozenset()
        self.mode = W.ToggleButtons(options=self.MODES, value="mine", description="mark as")
        self.cards = {
            c: W.Button(description=str(c), layout=W.Layout(width="3.2em", height="2.2em"))
            for c in self.rules.cards
        }
        for c, b in self.cards.items():
            b.on_click(self.errors.guard(functools.partial(self._on_card, c), clear=True))
        self.clear_button = W.Button(description="Clear all")
        self.clear_button.on_click(self.errors.guard(lambda _: self.set_cards((), ()), clear=True))
        self.summary = W.HTML()
        self.summary.add_class("nothanks-summary")
        self.in_play = FigureArea(height=400)
        self.gap = FigureArea(height=360)
        self.in_play.output.add_class("nothanks-in-play")
        self.gap.output.add_class("nothanks-gaps")
        self.widget = W.VBox(
            [
                plotly_loader(),
                W.HTML("<h3 style='margin:.2em 0'>Which cards are still to come?</h3>"),
                self.mode,
                W.GridBox(
                    list(self.cards.values()),
                    layout=W.Layout(grid_template_columns="repeat(11, 3.4em)"),
                ),
                W.HBox([self.clear_button, self.summary]),
                self.errors.widget,
                self.in_play.output,
                self.gap.output,
            ],
            layout=W.Layout(width="100%"),
        )
        self.set_cards(hand, seen)

    def _figures(self, mine: frozenset[int], seen: frozenset[int]) -> tuple[Any, Any]:
        """Both figures for a marking; raises `ValueError` for an impossible one."""
        fig1 = self._plots.plot_in_play_chances(sorted(seen), hand=sorted(mine), rules=self.rules)
        chances = self._probability.p_gap_fillable(
            sorted(mine), sorted(seen), self.rules, taken=sorted(seen)
        )
        return _readable_cards(fig1), gap_chances_figure(chances, sorted(mine))

    def set_cards(self, hand: Sequence[int] = (), seen: Sequence[int] = ()) -> None:
        """Mark `hand` as mine and `seen` as taken by others; nothing changes on a bad marking."""
        mine = frozenset(_distinct_cards(hand, self.rules, "hand"))
        others = frozenset(_distinct_cards(seen, self.rules, "seen"))
        both = sorted(mine & others)
        if both:
            raise ValueError(f"cards {both} cannot be both in my hand and taken by others")
        if len(others) > self.rules.n_in_play:
            raise ValueError(
                f"at most {self.rules.n_in_play} cards are turned up in a round; "
                f"{len(others)} are marked as taken by others"
            )
        fig1, fig2 = self._figures(mine, others)  # may raise: then nothing is applied
        self.mine, self.seen = mine, others
        self.in_play.show(fig1)
        self.gap.show(fig2)
        for c, b in self.cards.items():
            b.button_style = "success" if c in mine else "" if c not in others else "warning"
        unseen = self.rules.n_cards - len(mine | others)
        self.summary.value = (
            f"&nbsp; my hand: <b>{' '.join(map(str, sorted(mine))) or '—'}</b>; "
            f"taken by others: {len(others)}; unseen: {unseen}"
        )

    def _on_card(self, card: int, _button: W.Button | None = None) -> None:
        mine, seen = set(self.mine), set(self.seen)
        mine.discard(card)
        seen.discard(card)
        if self.mode.value == "mine":
            mine.add(card)
        elif self.mode.value == "seen":
            seen.add(card)
        self.set_cards(sorted(mine), sorted(seen))

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


#: Largest pot axis a chip-value explorer draws.
MAX_EXPLORER_POT = 200


class ChipValueExplorer:
    """Sliders for card, pot and hand; the take-versus-pass figure redraws at once.

    The heatmap is Take minus No Thanks! over card × pot for the hand (this move's bookkeeping:
    the card's points against the chips; from :mod:`nothanks_lab.analysis`), with the card and
    pot of the sliders marked and the boundary where `MarginalCostBot(threshold)` starts taking.
    A bad input (a card already in the hand, a hand that is not card numbers) shows as one
    line and hides the verdict and figure until the inputs are valid again.
    """

    def __init__(
        self,
        card: int = 20,
        pot: int = 5,
        hand: Sequence[int] = (),
        *,
        max_pot: int = 30,
        threshold: int = 10,
        rules: Rules | None = None,
    ) -> None:
        from . import analysis, plots
        from .bots import MarginalCostBot

        self._analysis, self._plots, self._bot_class = analysis, plots, MarginalCostBot
        self.rules = r = check_rules(rules)
        # Checked here: a slider would silently clamp an out-of-range value.
        card = check_int(card, "card", low=r.low_card, high=r.high_card)
        max_pot = check_int(max_pot, "max_pot", low=1, high=MAX_EXPLORER_POT)
        pot = check_int(pot, "pot", low=0, high=max_pot)
        declared = params_of("marginal")["threshold"]
        threshold = check_int(
            threshold, "threshold", low=int(declared.low), high=int(declared.high)
        )
        hand = tuple(sorted(_distinct_cards(hand, r, "hand")))
        if card in hand:
            raise ValueError(f"card {card} is already in the hand {list(hand)}; pick another")
        if len(hand) + 1 > r.n_in_play:
            raise ValueError(
                f"hand holds {len(hand)} cards; with the card that exceeds the "
                f"{r.n_in_play} in-play cards of a round"
            )
        self.errors = ErrorLine()
        self.card = W.IntSlider(
            value=card, min=r.low_card, max=r.high_card, description="card", continuous_update=False
        )
        self.pot = W.IntSlider(
            value=pot, min=0, max=max_pot, description="pot", continuous_update=False
        )
        self.hand = W.Text(
            value=" ".join(map(str, hand)),
            description="my hand",
            placeholder="e.g. 27 29",
            continuous_update=False,
        )
        self.threshold = W.IntSlider(
            value=threshold,
            min=int(declared.low),
            max=int(declared.high),
            description="bot threshold",
            style={"description_width": "8em"},
            continuous_update=False,
        )
        self.answer = W.HTML()
        self.answer.add_class("nothanks-verdict")
        self.hand_cards: tuple[int, ...] = ()
        self.figure = FigureArea(height=460)
        self.widget = W.VBox(
            [
                plotly_loader(),
                W.HTML("<h3 style='margin:.2em 0'>Take or No Thanks?</h3>"),
                W.Box([self.card, self.pot], layout=_WRAP),
                W.Box([self.hand, self.threshold], layout=_WRAP),
                self.errors.widget,
                self.answer,
                self.figure.output,
            ],
            layout=W.Layout(width="100%"),
        )
        for w in (self.card, self.pot, self.hand, self.threshold):
            w.observe(self._on_input, names="value")
        self.update()

    def _on_input(self, _change: Mapping[str, Any] | None = None) -> None:
        try:
            self.update()
        except Exception as exc:
            self.errors.report(exc)
            self.answer.value = ""  # stale: it no longer matches the inputs
            self.answer.layout.display = "none"
            self.figure.hide()
        else:
            self.errors.clear()

    def _parse_hand(self) -> tuple[int, ...]:
        text = self.hand.value.replace(",", " ").split()
        bad = [x for x in text if not x.lstrip("-").isdigit()]
        if bad:
            raise ValueError(
                f"my hand must be card numbers separated by spaces; {bad[0]!r} is not a number"
            )
        cards = [int(x) for x in text]
        outside = [c for c in cards if not self.rules.low_card <= c <= self.rules.high_card]
        if outside:
            raise ValueError(
                f"{outside[0]} is not a card: cards run from {self.rules.low_card} to "
                f"{self.rules.high_card}"
            )
        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:
            raise ValueError(f"{twice[0]} is in my hand twice; each card exists once")
        if len(cards) + 1 > self.rules.n_in_play:
            raise ValueError(
                f"a hand holds at most {self.rules.n_in_play - 1} cards before this one"
            )
        return tuple(sorted(cards))

    def _figure(self, card: int, pot: int, hand: tuple[int, ...], threshold: int) -> Any:
        a, r = self._analysis, self.rules
        pots = range(self.pot.max + 1)
        surface = a.take_pass_surface(r.cards, pots, hand, rules=r)
        boundary = a.bot_boundary(self._bot_class(threshold), r.cards, pots, hand, rules=r)
        fig = self._plots.plot_take_pass(surface, boundary)
        fig.add_scatter(
            x=[pot],
            y=[card],
            mode="markers",
            marker={"size": 18, "symbol": "x", "color": "gold", "line": {"width": 2}},
            name=f"card {card}, pot {pot}",
        )
        fig.update_yaxes(dtick=2)
        fig.update_layout(margin={"l": 60, "r": 20, "t": 70, "b": 50})
        return fig

    def update(self) -> None:
        """Redraw from the sliders: the figure and the verdict for card and pot."""
        hand = self._parse_hand()
        card, pot = self.card.value, self.pot.value
        if card in hand:
            raise ValueError(f"{card} is already in your hand; pick another card")
        fig = self._figure(card, pot, hand, self.threshold.value)
        diff = self._analysis.immediate_take_minus_pass(card, pot, hand)
        even = self._analysis.break_even_pots(hand, [card], rules=self.rules)[card]
        self.hand_cards = hand
        self.figure.show(fig)
        better = "Take" if diff < 0 else "No Thanks!" if diff > 0 else "either"
        if even < 0:
            pays = f"taking {card} pays even with no chips on it"
        else:
            pays = f"break-even pot for {card}: {even}; with more chips on it, taking pays"
        self.answer.value = (
            f"Counting this move only: Take − No Thanks! = <b>{diff:+d}</b> points → "
            f"<b>{better}</b> ({pays})."
        )
        self.answer.layout.display = ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


# --------------------------------------------------------------------------- the bot lab
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
    from .fast import has_fast_path

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
        self.run_button = W.Button(description="Run tournament", button_style="primary")
        self.cancel_button = W.Button(description="Cancel", button_style="danger")
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
                W.HTML("<h3 style='margin:.2em 0'>Bot lab</h3>"),
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
                self._speed[key] = seconds_per_decision(p.make(np.random.SeedSequence(0)))
            total += self._speed[key] / len(pickers)
        return total * DECISIONS_PER_ROUND * int(self.n_games.value)

    def _estimate(self) -> None:
        s = self.expected_seconds()
        if s > LONG_RUN_S:
            self.estimate.value = (
                f"<span style='color:#a15c00'>This run will take about {_duration(s)} "
                "(slow bots at the table); it can be cancelled.</span>"
            )
        else:
            self.estimate.value = ""

    def _field(self) -> list[Any]:
        pickers = self.pickers[: self.players.value]
        return [p.make(np.random.SeedSequence([self.seed.value, i])) for i, p in enumerate(pickers)]

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
        from .plots import plot_win_shares
        from .tournaments import tournament

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


# --------------------------------------------------------------------------- the advisor
class Advisor:
    """Follow a round played with physical cards: enter each card and move, advice on your turn.

    A thin view of `nothanks_lab.advisor.AdvisorSession` (the model: entries, refusals, undo,
    score, the file). Choose the number of players, your seat, who starts and the starting
    chips (or hide opponents' chips), then enter each card turned face up and each seat's move
    on it. On your turn the hint panel shows the chance that the neighbours of your runs are
    still to come and Take versus No Thanks! over the whole round. An impossible entry is one
    plain line naming the problem; Undo takes back the last entry; at the end a link saves the
    round (the format of `Game.to_json`) for a review, e.g. with the play table's Load.

    >>> a = Advisor(3, my_seat=1, hint_budget_s=0.05)
    >>> a.enter_card("27"); a.take_button.click()
    >>> a.session.game.hands[0], a.pass_button.description
    ((27,), 'Seat 0 says no thanks')
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
        seed: int = 0,
        hint_budget_s: float = 0.5,
    ) -> None:
        from .advisor import AdvisorSession

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
            description="players",
            continuous_update=False,
        )
        self.my_seat = W.BoundedIntText(
            value=s.my_seat, min=0, max=max(counts) - 1, description="my seat"
        )
        self.first = W.BoundedIntText(
            value=s.first_player, min=0, max=max(counts) - 1, description="first to act"
        )
        self.chips = W.BoundedIntText(
            value=s.rules.starting_chips(s.n_players), min=0, max=99, description="chips each"
        )
        self.hidden = W.Checkbox(value=s.hidden_chips, description="chips kept hidden")
        self.start_button = W.Button(description="Start over", button_style="info")
        self.card = W.Text(
            description="card turned",
            placeholder=f"{rules.low_card}–{rules.high_card}",
            continuous_update=False,
            layout=W.Layout(width="14em"),
        )
        self.card_button = W.Button(description="Enter card", button_style="primary")
        self.take_button = W.Button(button_style="warning", layout=W.Layout(width="auto"))
        self.pass_button = W.Button(button_style="success", layout=W.Layout(width="auto"))
        self.undo_button = W.Button(description="Undo", icon="undo")
        self.status = W.HTML()
        self.table = W.HTML()
        self.hints = W.HTML()
        self.save_link = W.HTML()
        self.log = W.HTML(layout=W.Layout(max_height="14em", overflow="auto"))
        self.table.add_class("nothanks-advisor-table")
        self.hints.add_class("nothanks-advisor-hints")
        self.widget = W.VBox(
            [
                W.HTML("<h3 style='margin:.2em 0'>Advisor for a real table</h3>"),
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
                W.HTML("<b>Entries</b> (newest first)"),
                self.log,
            ],
            layout=W.Layout(width="100%"),
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
    def _on_players(self, change: Mapping[str, Any]) -> None:
        self.chips.value = self.rules.starting_chips(int(change["new"]))

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

    def enter_card(self, text: object) -> None:
        """Enter the card turned face up, typed as `text` (an empty box does nothing)."""
        from .advisor import EntryError

        raw = str(text).strip()
        if not raw:
            return
        if not raw.lstrip("-").isdigit():
            raise EntryError(f"{raw!r} is not a card number ({self._card_range()})")
        self.session.turn(int(raw))
        self.card.value = ""
        self._render()

    def _card_range(self) -> str:
        return f"cards run from {self.rules.low_card} to {self.rules.high_card}"

    def move(self, action: Action) -> None:
        """Enter the move of the seat to act (what the two move buttons do)."""
        self.session.move(action)
        self._render()

    def undo(self) -> None:
        """Take back the last entry."""
        self.session.undo()
        self._render()

    def save(self, path: str | Path) -> Path:
        """Write the round so far to `path` as a round document (`Game.to_json`'s format)."""
        path = Path(path)
        path.write_text(self.session.to_json(), encoding="utf-8")
        return path

    # ----------------------------------------------------------------- drawing
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
            self.status.value = (
                f"<b>{render.escape(who)}</b> decides on {s.active_card}: enter the move."
            )
        else:
            self.status.value = ""
        acting = "" if s.to_act is None else names[s.to_act]
        self.take_button.description = f"{acting} takes".strip()
        self.pass_button.description = f"{acting} says no thanks".strip()
        self.take_button.disabled = phase != "move"
        self.pass_button.disabled = phase != "move" or not s.game.can(Action.PASS)
        self.card.disabled = self.card_button.disabled = phase != "card"
        self.undo_button.disabled = not s.entries
        if s.is_my_turn:
            seed = np.random.SeedSequence([self.seed, len(s.entries)])
            ev = s.evaluate(seed=seed, budget_s=self.hint_budget_s)
            self.hints.value = render.hints_html(view, names, render.position_evaluation_html(ev))
        else:
            self.hints.value = "<i>The advice shows on your turn, with a card face up.</i>"
        self.save_link.value = (
            render.download_link_html(
                s.to_json(), s.file_name(), "💾 Save this round for review (JSON)"
            )
            if phase == "over"
            else ""
        )
        self.log.value = render.log_html(s.log_lines())

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
