"""`solve`: two seats playing perfectly, by the compiled search of `nothanks_lab.exact.kernel`.

Two seats make a zero-sum game for both objectives, so one number per position suffices: the
value to the seat to act. `_TwoPlayerEngine` allocates the kernel's dense memo (its size is
`estimate_memory`, checked against a ceiling before anything is allocated), converts the encoded
positions of `nothanks_lab.exact.positions` into the kernel's arguments (two hand masks, their
base-3 index, the chips of each seat) and reads the values of any view's position and moves back
from it, solving what the memo lacks on demand.
"""

from __future__ import annotations

import time

import numpy as np

from ..engine import Action
from ..rules import Rules
from ..validate import check_int, check_players, check_seat
from ..view import PlayerView
from .kernel import (
    _CFG_IN_PLAY,
    _CFG_LOW,
    _CFG_N,
    _CFG_OBJECTIVE,
    _CFG_TOTAL,
    _STAT_DECISIONS,
    _STAT_NODES,
    _WIN,
    _terminal,
    _value,
)
from .policies import _policy_solution
from .positions import DEFAULT_MAX_POSITIONS, _check_objective, _check_rules, _encode, _pay, _take
from .solution import Solution

#: Default ceiling on the memory of `solve`'s memo (bytes); larger rule sets are refused.
DEFAULT_MAX_MEMORY = 8 * 2**30


def estimate_memory(rules: Rules, n_players: int = 2) -> int:
    """Bytes of the memo `solve` allocates for `rules` (two players).

    >>> estimate_memory(Rules(low_card=3, high_card=14, n_removed=3, chips=((2, 4),)))
    76527504
    """
    total = n_players * rules.starting_chips(n_players)
    positions: int = 3**rules.n_cards
    return positions * (total + 1) * 2 * 8


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

    def value_of(self, view: PlayerView) -> float:
        (h0, h1), (c0, c1) = _encode(view)
        if view.is_over:
            return float(_terminal(h0, h1, c0, c1, view.seat, self.cfg))
        actor = view.current_player
        assert actor is not None and view.active_card is not None  # not over
        v = self.run(h0, h1, c0, c1, view.pot, actor, view.active_card - self.rules.low_card)
        return v if actor == view.seat else self._other(v)

    def action_values(self, view: PlayerView) -> dict[Action, float]:
        hands, chips = _encode(view)
        seat = view.seat
        card = view.active_card - self.rules.low_card  # type: ignore[operator]
        (t0, t1), (k0, k1) = _take(hands, chips, view.pot, seat, card)
        out = {Action.TAKE: self.run(t0, t1, k0, k1, 0, seat, -1)}
        if view.my_chips > 0:
            (p0, p1), nxt = _pay(chips, seat)
            v = self.run(hands[0], hands[1], p0, p1, view.pot + 1, nxt, card)
            out[Action.PASS] = self._other(v)
        return out


_compiled = False


def _compile() -> None:
    """Compile the search once per process (on a one-card deck), so solving is timed alone."""
    global _compiled
    if not _compiled:
        rules = Rules(low_card=1, high_card=2, n_removed=1, chips=((2, 0),))
        _TwoPlayerEngine(rules, _WIN, DEFAULT_MAX_MEMORY).start(0)
        _compiled = True


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

    Parameters
    ----------
    rules : Rules
        A small rule set with a chip count for two players.
    n_players : int
        Must be 2 (use `best_response` for more seats).
    objective : {"win", "margin"}
        ``"win"``: the chance of winning, a tie counting 1/2; ``"margin"``: the other seat's
        score minus mine.
    first_player : int
        The seat that acts first.
    max_memory : int
        The largest memo allowed, in bytes (8 GiB by default).
    engine : {"compiled", "python"}
        The compiled search, or the plain-Python one.

    Returns
    -------
    nothanks_lab.exact.solution.Solution
        ``.value``, ``.value_of(view)``, ``.action(view)``, ``.bot()``, ``.n_positions``.

    Raises
    ------
    ValueError
        For rules without two players, `n_players` other than 2, an unknown objective or
        engine, or a memo larger than `max_memory`.

    >>> r = Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1),))
    >>> sol = solve(r, objective="margin")
    >>> round(sol.value, 4)
    -1.7
    """
    rules = _check_rules(rules)
    n_players = check_players(n_players, rules)
    if n_players != 2:
        raise ValueError(
            f"n_players must be 2 for solve (a zero-sum game); got {n_players}; "
            "use best_response for more seats"
        )
    obj = _check_objective(objective)
    max_memory = check_int(max_memory, "max_memory", low=1)  # bytes: 1e9 is a float, refused
    first_player = check_seat(first_player, 2, "first_player")
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
