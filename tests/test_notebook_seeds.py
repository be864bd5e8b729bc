"""Every lesson runs to the end, every check in it holding, whatever SEED a student picks.

The fast tests read the notebooks: the first code cell is ``SEED = <integer>``, no later cell
holds a literal seed of its own, and each exercise cell imports what it needs. The slow test
runs each lesson with other seeds through nbclient (the first code cell replaced), all the seeds
of a lesson in one kernel (``notebook_runs``: the namespace reset between seeds); set
``NOTHANKS_NOTEBOOK_SEEDS`` (comma-separated) to run it over other seeds.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
from notebook_runs import SEED_LINE, LessonRuns, variant_seeds

# The lessons (numbered); the app page play_table_app.ipynb has no SEED cell by design.
NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9]*.ipynb"))
SEED_CELL = re.compile(r"SEED = (\d+)")
# A literal seed anywhere after the first code cell: seed=5, seed = 1, SeedSequence(3), ...
LITERAL_SEED = re.compile(r"(?i)\bseed\s*=\s*\d|SeedSequence\(\s*\d|default_rng\(\s*\d")


def _code_cells(path: Path) -> list[nbformat.NotebookNode]:
    nb = nbformat.read(path, as_version=4)
    return [c for c in nb.cells if c.cell_type == "code"]


def test_there_are_lessons() -> None:
    assert len(NOTEBOOKS) >= 4


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_first_code_cell_is_the_seed(path: Path) -> None:
    first = _code_cells(path)[0]
    match = SEED_LINE.match(first.source)
    assert match, f"first code cell of {path.name} is {first.source!r}"
    assert 0 <= int(match.group(1)) <= 1_000_000
    assert "use_seed(SEED)" in first.source, f"{path.name} does not check its SEED"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_later_cell_has_a_seed_of_its_own(path: Path) -> None:
    for cell in _code_cells(path)[1:]:
        assert "SEED =" not in cell.source, cell.source
        assert not LITERAL_SEED.search(cell.source), cell.source


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_exercise_cells_work_on_their_own(path: Path) -> None:
    for cell in _code_cells(path):
        if "lessons.exercise(" in cell.source:
            assert "from nothanks_lab import lessons" in cell.source, cell.source
            assert "answer = None" in cell.source and "check_answer(" in cell.source


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_cell_prints_an_exercise_answer(path: Path) -> None:
    for cell in _code_cells(path):
        teacher_side = ("solution_value", "exact_answer", "accepted_answers", "._solve")
        assert not any(name in cell.source for name in teacher_side), cell.source


@pytest.mark.slow
@pytest.mark.parametrize("seed", variant_seeds())
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_lesson_runs_to_the_end_with_another_seed(
    path: Path, seed: int, lesson_runs: LessonRuns
) -> None:
    nb = lesson_runs.get(path, seed)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors


# A value use_seed refuses, and the start of the one line it shows instead of a traceback.
BAD_SEEDS = ["-1", "10**6 + 1", '"7"', "True", "3.5"]


@pytest.mark.slow
def test_a_bad_seed_stops_the_lesson_with_one_line() -> None:
    """In a real kernel: one line of error output for each bad SEED, and no later cell runs."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    for value in BAD_SEEDS:
        first = nbformat.v4.new_code_cell(
            f"SEED = {value}\n\nfrom nothanks_lab.lessons import use_seed\n\nuse_seed(SEED)"
        )
        later = nbformat.v4.new_code_cell('print("the lesson went on")')
        nb = nbformat.v4.new_notebook(cells=[first, later])
        client = NotebookClient(nb, timeout=60, kernel_name="python3")
        with pytest.raises(CellExecutionError):
            client.execute()
        errors = [o for o in first.outputs if o.output_type == "error"]
        assert len(errors) == 1, first.outputs
        shown = "\n".join(errors[0].traceback)
        assert shown.count("\n") == 0, shown  # one line, no traceback
        assert shown.startswith("SEED must be a whole number from 0 to 1,000,000"), shown
        assert "Traceback" not in shown and "use_seed" not in shown
        assert not later.get("outputs"), later.outputs  # "Run all" stopped at the first cell


@pytest.mark.slow
def test_shared_runs_keep_each_seeds_error_and_reset_between_seeds(tmp_path: Path) -> None:
    """One kernel for all seeds: a failing seed's run fails alone, and no name leaks to the next."""
    from nbclient.exceptions import CellExecutionError

    path = tmp_path / "lesson.ipynb"
    cells = [
        "SEED = 5\nassert SEED != 0",
        "assert 'LEFT_OVER' not in globals()\nLEFT_OVER = SEED\nprint('ran', SEED)",
    ]
    nbformat.write(
        nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells]), path
    )
    runs = LessonRuns(timeout=60)
    with pytest.raises(CellExecutionError):
        runs.get(path, 0)
    assert runs.kernels_started == 1
    for seed in (5, 1_000_000, 871_003):  # the own seed and the other variants ran too
        assert "ran" in runs.get(path, seed).cells[1].outputs[0]["text"]
    assert runs.kernels_started == 1


def test_a_ready_own_seed_run_is_taken_instead_of_executed(tmp_path: Path) -> None:
    """nbval's complete run of a file (``ready``) is the own-seed run; a changed file is not."""
    path = tmp_path / "lesson.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("SEED = 5\nprint(SEED)")])
    nbformat.write(nb, path)
    asked: list[tuple[Path, str]] = []

    def ready(p: Path, digest: str) -> nbformat.NotebookNode | None:
        asked.append((p, digest))
        done = nbformat.read(p, as_version=4)
        done.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="5\n")]
        return done

    runs = LessonRuns(timeout=60, ready=ready)
    got = runs.get(path, 5, variants=False)
    assert got.cells[0].outputs[0]["text"] == "5\n"
    assert runs.kernels_started == 0 and runs.taken_ready == 1
    assert asked == [(path, LessonRuns.key(path, 5)[2])]  # asked with the file's SHA-256
    runs.get(path, 5, variants=False)
    assert runs.taken_ready == 1 and len(asked) == 1  # kept, not asked again


def test_nbval_runs_hand_out_only_a_complete_run_of_the_same_file(
    tmp_path: Path, nbval_runs: Any
) -> None:
    """The root conftest's record: every code cell passed and the file unchanged, or None."""
    path = tmp_path / "lesson.ipynb"
    cells = [nbformat.v4.new_code_cell(c) for c in ("SEED = 5", "print(SEED)")]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    digest = LessonRuns.key(path, 5)[2]
    printed = {"output_type": "stream", "name": "stdout", "text": "5\n"}
    record = type(nbval_runs)()
    record.cells[str(path.resolve())] = (digest, {0: [], 1: [printed]}, 2)
    nb = record.notebook(path, digest)
    assert [c.outputs for c in nb.cells] == [[], [printed]]
    assert record.notebook(path, "0" * 64) is None  # the file changed since nbval read it
    record.cells[str(path.resolve())] = (digest, {0: []}, 2)
    assert record.notebook(path, digest) is None  # a cell failed or was deselected
    assert record.notebook(tmp_path / "other.ipynb", digest) is None  # nbval never ran it
