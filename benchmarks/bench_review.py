"""Time of `nt.review` on typical 24-card rounds, on one core, against one position evaluation.

Plays `--rounds` standard 3-player rounds (seat 0 the linear bot with one move in seven flipped,
as a human's slips; seats 1 and 2 a marginal and a linear bot), then reviews seat 0 of each at
the default settings (linear rollouts, 2,000 then 8,000 rollouts per move when the label is not
settled). Prints per round the decisions, the decisions that needed the second stage, wall and
CPU seconds, and as the baseline measured alongside the time of one ``evaluate_position`` with
8,000 linear rollouts per move (the cost of a review that always used the full count is about
decisions x baseline). The process is pinned to one core and numba to one thread.

Usage: ``python benchmarks/bench_review.py [--rounds R] [--seed S]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

import nothanks_lab as nt
from nothanks_lab.analysis import evaluate_position
from nothanks_lab.bots import make_bot
from nothanks_lab.review import DEFAULT_ROLLOUTS, ROLLOUT_BOT


def typical_round(seed: int) -> nt.Game:
    """A 3-player round: seat 0 a linear bot that slips one move in seven."""
    rng = np.random.default_rng(seed)
    g = nt.Game(3, seed=seed)
    bots = [make_bot("linear"), make_bot("marginal", threshold=10), make_bot("linear")]
    while not g.is_over:
        s = g.current_player
        action = bots[s].act(g.view(s))
        if s == 0 and len(g.legal_actions()) == 2 and rng.random() < 1 / 7:
            action = nt.Action.PASS if action is nt.Action.TAKE else nt.Action.TAKE
        g.step(action)
    return g


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    t = time.perf_counter()
    nt.review(typical_round(0), 0, seed=0, n=200)
    print(f"first call (compiles or loads the rollout loop): {time.perf_counter() - t:.1f} s")
    policy = make_bot(ROLLOUT_BOT)
    walls, cpus, bases = [], [], []
    print("round  decisions  second stage  wall s  cpu s  baseline s/decision")
    for r in range(args.rounds):
        g = typical_round(args.seed + r)
        view = nt.Game(3, deck=list(dict.fromkeys(e.card for e in g.history))).view(0)
        t0, c0 = time.perf_counter(), time.process_time()
        rev = nt.review(g, 0, seed=r)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        c0 = time.process_time()
        evaluate_position(view, policy, n=DEFAULT_ROLLOUTS, seed=r)
        base = time.process_time() - c0
        second = sum(m.cost_estimate.n > DEFAULT_ROLLOUTS // 4 for m in rev.moves)
        walls.append(wall)
        cpus.append(cpu)
        bases.append(base)
        print(f"{r:>5}  {len(rev.moves):>9}  {second:>12}  {wall:6.2f}  {cpu:5.2f}  {base:8.3f}")
    print(
        f"median review: {statistics.median(cpus):.2f} s CPU ({statistics.median(walls):.2f} s "
        f"wall); one full position evaluation: {statistics.median(bases):.3f} s CPU; "
        f"review / evaluation = {statistics.median(cpus) / statistics.median(bases):.1f}"
    )


if __name__ == "__main__":
    main()
