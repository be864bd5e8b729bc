"""Executors: serial, a local process pool and a real Dask LocalCluster give identical results."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import nothanks_lab as nt
from nothanks_lab.bots import MarginalCostBot, RandomBot
from nothanks_lab.parallel import SerialExecutor, check_picklable, open_executor, run_tasks
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
