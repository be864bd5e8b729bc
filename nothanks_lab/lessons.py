"""Self-check exercises for the lesson notebooks: a student's answer against the package's own.

Each :class:`Exercise` holds a question a lesson asks and a function that computes the answer
with :mod:`nothanks_lab.probability` or :mod:`nothanks_lab.analysis` (never a typed-in
number), plus the tolerance a hand-rounded answer may be off by. :func:`check_answer` compares
an answer with it and returns :class:`Feedback` that says right, not yet, or not answered yet,
so an exercise cell left blank (``answer = None``) runs without error and a notebook can run
top to bottom on a fresh kernel. A wrong answer gets a hint, never the solution.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["EXERCISES", "Exercise", "Feedback", "check_answer", "exercise", "exercises"]


@dataclass(frozen=True)
class Exercise:
    """One question of a lesson, with the package computing its answer."""

    key: str
    """Short name used by :func:`check_answer`."""
    lesson: str
    """The notebook it belongs to, e.g. ``"02_run_probabilities"``."""
    question: str
    """The question as the student reads it."""
    solve: Callable[[], float]
    """Computes the exact answer from the package (called on every check, so never stale)."""
    hint: str
    """A nudge shown after a wrong answer; it does not give the answer away."""
    tolerance: float = 0.005
    """How far an answer may be from the exact value and still count as right."""
    probability: bool = True
    """Whether the answer is a chance (then 1 < answer <= 100 is read as a percentage slip)."""

    def solution(self) -> float:
        """The exact answer, computed now."""
        return float(self.solve())

    def __str__(self) -> str:
        return f"Exercise {self.key!r}: {self.question}"

    def _repr_html_(self) -> str:
        return (
            "<div style='border-left:4px solid #1f77b4;padding:.3em .8em;margin:.3em 0'>"
            f"<b>Exercise <code>{html.escape(self.key)}</code></b><br>"
            f"{html.escape(self.question)}</div>"
        )


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: ``"right"``, ``"wrong"`` or ``"unanswered"``, and why."""

    key: str
    """The exercise checked."""
    status: str
    """``"right"``, ``"wrong"`` or ``"unanswered"``."""
    message: str
    """What to tell the student."""

    @property
    def correct(self) -> bool:
        """True only for a right answer."""
        return self.status == "right"

    def __str__(self) -> str:
        mark = {"right": "✔ Right", "wrong": "✘ Not yet", "unanswered": "… Not answered yet"}
        return f"{mark[self.status]} ({self.key}): {self.message}"

    def _repr_html_(self) -> str:
        colour = {"right": "#2ca02c", "wrong": "#d62728", "unanswered": "#7f7f7f"}[self.status]
        return (
            f"<div style='border-left:4px solid {colour};padding:.3em .8em;margin:.3em 0'>"
            f"<b style='color:{colour}'>{html.escape(str(self))}</b></div>"
        )


def _p_28_at_start() -> float:
    from .probability import p_all_in_play

    return p_all_in_play(28)


def _p_27_28_29_at_start() -> float:
    from .probability import p_all_in_play

    return p_all_in_play([27, 28, 29])


def _p_28_after_20_seen() -> float:
    from .probability import p_all_in_play

    # Which cards were seen does not matter, only how many: any 20 that are not 28 will do.
    return p_all_in_play(28, seen=[27, 29, *range(3, 21)])


def _p_gap_21_22_holding_20_23() -> float:
    from .probability import p_all_in_play

    return p_all_in_play([21, 22], seen=[20, 23])


def _p_one_of_top_three_removed() -> float:
    from .probability import removed_count_pmf

    return float(removed_count_pmf([33, 34, 35])[1])


def _p_tiny_single_run() -> float:
    from .probability import run_count_pmf
    from .rules import Rules

    return float(run_count_pmf(Rules(low_card=1, high_card=8, n_removed=3))[1])


def _break_even_20() -> float:
    from .analysis import break_even_pots

    return float(break_even_pots((), [20])[20])


def _break_even_26_holding_27() -> float:
    from .analysis import break_even_pots

    return float(break_even_pots((27,), [26])[26])


_ALL = (
    Exercise(
        "p28_start",
        "02_run_probabilities",
        "At the start of a standard round (33 cards, 9 removed unseen), what is the chance "
        "that card 28 is in play?",
        _p_28_at_start,
        "Count the removed sets that leave 28 out, divided by all removed sets; or think of "
        "how many of the 33 cards are played.",
    ),
    Exercise(
        "p27_28_29_start",
        "02_run_probabilities",
        "At the start of a standard round, what is the chance that all three of 27, 28 and 29 "
        "are in play?",
        _p_27_28_29_at_start,
        "All three are in play when every removed card comes from the other 30 cards.",
    ),
    Exercise(
        "p28_after_20_seen",
        "02_run_probabilities",
        "You hold 27 and 29. Twenty cards have been turned face up so far (your two among "
        "them), and 28 was not one of them. What is the chance that 28 is still coming?",
        _p_28_after_20_seen,
        "The seen cards are certainly in play. How many cards are unseen, and how many of "
        "them are still in play?",
    ),
    Exercise(
        "p_gap_21_22_holding_20_23",
        "02_run_probabilities",
        "You hold 20 and 23 at the very start of a round (nothing else seen). What is the "
        "chance that both 21 and 22 are in play, so the two-card gap can still be filled?",
        _p_gap_21_22_holding_20_23,
        "20 and 23 are seen, so they are in play: all 9 removed cards come from the 31 unseen "
        "cards, and must avoid 21 and 22.",
    ),
    Exercise(
        "one_of_top3_removed",
        "02_run_probabilities",
        "At the start of a standard round, what is the chance that exactly one of the three "
        "highest cards (33, 34, 35) was removed?",
        _p_one_of_top_three_removed,
        "Choose which one of the three is removed, and the other 8 removed cards from the 30 "
        "remaining cards; divide by all removed sets.",
    ),
    Exercise(
        "tiny_single_run",
        "02_run_probabilities",
        "On a tiny deck of cards 1 to 8 with 3 removed, what is the chance that the 5 in-play "
        "cards form one single run?",
        _p_tiny_single_run,
        "List the removed sets with itertools.combinations, or count: one run of 5 "
        "consecutive cards can start at how many places?",
    ),
    Exercise(
        "break_even_20",
        "03_chip_value",
        "Counting this move only, with an empty hand: at what pot do Take and No Thanks! cost "
        "the same for card 20?",
        _break_even_20,
        "Taking costs the card's points minus the chips in the pot; passing costs one chip.",
        tolerance=0.0,
        probability=False,
    ),
    Exercise(
        "break_even_26_holding_27",
        "03_chip_value",
        "Counting this move only, you hold 27: at what pot do Take and No Thanks! cost the "
        "same for card 26? (A negative pot means taking pays even with no chips on it.)",
        _break_even_26_holding_27,
        "26 joins 27 into a run that scores 26 instead of 27: what does taking 26 add?",
        tolerance=0.0,
        probability=False,
    ),
)

#: Every exercise of the lessons, by key.
EXERCISES: dict[str, Exercise] = {e.key: e for e in _ALL}


def exercises(lesson: str | None = None) -> tuple[str, ...]:
    """Keys of the exercises, all of them or those of one `lesson`.

    >>> exercises("03_chip_value")
    ('break_even_20', 'break_even_26_holding_27')
    """
    if lesson is not None and lesson not in {e.lesson for e in _ALL}:
        known = sorted({e.lesson for e in _ALL})
        raise ValueError(f"no exercises for lesson {lesson!r}; lessons with exercises: {known}")
    return tuple(e.key for e in _ALL if lesson is None or e.lesson == lesson)


def exercise(key: str) -> Exercise:
    """The exercise named `key` (it shows its question in a notebook).

    >>> print(exercise("p28_start").question[:45])
    At the start of a standard round (33 cards, 9
    """
    if not isinstance(key, str) or key not in EXERCISES:
        raise ValueError(f"unknown exercise {key!r}; exercises: {', '.join(EXERCISES)}")
    return EXERCISES[key]


def _as_number(answer: Any) -> float:
    """`answer` as a float, or a ValueError saying what an answer may be."""
    ok = isinstance(answer, int | float | Fraction | np.integer | np.floating)
    if isinstance(answer, bool | np.bool_) or not ok:
        raise ValueError(
            f"an answer must be a number (e.g. 0.73, 24/33 or Fraction(8, 11)) or None while "
            f"not answered yet; got {answer!r} of type {type(answer).__name__}"
        )
    value = float(answer)
    if not math.isfinite(value):
        raise ValueError(f"an answer must be a finite number; got {answer!r}")
    return value


def check_answer(key: str, answer: Any) -> Feedback:
    """Compare `answer` with the exercise's exact value: right, not yet, or not answered yet.

    `answer` may be None (the exercise is not answered yet), an int, a float, a
    :class:`fractions.Fraction` or a numpy number.

    >>> print(check_answer("p28_start", None))
    … Not answered yet (p28_start): replace None by your answer and run the cell again.
    >>> check_answer("p28_start", 24 / 33).status, check_answer("p28_start", 0.5).status
    ('right', 'wrong')
    """
    ex = exercise(key)
    if answer is None:
        return Feedback(key, "unanswered", "replace None by your answer and run the cell again.")
    value = _as_number(answer)
    exact = ex.solution()
    if abs(value - exact) <= ex.tolerance + 1e-12:
        shown = f"{exact:.4f}" if ex.tolerance else f"{exact:g}"
        return Feedback(key, "right", f"{answer!r} matches the exact answer {shown}.")
    if ex.probability and 1 < value <= 100 and abs(value / 100 - exact) <= ex.tolerance:
        return Feedback(
            key,
            "wrong",
            f"{answer!r} looks like a percentage; write a chance as a number from 0 to 1 "
            f"(e.g. {value:g}% is {value / 100:g}).",
        )
    if ex.probability and not 0 <= value <= 1:
        return Feedback(key, "wrong", f"{answer!r} is not a chance: a chance lies in [0, 1].")
    return Feedback(key, "wrong", f"{answer!r} is not it. Hint: {ex.hint}")
