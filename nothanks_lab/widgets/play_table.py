"""The play table: one person against bots, with setup, hints, replays, save and load."""

from __future__ import annotations

import asyncio
import copy
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

from .. import render
from ..engine import Action, Event, Game, IllegalActionError
from ..i18n import _, check_language, resolve_language, speaks
from ..play import MatchResult, PolicyError
from ..render import final_scores_html
from ..rules import Rules
from ..table import (
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    MAX_TABLE_SEED,
    BotSpec,
    TableSession,
    check_difficulty,
    difficulty_bots,
)
from ..validate import (
    check_bool,
    check_int,
    check_number,
    check_rules,
    check_seat,
    is_int,
    keyword_only_after,
)
from ..view import PlayerView
from .common import (
    MAX_BOT_DELAY_S,
    ErrorLine,
    _fresh_seed,
    _table_seed,
    paint,
)
from .round_files import RoundFiles
from .setup import TableSetup


# --------------------------------------------------------------------------- hints
@keyword_only_after(1, "seed")
def evaluation_html(
    view: PlayerView,
    *,
    seed: int,
    field: Sequence[object] | None = None,
    assumed: Sequence[str] | None = None,
) -> str:
    """Take versus No Thanks! by rollouts against `field` (one policy per seat), as HTML.

    The same evaluation `nt.review` makes (`analysis.hint_evaluation`). `assumed` says in words
    how each opponent is played; without a `field` every seat is played by the analysis
    module's default rollout bot, and the panel says so.
    """
    from ..analysis import hint_evaluation

    return render.position_evaluation_html(hint_evaluation(view, field, seed=seed), assumed)


# --------------------------------------------------------------------------- the play table
class PlayTable(TableSetup, RoundFiles):
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
        double_click_s: a second click on Take / No Thanks! within this many seconds after the
            previous move was drawn is ignored (so a double click never makes two moves).
        rules: the rule set (default: the standard game).
        review_rollouts: rollouts per move of "Review my round" (default: `nt.review`'s).
        language: ``"en"`` or ``"pt_BR"`` for everything the table shows (default: the
            language in use, `nothanks_lab.set_language`); in Portuguese the buttons read
            ``Pegar`` and ``Não, obrigado!``.

    When a round ends, "Review my round" shows the review of the person's decisions beside a
    replay (`ReplayPanel`), a link saves the round as a file, and "Load a round" shows a saved
    one in the same replay and review (`review_round`, `save`, `load_round`).

    >>> t = PlayTable(3, ["marginal", ("marginal", {"threshold": 0})], seed=1, bot_delay=0)
    >>> t.phase, t.take_button.description, t.pass_button.description
    ('human', 'Take', 'No Thanks!')
    >>> t.take_button.click()  # what a person's click does
    >>> t.game.history[0].describe(t.names)
    'Seat 0 (you) takes 22'
    """

    @speaks
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
        language: str | None = None,
    ) -> None:
        if language is not None:
            check_language(language)
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

        self.language = resolve_language(language)
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

        self._build_setup(
            n_players,
            counts,
            specs,
            preset,
            hide_chips=hide_chips,
            seed=seed,
            rounds=rounds,
            bot_delay=bot_delay,
        )

        # The table.
        self.title = W.HTML()
        self.table = W.HTML()
        self.status = W.HTML()
        self.take_button = paint(W.Button(description=_("Take")), "warning")
        self.pass_button = paint(W.Button(description=_("No Thanks!")), "success")
        self.hint_toggle = W.ToggleButton(value=False, description=_("Hints"))
        for b in (self.take_button, self.pass_button, self.hint_toggle):
            b.layout.width, b.layout.min_width = "auto", "7em"
        self.reason = W.HTML()
        self.hints = W.HTML()
        self.final = W.HTML()
        self.next_button = paint(W.Button(description=_("Next round")), "info")
        self.again_button = paint(W.Button(description=_("Play again")), "primary")
        self.end_box = W.HBox([self.next_button, self.again_button])
        # After a round: its review beside a replay; Save and Load of rounds as files.
        self._build_files()
        self.log = W.HTML(layout=W.Layout(max_height="14em", overflow="auto"))
        # Stable hooks for the real-browser test and for notebook CSS.
        self.table.add_class("nothanks-table")
        self.status.add_class("nothanks-status")
        self.final.add_class("nothanks-final")
        self.log.add_class("nothanks-log")
        self.end_box.add_class("nothanks-end")
        self.widget = W.VBox(
            [
                self.title,
                self.table,
                self.status,
                # Buttons as wide as their words, wrapping on a phone: fixed 148-px buttons cut
                # «Não, obrigado!» to «Não, obriga…» at 390 px (Brazilian teacher's trial).
                W.HBox(
                    [self.take_button, self.pass_button, self.hint_toggle],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                self.reason,
                self.errors.widget,
                self.final,
                self.end_box,
                self.files_box,
                self.review_area,
                self.hints,
                W.HTML(render.caption_html(_("Moves"), _(" (newest first)"))),
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
        self.hide_chips.observe(g(lambda _: self._render()), names="value")
        self.hint_toggle.observe(g(lambda _: self._render()), names="value")
        self.new_game()
        if self.bot_delay:
            self.warm_up(background=True)

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
    @speaks
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
                seed=self._typed_seed(),
                rounds=int(self.rounds_box.value),
                rules=self.rules,
            )  # may raise (a bad setting): nothing of the old round changed yet
            level = self.difficulty_box.value
            self.difficulty = level if level in DIFFICULTIES else None
            self._start(session)

    @speaks
    def play_again(self) -> None:
        """A new match with the same players and bots, dealt from the next seed."""
        with self._lock:
            self._start(self.session.play_again(self._typed_seed()))

    def _typed_seed(self) -> int:
        """The seed box's seed (a fresh one when it is empty); `ValueError` for junk in it."""
        seed = self.seed.value
        return _fresh_seed() if seed is None else seed

    def _start(self, session: TableSession) -> None:
        self.session = session
        self._pending = False
        self.clear_review()
        self.seed.value = (session.seed + 1) % (MAX_TABLE_SEED + 1)
        self.errors.clear()
        self._after_change()

    @speaks
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

    @speaks
    def play(self, action: Action) -> bool:
        """The human's move (what the Take / No Thanks! buttons call); False if ignored."""
        with self._lock:
            phase = self.phase
            if phase != "human":
                self._notice(
                    {
                        "bot": _("Wait: it is not your turn yet."),
                        "failed": _("A bot failed; press Play again."),
                        "round_over": _("The round is over."),
                        "match_over": _("The match is over."),
                    }[phase]
                )
                return False
            now = self.clock()
            if now - self._last_move_at < self.double_click_s:
                self._notice(_("Ignored a second click right after your move (a double click?)."))
                return False
            self.session.play(action)  # IllegalActionError leaves the round unchanged
            try:
                self._after_change()
            finally:
                # The window runs from when the move's redraw was sent, not from when the click
                # arrived: a redraw that takes long (bots moving at once) must not let a double
                # click's second half, queued behind it, through as a move.
                self._last_move_at = self.clock()
            return True

    @speaks
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

    @speaks
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

    @speaks
    def _render(self) -> None:
        s = self.session
        game, view, phase = s.game, s.view, s.phase
        self.title.value = render.title_html(
            s.round_number, s.rounds, seed=s.seed, difficulty=self.difficulty
        )
        over = phase in ("round_over", "match_over")
        hide = self.hide_chips.value and not over
        self.table.value = render.active_html(view) + render.seats_html(
            view, s.names, hide, self.notes, s.last_moves(), s.to_act
        )
        my_turn = phase == "human"
        # Issue 25, item 9: once the round is over the move buttons and Hints go away.
        for button in (self.take_button, self.pass_button, self.hint_toggle):
            button.layout.display = "none" if over else ""
        self.take_button.disabled = not my_turn
        self.pass_button.disabled = not (my_turn and view.can_pass)
        if my_turn and not view.can_pass:
            reason = _("You have no chips left, so you cannot say No thanks!: you must take.")
            self.reason.value = render.warning_html(reason)
            self.pass_button.tooltip = reason
        else:
            self.reason.value = ""
            self.pass_button.tooltip = _("put one chip on the card; the next seat decides")
        self.status.value = render.status_html(phase, s.names, view, s.failed or "")
        if self.hint_toggle.value and my_turn:
            field, assumed = s.rollout_field()
            seed = int(s.seed) * 1000 + len(game.history)
            evaluation = evaluation_html(view, seed=seed, field=field, assumed=assumed)
            self.hints.value = render.hints_html(view, s.names, evaluation)
        elif self.hint_toggle.value and not over:
            self.hints.value = render.placeholder_html(_("Hints show on your turn."))
        else:
            self.hints.value = ""
        self.final.value = self._final_html() if over else ""
        self.next_button.layout.display = "" if phase == "round_over" else "none"
        self.again_button.layout.display = "" if over or phase == "failed" else "none"
        self.review_button.layout.display = "" if over and s.human_decisions else "none"
        self._draw_save_link(over)
        self.log.value = render.log_html(s.log_lines())

    def _final_html(self) -> str:
        s = self.session
        html = final_scores_html(s.game, s.names)
        match = s.match_result()
        if s.is_match and match is not None:
            html += render.match_progress_html(match, s.names, len(s.results), s.rounds)
        return html

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
