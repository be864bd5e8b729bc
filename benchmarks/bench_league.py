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

Measured 2026-12-03, 16:38-16:41 UTC, on the shared 2-core project machine (load 0.8-1.3),
after the lockstep began answering the package's own built-in bots through the compiled kernel
(`nothanks_lab.fast.answers`) and the bot processes began with an environment of their own:
with 80 deals (14,400 games), median ratio 1.18 over three pairs (1.49, 1.11, 1.18; isolated
660-860 games/s, in-process 550-730); with 20 deals, 1.64 (1.52, 1.68, 1.64). An hour earlier,
before the last isolation fixes, 1.45 (1.34, 1.45, 1.45) with 80 deals: the spread is the
machine's. Loading and screening 30 isolated files took 8.6-13.9 s (0.2 s in process): a class
waits that long before the first game. Before the compiled answers: 0.76 and 0.77 with 80 deals
(isolated about 460 games/s). Where the gain comes from: playing thousands of games side by
side lets the parent load the built-ins' compiled kernel once and ask it at about 3 us a
decision instead of about 20 us in Python (the heuristic bot); the in-process league plays one
game after another through each bot's ``act``. The parent still spends about 10% of its time on
the messages to the bot processes and waits about 10% for them.
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
