"""The Gymnasium environment for one seat: the agent against given bots, on `nothanks_lab.Game`.

`NoThanksEnv` seats the agent at `seat` and the opponents (any ``act(view)`` policy or bot spec,
as :func:`nothanks_lab.bots.specs.make_policy` reads them) in the other seats in order; between
the agent's steps the opponents move through the same `Game`. An episode is one round. The
observation is the encoding of :mod:`nothanks_lab.envs.encoding` from the agent's seat, the
action mask ``[pass, take]`` is ``info["action_mask"]``, and the reward comes at the step that
ends the round. ``reset`` takes the same ``seed`` and ``options`` (``"deck"``,
``"first_player"``) as `aec_env`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots.base import seed_field
from ..bots.specs import make_policy
from ..engine import Game
from ..rules import Rules
from ..validate import check_players, check_rules, check_seat, check_seed
from .aec import check_render_mode, next_game
from .encoding import check_action, check_reward, obs_high, obs_size, observe_seat, round_rewards
from .text import render_ansi

__all__ = ["GYM_ID", "NoThanksEnv", "seat_opponents"]

#: The id `NoThanksEnv` is registered under: ``gymnasium.make(GYM_ID, opponents=[...])``.
GYM_ID = "nothanks_lab/NoThanks-v0"


def _is_one_spec(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], Mapping)
    )


def seat_opponents(
    opponents: Any, n_players: int | None, rules: Rules, seat: int
) -> tuple[int, list[Any], int]:
    """Check the table: ``(n_players, opponent policies in seat order, seat)``.

    `opponents` is a sequence of ``n_players - 1`` policies or specs, or one policy or spec
    for every other seat (then `n_players` is needed). `ValueError` for a count the rules do
    not allow, a wrong number of opponents or a seat outside the table.
    """
    if isinstance(opponents, list | tuple) and not _is_one_spec(opponents):
        pols = list(opponents)
        given = n_players is not None
        if n_players is None:
            n_players = len(pols) + 1
        n = check_players(n_players, rules)
        if len(pols) != n - 1:
            also = f" (or n_players={len(pols) + 1} for {len(pols)} opponents)" if given else ""
            raise ValueError(
                f"opponents: n_players={n} means {n - 1} other seats, so {n - 1} opponents "
                f"(one per other seat){also}; got {len(pols)}"
            )
    else:
        if n_players is None:
            raise ValueError(
                "opponents: give a sequence of policies (one per other seat), or n_players "
                "with a single policy to seat in every other seat"
            )
        n = check_players(n_players, rules)
        pols = [opponents] * (n - 1)
    pols = [make_policy(p) for p in pols]
    return n, pols, check_seat(seat, n)


class NoThanksEnv(gym.Env):
    """One seat of No Thanks! as a Gymnasium environment (extra ``rl``).

    >>> import nothanks_lab as nt
    >>> env = NoThanksEnv([nt.bots.MarginalCostBot(5)] * 2)
    >>> obs, info = env.reset(seed=3)
    >>> obs.shape, info["action_mask"].tolist()
    ((137,), [1, 1])
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (as gym.Env has it)

    def __init__(
        self,
        opponents: Any,
        *,
        n_players: int | None = None,
        seat: int = 0,
        rules: Rules | None = None,
        reward: str = "win_share",
        render_mode: str | None = None,
    ) -> None:
        self.rules = check_rules(rules)
        self.n_players, self.opponents, self.seat = seat_opponents(
            opponents, n_players, self.rules, seat
        )
        self._given = tuple(self.opponents)  # reseeded from each seed given to reset
        self.reward_kind = check_reward(reward)
        self.render_mode = check_render_mode(render_mode)
        high = obs_high(self.rules, self.n_players)
        self.observation_space = spaces.Box(0.0, high, (obs_size(self.rules, self.n_players),))
        self.action_space = spaces.Discrete(2)
        self._rng: np.random.Generator | None = None
        self.game: Game | None = None
        self._done = True

    def _policy_of(self, seat: int) -> Any:
        return self.opponents[seat if seat < self.seat else seat - 1]

    def _play_opponents(self) -> None:
        game = self.game
        assert game is not None
        while not game.is_over and game.current_player != self.seat:
            p = game.current_player
            game.step(self._policy_of(p).act(game.view(p)))

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        assert self.game is not None
        obs, mask = observe_seat(self.game, self.seat)
        return obs, {"action_mask": mask}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:  # an unseeded randomized opponent draws from the reset's seed
            check_seed(seed)
            self.opponents = list(seed_field(self._given, seed))
        self.game, self._rng = next_game(self.n_players, self.rules, seed, self._rng, options)
        self._play_opponents()
        while self.game.is_over:  # opponents took every card before the agent's turn
            self.game, self._rng = next_game(self.n_players, self.rules, None, self._rng)
            self._play_opponents()
        self._done = False
        return self._observe()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.game is None or self._done:
            raise ValueError("action: the round is over (or not started); call reset() first")
        self.game.step(check_action(action))  # IllegalActionError as the engine raises it
        self._play_opponents()
        reward = 0.0
        if self.game.is_over:
            values = round_rewards(self.game.card_points(), self.game.chips, self.reward_kind)
            reward = float(values[self.seat])
            self._done = True
        obs, info = self._observe()
        return obs, reward, self._done, False, info

    def render(self) -> str | None:
        return render_ansi(self.render_mode, self.game)


if GYM_ID not in gym.registry:
    gym.register(id=GYM_ID, entry_point=f"{__name__}:NoThanksEnv")
