"""Notebook widgets: play a round against bots (`PlayTable`) and explore chances and bots.

Each UI is a plain class that owns its ipywidgets, wires them with ``observe(...,
names="value")`` and ``on_click``, shows itself through its root box (``_repr_mimebundle_``),
and routes every callback error to an ``Output`` widget shown in the UI instead of losing it.
The widgets hold no rules: moves go through `Game`, bots see only their `PlayerView`, scores
and winners come from the engine, and HTML comes from :mod:`nothanks_lab.render` or the pure
functions below. Bots move one at a time after a short delay scheduled on the kernel's asyncio
loop (a ``threading.Timer`` outside a kernel); ``bot_delay=0`` moves them at once and
``bot_delay=None`` waits for explicit `PlayTable.advance` calls, so tests never sleep.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape
from typing import Any, TypeVar

import ipywidgets as W
import numpy as np

from .bots import available_bots, bot_class, make_bot, params_of
from .bots.base import Param, RandomizedBot
from .engine import Action, Event, Game, IllegalActionError, check_seat
from .parallel import SerialExecutor
from .play import GameResult, MatchResult, PolicyError, ask, policy_name
from .render import card_html, hand_html, match_html
from .rules import Rules, runs
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
    "BotLab",
    "BotPicker",
    "ChipValueExplorer",
    "PlayTable",
    "ProbabilityExplorer",
    "final_scores_html",
    "hints_html",
    "seats_html",
]

F = TypeVar("F", bound=Callable[..., Any])

#: A bot for one seat: a registered name, ``(name, params)``, or any policy object.
BotSpec = str | tuple[str, Mapping[str, Any]] | Any


def default_bot_name() -> str:
    """The registry name the tables seat by default: ``"best"`` once it exists."""
    names = available_bots()
    return "best" if "best" in names else "marginal"


#: Longest pause between bot moves a table accepts, in seconds (its slider stops at 3).
MAX_BOT_DELAY_S = 60.0
#: Largest seed a table's seed box can show.
MAX_TABLE_SEED = 2**31 - 1


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


class _ErrorPanel:
    """An ``Output`` widget that collects callback errors, plus a decorator that routes them."""

    def __init__(self) -> None:
        self.output = W.Output(layout=W.Layout(max_height="12em", overflow="auto"))
        self.messages: list[str] = []

    def report(self, exc: BaseException) -> None:
        """Show `exc` (a one-line summary, then the traceback) in the panel."""
        summary = f"{type(exc).__name__}: {exc}"
        self.messages.append(summary)
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.output.append_stderr(f"Error: {summary}\n{tb}\n")

    def clear(self) -> None:
        """Forget shown errors."""
        self.messages.clear()
        self.output.outputs = ()

    def guard(self, fn: F) -> F:
        """Wrap a callback so that any exception it raises is shown here, not swallowed."""

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                self.report(exc)
                return None

        return wrapper  # type: ignore[return-value]


# --------------------------------------------------------------------------- bot pickers
def param_widget(param: Param, value: Any = None) -> W.ValueWidget:
    """A slider (or checkbox) for a declared bot parameter, spanning its allowed range."""
    value = param.default if value is None else value
    style = {"description_width": "7em"}
    if param.kind is bool:
        return W.Checkbox(value=bool(value), description=param.name, tooltip=param.doc)
    if param.kind is int:
        return W.IntSlider(
            value=int(value),
            min=int(param.low),
            max=int(param.high),
            description=param.name,
            tooltip=param.doc,
            continuous_update=False,
            style=style,
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
    )


class BotPicker:
    """One seat's bot: a dropdown of registered bots and sliders for its declared parameters.

    A policy object given as `custom` is offered as an extra choice (``"custom: <name>"``).
    """

    CUSTOM = "custom"

    def __init__(
        self,
        label: str,
        spec: BotSpec | None = None,
    ) -> None:
        names = list(available_bots())
        self.custom: Any = None
        params: Mapping[str, Any] = {}
        if spec is None:
            name = default_bot_name()
        elif isinstance(spec, str):
            name = spec
        elif isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
            name, params = spec[0], dict(spec[1])
        elif callable(getattr(spec, "act", None)):
            self.custom, name = spec, self.CUSTOM
        else:
            raise ValueError(
                f"{label}: a bot is a registered name, (name, params) or an object with "
                f"act(view); got {spec!r}"
            )
        if name != self.CUSTOM:
            bot_class(name)  # ValueError naming the available bots
            known = params_of(name)
            unknown = sorted(set(params) - set(known))
            if unknown:
                raise ValueError(
                    f"{label}: bot {name!r} has no parameter {', '.join(unknown)}; "
                    f"allowed: {', '.join(known) or 'none'}"
                )
        options = [(n, n) for n in names]
        if self.custom is not None:
            options.insert(0, (f"custom: {policy_name(self.custom)}", self.CUSTOM))
        self.label = W.HTML(f"<b>{escape(label)}</b>", layout=W.Layout(width="5em"))
        self.dropdown = W.Dropdown(options=options, value=name, layout=W.Layout(width="11em"))
        self.params_box = W.HBox()
        self._initial = dict(params)
        self._build_params()
        self._initial = {}
        self.dropdown.observe(self._on_name, names="value")
        self.widget = W.HBox([self.label, self.dropdown, self.params_box])

    @property
    def name(self) -> str:
        """The chosen registry name (or ``"custom"``)."""
        return str(self.dropdown.value)

    @property
    def params(self) -> dict[str, Any]:
        """Values of the parameter sliders."""
        return {w.description: w.value for w in self.params_box.children}

    def _build_params(self) -> None:
        if self.name == self.CUSTOM:
            self.params_box.children = ()
            return
        self.params_box.children = tuple(
            param_widget(p, self._initial.get(n)) for n, p in params_of(self.name).items()
        )

    def _on_name(self, change: Mapping[str, Any]) -> None:
        self._build_params()

    def spec(self) -> str:
        """A short description naming only changed settings, e.g. ``"marginal(threshold=4)"``.

        A bot at its declared defaults is just its name (``"best"``), so the table stays legible.
        """
        if self.name == self.CUSTOM:
            return policy_name(self.custom)
        declared = params_of(self.name)
        inner = ", ".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in self.params.items()
            if k not in declared or v != declared[k].default
        )
        return f"{self.name}({inner})" if inner else self.name

    def make(self, seed: np.random.SeedSequence | None = None) -> Any:
        """Build the chosen bot; a randomized bot draws from its own generator seeded by `seed`."""
        if self.name == self.CUSTOM:
            return self.custom
        params = self.params
        cls = bot_class(self.name)
        if isinstance(cls, type) and issubclass(cls, RandomizedBot):
            params["seed"] = seed
        return make_bot(self.name, **params)


# --------------------------------------------------------------------------- pure HTML
def seats_html(
    view: PlayerView,
    names: Sequence[str],
    hide_chips: bool = False,
    notes: Sequence[str] | None = None,
) -> str:
    """Every seat's runs, card points, chips and score as `view.seat` sees them.

    With `hide_chips`, opponents' chips (and so their scores) show as "?"; own counts never hide.
    """
    points = [view.card_points(i) for i in range(view.n_players)]
    scores = view.scores()
    head = (
        "<tr><th style='text-align:left'>seat</th><th style='text-align:left'>cards (runs)</th>"
        "<th>card points</th><th>chips</th><th>score</th></tr>"
    )
    rows = []
    for i in range(view.n_players):
        hidden = hide_chips and i != view.seat
        chips = "?" if hidden else str(view.chips[i])
        score = "?" if hidden else str(scores[i])
        turn = " ▶" if i == view.current_player else ""
        note = f"<br><small style='color:#666'>{escape(notes[i])}</small>" if notes else ""
        bg = " style='background:#eef6ea'" if i == view.seat else ""
        rows.append(
            f"<tr{bg}><td><b>{escape(names[i])}</b>{turn}{note}</td>"
            f"<td>{hand_html(view.hands[i])}</td>"
            f"<td style='text-align:right'>{points[i]}</td>"
            f"<td style='text-align:right'>{chips}</td>"
            f"<td style='text-align:right'><b>{score}</b></td></tr>"
        )
    return f"<table style='border-spacing:.6em .2em'>{head}{''.join(rows)}</table>"


def active_html(view: PlayerView) -> str:
    """The active card and the chips on it, large."""
    if view.active_card is None:
        return "<div style='font-size:1.4em;margin:.3em 0'><b>Round over</b></div>"
    return (
        f"<div style='margin:.4em 0'>{card_html(view.active_card, big=True)}"
        f"<span style='font-size:1.6em;margin-left:.6em'>pot: <b>{view.pot}</b> "
        f"chip{'s' * (view.pot != 1)}</span>"
        f"<span style='margin-left:1em;color:#555'>{view.cards_left} cards face down</span>"
        "</div>"
    )


def final_scores_html(game: Game, names: Sequence[str]) -> str:
    """ "Final scores": card points, chips and total per seat, the winners, the removed cards."""
    points, chips, scores = game.card_points(), game.chips, game.scores()
    winners = game.winners()
    rows = "".join(
        f"<tr><td><b>{escape(names[i])}</b>{' ★' if i in winners else ''}</td>"
        f"<td style='text-align:right'>{points[i]}</td>"
        f"<td style='text-align:right'>{chips[i]}</td>"
        f"<td style='text-align:right'><b>{scores[i]}</b></td></tr>"
        for i in range(game.n_players)
    )
    removed = " ".join(card_html(c) for c in game.removed_cards())
    return (
        "<h3 style='margin:.4em 0'>Final scores</h3>"
        "<table style='border-spacing:.8em .2em'><tr><th style='text-align:left'>seat</th>"
        "<th>card points</th><th>chips</th><th>total</th></tr>"
        f"{rows}</table>"
        f"<div>Winner{'s' * (len(winners) > 1)}: "
        f"<b>{escape(', '.join(names[i] for i in winners))}</b> (lowest score wins)</div>"
        f"<div style='margin-top:.3em'>Removed cards, now revealed: {removed}</div>"
    )


def neighbour_cards(view: PlayerView) -> list[int]:
    """Cards next to my runs (one below, one above each), inside the deck and not mine."""
    rules, mine = view.rules, set(view.my_hand)
    out: set[int] = set()
    for run in runs(view.my_hand):
        for c in (run[0] - 1, run[-1] + 1):
            if rules.low_card <= c <= rules.high_card and c not in mine:
                out.add(c)
    return sorted(out)


def hints_html(view: PlayerView, names: Sequence[str], evaluation: str = "") -> str:
    """The hint panel: chance each neighbour of my runs is still to come, plus `evaluation`."""
    try:
        from .probability import p_all_in_play
    except ImportError:
        p_all_in_play = None  # type: ignore[assignment]
    holder = {c: i for i, hand in enumerate(view.hands) for c in hand}
    items = []
    cards = neighbour_cards(view)
    for c in cards:
        if c == view.active_card:
            text = "is the card on the table now"
        elif c in holder:
            text = f"is gone: {escape(names[holder[c]])} holds it"
        elif p_all_in_play is None:
            text = "chance not available (the probability module is not installed yet)"
        else:
            p = p_all_in_play([c], view.seen_cards, view.rules)
            text = f"is still to come with chance <b>{p:.0%}</b>"
        items.append(f"<li>{c} {text}</li>")
    if not view.my_hand:
        body = "<p>You hold no cards yet, so no run to extend.</p>"
    else:
        body = (
            "<p>Neighbours of your runs (a card next to a run adds no points):</p>"
            f"<ul>{''.join(items)}</ul>"
        )
    return f"<div><b>Hints</b>{body}{evaluation}</div>"


def evaluation_html(view: PlayerView, seed: int, budget_s: float = 0.5) -> str:
    """Take versus No Thanks! by rollouts (analysis module), or a message if it is missing."""
    try:
        from .analysis import evaluate_position
    except ImportError:
        return (
            "<p style='color:#666'>Estimated value of Take vs No Thanks!: not available "
            "(the analysis module is not installed).</p>"
        )
    ev = evaluate_position(view, seed=seed, budget_s=budget_s)
    rows = []
    for move in ev.moves().values():
        s, w = move.score, move.win
        rows.append(
            f"<tr><td><b>{move.action}</b></td>"
            f"<td>{s.value:.1f} <small>[{s.low:.1f}, {s.high:.1f}]</small></td>"
            f"<td>{w.value:.0%} <small>[{w.low:.0%}, {w.high:.0%}]</small></td></tr>"
        )
    d = ev.score_diff
    if d is None:
        verdict = "You have no chips: Take is forced."
    else:
        sure = "clearly" if ev.confident else "perhaps (the interval includes 0)"
        verdict = (
            f"Take − No Thanks!: <b>{d.value:+.1f}</b> points [{d.low:+.1f}, {d.high:+.1f}] "
            f"→ {sure} <b>{ev.best}</b> (lower score is better)."
        )
    return (
        "<div><p style='margin:.4em 0 .1em'>Estimated value of Take vs No Thanks! "
        f"({ev.n:,} rollouts per move, {escape(ev.policy)}; 95% intervals):</p>"
        "<table style='border-spacing:.8em .1em'><tr><th>move</th>"
        "<th>expected final score</th><th>win chance</th></tr>"
        f"{''.join(rows)}</table><p style='margin:.2em 0'>{verdict}</p></div>"
    )


# --------------------------------------------------------------------------- the play table
class PlayTable:
    """Play No Thanks! against bots in a notebook: ``PlayTable()`` deals a round at once.

    Args:
        n_players: seats at the table (the rule set's player counts, 3–7 by default).
        bots: one bot per other seat, in seat order (a registered name, ``(name, params)`` or a
            policy object); default: the package's default bot everywhere.
        human_seat: the seat the person plays.
        seed: seed of the deals (and of randomized bots); None draws a fresh one.
        hide_chips: show opponents' chip counts as "?" (a memory exercise).
        rounds: 1 for a single round, more for a match with cumulative scores.
        bot_delay: seconds between bot moves; 0 moves them at once, None only on `advance()`.
        double_click_s: a second click on Take / No Thanks! within this many seconds of the
            previous move is ignored (so a double click never makes two moves).
        rules: the rule set (default: the standard game).

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
        human_seat: int = 0,
        seed: int | None = None,
        hide_chips: bool = False,
        rounds: int = 1,
        bot_delay: float | None = 0.7,
        double_click_s: float = 0.3,
        rules: Rules | None = None,
    ) -> None:
        rules = check_rules(rules)
        counts = [n for n, _ in rules.chips]
        if not is_int(n_players) or int(n_players) not in counts:
            raise ValueError(f"n_players must be one of {counts}; got {n_players!r}")
        n_players = int(n_players)
        human_seat = check_seat(human_seat, n_players, "human_seat")
        rounds = check_int(rounds, "rounds", low=1, high=20)
        if bot_delay is not None:
            # A finite pause the timer can keep (inf would kill the timer thread silently).
            bot_delay = check_number(bot_delay, "bot_delay", low=0, high=MAX_BOT_DELAY_S)
        double_click_s = check_number(double_click_s, "double_click_s", low=0, high=10)
        hide_chips = check_bool(hide_chips, "hide_chips")
        seed = _table_seed(seed)
        specs = self._seat_specs(bots, n_players, human_seat)

        self.rules = rules
        self.human_seat = human_seat
        self.bot_delay = bot_delay
        self.double_click_s = float(double_click_s)
        self.clock: Callable[[], float] = time.monotonic
        self.errors = _ErrorPanel()
        self._lock = threading.RLock()
        self._generation = 0
        self._pending = False
        self._last_move_at = -float("inf")
        self.game: Game | None = None
        self.policies: list[Any] = []
        self.names: list[str] = []
        self.results: list[GameResult] = []
        self.rounds = rounds
        self.failed: str | None = None
        self._round_index = 0
        self.notes: list[str] = []
        self.match_seed = 0

        # Setup controls: read by new_game(), so the constructor and the button share one path.
        self.players = W.IntSlider(
            value=n_players,
            min=min(counts),
            max=max(counts),
            description="players",
            continuous_update=False,
        )
        self.pickers: list[BotPicker] = [
            BotPicker(f"Seat {i}", specs[i] if i < len(specs) else None) for i in range(max(counts))
        ]
        self.seats_box = W.VBox()
        self.hide_chips = W.Checkbox(value=hide_chips, description="hide opponents' chips")
        self.seed = W.BoundedIntText(
            value=_fresh_seed() if seed is None else seed,
            min=0,
            max=2**31 - 1,
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
        self.new_button = W.Button(description="New game", button_style="info", icon="refresh")
        self.setup = W.VBox(
            [
                W.HBox([self.players, self.rounds_box]),
                W.HBox([self.seed, self.hide_chips]),
                self.delay,
                W.HTML("<b>Bots</b> (you play the seat marked 'you')"),
                self.seats_box,
                self.new_button,
            ]
        )
        self.setup_panel = W.Accordion(children=[self.setup], selected_index=None)
        self.setup_panel.set_title(0, "Setup: players, bots, seed, rounds")

        # The table.
        self.title = W.HTML()
        self.table = W.HTML()
        self.status = W.HTML()
        self.take_button = W.Button(description="Take", button_style="warning")
        self.pass_button = W.Button(description="No Thanks!", button_style="success")
        self.hint_toggle = W.ToggleButton(value=False, description="Hints", icon="lightbulb-o")
        self.reason = W.HTML()
        self.hints = W.HTML()
        self.final = W.HTML()
        self.next_button = W.Button(
            description="Next round", button_style="info", layout=W.Layout(display="none")
        )
        self.log = W.HTML(layout=W.Layout(max_height="14em", overflow="auto"))
        # Stable hooks for the real-browser test and for notebook CSS.
        self.table.add_class("nothanks-table")
        self.status.add_class("nothanks-status")
        self.final.add_class("nothanks-final")
        self.log.add_class("nothanks-log")
        self.widget = W.VBox(
            [
                self.title,
                self.table,
                self.status,
                W.HBox([self.take_button, self.pass_button, self.hint_toggle]),
                self.reason,
                self.hints,
                self.final,
                self.next_button,
                W.HTML("<b>Moves</b> (newest first)"),
                self.log,
                self.errors.output,
                self.setup_panel,
            ]
        )

        g = self.errors.guard
        self.take_button.on_click(g(lambda _: self.play(Action.TAKE)))
        self.pass_button.on_click(g(lambda _: self.play(Action.PASS)))
        self.new_button.on_click(g(lambda _: self.new_game()))
        self.next_button.on_click(g(lambda _: self.next_round()))
        self.players.observe(g(lambda _: self._layout_seats()), names="value")
        self.hide_chips.observe(g(lambda _: self._render()), names="value")
        self.hint_toggle.observe(g(lambda _: self._render()), names="value")
        self.delay.observe(g(self._on_delay), names="value")
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
        rows = []
        for i in range(self.players.value):
            if i == self.human_seat:
                rows.append(W.HTML(f"<b>Seat {i}</b>: you"))
            else:
                rows.append(self.pickers[i].widget)
        self.seats_box.children = tuple(rows)
        if self.human_seat >= self.players.value:
            self.players.value = self.human_seat + 1

    def _on_delay(self, change: Mapping[str, Any]) -> None:
        if self.bot_delay is not None:  # None stays manual (tests); the slider sets the pause
            self.bot_delay = float(change["new"])

    # ----------------------------------------------------------------- state
    @property
    def view(self) -> PlayerView | None:
        """The human's view of the current round."""
        return None if self.game is None else self.game.view(self.human_seat)

    @property
    def phase(self) -> str:
        """Who may act: ``"human"``, ``"bot"``, ``"failed"``, ``"round_over"``, ``"match_over"``."""
        game = self.game
        if game is None or game.is_over:
            return "match_over" if len(self.results) >= self.rounds else "round_over"
        if self.failed is not None:
            return "failed"
        return "human" if game.current_player == self.human_seat else "bot"

    @property
    def round_number(self) -> int:
        """1-based number of the round on the table."""
        return self._round_index + 1

    @property
    def log_lines(self) -> list[str]:
        """The moves of the current round in words, oldest first."""
        return [] if self.game is None else [e.describe(self.names) for e in self.game.history]

    def match_result(self) -> MatchResult | None:
        """The rounds finished so far as a `MatchResult` (None before the first one ends)."""
        if not self.results:
            return None
        scores = np.array([r.scores for r in self.results], dtype=np.int64)
        return MatchResult(round_scores=scores, games=tuple(self.results))

    # ----------------------------------------------------------------- actions
    def new_game(self) -> None:
        """Deal a new round (or the first round of a match) with the setup controls' values.

        Safe at any moment, even mid-round or while bots are moving: pending bot moves of the
        old round are dropped.
        """
        with self._lock:
            n = self.players.value
            seed = int(self.seed.value)
            rounds = int(self.rounds_box.value)
            seq = np.random.SeedSequence(seed)
            bot_seeds = seq.spawn(n + 1)[1:]
            policies: list[Any] = [
                None if i == self.human_seat else self.pickers[i].make(bot_seeds[i])
                for i in range(n)
            ]
            # Everything above may raise (a bad setting); nothing of the old round changed yet.
            self._generation += 1
            self._pending = False
            self.policies = policies
            self.names = [
                f"Seat {i} (you)" if i == self.human_seat else f"Bot {i}" for i in range(n)
            ]
            self.notes = [
                "" if p is None else self.pickers[i].spec() for i, p in enumerate(policies)
            ]
            self.rounds = rounds
            self.results = []
            self.match_seed = seed
            # Round r's deal is drawn as play_match draws it, so a match is reproducible.
            self._deal_seeds = np.random.SeedSequence(seed).spawn(rounds)
            self.seed.value = (seed + 1) % 2**31
            self.errors.clear()
            self._start_round(0)

    def next_round(self) -> None:
        """Deal the next round of the match (it starts one seat further on)."""
        with self._lock:
            if self.phase != "round_over":
                raise IllegalActionError(
                    "there is no next round to deal: "
                    + (
                        "the match is over; press New game"
                        if self.phase == "match_over"
                        else "finish this round first"
                    )
                )
            self._start_round(len(self.results))

    def _start_round(self, r: int) -> None:
        n = len(self.policies)
        self._generation += 1
        self._pending = False
        self.failed = None
        self._round_index = r
        self.game = Game(
            n,
            rules=self.rules,
            seed=np.random.default_rng(self._deal_seeds[r]),
            first_player=r % n,
        )
        self._after_change()

    def play(self, action: Action) -> bool:
        """The human's move (what the Take / No Thanks! buttons call); False if ignored."""
        with self._lock:
            phase = self.phase
            if phase != "human":
                self._notice(
                    {
                        "bot": "Wait: it is not your turn yet.",
                        "failed": "A bot failed; press New game.",
                        "round_over": "The round is over.",
                        "match_over": "The match is over.",
                    }[phase]
                )
                return False
            now = self.clock()
            if now - self._last_move_at < self.double_click_s:
                self._notice("Ignored a second click right after your move (a double click?).")
                return False
            assert self.game is not None
            self.game.step(action)  # IllegalActionError leaves the round unchanged
            self._last_move_at = now
            self._after_change()
            return True

    def advance(self) -> Event | None:
        """Make the next bot move now (one move); None if it is not a bot's turn."""
        with self._lock:
            if self.phase != "bot":
                return None
            event = self._bot_step()
            self._render()
            return event

    def _bot_step(self) -> Event:
        game = self.game
        assert game is not None
        seat = game.current_player
        try:
            action = ask(self.policies[seat], game.view(seat), game.legal_actions())
        except PolicyError:
            self.failed = f"{self.names[seat]} ({policy_name(self.policies[seat])})"
            self._render()
            raise
        game.step(action)
        return game.history[-1]

    def _after_change(self) -> None:
        """After any move or deal: record a finished round, redraw, let the bots go on."""
        game = self.game
        assert game is not None
        if game.is_over and len(self.results) == self._round_index:
            self.results.append(GameResult.of(game))
        if self.phase == "bot" and self.bot_delay == 0:
            try:
                while self.phase == "bot":
                    self._bot_step()
            except PolicyError as exc:
                # As with a paused bot: the table shows the failure (phase "failed") and the
                # error panel says why, instead of the deal or the click raising.
                self.errors.report(exc)
                return
            self._after_change()
            return
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
        self._call_later(self.bot_delay, self._on_timer, self._generation)

    def _on_timer(self, gen: int) -> None:
        try:
            with self._lock:
                if gen != self._generation:
                    return  # a restart dropped this round
                self._pending = False
                if self.phase == "bot":
                    self._bot_step()
                    self._after_change()
        except Exception as exc:
            self.errors.report(exc)

    # ----------------------------------------------------------------- drawing
    def _notice(self, text: str) -> None:
        self.reason.value = f"<span style='color:#a15c00'>{escape(text)}</span>"

    def _render(self) -> None:
        game, view = self.game, self.view
        assert game is not None and view is not None
        phase = self.phase
        match = f" — round {self.round_number} of {self.rounds}" if self.rounds > 1 else ""
        self.title.value = (
            f"<h2 style='margin:.2em 0'>No Thanks!{match}</h2>"
            f"<small>seed {self.match_seed}; lowest score wins</small>"
        )
        over = phase in ("round_over", "match_over")
        hide = self.hide_chips.value and not over
        self.table.value = active_html(view) + seats_html(view, self.names, hide, self.notes)
        my_turn = phase == "human"
        self.take_button.disabled = not my_turn
        self.pass_button.disabled = not (my_turn and view.can_pass)
        if my_turn and not view.can_pass:
            reason = "You have no chips left, so you cannot say No thanks!: you must take."
            self.reason.value = f"<b style='color:#b00'>{reason}</b>"
            self.pass_button.tooltip = reason
        else:
            self.reason.value = ""
            self.pass_button.tooltip = "put one chip on the card; the next seat decides"
        if phase == "human":
            status = (
                f"<b>Your turn</b>: take {view.active_card} with its {view.pot} "
                f"chip{'s' * (view.pot != 1)}, or say No thanks! (costs 1 chip)."
            )
        elif phase == "bot":
            status = f"{escape(self.names[game.current_player])} is thinking…"
        elif phase == "failed":
            status = f"<b style='color:#b00'>{escape(self.failed or '')} failed</b>: see below."
        elif phase == "round_over":
            status = "<b>Round over.</b> Press Next round."
        else:
            status = "<b>Game over.</b> Press New game (in Setup) to play again."
        self.status.value = f"<div style='font-size:1.2em;margin:.3em 0'>{status}</div>"
        if self.hint_toggle.value and my_turn:
            seed = int(self.match_seed) * 1000 + len(game.history)
            self.hints.value = hints_html(view, self.names, evaluation_html(view, seed))
        elif self.hint_toggle.value:
            self.hints.value = "<i>Hints show on your turn.</i>"
        else:
            self.hints.value = ""
        self.final.value = self._final_html() if over else ""
        more = phase == "round_over"
        self.next_button.layout.display = "" if more else "none"
        self.log.value = (
            "<ol reversed style='margin:0'>"
            + "".join(f"<li>{escape(line)}</li>" for line in reversed(self.log_lines))
            + "</ol>"
        )

    def _final_html(self) -> str:
        assert self.game is not None
        html = final_scores_html(self.game, self.names)
        match = self.match_result()
        if self.rounds > 1 and match is not None:
            html += (
                f"<h4 style='margin:.5em 0 .2em'>Match: {len(self.results)} of {self.rounds} "
                "rounds</h4>" + match_html(match, self.names)
            )
            if len(self.results) >= self.rounds:
                who = ", ".join(self.names[i] for i in match.winners)
                html += (
                    f"<div><b>Match winner{'s' * (len(match.winners) > 1)}: {escape(who)}</b></div>"
                )
        return html

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


# --------------------------------------------------------------------------- explorers
def refresh_figure(widget: Any, fig: Any) -> None:
    """Copy `fig`'s traces and layout into the `FigureWidget` `widget`, in place.

    Traces are updated one for one when their number and types match (the front end then
    animates values instead of redrawing); otherwise the widget's traces are replaced.
    """
    same = len(widget.data) == len(fig.data) and all(
        a.type == b.type for a, b in zip(widget.data, fig.data, strict=True)
    )
    with widget.batch_update():
        if same:
            for old, new in zip(widget.data, fig.data, strict=True):
                old.update(new.to_plotly_json(), overwrite=True)
        else:
            widget.data = ()
            widget.add_traces(list(fig.data))
        widget.layout.update(fig.layout.to_plotly_json(), overwrite=True)


def _figure_widget(fig: Any) -> Any:
    import plotly.graph_objects as go

    return go.FigureWidget(fig)


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
        title={"text": f"Can the gaps in my hand still be filled? (hand: {hand_text})"},
        font={"size": 16},
        template="plotly_white",
        xaxis_title="gap (the missing cards)",
        yaxis={"title": "chance all its cards are still to come", "range": [0, 1.05]},
        yaxis_tickformat=".0%",
        margin={"t": 80},
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


class ProbabilityExplorer:
    """Click cards to mark them as mine or taken by others; the chance plots update live.

    Two figures (``FigureWidget``s updated in place): the chance that each card is in play,
    and the chance that each gap between my runs can still be filled.
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
        self.errors = _ErrorPanel()
        self.mine: frozenset[int] = frozenset()
        self.seen: frozenset[int] = frozenset()
        self.mode = W.ToggleButtons(options=self.MODES, value="mine", description="mark as")
        self.cards = {
            c: W.Button(description=str(c), layout=W.Layout(width="3.2em", height="2.2em"))
            for c in self.rules.cards
        }
        for c, b in self.cards.items():
            b.on_click(self.errors.guard(functools.partial(self._on_card, c)))
        self.clear_button = W.Button(description="Clear all", icon="eraser")
        self.clear_button.on_click(self.errors.guard(lambda _: self.set_cards((), ())))
        self.summary = W.HTML()
        first = self._figures(frozenset(), frozenset())
        self.in_play = _figure_widget(first[0])
        self.gap = _figure_widget(first[1])
        self.widget = W.VBox(
            [
                W.HTML("<h3 style='margin:.2em 0'>Which cards are still to come?</h3>"),
                self.mode,
                W.GridBox(
                    list(self.cards.values()),
                    layout=W.Layout(grid_template_columns="repeat(11, 3.4em)"),
                ),
                W.HBox([self.clear_button, self.summary]),
                self.errors.output,
                self.in_play,
                self.gap,
            ]
        )
        self.set_cards(hand, seen)

    def _figures(self, mine: frozenset[int], seen: frozenset[int]) -> tuple[Any, Any]:
        """Both figures for a marking; raises `ValueError` for an impossible one."""
        fig1 = self._plots.plot_in_play_chances(sorted(seen), hand=sorted(mine), rules=self.rules)
        chances = self._probability.p_gap_fillable(
            sorted(mine), sorted(seen), self.rules, taken=sorted(seen)
        )
        return fig1, gap_chances_figure(chances, sorted(mine))

    def set_cards(self, hand: Sequence[int] = (), seen: Sequence[int] = ()) -> None:
        """Mark `hand` as mine and `seen` as taken by others; nothing changes on a bad marking."""
        mine = frozenset(_distinct_cards(hand, self.rules, "hand"))
        others = frozenset(_distinct_cards(seen, self.rules, "seen"))
        both = sorted(mine & others)
        if both:
            raise ValueError(f"cards {both} cannot be both in my hand and taken by others")
        fig1, fig2 = self._figures(mine, others)  # may raise: then nothing is applied
        self.mine, self.seen = mine, others
        refresh_figure(self.in_play, fig1)
        refresh_figure(self.gap, fig2)
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
    """Sliders for card, pot and hand; the take-versus-pass figure updates in place.

    The heatmap is Take minus No Thanks! over card × pot for the hand (this move's bookkeeping:
    the card's points against the chips; from :mod:`nothanks_lab.analysis`), with the card and
    pot of the sliders marked and the boundary where `MarginalCostBot(threshold)` starts taking.
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
        self.errors = _ErrorPanel()
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
        self.hand_cards: tuple[int, ...] = ()
        self.figure = _figure_widget(self._figure(card, pot, tuple(hand), threshold))
        self.widget = W.VBox(
            [
                W.HTML("<h3 style='margin:.2em 0'>Take or No Thanks?</h3>"),
                W.HBox([self.card, self.pot]),
                W.HBox([self.hand, self.threshold]),
                self.answer,
                self.errors.output,
                self.figure,
            ]
        )
        for w in (self.card, self.pot, self.hand, self.threshold):
            w.observe(self.errors.guard(lambda _: self.update()), names="value")
        self.update()

    def _parse_hand(self) -> tuple[int, ...]:
        text = self.hand.value.replace(",", " ").split()
        try:
            cards = [int(x) for x in text]
        except ValueError:
            raise ValueError(
                f"my hand must be card numbers separated by spaces; got {self.hand.value!r}"
            ) from None
        hand = self.rules.check_cards(cards, what="my hand")
        if len(set(hand)) != len(hand):
            raise ValueError(f"my hand names a card twice: {sorted(hand)}")
        return tuple(sorted(hand))

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
        return fig

    def update(self) -> None:
        """Redraw from the sliders: the figure in place and the verdict for card and pot."""
        hand = self._parse_hand()
        card, pot = self.card.value, self.pot.value
        if card in hand:
            raise ValueError(f"card {card} is already in my hand {list(hand)}; pick another")
        fig = self._figure(card, pot, hand, self.threshold.value)
        diff = self._analysis.immediate_take_minus_pass(card, pot, hand)
        even = self._analysis.break_even_pots(hand, [card], rules=self.rules)[card]
        self.hand_cards = hand
        refresh_figure(self.figure, fig)
        better = "Take" if diff < 0 else "No Thanks!" if diff > 0 else "either"
        if even < 0:
            pays = f"taking {card} pays even with no chips on it"
        else:
            pays = f"break-even pot for {card}: {even}; with more chips on it, taking pays"
        self.answer.value = (
            f"Counting this move only: Take − No Thanks! = <b>{diff:+d}</b> points → "
            f"<b>{better}</b> ({pays})."
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


class _ProgressExecutor(SerialExecutor):
    """Runs tournament chunks here, one at a time, advancing an ``IntProgress`` per chunk."""

    def __init__(self, bar: W.IntProgress) -> None:
        self.bar = bar

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """Run the call now; the bar moves one step."""
        future = super().submit(fn, *args, **kwargs)
        self.bar.value = min(self.bar.max, self.bar.value + 1)
        return future


class BotLab:
    """Pick bots and their parameters, run a tournament with a progress bar, see win shares.

    The tournament (rotated seats, paired deals, 95% intervals) is
    :func:`nothanks_lab.tournaments.tournament`; the figure is
    :func:`nothanks_lab.plots.plot_win_shares` in a ``FigureWidget`` updated in place.
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
        self.errors = _ErrorPanel()
        self.chunks = chunks
        self.pickers = [
            BotPicker(f"Bot {i + 1}", bots[i] if i < len(bots) else None) for i in range(7)
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
        self.seed = W.BoundedIntText(value=seed, min=0, max=2**31 - 1, description="seed")
        self.run_button = W.Button(description="Run tournament", button_style="primary")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress")
        self.table = W.HTML()
        self.result: Any = None
        self.figure: Any = None
        self.figure_box = W.VBox()
        self.seats_box = W.VBox()
        self.widget = W.VBox(
            [
                W.HTML("<h3 style='margin:.2em 0'>Bot lab</h3>"),
                W.HBox([self.players, self.n_games, self.seed]),
                self.seats_box,
                W.HBox([self.run_button, self.progress]),
                self.errors.output,
                self.table,
                self.figure_box,
            ]
        )
        self.players.observe(self.errors.guard(lambda _: self._layout()), names="value")
        self.run_button.on_click(self.errors.guard(lambda _: self.run()))
        self._layout()

    def _layout(self) -> None:
        self.seats_box.children = tuple(p.widget for p in self.pickers[: self.players.value])

    def run(self) -> Any:
        """Play the tournament of the chosen bots (every bot at one table, seats rotated)."""
        from .plots import plot_win_shares
        from .tournaments import tournament

        pickers = self.pickers[: self.players.value]
        field = [
            p.make(np.random.SeedSequence([self.seed.value, i])) for i, p in enumerate(pickers)
        ]
        n_games = int(self.n_games.value)
        chunk = max(1, -(-n_games // self.chunks))
        self.progress.max = -(-n_games // chunk)
        self.progress.value = 0
        self.run_button.disabled = True
        try:
            result = tournament(
                field,
                n_games=n_games,
                seed=int(self.seed.value),
                chunk_size=chunk,
                executor=_ProgressExecutor(self.progress),
                progress=False,
            )
        finally:
            self.run_button.disabled = False
        fig = plot_win_shares(result)
        self.result = result
        self.table.value = result._repr_html_()
        if self.figure is None:
            self.figure = _figure_widget(fig)
            self.figure_box.children = (self.figure,)
        else:
            refresh_figure(self.figure, fig)
        return result

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
