"""Reading a student's answer and judging it: :func:`check_answer`.

An answer may be whatever a student types: None (not answered yet), a number of any numeric
type, a fraction, or a string such as ``"0,37"``, ``"23/44"`` or ``"37%"``. It is read as an
exact number, or answered with a message saying what an answer may be (never an exception), and
then compared with the exercise's exact value: right, close (the right value in the wrong form:
a percentage, or rounded too coarsely), or wrong with a hint that does not give the answer away.
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from .exercise import Feedback
from .keys import _solution, exercise

__all__ = ["check_answer"]


class _Reading(NamedTuple):
    """An answer read as a number."""

    value: Fraction
    """The number, exactly as given (a float's binary value)."""
    decimals: int | None
    """Decimal places the student wrote (None: a fraction or an exponent, exact as given)."""
    percent: bool
    """Whether it was written with a ``%`` sign (then `value` is already divided by 100)."""


_BLANK = {"", "...", "…", "none", "?", "todo", "your answer"}
_FORMS = "one number such as 0.42, a fraction such as 7/11 or Fraction(7, 11)"


def _decimals(text: str) -> int | None:
    """Decimal places written in `text` (None when it is a fraction or has an exponent)."""
    if "/" in text or "e" in text.lower():
        return None
    return len(text.split(".", 1)[1]) if "." in text else 0


def _read_text(text: str) -> _Reading | str:
    """A string as a number: ``" 0,37 "``, ``"23/44"``, ``"37%"``, ``"−2"``; or a complaint."""
    t = text.strip().replace("−", "-").replace(" ", "").replace("_", "")
    percent = t.endswith("%")
    t = t.removesuffix("%")
    if "," in t and "." not in t and t.count(",") == 1:
        t = t.replace(",", ".")  # a decimal comma
    try:
        value = Fraction(t)
    except (ValueError, ZeroDivisionError, OverflowError):
        return f"could not read {text!r} as a number; write {_FORMS}."
    return _Reading(value / 100 if percent else value, _decimals(t), percent)


def _read(answer: Any) -> _Reading | Feedback | str:
    """`answer` as a number, a not-answered-yet verdict, or a complaint (never an exception)."""
    if answer is None or answer is Ellipsis:
        return Feedback("", "unanswered", "replace None by your answer and run the cell again.")
    if isinstance(answer, str):
        if answer.strip().lower() in _BLANK:
            return Feedback("", "unanswered", "write your answer and run the cell again.")
        return _read_text(answer)
    if isinstance(answer, bool | np.bool_):
        return f"{answer!r} is a truth value, not a number; write {_FORMS}."
    if isinstance(answer, complex | np.complexfloating):
        return f"{answer!r} is a complex number; write {_FORMS}."
    if isinstance(answer, np.ndarray) and answer.ndim > 0:
        return f"give one number, not an array of {answer.size}; write {_FORMS}."
    if isinstance(answer, int | np.integer):
        return _Reading(Fraction(int(answer)), 0, False)
    try:
        if isinstance(answer, numbers.Rational):  # a Fraction and its kin: exact as given
            return _Reading(Fraction(int(answer.numerator), int(answer.denominator)), None, False)
        number = float(answer)
        exact_text = isinstance(answer, float | np.floating | Decimal)
        shown = str(answer) if exact_text else repr(number)
    except Exception:  # a student's object may fail in any way; the checker must not
        kind = type(answer).__name__
        return f"an answer must be one number, not a {kind}; write {_FORMS}."
    if not math.isfinite(number):
        return f"{answer!r} is not a finite number; write {_FORMS}."
    return _Reading(Fraction(number), _decimals(shown), False)


def _same(a: Fraction, b: Fraction, tolerance: float) -> bool:
    return abs(a - b) <= Fraction(tolerance) + Fraction(1, 10**12)


def check_answer(key: str, answer: Any) -> Feedback:
    """Compare `answer` with the exercise's exact value: right, close, wrong or not answered yet.

    `answer` may be None (not answered yet), an int, a float, a :class:`fractions.Fraction`, a
    numpy number, or a string holding one (``"0.37"``, ``"0,37"``, ``"23/44"``, ``"37%"``).
    Anything else gets a message saying what an answer may be, never an exception. A wrong
    answer gets a hint, never the solution.

    >>> print(check_answer("p28_start", None))
    … Not answered yet (p28_start): replace None by your answer and run the cell again.
    >>> [check_answer("p28_start", a).status for a in (24 / 33, "8/11", 0.7, 72.7, 0.5, [1])]
    ['right', 'right', 'close', 'close', 'wrong', 'wrong']
    """
    ex = exercise(key)
    reading = _read(answer)
    if isinstance(reading, Feedback):
        return Feedback(key, reading.status, reading.message)
    if isinstance(reading, str):
        return Feedback(key, "wrong", reading)
    exact_float = _solution(key)
    exact = Fraction(exact_float)
    value, decimals, percent = reading
    shown = _short(answer.strip() if isinstance(answer, str) else repr(answer))
    if not percent and _same(value, exact, ex.tolerance):
        told = f"{exact_float:.4f}" if ex.tolerance else f"{exact_float:g}"
        return Feedback(key, "right", f"{shown} matches the exact answer {told}.")
    if percent or (ex.probability and 1 < value <= 100):
        # 45 or "45%" for 0.4553: the right chance written as a percentage.
        chance = value if percent else value / 100
        if _same(chance, exact, ex.tolerance) or _coarse(chance, exact, decimals, 2):
            return Feedback(
                key,
                "close",
                f"{shown} looks like a percentage; give it as a probability, a number from 0 "
                f"to 1 (e.g. {float(chance * 100):g}% is {float(chance):g}).",
            )
    if not percent and _coarse(value, exact, decimals, 0):
        assert decimals is not None
        return Feedback(
            key,
            "close",
            f"{shown} is right to {decimals} decimal place{'s' if decimals > 1 else ''}, but "
            f"not precise enough: give {decimals + 1} decimal places.",
        )
    if ex.probability and not 0 <= value <= 1:
        return Feedback(key, "wrong", f"{shown} is not a chance: a chance lies between 0 and 1.")
    if ex.one_above is not None and value == exact + 1:
        return Feedback(key, "wrong", f"{shown} is not it: {ex.one_above}")
    return Feedback(key, "wrong", f"{shown} is not it. Hint: {ex.hint}")


def _coarse(value: Fraction, exact: Fraction, decimals: int | None, shift: int) -> bool:
    """Whether `value`, written with `decimals` places, is `exact` cut or rounded to them.

    `shift` adds places already implied (2 for a percentage: 45 is 0.45).
    """
    if decimals is None:
        return False
    places = decimals + shift
    return places >= 1 and abs(value - exact) < Fraction(1, 10**places)


def _short(text: str) -> str:
    """`text`, cut to a readable length (a huge number is not printed in full)."""
    return text if len(text) <= 40 else f"{text[:20]}…{text[-10:]}"
