"""Executed lessons shared by the tests that read a lesson's outputs, each run done once a session.

Two test files execute lessons: ``test_notebook_seeds.py`` runs every lesson with other seeds
(:func:`variant_seeds`) and ``test_lesson_structure.py`` reads what a lesson prints with its own
seed (:func:`own_seed`). Starting a kernel and importing the package for each of those runs was
most of their cost, so :class:`LessonRuns` executes all the seeds a lesson needs in one kernel:
its own seed first on the fresh kernel (exactly what a student sees after "Run all"), then each
variant after ``%reset -f`` (the namespace emptied, the compiled kernels and imports kept), and
keeps every executed copy keyed by (path, seed, SHA-256 of the notebook file), so a second test
asking for the same run gets it without executing anything. nbval's run of a lesson is that
same own-seed run on a fresh kernel, so when nbval ran the whole notebook earlier in the session
(``testpaths`` lists ``notebooks`` before ``tests``), its outputs are taken as the own-seed run
instead of executing the lesson a second time (``ready``, the root conftest's ``NbvalRuns``). An
error in one seed's run is kept as that run's result (the test asking for it re-raises it); the
next seed still runs.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat

# The first code cell: ``SEED = <integer>`` on its first line, then the check ``use_seed(SEED)``.
SEED_LINE = re.compile(r"\ASEED = (\d+)\b")


def variant_seeds() -> list[int]:
    """The other seeds every lesson must run with; ``NOTHANKS_NOTEBOOK_SEEDS`` overrides them."""
    extra = os.environ.get("NOTHANKS_NOTEBOOK_SEEDS", "")
    if extra.strip():
        return [int(s) for s in extra.split(",") if s.strip()]
    # The ends of the allowed range and an arbitrary value in between (the notebooks' own
    # seeds run under nbval and as the first run of each kernel here).
    return [0, 1_000_000, 871_003]


def own_seed(path: Path) -> int:
    """The seed lesson `path` states in its first code cell (``SEED = <integer>``)."""
    nb = nbformat.read(path, as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "code")
    match = SEED_LINE.match(first.source)
    assert match, f"first code cell of {path.name} is {first.source!r}"
    return int(match.group(1))


def with_seed(nb: nbformat.NotebookNode, seed: int) -> nbformat.NotebookNode:
    """A copy of `nb` whose first code cell says ``SEED = seed``."""
    nb = copy.deepcopy(nb)
    first = next(c for c in nb.cells if c.cell_type == "code")
    assert SEED_LINE.match(first.source)
    first.source = SEED_LINE.sub(f"SEED = {seed}", first.source, count=1)
    return nb


# Lessons whose runs do not share a kernel: 08 starts a Dask LocalCluster, whose nanny
# processes do not start again in a kernel where one ran before ("Nanny failed to start").
FRESH_KERNEL = {"08_bot_lab_for_analysts"}


@dataclass
class Run:
    """One lesson executed with one seed: the notebook with its outputs, and its error if any."""

    notebook: nbformat.NotebookNode
    error: Exception | None


class LessonRuns:
    """Every executed (lesson, seed) of a test session, each run done at most once."""

    def __init__(
        self,
        timeout: int = 300,
        ready: Callable[[Path, str], nbformat.NotebookNode | None] | None = None,
    ) -> None:
        """`ready(path, sha256)`: that file's notebook already run with its own seed, or None."""
        self.timeout = timeout
        self.ready = ready
        self.runs: dict[tuple[str, int, str], Run] = {}
        self.kernels_started = 0
        self.taken_ready = 0

    @staticmethod
    def key(path: Path, seed: int) -> tuple[str, int, str]:
        return str(path.resolve()), seed, hashlib.sha256(path.read_bytes()).hexdigest()

    def get(self, path: Path, seed: int, *, variants: bool = True) -> nbformat.NotebookNode:
        """Lesson `path` executed with `seed` (re-raising its run's error, if it had one).

        `variants`: run the lesson's own seed and the variant seeds in the same kernel too (the
        seed tests ask for them all); False runs `seed` alone. A lesson that starts processes
        of its own (08's Dask cluster) gets a fresh kernel per seed, as a student's would.
        """
        own = own_seed(path)
        if self.ready is not None and self.key(path, own) not in self.runs:
            key = self.key(path, own)
            nb = self.ready(path, key[2])
            if nb is not None:
                self.runs[key] = Run(nb, None)
                self.taken_ready += 1
        if self.key(path, seed) not in self.runs:
            wanted = [own, *variant_seeds(), seed] if variants else [seed]
            wanted = list(dict.fromkeys(wanted))
            for seeds in [[s] for s in wanted] if path.stem in FRESH_KERNEL else [wanted]:
                self._execute(path, seeds)
        run = self.runs[self.key(path, seed)]
        if run.error is not None:
            raise run.error
        return run.notebook

    def _execute(self, path: Path, seeds: list[int]) -> None:
        """Run `path` with each of `seeds` in turn in one kernel, the namespace reset between."""
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError

        base = nbformat.read(path, as_version=4)
        todo = [s for s in seeds if self.key(path, s) not in self.runs]
        if not todo:
            return
        client = NotebookClient(
            with_seed(base, todo[0]),
            timeout=self.timeout,
            kernel_name="python3",
            resources={"metadata": {"path": path.parent}},
        )
        self.kernels_started += 1
        with client.setup_kernel():
            for n, seed in enumerate(todo):
                if n:  # in a notebook of its own: execute_cell stores a cell at its index
                    reset = nbformat.v4.new_code_cell("%reset -f")
                    client.nb = nbformat.v4.new_notebook(cells=[reset])
                    client.execute_cell(reset, 0)
                nb = with_seed(base, seed)
                client.nb = nb
                error: Exception | None = None
                try:
                    for index, cell in enumerate(nb.cells):
                        client.execute_cell(cell, index)
                except CellExecutionError as exc:
                    error = exc
                self.runs[self.key(path, seed)] = Run(nb, error)
