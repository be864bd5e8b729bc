"""Speed and memory of `nt.simulate`, as ratios against baselines measured in the same run.

Prints, for 5 players with ``MarginalCostBot(10)`` in every seat:

- games/s of `simulate` (compiled fast path, one process, one thread) and of the plain
  one-game loop (`play_game`), and their ratio;
- games/s of the compiled C reference (``/work/shared/tools/reference_sim.c``, built with gcc
  if gcc is on PATH; skipped politely otherwise), our ratio to it, and both mean scores with
  our 99.9% interval (a cross-check of the rules). The ratio is measured on wall time and on
  CPU time (user + system: robust to other processes taking the cores of a shared machine),
  C and ours alternated, as the median and the range of the per-pair ratios, for `simulate`
  (one result holding every game) and for `simulate_chunks` (chunks aggregated and dropped,
  as the C reference keeps nothing);
- scaling from 1 to 2 worker processes (`ProcessPoolExecutor`, one `game_offset` range each,
  results checked identical to one call);
- peak memory of a fresh process for one million games in one result, and for ten million
  games streamed in chunks through `simulate_chunks` (must stay under 1 GiB): peak RSS with
  the mark reset after loading (Linux), and tracemalloc's peak of numpy allocations (a kept
  result's block is a memory map of ``nothanks_lab.fast.memory``, which tracemalloc does not
  see: read the peak RSS for it).

Speeds are medians of several repeats; the machines are shared and noisy, so read the ratios.

Usage: ``python benchmarks/bench_simulate.py [--games N] [--repeats R] [--quick]``
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # one thread: the kernel is serial anyway

import numpy as np

import nothanks_lab as nt
from nothanks_lab.bots import MarginalCostBot
from nothanks_lab.deals import deal_decks
from nothanks_lab.simulation import simulate_chunks

PLAYERS, THRESHOLD = 5, 10
REFERENCE_C = Path("/work/shared/tools/reference_sim.c")


def bots() -> list[MarginalCostBot]:
    """The benchmark table."""
    return [MarginalCostBot(THRESHOLD)] * PLAYERS


def median_rate(run, n: int, repeats: int) -> float:
    """Median games/s of `run()` playing `n` games."""
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        run()
        rates.append(n / (time.perf_counter() - t))
    return statistics.median(rates)


def build_reference() -> Path | None:
    """Compile the C reference into a temp dir; None if gcc or the source is missing."""
    gcc = shutil.which("gcc")
    if gcc is None or not REFERENCE_C.exists():
        return None
    exe = Path(tempfile.gettempdir()) / "nothanks_reference_sim"
    subprocess.run([gcc, "-O3", "-march=native", "-o", str(exe), str(REFERENCE_C)], check=True)
    return exe


def _children_cpu() -> float:
    """CPU seconds (user + system) used so far by finished child processes."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_reference(exe: Path, n: int) -> tuple[float, float, float]:
    """Games/s (wall clock, as it reports), mean score and games per CPU second of one run."""
    cpu = _children_cpu()
    out = subprocess.run(
        [str(exe), str(n), str(PLAYERS), str(THRESHOLD), "1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cpu_rate = n / (_children_cpu() - cpu)
    rate = float(re.search(r"games_per_s=([\d.]+)", out).group(1))  # type: ignore[union-attr]
    mean = float(re.search(r"mean_score=([-\d.]+)", out).group(1))  # type: ignore[union-attr]
    return rate, mean, cpu_rate


def rates_of(run, n: int) -> tuple[float, float]:
    """Games/s of one call of `run()` playing `n` games: on wall time and on CPU time."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return n / (time.perf_counter() - wall), n / (time.process_time() - cpu)


def ratio_line(ours: list[float], c: list[float]) -> str:
    """Median and range of the per-pair ratios ours / C."""
    r = [a / b for a, b in zip(ours, c, strict=True)]
    return f"{statistics.median(r):.2f} (range {min(r):.2f}-{max(r):.2f})"


def _worker(args: tuple[int, int, int]) -> tuple[int, float]:
    """One worker's share: games [offset, offset+count) of the seeded stream."""
    seed, offset, count = args
    r = nt.simulate(bots(), count, seed=seed, game_offset=offset)
    return int(r.scores.sum()), float(r.win_share[:, 0].sum())


def workers_rate(n: int, workers: int, pool: ProcessPoolExecutor, repeats: int) -> tuple:
    """Median games/s of `n` games split over `workers` processes, and the result's digest."""
    cuts = np.linspace(0, n, workers + 1).astype(int)
    jobs = [(7, int(lo), int(hi - lo)) for lo, hi in itertools.pairwise(cuts)]
    digest = None

    def run() -> None:
        nonlocal digest
        parts = list(pool.map(_worker, jobs))
        digest = (sum(p[0] for p in parts), round(sum(p[1] for p in parts), 6))

    run()  # warm: each worker loads the cached kernel once
    return median_rate(run, n, repeats), digest


_MEMORY_SCRIPT = textwrap.dedent(
    """
    import sys, tracemalloc
    import nothanks_lab as nt
    from nothanks_lab.simulation import simulate_chunks

    def rss_mib(field):
        with open("/proc/self/status") as f:
            return next(int(x.split()[1]) for x in f if x.startswith(field)) / 1024

    n, mode = int(sys.argv[1]), sys.argv[2]
    bots = [nt.bots.MarginalCostBot(10)] * 5
    nt.simulate(bots, 10, seed=1)  # load numba and the kernel first: count only the games
    base = rss_mib("VmRSS:")
    try:  # reset the peak-RSS mark (Linux), so the peak is that of the games alone
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    tracemalloc.start()
    if mode == "whole":
        total = int(nt.simulate(bots, n, seed=1).scores.sum())
    else:
        total = sum(int(r.scores.sum()) for r in simulate_chunks(bots, n, seed=1))
    traced = tracemalloc.get_traced_memory()[1] / 2**20
    print(base, rss_mib("VmHWM:"), traced, total)
    """
)


def peak_memory_mib(n: int, mode: str) -> tuple[float, float, float]:
    """RSS after loading, peak RSS during the games, peak traced allocations (MiB)."""
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_SCRIPT, str(n), mode],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="games per simulate timing")
    ap.add_argument("--repeats", type=int, default=5, help="repeats per timing (median)")
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    a = ap.parse_args()
    n = 50_000 if a.quick else a.games
    n_slow = 200 if a.quick else 2_000
    big = 1_000_000 if a.quick else 10_000_000
    repeats = 2 if a.quick else a.repeats

    t = time.perf_counter()
    nt.simulate(bots(), 10, seed=1)
    print(f"first call (kernel load or compile): {time.perf_counter() - t:.2f} s")

    print(f"\n== speed, {PLAYERS} players, MarginalCostBot({THRESHOLD}) x{PLAYERS}, one process ==")
    res: dict[str, nt.SimResult] = {}

    def fast_run() -> None:
        res["r"] = nt.simulate(bots(), n, seed=2)

    fast = median_rate(fast_run, n, repeats)
    decks = deal_decks(nt.Rules(), seed=3, start=0, count=n_slow)

    def slow_run() -> None:
        for d in decks:
            nt.play_game(bots(), deck=d)

    slow = median_rate(slow_run, n_slow, max(1, repeats // 2))
    print(f"simulate:          {fast:14,.0f} games/s  (median of {repeats} x {n:,} games)")
    print(f"play_game loop:    {slow:14,.0f} games/s  ({n_slow:,} games)")
    print(f"ratio simulate / play_game: {fast / slow:,.0f}x")

    per_game = res["r"].scores.mean(axis=1)
    mean, se = per_game.mean(), per_game.std(ddof=1) / np.sqrt(n)
    print(f"mean score/seat: {mean:.4f} +- {3.29 * se:.4f} (99.9%)")

    exe = build_reference()
    if exe is None:
        print("C reference: skipped (no gcc on PATH or no reference source)")
    else:

        def streamed_run() -> None:
            for _ in simulate_chunks(bots(), n, seed=2):
                pass

        # Alternate C and ours so each pair sees the same machine load; on a shared machine
        # the CPU-time ratio is the one to read (wall time also counts other processes' turns).
        runs = {"simulate": fast_run, "simulate_chunks": streamed_run}
        # [C wall, C CPU, ours wall, ours CPU] games/s of each pair, per run.
        pairs: dict[str, list[list[float]]] = {k: [[], [], [], []] for k in runs}
        for _ in range(repeats):
            for name, run in runs.items():
                rate, _, cpu_rate = run_reference(exe, n)
                ours = rates_of(run, n)
                for into, value in zip(pairs[name], (rate, cpu_rate, *ours), strict=True):
                    into.append(value)
        c_wall = pairs["simulate"][0] + pairs["simulate_chunks"][0]
        c_cpu = pairs["simulate"][1] + pairs["simulate_chunks"][1]
        print(
            f"C reference:       {statistics.median(c_wall):14,.0f} games/s   "
            f"(per CPU second: {statistics.median(c_cpu):,.0f})"
        )
        for name, (cw, cc, wall, cpu) in pairs.items():
            print(
                f"ratio {name} / C reference: wall {ratio_line(wall, cw)}, CPU "
                f"{ratio_line(cpu, cc)}  ({statistics.median(wall):,.0f} games/s alongside)"
            )
        ref_full = run_reference(exe, 1_000_000)[1]
        print(f"C reference mean score/seat (1M games): {ref_full:.4f}; ours over {n:,}: "
              f"{mean:.4f}; |diff| = {abs(mean - ref_full):.4f} vs 99.9% CI half-width "
              f"{3.29 * se * np.sqrt(1 + n / 1_000_000):.4f}")  # fmt: skip

    print("\n== scaling over worker processes (game_offset splits) ==")
    rates = {}
    with ProcessPoolExecutor(max_workers=2) as pool:
        for w in (1, 2):
            rates[w], digest = workers_rate(n, w, pool, max(1, repeats // 2))
            print(f"{w} worker(s): {rates[w]:14,.0f} games/s   result digest {digest}")
    print(f"speed-up 1 -> 2 workers: {rates[2] / rates[1]:.2f}x (2 cores, shared machine)")

    print("\n== peak memory of a fresh process (numba and the kernel loaded first) ==")
    for games, mode, what in ((n, "whole", "in one SimResult"), (big, "chunks", "in chunks")):
        base, peak, traced = peak_memory_mib(games, mode)
        verdict = "" if mode == "whole" else ("  OK (< 1 GiB)" if peak < 1024 else "  OVER 1 GiB")
        untraced = " + the result's memory map" if mode == "whole" else ""
        print(
            f"{games:,} games {what}: peak RSS {peak:,.0f} MiB (loaded: {base:,.0f} MiB; "
            f"numpy/Python allocations peak {traced:,.0f} MiB{untraced}){verdict}"
        )


if __name__ == "__main__":
    main()
