"""A student's bot, and the words that tell its author why it was left out.

:class:`StudentBot` wraps a student's function ``act(view)`` or object with ``act`` under a
name, keeping its last answer and error and timing its decisions, so a failure can be explained
in plain words; :func:`as_bot` names a notebook's bot. :class:`Rejection` is a bot left out of
the league, at loading, screening or during the league, with a message for its author naming
the file, the line and the position (:func:`describe_position`) where it failed.
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ..engine import Action
from ..i18n import N_, _, fmt_decimal, ngettext
from ..play import PolicyError, policy_name
from ..rules import short_repr
from ..tournaments.botfile import NOT_A_MOVE, error_text, line_in, shown_file, type_name
from ..view import PlayerView
from .limits import _TimeUp

__all__ = ["Rejection", "Stage", "StudentBot", "as_bot", "describe_position"]

Stage = Literal["load", "find", "screen", "league"]
_NO_ANSWER: Any = object()


# --------------------------------------------------------------------------- student bots
class StudentBot:
    """A student's bot: a name (a league file's stem) and the function or object that decides.

    `policy` is a function ``act(view)`` or an object with ``act(view)``. The wrapper keeps the
    last answer and error of its bot, so a failure can be explained in plain words, and counts
    the decisions and the time they took. A bot's own generator (an ``rng`` attribute) is the
    one tournaments reseed.

    >>> bot = StudentBot("ada", lambda view: Action.TAKE)
    >>> bot, bot.name
    (StudentBot('ada'), 'ada')
    """

    def __init__(self, name: str, policy: Any, path: str | PathLike[str] | None = None) -> None:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"name must be a non-empty string; got {name!r}")
        if not callable(getattr(policy, "act", None)) and not callable(policy):
            raise ValueError(
                f"policy must be a function act(view) or an object with act(view); got {policy!r}"
            )
        self.name = name.strip()
        self.policy = policy
        self.path = None if path is None else Path(path)
        self.last_answer: Any = _NO_ANSWER
        self.last_error: BaseException | None = None
        self.calls = 0
        self.seconds = 0.0
        self._submitted: list[PlayerView] = []  # views handed to `submit`, not yet collected
        self._started, self._inner_pending = 0.0, False

    @property
    def file(self) -> str | None:
        """The file's name (``ada.py``), or None for a bot made in a notebook."""
        return None if self.path is None else shown_file(self.path)

    @property
    def rng(self) -> np.random.Generator | None:
        """The bot's own generator, if it keeps one as ``rng``."""
        rng = getattr(self.policy, "rng", None)
        return rng if isinstance(rng, np.random.Generator) else None

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        if self.rng is not None:
            self.policy.rng = value

    @property
    def batch_key(self) -> object | None:
        """What answers this bot's decisions in batches (its process, shared by every copy of
        the bot), or None for a bot in this process (see `nothanks_lab.tournaments.lockstep`)."""
        return self.policy if callable(getattr(self.policy, "act_many", None)) else None

    def act_many(self, views: list[PlayerView]) -> list[Action]:
        """The bot's answers in `views`, in one message to its process (a batched bot only)."""
        start = time.perf_counter()
        try:
            answers = self.policy.act_many(views)
        except Exception as e:
            self.last_error = e
            raise
        finally:
            self.calls += len(views)
            self.seconds += time.perf_counter() - start
        return list(answers)

    def submit(self, views: list[PlayerView]) -> None:
        """Hand `views` to the bot's process to start on (`collect` answers them)."""
        self._submitted, self._started = list(views), time.perf_counter()
        inner = getattr(self.policy, "submit", None)
        if callable(inner) and callable(getattr(self.policy, "collect", None)):
            try:
                inner(views)
            except Exception as e:
                self.last_error = e
                raise
            self._inner_pending = True

    def collect(self) -> list[Action]:
        """The bot's answers to the views last submitted."""
        views, self._submitted = self._submitted, []
        if not self._inner_pending:
            return self.act_many(views)
        self._inner_pending = False
        try:
            answers = self.policy.collect()
        except Exception as e:
            self.last_error = e
            raise
        finally:
            self.calls += len(views)
            self.seconds += time.perf_counter() - self._started
        return list(answers)

    def act(self, view: PlayerView) -> Action:
        """The bot's answer in `view` (checked by whoever asks: `nothanks_lab.play.ask`)."""
        decide = getattr(self.policy, "act", None)
        if not callable(decide):
            decide = self.policy
        self.last_answer, self.last_error = _NO_ANSWER, None
        start = time.perf_counter()
        try:
            answer: Action = decide(view)  # checked by whoever asks
        except Exception as e:
            self.last_error = e
            raise
        finally:
            self.calls += 1
            self.seconds += time.perf_counter() - start
        self.last_answer = answer
        return answer

    def __repr__(self) -> str:
        return f"StudentBot({self.name!r})"


def as_bot(bot: Any, name: str | None = None) -> StudentBot:
    """A notebook's bot (a function ``act(view)``, a class or an object with ``act``), named.

    A class is built with no arguments. The name defaults to the function's or class's name.

    >>> def act(view):
    ...     return Action.TAKE
    >>> as_bot(act, "me").name, as_bot(act).name
    ('me', 'act')
    """
    if isinstance(bot, StudentBot):
        return bot if name is None else StudentBot(name, bot.policy, bot.path)
    if isinstance(bot, type):
        default = bot.__name__
        bot = bot()
    else:
        default = getattr(bot, "__name__", None) or policy_name(bot)
    return StudentBot(default if name is None else name, bot)


# --------------------------------------------------------------------------- rejections
@dataclass(frozen=True)
class Rejection:
    """A bot left out of the league, and why, in words for its author."""

    name: str
    """The bot's name (its file's stem)."""
    file: str | None
    """The file it came from (None for a bot made in a notebook)."""
    stage: Stage
    """Where it failed: ``"load"``, ``"find"`` (no bot in the file), ``"screen"``, ``"league"``."""
    problem: str
    """What went wrong, in one sentence."""
    advice: str
    """What to change."""
    view: PlayerView | None = field(default=None, repr=False)
    """The position it failed in, if it failed in one (it draws itself in a notebook)."""

    @property
    def message(self) -> str:
        """The whole message: who, what went wrong, what to change, and the position."""
        if self.file:
            who = _("Bot '{name}' ({file})").format(name=self.name, file=self.file)
        else:
            who = _("Bot '{name}'").format(name=self.name)
        text = _("{who} is left out of the league: {problem}. {advice}").format(
            who=who, problem=self.problem, advice=self.advice
        )
        if self.view is not None:
            text += " " + _("The position: {position}.").format(
                position=describe_position(self.view)
            )
        return text

    def __str__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        from ..render import view_html, warning_html

        body = warning_html(self.message)
        if self.view is not None:
            body += view_html(self.view)
        return body


def _left_out_lines(rejections: Sequence[Rejection]) -> str:
    """The bots left out, one ``  ✘ message`` line each (for a terminal)."""
    return "\n".join(f"  ✘ {r.message}" for r in rejections)


def _left_out_html(rejections: Sequence[Rejection]) -> str:
    """The bots left out as an HTML list, one escaped message each."""
    items = "".join(f"<li style='margin:.3em 0'>{html.escape(r.message)}</li>" for r in rejections)
    return f"<ul>{items}</ul>"


def describe_position(view: PlayerView) -> str:
    """A position in one sentence: the card, its chips, every seat's cards and chips.

    >>> from nothanks_lab.analysis import position_view
    >>> describe_position(position_view(17, 2, (12, 13), my_chips=0, other_hands=[(30,), ()]))
    'seat 0 to play on card 17 with 2 chips on it, holding 12, 13 and 0 chips; seat 1 holds 30 \
and 11 chips; seat 2 holds no cards and 11 chips; 20 cards still face down'
    """

    def chips(n: int) -> str:
        return ngettext("{n} chip", "{n} chips", n).format(n=n)

    def holding(seat: int) -> str:
        cards = ", ".join(map(str, view.hands[seat])) or _("no cards")
        return _("{cards} and {chips}").format(cards=cards, chips=chips(view.chips[seat]))

    if view.active_card is None:
        head = _("the round is over; seat {seat} holds {holding}").format(
            seat=view.seat, holding=holding(view.seat)
        )
    else:
        head = _("seat {seat} to play on card {card} with {pot} on it, holding {holding}").format(
            seat=view.seat, card=view.active_card, pot=chips(view.pot), holding=holding(view.seat)
        )
    others = [
        _("seat {seat} holds {holding}").format(seat=s, holding=holding(s))
        for s in range(view.n_players)
        if s != view.seat
    ]
    left = ngettext(
        "{n} card still face down", "{n} cards still face down", view.cards_left
    ).format(n=view.cards_left)
    return "; ".join([head, *others, left])


_TRY_IT = N_(
    "Try act(view) on this position in a cell to see the error with its traceback (the "
    "position is the rejection's view)."
)
_RETURN_A_MOVE = N_(
    "act must return Action.TAKE or Action.PASS on every path (from nothanks_lab import Action)."
)


def _rejection(bot: StudentBot, stage: Stage, error: PolicyError) -> Rejection:
    """Why `bot` failed with `error` (raised, answered garbage, passed with no chips)."""
    view = error.view
    cause = error.__cause__ or bot.last_error
    if hasattr(cause, "problem") and hasattr(cause, "advice"):  # sandbox.BotProcessError
        problem, advice = str(cause.problem), str(cause.advice)  # type: ignore[union-attr]
    elif isinstance(cause, _TimeUp):
        calls, seconds = getattr(bot, "calls", 0), getattr(bot, "seconds", 0.0)
        pace = (
            _("; {calls} decisions, the stopped one too, took {seconds} s").format(
                calls=calls, seconds=fmt_decimal(seconds, 2)
            )
            if calls
            else ""
        )
        problem = _("it took too long to decide, and was {cause} (the time limit){pace}").format(
            cause=cause, pace=pace
        )
        advice = _("Make sure every loop in act ends, and keep each decision quick.")
    elif cause is not None:
        problem = _("its act(view) raised {error}{where}").format(
            error=error_text(cause), where=line_in(cause, bot.path)
        )
        advice = _(_TRY_IT)
    else:
        answer = bot.last_answer
        if answer is Action.PASS and view.my_chips == 0:
            problem = _("it said No Thanks! with no chips left (a player with no chips must take)")
            advice = _("Check view.my_chips first: if it is 0, return Action.TAKE.")
        elif answer is None:
            problem = _("its act(view) returned None (a missing return?)")
            advice = _(_RETURN_A_MOVE)
        else:
            problem = _(NOT_A_MOVE).format(answer=short_repr(answer), kind=type_name(answer))
            advice = _(_RETURN_A_MOVE)
    return Rejection(bot.name, bot.file, stage, problem, advice, view)
