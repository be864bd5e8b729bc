"""Perfect play on small decks: No Thanks! solved exactly by backward induction.

Every seat sees the same things (the removed cards and the deck order are hidden from all
alike), so a position is fully described by what is public: every seat's hand and chips, the
pot, the face-up card and the seat to act; the next card turned is equally likely to be any
unseen card. For a small deck the whole round is therefore a finite game with chance nodes,
solved here exactly.

`solve` handles two seats playing perfectly against each other (a zero-sum game for both
objectives). It memoises only the positions right after a take (pot empty, the taker about to
see a fresh card: the chance nodes), which are some 30 times fewer than the decision positions;
the passes around one card are a short chain solved backwards on the fly each time a chance
node is expanded. The memo is a dense array indexed by a base-3 digit per card (unseen, seat 0,
seat 1), the chips of seat 0 and the seat to act, filled by a numba-compiled depth-first search.

`best_response` handles any number of seats: the best play of one seat against fixed policies
at the others, an exact single-agent problem, solved in plain Python with a dict memo over the
same chance nodes (the policies are Python objects, asked through their `PlayerView`), and
`evaluate` is its sibling with every seat fixed. Both keep the value of every seat, so
`value_of` answers for any seat's view.

Objectives: ``"win"`` values a position by the chance of winning (a tie among k seats counts
1/k, as ``win_share`` does); ``"margin"`` by the expected score margin, the best rival's score
minus mine (for two seats: the other seat's score minus mine).

For the lessons: `decision_views` lists every decision position of a rule set, `after_pass`
moves a view on past a No Thanks!, and `exploitability` measures how far a policy is from
perfect play (what a best response wins against it in either seat).

>>> import nothanks_lab as nt
>>> tiny = nt.Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1),))
>>> sol = solve(tiny)
>>> round(sol.value, 6), sol.n_positions
(0.2, 621)
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numba
import numpy as np

from .engine import Action
from .rules import Rules
from .view import PlayerView

__all__ = [
    "OBJECTIVES",
    "Exploitability",
    "PerfectBot",
    "Solution",
    "after_pass",
    "best_response",
    "decision_views",
    "estimate_memory",
    "evaluate",
    "exploitability",
    "solve",
]

#: The values a position can be measured in.
OBJECTIVES = ("win", "margin")
_WIN, _MARGIN = 0, 1

#: Default ceiling on the memory of `solve`'s memo (bytes); larger rule sets are refused.
DEFAULT_MAX_MEMORY = 8 * 2**30
#: Default ceiling on the chance nodes `best_response` and `evaluate` may memoise (plain Python).
DEFAULT_MAX_POSITIONS = 3_000_000

# Layout of the int64 configuration array handed to the compiled search.
_CFG_N, _CFG_LOW, _CFG_IN_PLAY, _CFG_TOTAL, _CFG_OBJECTIVE = range(5)
# Counters the compiled search updates.
_STAT_NODES, _STAT_DECISIONS = range(2)


# --------------------------------------------------------------------------- compiled search
@numba.njit(cache=True)
def _points(mask: int, low: int, n: int) -> int:
    """Card points of a hand mask relative to `low` (bit i = card low + i)."""
    total = 0
    prev = 0
    for i in range(n):
        bit = (mask >> i) & 1
        if bit and not prev:
            total += low + i
        prev = bit
    return total


@numba.njit(cache=True)
def _terminal(h0: int, h1: int, c0: int, c1: int, seat: int, cfg: np.ndarray) -> float:
    """Value of a finished round to `seat`."""
    s0 = _points(h0, cfg[_CFG_LOW], cfg[_CFG_N]) - c0
    s1 = _points(h1, cfg[_CFG_LOW], cfg[_CFG_N]) - c1
    mine, theirs = (s0, s1) if seat == 0 else (s1, s0)
    if cfg[_CFG_OBJECTIVE] == _MARGIN:
        return float(theirs - mine)
    if mine < theirs:
        return 1.0
    return 0.5 if mine == theirs else 0.0


# Not cached on disk: numba's cache of this recursive function loads into a crash (numba 0.6x),
# so it compiles (a few seconds) on the first solve of each process.
@numba.njit
def _value(
    memo: np.ndarray,
    stats: np.ndarray,
    pow3: np.ndarray,
    cfg: np.ndarray,
    h0: int,
    h1: int,
    idx: int,
    c0: int,
    c1: int,
    pot: int,
    actor: int,
    card: int,
) -> float:
    """Value to `actor` of a position, both seats playing perfectly.

    With ``card < 0`` the position is a chance node (pot empty, `actor` about to see a card
    drawn uniformly from the unseen ones), memoised in `memo`; otherwise `actor` decides on
    `card` with `pot` on it, and the chain of passes around that card is solved backwards.
    Hands `h0`, `h1` are masks relative to the lowest card, `idx` their base-3 index.
    """
    total = cfg[_CFG_TOTAL]
    win = cfg[_CFG_OBJECTIVE] == _WIN
    if card < 0:
        key = (idx * (total + 1) + c0) * 2 + actor
        v = memo[key]
        if v == v:
            return v
        taken = h0 | h1
        n_taken = 0
        for i in range(cfg[_CFG_N]):
            n_taken += (taken >> i) & 1
        if n_taken == cfg[_CFG_IN_PLAY]:
            v = _terminal(h0, h1, c0, c1, actor, cfg)
        else:
            acc = 0.0
            m = 0
            for i in range(cfg[_CFG_N]):
                if not (taken >> i) & 1:
                    acc += _value(memo, stats, pow3, cfg, h0, h1, idx, c0, c1, 0, actor, i)
                    m += 1
            v = acc / m
        memo[key] = v
        stats[_STAT_NODES] += 1
        return v
    # The chain of passes on `card`: at step k the actor is `actor` for even k and the other
    # seat for odd k; it ends at the first step whose actor has no chip (a forced take).
    ca, cb = (c0, c1) if actor == 0 else (c1, c0)
    last = min(2 * ca, 2 * cb + 1)
    stats[_STAT_DECISIONS] += last + 1
    bit = np.int64(1) << card
    v = 0.0
    for k in range(last, -1, -1):
        paid_a = (k + 1) // 2
        paid_b = k // 2
        s0, s1 = (c0 - paid_a, c1 - paid_b) if actor == 0 else (c0 - paid_b, c1 - paid_a)
        taker = actor if k % 2 == 0 else 1 - actor
        gain = pot + k
        if taker == 0:
            nh0, nh1, nidx, ns0, ns1 = h0 | bit, h1, idx + pow3[card], s0 + gain, s1
        else:
            nh0, nh1, nidx, ns0, ns1 = h0, h1 | bit, idx + 2 * pow3[card], s0, s1 + gain
        take = memo[(nidx * (total + 1) + ns0) * 2 + taker]
        if take != take:
            take = _value(memo, stats, pow3, cfg, nh0, nh1, nidx, ns0, ns1, 0, taker, -1)
        if k == last:
            v = take
        else:
            after_pass = 1.0 - v if win else -v
            v = take if take >= after_pass else after_pass
    return v


_compiled = False


def _compile() -> None:
    """Compile the search once per process (on a one-card deck), so solving is timed alone."""
    global _compiled
    if not _compiled:
        rules = Rules(low_card=1, high_card=2, n_removed=1, chips=((2, 0),))
        _TwoPlayerEngine(rules, _WIN, DEFAULT_MAX_MEMORY).start(0)
        _compiled = True


# --------------------------------------------------------------------------- checks
def _check_rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nothanks_lab.Rules; got {type(rules).__name__}")
    return rules


def _check_objective(objective: object) -> int:
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}; got {objective!r}")
    return OBJECTIVES.index(objective)


def _check_n_players(rules: Rules, n_players: object) -> int:
    if isinstance(n_players, bool) or not isinstance(n_players, int | np.integer):
        raise ValueError(f"n_players must be an int; got {n_players!r}")
    rules.starting_chips(int(n_players))  # ValueError naming the allowed counts
    return int(n_players)


def estimate_memory(rules: Rules, n_players: int = 2) -> int:
    """Bytes of the memo `solve` allocates for `rules` (two players).

    >>> estimate_memory(Rules(low_card=3, high_card=14, n_removed=3, chips=((2, 4),)))
    76527504
    """
    total = n_players * rules.starting_chips(n_players)
    return 3**rules.n_cards * (total + 1) * 2 * 8


# --------------------------------------------------------------------------- solutions
@dataclass
class Solution:
    """The exact solution of a rule set: values and perfect moves of every public position.

    Made by `solve` (both seats perfect) or `best_response` (one seat perfect against fixed
    policies). `value` is the first player's value at the start of a round averaged over every
    deal (`solve`) or the responding seat's (`best_response`).
    """

    rules: Rules
    """The solved rule set."""
    n_players: int
    """Seats at the table."""
    objective: str
    """``"win"`` (chance of winning, ties shared) or ``"margin"`` (best rival's score minus
    mine)."""
    value: float
    """Value of the start of a round (before the first card is turned), see the class doc."""
    n_positions: int
    """Chance nodes (positions right after a take, and the start) solved and memoised."""
    n_decisions: int
    """Decision positions evaluated while solving (each chance node's chains of passes)."""
    seconds: float
    """Time taken to solve (compiling aside)."""
    memory_bytes: int
    """Memory held by the memo."""
    seat: int | None = None
    """The responding seat (`best_response`); None for `solve`."""
    first_player: int = 0
    """The seat that acts first in the rounds `value` describes."""
    _engine: Any = field(default=None, repr=False)

    def _check_view(self, view: object) -> PlayerView:
        if not isinstance(view, PlayerView):
            raise ValueError(f"view must be a PlayerView; got {type(view).__name__}")
        if view.rules != self.rules or view.n_players != self.n_players:
            raise ValueError(
                f"view is of a {view.n_players}-player round with {view.rules}; this solution "
                f"is of {self.n_players} players with {self.rules}"
            )
        return view

    def value_of(self, view: PlayerView) -> float:
        """Value of the view's position to the view's seat, under this solution's play."""
        view = self._check_view(view)
        return float(self._engine.value_of(view))

    def action_values(self, view: PlayerView) -> dict[Action, float]:
        """Value of each legal move to the seat to act (which must be the view's seat)."""
        view = self._check_view(view)
        if not view.is_my_turn:
            raise ValueError(f"view: seat {view.seat} is not to act; there is no move to value")
        return self._engine.action_values(view)

    def action(self, view: PlayerView) -> Action:
        """A perfect move in the view's position (take when both moves are worth the same)."""
        values = self.action_values(view)
        if self.seat is not None and view.seat != self.seat:
            raise ValueError(
                f"view: this best response plays seat {self.seat}; seat {view.seat} follows "
                "its fixed policy"
            )
        if Action.PASS in values and values[Action.PASS] > values[Action.TAKE]:
            return Action.PASS
        return Action.TAKE

    def bot(self) -> PerfectBot:
        """A policy playing this solution's perfect moves (at a table of the solved rules)."""
        return PerfectBot(self)

    @property
    def positions_per_second(self) -> float:
        """Decision positions evaluated per second of solving."""
        return self.n_decisions / self.seconds if self.seconds > 0 else float("inf")


class PerfectBot:
    """Plays a `Solution`'s perfect moves; `ValueError` at a table of other rules."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution

    @property
    def name(self) -> str:
        """Short name for tables and logs."""
        s = self.solution
        who = "perfect" if s.seat is None else f"best response (seat {s.seat})"
        return f"PerfectBot({who}, {s.objective})"

    def act(self, view: PlayerView) -> Action:
        """The solution's perfect move for the view's seat."""
        return self.solution.action(view)

    def __repr__(self) -> str:
        return self.name


# --------------------------------------------------------------------------- two-player solver
class _TwoPlayerEngine:
    """The compiled solver's memo and the calls that read positions from it."""

    def __init__(self, rules: Rules, objective: int, max_memory: int) -> None:
        n = rules.n_cards
        chips = rules.starting_chips(2)
        self.rules = rules
        self.objective = objective
        self.total = 2 * chips
        need = estimate_memory(rules, 2)
        if need > max_memory:
            raise ValueError(
                f"rules: cards {rules.low_card}-{rules.high_card} with {chips} chips each need "
                f"{need / 2**30:.1f} GiB of memo, above max_memory={max_memory / 2**30:.1f} GiB; "
                "solve a smaller deck or fewer chips"
            )
        self.memo = np.full(need // 8, np.nan)
        self.stats = np.zeros(2, dtype=np.int64)
        self.pow3 = np.array([3**i for i in range(n)], dtype=np.int64)
        cfg = [0] * 5
        cfg[_CFG_N], cfg[_CFG_LOW], cfg[_CFG_IN_PLAY] = n, rules.low_card, rules.n_in_play
        cfg[_CFG_TOTAL], cfg[_CFG_OBJECTIVE] = self.total, objective
        self.cfg = np.array(cfg, dtype=np.int64)

    def run(self, h0: int, h1: int, c0: int, c1: int, pot: int, actor: int, card: int) -> float:
        idx = sum(self.pow3[i] for i in range(self.rules.n_cards) if (h0 >> i) & 1)
        idx += sum(2 * self.pow3[i] for i in range(self.rules.n_cards) if (h1 >> i) & 1)
        args = (h0, h1, int(idx), c0, c1, pot, actor, card)
        return float(_value(self.memo, self.stats, self.pow3, self.cfg, *args))

    def start(self, first_player: int) -> float:
        c = self.total // 2
        return self.run(0, 0, c, c, 0, first_player, -1)

    def _other(self, v: float) -> float:
        return 1.0 - v if self.objective == _WIN else -v

    def _position(self, view: PlayerView) -> tuple[int, int, int, int]:
        low = self.rules.low_card
        h0, h1 = (m >> low for m in view.hand_masks)
        return h0, h1, view.chips[0], view.chips[1]

    def value_of(self, view: PlayerView) -> float:
        h0, h1, c0, c1 = self._position(view)
        if view.is_over:
            return float(_terminal(h0, h1, c0, c1, view.seat, self.cfg))
        actor = view.current_player
        assert actor is not None and view.active_card is not None  # not over
        v = self.run(h0, h1, c0, c1, view.pot, actor, view.active_card - self.rules.low_card)
        return v if actor == view.seat else self._other(v)

    def action_values(self, view: PlayerView) -> dict[Action, float]:
        h0, h1, c0, c1 = self._position(view)
        seat = view.seat
        card = view.active_card - self.rules.low_card  # type: ignore[operator]
        hands = [h0, h1]
        chips = [c0, c1]
        hands[seat] |= 1 << card
        chips[seat] += view.pot
        out = {Action.TAKE: self.run(hands[0], hands[1], chips[0], chips[1], 0, seat, -1)}
        if view.my_chips > 0:
            chips = [c0, c1]
            chips[seat] -= 1
            nxt = self.run(h0, h1, chips[0], chips[1], view.pot + 1, 1 - seat, card)
            out[Action.PASS] = self._other(nxt)
        return out


def solve(
    rules: Rules,
    n_players: int = 2,
    objective: str = "win",
    *,
    first_player: int = 0,
    max_memory: int = DEFAULT_MAX_MEMORY,
    engine: str = "compiled",
) -> Solution:
    """Solve a two-player rule set exactly: both seats playing perfectly.

    `value` is the first player's value at the start of a round, averaged over every deal.
    The memo takes `estimate_memory` bytes; rule sets needing more than `max_memory` are a
    `ValueError`. ``engine="python"`` solves with the plain-Python search of `best_response`
    instead of the compiled one (the same values; for tiny decks and for checking).

    >>> r = Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1),))
    >>> sol = solve(r, objective="margin")
    >>> round(sol.value, 4)
    -1.7
    """
    rules = _check_rules(rules)
    n_players = _check_n_players(rules, n_players)
    if n_players != 2:
        raise ValueError(
            f"n_players must be 2 for solve (a zero-sum game); got {n_players}; "
            "use best_response for more seats"
        )
    obj = _check_objective(objective)
    if first_player not in (0, 1):
        raise ValueError(f"first_player must be 0 or 1; got {first_player!r}")
    if engine == "python":
        return _policy_solution(
            rules, [None, None], None, objective, first_player, DEFAULT_MAX_POSITIONS
        )
    if engine != "compiled":
        raise ValueError(f"engine must be 'compiled' or 'python'; got {engine!r}")
    search = _TwoPlayerEngine(rules, obj, max_memory)
    _compile()
    started = time.perf_counter()
    value = search.start(first_player)
    seconds = time.perf_counter() - started
    return Solution(
        rules=rules,
        n_players=2,
        objective=objective,
        value=value,
        n_positions=int(search.stats[_STAT_NODES]),
        n_decisions=int(search.stats[_STAT_DECISIONS]),
        seconds=seconds,
        memory_bytes=search.memo.nbytes,
        first_player=first_player,
        _engine=search,
    )


# --------------------------------------------------------------------------- n-player, policies
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
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...], int], tuple[float, ...]] = {}
        self.n_decisions = 0
        self.start_values: tuple[float, ...] = ()
        self.low = rules.low_card
        self.full = (1 << rules.n_cards) - 1

    # ---- terminal values and policy questions
    def terminal(self, hands: tuple[int, ...], chips: tuple[int, ...]) -> tuple[float, ...]:
        scores = [
            _points(h, self.low, self.rules.n_cards) - c for h, c in zip(hands, chips, strict=True)
        ]
        if self.objective == _WIN:
            best = min(scores)
            k = scores.count(best)
            return tuple(1.0 / k if s == best else 0.0 for s in scores)
        out = []
        for p, s in enumerate(scores):
            rival = min(x for q, x in enumerate(scores) if q != p)
            out.append(float(rival - s))
        return tuple(out)

    def view(
        self,
        seat: int,
        hands: tuple[int, ...],
        chips: tuple[int, ...],
        pot: int,
        actor: int | None,
        card: int | None,
    ) -> PlayerView:
        r = self.rules
        cards = tuple(
            tuple(r.low_card + i for i in range(r.n_cards) if (h >> i) & 1) for h in hands
        )
        n_taken = sum(len(c) for c in cards)
        return PlayerView(
            seat=seat,
            n_players=self.n,
            active_card=None if card is None else r.low_card + card,
            pot=pot,
            my_chips=chips[seat],
            chips=chips,
            hands=cards,
            cards_left=0 if card is None else r.n_in_play - n_taken - 1,
            rules=r,
            current_player=actor,
        )

    def p_take(self, view: PlayerView) -> float:
        if not view.can_pass:
            return 1.0
        policy = self.policies[view.seat]
        ask = getattr(policy, "take_probability", None)
        if callable(ask):
            p = float(ask(view))
        else:
            from .bots.simple import RandomBot

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
    def node(self, hands: tuple[int, ...], chips: tuple[int, ...], actor: int) -> tuple[float, ...]:
        key = (hands, chips, actor)
        got = self.memo.get(key)
        if got is not None:
            return got
        taken = 0
        for h in hands:
            taken |= h
        if bin(taken).count("1") == self.rules.n_in_play:
            out = self.terminal(hands, chips)
        else:
            acc = [0.0] * self.n
            m = 0
            for i in range(self.rules.n_cards):
                if not (taken >> i) & 1:
                    v = self.chain(hands, chips, 0, actor, i)
                    acc = [a + b for a, b in zip(acc, v, strict=True)]
                    m += 1
            out = tuple(a / m for a in acc)
        if len(self.memo) >= self.max_positions:
            raise ValueError(
                f"rules: more than max_positions={self.max_positions:,} positions to solve; "
                "choose a smaller deck or fewer chips"
            )
        self.memo[key] = out
        return out

    def take(
        self, hands: tuple[int, ...], chips: tuple[int, ...], pot: int, actor: int, card: int
    ) -> tuple[float, ...]:
        new_hands = tuple(h | (1 << card) if p == actor else h for p, h in enumerate(hands))
        new_chips = tuple(c + pot if p == actor else c for p, c in enumerate(chips))
        return self.node(new_hands, new_chips, actor)

    def decide(
        self,
        hands: tuple[int, ...],
        chips: tuple[int, ...],
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
        p = self.p_take(self.view(actor, hands, chips, pot, actor, card))
        if p == 1.0:
            return take
        if p == 0.0:
            return pass_
        return tuple(p * a + (1.0 - p) * b for a, b in zip(take, pass_, strict=True))

    def chain(
        self, hands: tuple[int, ...], chips: tuple[int, ...], pot: int, actor: int, card: int
    ) -> tuple[float, ...]:
        """Values of the decision on `card`, passes going round until someone takes."""
        steps = []
        cur = list(chips)
        a = actor
        while True:
            steps.append((tuple(cur), pot, a))
            if cur[a] == 0:
                break
            cur[a] -= 1
            pot += 1
            a = a + 1 if a + 1 < self.n else 0
        self.n_decisions += len(steps)
        v: tuple[float, ...] | None = None
        for ch, q, who in reversed(steps):
            v = self.decide(hands, ch, q, who, card, self.take(hands, ch, q, who, card), v)
        assert v is not None
        return v

    # ---- reading positions
    def _position(self, view: PlayerView) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return tuple(m >> self.low for m in view.hand_masks), tuple(view.chips)

    def value_of(self, view: PlayerView) -> float:
        hands, chips = self._position(view)
        if view.is_over:
            return self.terminal(hands, chips)[view.seat]
        assert view.current_player is not None and view.active_card is not None
        card = view.active_card - self.low
        return self.chain(hands, chips, view.pot, view.current_player, card)[view.seat]

    def action_values(self, view: PlayerView) -> dict[Action, float]:
        hands, chips = self._position(view)
        seat = view.seat
        card = view.active_card - self.low  # type: ignore[operator]
        out = {Action.TAKE: self.take(hands, chips, view.pot, seat, card)[seat]}
        if view.my_chips > 0:
            paid = tuple(c - 1 if p == seat else c for p, c in enumerate(chips))
            nxt = seat + 1 if seat + 1 < self.n else 0
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
    if not 0 <= first_player < n:
        raise ValueError(f"first_player must be in 0..{n - 1}; got {first_player!r}")
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

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> r = Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1), (3, 1)))
    >>> sol = best_response(r, [MarginalCostBot(0), MarginalCostBot(0)])
    >>> 1 / 3 < sol.value <= 1
    True
    """
    rules = _check_rules(rules)
    opponents = _check_policies(opponents, "opponents")
    n = _check_n_players(rules, len(opponents) + 1)
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < n:
        raise ValueError(f"seat must be an int in 0..{n - 1}; got {seat!r}")
    policies: list[Any] = [*opponents[:seat], None, *opponents[seat:]]
    return _policy_solution(rules, policies, int(seat), objective, first_player, max_positions)


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
    _check_n_players(rules, len(policies))
    sol = _policy_solution(rules, policies, None, objective, first_player, max_positions)
    return tuple(sol._engine.start_values)


# --------------------------------------------------------------------------- for the lessons
def decision_views(
    rules: Rules,
    n_players: int = 2,
    *,
    first_player: int = 0,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> list[PlayerView]:
    """Every decision position reachable from the start of a round, as the acting seat's view.

    Either move may be played anywhere, so these are the positions of every possible round
    (forced takes included), each once, in order of cards taken (the first decisions first).

    >>> tiny = Rules(low_card=1, high_card=3, n_removed=1, chips=((2, 1),))
    >>> views = decision_views(tiny)
    >>> len(views), views[0].active_card, views[0].pot, views[0].can_pass
    (51, 1, 0, True)
    """
    rules = _check_rules(rules)
    n = _check_n_players(rules, n_players)
    if not 0 <= first_player < n:
        raise ValueError(f"first_player must be in 0..{n - 1}; got {first_player!r}")
    engine = _PolicyEngine(rules, [None] * n, None, _WIN, max_positions)
    start = ((0,) * n, (rules.starting_chips(n),) * n, first_player)
    queue = deque([start])  # breadth first: chance nodes in order of cards taken
    queued = {start}
    out: list[PlayerView] = []
    while queue:
        hands, chips, actor = queue.popleft()
        taken = 0
        for h in hands:
            taken |= h
        if bin(taken).count("1") == rules.n_in_play:
            continue
        for card in range(rules.n_cards):
            if (taken >> card) & 1:
                continue
            cur, seat, pot = list(chips), actor, 0
            while True:  # the chain of passes on `card`, each step a decision
                out.append(engine.view(seat, hands, tuple(cur), pot, seat, card))
                took = tuple(h | (1 << card) if p == seat else h for p, h in enumerate(hands))
                gained = tuple(c + pot if p == seat else c for p, c in enumerate(cur))
                node = (took, gained, seat)
                if node not in queued:
                    if len(queued) >= max_positions:
                        raise ValueError(
                            f"rules: more than max_positions={max_positions:,} positions; "
                            "choose a smaller deck or fewer chips"
                        )
                    queued.add(node)
                    queue.append(node)
                if cur[seat] == 0:
                    break
                cur[seat] -= 1
                pot += 1
                seat = seat + 1 if seat + 1 < n else 0
    return out


def after_pass(view: PlayerView) -> PlayerView:
    """The position after the seat to act says No Thanks!, as the next seat (to act) sees it.

    >>> from nothanks_lab.analysis import position_view
    >>> v = after_pass(position_view(20, 2, n_players=3))
    >>> v.seat, v.current_player, v.pot, v.chips
    (1, 1, 3, (10, 11, 11))
    """
    if not isinstance(view, PlayerView):
        raise ValueError(f"view must be a PlayerView; got {type(view).__name__}")
    if not view.can_pass:
        raise ValueError(
            f"view: seat {view.seat} cannot say No Thanks! here (not its turn, or no chip)"
        )
    chips = tuple(c - 1 if p == view.seat else c for p, c in enumerate(view.chips))
    nxt = view.seat + 1 if view.seat + 1 < view.n_players else 0
    return replace(
        view, seat=nxt, current_player=nxt, pot=view.pot + 1, chips=chips, my_chips=chips[nxt]
    )


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
