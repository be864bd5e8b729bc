"""Is the seating fair? Identical bots over many seeds, and the cost of balanced seating.

Run ``python benchmarks/bench_seating.py [--seeds N] [--deals D] [--players 3 4 5 6 7]``.

For each table size, a mixed field holding two copies of the default heuristic bot plays one
tournament per seed; the paired 95% interval of copy #1 minus copy #2 should cover 0 in about
95% of the seeds (printed with its own binomial interval), and the mean of the standardized
differences should be near 0. A second table prints games per second of the tournament beside
`simulate` on the same number of games (ratio measured in the same run: the machines are
shared and noisy, read the ratio), and the seatings each deal is played in.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from scipy import stats

import nothanks_lab as nt

#: The mixed field at P players: its first P bots (two copies of the heuristic bot among them).
FIELD = [
    "heuristic",
    "heuristic",
    "marginal",
    "marginal:threshold=0",
    "linear",
    "marginal:threshold=4",
    "marginal:threshold=20",
]
FIELDS = {p: FIELD[:p] for p in range(3, 8)}


def coverage(p: int, seeds: int, deals: int) -> tuple[int, float, float]:
    """Seeds whose interval covers 0, and the mean and sd of the standardized differences."""
    covered, z = 0, []
    for seed in range(seeds):
        c = nt.tournament(FIELDS[p], p, deals, seed=10_000 + seed, progress=False).compare(0, 1)
        covered += c.low <= 0 <= c.high
        half = (c.high - c.low) / 2
        z.append(c.diff / (half / 1.96) if half > 0 else 0.0)
    return covered, float(np.mean(z)), float(np.std(z))


def throughput(p: int, deals: int, repeats: int) -> tuple[int, float, float]:
    """Seatings per deal, tournament games/s and simulate games/s on as many games."""
    field = FIELDS[p]
    r = nt.tournament(field, p, 200, seed=1, progress=False)  # warm up, and the design size
    per_deal = r.seatings_per_deal
    games = deals * per_deal
    policies = [nt.tournaments.make_policy(b) for b in field]
    nt.simulate(policies, 1000, seed=1)

    def median(fn: object) -> float:
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            fn()  # type: ignore[operator]
            times.append(time.perf_counter() - t)
        return statistics.median(times)

    t_tour = median(lambda: nt.tournament(field, p, deals, seed=2, progress=False))
    t_sim = median(lambda: nt.simulate(policies, games, seed=2))
    return per_deal, games / t_tour, games / t_sim


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--deals", type=int, default=500, help="deals per tournament (coverage)")
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6, 7])
    ap.add_argument("--speed-deals", type=int, default=5_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    print(f"identical heuristic bots in a mixed field, {args.seeds} seeds x {args.deals} deals")
    print(f"{'players':>7} {'covers 0':>9} {'95% CI of coverage':>20} {'mean z':>7} {'sd z':>5}")
    for p in args.players:
        k, mz, sz = coverage(p, args.seeds, args.deals)
        ci = stats.binomtest(k, args.seeds).proportion_ci()
        print(
            f"{p:>7} {k / args.seeds:>9.0%} {f'[{ci.low:.0%}, {ci.high:.0%}]':>20} "
            f"{mz:>+7.2f} {sz:>5.2f}"
        )
    print()
    print(f"throughput, {args.speed_deals:,} deals, median of {args.repeats}")
    print(f"{'players':>7} {'seatings/deal':>13} {'games/s':>10} {'simulate':>10} {'ratio':>6}")
    for p in args.players:
        per_deal, rate, sim = throughput(p, args.speed_deals, args.repeats)
        print(f"{p:>7} {per_deal:>13} {rate:>10,.0f} {sim:>10,.0f} {rate / sim:>6.2f}")


if __name__ == "__main__":
    main()
