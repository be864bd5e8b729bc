"""League throughput: 30 plain student bots, isolated (a process each) against in-process.

Run ``python benchmarks/bench_league.py [--games N] [--students S]``. Writes `S` plain student
files (a threshold rule each, like a class's first bots) into a temporary league folder and
plays the same league twice in this one process run: ``isolate=False`` (the files run in this
process) and ``isolate=True`` (each file in a process of its own, the decisions of many
concurrent games sent to it in one message). Prints the games per second of each (the
tournament only: loading and screening are timed apart) and their ratio; a ratio of 1 or more
means isolation does not slow a class's league down. The machines are shared and noisy: read
the ratio, not the absolute numbers, and the machine's load printed beside it (the 1-minute
load average before each run: with more runnable processes than cores, the bot processes and
this one no longer overlap and the ratio drops).

Measured 2026-12-03 on the shared 2-core project machine at load 0.9-1.9, after isolated bots
began answering a batch in one message: with 20 deals (3,600 games), median ratio 1.05 over
four pairs (1.09, 1.14, 1.01, 0.95; about 415 games/s either way); with 80 deals (14,400
games), 0.86 and 0.76 (isolated about 450 games/s, in-process 514 and 599, which gains from
longer runs). So isolation keeps pace with a short league and is up to about a quarter slower
on a long one: the parent's own cost per decision of a bot in a process (the paused game, the
packed view, the message) is still a little above that of calling a plain bot in-process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from nothanks_lab.league import run_league

STUDENT = """
from nothanks_lab import Action


def act(view):
    if view.my_chips == 0:
        return Action.TAKE
    return Action.TAKE if view.pot >= {threshold} else Action.PASS
"""


def write_class(folder: Path, n_students: int) -> None:
    """`n_students` plain student files in `folder`."""
    for i in range(n_students):
        (folder / f"student{i:02d}.py").write_text(STUDENT.format(threshold=1 + i % 9))


def main() -> None:
    """Measure and print the two rates and their ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="deals of the league (default 20)")
    ap.add_argument("--students", type=int, default=30, help="student files (default 30)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="pairs of runs, alternating (default 3)")
    args = ap.parse_args()
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_class(folder, args.students)
        for _ in range(args.repeat):
            rates, loads = {}, []
            for isolate in (False, True):
                loads.append(os.getloadavg()[0])
                start = time.perf_counter()
                result = run_league(
                    folder, n_games=args.games, seed=args.seed, progress=False, isolate=isolate
                )
                total = time.perf_counter() - start
                games = result.tournament.n_games
                rates[isolate] = games / result.seconds
                label = "isolated  " if isolate else "in-process"
                print(
                    f"{label}: {games} games in {result.seconds:.2f} s = {rates[isolate]:,.0f} "
                    f"games/s (load and screening {total - result.seconds:.1f} s, load average "
                    f"{loads[-1]:.2f} before)"
                )
            ratios.append(rates[True] / rates[False])
            print(f"ratio isolated / in-process: {ratios[-1]:.2f}")
    print(
        f"median ratio isolated / in-process over {len(ratios)} pairs: "
        f"{statistics.median(ratios):.2f} (each: {', '.join(f'{r:.2f}' for r in ratios)}; "
        f"load average {os.getloadavg()[0]:.2f} after, on {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
