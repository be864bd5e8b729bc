"""Time of `nt.review` on 40-decision rounds, on one core, against a plain simulate baseline.

Finds `--rounds` standard 3-player rounds in which seat 0 makes at least 40 decisions (seat 0
the linear bot with one move in seven flipped, as a human's slips; seats 1 and 2 a marginal and
a linear bot), then reviews seat 0 of each at the default settings (the advice bot, linear, in
every seat; batches of 500, 1,000, 2,000, ... rollouts per move until the label is settled, at
most 8,000). As the baseline measured alongside, `nt.simulate` plays as many whole rounds from
fresh deals with the same bot (`analysis.advice_policy()`) as the review played rollouts: what
those rollouts would cost as plain simulation (a rollout starts mid-round, so it is shorter).
Prints per round the decisions, the rollouts per move the review needed, wall and CPU seconds,
the baseline's CPU seconds, and the ratio. The process is pinned to one core and numba to one
thread.

Then, on the largest two-seat deck whose review uses exact values (cards 3-12, 3 removed, 4
chips each: `analysis.exact_cheap`), the CPU time of reviewing both seats of a round with the
exact solutions solved afresh (the first review of a process pays for them) and again (cached),
and of one hint.

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
from nothanks_lab.analysis import advice_policy
from nothanks_lab.bots import make_bot

MIN_DECISIONS = 40


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


def long_rounds(count: int, seed: int) -> list[nt.Game]:
    """The first `count` typical rounds from `seed` on with at least 40 decisions of seat 0."""
    out: list[nt.Game] = []
    s = seed
    while len(out) < count:
        g = typical_round(s)
        if sum(e.seat == 0 for e in g.history) >= MIN_DECISIONS:
            out.append(g)
        s += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    t = time.perf_counter()
    nt.review(typical_round(0), 0, n=200)
    nt.simulate([advice_policy()] * 3, 100, seed=0)
    print(f"first call (compiles or loads the rollout loop): {time.perf_counter() - t:.1f} s")
    walls, cpus, bases = [], [], []
    print("round  decisions  rollouts/move (median, max)  wall s  cpu s  simulate cpu s  ratio")
    for r, g in enumerate(long_rounds(args.rounds, args.seed)):
        t0, c0 = time.perf_counter(), time.process_time()
        rev = nt.review(g, 0)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        used = [m.take.score.n for m in rev.moves]
        played = sum(n * (1 if m.forced else 2) for n, m in zip(used, rev.moves, strict=True))
        c0 = time.process_time()
        nt.simulate([advice_policy()] * 3, played, seed=r)
        base = time.process_time() - c0
        walls.append(wall)
        cpus.append(cpu)
        bases.append(base)
        print(
            f"{r:>5}  {len(rev.moves):>9}  {statistics.median(used):>15.0f} {max(used):>11}  "
            f"{wall:6.2f}  {cpu:5.2f}  {base:14.2f}  {cpu / base:5.2f}"
        )
    print(
        f"median review of a {MIN_DECISIONS}+-decision round: {statistics.median(cpus):.2f} s CPU "
        f"({statistics.median(walls):.2f} s wall); simulate of as many rounds: "
        f"{statistics.median(bases):.2f} s CPU; review / simulate = "
        f"{statistics.median(cpus) / statistics.median(bases):.2f}"
    )

    small_deck_review()


def small_deck_review() -> None:
    """CPU of an exact review (and a hint) on the largest deck where the review is exact."""
    from nothanks_lab.analysis import exact_cheap, hint_evaluation
    from nothanks_lab.analysis.evaluation import _solved

    rules = nt.Rules(low_card=3, high_card=12, n_removed=3, chips=((2, 4),))
    assert exact_cheap(rules, 2)
    g = nt.Game(2, rules=rules, seed=1)
    bot = make_bot("heuristic")
    while not g.is_over:
        g.step(bot.act(g.view(g.current_player)))
    nt.exact.solve(nt.Rules(low_card=3, high_card=8, n_removed=2, chips=((2, 2),)))  # compile
    _solved.cache_clear()
    for label in ("solved afresh", "solutions cached"):
        c0 = time.process_time()
        decisions = sum(len(nt.review(g, seat).moves) for seat in (0, 1))
        print(
            f"exact review, cards 3-12, two seats, {decisions} decisions ({label}): "
            f"{time.process_time() - c0:.2f} s CPU"
        )
    c0 = time.process_time()
    hint_evaluation(nt.Game(2, rules=rules, seed=2).view(0))
    print(f"exact hint (cached): {time.process_time() - c0:.4f} s CPU")


if __name__ == "__main__":
    main()
