"""Position evaluation: what Take and No Thanks! are each worth to the seat to act, here.

A position is a seat's view (from a game, or built from a description by `position_view`).
The value of each move is estimated by rollouts: the face-down cards are sampled from the cards
the seat has not seen, the only thing it does not know (`sample_face_down`); the same samples
serve both moves (common random numbers, so Take − No Thanks! gets a tight paired interval);
and every seat is played out by a rollout policy on the shared playout of
:mod:`nothanks_lab.analysis.rollout`. `evaluate_position` stops at a number of rollouts, a time
budget or an interval width, and returns a `PositionEvaluation` holding each `MoveValue`.
On a deck small enough for the exact solver to be cheap (two seats, a memo of at most
:data:`EXACT_MAX_MEMORY`), `exact_evaluation` gives the exact values under perfect play instead,
and `hint_evaluation` (with `nt.review`) uses them.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

import numpy as np

from ..bots.specs import bot_label, short_name
from ..engine import Action, Game, SeedLike
from ..i18n import _, fmt_decimal, fmt_int, fmt_percent, get_language, ngettext
from ..rules import Rules
from ..stats import Interval, fmt_ends, fmt_share, paired_interval
from ..validate import (
    MAX_SAMPLE_ROWS,
    check_count,
    check_int,
    check_rules,
    check_sequence,
    is_int,
)
from ..view import PlayerView, hypothetical_view, position_state
from .rollout import (
    _mean_estimate,
    _play_out,
    _rng,
    _share_estimate,
    _table,
    _win_shares,
    advice_policy,
)

__all__ = [
    "CLEAR_MARGIN",
    "EXACT_MAX_MEMORY",
    "HINT_ROLLOUTS",
    "MoveValue",
    "PositionEvaluation",
    "PositionSetup",
    "evaluate_position",
    "exact_cheap",
    "exact_evaluation",
    "hint_evaluation",
    "is_clear",
    "position_view",
    "sample_face_down",
    "warm_up",
]


@dataclass(frozen=True)
class MoveValue:
    """What one move is worth to the seat that makes it, estimated by rollouts."""

    action: Action
    """The move."""
    score: Interval
    """Expected final score of the seat after this move (lower is better)."""
    win: Interval
    """The seat's expected win share: 1 for a sole win, 1/k for a tie among k winners."""

    def __str__(self) -> str:
        s, w = self.score, self.win
        return _("{move}: score {score} {ends}, win {win}").format(
            move=_(str(self.action)),
            score=fmt_decimal(s.value, 2),
            ends=fmt_ends(s.low, s.high, ".2f"),
            win=fmt_share(w.value, w.low, w.high),
        )


@dataclass(frozen=True)
class PositionEvaluation:
    """Take versus No Thanks! in one position: each move's value and their difference."""

    seat: int
    """The seat to act, whose score and win chance are estimated."""
    card: int
    """The active card."""
    pot: int
    """Chips on it."""
    take: MoveValue
    """Value of taking."""
    no_thanks: MoveValue | None
    """Value of passing; None when the seat has no chip to pass with."""
    score_diff: Interval | None
    """Expected score after Take minus after No Thanks! (negative: Take is better), paired."""
    win_diff: Interval | None
    """Win chance after Take minus after No Thanks!, paired."""
    n: int
    """Rollouts per move (the same sampled face-down cards for both moves)."""
    policy: str
    """The rollout policies, by name."""
    elapsed_s: float = field(default=0.0, compare=False)
    """Wall-clock time the evaluation took."""
    exact: bool = False
    """True for exact values under perfect play (`exact_evaluation`): then ``score`` is the
    seat's expected score minus its rival's (lower is better), ``win`` the exact win chance, every
    interval has zero width and `n` is 0."""

    @property
    def best(self) -> Action:
        """The move with the lower expected final score (Take when it is the only move)."""
        if self.score_diff is None or self.score_diff.value <= 0:
            return Action.TAKE
        return Action.PASS

    @property
    def confident(self) -> bool:
        """Whether the score difference's 95% interval excludes zero."""
        d = self.score_diff
        return d is None or d.low > 0 or d.high < 0

    def moves(self) -> dict[Action, MoveValue]:
        """Every legal move's value, keyed by move."""
        out = {Action.TAKE: self.take}
        if self.no_thanks is not None:
            out[Action.PASS] = self.no_thanks
        return out

    def __str__(self) -> str:
        head = ngettext(
            "Seat {seat} on card {card} with {pot} chip(s) in the pot:",
            "Seat {seat} on card {card} with {pot} chip(s) in the pot:",
            self.pot,
        )
        lines = [head.format(seat=self.seat, card=self.card, pot=self.pot)]
        lines += [f"  {m}" for m in self.moves().values()]
        d = self.score_diff
        if d is None:
            lines.append("  " + _("No chips left: Take is forced."))
        else:
            best = _(str(self.best))
            verdict = _("clearly {move}") if self.confident else _("perhaps {move}")
            lines.append(
                "  "
                + _(
                    "Take − No Thanks!: {diff} {ends} points -> by expected score, {verdict}"
                ).format(
                    diff=fmt_decimal(d.value, 2, sign=True),
                    ends=fmt_ends(d.low, d.high, "+.2f"),
                    verdict=verdict.format(move=best),
                )
            )
            w = self.win_diff
            if w is not None and (w.low > 0 or w.high < 0):
                often = Action.TAKE if w.low > 0 else Action.PASS
                if often is not self.best or not self.confident:
                    line = _("but {move} wins more often ({diff} win chance)").format(
                        move=_(str(often)), diff=fmt_percent(w.value, 1, sign=True)
                    )
                    lines.append("  " + line)
        if self.exact:
            lines.append("  " + _("(exact values: both seats play perfectly from here on)"))
            return "\n".join(lines)
        # English keeps Python's plain count (8000); other languages group it (8.000).
        n = str(self.n) if get_language() == "en" else fmt_int(self.n)
        tail = _("({n} rollouts per move, {policy}, {seconds} s)").format(
            n=n, policy=bot_label(self.policy), seconds=fmt_decimal(self.elapsed_s, 2)
        )
        lines.append("  " + tail)
        return "\n".join(lines)

    def __repr__(self) -> str:
        diff = "forced" if self.score_diff is None else f"{self.score_diff.value:+.2f}"
        return (
            f"PositionEvaluation(card={self.card}, pot={self.pot}, best={self.best.name}, "
            f"take-pass={diff}, n={self.n})"
        )


def _widest(scores: dict[bool, list[np.ndarray]], seat: int) -> float:
    """The widest half-width among the moves' mean scores and their paired difference."""
    got = {m: np.concatenate(v)[:, seat] for m, v in scores.items()}
    widths = [_mean_estimate(x).half_width for x in got.values()]
    if len(got) == 2:
        widths.append(paired_interval(got[True], got[False]).half_width)
    return max(math.inf if math.isnan(w) else w for w in widths)  # one rollout: no interval


def _score_diff(scores: dict[bool, list[np.ndarray]], seat: int) -> Interval:
    """The paired Take − No Thanks! expected-score difference of the rollouts so far."""
    return paired_interval(
        np.concatenate(scores[True])[:, seat], np.concatenate(scores[False])[:, seat]
    )


def sample_face_down(view: PlayerView, n: int, rng: np.random.Generator) -> np.ndarray:
    """int64[n, cards_left]: `n` guesses at the face-down cards, in turning order.

    Each row is a uniformly random ordered choice of ``view.cards_left`` of the view's unseen
    cards: exactly what the seat does not know (which unseen cards were removed, and the order).
    """
    unseen = np.array(view.unseen_cards, dtype=np.int64)
    keys = rng.random((n, len(unseen)))
    order = np.argsort(keys, axis=1)[:, : view.cards_left]
    return unseen[order]


def evaluate_position(
    view: PlayerView,
    policy: object | None = None,
    *,
    field: object | Sequence[object] | None = None,
    n: int = 8000,
    seed: SeedLike = None,
    budget_s: float | None = None,
    tol: float | None = None,
    batch: int | None = None,
    until: Callable[[Interval], bool] | None = None,
) -> PositionEvaluation:
    """Expected final score and win chance of Take and of No Thanks! for the seat to act.

    Rollouts sample the face-down cards from what `view` has not seen, play the move, then
    finish the round with `policy` in every seat (`field`, if given, in the other seats; by
    default ``MarginalCostBot(10)``). Both moves share the same samples, so the difference
    Take − No Thanks! has a tight paired interval. Sampling stops at `n` rollouts per move, or
    earlier once `budget_s` seconds have passed or every score interval's half-width is at
    most `tol`, or once `until(score_diff)` holds for the paired Take − No Thanks! difference
    (a sequential stopping rule; at least one batch is always run, and a forced take needs only
    that one). Batches hold 1000 rollouts on the compiled kernel (with `until`, each batch after
    the first is as large as all before it, so the rule looks at 1, 2, 4, ... batches and a clear
    decision stops early); a policy without a compiled decision plays through the engine (a few
    hundred rounds a second) in batches of 8, so give it a `budget_s`. With the same `seed` and
    no `budget_s` the result is the same every time.

    >>> from nothanks_lab import Game
    >>> g = Game(3, deck=range(3, 27))
    >>> ev = evaluate_position(g.view(0), n=500, seed=1)
    >>> ev.best.name, ev.n, ev.take.score.n == ev.no_thanks.score.n == 500
    ('TAKE', 500, True)
    """
    if not isinstance(view, PlayerView):
        raise ValueError(f"view must be a PlayerView; got {type(view).__name__}")
    if view.is_over:
        raise ValueError("the round in this view is over; there is no move to evaluate")
    if not view.is_my_turn:
        raise ValueError(
            f"this view belongs to seat {view.seat}, but seat {view.current_player} is to act; "
            "evaluate the acting seat's view"
        )
    n = check_count(n, "n", MAX_SAMPLE_ROWS, low=2)  # as review's rollouts per move
    if batch is not None:
        batch = check_int(batch, "batch", low=2)
    if budget_s is not None and not budget_s > 0:
        raise ValueError(f"budget_s must be a positive number of seconds or None; got {budget_s!r}")
    if tol is not None and not tol > 0:
        raise ValueError(f"tol must be a positive number of points or None; got {tol!r}")
    start = time.perf_counter()
    table = _table(policy, field, view.seat, view.n_players)
    if batch is None:
        from ..fast import has_fast_path

        batch = 1000 if all(has_fast_path(p) for p in table) else 8
    rng = _rng(seed)
    moves = (True, False) if view.can_pass else (True,)
    seat = view.seat
    scores: dict[bool, list[np.ndarray]] = {m: [] for m in moves}
    done = 0
    while done < n:
        b = min(batch if until is None else max(batch, done), n - done)
        rests = sample_face_down(view, b, rng)
        for take in moves:
            s = position_state(view, rests, take)
            scores[take].append(_play_out(s, table, view.rules))
        done += b
        if budget_s is not None and time.perf_counter() - start >= budget_s:
            break
        if tol is not None and _widest(scores, seat) <= tol:
            break
        if until is not None and (not view.can_pass or until(_score_diff(scores, seat))):
            break
    all_scores = {m: np.concatenate(v) for m, v in scores.items()}
    values = {
        m: MoveValue(
            Action.TAKE if m else Action.PASS,
            _mean_estimate(sc[:, seat]),
            _share_estimate(_win_shares(sc, seat)),
        )
        for m, sc in all_scores.items()
    }
    score_diff = win_diff = None
    if view.can_pass:
        t, p = all_scores[True], all_scores[False]
        score_diff = paired_interval(t[:, seat], p[:, seat])
        win_diff = paired_interval(
            _win_shares(t, seat),
            _win_shares(p, seat),
            shares=True,
        )
    # "LinearBot(defaults)", not every weight (`bot_label` says it to a person).

    names = sorted({short_name(p) for p in table})
    return PositionEvaluation(
        seat=seat,
        card=int(view.active_card),  # type: ignore[arg-type]
        pot=view.pot,
        take=values[True],
        no_thanks=values.get(False),
        score_diff=score_diff,
        win_diff=win_diff,
        n=done,
        policy=" / ".join(names),
        elapsed_s=time.perf_counter() - start,
    )


#: Largest memo of an exact solution (bytes, `nothanks_lab.exact.estimate_memory`) that the
#: hints and the review solve for themselves: two seats on cards 3-12 with 4 chips each
#: (8 MiB) solve both objectives in about 0.5 s of CPU, once per rule set and process;
#: cards 3-13 (24 MiB) took 1.8 s, over the hints' budget of 0.5 s.
EXACT_MAX_MEMORY = 16 * 2**20


@functools.lru_cache(maxsize=8)
def _solved(rules: Rules, objective: str) -> Any:
    """The two-seat exact solution of `rules` for `objective`, solved once per process."""
    from ..exact import solve

    return solve(rules, 2, objective)


def exact_cheap(rules: Rules, n_players: int) -> bool:
    """Whether `exact_evaluation` answers for this table: two seats, a memo of at most
    :data:`EXACT_MAX_MEMORY` bytes.

    >>> exact_cheap(Rules(low_card=3, high_card=10, n_removed=2, chips=((2, 3),)), 2)
    True
    >>> exact_cheap(Rules(), 3)
    False
    """
    from ..exact import estimate_memory

    if n_players != 2 or 2 not in rules.player_counts:
        return False
    return estimate_memory(rules, 2) <= EXACT_MAX_MEMORY


def exact_evaluation(view: PlayerView) -> PositionEvaluation | None:
    """Take versus No Thanks! by perfect play, when the exact solution is cheap; else None.

    For a two-seat table whose rules `exact_cheap` accepts, each move is valued exactly (no
    sampling) under perfect play by both seats from there on: ``score`` is the seat's expected
    final score minus its rival's under play that maximises that margin, ``win`` the chance of
    winning under play that maximises it (ties count 1/2); both intervals have zero width.

    >>> from nothanks_lab import Game, Rules
    >>> g = Game(2, rules=Rules(low_card=3, high_card=10, n_removed=2, chips=((2, 3),)), seed=1)
    >>> ev = exact_evaluation(g.view(0))
    >>> ev.exact, ev.n, ev.take.score.low == ev.take.score.high
    (True, 0, True)
    """
    if not isinstance(view, PlayerView):
        raise ValueError(f"view must be a PlayerView; got {type(view).__name__}")
    if view.is_over or not view.is_my_turn:
        raise ValueError("view: the round is over or another seat is to act; nothing to value")
    if not exact_cheap(view.rules, view.n_players):
        return None
    start = time.perf_counter()
    margin = _solved(view.rules, "margin").action_values(view)
    win = _solved(view.rules, "win").action_values(view)

    def point(x: float) -> Interval:
        return Interval(x, x, x, 0)

    values = {a: MoveValue(a, point(-margin[a]), point(win[a])) for a in margin}
    diff = wdiff = None
    if Action.PASS in values:
        diff = point(margin[Action.PASS] - margin[Action.TAKE])
        wdiff = point(win[Action.TAKE] - win[Action.PASS])
    return PositionEvaluation(
        seat=view.seat,
        card=int(view.active_card),  # type: ignore[arg-type]
        pot=view.pot,
        take=values[Action.TAKE],
        no_thanks=values.get(Action.PASS),
        score_diff=diff,
        win_diff=wdiff,
        n=0,
        policy=_("perfect play (exact)"),
        elapsed_s=time.perf_counter() - start,
        exact=True,
    )


#: Rollouts per move a hint may use at most (it stops earlier once the decision is clear).
HINT_ROLLOUTS = 8000
#: Expected points by which a difference's 95% interval must clear 0 to stop a hint early.
CLEAR_MARGIN = 0.25


def is_clear(diff: Interval, margin: float = 0.0) -> bool:
    """Whether the 95% interval of a Take − No Thanks! difference excludes 0 by `margin`.

    >>> from nothanks_lab.stats import Interval
    >>> is_clear(Interval(-2.0, -3.0, -1.0, 100)), is_clear(Interval(0.5, -0.1, 1.1, 100))
    (True, False)
    """
    return diff.low > margin or diff.high < -margin


def hint_evaluation(
    view: PlayerView,
    field: object | Sequence[object] | None = None,
    *,
    seed: SeedLike = None,
    n: int = HINT_ROLLOUTS,
    budget_s: float | None = None,
) -> PositionEvaluation:
    """Take versus No Thanks! for a hint: the evaluation `nt.review` makes of the same position.

    The seat to act and, unless `field` gives the bots actually at the table (one per seat,
    see :func:`~nothanks_lab.analysis.rollout.rollout_field`), every other seat are played by
    :func:`~nothanks_lab.analysis.rollout.advice_policy`, the model `nt.review` uses too; the
    quantity is the expected final score. Rollouts stop once the difference's 95% interval
    excludes 0 by :data:`CLEAR_MARGIN` points, or at `n` per move (or after `budget_s` seconds,
    if given: then the count depends on the machine). Deterministic for a given `seed`
    without a `budget_s`. On a small deck (`exact_cheap`) the values are exact instead
    (`exact_evaluation`: perfect play by both seats from here on, whoever sits there).
    """
    check_int(n, "n", low=2)
    if isinstance(view, PlayerView) and not view.is_over and view.is_my_turn:
        ev = exact_evaluation(view)
        if ev is not None:
            return ev
    me = advice_policy()
    return evaluate_position(
        view,
        me,
        field=me if field is None else field,
        n=n,
        seed=seed,
        budget_s=budget_s,
        until=lambda d: is_clear(d, CLEAR_MARGIN),
    )


def warm_up(policy: object | None = None) -> None:
    """Compile the rollout loop for `policy` now (about a second, once per session).

    The first evaluation otherwise pays numba's compile time; a UI can call this while the
    page loads so its first hint is as quick as the rest.
    """
    from ..bots import MarginalCostBot

    g = Game(3, deck=range(3, 3 + Rules().n_in_play))
    evaluate_position(g.view(0), policy if policy is not None else MarginalCostBot(10), n=128)


# ------------------------------------------------------------------------ constructed positions
class PositionSetup(TypedDict, total=False):
    """The table around a constructed position: `position_view`'s keywords, each optional.

    Functions that build many positions (such as
    :func:`nothanks_lab.analysis.surfaces.bot_boundary`) take these as ``**setup`` and hand them
    on, so the description of a table is written once, here.
    """

    n_players: int
    """Seats at the table (default 3)."""
    my_chips: int | None
    """Seat 0's chips (default: the rules' start)."""
    other_hands: Sequence[Iterable[int]] | None
    """The other seats' cards, seat 1 first (default: none)."""
    other_chips: Sequence[int] | int | None
    """The other seats' chips: one count for all, or one per seat (default: the start)."""
    rules: Rules | None
    """The rule set (default: the standard game)."""


def position_view(
    card: int,
    pot: int = 0,
    hand: Iterable[int] = (),
    *,
    n_players: int = 3,
    my_chips: int | None = None,
    other_hands: Sequence[Iterable[int]] | None = None,
    other_chips: Sequence[int] | int | None = None,
    rules: Rules | None = None,
) -> PlayerView:
    """A constructed position: seat 0 to act on `card` with `pot` chips on it, holding `hand`.

    The other seats hold `other_hands` (default nothing) and `other_chips` (default the rules'
    start); seat 0 holds `my_chips` (default the start). The face-down deck holds every
    in-play card not yet taken: ``n_in_play - 1 - (cards held)``.

    >>> v = position_view(28, 3, (27, 29))
    >>> v.active_card, v.pot, v.my_hand, v.cards_left
    (28, 3, (27, 29), 21)
    """
    rules = check_rules(rules)
    start = rules.starting_chips(n_players)
    (card,) = rules.check_cards([card], what="card")
    mine = tuple(sorted(rules.check_cards(hand, what="hand")))
    others_in = [()] * (n_players - 1) if other_hands is None else list(other_hands)
    if len(others_in) != n_players - 1:
        raise ValueError(f"other_hands must hold {n_players - 1} hands; got {len(others_in)}")
    others = [tuple(sorted(rules.check_cards(h, what="other_hands"))) for h in others_in]
    held = [*mine, *(c for h in others for c in h)]
    if len(set(held)) != len(held) or card in held:
        raise ValueError(
            f"every card may be held once and the active card {card} by nobody; got hand "
            f"{list(mine)} and other hands {[list(h) for h in others]}"
        )
    left = rules.n_in_play - 1 - len(held)
    if left < 0:
        raise ValueError(
            f"{len(held)} cards held plus the active card exceed the {rules.n_in_play} "
            "in-play cards of a round"
        )
    pot = check_int(pot, "pot", low=0)
    mine_chips = start if my_chips is None else check_int(my_chips, "my_chips", low=0)
    if other_chips is None or is_int(other_chips):
        oc: list[Any] = [start if other_chips is None else other_chips] * (n_players - 1)
    else:
        oc = check_sequence(other_chips, "other_chips", "one whole number or a list of them")
    if len(oc) != n_players - 1 or any(not is_int(c) or c < 0 for c in oc):
        raise ValueError(
            f"other_chips must be one whole number >= 0 or {n_players - 1} of them; "
            f"got {other_chips!r}"
        )
    chips = (mine_chips, *(int(c) for c in oc))
    return hypothetical_view(
        seat=0,
        n_players=n_players,
        active_card=int(card),
        pot=int(pot),
        my_chips=mine_chips,
        chips=chips,
        hands=(mine, *others),
        cards_left=left,
        rules=rules,
        current_player=0,
    )
