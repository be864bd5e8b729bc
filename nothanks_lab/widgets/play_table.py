"""The play table: one person against bots, with setup, hints, replays, save and load."""

from __future__ import annotations

import asyncio
import copy
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as W

from .. import render
from ..engine import Action, Event, Game, IllegalActionError, check_seat
from ..play import MatchResult, PolicyError
from ..render import final_scores_html
from ..rules import Rules
from ..table import (
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    MAX_TABLE_SEED,
    BotSpec,
    RoundReplay,
    TableSession,
    check_difficulty,
    difficulty_bots,
)
from ..validate import (
    check_bool,
    check_int,
    check_number,
    check_rules,
    is_int,
)
from ..view import PlayerView
from .common import (
    _WRAP,
    MAX_BOT_DELAY_S,
    BotPicker,
    ErrorLine,
    _fresh_seed,
    _table_seed,
    plain_message,
)
from .replay import ReplayPanel


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
    from ..analysis import evaluate_position

    ev = evaluate_position(view, field=field, seed=seed, budget_s=budget_s)
    return render.position_evaluation_html(ev, assumed)


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
        from ..records import load_round
        from ..review import DEFAULT_ROLLOUTS, review

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
