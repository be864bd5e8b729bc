"""The two test tiers stay what the README promises: a fast tier that still touches every file.

``python -m pytest -m "not slow"`` is what a developer runs while working, so every
``tests/test_*.py`` file must keep at least one test outside ``slow`` (otherwise a whole module
of the suite silently drops out of the fast tier); the exception is a file whose every test
drives a real browser (module marker ``browser``), which the root ``conftest.py`` makes slow. In
the other direction, every nbval notebook cell and every browser test must be slow. The check
collects ``tests`` and ``notebooks`` once in a subprocess (``--collect-only -m "not slow"``), so
it sees the markers exactly as a ``-m`` run does, the root ``conftest.py`` hook included.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAST_TIER_ARGS = ["-n", "0", "-p", "no:cacheprovider", "-m", "not slow", "tests", "notebooks"]
TEST_FILES = sorted(p.name for p in (ROOT / "tests").glob("test_*.py"))


def _notebook_code_cells() -> int:
    import nbformat

    return sum(
        c.cell_type == "code"
        for p in (ROOT / "notebooks").glob("*.ipynb")
        for c in nbformat.read(p, as_version=4).cells
    )


@pytest.fixture(scope="module")
def fast_tier() -> tuple[list[str], int]:
    """The node ids ``pytest -m "not slow" --collect-only`` lists, and how many it deselects."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *FAST_TIER_ARGS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    ids = [line for line in out.stdout.splitlines() if "::" in line]
    deselected = re.search(r"\((\d+) deselected\)", out.stdout)
    return ids, int(deselected.group(1)) if deselected else 0


def _browser_only(name: str) -> bool:
    text = (ROOT / "tests" / name).read_text(encoding="utf-8")
    return "\npytestmark = pytest.mark.browser\n" in text


def test_every_test_file_has_a_fast_test(fast_tier: tuple[list[str], int]) -> None:
    files = {i.split("::", 1)[0].removeprefix("tests/") for i in fast_tier[0]}
    missing = [n for n in TEST_FILES if n not in files and not _browser_only(n)]
    assert not missing, f"no test outside 'slow' in: {missing}"


def test_notebook_cells_and_browser_tests_are_slow(fast_tier: tuple[list[str], int]) -> None:
    ids, deselected = fast_tier
    assert not [i for i in ids if ".ipynb::" in i]
    # nbval collected the notebooks' cells and -m deselected them all (and more besides).
    assert deselected > _notebook_code_cells(), deselected
    browser_files = [n for n in TEST_FILES if _browser_only(n)]
    assert browser_files, "the browser test files are gone or no longer marked 'browser'"
    for name in browser_files:
        assert not [i for i in ids if i.startswith(f"tests/{name}::")], name


def test_the_fast_tier_leaves_out_the_known_slow_work(fast_tier: tuple[list[str], int]) -> None:
    """Spot checks of the slow kinds: seed variants, lesson runs, kit exports, serving, Dask."""
    for known in (
        "tests/test_notebook_seeds.py::test_lesson_runs_to_the_end_with_another_seed",
        "tests/test_lesson_structure.py::test_no_answer_printed_before_it_is_asked",
        "tests/test_kit.py::test_export_writes_the_four_folders",
        "tests/test_serve.py::test_three_pages_on_a_pool_of_two_get_tables_and_leak_no_kernel",
        "tests/test_parallel.py::test_dask_local_cluster_gives_bit_identical_results",
    ):
        assert not [i for i in fast_tier[0] if i.startswith(known)], known


def test_every_reader_of_nbval_runs_shares_the_notebooks_worker(
    request: pytest.FixtureRequest,
) -> None:
    """A test file using ``nbval_runs`` (or ``lesson_runs``) is in the root conftest's LESSON_FILES.

    Under pytest-xdist, only those files run in the worker that ran the notebooks; a reader left
    out would still pass, but execute every lesson a second time.
    """
    root = next(  # the root conftest.py (tests/conftest.py is also a module named conftest)
        p
        for p in request.config.pluginmanager.get_plugins()
        if getattr(p, "__file__", None) == str(ROOT / "conftest.py")
    )
    readers = {
        item.nodeid.split("::", 1)[0]
        for item in request.session.items
        if {"nbval_runs", "lesson_runs"} & set(getattr(item, "fixturenames", ()))
    }
    assert readers <= root.LESSON_FILES, sorted(readers - root.LESSON_FILES)
    assert root.xdist_group("notebooks/pt_BR/01_play.ipynb::Cell 3") == root.LESSON_GROUP
    assert root.xdist_group("tests/test_kit.py::test_x[a::b]") == root.LESSON_GROUP
    assert root.xdist_group("tests/test_rules.py::test_y") == "tests/test_rules.py"
