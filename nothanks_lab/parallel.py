"""Where the many-game work runs: in process, on a local process pool, or on a Dask cluster.

Tournaments and sweeps cut their work into chunks whose content depends only on the seed and
the chunk's first game (never on how many workers there are), hand the chunks to an executor,
and combine the answers in chunk order with exact integer sums. So a serial run, a
``ProcessPoolExecutor`` and a ``dask.distributed.Client`` give bit-identical results. Any
object with ``submit(fn, arg)`` returning a future with ``.result()`` will do (that covers
``concurrent.futures`` executors and Dask clients); so does one with only ``map(fn, args)``.
Dask is an optional extra (``pip install nothanks_lab[dask]``) and is never imported here.

Chunks are made lazily and only a few per worker are in flight at a time, so memory does not
grow with the number of games, and Ctrl-C (``KeyboardInterrupt``) stops a run at once: the
tasks not yet started are cancelled, and a pool made here has its worker processes terminated.
"""

from __future__ import annotations

import numbers
import os
import pickle
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = [
    "SerialExecutor",
    "Terminated",
    "check_picklable",
    "check_workers",
    "iter_tasks",
    "max_workers",
    "open_executor",
    "run_tasks",
    "sigterm_stops",
]

T = TypeVar("T")
R = TypeVar("R")

#: Tasks kept in flight per worker: enough to keep every worker busy, few enough that memory
#: stays bounded by the chunk size, never by the number of games.
TASKS_PER_WORKER = 3

#: Local worker processes allowed per CPU (more only adds memory and start-up time).
WORKERS_PER_CPU = 4


class SerialExecutor(Executor):
    """Runs each submitted call at once, in this process (the default, and easy to debug).

    Errors of the call are handed back through the future, like any executor's;
    ``KeyboardInterrupt`` and ``SystemExit`` are not: they stop the caller at once.
    """

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        """Call ``fn(*args, **kwargs)`` now and return a finished future holding the outcome."""
        future: Future[R] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as e:  # handed back through .result(), like any executor
            future.set_exception(e)
        return future


def max_workers() -> int:
    """The most local worker processes allowed: 4 per CPU of this machine."""
    return WORKERS_PER_CPU * (os.cpu_count() or 1)


def check_workers(workers: object) -> int:
    """Return `workers` as an int from 1 to `max_workers()`, or raise `ValueError`.

    >>> check_workers(2)
    2
    """
    limit = max_workers()
    if (
        isinstance(workers, bool)
        or not isinstance(workers, numbers.Integral)
        or not 1 <= int(workers) <= limit
    ):
        raise ValueError(
            f"workers must be a whole number from 1 to {limit} ({WORKERS_PER_CPU} per CPU, "
            f"{os.cpu_count() or 1} CPUs here); got {workers!r}"
        )
    return int(workers)


def _ignore_sigint() -> None:
    # A terminal's Ctrl-C reaches the whole process group: workers leave it to the parent,
    # which cancels the run and terminates them (no traceback from every worker).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started, terminate the workers, and wait until they are gone."""
    # ProcessPoolExecutor has no public way to stop running calls before Python 3.14
    # (terminate_workers); terminating them is what it does itself when a worker dies.
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        if p.is_alive():
            p.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
    for p in procs:
        p.join(timeout=5)
        if p.is_alive():
            p.kill()


@contextmanager
def open_executor(
    executor: Any = None, workers: int | None = None, *, n_tasks: int | None = None
) -> Iterator[Any]:
    """Yield the executor to use, shutting down only one that was made here.

    `executor` given: used as is (a ``concurrent.futures`` executor, a Dask ``Client``, or any
    object with ``submit`` or ``map``). Otherwise ``workers > 1`` makes a local
    ``ProcessPoolExecutor`` of at most `n_tasks` processes (no more processes than pieces of
    work) and ``workers`` of 1 or None runs serially in this process. A pool made here is
    stopped on any error or Ctrl-C: pending tasks cancelled, worker processes terminated.

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
    # workers > 1 always means worker processes (so what cannot be pickled is found out
    # whatever the size of the run), but never more of them than there are tasks.
    if n_tasks is not None:
        n = max(1, min(n, n_tasks))
    pool = ProcessPoolExecutor(max_workers=n, initializer=_ignore_sigint)
    try:
        yield pool
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


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


def _capacity(executor: Any) -> int:
    """How many calls `executor` runs at once (a guess when it does not say)."""
    if is_local(executor):
        return 1
    n = getattr(executor, "_max_workers", None)  # concurrent.futures pools
    if isinstance(n, int) and n > 0:
        return n
    nthreads = getattr(executor, "nthreads", None)  # dask.distributed.Client
    if callable(nthreads):
        try:
            total = sum(int(v) for v in nthreads().values())
        except Exception:
            total = 0
        if total > 0:
            return total
    return os.cpu_count() or 1


def iter_tasks(
    fn: Callable[[T], R],
    tasks: Iterable[T],
    executor: Any,
    *,
    window: int | None = None,
    total: int | None = None,
    progress: bool = False,
    desc: str = "",
) -> Generator[R, None, None]:
    """Yield ``fn(task)`` for every task on `executor`, in task order, lazily.

    Uses ``executor.submit`` when it exists, keeping at most `window` tasks in flight
    (default: 3 per worker; 1 on a `SerialExecutor`, so each task runs only when its answer
    is wanted), and reading answers in task order so they never depend on scheduling. Tasks
    are drawn from `tasks` only as room frees up, so a generator of tasks is never built whole.
    Without ``submit``, ``executor.map`` is used. On an error, Ctrl-C, or when the caller stops
    early, the tasks still pending are cancelled. `progress` shows a ``tqdm.auto`` bar
    (`total` tasks long) advanced as answers are read.

    >>> list(iter_tasks(abs, iter([-1, 2, -3]), SerialExecutor()))
    [1, 2, 3]
    """
    from tqdm.auto import tqdm

    if total is None and isinstance(tasks, Sequence):
        total = len(tasks)
    with tqdm(total=total, desc=desc, disable=not progress, leave=False) as bar:
        if not callable(getattr(executor, "submit", None)):
            for result in executor.map(fn, tasks):
                bar.update(1)
                yield result
            return
        size = max(1, window if window is not None else TASKS_PER_WORKER * _capacity(executor))
        if is_local(executor):
            size = 1
        todo = iter(tasks)
        pending: deque[Any] = deque()
        try:
            while True:
                while len(pending) < size:
                    task = next(todo, _DONE)
                    if task is _DONE:
                        break
                    pending.append(executor.submit(fn, task))
                if not pending:
                    return
                result = pending[0].result()
                pending.popleft()
                bar.update(1)
                yield result
        finally:
            for future in pending:
                future.cancel()


_DONE: Any = object()


def run_tasks(
    fn: Callable[[T], R],
    tasks: Iterable[T],
    executor: Any,
    *,
    progress: bool = False,
    desc: str = "",
) -> list[R]:
    """Run ``fn(task)`` for every task on `executor`; the answers as a list in task order.

    The list form of `iter_tasks` (same ordering, cancelling and progress bar).

    >>> run_tasks(abs, [-3, 1, -2], SerialExecutor())
    [3, 1, 2]
    """
    return list(iter_tasks(fn, tasks, executor, progress=progress, desc=desc))


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``, a scheduler) reached the command: it stops as on Ctrl-C."""


@contextmanager
def sigterm_stops(stopped: list[int]) -> Any:
    """SIGTERM raises `Terminated` in this process while the command runs, so it unwinds as on
    Ctrl-C (workers stopped, temporary files removed, nothing half-written, one line said), and
    is noted in `stopped`: whatever error the unwinding meets after it (``timeout`` signals the
    whole group, so a lesson's kernel dies too) is a consequence of the stop. A process forked
    meanwhile (a worker) that inherits the handler dies of SIGTERM as before."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    me = os.getpid()

    def stop(signum: int, frame: object) -> None:
        if os.getpid() != me:  # a forked child: the default action, at once
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        stopped.append(signum)
        raise Terminated

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
