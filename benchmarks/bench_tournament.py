"""Tournament throughput: overhead over raw `simulate`, and scaling from 1 to 2 workers.

Run ``python benchmarks/bench_tournament.py [--deals N] [--repeats R] [--dask]``. Prints games
per second of a 5-player tournament of MarginalCostBots (paired deals, balanced seating) beside
`simulate` measured in the same run on the same number of games, their ratio, and the
speed-up of a local process pool of 2 workers (and of a Dask LocalCluster with ``--dask``)
over one process. Figures are medians of several repeats; the machines are shared and noisy,
so read the ratios, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import nothanks_lab as nt
from nothanks_lab.bots import MarginalCostBot


def median_seconds(fn: Callable[[], Any], repeats: int) -> float:
    """Median wall time of `fn` over `repeats` calls."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    """Measure and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000, help="deals per tournament")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--dask", action="store_true", help="also time a 2-worker LocalCluster")
    args = ap.parse_args()

    field = [MarginalCostBot(t) for t in (10, 8, 6, 4, 2)]

    def run(**options: Any) -> nt.TournamentResult:
        return nt.tournament(field, n_games=args.deals, seed=1, progress=False, **options)

    # Warm up: numba compiles (or loads its cache) once per process.
    nt.simulate([field[0]] * 5, 1_000, seed=1)
    seatings = run().n_games // args.deals  # 20 balanced seatings per deal at 5 players
    games = args.deals * seatings
    t_sim = median_seconds(lambda: nt.simulate(field, games, seed=1), args.repeats)
    t_one = median_seconds(run, args.repeats)
    rows = [("simulate (same games, one call)", games / t_sim, 1.0)]
    rows.append(("tournament, 1 process", games / t_one, t_sim / t_one))
    with ProcessPoolExecutor(max_workers=2) as pool:
        run(executor=pool)  # warm the workers
        t_two = median_seconds(lambda: run(executor=pool), args.repeats)
    rows.append(("tournament, ProcessPool 2 workers", games / t_two, t_sim / t_two))
    if args.dask:
        from dask.distributed import Client, LocalCluster

        with (
            LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            Client(cluster) as client,
        ):
            run(executor=client)
            t_dask = median_seconds(lambda: run(executor=client), args.repeats)
        rows.append(("tournament, Dask LocalCluster 2 workers", games / t_dask, t_sim / t_dask))

    print(
        f"5 players, {args.deals:,} deals x {seatings} seatings = {games:,} games; "
        f"median of {args.repeats}"
    )
    print(f"{'run':42s} {'games/s':>12s} {'vs simulate':>12s}")
    for name, rate, ratio in rows:
        print(f"{name:42s} {rate:12,.0f} {ratio:12.2f}")
    print(f"speed-up of 2 workers over 1 process: {t_one / t_two:.2f}x")


if __name__ == "__main__":
    main()
