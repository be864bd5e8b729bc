"""An exercise's exact answer for the teacher: its value, as a fraction if rational, its working.

:func:`solution` asks :mod:`nothanks_lab.lessons` for the answer, computed by the package now
(the teacher's side of the lessons, never a student's), and pairs it with the question, the
hint (each through the catalog, so a translated exercise reads in the kit's language) and the
formula of :func:`~nothanks_lab.kit.notes_pt.formula`. The guides and the nbgrader
course write their answers from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..i18n import _, fmt_decimal
from ..validate import renamed_names
from .notes_pt import formula

__all__ = ["ExerciseAnswer", "as_fraction", "solution"]


def as_fraction(value: float) -> Fraction | None:
    """`value` as a fraction with a denominator of at most a million, if it is one exactly."""
    frac = Fraction(value).limit_denominator(10**6)
    return frac if float(frac) == value else None


@dataclass(frozen=True)
class ExerciseAnswer:
    """An exercise's exact answer, for the teacher: value, fraction if rational, working."""

    key: str
    """The exercise's key."""
    question: str
    """The question as the student reads it."""
    value: float
    """The exact answer, computed by the package now."""
    fraction: Fraction | None
    """The answer as a fraction when it is rational (small denominator), else None."""
    hint: str
    """The hint students get after a wrong answer."""
    formula: str | None
    """How the answer is computed (None when :data:`FORMULAS` has no entry)."""

    @property
    def text(self) -> str:
        """The answer as a teacher reads it: ``8/11 ≈ 0.727273``, ``19`` or ``0.884587``."""
        if self.fraction is None:
            return fmt_decimal(self.value, 6)
        if self.fraction.denominator == 1:
            return str(self.fraction.numerator)
        return f"{self.fraction} ≈ {fmt_decimal(self.value, 6)}"

    @property
    def literal(self) -> str:
        """The answer as Python source: ``Fraction(8, 11)``, ``19`` or a float's repr."""
        if self.fraction is None:
            return repr(self.value)
        if self.fraction.denominator == 1:
            return str(self.fraction.numerator)
        return f"Fraction({self.fraction.numerator}, {self.fraction.denominator})"


def solution(key: str) -> ExerciseAnswer:
    """The exact answer of exercise `key` with its working, computed by the package now.

    >>> s = solution("p28_start")
    >>> s.fraction, s.text
    (Fraction(8, 11), '8/11 ≈ 0.727273')
    """
    from .. import lessons

    ex = lessons.exercise(key)
    value = lessons.solution_value(key)  # the teacher's side of the package: allowed here
    return ExerciseAnswer(
        key=key,
        question=_(ex.question),
        value=value,
        fraction=as_fraction(value),
        hint=_(ex.hint),
        formula=formula(key),
    )


#: ``Solution``, this class's old name (``nt.exact.Solution`` is the solved game), works one
#: release with a warning.
__getattr__ = renamed_names(__name__, Solution="nothanks_lab.kit.solutions.ExerciseAnswer")
