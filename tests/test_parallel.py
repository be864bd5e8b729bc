"""Executors: serial, a local process pool and a real Dask LocalCluster give identical results,
report a failing bot the same way, stop at once on Ctrl-C, and keep memory bounded."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import parallel
from nothanks_lab.bots import MarginalCostBot, RandomBot
from nothanks_lab.parallel import (
    SerialExecutor,
    check_picklable,
    check_workers,
    max_workers,
    open_executor,
    run_tasks,
)
from nothanks_lab.tournaments import sweep, tournament


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ArithmeticError("three")
    return x


class MapOnly:
    """An executor that offers only ``map`` (results in order)."""

    def __init__(self) -> None:
        self.calls = 0

    def map(self, fn: Any, items: Any) -> Any:
        self.calls += 1
        return map(fn, items)


def test_serial_executor_runs_now_and_hands_back_errors() -> None:
    ex = SerialExecutor()
    assert ex.submit(square, 7).result() == 49
    with pytest.raises(ArithmeticError, match="three"):
        ex.submit(fail_on_three, 3).result()
    assert run_tasks(square, [3, 1, 2], ex) == [9, 1, 4]
    with pytest.raises(ArithmeticError):
        run_tasks(fail_on_three, [1, 3], ex)


def test_map_only_executor_is_used_through_map() -> None:
    ex = MapOnly()
    assert run_tasks(square, list(range(5)), ex, progress=True) == [0, 1, 4, 9, 16]
    assert ex.calls == 1


def test_open_executor_makes_and_closes_a_pool_only_when_asked() -> None:
    with open_executor() as ex:
        assert isinstance(ex, SerialExecutor)
    with open_executor(workers=1) as ex:
        assert isinstance(ex, SerialExecutor)
    with open_executor(workers=2) as ex:
        assert isinstance(ex, ProcessPoolExecutor)
        assert run_tasks(square, [1, 2, 3], ex) == [1, 4, 9]
    with pytest.raises(RuntimeError):  # shut down on leaving
        ex.submit(square, 2)
    mine = SerialExecutor()
    with open_executor(mine) as ex:
        assert ex is mine


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"workers": 0}, "workers"),
        ({"workers": 1.5}, "workers"),
        ({"executor": object()}, "submit"),
        ({"executor": SerialExecutor(), "workers": 2}, "either"),
    ],
)
def test_open_executor_bad_input(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match), open_executor(**kwargs):
        pass


class LambdaBot(MarginalCostBot):
    """A bot holding a lambda: fine in process, cannot be sent to a worker."""

    def __init__(self) -> None:
        super().__init__(10)
        self.hook = lambda: None


def test_unpicklable_bot_is_named_before_work_is_sent() -> None:
    with pytest.raises(ValueError, match="cannot be pickled"):
        check_picklable(lambda: 1, "thing")
    field = [LambdaBot(), MarginalCostBot(0), MarginalCostBot(5)]
    assert tournament(field, n_games=5, seed=1).n_deals == 5  # serial: no pickling needed
    with pytest.raises(ValueError, match=r"LambdaBot.*cannot be pickled"):
        tournament(field, n_games=5, seed=1, workers=2)


def workloads(executor: Any) -> dict[str, Any]:
    """The same runs on `executor`: several chunks each, fast path and slow path."""
    common = {"seed": 21, "executor": executor, "progress": False}
    return {
        "fast": tournament(
            [MarginalCostBot(t) for t in (10, 0, 5, -3)], 3, 900, chunk_size=150, **common
        ),
        "slow": tournament(
            [RandomBot(p_take=0.3, seed=5), MarginalCostBot(10), MarginalCostBot(2)],
            n_games=6,
            chunk_size=2,
            **common,
        ),
        "sweep": sweep(
            "marginal",
            {"threshold": [0, 6, 12]},
            "marginal:threshold=10",
            4,
            600,
            chunk_size=200,
            **common,
        ),
    }


def assert_identical(a: dict[str, Any], b: dict[str, Any]) -> None:
    for name in ("fast", "slow"):
        assert a[name].sums == b[name].sums, name
        assert a[name].to_records() == b[name].to_records(), name
    assert a["sweep"].to_records() == b["sweep"].to_records()
    assert [r.sums for r in a["sweep"].results] == [r.sums for r in b["sweep"].results]


@pytest.fixture(scope="module")
def serial_runs() -> dict[str, Any]:
    return workloads(None)


def test_serial_results_do_not_depend_on_chunk_size_for_deterministic_bots(
    serial_runs: dict[str, Any],
) -> None:
    one_chunk = tournament(
        [MarginalCostBot(t) for t in (10, 0, 5, -3)], 3, 900, seed=21, chunk_size=900
    )
    assert one_chunk.sums == serial_runs["fast"].sums


def test_process_pool_gives_bit_identical_results(serial_runs: dict[str, Any]) -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert_identical(serial_runs, workloads(pool))
    assert (
        tournament(
            [MarginalCostBot(t) for t in (10, 0, 5, -3)], 3, 900, seed=21, chunk_size=150, workers=2
        ).sums
        == serial_runs["fast"].sums
    )


@pytest.mark.slow
def test_dask_local_cluster_gives_bit_identical_results(serial_runs: dict[str, Any]) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert_identical(serial_runs, workloads(client))
        assert len(client.scheduler_info()["workers"]) == 2
    assert nt.__name__ == "nothanks_lab"


# --------------------------------------------------------------------------- errors
class FailingBot:
    """Passes while it can until it is shown a card above 30, then raises (no compiled path).

    Defined here, not in the package: worker processes (forked, or spawned by Dask with this
    process's ``sys.path``) import it from this module.
    """

    name = "FailingBot"

    def act(self, view: nt.PlayerView) -> nt.Action:
        if view.active_card is not None and view.active_card > 30:
            raise RuntimeError(f"cannot stand a {view.active_card}")
        return nt.Action.PASS if view.my_chips > 0 else nt.Action.TAKE


def policy_error_of(**options: Any) -> nt.PolicyError:
    """The error of a tournament in which bot 1 of the field fails."""
    field = [MarginalCostBot(10), FailingBot(), MarginalCostBot(0)]
    with pytest.raises(nt.PolicyError) as info:
        tournament(field, n_games=40, seed=3, chunk_size=10, progress=False, **options)
    return info.value


def assert_same_policy_error(got: nt.PolicyError, want: nt.PolicyError) -> None:
    assert type(got) is type(want)
    assert str(got) == str(want)
    assert got.view == want.view and got.view.seat == want.view.seat
    assert isinstance(got.policy, FailingBot) and got.policy.name == "FailingBot"
    assert f"FailingBot (seat {got.view.seat}) raised RuntimeError: cannot stand a" in str(got)
    assert f"when shown {got.view}" in str(got)


def package_exception_classes() -> list[type[BaseException]]:
    """Every exception class defined in a module of the package (private ones too)."""
    import importlib
    import inspect
    import pkgutil

    found = set()
    for info in pkgutil.walk_packages(nt.__path__, prefix="nothanks_lab."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__.startswith("nothanks_lab"):
                found.add(obj)
    return sorted(found, key=lambda c: (c.__module__, c.__qualname__))


def test_every_exception_class_of_the_package_pickles_intact() -> None:
    view = nt.Game(3, seed=1).view(2)
    classes = package_exception_classes()
    assert nt.PolicyError in classes and nt.IllegalActionError in classes
    for cls in classes:
        try:
            error = cls("what went wrong")
        except TypeError:  # keyword-only details: the classes the package knows of
            assert issubclass(cls, nt.PolicyError), f"add {cls.__qualname__} to this test"
            error = cls("what went wrong", policy=MarginalCostBot(4), view=view)
        error.note = "extra"  # type: ignore[attr-defined]
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is cls and str(back) == str(error) and back.args == error.args
        assert vars(back).keys() == vars(error).keys(), cls
        if isinstance(back, nt.PolicyError):
            assert back.view == view and back.policy.threshold == 4  # type: ignore[attr-defined]


def test_a_failing_bot_on_worker_processes_reports_the_same_error_as_serial() -> None:
    serial = policy_error_of()
    assert_same_policy_error(policy_error_of(workers=2), serial)


@pytest.mark.slow
def test_a_failing_bot_on_a_dask_cluster_reports_the_same_error_as_serial() -> None:
    distributed = pytest.importorskip("dask.distributed")
    serial = policy_error_of()
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert_same_policy_error(policy_error_of(executor=client), serial)


# --------------------------------------------------------------------------- workers
def test_workers_are_limited_and_numpy_integers_are_accepted() -> None:
    limit = max_workers()
    assert limit == 4 * (os.cpu_count() or 1)
    assert check_workers(np.int64(2)) == 2 and type(check_workers(np.int64(2))) is int
    assert check_workers(limit) == limit
    for bad in (0, limit + 1, 100_000, 2.0, True, "2", None):
        with pytest.raises(ValueError, match=rf"workers must be .* from 1 to {limit}"):
            check_workers(bad)
    with pytest.raises(ValueError, match="workers"), open_executor(workers=limit + 1):
        pass
    with pytest.raises(ValueError, match=rf"workers .* 1 to {limit}.*got 100000"):
        tournament([MarginalCostBot(10)] * 3, n_games=10, seed=1, workers=100_000)
    field = [MarginalCostBot(t) for t in (10, 0, 5)]
    assert (
        tournament(field, n_games=20, seed=1, chunk_size=10, workers=np.int64(2)).sums
        == tournament(field, n_games=20, seed=1, chunk_size=10).sums
    )


def test_no_more_worker_processes_than_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []

    class CountingPool(ProcessPoolExecutor):
        def __init__(self, max_workers: int, **kwargs: Any) -> None:
            sizes.append(max_workers)
            super().__init__(max_workers, **kwargs)

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", CountingPool)
    field = [MarginalCostBot(t) for t in (10, 0, 5)]
    workers = min(4, max_workers())
    tournament(field, n_games=10, seed=1, workers=workers)  # one chunk
    tournament(field, n_games=30, seed=1, chunk_size=10, workers=workers)  # three chunks
    assert sizes == [1, min(3, workers)]
    with open_executor(workers=2, n_tasks=1) as pool:
        assert pool._max_workers == 1


def test_cli_refuses_too_many_workers_at_once() -> None:
    bots = ["--bots", "marginal", "random", "random"]
    p = subprocess.Popen(
        [sys.executable, "-m", "nothanks_lab", "tournament", *bots, "-n", "10", "-w", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a regression forks thousands: they are killed with the group
    )
    try:
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None or _group_alive(p.pid):
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 2, err
    assert err.startswith("error: --workers/-w must be a whole number from 1 to "), err
    assert err.count("\n") == 1 and "100000" in err


# --------------------------------------------------------------------------- laziness, memory
class StopRun(Exception):
    """Raised by `CountingExecutor` to end a run that would go on for ever."""


class CountingExecutor:
    """Runs calls at once (in this process, like a pool of 2 would), counting tasks in flight.

    A task is in flight from its ``submit`` until its answer is read; after `stop_after`
    submits, `StopRun` ends the run.
    """

    _max_workers = 2

    def __init__(self, stop_after: int) -> None:
        self.stop_after = stop_after
        self.submitted = self.read = self.most_in_flight = 0

    def submit(self, fn: Any, arg: Any) -> Future[Any]:
        if self.submitted == self.stop_after:
            raise StopRun
        self.submitted += 1
        self.most_in_flight = max(self.most_in_flight, self.submitted - self.read)
        outer = self

        class Counted(Future[Any]):
            def result(self, timeout: float | None = None) -> Any:
                outer.read += 1
                return super().result(timeout)

        future = Counted()
        future.set_result(fn(arg))
        return future


def test_chunks_are_made_lazily_with_few_in_flight() -> None:
    field = [MarginalCostBot(t) for t in (10, 0, 5)]
    ex = CountingExecutor(stop_after=30)
    with pytest.raises(StopRun):
        tournament(field, n_games=10**7, seed=1, chunk_size=100, executor=ex, progress=False)
    assert ex.submitted == 30 and ex.read >= 30 - 3 * 2
    assert ex.most_in_flight <= 3 * 2  # TASKS_PER_WORKER x workers

    calls: list[int] = []

    def record(x: int) -> int:
        calls.append(x)
        return x

    answers = parallel.iter_tasks(record, iter(range(10**9)), SerialExecutor())
    assert next(answers) == 0 and next(answers) == 1
    assert calls == [0, 1]  # serial: each task runs only when its answer is wanted
    answers.close()


@pytest.mark.slow
def test_a_huge_tournament_starts_at_once_in_bounded_memory() -> None:
    # The chunks of 10**12 deals were all built before the first was played (MemoryError
    # after 15 s under a 2 GB cap): now the run starts at once under a 1.5 GB address-space cap.
    # 10**12 is above MAX_GAMES now (refused up front), so this runs at the ceiling, 10**8.
    code = """
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (3 * 2**29, 3 * 2**29))
import nothanks_lab as nt
sys.path.insert(0, sys.argv[1])
from test_parallel import CountingExecutor, StopRun
field = ["marginal:threshold=10", "marginal:threshold=0", "marginal:threshold=5"]
t = time.monotonic()
try:
    nt.tournament(field, n_games=10**8, seed=1, executor=CountingExecutor(12), progress=False)
except StopRun:
    print(f"stopped {time.monotonic() - t:.1f}")
"""
    p = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert p.returncode == 0 and p.stdout.startswith("stopped"), p.stderr[-2000:]
    assert float(p.stdout.split()[1]) < 30


def test_simulate_refuses_a_result_bigger_than_memory_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bots = [MarginalCostBot(10)] * 5
    t = time.monotonic()
    with pytest.raises(ValueError, match=r"at most 100000000 \(its ceiling\)"):
        nt.simulate(bots, 10**12, seed=1)  # above MAX_GAMES: refused before the memory check
    monkeypatch.setattr(nt.simulation, "_memory_limit", lambda: 2**30)
    with pytest.raises(ValueError, match=r"n_games=100,000,000 .*GiB.*simulate_chunks"):
        nt.simulate(bots, 10**8, seed=1)
    assert time.monotonic() - t < 30
    assert callable(nt.simulation.simulate_chunks)
    # The limit itself: 5 seats take 5 x 33 + 8 = 173 bytes a game.
    monkeypatch.setattr(nt.simulation, "_memory_limit", lambda: 173 * 1000)
    assert nt.simulate(bots, 1000, seed=1).n_games == 1000
    with pytest.raises(ValueError, match="n_games=1,001 at 5 seats"):
        nt.simulate(bots, 1001, seed=1)
    assert sum(r.n_games for r in nt.simulation.simulate_chunks(bots, 5000, seed=1)) == 5000


# --------------------------------------------------------------------------- Ctrl-C
def test_serial_runs_let_ctrl_c_through_at_once() -> None:
    def interrupt(_: int) -> int:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        SerialExecutor().submit(interrupt, 1)  # not kept in the future for later

    submitted = []

    class Watching(SerialExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
            submitted.append(args)
            return super().submit(fn, *args, **kwargs)

    field = [MarginalCostBot(10), InterruptingBot(), MarginalCostBot(0)]
    with pytest.raises(KeyboardInterrupt):
        tournament(field, n_games=1000, seed=1, chunk_size=10, executor=Watching())
    assert len(submitted) == 1  # the other 99 chunks were never started


def test_ctrl_c_cancels_the_tasks_in_flight() -> None:
    futures: list[Future[Any]] = []

    class Busy:
        """A pool of 2 whose first task is interrupted while the others wait."""

        _max_workers = 2

        def submit(self, fn: Any, arg: Any) -> Future[Any]:
            futures.append(Future())
            if len(futures) == 1:
                futures[0].set_exception(KeyboardInterrupt())
            return futures[-1]

    field = [MarginalCostBot(t) for t in (10, 0, 5)]
    with pytest.raises(KeyboardInterrupt):
        tournament(field, n_games=10**6, seed=1, chunk_size=10, executor=Busy())
    assert len(futures) == 3 * 2
    assert all(f.cancelled() for f in futures[1:])


class InterruptingBot:
    """Stands for a Ctrl-C arriving while a bot thinks."""

    def act(self, view: nt.PlayerView) -> nt.Action:
        raise KeyboardInterrupt


def _group_alive(pgid: int) -> list[int]:
    """Live (not zombie) processes of the process group `pgid`, read from /proc."""
    alive = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] not in "ZX":
                alive.append(int(entry))
    return alive


# expectation has no compiled path: chunks of 200 deals played by the one-game engine
_FIELD = "['marginal:threshold=10', 'expectation', 'random']"
_RUNS = {
    "tournament": f"nt.tournament({_FIELD}, n_games=10**6, seed=1, progress=False)",
    "tournament-workers": f"nt.tournament({_FIELD}, n_games=10**6, seed=1, workers=2)",
    "sweep": "nt.sweep('marginal', {'threshold': [0, 9]}, 'expectation', 3, 10**6, seed=1)",
    "head_to_head-workers": "nt.head_to_head('marginal', 'expectation', 3, 10**6, 1, workers=2)",
    "tune-workers": "nt.tune('marginal', {'threshold': (0, 9)}, 'expectation', 3, 10**6, 1, "
    "workers=2)",
    "simulate": "nt.simulate([nt.bots.make_bot('linear')] * 7, 2 * 10**6, seed=1)",
    "tournament-dask": f"nt.tournament({_FIELD}, n_games=10**6, seed=1, executor=client)",
}


_CHILD = """
import contextlib
import nothanks_lab as nt
with contextlib.ExitStack() as stack:
    if {dask}:
        from dask.distributed import Client, LocalCluster
        cluster = LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None)
        client = stack.enter_context(Client(stack.enter_context(cluster)))
    nt.simulate([nt.bots.make_bot("linear")] * 7, 10, seed=1)  # compile before the clock runs
    nt.tournament({field}, n_games=10, seed=1, progress=False)
    print("go", flush=True)
    {run}
"""


def interrupt_after_start(
    args: list[str], *, group: bool, sig: int = signal.SIGINT
) -> tuple[float, str, int, list[int]]:
    """Start `args` in a session of its own; when it writes its first byte to stdout (child
    scripts) or stderr (the CLI's progress bar), wait a second and send SIGINT, to the whole
    process group like a terminal's Ctrl-C (`group`) or to the main process only like
    Jupyter's "interrupt kernel". Returns seconds to exit, stderr, exit code and how many
    processes the group had when interrupted; asserts that none of them survives."""
    p = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    try:
        started = p.stdout if "-m" not in args else p.stderr
        assert started is not None and started.read(1), "the run did not start"
        time.sleep(1.0)
        before = _group_alive(p.pid)
        t = time.monotonic()
        os.killpg(p.pid, sig) if group else os.kill(p.pid, sig)
        _, err = p.communicate(timeout=60)
        elapsed = time.monotonic() - t
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    deadline = time.monotonic() + 5
    while _group_alive(p.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _group_alive(p.pid) == [], "stray processes after Ctrl-C"
    return elapsed, err.decode(), p.returncode, before


@pytest.mark.slow
@pytest.mark.parametrize(
    ("run", "group"),
    [(run, group) for run in _RUNS for group in (False, True) if group or "dask" not in run],
    ids=lambda x: x if isinstance(x, str) else ("terminal" if x else "kernel-interrupt"),
)
def test_ctrl_c_stops_a_long_run_at_once(run: str, group: bool) -> None:
    if "dask" in run:
        pytest.importorskip("dask.distributed")
    child = _CHILD.format(dask="dask" in run, field=_FIELD, run=_RUNS[run])
    elapsed, err, code, before = interrupt_after_start([sys.executable, "-c", child], group=group)
    assert err.rstrip().endswith("KeyboardInterrupt"), err[-2000:]
    assert code == -signal.SIGINT
    # Closing a LocalCluster whose worker was busy takes Dask's own 4 s grace period.
    assert elapsed < (10 if "dask" in run else 5), f"took {elapsed:.1f} s to stop"
    if "workers" in run or "dask" in run:
        assert len(before) >= 2  # there were worker processes to stop


@pytest.mark.slow
@pytest.mark.parametrize("workers", [[], ["--workers", "2"]], ids=["serial", "workers"])
def test_cli_exits_130_with_one_line_on_ctrl_c(workers: list[str]) -> None:
    args = [sys.executable, "-m", "nothanks_lab", "tournament", "--bots", "marginal", "random"]
    args += ["random", "--games", "3000000", *workers]
    elapsed, err, code, before = interrupt_after_start(args, group=True)
    assert code == 130, err[-2000:]
    assert "Traceback" not in err
    # what stays on the screen: the progress bar is cleared, the message is one line
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("tournament:")]
    assert lines == ["interrupted (Ctrl-C): stopped before the end, no result"], err
    assert elapsed < 5, f"took {elapsed:.1f} s to stop"
    assert len(before) == (3 if workers else 1)


@pytest.mark.slow
@pytest.mark.parametrize("workers", [[], ["--workers", "2"]], ids=["serial", "workers"])
def test_cli_exits_143_with_one_line_on_sigterm(workers: list[str]) -> None:
    # `timeout`, `kill` and schedulers send SIGTERM to the command alone: it stops as on
    # Ctrl-C (workers stopped, nothing left running) instead of dying mid-write or, in the
    # kit's export, reporting a kernel torn down under it as an empty AssertionError.
    args = [sys.executable, "-m", "nothanks_lab", "tournament", "--bots", "marginal", "random"]
    args += ["random", "--games", "3000000", *workers]
    elapsed, err, code, before = interrupt_after_start(args, group=False, sig=signal.SIGTERM)
    assert code == 143, err[-2000:]
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("tournament:")]
    assert lines == ["stopped (SIGTERM): stopped before the end, no result"], err
    assert elapsed < 5, f"took {elapsed:.1f} s to stop"
    assert len(before) == (3 if workers else 1)
