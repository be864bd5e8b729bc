"""Reading a student's answer and judging it exactly: :func:`check_answer`.

An answer may be whatever a student types: None (not answered yet), a number of any numeric
type, a fraction, or a string such as ``"0,37"``, ``"23/44"``, ``"Fraction(23, 44)"`` or
``"37%"``. It is read, with bounded work, as an exact number together with its form (an exact
number, a decimal with so many places, a float an expression computed, a percentage), or
answered with a message saying what an answer may be (never an exception). Then it is compared
with the exercise's exact answer (an int or a :class:`~fractions.Fraction`): right for the exact
value, a correct rounding or truncation to at least the exercise's decimal places, or a
computed float agreeing to 1e-9; close for a correct rounding or truncation to too few places
or a right answer written as a percentage; wrong, with a hint, for everything else.
"""

from __future__ import annotations

import math
import numbers
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, NamedTuple

import numpy as np

from ..i18n import N_, _, fmt_decimal, fmt_int, fmt_separator, ngettext
from .exercise import Exercise, Feedback
from .keys import exact_answer, exercise

__all__ = ["check_answer"]

#: Longest answer string read; a longer one is not a number a student typed.
MAX_CHARS = 200
#: Largest decimal exponent read (``1e-400`` is the limit); beyond it nothing is built.
MAX_EXPONENT = 400
#: A decimal with this many significant digits is a computed float, checked to 1e-9 relative.
COMPUTED_DIGITS = 10
#: Significant digits from which a decimal is a float as Python prints it (``24 / 33`` is
#: ``0.7272727272727273``): called a computed value, never "rounded to 16 decimal places".
FLOAT_DIGITS = 15
_RELATIVE = Fraction(1, 10**9)
# 10**400 has 1329 bits: a larger int or fraction part is refused before any arithmetic.
_MAX_BITS = 1330

Form = Literal["exact", "decimal"]


class _Reading(NamedTuple):
    """An answer read as a number, with the form it was written in."""

    value: Fraction
    """The number exactly as written (a float by its shortest repr; a percentage not divided)."""
    form: Form
    """``"exact"`` (an int or a fraction) or ``"decimal"`` (a decimal with `places` places)."""
    places: int
    """Decimal places written (0 for an exact number)."""
    significant: int
    """Significant digits written (0 for an exact number)."""
    percent: bool
    """Whether it was written with a ``%`` sign."""
    shown: str
    """The answer as the student wrote it, for the message."""


_BLANK = {"", "...", "…", "none", "?", "todo", "your answer"}
_FORMS = N_("one number such as 0.42, a fraction such as 7/11 or Fraction(7, 11)")


def _write(message: str, **values: Any) -> str:
    """A complaint `message` (English, marked) in the language in use, with ``{forms}`` filled."""
    return _(message).format(forms=_(_FORMS), **values)


def _unreadable(what: str) -> str:
    """``what`` (already in the language in use) is too long or too large to read."""
    return _write(
        N_("{what} is not a number I can read (too long or too large); write {forms}."), what=what
    )


_DECIMAL = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?")
_FRACTION = re.compile(r"([+-]?\d+)/([+-]?\d+)|Fraction\(([+-]?\d+),([+-]?\d+)\)")


def _decimal(m: re.Match[str], exponent: int, shown: str, percent: bool) -> _Reading:
    """A decimal matched by `_DECIMAL`; a whole number written without point or exponent is
    an exact number (``"19"`` as ``19``), never a rounding to 0 places."""
    sign, whole, part = m[1], m[2], m[3] or ""
    value = Fraction(int(whole + part or "0"), 10 ** len(part)) * Fraction(10) ** exponent
    value = -value if sign == "-" else value
    if m[3] is None and m[4] is None and "." not in m[0]:
        return _Reading(value, "exact", 0, 0, percent, shown)
    places = max(0, len(part) - exponent)
    return _Reading(value, "decimal", places, len((whole + part).lstrip("0")), percent, shown)


def _read_text(text: str, shown: str | None = None) -> _Reading | str:
    """A string as a number (``" 0,37 "``, ``"23/44"``, ``"37%"``, ``"−2"``), or a complaint."""
    if len(text) > MAX_CHARS:
        return _unreadable(_("an answer of {n} characters").format(n=fmt_int(len(text))))
    shown = _short(text.strip()) if shown is None else shown
    t = text.strip().replace("−", "-").replace(" ", "").replace("_", "").replace("E", "e")
    percent = t.endswith("%")
    t = t.removesuffix("%")
    if "," in t and "." not in t and t.count(",") == 1 and not t.startswith("Fraction("):
        t = t.replace(",", ".")  # a decimal comma
    if m := _DECIMAL.fullmatch(t):
        if m[2] or m[3]:
            exponent = int(m[4] or "0")
            if abs(exponent) > MAX_EXPONENT:  # before any number is built from it
                return _unreadable(shown)
            return _decimal(m, exponent, shown, percent)
    if m := _FRACTION.fullmatch(t):
        top, bottom = (int(m[1]), int(m[2])) if m[1] else (int(m[3]), int(m[4]))
        if bottom != 0:
            return _Reading(Fraction(top, bottom), "exact", 0, 0, percent, shown)
    return _write(N_("could not read {shown} as a number; write {forms}."), shown=repr(shown))


def _read(answer: Any) -> _Reading | Feedback | str:
    """`answer` as a number, a not-answered-yet verdict, or a complaint (never an exception)."""
    if answer is None or answer is Ellipsis:
        return Feedback("", "unanswered", _("replace None by your answer and run the cell again."))
    if isinstance(answer, str):
        text = str.__str__(answer)  # a plain copy: a str subclass's own methods play no part
        if len(text) <= MAX_CHARS and text.strip().lower() in _BLANK:
            return Feedback("", "unanswered", _("write your answer and run the cell again."))
        return _read_text(text)
    if isinstance(answer, bool | np.bool_):
        return _write(
            N_("{answer} is a truth value, not a number; write {forms}."), answer=repr(answer)
        )
    if isinstance(answer, complex | np.complexfloating):
        return _write(N_("a complex number is not an answer here; write {forms}."))
    if isinstance(answer, bytes | bytearray | memoryview):
        return _write(N_("an answer must be one number, not bytes; write {forms}."))
    if isinstance(answer, tuple):
        # ``answer = 0,371`` is the tuple (0, 371): a decimal comma, which Python reads as a
        # separator. Never read as a number (0,05 would be (0, 5)); say how to write it.
        return _(
            "in Python a comma separates values, so this answer is not one number; write a "
            "decimal with a point (0.371), or as text in quotes ('0,371')."
        )
    if isinstance(answer, np.ndarray):
        if answer.ndim > 0:
            return _write(
                N_("give one number, not an array of {size}; write {forms}."), size=answer.size
            )
        answer = answer[()]  # a 0-d array: its one number
    if isinstance(answer, int | np.integer):
        whole = int(answer)
        if whole.bit_length() > _MAX_BITS:
            return _unreadable(
                _("a whole number of {n} bits").format(n=fmt_int(whole.bit_length()))
            )
        return _Reading(Fraction(whole), "exact", 0, 0, False, _short(str(whole)))
    if isinstance(answer, Decimal):
        if not Decimal.is_finite(answer):
            return _write(
                N_("{number} is not a finite number; write {forms}."),
                number=Decimal.__str__(answer),
            )
        _sign, digits, exponent = Decimal.as_tuple(answer)
        if len(digits) > MAX_CHARS or not isinstance(exponent, int) or abs(exponent) > MAX_EXPONENT:
            return _unreadable(_("this Decimal"))
        return _read_text(Decimal.__str__(answer))
    if isinstance(answer, numbers.Rational):  # a Fraction and its kin: exact as given
        top, bottom = int(answer.numerator), int(answer.denominator)
        if max(top.bit_length(), bottom.bit_length()) > _MAX_BITS or bottom == 0:
            return _unreadable(_("this fraction"))
        return _Reading(Fraction(top, bottom), "exact", 0, 0, False, _short(f"{top}/{bottom}"))
    if isinstance(answer, np.floating):
        # numpy's str is the shortest text giving back the same number at its own precision.
        number, text = float(answer), str(answer)
    else:
        number = float(answer)
        text = repr(number)
    if not math.isfinite(number):
        return _write(N_("{number} is not a finite number; write {forms}."), number=text)
    return _read_text(text)


def _rounded(exact: Fraction, places: int) -> tuple[Fraction, Fraction, Fraction]:
    """`exact` truncated, rounded half away from zero and rounded half-even to `places`."""
    scale = 10**places
    scaled = abs(exact) * scale
    down = scaled.numerator // scaled.denominator
    rest = scaled - down
    up = down + 1 if rest >= Fraction(1, 2) else down
    even = down + 1 if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and down % 2) else down
    sign = -1 if exact < 0 else 1
    return Fraction(sign * down, scale), Fraction(sign * up, scale), Fraction(sign * even, scale)


def _kind(value: Fraction, exact: Fraction, places: int) -> str | None:
    """``"rounded"`` or ``"truncated"`` when `value` is `exact` so cut to `places`, else None."""
    down, up, even = _rounded(exact, places)
    if value in (up, even):
        return N_("rounded")
    return N_("truncated") if value == down else None


def _places(n: int) -> str:
    return ngettext("{n} decimal place", "{n} decimal places", n).format(n=n)


def _judge(ex: Exercise, exact: Fraction, value: Fraction, r: _Reading) -> tuple[str, str] | None:
    """The verdict on `value` read as written in `r` (None: neither right nor close)."""
    if value == exact:
        return "right", _("exactly")
    if r.form != "decimal":
        return None
    # A decimal "0.0" of a tiny nonzero answer is no rounding worth the name: it needs a digit.
    kind = _kind(value, exact, r.places) if value != 0 else None
    # A float as Python prints it (15 or more digits) is a computation, not a rounding typed.
    if kind is not None and r.places >= ex.digits and r.significant < FLOAT_DIGITS:
        return "right", _("{kind} to {places}").format(kind=_(kind), places=_places(r.places))
    if r.significant >= COMPUTED_DIGITS and abs(value - exact) <= _RELATIVE * abs(exact):
        return "right", _("agreeing to 1e-9 (a computed value)")
    if kind is None or r.places == 0:  # "7e-0" for 7.3: not a decimal place to speak of
        return None
    return "close", _(
        "is the exact answer {kind} to {places}, not precise enough: give at least {needed}."
    ).format(kind=_(kind), places=_places(r.places), needed=_places(ex.digits))


def check_answer(key: str, answer: Any) -> Feedback:
    """Compare `answer` with the exercise's exact answer: right, close, wrong or not answered.

    `answer` may be None (not answered yet), an int, a float, a :class:`fractions.Fraction`,
    a :class:`decimal.Decimal`, a numpy number, or a string holding one (``"0.37"``,
    ``"0,37"``, ``"23/44"``, ``"Fraction(23, 44)"``, ``"37%"``). Each exercise needs a number
    of decimal places ``d`` (``exercise(key).digits``: 3 for the chances, 0 for whole-number
    answers). The verdict:

    * **right**: an exact number (an int, a Fraction, a fraction string) equal to the exact
      answer; a decimal equal to it; a decimal (number or string) with at least ``d`` places
      that is the exact answer rounded (half to even, or half away from zero) or truncated to
      the places written; or a computed value, a decimal with 10 or more significant digits
      (such as ``24 / 33`` or ``math.comb(32, 9) / math.comb(33, 9)``), within 1e-9 of the
      exact answer relative to it. A float's places are those of its shortest repr: ``0.73``
      has two, ``24 / 33`` is ``0.7272727272727273``, a computed value.
    * **close**: the exact answer rounded or truncated to fewer than ``d`` places (the message
      says which and how many places are needed), or a right answer written as a percentage
      (``"72.7%"``, or ``72.73`` for a chance).
    * **wrong**: everything else, with the exercise's hint and never the solution. A different
      fraction is wrong however near, and so is a decimal that is neither a correct rounding
      nor a truncation of the exact answer.
    * **unanswered**: None, ``...`` or a blank string.

    Reading is bounded: a string longer than 200 characters, or a number whose decimal exponent
    is beyond ±400 (``"1e-99999999"``, ``10**5000``, a huge Fraction or Decimal), is "not a
    number I can read" (wrong) before any arithmetic on it. No answer of any type raises; an
    unknown `key` is a ValueError naming the exercises there are.

    Parameters
    ----------
    key : str
        The exercise's key (`exercises` lists them).
    answer : object
        The student's answer, of any type.

    Returns
    -------
    Feedback
        ``.status`` is ``"right"``, ``"close"``, ``"wrong"`` or ``"unanswered"``; it prints
        the message a student reads.

    Raises
    ------
    ValueError
        For an unknown `key` (never for the answer).

    >>> print(check_answer("p28_start", None))
    … Not answered yet (p28_start): replace None by your answer and run the cell again.
    >>> [check_answer("p28_start", a).status for a in (24 / 33, "8/11", "0.727", 0.7273)]
    ['right', 'right', 'right', 'right']
    >>> [check_answer("p28_start", a).status for a in (0.73, 72.7, 0.8, "3/4", [1])]
    ['close', 'close', 'wrong', 'wrong', 'wrong']
    """
    ex = exercise(key)
    try:
        reading = _read(answer)
    except Exception:  # a student's object may fail in any way; the checker must not
        reading = _write(
            N_("an answer must be one number, not a {type}; write {forms}."),
            type=type(answer).__name__,
        )
    if isinstance(reading, Feedback):
        return Feedback(key, reading.status, reading.message)
    if isinstance(reading, str):
        return Feedback(key, "wrong", reading)
    return _verdict(ex, exact_answer(key), reading)


def _as_written(shown: str) -> str:
    """A decimal as the student wrote it, with the language's decimal mark (``0,7273``)."""
    if re.fullmatch(r"[-+]?\d*\.\d+%?", shown):
        return shown.replace(".", fmt_decimal(0.5, 1)[1])
    return shown


def _verdict(ex: Exercise, exact: Fraction, r: _Reading) -> Feedback:
    shown = _as_written(r.shown)
    if not r.percent:
        verdict = _judge(ex, exact, r.value, r)
        if verdict is not None and verdict[0] == "right":
            text = _("{shown} matches the exact answer, {how}.")
            return Feedback(ex.key, "right", text.format(shown=shown, how=verdict[1]))
        if verdict is not None:
            return Feedback(ex.key, "close", f"{shown} {verdict[1]}")
    if ex.probability and (r.percent or 1 < r.value <= 100):
        # 45 or "45%" for 0.4553: the right chance written as a percentage.
        chance = r._replace(value=r.value / 100, places=r.places + 2)
        if r.form == "exact" and r.value.denominator == 1:  # 73 for 73%: a decimal, 0 places
            chance = chance._replace(form="decimal", significant=len(str(r.value.numerator)))
        verdict = _judge(ex, exact, chance.value, chance)
        if verdict is not None:
            coarse = (
                ""
                if verdict[0] == "right"
                else _("; and as a probability it {how}").format(how=verdict[1])
            )
            text = _(
                "{shown} looks like a percentage; give it as a probability, a number from 0 "
                "to 1 (e.g. {percent}% is {chance}){rest}"
            ).format(
                shown=shown,
                percent=_as_written(_plain(r.value)),
                chance=_as_written(_plain(chance.value)),
                rest=coarse or ".",
            )
            return Feedback(ex.key, "close", text)
    if ex.probability and r.value == 0 and exact != 0:
        # "0.0" for 1/14: a truncation in form, but a chance of 0 says "never", which is false.
        text = _(
            "{shown} would mean it never happens, but it can: the chance is not zero. Hint: {hint}"
        ).format(shown=shown, hint=ex.hint)
        return Feedback(ex.key, "wrong", text)
    if ex.probability and r.percent and 0 <= r.value <= 100:
        # "40.5%" for 0.371: a percentage, just not the right one.
        text = _("{shown} is not it. Hint: {hint}").format(shown=shown, hint=ex.hint)
        return Feedback(ex.key, "wrong", text)
    if ex.probability and not 0 <= r.value <= 1:
        text = _("{shown} is not a chance: a chance lies between 0 and 1.").format(shown=shown)
        return Feedback(ex.key, "wrong", text)
    if ex.one_above is not None and r.value == exact + 1:
        text = _("{shown} is not it: {why}").format(shown=shown, why=ex.one_above)
        return Feedback(ex.key, "wrong", text)
    text = _("{shown} is not it. Hint: {hint}").format(shown=shown, hint=ex.hint)
    return Feedback(ex.key, "wrong", text)


def _plain(value: Fraction) -> str:
    """A student's own number as short text (a percentage and its probability)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.12g}"
    return text if Fraction(text) == value else str(value)


def _short(text: str) -> str:
    """`text`, cut to a readable length (a huge number is not printed in full)."""
    return text if len(text) <= 40 else f"{text[:20]}…{text[-10:]}"


def _fixed(value: Fraction, places: int) -> str:
    """`value` (a multiple of 10**-places) written with exactly `places` decimal places."""
    scaled = abs(value) * 10**places
    assert scaled.denominator == 1
    digits = str(scaled.numerator).rjust(places + 1, "0")
    text = digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"
    return f"-{text}" if value < 0 else text


def accepted_answers(key: str) -> str:
    """What `check_answer` accepts for exercise `key`, for the teacher (it holds the answer),
    in the language in use (decimals with its decimal mark).

    >>> accepted_answers("break_even_20")
    'accepted: 19 (also 19.0)'
    """
    ex = exercise(key)
    exact = exact_answer(key)
    d = ex.digits
    sep = fmt_separator()
    if exact.denominator == 1:
        return _("accepted: {n} (also {decimal})").format(
            n=exact.numerator, decimal=_as_written(f"{exact.numerator}.0")
        )
    scaled = exact * 10**d
    if scaled.denominator == 1:  # a decimal that ends within the places needed
        return _("accepted: {exact} = {decimal} exactly, in either form").format(
            exact=exact, decimal=_as_written(_fixed(exact, d))
        )
    forms = []
    for places in (d, d + 1):
        for v in dict.fromkeys(_rounded(exact, places)[1:] + _rounded(exact, places)[:1]):
            forms.append(_as_written(_fixed(v, places)))
    text = _(
        "accepted: {exact} (or Fraction({top}, {bottom}), or a computed value such as "
        "{top} / {bottom} to 1e-9), or a decimal of at least {at_least} that is {exact} "
        "rounded or truncated: {forms}, …"
    ).format(
        exact=exact,
        top=exact.numerator,
        bottom=exact.denominator,
        at_least=ngettext("{n} place", "{n} places", d).format(n=d),
        forms=sep.join(dict.fromkeys(forms)),
    )
    coarse = [
        _as_written(_fixed(v, p))
        for p in range(d - 1, 0, -1)
        for v in dict.fromkeys(_rounded(exact, p))
        if v
    ]
    closes = []
    if coarse:
        closes.append(_("fewer places ({forms})").format(forms=sep.join(dict.fromkeys(coarse))))
    if ex.probability:
        pct = max(d - 2, 1)
        shown = _as_written(f"{_fixed(_rounded(exact * 100, pct)[1], pct)}%")
        closes.append(_("a percentage ({percent})").format(percent=shown))
    if not closes:
        return text
    return text + _("; close: {forms}").format(forms=_(" or ").join(closes))
