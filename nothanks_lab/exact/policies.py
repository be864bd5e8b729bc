"""Exact play against fixed policies: `best_response`, `evaluate` and `exploitability`.

With the policies of some seats fixed, the round is a single-agent problem for the others, any
number of seats. `_PolicyEngine` solves it in plain Python over the chance nodes of
:mod:`nothanks_lab.exact.positions` (a dict memo keyed by hands, chips and seat to act), keeping
the value of every seat so that a `Solution` can answer for any seat's view. A fixed policy is
asked through the `PlayerView` of each position it reaches: exactly when it exposes
``take_probability(view)`` (`RandomBot` is read through ``p_take``), otherwise once per position
and held to that answer. Each fixed policy is asked once per distinct view (`_Asked` keeps its
answer by position, for the solve and every later `value_of`/`action` of its `Solution`), and a
bot with a compiled fast path (`FastBot`, ``act`` not overridden) is asked through its compiled
``FAST_DECIDE``, the very function its ``act`` runs, on the view's public facts. A seat with no
policy plays its best response, so with no policy at all it is the plain-Python twin of the
compiled solver (``solve(..., engine="python")``). `exploitability` measures a policy by what a
best response wins against it in either seat.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine import Action
from ..rules import Rules
from ..validate import check_players, check_seat
from ..view import PlayerView
from .kernel import _WIN, _score
from .positions import (
    DEFAULT_MAX_POSITIONS,
    Chips,
    Hands,
    _check_objective,
    _check_rules,
    _check_size,
    _encode,
    _next_cards,
    _pass_chain,
    _pay,
    _solver_view,
    _take,
    _too_many_positions,
)
from .solution import Solution


def _compiled_decide(policy: Any, rules: Rules) -> Callable[..., bool] | None:
    """``policy``'s decision as ``f(card, pot, seat, hands, chips, cards_left) -> take``,
    compiled, when it has a fast path (its ``act`` is ``FAST_DECIDE`` on the view's public
    facts); None otherwise, or when numba cannot compile it (then ``act`` is asked). It runs
    on the simulator's kernel for that bot (`FastTable`), compiled once and cached on disk."""
    from ..bots.simple import RandomBot
    from ..fast import FastPathError, FastTable, has_fast_path

    # A mixed policy is read exactly (`_PolicyEngine.p_take`), never as one coin per position.
    mixed = callable(getattr(policy, "take_probability", None)) or isinstance(policy, RandomBot)
    if mixed or not has_fast_path(policy):
        return None
    try:
        table = FastTable([policy], rules)
    except FastPathError:
        return None
    compiled, params = table.module.decide, table.params[0]

    def decide(card: int, pot: int, seat: int, hands: Any, chips: Any, left: int) -> bool:
        return bool(compiled(0, params, card, pot, seat, hands, chips, left))

    return decide


class _Asked:
    """One fixed policy's take probability at each position it was asked, asked once each.

    Positions are keyed by what is public (hands, chips, pot, seat to act, card), so one key is
    one distinct view; the answers outlive the solve, for the `Solution`'s later questions.
    """

    def __init__(self, policy: Any, rules: Rules, ask_view: Callable[[PlayerView], float]):
        self.rules, self.ask_view = rules, ask_view
        self.compiled = _compiled_decide(policy, rules)
        self.answers: dict[tuple[Hands, Chips, int, int, int], float] = {}
        # Per hands (what a take changes): sorted cards, absolute masks, cards left face down.
        self.hands: dict[Hands, tuple[tuple[tuple[int, ...], ...], np.ndarray, int]] = {}

    def _hands(self, hands: Hands) -> tuple[tuple[tuple[int, ...], ...], np.ndarray, int]:
        got = self.hands.get(hands)
        if got is None:
            low, n = self.rules.low_card, self.rules.n_cards
            cards = tuple(tuple(low + i for i in range(n) if (m >> i) & 1) for m in hands)
            masks = np.array([m << low for m in hands], dtype=np.int64)
            got = cards, masks, self.rules.n_in_play - sum(map(len, cards)) - 1
            self.hands[hands] = got
        return got

    def p_take(self, hands: Hands, chips: Chips, pot: int, seat: int, card: int) -> float:
        key = (hands, chips, pot, seat, card)
        got = self.answers.get(key)
        if got is not None:
            return got
        cards, masks, left = self._hands(hands)
        if self.compiled is not None and chips[seat] > 0:
            chips_now = np.array(chips, dtype=np.int64)
            take = self.compiled(self.rules.low_card + card, pot, seat, masks, chips_now, left)
            got = 1.0 if take else 0.0
        else:
            got = self.ask_view(_solver_view(self.rules, seat, hands, cards, chips, pot, card))
        self.answers[key] = got
        return got


class _PolicyEngine:
    """Exact values of every seat when seat `responder` (or none) plays its best response.

    A seat whose policy is None also plays its best response (both seats of a two-player
    game: the plain-Python twin of the compiled solver).

    The other seats follow fixed policies, asked through the `PlayerView` of each position they
    reach. A policy may expose ``take_probability(view) -> float`` (a mixed policy, handled
    exactly); `RandomBot` is read through its ``p_take``; any other policy is asked ``act``
    once per position and its answer is kept, so a randomised bot is valued as the policy that
    plays the move it chose the first time it met each position.
    """

    def __init__(
        self,
        rules: Rules,
        policies: Sequence[Any],
        responder: int | None,
        objective: int,
        max_positions: int,
    ) -> None:
        self.rules = rules
        self.n = len(policies)
        self.policies = list(policies)
        self.responder = responder
        self.objective = objective
        self.max_positions = max_positions
        self.memo: dict[tuple[Hands, Chips, int], tuple[float, ...]] = {}
        self.n_decisions = 0
        self.start_values: tuple[float, ...] = ()
        self.low = rules.low_card
        self.asked = [
            None if p is None or i == responder else _Asked(p, rules, self.p_take)
            for i, p in enumerate(self.policies)
        ]

    # ---- terminal values and policy questions
    def terminal(self, hands: Hands, chips: Chips) -> tuple[float, ...]:
        scores = [_score(h, c, self.low) for h, c in zip(hands, chips, strict=True)]
        if self.objective == _WIN:
            best = min(scores)
            k = scores.count(best)
            return tuple(1.0 / k if s == best else 0.0 for s in scores)
        out = []
        for p, s in enumerate(scores):
            rival = min(x for q, x in enumerate(scores) if q != p)
            out.append(float(rival - s))
        return tuple(out)

    def p_take(self, view: PlayerView) -> float:
        if not view.can_pass:
            return 1.0
        policy = self.policies[view.seat]
        ask = getattr(policy, "take_probability", None)
        if callable(ask):
            p = float(ask(view))
        else:
            from ..bots.simple import RandomBot

            if isinstance(policy, RandomBot):
                p = float(policy.p_take)
            else:
                action = policy.act(view)
                if not isinstance(action, Action):
                    raise ValueError(
                        f"opponents: {policy!r} answered {action!r}, not an Action, at {view}"
                    )
                p = 1.0 if action is Action.TAKE else 0.0
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"opponents: {policy!r} gave a take probability {p} outside [0, 1]")
        return p

    # ---- the search
    def node(self, hands: Hands, chips: Chips, actor: int) -> tuple[float, ...]:
        key = (hands, chips, actor)
        got = self.memo.get(key)
        if got is not None:
            return got
        cards = _next_cards(hands, self.rules)
        if not cards:
            out = self.terminal(hands, chips)
        else:
            acc = [0.0] * self.n
            for i in cards:
                v = self.chain(hands, chips, 0, actor, i)
                acc = [a + b for a, b in zip(acc, v, strict=True)]
            out = tuple(a / len(cards) for a in acc)
        if len(self.memo) >= self.max_positions:
            raise _too_many_positions(self.max_positions)
        self.memo[key] = out
        return out

    def take(
        self, hands: Hands, chips: Chips, pot: int, actor: int, card: int
    ) -> tuple[float, ...]:
        return self.node(*_take(hands, chips, pot, actor, card), actor)

    def decide(
        self,
        hands: Hands,
        chips: Chips,
        pot: int,
        actor: int,
        card: int,
        take: tuple[float, ...],
        pass_: tuple[float, ...] | None,
    ) -> tuple[float, ...]:
        """Values after the actor's choice between the two moves' values."""
        if pass_ is None:
            return take
        if actor == self.responder or self.policies[actor] is None:
            return take if take[actor] >= pass_[actor] else pass_
        asked = self.asked[actor]
        assert asked is not None  # a fixed policy sits here
        p = asked.p_take(hands, chips, pot, actor, card)
        if p == 1.0:
            return take
        if p == 0.0:
            return pass_
        return tuple(p * a + (1.0 - p) * b for a, b in zip(take, pass_, strict=True))

    def chain(
        self, hands: Hands, chips: Chips, pot: int, actor: int, card: int
    ) -> tuple[float, ...]:
        """Values of the decision on `card`, passes going round until someone takes."""
        steps = _pass_chain(chips, pot, actor)
        self.n_decisions += len(steps)
        v: tuple[float, ...] | None = None
        for ch, q, who in reversed(steps):
            v = self.decide(hands, ch, q, who, card, self.take(hands, ch, q, who, card), v)
        assert v is not None
        return v

    # ---- reading positions
    def value_of(self, view: PlayerView) -> float:
        hands, chips = _encode(view)
        if view.is_over:
            return self.terminal(hands, chips)[view.seat]
        assert view.current_player is not None and view.active_card is not None
        card = view.active_card - self.low
        return self.chain(hands, chips, view.pot, view.current_player, card)[view.seat]

    def action_values(self, view: PlayerView) -> dict[Action, float]:
        hands, chips = _encode(view)
        seat = view.seat
        card = view.active_card - self.low  # type: ignore[operator]
        out = {Action.TAKE: self.take(hands, chips, view.pot, seat, card)[seat]}
        if view.my_chips > 0:
            paid, nxt = _pay(chips, seat)
            out[Action.PASS] = self.chain(hands, paid, view.pot + 1, nxt, card)[seat]
        return out


def _policy_solution(
    rules: Rules,
    policies: Sequence[Any],
    responder: int | None,
    objective: str,
    first_player: int,
    max_positions: int,
) -> Solution:
    obj = _check_objective(objective)
    n = len(policies)
    first_player = check_seat(first_player, n, "first_player")
    _check_size(rules, n, max_positions)  # up front: the search would run for hours
    engine = _PolicyEngine(rules, policies, responder, obj, max_positions)
    chips = (rules.starting_chips(n),) * n
    started = time.perf_counter()
    values = engine.node((0,) * n, chips, first_player)
    seconds = time.perf_counter() - started
    engine.start_values = values
    return Solution(
        rules=rules,
        n_players=n,
        objective=objective,
        value=values[responder if responder is not None else first_player],
        n_positions=len(engine.memo),
        n_decisions=engine.n_decisions,
        seconds=seconds,
        memory_bytes=0,
        seat=responder,
        first_player=first_player,
        _engine=engine,
    )


def _check_policies(policies: Sequence[Any], what: str) -> list[Any]:
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        raise ValueError(f"{what} must be a sequence of policies; got {policies!r}")
    out = list(policies)
    for p in out:
        if not callable(getattr(p, "act", None)):
            raise ValueError(f"{what} must be policies with act(view) -> Action; got {p!r}")
    return out


def best_response(
    rules: Rules,
    opponents: Sequence[Any],
    objective: str = "win",
    seat: int = 0,
    *,
    first_player: int = 0,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> Solution:
    """The best play of `seat` against fixed policies at the other seats, and its value.

    `opponents` fill the other seats in increasing seat order (``len(opponents) + 1`` seats,
    a player count the rules allow). `value` is `seat`'s value at the start of a round
    (`first_player` acting first), averaged over every deal. Mixed policies are exact when they
    expose ``take_probability(view)`` (`RandomBot` is read through ``p_take``); any other
    policy is asked once per position and held to that answer. Solved in plain Python: small
    decks only (more than `max_positions` chance nodes is a `ValueError`).

    Parameters
    ----------
    rules : Rules
        A small rule set.
    opponents : sequence
        The fixed policies of the other seats, in increasing seat order.
    objective : {"win", "margin"}
        ``"win"``: the chance of winning, a tie among k seats counting 1/k; ``"margin"``: the
        best rival's score minus mine.
    seat : int
        The seat that plays its best response.
    first_player : int
        The seat that acts first.
    max_positions : int
        The most chance nodes solved before giving up.

    Returns
    -------
    nothanks_lab.exact.solution.Solution
        ``.value`` (`seat`'s), ``.value_of(view)``, ``.action(view)``, ``.bot()`` (for
        `seat` only), ``.n_positions``.

    Raises
    ------
    ValueError
        For a player count the rules lack, a bad seat or objective, an object without
        ``act``, or more than `max_positions` chance nodes.

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> r = Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1), (3, 1)))
    >>> sol = best_response(r, [MarginalCostBot(0), MarginalCostBot(0)])
    >>> 1 / 3 < sol.value <= 1
    True
    """
    rules = _check_rules(rules)
    opponents = _check_policies(opponents, "opponents")
    n = check_players(len(opponents) + 1, rules)
    seat = check_seat(seat, n)
    policies: list[Any] = [*opponents[:seat], None, *opponents[seat:]]
    return _policy_solution(rules, policies, seat, objective, first_player, max_positions)


def evaluate(
    rules: Rules,
    policies: Sequence[Any],
    objective: str = "win",
    *,
    first_player: int = 0,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> tuple[float, ...]:
    """Exact value of every seat at the start of a round when each seat plays its policy.

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> r = Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1),))
    >>> v = evaluate(r, [MarginalCostBot(0), MarginalCostBot(0)])
    >>> round(sum(v), 12)
    1.0
    """
    rules = _check_rules(rules)
    policies = _check_policies(policies, "policies")
    check_players(len(policies), rules)
    sol = _policy_solution(rules, policies, None, objective, first_player, max_positions)
    return tuple(sol._engine.start_values)


@dataclass(frozen=True)
class Exploitability:
    """What a best response wins against a fixed policy at a two-seat table.

    Perfect play cannot be exploited: a best response to it wins the game's value in each seat,
    on average over the two seats one half (``"win"``) or nothing (``"margin"``). `gap` is how
    much more a best response takes from the policy: 0 for perfect play, larger the further
    the policy is from it.
    """

    objective: str
    """``"win"`` or ``"margin"``, as in `best_response`."""
    first: float
    """The best response's value acting first (seat 0), the policy in seat 1."""
    second: float
    """The best response's value acting second (seat 1), the policy in seat 0."""

    @property
    def value(self) -> float:
        """The best response's value averaged over the two seats."""
        return (self.first + self.second) / 2

    @property
    def gap(self) -> float:
        """`value` minus what a best response wins against perfect play (1/2 or 0)."""
        return self.value - (0.5 if self.objective == "win" else 0.0)


def exploitability(
    rules: Rules,
    policy: Any,
    objective: str = "win",
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> Exploitability:
    """How far a policy is from perfect play: a best response against it in either seat.

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> tiny = Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1),))
    >>> ex = exploitability(tiny, MarginalCostBot(0))
    >>> 0 < ex.gap <= 0.5, ex.value == (ex.first + ex.second) / 2
    (True, True)
    """
    rules = _check_rules(rules)
    _check_objective(objective)
    (policy,) = _check_policies([policy], "policy")
    first, second = (
        best_response(rules, [policy], objective, seat, max_positions=max_positions).value
        for seat in (0, 1)
    )
    return Exploitability(objective, first, second)
