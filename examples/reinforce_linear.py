"""REINFORCE on a linear policy over the vector environment, numpy only, in well under a minute.

The agent sits in seat 0 of three against two ``RandomBot``s. Its policy is logistic:
``P(take) = sigmoid(w . phi(obs))`` with ``phi`` the observation of
:mod:`nothanks_lab.envs.encoding` scaled into [0, 1] plus a constant, and the pass is masked
out when the agent has no chips (a forced take carries no gradient). Each of the ``num_envs``
rounds keeps its own running sum of ``grad log pi``; when a round ends (the vector env deals
the next one in place: ``SAME_STEP`` autoreset), that sum times the round's win share minus a
running baseline joins the update. The trained policy (greedy) is then played on fresh seeded
rounds beside a random agent (take or pass with chance 1/2, as ``RandomBot``) on the same
rounds, and both win shares are printed with 95% intervals (`nt.stats.share_interval`). An
equal player would win 1/3.

Usage: ``python examples/reinforce_linear.py [--steps N] [--envs B] [--seed S]``

Plugging the environments into an RL library needs no code from this package beyond the
constructors: ``VectorNoThanksEnv`` is a ``gymnasium.vector.VectorEnv`` (pass it where a
library takes one; masks are in ``info["action_mask"]``), ``NoThanksEnv`` a ``gymnasium.Env``
and ``aec_env`` a PettingZoo ``AECEnv`` (wrap it with the library's PettingZoo adapter).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import nothanks_lab as nt
from nothanks_lab.envs.encoding import obs_high
from nothanks_lab.stats import share_interval


def features(obs: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """phi: the observation scaled into [0, 1], then a constant 1 (the bias)."""
    return np.concatenate([obs / scale, np.ones((obs.shape[0], 1), np.float32)], axis=1)


def take_chance(w: np.ndarray, phi: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(phi @ w)))


def make_env(num_envs: int, seed: int) -> nt.envs.VectorNoThanksEnv:
    opponents = [nt.bots.RandomBot(seed=seed + 1), nt.bots.RandomBot(seed=seed + 2)]
    return nt.envs.VectorNoThanksEnv(num_envs, opponents)


def train(steps: int, num_envs: int, seed: int, lr: float = 0.5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    env = make_env(num_envs, seed)
    scale = np.maximum(obs_high(env.rules, env.n_players), 1.0)
    obs, info = env.reset(seed=seed)
    w = np.zeros(obs.shape[1] + 1)
    traces = np.zeros((num_envs, w.size))
    baseline = 1 / 3
    for _ in range(steps):
        phi = features(obs, scale)
        p = take_chance(w, phi)
        free = info["action_mask"][:, 0] == 1  # passing allowed: a real choice
        acts = np.where(free, rng.random(num_envs) < p, True).astype(np.int64)
        traces += np.where(free, acts - p, 0.0)[:, None] * phi
        obs, reward, done, _, info = env.step(acts)
        if done.any():
            adv = reward[done] - baseline
            w += lr * (adv[:, None] * traces[done]).mean(axis=0)
            baseline += 0.01 * (reward[done].mean() - baseline)
            traces[done] = 0.0
    return w


def evaluate(w: np.ndarray | None, rounds: int, num_envs: int, seed: int) -> list[float]:
    """Win shares of the first `rounds` rounds: the greedy policy `w`, or a random agent."""
    rng = np.random.default_rng(seed)
    env = make_env(num_envs, seed)
    scale = np.maximum(obs_high(env.rules, env.n_players), 1.0)
    obs, info = env.reset(seed=seed)
    shares: list[float] = []
    while len(shares) < rounds:
        if w is None:
            acts = rng.random(num_envs) < 0.5
        else:
            acts = take_chance(w, features(obs, scale)) > 0.5
        acts = (acts | (info["action_mask"][:, 0] == 0)).astype(np.int64)
        obs, reward, done, _, info = env.step(acts)
        shares.extend(reward[done].tolist())
    return shares[:rounds]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--envs", type=int, default=512)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=20000)
    args = parser.parse_args()
    t = time.perf_counter()
    w = train(args.steps, args.envs, args.seed)
    trained = time.perf_counter() - t
    print(
        f"trained {args.steps} steps x {args.envs} envs "
        f"({args.steps * args.envs:,} agent steps) in {trained:.1f} s"
    )
    learned = share_interval(evaluate(w, args.rounds, args.envs, args.seed + 100))
    random = share_interval(evaluate(None, args.rounds, args.envs, args.seed + 100))
    print(
        f"win share in the learner's seat vs two RandomBots, {args.rounds} rounds; compare "
        "with the random agent in the same seat (1/3 ignores any edge the seat itself gives)"
    )
    print(f"  linear REINFORCE policy  {learned}")
    print(f"  random agent (RandomBot) {random}")
    if learned.low > random.high:
        print("the trained policy beats RandomBot: the intervals do not overlap")
    else:
        print("no clear win over RandomBot at this training length")


if __name__ == "__main__":
    main()
