"""Tune the heuristic bot the search bot's own seat plays in 5-player rollouts (``SEAT_5P_PARAMS``).

`nothanks_lab.bots.search.SEAT_5P_PARAMS` is the heuristic bot that wins most 5-player rounds
against four default heuristic bots (`HeuristicBot()`), found on common random numbers with the
helpers of ``benchmarks/tune_heuristic.py`` (same deals for every candidate, every first
player): Nelder–Mead from the defaults (3000 deals, 150 evaluations), then again from that
result on other deals (4000 deals, 250 evaluations), ``milk`` on, values rounded to 2 decimals
after each stage. The four rivals stay fixed, unlike the tuning of the defaults, because this
bot's one job is to stand in for the search bot's own later moves at a table of heuristic bots.
Run: ``python benchmarks/tune_seat_5p.py`` (about a minute on one core); it prints the tuned
values (equal to ``SEAT_5P_PARAMS``) and the win shares, with 95% intervals, on fresh deals:
27.4% ± 0.8%.
"""

from __future__ import annotations

import time

import numpy as np
from scipy import optimize
from tune_heuristic import DEFAULTS, TUNED, deals, from_vector, win_shares

from nothanks_lab.bots.search import SEAT_5P_PARAMS

#: (deals, seed of the deals, objective evaluations) of each Nelder-Mead stage.
STAGES = ((3000, 99, 150), (4000, 101, 250))


def tune() -> dict[str, float]:
    """Run the stages and return the tuned parameter values."""
    rivals = [dict(DEFAULTS)] * 4
    start = dict(DEFAULTS)
    t0 = time.perf_counter()
    for n_deals, seed, maxfev in STAGES:
        decks = deals(n_deals, seed)
        x0 = np.array([start[n] for n in TUNED])
        steps = np.array(
            [
                max(1.0, 0.25 * abs(v)) if n != "bridge_weight" else 0.2
                for n, v in zip(TUNED, x0, strict=True)
            ]
        )
        res = optimize.minimize(
            lambda x, d=decks: -win_shares(from_vector(x), rivals, d).mean(),
            x0,
            method="Nelder-Mead",
            options={
                "maxfev": maxfev,
                "initial_simplex": np.vstack([x0, x0 + np.diag(steps)]),
                "xatol": 0.05,
                "fatol": 1e-4,
            },
        )
        # Rounded as recorded, so each stage starts from the printed values.
        start = {
            k: v if isinstance(v, bool) else round(v, 2) for k, v in from_vector(res.x).items()
        }
        print(f"stage: win share {-res.fun:.4f} ({time.perf_counter() - t0:.0f} s)", flush=True)
    return start


def main() -> None:
    """Tune, then print the values and win shares vs four default heuristic bots on fresh deals."""
    tuned = tune()
    print("tuned (SEAT_5P_PARAMS records these):")
    for name, v in tuned.items():
        print(f"  {name} = {v!r}" if isinstance(v, bool) else f"  {name} = {v:.2f}")
    fresh = deals(3000, 100)
    for label, values in (("defaults", DEFAULTS), ("SEAT_5P_PARAMS", SEAT_5P_PARAMS)):
        w = win_shares(values, [dict(DEFAULTS)] * 4, fresh)
        half = 1.96 * w.std(ddof=1) / np.sqrt(len(w))
        print(f"  {label:16s} {w.mean():6.1%} ± {half:.1%} of 5p rounds vs 4 heuristic (fair 20%)")


if __name__ == "__main__":
    main()
