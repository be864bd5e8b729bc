"""The batched, compiled, auto-resetting Gymnasium vector environment against fast-path bots.

`VectorNoThanksEnv` holds ``num_envs`` rounds as one `core.State` batch and moves them all in
one compiled call (:func:`nothanks_lab.envs.kernel.step_batch`): the agent's move in each, the
opponents' replies on the simulator kernel's own dispatch over their ``FAST_DECIDE`` functions,
and a new round dealt in place of each finished one (Gymnasium's ``SAME_STEP`` autoreset: the
observation returned for a finished round is the next round's first, the last one is in
``info["final_obs"]`` where ``info["_final_obs"]`` is set). Observations follow
:mod:`nothanks_lab.envs.encoding`; ``info["action_mask"]`` is int8[num_envs, 2]
``[pass, take]``. After ``reset(seed=s)``, round ``k`` of environment ``g`` is dealt as game
``k * num_envs + g`` of the deal stream of `s` (:func:`nothanks_lab.deals.deal_decks`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import core
from ..bots.base import seed_field
from ..deals import stream_key
from ..engine import IllegalActionError
from ..fast import fast_table, has_fast_path
from ..jit import jit_pure
from ..rules import Rules
from ..validate import check_count, check_rules, check_seat, check_seed
from .encoding import check_reward, obs_high, obs_size
from .kernel import Table, step_batch
from .single import seat_opponents

__all__ = ["MAX_ENVS", "VectorNoThanksEnv"]

#: Most rounds of one `VectorNoThanksEnv` (its ``num_envs``): about 2 kB each (observations,
#: state, masks), so some 200 MB at the ceiling; far above what one compiled step needs to
#: keep both cores busy.
MAX_ENVS = 100_000


class VectorNoThanksEnv(VectorEnv):
    """``num_envs`` rounds of one seat against fast-path bots, stepped together in compiled code.

    `opponents` are as for `NoThanksEnv` but must all have a fast path (a `FastBot` such as
    ``MarginalCostBot`` or ``RandomBot``, or a built-in bot with ``FAST_DECIDE``).

    >>> import nothanks_lab as nt
    >>> env = VectorNoThanksEnv(4, [nt.bots.MarginalCostBot(5)] * 2)
    >>> obs, info = env.reset(seed=1)
    >>> obs.shape, info["action_mask"].shape
    ((4, 137), (4, 2))
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (as Gymnasium declares it)
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        opponents: Any,
        *,
        n_players: int | None = None,
        seat: int = 0,
        rules: Rules | None = None,
        reward: str = "win_share",
        first_player: int = 0,
    ) -> None:
        self.num_envs = check_count(num_envs, "num_envs", MAX_ENVS)  # before any allocation
        self.rules = check_rules(rules)
        self.n_players, self.opponents, self.seat = seat_opponents(
            opponents, n_players, self.rules, seat
        )
        self.reward_kind = check_reward(reward)
        self.first_player = check_seat(first_player, self.n_players, "first_player")
        slow = [type(p).__name__ for p in self.opponents if not has_fast_path(p)]
        if slow:
            raise ValueError(
                f"opponents: VectorNoThanksEnv needs fast-path bots (FAST_DECIDE and "
                f"fast_params, e.g. a FastBot); {', '.join(dict.fromkeys(slow))} has none; "
                "use NoThanksEnv for any act(view) policy"
            )
        table = fast_table(self.opponents, self.rules, strict=True)
        assert table is not None  # every opponent has a fast path
        self._kinds, self._params, self._decide = table.kinds, table.params, table.module.decide
        self._step = jit_pure(step_batch)
        size = obs_size(self.rules, self.n_players)
        self.single_observation_space = spaces.Box(0.0, obs_high(self.rules, self.n_players))
        self.single_action_space = spaces.Discrete(2)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        b, n = self.num_envs, self.n_players
        self._chips0 = self.rules.starting_chips(n)
        self._state = core.new_state(
            np.zeros((b, self.rules.n_in_play), dtype=np.int64), n, self._chips0, 0
        )
        self._episodes = np.zeros(b, dtype=np.int64)
        self._obs = np.zeros((b, size), dtype=np.float32)
        self._final_obs = np.zeros((b, size), dtype=np.float32)
        self._masks = np.zeros((b, 2), dtype=np.int8)
        self._rewards = np.zeros(b, dtype=np.float64)
        self._done = np.zeros(b, dtype=np.bool_)
        self._scratch = np.zeros((2, n), dtype=np.int64)
        self._share = np.zeros((1, n), dtype=np.float64)
        self._winners = np.zeros((1, n), dtype=np.bool_)
        self._box = np.zeros(self.rules.n_cards, dtype=np.int64)
        self._key: np.ndarray | None = None
        self._table: Table | None = None

    def _run(self, actions: np.ndarray) -> None:
        assert self._table is not None
        self._step(
            self._state,
            actions,
            self._table,
            self._decide,
            self._episodes,
            self._obs,
            self._masks,
            self._rewards,
            self._done,
            self._final_obs,
            self._scratch,
            self._share,
            self._winners,
            self._box,
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every environment a new round; `seed` restarts the deal stream at round 0.

        ``options={"decks": int[num_envs, n_in_play]}`` plays those decks as the first rounds
        (later rounds come from the stream).
        """
        start = np.full(self.num_envs, -1, dtype=np.int64)
        if seed is not None:
            self._key = stream_key(check_seed(seed))
            # An unseeded randomized opponent draws from the reset's seed, like the deals.
            table = fast_table(seed_field(self.opponents, seed), self.rules, strict=True)
            assert table is not None
            self._params = table.params
            self._episodes[:] = 0
        elif self._key is None:
            self._key = stream_key(int(np.random.SeedSequence().entropy))  # type: ignore[arg-type]
        else:
            self._episodes += 1  # the rounds in progress are abandoned
        decks = (options or {}).get("decks")
        if decks is not None:
            self._state.deck[...] = self._check_decks(decks)
            start[:] = -2
        self._table = Table(
            seat=self.seat,
            kinds=self._kinds,
            params=self._params,
            key0=self._key[0],
            key1=self._key[1],
            low_card=np.int64(self.rules.low_card),
            n_cards=np.int64(self.rules.n_cards),
            starting_chips=self._chips0,
            first_player=self.first_player,
            win_share=self.reward_kind == "win_share",
        )
        self._run(start)
        return self._obs.copy(), {"action_mask": self._masks.copy()}

    def _check_decks(self, decks: Any) -> np.ndarray:
        from ..deals import check_deck

        arr = np.asarray(decks)
        if arr.shape != (self.num_envs, self.rules.n_in_play):
            raise ValueError(
                f"options['decks'] must be int[{self.num_envs}, {self.rules.n_in_play}] (one deck "
                f"per environment); got shape {arr.shape}"
            )
        rows = []
        for i, row in enumerate(arr):
            try:
                rows.append(check_deck(row.tolist(), self.rules))
            except ValueError as err:
                raise ValueError(f"options['decks'][{i}] (the deck of env {i}): {err}") from None
        return np.stack(rows)

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One move (1 take, 0 pass) per environment; see the module for autoreset."""
        if self._table is None:
            raise ValueError("actions: call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iub":
            raise ValueError(
                f"actions must be int[{self.num_envs}] of 0 (pass) or 1 (take); got "
                f"{acts.dtype} array of shape {acts.shape}"
            )
        acts = acts.astype(np.int64)
        bad = (acts != 0) & (acts != 1)
        if bad.any():
            raise ValueError(
                f"actions must be 0 (pass) or 1 (take); got {acts[bad][0]} in environment "
                f"{int(np.flatnonzero(bad)[0])}"
            )
        broke = (acts == 0) & (self._masks[:, 0] == 0)
        if broke.any():
            raise IllegalActionError(
                f"illegal move PASS in environment {int(np.flatnonzero(broke)[0])}: the agent "
                "has no chips, so cannot say No thanks!; the only legal move is 1 (take)"
            )
        self._run(acts)
        info: dict[str, Any] = {"action_mask": self._masks.copy()}
        if self._done.any():
            info["final_obs"] = self._final_obs.copy()
            info["_final_obs"] = self._done.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._obs.copy(), self._rewards.copy(), self._done.copy(), truncated, info
