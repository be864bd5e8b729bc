"""The PettingZoo AEC environment: one round of No Thanks! on the one engine, `nothanks_lab.Game`.

`aec_env` follows PettingZoo's classic conventions: agents ``player_0`` … in seat order,
``Discrete(2)`` actions (1 = take, 0 = pass), a ``Dict`` observation of ``"observation"`` (the
encoding of :mod:`nothanks_lab.envs.encoding`, relative to the observing seat) and
``"action_mask"`` (all 0 for a seat not to act), rewards only when the round ends, then every
agent terminated and removed by a ``step(None)`` each. Every move goes through `Game.step`, so
the taker acts again, a seat without chips has pass masked out and an illegal pass raises
`IllegalActionError` exactly as the engine does. ``reset(seed=s)`` deals the round
``nt.Game(n, seed=s)`` deals; ``reset(options={"deck": cards, "first_player": p})`` plays a
given deck (in-play cards in turning order, as `Game` takes it) instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine import Game
from ..rules import Rules
from ..validate import check_players, check_rules, check_seed
from .encoding import check_action, check_reward, obs_high, obs_size, observe_seat, round_rewards
from .text import render_ansi

__all__ = ["NoThanksAEC", "aec_env", "check_render_mode", "next_game"]


def check_render_mode(render_mode: object) -> str | None:
    """`render_mode` if it is None or ``"ansi"``, else `ValueError`."""
    if render_mode is not None and render_mode != "ansi":
        raise ValueError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
    return render_mode


def next_game(
    n_players: int,
    rules: Rules,
    seed: object,
    rng: np.random.Generator | None,
    options: dict[str, Any] | None = None,
) -> tuple[Game, np.random.Generator]:
    """The round a reset deals, and the generator later unseeded resets draw from.

    ``seed`` given: the round ``Game(n, seed=seed)`` deals, and a generator spawned from the
    seed for the rounds after it; no seed: a round drawn from `rng` (fresh entropy at first).
    ``options`` may hold ``"deck"`` (the in-play cards in turning order, as `Game` takes it)
    and ``"first_player"``; a deck replaces the deal.
    """
    opts = dict(options or {})  # other keys are ignored, as PettingZoo's checks expect
    first = opts.get("first_player", 0)
    if opts.get("deck") is not None:
        game = Game(n_players, rules=rules, deck=opts["deck"], first_player=first)
        if seed is not None:
            child = np.random.SeedSequence(check_seed(seed)).spawn(1)[0]  # type: ignore[arg-type]
            rng = np.random.default_rng(child)
        return game, np.random.default_rng() if rng is None else rng
    if seed is not None:
        seed = check_seed(seed)
        game = Game(n_players, rules=rules, seed=seed, first_player=first)
        child = np.random.SeedSequence(seed).spawn(1)[0]  # type: ignore[arg-type]
        return game, np.random.default_rng(child)
    rng = np.random.default_rng() if rng is None else rng
    return Game(n_players, rules=rules, seed=int(rng.integers(2**63)), first_player=first), rng


class NoThanksAEC(AECEnv):  # type: ignore[misc]  # an untyped base class
    """One round of No Thanks! for ``n_players`` agents (see `aec_env`)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (as Gymnasium declares it)
        "render_modes": ["ansi"],
        "name": "no_thanks_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        n_players: int = 3,
        *,
        rules: Rules | None = None,
        reward: str = "win_share",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = check_rules(rules)
        self.n_players = check_players(n_players, self.rules)
        self.reward_kind = check_reward(reward)
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = [f"player_{i}" for i in range(self.n_players)]
        self.agents = self.possible_agents[:]
        high = obs_high(self.rules, self.n_players)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (obs_size(self.rules, self.n_players),)),
                "action_mask": spaces.Box(0, 1, (2,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(2) for a in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise ValueError(f"agent must be one of {self.possible_agents}; got {agent!r}")
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.game is None:
            raise ValueError("call reset() before observe()")
        obs, mask = observe_seat(self.game, self._seat(agent))
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game, self._rng = next_game(self.n_players, self.rules, seed, self._rng, options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def step(self, action: Any) -> None:
        if self.game is None or not self.agents:
            raise ValueError(
                "action: the round is over and every agent has left; call reset() first"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = check_action(action)
        self.game.step(move)  # IllegalActionError (a ValueError) as the engine raises it
        self._cumulative_rewards[agent] = 0.0
        if self.game.is_over:
            values = round_rewards(self.game.card_points(), self.game.chips, self.reward_kind)
            self.rewards = {a: float(values[i]) for i, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            # The taker of the last card stays selected; each agent then steps None to leave.
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.game.current_player]

    def render(self) -> str | None:
        return render_ansi(self.render_mode, self.game)

    def close(self) -> None:
        pass


def aec_env(
    n_players: int = 3,
    *,
    rules: Rules | None = None,
    reward: str = "win_share",
    render_mode: str | None = None,
) -> NoThanksAEC:
    """A PettingZoo AEC environment of one No Thanks! round (extra ``rl``).

    >>> env = aec_env(3)
    >>> env.reset(seed=9); env.step(1); env.agent_selection  # the taker acts again
    'player_0'
    """
    return NoThanksAEC(n_players, rules=rules, reward=reward, render_mode=render_mode)
