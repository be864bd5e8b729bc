"""What an exercise is, and what a student is told: the `Exercise` and `Feedback` records.

An :class:`Exercise` holds one question a lesson asks, the private function that computes its
exact answer from the package, the hint a wrong answer gets and the precision a decimal answer
needs (its decimal places). A :class:`Feedback` is the verdict
:func:`~nothanks_lab.lessons.check_answer` gives on one answer (right, close, wrong or not
answered yet) with its message; both draw themselves in a notebook. Neither hands out a
solution.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from ..i18n import N_, _

__all__ = ["Exercise", "Feedback", "Status"]

#: The verdicts :func:`check_answer` gives.
Status = Literal["right", "close", "wrong", "unanswered"]


@dataclass(frozen=True)
class Exercise:
    """One question of a lesson; the package computes its answer when an answer is checked."""

    key: str
    """Short name used by :func:`check_answer`."""
    lesson: str
    """The notebook it belongs to, e.g. ``"02_chances_under_removed_cards"``."""
    question_msg: str
    """The question in English, the catalog's message id (`question` is what a student reads);
    ``{name}`` placeholders are filled from `question_args`."""
    _solve: Callable[[], int | Fraction] = field(repr=False)
    """Computes the exact answer, an int or a Fraction (private: the student API never shows it)."""
    hint_msg: str
    """A nudge shown after a wrong answer, in English (`hint` is what a student reads); it does
    not give the answer away."""
    digits: int = 3
    """Decimal places a decimal answer needs: at least this many, the exact answer correctly
    rounded or truncated to them (0 for a whole-number answer)."""
    probability: bool = True
    """Whether the answer is a chance (then 1 < answer <= 100 is read as a percentage slip)."""
    one_above_msg: str | None = None
    """What to say to an answer one more than the exact value (a known misreading), if any, in
    English (`one_above` is what a student reads)."""
    question_args: tuple[tuple[str, str], ...] = ()
    """The values of the question's ``{name}`` placeholders, as ``(name, text)`` pairs."""

    def __post_init__(self) -> None:
        if isinstance(self.digits, bool) or not isinstance(self.digits, int):
            raise ValueError(f"digits must be an int from 0 to 12, not {self.digits!r}")
        if not 0 <= self.digits <= 12:
            raise ValueError(f"digits must be an int from 0 to 12, not {self.digits!r}")

    @property
    def question(self) -> str:
        """The question as the student reads it, in the language in use."""
        text = _(self.question_msg)
        return text.format(**dict(self.question_args)) if self.question_args else text

    @property
    def hint(self) -> str:
        """The hint as the student reads it, in the language in use."""
        return _(self.hint_msg)

    @property
    def one_above(self) -> str | None:
        """What an answer one above the exact value is told, in the language in use, if any."""
        return None if self.one_above_msg is None else _(self.one_above_msg)

    def __str__(self) -> str:
        return _("Exercise {key}: {question}").format(key=repr(self.key), question=self.question)

    def _repr_html_(self) -> str:
        return (
            "<div style='border-left:6px solid #0072B2;padding:.3em .8em;margin:.3em 0;"
            "background:#fffdf5;color:#1a1a1a'>"
            "<b>"
            + _("Exercise {key}").format(key=f"<code>{html.escape(self.key)}</code>")
            + "</b><br>"
            f"{html.escape(self.question)}</div>"
        )


_MARK = {
    "right": N_("✔ Right"),
    "close": N_("≈ Close"),
    "wrong": N_("✘ Not yet"),
    "unanswered": N_("… Not answered yet"),
}
# Okabe-Ito hues (render.figures.OKABE_ITO) for the border; the words say the verdict, so no
# meaning rests on colour, and the text itself is dark ink on a light card on any theme.
_COLOUR = {"right": "#009E73", "close": "#E69F00", "wrong": "#D55E00", "unanswered": "#7f7f7f"}


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer (right, close, wrong or not answered yet) and why."""

    key: str
    """The exercise checked."""
    status: Status
    """``"right"``, ``"close"`` (right value, wrong form), ``"wrong"`` or ``"unanswered"``."""
    message: str
    """What to tell the student."""

    @property
    def correct(self) -> bool:
        """True only for a right answer."""
        return self.status == "right"

    def __str__(self) -> str:
        return f"{_(_MARK[self.status])} ({self.key}): {self.message}"

    def _repr_html_(self) -> str:
        colour = _COLOUR[self.status]
        return (
            f"<div style='border-left:6px solid {colour};padding:.3em .8em;margin:.3em 0;"
            f"background:#fffdf5;color:#1a1a1a'><b>{html.escape(str(self))}</b></div>"
        )
