"""Suite-wide rules: the tiers (what ``-m "not slow"`` leaves out) and CI's browser strictness.

Tiers: ``python -m pytest`` runs everything; ``python -m pytest -m "not slow"`` is the fast tier
a developer runs while working. Test files mark their own slow tests (``@pytest.mark.slow``);
this file adds the two rules no test file can state for itself: every nbval notebook cell is
slow (a lesson runs top to bottom on a kernel), and every ``browser`` test is slow (it starts
Voilà or JupyterLab and a Chromium). ``tests/test_tiers.py`` checks the rule both ways.

Locally, the real-browser test skips when Debian's ``chromium`` is missing, so the suite stays
usable on any laptop. In CI (environment variable ``CI`` set to ``true``/``1``, as ``.ci/run``
and most CI services do) the play UI must really have been clicked through in a browser, so a
skip there means the check silently did not happen: this hook turns it into a failure that
names the reason.
"""

from __future__ import annotations

import copy
import hashlib
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest


def is_notebook_item(item: pytest.Item) -> bool:
    """Whether `item` is an nbval cell of a notebook (collected from a ``.ipynb`` file)."""
    return item.path.suffix == ".ipynb"


# The test files that read nbval's runs (fixture ``nbval_runs``, through ``lesson_runs``): they
# run in the worker that ran the notebooks (tests/test_tiers.py checks this list is complete).
LESSON_FILES = frozenset(
    {
        "tests/test_kit.py",
        "tests/test_lesson_structure.py",
        "tests/test_lessons_pt.py",
        "tests/test_notebook_seeds.py",
    }
)
LESSON_GROUP = "lessons"


def xdist_group(nodeid: str) -> str:
    """The pytest-xdist group of test `nodeid`: its file, or the lessons (notebooks and readers).

    A file's tests run in one worker, in order, so a module's fixtures are built once (as with
    ``--dist loadfile``). Every notebook's cells, and the test files that read nbval's runs,
    share one group: nbval's kernel needs a notebook's cells in order in one process, and the
    lesson tests then reuse those runs (``NbvalRuns`` lives in the worker's config) instead of
    executing each lesson again.
    """
    path = nodeid.split("::", 1)[0]
    return LESSON_GROUP if path.startswith("notebooks/") or path in LESSON_FILES else path


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's scheduler (``-n``): whole groups (:func:`xdist_group`) to one worker each."""
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return xdist_group(nodeid)

    return GroupScheduling(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark notebook cells and browser tests slow, before ``-m`` deselects anything."""
    for item in items:
        if (is_notebook_item(item) or is_browser_test(item)) and not item.get_closest_marker(
            "slow"
        ):
            item.add_marker(pytest.mark.slow)


def in_ci() -> bool:
    """Whether the suite runs under CI (``CI`` is ``true``, ``1`` or ``yes``)."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def is_browser_test(item: pytest.Item) -> bool:
    """Whether `item` is a real-browser test (marked ``browser`` or in ``test_browser.py``)."""
    return item.get_closest_marker("browser") is not None or item.path.name == "test_browser.py"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, None]:
    """Keep a passed nbval cell's outputs; turn the skip of a browser test into a CI failure."""
    outcome = yield
    report = outcome.get_result()
    kept = report.passed and not hasattr(report, "wasxfail")
    if call.when == "call" and kept and is_notebook_item(item):
        item.config.stash[NBVAL_RUNS].record(item)
    if report.skipped and in_ci() and is_browser_test(item) and not hasattr(report, "wasxfail"):
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = (
            f"browser test skipped under CI=true ({reason}); CI must run it: install Debian's "
            "chromium (apt-get install -y chromium) so /usr/bin/chromium exists"
        )


class NbvalRuns:
    """The outputs of the notebooks nbval ran in this session, for tests that read a lesson's run.

    nbval executes every notebook once on a fresh kernel with its own seed; that is also the run
    ``tests/notebook_runs.py`` needs first for each lesson, so instead of a second kernel doing
    the same work, it takes the notebook from here: the stored file with each code cell's
    outputs as nbval's kernel produced them. Only a notebook whose every code cell passed, read
    from a file whose bytes have not changed since, is handed out; anything else (a failed or
    timed-out cell, a run with ``-k`` or ``-m`` that left cells out) is None and gets executed
    by the test that asks, as before.
    """

    def __init__(self) -> None:
        # path -> (SHA-256 of the file nbval read, {code cell number: outputs}, code cells)
        self.cells: dict[str, tuple[str, dict[int, list[Any]], int]] = {}

    def record(self, item: pytest.Item) -> None:
        """Keep the outputs of nbval cell `item`, which has just passed."""
        parent: Any = item.parent
        path = str(item.path.resolve())
        if path not in self.cells:
            total = sum(c.cell_type == "code" for c in parent.nb.cells)
            digest = hashlib.sha256(item.path.read_bytes()).hexdigest()
            self.cells[path] = (digest, {}, total)
        outputs: Any = item.test_outputs  # type: ignore[attr-defined]
        self.cells[path][1][item.cell_num] = copy.deepcopy(outputs)  # type: ignore[attr-defined]

    def notebook(self, path: Path, digest: str) -> Any:
        """Notebook `path` as nbval executed it, or None if it has no complete run of that file."""
        import nbformat

        entry = self.cells.get(str(path.resolve()))
        if entry is None or entry[0] != digest or len(entry[1]) != entry[2]:
            return None
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        if len(code) != entry[2]:
            return None
        for n, cell in enumerate(code):
            cell.outputs = [nbformat.from_dict(o) for o in entry[1][n]]
        return nb


NBVAL_RUNS = pytest.StashKey[NbvalRuns]()


def pytest_configure(config: pytest.Config) -> None:
    """Start the session's empty record of nbval runs."""
    config.stash[NBVAL_RUNS] = NbvalRuns()


@pytest.fixture(scope="session")
def nbval_runs(pytestconfig: pytest.Config) -> NbvalRuns:
    """The notebooks nbval ran completely so far this session (see :class:`NbvalRuns`)."""
    return pytestconfig.stash[NBVAL_RUNS]
