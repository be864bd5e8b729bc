"""The search bot: determinized rollouts over the unseen cards, played on a compiled kernel.

For each move, `SearchBot` samples many guesses at the face-down cards (a uniform random order of
``view.cards_left`` of ``view.unseen_cards``, exactly what the bot cannot know), plays each guess
to the end once after taking and once after passing, every seat following the heuristic bot
(`HeuristicBot`) from then on, and picks the move whose rollouts end best for its seat (win
share, plus a small weight on the score margin to break near-ties). Both moves see the same
guesses (common random numbers), so their difference is measured with little noise. The
positions come from `view.position_state`, the rollouts run on the simulator's compiled playout
loop (:func:`nothanks_lab.fast.finish_rounds`, built on :mod:`nothanks_lab.core`'s transitions) and
are scored by :func:`nothanks_lab.core.score_rows`: no rule or scoring is typed twice. The guesses
come from the bot's own seeded generator, and the budget is a number of rollouts (not a clock),
so a seeded bot is reproducible. Four switches: ``model_opponents`` plays each rival in the
rollouts as a policy drawn from its weights in an `OpponentModel` (learnt from the rivals' moves
read back from this bot's own views, reset every round; with ``learn_rivals`` each round starts
from the mix of policies the earlier rounds showed) instead of assuming heuristic bots
everywhere (``prior_milker``: the prior chance that a rival is the heuristic bot, nicknamed the
milker); ``own_linear`` has the bot's own seat play `LinearBot` in the rollouts (a policy fitted
to imitate this search, so the rollouts guess the bot's own later moves better than the
heuristic bot); ``trust_z`` plays a fallback policy's move (the heuristic bot's, or
`LinearBot`'s with ``own_linear``) unless the search finds the other move better by more than
that many standard errors of the paired difference; and ``seat_tuned_5p`` has the bot's own seat
play a heuristic bot tuned for 5-player tables (`SEAT_5P_PARAMS`) in 5-player rollouts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np

from .. import core
from ..engine import Action
from ..i18n import N_
from ..view import PlayerView, position_state
from .base import Param, RandomizedBot, decision_args, register
from .heuristic import HEURISTIC_PARAMS, heuristic_decide, pack_params
from .linear import LinearBot, linear_decide
from .opponents import MODELS, OpponentModel, model_params

__all__ = ["SEAT_5P_PARAMS", "SearchBot", "play_rollouts", "rollout_kernel", "rollout_values"]

#: A heuristic bot tuned to win 5-player rounds against four default ones (Nelder-Mead on common
#: random numbers, reproduced by ``benchmarks/tune_seat_5p.py``): 27.4% ± 0.8% of rounds
#: against them on fresh deals (fair share 20%). With ``seat_tuned_5p`` the search bot's
#: own seat plays it inside 5-player rollouts: its future moves are then better guesses of
#: its own (searched) play, so both moves are valued from stronger continuations.
SEAT_5P_PARAMS: dict[str, Any] = {
    "threshold": 5.12,
    "pot_weight": 2.26,
    "chip_ref": 2.14,
    "chip_weight": 0.53,
    "late_weight": 0.0,
    "bridge_weight": 0.9,
    "milk": True,
    "milk_margin": 17.25,
    "block_weight": 2.29,
}


def play_rollouts(
    s: core.State,
    params: np.ndarray,
    seat: int,
    margin_weight: float = 0.0,
    decide: Callable[..., Any] = heuristic_decide,
    own: tuple[Callable[..., Any], np.ndarray] | None = None,
) -> np.ndarray:
    """Play every round of `s` out (in place); float64[B]: the value of each for `seat`.

    Every seat ``p`` decides with ``decide(params[p], ...)``, except `seat` with ``own`` (a
    decision function and its parameters) when given. The rounds run on the simulator's
    compiled playout loop (:func:`nothanks_lab.fast.finish_rounds`, built on :mod:`core`'s
    transitions) and are scored by :func:`core.score_rows`: a value is `seat`'s win share (ties
    split) plus ``margin_weight`` times its score margin over the best rival.
    """
    from ..fast import finish_rounds, jit_pure  # numba loads only when a search starts

    n = s.chips.shape[1]
    own_decide, own_params = (decide, params[seat]) if own is None else own
    rows = np.zeros((n, max(params.shape[1], len(own_params))), dtype=np.float64)
    rows[:, : params.shape[1]] = params
    rows[seat] = 0.0
    rows[seat, : len(own_params)] = own_params
    decides = [own_decide if p == seat else decide for p in range(n)]
    points = finish_rounds(s, decides, rows)
    b = points.shape[0]
    scores = np.empty((b, n), dtype=np.int64)
    winners = np.empty((b, n), dtype=np.bool_)
    share = np.empty((b, n), dtype=np.float64)
    jit_pure(core.score_rows)(points, s.chips, scores, winners, share)
    best_rival = np.delete(scores, seat, axis=1).min(axis=1)
    return np.asarray(share[:, seat] + margin_weight * (best_rival - scores[:, seat]))


def rollout_kernel(
    decide: Callable[..., Any], own_decide: Callable[..., Any] | None = None
) -> Callable[..., Any]:
    """`play_rollouts` in the form ``kernel(s, params, first, seat, margin_weight, own_params)``.

    Round ``g`` first takes (``first[g] == 1``), passes (``0``) or neither (``-1``); then
    `seat` decides with ``own_decide(own_params, ...)`` (`decide` unless given) and every
    other seat ``p`` with ``decide(params[p], ...)``. Kept for the tuning benchmarks.
    """
    own_decide = decide if own_decide is None else own_decide

    def kernel(
        s: core.State,
        params: np.ndarray,
        first: np.ndarray,
        seat: int,
        margin_weight: float,
        own_params: np.ndarray,
    ) -> np.ndarray:
        for g in np.flatnonzero(np.asarray(first) >= 0):
            core.step(s, int(g), bool(first[g] == 1))
        return play_rollouts(s, params, seat, margin_weight, decide, (own_decide, own_params))

    return kernel


def rollout_values(
    view: PlayerView,
    n_rollouts: int,
    rng: np.random.Generator,
    params: np.ndarray,
    margin_weight: float = 0.0,
    decide: Callable[..., Any] = heuristic_decide,
    own: tuple[Callable[..., Any], np.ndarray] | None = None,
) -> np.ndarray:
    """Rollout values ``float64[2, n_rollouts]`` of taking (row 0) and passing (row 1) in `view`.

    Each column is one guess at the face-down cards, shared by both moves; `params` is
    ``float64[P, K]``, the rollout policy's parameters per seat. `own`, a decision function
    and its parameters, replaces the rollout policy at the bot's own seat.
    """
    if not view.is_my_turn:
        raise ValueError(f"seat {view.seat} is not to act in this view; nothing to search")
    n = view.n_players
    unseen = np.array(view.unseen_cards, dtype=np.int64)
    k = view.cards_left
    guesses = rng.permuted(np.broadcast_to(unseen, (n_rollouts, unseen.size)), axis=1)[:, :k]
    # Both moves on the same guesses (common random numbers): the first half of the rounds
    # take, the second half pass.
    take = np.arange(2 * n_rollouts) < n_rollouts
    state = position_state(view, np.concatenate([guesses, guesses]), take)
    params = np.ascontiguousarray(np.broadcast_to(params, (n, params.shape[-1])), dtype=np.float64)
    values = play_rollouts(state, params, view.seat, float(margin_weight), decide, own)
    return values.reshape(2, n_rollouts)


@register("search")
class SearchBot(RandomizedBot):
    """Determinized rollouts: guess the face-down cards, play both moves out, keep the better.

    >>> from nothanks_lab import Game
    >>> g = Game(3, deck=range(3, 27))
    >>> why = SearchBot(n_rollouts=50, seed=1).explain(g.view(0))
    >>> why["rollouts"], why["action"] in (Action.TAKE, Action.PASS), why["std_error"] > 0
    (50, True, True)
    """

    PARAMS: ClassVar[tuple[Param, ...]] = (
        Param(
            "n_rollouts", 400, 1, 100_000, N_("most guesses at the face-down cards per move"), int
        ),
        Param(
            "batch",
            100,
            1,
            100_000,
            N_("guesses per batch; stop early once one move is clear"),
            int,
        ),
        Param("stop_z", 3.0, 0.0, 100.0, N_("a move is clear when ahead by this many std errors")),
        Param("margin_weight", 0.02, 0.0, 1.0, N_("value of one point of score margin, in wins")),
        Param("pass_bias", 0.0, -1.0, 1.0, N_("extra value credited to passing (0 = none)")),
        Param(
            "model_opponents",
            False,
            False,
            True,
            N_("guess each rival's policy from its moves (else: all heuristic bots)"),
            bool,
        ),
        Param(
            "prior_milker",
            0.5,
            0.01,
            0.99,
            N_("prior chance that a rival is the heuristic bot (nicknamed the milker)"),
        ),
        Param(
            "learn_rivals",
            False,
            False,
            True,
            N_("start each round from the mix of rival policies seen in earlier rounds"),
            bool,
        ),
        Param("model_eps", 0.1, 0.01, 0.49, N_("chance a rival deviates from its policy")),
        Param(
            "trust_z",
            0.0,
            0.0,
            100.0,
            N_(
                "overrule the heuristic bot only when ahead by this many std errors "
                "(0: always search)"
            ),
        ),
        Param(
            "seat_tuned_5p",
            False,
            False,
            True,
            N_(
                "at 5 players, own seat's rollouts play a heuristic bot tuned for 5p "
                "(SEAT_5P_PARAMS)"
            ),
            bool,
        ),
        Param(
            "own_linear",
            False,
            False,
            True,
            N_("own seat plays LinearBot in rollouts, and its move is the trust_z fallback"),
            bool,
        ),
    )
    n_rollouts: int
    batch: int
    stop_z: float
    margin_weight: float
    pass_bias: float
    model_opponents: bool
    prior_milker: float
    learn_rivals: bool
    model_eps: float
    trust_z: float
    seat_tuned_5p: bool
    own_linear: bool

    def __init__(
        self,
        *,
        rollout_params: dict[str, Any] | None = None,
        linear_params: dict[str, Any] | None = None,
        **params: Any,
    ) -> None:
        super().__init__(**params)
        owner = type(self).__name__
        for arg, value in (("rollout_params", rollout_params), ("linear_params", linear_params)):
            if value is not None and not isinstance(value, Mapping):
                raise ValueError(
                    f"{owner}: {arg} must be a dict of parameter values or None; got {value!r}"
                )
        # The own seat's policy under ``own_linear`` (its weights validated like LinearBot's).
        try:
            self.linear = LinearBot(**(linear_params or {}))
        except ValueError as e:
            raise ValueError(f"{owner}: linear_params: {e}") from None
        defaults = {p.name: p.default for p in HEURISTIC_PARAMS}
        unknown = sorted(set(rollout_params or {}) - set(defaults))
        if unknown:
            raise ValueError(
                f"SearchBot: rollout_params has unknown names {unknown}; "
                f"allowed: {', '.join(defaults)}"
            )
        values = {
            p.name: p.check((rollout_params or {}).get(p.name, p.default), "SearchBot rollouts")
            for p in HEURISTIC_PARAMS
        }
        self.rollout_params = values
        self.opponents = OpponentModel(self.prior_milker, self.model_eps, self.learn_rivals)

    def rollout_matrix(self, view: PlayerView, weights: np.ndarray | None = None) -> np.ndarray:
        """Rollout policy parameters per seat (``float64[P, K]``).

        Without `weights` every seat plays the heuristic bot; with ``weights`` (``float64[P, M]``
        over `MODELS`) each rival's policy is drawn from its row, and the bot's own seat
        plays the heuristic bot with this bot's rollout parameters (`SEAT_5P_PARAMS` at 5 players
        when ``seat_tuned_5p`` is on).
        """
        row = pack_params(self.rollout_params, view.rules)
        out = np.tile(row, (view.n_players, 1))
        if self.seat_tuned_5p and view.n_players == 5:
            out[view.seat] = pack_params(SEAT_5P_PARAMS, view.rules)
        if weights is not None:
            models = model_params(view.rules)
            for o in range(view.n_players):
                if o != view.seat:
                    out[o] = models[self.rng.choice(len(models), p=weights[o])]
        return out

    def _linear_params(self, view: PlayerView) -> np.ndarray:
        return self.linear.fast_params(view.rules)

    def values(self, view: PlayerView) -> tuple[float, float, int, float]:
        """Mean rollout values of taking and of passing, the guesses used, and the std error.

        Guesses come in batches; once the paired difference between the moves exceeds
        `stop_z` standard errors the search stops, so clear moves cost little and close ones
        get the whole `n_rollouts`. The last number is the standard error of that difference.
        """
        weights = self.opponents.weights(view) if self.model_opponents else None
        own = (linear_decide, self._linear_params(view)) if self.own_linear else None
        parts: list[np.ndarray] = []
        used = 0
        se = float("inf")
        while used < self.n_rollouts:
            k = min(self.batch, self.n_rollouts - used)
            params = self.rollout_matrix(view, weights)
            parts.append(rollout_values(view, k, self.rng, params, self.margin_weight, own=own))
            used += k
            v = np.concatenate(parts, axis=1)
            diff = v[0] - v[1] - self.pass_bias
            if used >= 2:
                se = float(diff.std(ddof=1) / np.sqrt(used))
                if used < self.n_rollouts and abs(diff.mean()) > self.stop_z * se:
                    break
        return float(v[0].mean()), float(v[1].mean()) + self.pass_bias, used, se

    def _decide(self, view: PlayerView) -> dict[str, Any]:
        from ..core import marginal_points

        cost = marginal_points(view.hand_masks[view.seat], view.active_card)  # type: ignore[arg-type]
        out: dict[str, Any] = {"card": view.active_card, "pot": view.pot, "cost": cost}
        if self.model_opponents:
            # Read the rivals' moves even on a forced take, so the memory stays in step.
            weights = self.opponents.weights(view)
            out["rival_models"] = {
                o: dict(zip(MODELS, map(float, weights[o]), strict=True))
                for o in range(view.n_players)
                if o != view.seat
            }
        if not view.can_pass:
            return {"action": Action.TAKE, **out, "forced": True}
        take, pass_, used, se = self.values(view)
        searched = Action.TAKE if take >= pass_ else Action.PASS
        take_heuristic = heuristic_decide(
            pack_params(self.rollout_params, view.rules), *decision_args(view)
        )
        heuristic = Action.TAKE if take_heuristic else Action.PASS
        fallback = heuristic
        if self.own_linear:
            take_linear = linear_decide(self._linear_params(view), *decision_args(view))
            fallback = Action.TAKE if take_linear else Action.PASS
        # Not clearly better than the fallback policy's own move: play that.
        close = self.trust_z > 0 and abs(take - pass_) <= self.trust_z * se
        action = fallback if close else searched
        return {
            "action": action,
            **out,
            "value_take": take,
            "value_pass": pass_,
            "std_error": se,
            "rollouts": used,
            "heuristic_action": heuristic,
            "fallback_action": fallback,
            "forced": False,
        }

    def act(self, view: PlayerView) -> Action:
        action: Action = self._decide(view)["action"]
        return action

    def explain(self, view: PlayerView) -> dict[str, Any]:
        return self._decide(view)
