"""Agent steps per second of the RL environments, the vector env as a ratio to the single env.

Prints, for 3 players with two fast-path opponents (``MarginalCostBot(5)``,
``RandomBot(p_take=0.3)``) and an agent that picks a random legal move (its random bits drawn
ahead, so the agent itself costs next to nothing):

- agent steps/s of `NoThanksEnv` (one Gymnasium env on `nt.Game`, the baseline) and of the
  PettingZoo `aec_env` (every seat is an agent there, so a step is any seat's move);
- agent steps/s of `VectorNoThanksEnv` (compiled, auto-resetting) for a few batch sizes, on
  one core, and its ratio to the single env, the issue's bar being 500,000 steps/s;
- rounds finished per second in the vector env.

Speeds are medians of several repeats; the machines are shared and noisy, so read the ratios.

Usage: ``python benchmarks/bench_envs.py [--repeats R] [--quick]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import nothanks_lab as nt


def opponents() -> list[object]:
    return [nt.bots.MarginalCostBot(5), nt.bots.RandomBot(seed=1, p_take=0.3)]


def single_env_rate(steps: int, seed: int) -> float:
    env = nt.envs.NoThanksEnv(opponents())
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, size=steps)
    _, info = env.reset(seed=seed)
    t = time.perf_counter()
    for i in range(steps):
        a = 1 if info["action_mask"][0] == 0 else int(bits[i])
        _, _, done, _, info = env.step(a)
        if done:
            _, info = env.reset()
    return steps / (time.perf_counter() - t)


def aec_env_rate(steps: int, seed: int) -> float:
    env = nt.envs.aec_env(3)
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, size=steps)
    env.reset(seed=seed)
    t = time.perf_counter()
    for i in range(steps):
        if not env.agents:
            env.reset()
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(1 if mask[0] == 0 else int(bits[i]))
    return steps / (time.perf_counter() - t)


def vector_env_rate(num_envs: int, steps: int, seed: int) -> tuple[float, float]:
    env = nt.envs.VectorNoThanksEnv(num_envs, opponents())
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, size=(steps, num_envs))
    _, info = env.reset(seed=seed)
    rounds = 0
    t = time.perf_counter()
    for i in range(steps):
        acts = bits[i] | (info["action_mask"][:, 0] == 0)
        _, _, done, _, info = env.step(acts)
        rounds += int(done.sum())
    dt = time.perf_counter() - t
    return steps * num_envs / dt, rounds / dt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer steps (a smoke run)")
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    nt.envs.VectorNoThanksEnv(2, opponents()).reset(seed=0)  # compile once, outside timings

    single = statistics.median(single_env_rate(int(5000 * scale), r) for r in range(args.repeats))
    aec = statistics.median(aec_env_rate(int(5000 * scale), r) for r in range(args.repeats))
    print("3 players, opponents MarginalCostBot(5) and RandomBot(p_take=0.3), random agent")
    print(f"NoThanksEnv (single, baseline)  {single:>12,.0f} agent steps/s")
    print(f"aec_env (PettingZoo)            {aec:>12,.0f} steps/s")
    for b in (64, 1024, 8192):
        steps = max(10, int(2_000_000 * scale) // b)
        runs = [vector_env_rate(b, steps, r) for r in range(args.repeats)]
        rate = statistics.median(r for r, _ in runs)
        rounds = statistics.median(r for _, r in runs)
        bar = "meets" if rate >= 500_000 else "BELOW"
        print(
            f"VectorNoThanksEnv({b:>5})        {rate:>12,.0f} agent steps/s "
            f"({rate / single:,.0f}x single; {rounds:,.0f} rounds/s; {bar} 500,000/s)"
        )


if __name__ == "__main__":
    main()
