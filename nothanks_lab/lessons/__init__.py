"""Self-check exercises for the lesson notebooks: a student's answer against the package's own.

Each :class:`Exercise` holds a question a lesson asks and a function that computes the answer
with :mod:`nothanks_lab.probability` or :mod:`nothanks_lab.analysis` (never a typed-in number)
as an exact int or fraction, plus the decimal places a decimal answer needs.
:func:`check_answer` compares an answer with it exactly and returns :class:`Feedback`: right
(the exact value, or a correct rounding or truncation to enough places), close (a correct
rounding to too few places, or a right answer as a percentage), wrong (with a hint, never the
solution; a nearby different fraction is wrong), or not answered yet. It reads whatever a
student may type (a number, a fraction, a string such as ``"0,37"``, ``"23/44"`` or ``"37%"``)
and answers anything else with a message, never an exception, so an exercise cell runs on a
fresh kernel whatever it holds. The exact answers stay out of the student's API: an
:class:`Exercise` does not hand out its solution, and ``solution_value``, ``exact_answer`` and
``accepted_answers`` (the teacher's side) are not in ``__all__``.

The package by concept: :mod:`~nothanks_lab.lessons.exercise` (the `Exercise` and `Feedback`
records), :mod:`~nothanks_lab.lessons.keys` (the answer keys of every lesson) and
:mod:`~nothanks_lab.lessons.checking` (reading an answer and judging it).
"""

from __future__ import annotations

# accepted_answers, exact_answer and solution_value are the teacher's side, kept out of
# `__all__` and so out of the students' reference: the kit's guides and solutions and the tests
# call them; the kit refuses to export a student notebook that calls one.
from .checking import accepted_answers as accepted_answers
from .checking import check_answer
from .exercise import Exercise, Feedback, Status
from .keys import EXERCISES, exercise, exercises
from .keys import exact_answer as exact_answer
from .keys import solution_value as solution_value
from .seed import use_seed as use_seed  # a lesson's first cell checks its SEED

__all__ = [
    "EXERCISES",
    "Exercise",
    "Feedback",
    "Status",
    "check_answer",
    "exercise",
    "exercises",
]
