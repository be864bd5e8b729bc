"""The nbgrader course: each lesson as an nbgrader source notebook, and the course's settings.

:func:`nbgrader_notebook` turns a student notebook into nbgrader's ``source/`` form: each
exercise cell gets its exact answer between ``### BEGIN SOLUTION`` and ``### END SOLUTION``,
followed by a locked, autograded test cell that checks it with ``check_answer``. The course's
``nbgrader_config.py`` keeps a released exercise cell runnable and puts the folder of the Python
running nbgrader first on ``PATH``, since nbgrader runs the ``alembic`` executable by name.
"""

from __future__ import annotations

import re
from typing import Any

from ..i18n import _
from .notebooks import _source, exercise_cells, student_notebook
from .solutions import solution

__all__ = ["nbgrader_config", "nbgrader_notebook"]

# ------------------------------------------------------------------ nbgrader
_NBGRADER_CONFIG = '''"""nbgrader settings of the No Thanks! lessons (from the teacher's kit)."""

import os
import sys
from pathlib import Path

# nbgrader runs the `alembic` executable (its database migrations) by name, so it fails with
# "No such file or directory: 'alembic'" unless the venv's bin/ is on PATH. nbgrader is run by
# the venv's Python (sys.executable), whose bin/ holds alembic: put that folder first on PATH
# for nbgrader and every program it starts, so `.venv/bin/nbgrader ...` works with no PATH edit.
_bin = str(Path(sys.executable).parent)
if _bin not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = os.pathsep.join(p for p in (_bin, os.environ.get("PATH")) if p)

c = get_config()  # noqa: F821
c.CourseDirectory.root = "."
# A released exercise cell keeps its `answer = None` line and runs (it says "not answered
# yet"), instead of nbgrader's default stub, which raises NotImplementedError.
c.ClearSolutions.code_stub = {"python": "# YOUR ANSWER: replace None above by your answer"}
'''
_STUB = "# YOUR ANSWER: replace None above by your answer"


def nbgrader_config() -> str:
    """The course's ``nbgrader_config.py``, its answer stub in the language in use."""
    stub = "# " + _("YOUR ANSWER: replace None above by your answer")
    return _NBGRADER_CONFIG.replace(_STUB, stub)


def _nbgrader_meta(grade_id: str, *, solution: bool, grade: bool) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": not solution,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if grade:
        meta["points"] = 1
    return meta


def nbgrader_notebook(nb: Any) -> Any:
    """Lesson `nb` as an nbgrader source notebook: a solution and a test cell per exercise.

    Each exercise cell keeps the student's ``var = None`` line, followed by the exact answer
    (computed now, written as a literal) between ``### BEGIN SOLUTION`` and ``### END
    SOLUTION``; an autograded, locked test cell after it asserts that
    ``check_answer(key, var).status == "right"`` (1 point).
    """
    import nbformat

    out = student_notebook(nb)
    cells = {ex.index: ex for ex in exercise_cells(out)}
    new_cells = []
    for i, cell in enumerate(out.cells):
        ex = cells.get(i)
        if ex is None:
            new_cells.append(cell)
            continue
        s = solution(ex.key)
        src = _source(cell)
        m = re.search(rf"^(\s*){re.escape(ex.variable)} = None.*$", src, re.MULTILINE)
        assert m is not None  # student_notebook wrote that line
        indent = m.group(1)
        block = [f"{indent}### BEGIN SOLUTION"]
        if "Fraction(" in s.literal:
            block.append(f"{indent}from fractions import Fraction")
        block += [f"{indent}{ex.variable} = {s.literal}", f"{indent}### END SOLUTION"]
        cell.source = src[: m.end()] + "\n" + "\n".join(block) + src[m.end() :]
        cell.metadata["nbgrader"] = _nbgrader_meta(f"answer-{ex.key}", solution=True, grade=False)
        test = nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
            "from nothanks_lab import lessons\n\n"
            f"feedback = lessons.check_answer({ex.key!r}, {ex.variable})\n"
            'assert feedback.status == "right", str(feedback)'
        )
        test.id = f"test-{ex.key}"[:64]
        test.metadata["nbgrader"] = _nbgrader_meta(f"test-{ex.key}", solution=False, grade=True)
        new_cells += [cell, test]
    out.cells = new_cells
    return out
