"""The lesson notebooks and their student copies: finding them, their exercises, no leaks.

:func:`find_notebooks` finds the lessons' folder, :func:`exercise_cells` the cells in which a
student sets ``answer = None`` and checks it by key, :func:`student_notebook` makes the copy a
student gets (teacher cells dropped, outputs cleared, every exercise unanswered) and refuses one
that :func:`leaks` a solution. The other parts of the kit start from these.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..i18n import _

__all__ = [
    "TEACHER_TAGS",
    "ExerciseCell",
    "exercise_cells",
    "find_notebooks",
    "leaks",
    "student_notebook",
]

#: Cells with one of these tags are for the teacher only (solutions, notes, the lesson's own
#: hidden checks that nbval runs): they never reach a student.
TEACHER_TAGS = frozenset({"solution", "teacher", "check"})

# An exercise cell: `var = None` on a line of its own and `check_answer("key", var)`.
_CHECK = re.compile(r"check_answer\(\s*(['\"])(?P<key>\w+)\1\s*,\s*(?P<var>[A-Za-z_]\w*)\s*\)")
# What a student notebook must never call: anything that computes or reveals a solution.
_LEAK = re.compile(
    r"\b(?:solution_value|exact_answer|accepted_answers)\b"  # the teacher's side of lessons
    r"|\b_solution\b|\b_solve\b|\.solution\b|\blessons\._[A-Za-z]\w*"
    r"|from\s+nothanks_lab\.lessons\s+import\s+[^\n]*\b_[A-Za-z]"
)


@dataclass(frozen=True)
class ExerciseCell:
    """An exercise in a notebook: the code cell that checks a student's answer."""

    index: int
    """Position of the cell in the notebook."""
    key: str
    """The exercise's key (see :func:`nothanks_lab.lessons.exercise`)."""
    variable: str
    """The variable the student sets (``answer = None``)."""


# ------------------------------------------------------------------ finding the lessons
def find_notebooks(notebooks: str | Path | None = None, language: str = "en") -> Path:
    """The folder holding the lesson notebooks: `notebooks`, or ``notebooks/`` of a checkout
    (``notebooks/pt_BR/`` for the `language` ``"pt_BR"``).

    Raises ValueError when the folder does not exist or holds no ``.ipynb`` file.
    """
    if notebooks is None:
        import nothanks_lab

        folder = Path(nothanks_lab.__file__).resolve().parents[1] / "notebooks"
        if language != "en":
            folder = folder / language
        where = (
            f"no lesson notebooks next to the package ({folder}); the kit needs a source "
            "checkout (pip install -e .) or --notebooks DIR"
        )
    else:
        folder = Path(notebooks)
        where = f"notebooks {str(notebooks)!r}: no such folder"
    if not folder.is_dir():
        raise ValueError(where)
    if not any(folder.glob("*.ipynb")):
        raise ValueError(f"notebooks {str(folder)!r}: the folder holds no .ipynb file")
    return folder


def is_lesson(path: Path) -> bool:
    """Whether a notebook is a lesson: not hidden and not an app page (``*_app.ipynb``, such as
    ``play_table_app.ipynb``, which holds only a widget for Voila)."""
    return not path.name.startswith(".") and not path.stem.endswith("_app")


def _lesson_paths(folder: Path, lessons: Sequence[str] | None) -> list[Path]:
    paths = sorted(p for p in folder.glob("*.ipynb") if is_lesson(p))
    if lessons is None:
        return paths
    stems = {p.stem: p for p in paths}
    unknown = [s for s in lessons if s.removesuffix(".ipynb") not in stems]
    if unknown:
        raise ValueError(f"lessons {unknown}: not in {folder}; lessons there: {sorted(stems)}")
    return [stems[s.removesuffix(".ipynb")] for s in lessons]


def _read(path: Path) -> Any:
    import nbformat

    return nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]


def _source(cell: Any) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


# ------------------------------------------------------------------ exercises and answers
def exercise_cells(nb: Any) -> list[ExerciseCell]:
    """The exercise cells of notebook `nb`: each sets ``var = None`` and checks it by key.

    A worked example (``check_answer("key", value_computed_above)``) is not an exercise cell.
    """
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        src = _source(cell)
        for m in _CHECK.finditer(src):
            var = m["var"]
            if re.search(rf"^\s*{re.escape(var)}\s*=", src, re.MULTILINE):
                found.append(ExerciseCell(i, m["key"], var))
                break
    return found


# ------------------------------------------------------------------ student notebooks
def student_notebook(nb: Any) -> Any:
    """A copy of lesson `nb` for students: teacher cells removed, outputs cleared, unanswered.

    Cells tagged ``solution`` or ``teacher`` are dropped, every output, execution count and
    widget state is cleared, and each exercise's answer line is reset to ``var = None``.
    Raises ValueError if a remaining cell could reveal a solution (see :func:`leaks`).
    """
    out = copy.deepcopy(nb)
    out.cells = [
        c for c in out.cells if not TEACHER_TAGS & set(c.get("metadata", {}).get("tags", []))
    ]
    for cell in out.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)
    out.metadata.pop("widgets", None)
    for ex in exercise_cells(out):
        cell = out.cells[ex.index]
        cell.source = re.sub(
            rf"^(\s*){re.escape(ex.variable)}\s*=.*$",
            r"\g<1>" + f"{ex.variable} = None  # " + _("your answer"),
            _source(cell),
            count=1,
            flags=re.MULTILINE,
        )
    found = leaks(out)
    if found:
        raise ValueError(f"a student notebook would reveal a solution: {'; '.join(found)}")
    return out


def leaks(nb: Any) -> list[str]:
    """Cells of `nb` that call something computing or revealing an exercise's solution."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            for m in _LEAK.finditer(_source(cell)):
                found.append(f"cell {i} ({cell.get('id', '?')}) uses {m.group(0)!r}")
    return found
