"""Fit `LinearBot`'s default weights (``WEIGHTS_5P``): imitate the search bot, then tune.

Three steps, each reproducible from the seeds below:

1. **Record.** The search bot (`BestBot` as it was before it used `LinearBot` itself: its own
   seat plays the 5-player heuristic bot in rollouts, ``own_linear=False``) plays 2,000 five-player
   rounds against four default heuristic bots, sitting in seat ``i % 5`` of round ``i``. Every
   decision it searches (not the forced takes) is kept with the two moves' rollout values.
2. **Imitate.** A logistic regression on the 18 features of `linear_features` predicts "take"
   (the take value beat the pass value), each decision weighted by the gap between the two
   values plus 0.002 (decisions that matter count more; L2 penalty 1e-3 on standardized
   features; L-BFGS-B).
3. **Tune.** Nelder-Mead from those weights maximizes the win share of `LinearBot` against
   four default heuristic bots on common random numbers (4,000 deals, seats rotated; simplex
   steps of 30% of each weight, at least 0.015; stops on tolerance). The result is rounded to 4
   decimals.

Run: ``python benchmarks/fit_linear.py`` (about 8 minutes on one core: 6 to record, 2 to tune).
It prints the weights (equal to ``WEIGHTS_5P``) and, on fresh deals, the win shares of the
imitation and the tuned weights against four heuristic bots with 95% intervals: about 38.5% and
40.6% (the 5-player-tuned heuristic bot, ``SEAT_5P_PARAMS``, gets 27.5% on the same deals).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from scipy import optimize

from nothanks_lab import head_to_head, play_game
from nothanks_lab.bots import BestBot, HeuristicBot
from nothanks_lab.bots.base import decision_args
from nothanks_lab.bots.linear import FEATURES, WEIGHTS_5P, LinearBot, linear_features, pack_linear
from nothanks_lab.bots.search import SEAT_5P_PARAMS
from nothanks_lab.fast import jit_pure

#: (first round, rounds, seed of the recording bot) of each recording chunk.
CHUNKS = ((0, 600, 1000), (600, 1400, 1600))
DEAL_SEED = 90_000  # round i is dealt from seed DEAL_SEED + i
TUNE_DEALS, TUNE_SEED, TUNE_MAXFEV = 4000, 5, 1500
CHECK_DEALS, CHECK_SEEDS = 20_000, (101, 202)
#: The search bot that is imitated: `BestBot` as it was before it used `LinearBot` itself.
RECORDED_BOT = {
    "n_rollouts": 3000,
    "model_opponents": True,
    "seat_tuned_5p": True,
    "own_linear": False,
    "trust_z": 0.0,
}


class Recorder:
    """A policy that plays `bot` and keeps each searched decision with its rollout values."""

    def __init__(self, bot: BestBot) -> None:
        self.bot = bot
        self.rows: list[tuple[Any, ...]] = []

    def act(self, view: Any) -> Any:
        why = self.bot.explain(view)
        if not why["forced"]:
            self.rows.append((*decision_args(view), why["value_take"], why["value_pass"]))
        return why["action"]


def record() -> list[tuple[Any, ...]]:
    """Step 1: the search bot's decisions against four heuristic bots."""
    rows: list[tuple[Any, ...]] = []
    for start, count, seed in CHUNKS:
        rec = Recorder(BestBot(seed=seed, **RECORDED_BOT))
        for i in range(start, start + count):
            policies: list[Any] = [HeuristicBot() for _ in range(5)]
            policies[i % 5] = rec
            play_game(policies, seed=DEAL_SEED + i)
        rows += rec.rows
    return rows


def imitate(rows: list[tuple[Any, ...]]) -> np.ndarray:
    """Step 2: weighted logistic regression of "take" on the features."""
    features = jit_pure(linear_features)
    consts = pack_linear(np.zeros(len(FEATURES)))
    x = np.array([features(consts, *r[:6]) for r in rows], dtype=np.float64)
    gap = np.array([r[6] - r[7] for r in rows])
    y, w = (gap > 0).astype(float), np.abs(gap) + 0.002
    mu, sd = x[:, 1:].mean(0), x[:, 1:].std(0) + 1e-9
    z = np.column_stack([np.ones(len(x)), (x[:, 1:] - mu) / sd])
    l2 = 1e-3 * w.sum()

    def loss(b: np.ndarray) -> tuple[float, np.ndarray]:
        t = z @ b
        value = (w * (np.logaddexp(0, t) - y * t)).sum() + l2 * (b[1:] ** 2).sum()
        grad = z.T @ (w * (1 / (1 + np.exp(-t)) - y)) + 2 * l2 * np.r_[0, b[1:]]
        return float(value), grad

    b = optimize.minimize(loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B").x
    agree = ((x @ np.r_[b[0] - (b[1:] * mu / sd).sum(), b[1:] / sd] > 0) == (gap > 0)).mean()
    print(f"imitation: {len(rows):,} decisions, {agree:.1%} agree with the search", flush=True)
    return np.r_[b[0] - (b[1:] * mu / sd).sum(), b[1:] / sd]


def win_share(weights: np.ndarray, deals: int, seed: int) -> Any:
    """`LinearBot` with `weights` against four default heuristic bots, seats rotated."""
    bot = LinearBot(**{f"w_{n}": float(v) for (n, _), v in zip(FEATURES, weights, strict=True)})
    return head_to_head(bot, HeuristicBot(), 5, deals, seed=seed, progress=False)


def tune(w0: np.ndarray) -> np.ndarray:
    """Step 3: Nelder-Mead on common random numbers, from the imitation."""
    scale = np.maximum(np.abs(w0), 0.05)
    x0 = np.zeros_like(w0)
    res = optimize.minimize(
        lambda x: -win_share(w0 + x * scale, TUNE_DEALS, TUNE_SEED).win_share[0],
        x0,
        method="Nelder-Mead",
        options={
            "maxfev": TUNE_MAXFEV,
            "initial_simplex": np.vstack([x0, x0 + 0.3 * np.eye(len(x0))]),
            "xatol": 1e-3,
            "fatol": 1e-5,
        },
    )
    print(f"tuned: win share {-res.fun:.4f} after {res.nfev} evaluations", flush=True)
    return np.round(w0 + res.x * scale, 4)


def main() -> None:
    t0 = time.perf_counter()
    w_imit = imitate(record())
    print(f"recorded and fitted in {time.perf_counter() - t0:.0f} s", flush=True)
    w = tune(w_imit)
    print("weights:", ", ".join(f"{v:g}" for v in w))
    print("equal to WEIGHTS_5P:", bool(np.array_equal(w, np.array(WEIGHTS_5P))))
    for seed in CHECK_SEEDS:
        for label, weights in (("imitation", w_imit), ("tuned", w)):
            r = win_share(weights, CHECK_DEALS, seed)
            lo, hi = r.win_share_ci[0]
            print(f"fresh deals (seed {seed}), {label}: {r.win_share[0]:.1%} [{lo:.1%}, {hi:.1%}]")
        seat5p = HeuristicBot(**SEAT_5P_PARAMS)
        tuned = head_to_head(seat5p, HeuristicBot(), 5, CHECK_DEALS, seed=seed, progress=False)
        print(f"fresh deals (seed {seed}), 5p-tuned heuristic bot: {tuned.win_share[0]:.1%}")
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
