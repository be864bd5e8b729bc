"""Tune the defaults of `HeuristicBot` against a field of bots on common random numbers.

Every candidate parameter vector plays the same seeded deals against the same fields (the
candidate in one seat, opponents in the others, every seat order covered by rotating the first
player), so two candidates differ only by their decisions, not by luck. The objective is the
candidate's mean win share (shared wins split) over the fields; scipy's Nelder–Mead searches the
continuous parameters with ``milk`` on, then the switches are checked one by one. Games run on
the search bot's compiled rollout kernel (`nothanks_lab.bots.search.rollout_kernel`) from fresh
rounds; a `MarginalCostBot(t)` opponent is the heuristic bot with every switch off and
threshold ``t``, which makes the same decisions.

Run: ``python benchmarks/tune_heuristic.py [--games 4000] [--maxfev 150] [--seed 2024]``.
It prints the tuned parameters and the win shares, with 95% intervals, on fresh deals.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import optimize, stats

from nothanks_lab import Rules, core
from nothanks_lab.bots.heuristic import (
    HEURISTIC_PARAMS,
    SWITCHES_OFF,
    heuristic_decide,
    pack_params,
)
from nothanks_lab.bots.search import rollout_kernel
from nothanks_lab.engine import deal

NAMES = [p.name for p in HEURISTIC_PARAMS]
DEFAULTS = {p.name: p.default for p in HEURISTIC_PARAMS}
OFF = SWITCHES_OFF
TUNED = [n for n in NAMES if n != "milk"]
BOUNDS = {p.name: (float(p.low), float(p.high)) for p in HEURISTIC_PARAMS}


def marginal(threshold: float) -> dict[str, float]:
    """Parameters that make the heuristic bot decide exactly like ``MarginalCostBot(threshold)``."""
    return {**DEFAULTS, **OFF, "threshold": threshold}


def fields(reference: dict[str, float]) -> list[tuple[str, list[dict[str, float]]]]:
    """The opponents the candidate meets: greedy, marginal and heuristic bot tables of 3 and 5."""
    return [
        ("3p vs 2 greedy", [marginal(0)] * 2),
        ("3p vs 2 marginal(10)", [marginal(10)] * 2),
        ("3p vs 2 heuristic bots", [reference] * 2),
        ("5p vs 4 marginal(10)", [marginal(10)] * 4),
        ("5p vs mixed", [marginal(0), marginal(5), marginal(10), reference]),
        ("5p vs 4 heuristic bots", [reference] * 4),
    ]


def deals(n_games: int, seed: int) -> np.ndarray:
    """``n_games`` seeded standard deals (int64[G, 24])."""
    rng = np.random.default_rng(seed)
    return np.array([deal(Rules(), seed=rng) for _ in range(n_games)], dtype=np.int64)


def win_shares(
    candidate: dict[str, float], opponents: list[dict[str, float]], decks: np.ndarray
) -> np.ndarray:
    """Candidate's win share per deal (float64[G]), averaged over every first player."""
    kernel = rollout_kernel(heuristic_decide)
    n = len(opponents) + 1
    params = np.array([pack_params(candidate)] + [pack_params(o) for o in opponents])
    chips = Rules().starting_chips(n)
    out = np.zeros(len(decks))
    for first in range(n):
        s = core.new_state(decks, n, chips, first)
        out += kernel(s, params, np.full(len(decks), -1), 0, 0.0, params[0])
    return out / n


def objective(values: dict[str, float], decks: np.ndarray, reference: dict[str, float]) -> float:
    """Mean win share over the fields, each relative to a fair share ``1/P``."""
    total = 0.0
    for _, opponents in fields(reference):
        share = win_shares(values, opponents, decks).mean()
        total += share * (len(opponents) + 1)
    return total / len(fields(reference))


def from_vector(x: np.ndarray) -> dict[str, float]:
    """Parameter values from the optimizer's vector, clipped to the declared ranges."""
    values = dict(DEFAULTS)
    for name, v in zip(TUNED, x, strict=True):
        lo, hi = BOUNDS[name]
        values[name] = float(np.clip(v, lo, hi))
    values["milk"] = True
    return values


def report(values: dict[str, float], reference: dict[str, float], decks: np.ndarray) -> None:
    """Print the win share of `values` in every field, with a 95% interval over deals."""
    for label, opponents in fields(reference):
        w = win_shares(values, opponents, decks)
        half = stats.t.ppf(0.975, len(w) - 1) * w.std(ddof=1) / np.sqrt(len(w))
        print(f"  {label:24s} {w.mean():6.1%} ± {half:.1%}  (fair {1 / (len(opponents) + 1):.0%})")


def main() -> None:
    """Tune, then print the tuned parameters and their win shares on fresh deals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000, help="deals per field and evaluation")
    ap.add_argument("--maxfev", type=int, default=150, help="objective evaluations per stage")
    ap.add_argument("--stages", type=int, default=2, help="rounds of tuning vs the last result")
    ap.add_argument("--seed", type=int, default=2024, help="seed of the tuning deals")
    args = ap.parse_args()

    decks = deals(args.games, args.seed)
    fresh = deals(args.games, args.seed + 1)
    start = dict(DEFAULTS)
    reference = dict(DEFAULTS)
    t0 = time.perf_counter()
    for stage in range(args.stages):
        # Each stage's heuristic bot opponents are the previous stage's result: a fixed point of the
        # field is a heuristic bot that holds its own against copies of itself.
        ref = dict(reference)
        x0 = np.array([start[n] for n in TUNED])
        steps = np.array(
            [
                max(1.0, 0.25 * abs(v)) if n != "bridge_weight" else 0.2
                for n, v in zip(TUNED, x0, strict=True)
            ]
        )
        simplex = np.vstack([x0, x0 + np.diag(steps)])
        res = optimize.minimize(
            lambda x, ref=ref: -objective(from_vector(x), decks, ref),
            x0,
            method="Nelder-Mead",
            options={
                "maxfev": args.maxfev,
                "initial_simplex": simplex,
                "xatol": 0.05,
                "fatol": 1e-4,
            },
        )
        start = from_vector(res.x)
        # Switches: keep an idea only if turning it off does not help on the tuning deals.
        for name, off in OFF.items():
            if name == "pot_weight":
                continue
            trial = {**start, name: off}
            if objective(trial, decks, ref) > objective(start, decks, ref):
                start = trial
        reference = start
        print(
            f"stage {stage}: objective {-res.fun:.4f} after {res.nfev} evaluations "
            f"({time.perf_counter() - t0:.0f} s)"
        )
    print("tuned parameters:")
    for name in NAMES:
        v = reference[name]
        print(f"  {name} = {v!r}" if isinstance(v, bool) else f"  {name} = {v:.2f}")
    print("win share of the tuned heuristic bot on fresh deals (its opponents: the tuned one):")
    report(reference, reference, fresh)
    print("win share of the old defaults against the same fields:")
    report(DEFAULTS, reference, fresh)


if __name__ == "__main__":
    main()
