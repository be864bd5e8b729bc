"""Where the many-game work runs: in process, on a local process pool, or on a Dask cluster.

Tournaments and sweeps cut their work into chunks whose content depends only on the seed and
the chunk's first game (never on how many workers there are), hand the chunks to an executor,
and combine the answers in chunk order with exact integer sums. So a serial run, a
``ProcessPoolExecutor`` and a ``dask.distributed.Client`` give bit-identical results. Any
object with ``submit(fn, arg)`` returning a future with ``.result()`` will do (that covers
``concurrent.futures`` executors and Dask clients); so does one with only ``map(fn, args)``.
Dask is an optional extra (``pip install nothanks_lab[dask]``) and is never imported here.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = ["SerialExecutor", "check_picklable", "open_executor", "run_tasks"]

T = TypeVar("T")
R = TypeVar("R")


class SerialExecutor(Executor):
    """Runs each submitted call at once, in this process (the default, and easy to debug)."""

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        """Call ``fn(*args, **kwargs)`` now and return a finished future holding the outcome."""
        future: Future[R] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as e:  # handed back through .result(), like any executor
            future.set_exception(e)
        return future


def check_workers(workers: object) -> int:
    """Return `workers` as an int >= 1, or raise `ValueError`."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1; got {workers!r}")
    return workers


@contextmanager
def open_executor(executor: Any = None, workers: int | None = None) -> Iterator[Any]:
    """Yield the executor to use, shutting down only one that was made here.

    `executor` given: used as is (a ``concurrent.futures`` executor, a Dask ``Client``, or any
    object with ``submit`` or ``map``). Otherwise ``workers > 1`` makes a local
    ``ProcessPoolExecutor`` and ``workers`` of 1 or None runs serially in this process.

    >>> with open_executor() as ex:
    ...     ex.submit(pow, 2, 10).result()
    1024
    """
    if executor is not None:
        if workers is not None:
            raise ValueError("give either executor or workers, not both")
        if not callable(getattr(executor, "submit", None)) and not callable(
            getattr(executor, "map", None)
        ):
            raise ValueError(
                f"executor must have a submit(fn, arg) or map(fn, args) method "
                f"(a concurrent.futures executor or a dask.distributed.Client); "
                f"got {type(executor).__name__}"
            )
        yield executor
        return
    n = 1 if workers is None else check_workers(workers)
    if n == 1:
        yield SerialExecutor()
        return
    pool = ProcessPoolExecutor(max_workers=n)
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def is_local(executor: Any) -> bool:
    """True when `executor` runs calls in this process (no pickling happens)."""
    return isinstance(executor, SerialExecutor)


def check_picklable(obj: object, what: str) -> None:
    """Raise `ValueError` naming `what` if `obj` cannot be sent to another process."""
    try:
        pickle.dumps(obj)
    except Exception as e:
        raise ValueError(
            f"{what} cannot be pickled, so it cannot run on worker processes "
            f"({type(e).__name__}: {e}); define it at module level or run with workers=1"
        ) from e


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    executor: Any,
    *,
    progress: bool = False,
    desc: str = "",
) -> list[R]:
    """Run ``fn(task)`` for every task on `executor`; answers come back in task order.

    Uses ``executor.submit`` when it exists (futures may finish in any order; they are read
    in task order so the answer never depends on scheduling), else ``executor.map``.
    `progress` shows a ``tqdm.auto`` bar, advanced as answers are read.
    """
    from tqdm.auto import tqdm

    with tqdm(total=len(tasks), desc=desc, disable=not progress, leave=False) as bar:
        if callable(getattr(executor, "submit", None)):
            futures = [executor.submit(fn, task) for task in tasks]
            results = []
            for future in futures:
                results.append(future.result())
                bar.update(1)
            return results
        results = []
        for result in executor.map(fn, tasks):
            results.append(result)
            bar.update(1)
        return results
