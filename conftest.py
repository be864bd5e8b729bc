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

import os
from collections.abc import Generator

import pytest


def is_notebook_item(item: pytest.Item) -> bool:
    """Whether `item` is an nbval cell of a notebook (collected from a ``.ipynb`` file)."""
    return item.path.suffix == ".ipynb"


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
    """Turn the skip of a browser test into a failure when running in CI."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and in_ci() and is_browser_test(item) and not hasattr(report, "wasxfail"):
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = (
            f"browser test skipped under CI=true ({reason}); CI must run it: install Debian's "
            "chromium (apt-get install -y chromium) so /usr/bin/chromium exists"
        )
