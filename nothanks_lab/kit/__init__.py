"""The teacher's kit: from the lesson notebooks, everything a teacher hands out or keeps.

:func:`export` writes four folders from the notebooks in ``notebooks/``: ``student/`` (each
lesson with outputs cleared, cells tagged ``solution`` or ``teacher`` removed and every exercise
left unanswered), ``teacher/`` (a guide per lesson in Markdown and HTML: goals, timings for a
45-minute period, the answers with their working, discussion prompts, common misconceptions),
``handouts/`` (each student notebook executed and exported as one self-contained HTML page,
plotly.js inline, images embedded, nothing fetched from a CDN; a PDF beside it) and
``nbgrader/`` (an nbgrader course's ``source/`` folder with solution and autograded test
cells, for every lesson with exercises), plus a one-page rules sheet and a paper quiz with its
answer key per class lesson in ``teacher/``. The per-lesson teaching notes are data in
:data:`LESSON_NOTES`; the answers are computed by :mod:`nothanks_lab.lessons` at export time,
never typed in. ``nothanks-lab lessons export DIR`` runs it from the command line.

The package by concept: :mod:`~nothanks_lab.kit.notes` (the teaching notes and formulas, as
data), :mod:`~nothanks_lab.kit.notebooks` (finding the lessons, their exercise cells, the
student copies), :mod:`~nothanks_lab.kit.solutions` (an exercise's answer for the teacher),
:mod:`~nothanks_lab.kit.guides` (the teacher's guides), :mod:`~nothanks_lab.kit.nbgrader_course`
(the nbgrader course), :mod:`~nothanks_lab.kit.handouts` (HTML and PDF handouts),
:mod:`~nothanks_lab.kit.rules_sheet` (the rules on one page), :mod:`~nothanks_lab.kit.quizzes`
(the paper quizzes) and :mod:`~nothanks_lab.kit.build` (:func:`export`, the whole kit).
"""

from __future__ import annotations

from ..validate import renamed_names
from .build import KitReport, export
from .guides import guide_html, guide_markdown
from .handouts import CHROMIUM as CHROMIUM
from .handouts import HandoutError, handout_html, online_references, pdf_unavailable, print_pdfs
from .nbgrader_course import nbgrader_notebook
from .notebooks import TEACHER_TAGS as TEACHER_TAGS
from .notebooks import ExerciseCell, exercise_cells, find_notebooks, leaks, student_notebook
from .notes import FORMULAS as FORMULAS
from .notes import LESSON_NOTES, LessonNotes
from .notes import PERIOD_MINUTES as PERIOD_MINUTES
from .solutions import ExerciseAnswer, solution

__all__ = [
    "LESSON_NOTES",
    "ExerciseAnswer",
    "ExerciseCell",
    "HandoutError",
    "KitReport",
    "LessonNotes",
    "exercise_cells",
    "export",
    "find_notebooks",
    "guide_html",
    "guide_markdown",
    "handout_html",
    "leaks",
    "nbgrader_notebook",
    "online_references",
    "pdf_unavailable",
    "print_pdfs",
    "solution",
    "student_notebook",
]


#: ``kit.Solution``, the old name of `ExerciseAnswer`, works one release with a warning.
__getattr__ = renamed_names(__name__, Solution="nothanks_lab.kit.solutions.ExerciseAnswer")
