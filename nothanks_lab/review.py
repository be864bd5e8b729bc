"""Review of a played round: every decision of one seat, what it cost, and a label.

For each decision the seat made, the position it saw is rebuilt from the round's public
history and handed to :func:`nothanks_lab.analysis.evaluate_position`, which estimates the
expected final score and win chance after Take and after No Thanks! by rollouts over the
face-down cards the seat could not know (the same samples for both moves, so their difference
has a tight paired interval). By default every seat is played out by the package's tuned
heuristic bot (``make_bot("heuristic")``): fast on the compiled rollout loop, and it
punishes what real players punish (it takes a card that completes someone's run, and it milks
a card nobody wants), which the bare ``MarginalCostBot`` does not.

The better move is the one with the lower expected final score. The *cost* of the move played
is the expected points it loses against the better move (0 when it is the better move), with
the 95% interval of the paired difference; the win chance it loses is given beside it. The
label comes from declared thresholds on the cost (:data:`THRESHOLDS`), applied to the *lower
end* of the cost's 95% interval, so rollout noise never brands a move:

=============  =========================================================
label          the cost's 95% interval lies entirely at or above
=============  =========================================================
``good``       (anything less, including the better move itself)
``inaccuracy`` 1 expected point
``mistake``    3 expected points
``blunder``    6 expected points
=============  =========================================================

A forced move (no chip left, so Take is the only legal move) is ``good`` at cost 0. The summary
gives the seat's total expected cost and its accuracy: the share of its real choices (forced
moves left out) labelled ``good``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .analysis import MoveValue, PositionEvaluation, evaluate_position
from .engine import Action, Game, SeedLike, check_seat
from .render.tables import markdown_table, text_table
from .stats import Interval
from .validate import check_int, seed_sequence
from .view import PlayerView

__all__ = ["LABELS", "THRESHOLDS", "MoveReview", "Review", "Thresholds", "review"]

#: The labels, from best to worst.
LABELS = ("good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    """Expected points a move must lose, beyond doubt, to earn each label."""

    inaccuracy: float = 1.0
    """The cost's 95% interval lies at or above this: an inaccuracy."""
    mistake: float = 3.0
    """The cost's 95% interval lies at or above this: a mistake."""
    blunder: float = 6.0
    """The cost's 95% interval lies at or above this: a blunder."""

    def __post_init__(self) -> None:
        values = (self.inaccuracy, self.mistake, self.blunder)
        if not all(isinstance(v, int | float) and math.isfinite(v) for v in values) or not (
            0 < self.inaccuracy <= self.mistake <= self.blunder
        ):
            raise ValueError(
                "thresholds must be finite numbers with 0 < inaccuracy <= mistake <= blunder; "
                f"got {values}"
            )

    def label(self, cost_low: float) -> str:
        """The label of a move whose cost's 95% interval starts at `cost_low`.

        >>> THRESHOLDS.label(0.4), THRESHOLDS.label(3.2), THRESHOLDS.label(12.0)
        ('good', 'mistake', 'blunder')
        """
        if cost_low >= self.blunder:
            return "blunder"
        if cost_low >= self.mistake:
            return "mistake"
        if cost_low >= self.inaccuracy:
            return "inaccuracy"
        return "good"


#: The declared thresholds every review uses unless given others.
THRESHOLDS = Thresholds()
#: The registered bot that plays every seat of the rollouts unless told otherwise.
ROLLOUT_BOT = "linear"
#: Rollouts per move when a decision's label is not settled by the first quarter of them.
DEFAULT_ROLLOUTS = 8000

_ZERO = Interval(0.0, 0.0, 0.0, 0)


@dataclass(frozen=True)
class MoveReview:
    """One decision of the reviewed seat."""

    index: int
    """Position of the move in the round's history (0 = the round's first move)."""
    view: PlayerView
    """The position, as the seat saw it before moving."""
    action: Action
    """The move played."""
    best: Action
    """The better move: the lower expected final score (the played move when forced)."""
    take: MoveValue
    """Expected final score and win chance after Take, with 95% intervals."""
    no_thanks: MoveValue | None
    """The same after No Thanks!; None when the seat had no chip (Take forced)."""
    cost_estimate: Interval
    """Expected points the move played loses against the better move, with its 95% interval
    (exactly 0 for the better move)."""
    win_cost: Interval
    """Win chance the move played loses against the better move, with its 95% interval
    (0 for the better move; it may be negative: the move with the lower expected score is not
    always the one that wins most often)."""
    label: str
    """``good``, ``inaccuracy``, ``mistake`` or ``blunder`` (see :class:`Thresholds`)."""

    @property
    def cost(self) -> float:
        """Expected points lost against the better move (>= 0; 0 for the better move)."""
        return self.cost_estimate.value

    @property
    def forced(self) -> bool:
        """True when Take was the only legal move."""
        return self.no_thanks is None

    @property
    def card(self) -> int:
        """The active card decided on."""
        return int(self.view.active_card)  # type: ignore[arg-type]

    @property
    def pot(self) -> int:
        """Chips on it."""
        return self.view.pot

    @property
    def played(self) -> MoveValue:
        """The value of the move played."""
        return self._value(self.action)

    @property
    def better(self) -> MoveValue:
        """The value of the better move."""
        return self._value(self.best)

    def _value(self, action: Action) -> MoveValue:
        if action is Action.TAKE or self.no_thanks is None:
            return self.take
        return self.no_thanks

    def to_record(self) -> dict[str, Any]:
        """The decision as one flat row (for tables, CSV and JSON)."""
        played, better = self.played, self.better
        return {
            "move": self.index + 1,
            "card": self.card,
            "pot": self.pot,
            "chips": self.view.my_chips,
            "hand": list(self.view.my_hand),
            "played": self.action.value,
            "best": self.best.value,
            "forced": self.forced,
            "score_played": played.score.value,
            "score_played_low": played.score.low,
            "score_played_high": played.score.high,
            "score_best": better.score.value,
            "score_best_low": better.score.low,
            "score_best_high": better.score.high,
            "win_played": played.win.value,
            "win_played_low": played.win.low,
            "win_played_high": played.win.high,
            "win_best": better.win.value,
            "win_best_low": better.win.low,
            "win_best_high": better.win.high,
            "cost": self.cost,
            "cost_low": self.cost_estimate.low,
            "cost_high": self.cost_estimate.high,
            "win_cost": self.win_cost.value,
            "win_cost_low": self.win_cost.low,
            "win_cost_high": self.win_cost.high,
            "label": self.label,
        }


@dataclass(frozen=True)
class Review:
    """Every decision of one seat in a round, valued by rollouts and labelled."""

    seat: int
    """The reviewed seat."""
    name: str
    """Its name (for titles)."""
    moves: tuple[MoveReview, ...]
    """The seat's decisions, in the order played."""
    thresholds: Thresholds
    """The thresholds the labels come from."""
    n: int
    """Rollouts per move and decision."""
    policy: str
    """The rollout policies, by name."""
    final_score: int | None
    """The seat's final score (None if the round is unfinished)."""
    elapsed_s: float = field(default=0.0, compare=False)
    """Wall-clock time of the review."""

    @property
    def total_cost(self) -> Interval:
        """Expected points lost over the round, with a 95% interval (decisions independent)."""
        costs = [m.cost_estimate for m in self.moves]
        total = sum(c.value for c in costs)
        half = math.sqrt(sum(c.half_width**2 for c in costs))
        level = costs[0].level if costs else 0.95
        return Interval(total, max(0.0, total - half), total + half, self.n, level)

    @property
    def choices(self) -> int:
        """Decisions with two legal moves (forced takes left out)."""
        return sum(not m.forced for m in self.moves)

    @property
    def accuracy(self) -> float | None:
        """Share of the real choices labelled ``good`` (None when there was no choice)."""
        real = [m for m in self.moves if not m.forced]
        return sum(m.label == "good" for m in real) / len(real) if real else None

    @property
    def counts(self) -> dict[str, int]:
        """How many decisions earned each label."""
        return {label: sum(m.label == label for m in self.moves) for label in LABELS}

    def to_records(self) -> list[dict[str, Any]]:
        """One flat row per decision."""
        return [m.to_record() for m in self.moves]

    def summary(self) -> str:
        """Total cost, accuracy and the count of each label, in one line."""
        t = self.total_cost
        acc = "n/a" if self.accuracy is None else f"{self.accuracy:.0%}"
        counts = ", ".join(f"{k} {v}" for k, v in self.counts.items())
        final = "" if self.final_score is None else f"final score {self.final_score}; "
        return (
            f"{final}expected cost {t.value:.1f} points [{t.low:.1f}, {t.high:.1f}] over "
            f"{len(self.moves)} decisions ({self.choices} real choices); accuracy {acc}; {counts}"
        )

    def table(self, fmt: str = "text") -> str:
        """The decisions as a table: ``"text"`` (aligned columns) or ``"markdown"``."""
        if fmt not in ("text", "markdown"):
            raise ValueError(f"fmt must be 'text' or 'markdown'; got {fmt!r}")
        head = ["move", "card", "pot", "chips", "played", "best", "E[score] played",
                "E[score] best", "win played", "cost [95%]", "win cost", "label"]  # fmt: skip
        rows = [_row(m) for m in self.moves]
        if fmt == "markdown":
            return markdown_table(head, rows)
        return text_table(head, rows, right=range(len(head)))

    def header(self) -> str:
        """What was reviewed and how."""
        return (
            f"Review of {self.name} (seat {self.seat}): {self.n} rollouts per move, "
            f"{self.policy}; labels from the cost's 95% interval: inaccuracy >= "
            f"{self.thresholds.inaccuracy:g}, mistake >= {self.thresholds.mistake:g}, "
            f"blunder >= {self.thresholds.blunder:g} expected points"
        )

    def __str__(self) -> str:
        return "\n".join([self.header(), self.table(), self.summary()])

    def __repr__(self) -> str:
        return f"<Review seat {self.seat}: {len(self.moves)} decisions; {self.summary()}>"


def _row(m: MoveReview) -> list[str]:
    c, p, b = m.cost_estimate, m.played, m.better
    return [
        str(m.index + 1),
        str(m.card),
        str(m.pot),
        str(m.view.my_chips),
        "Take" if m.action is Action.TAKE else "No Thanks!",
        "Take" if m.best is Action.TAKE else "No Thanks!",
        f"{p.score.value:.1f} ±{p.score.half_width:.1f}",
        f"{b.score.value:.1f} ±{b.score.half_width:.1f}",
        f"{p.win.value:.0%}",
        "forced" if m.forced else f"{c.value:.1f} [{c.low:.1f}, {c.high:.1f}]",
        f"{m.win_cost.value:+.1%}",
        m.label,
    ]


def _policies_name(policy: object, field: object) -> str:
    """Who plays the rollouts, in words."""
    from .bots.specs import short_name as _short_name

    me = _short_name(policy)
    if isinstance(field, Sequence) and not isinstance(field, str):
        others = " / ".join(dict.fromkeys(_short_name(f) for f in field))
    else:
        others = _short_name(field)
    return f"{me} in every seat" if others == me else f"{me} for the seat, {others} for the rest"


def _public_replay(game: Game) -> Game:
    """A fresh round with `game`'s public history and any face-down cards (views are equal)."""
    rules = game.rules
    order = list(dict.fromkeys(e.card for e in game.history))
    rest = [c for c in rules.cards if c not in set(order)]
    deck = (order + rest)[: rules.n_in_play]
    return Game(game.n_players, rules=rules, deck=deck, first_player=game.first_player)


def _judge(
    index: int, view: PlayerView, action: Action, ev: PositionEvaluation, thresholds: Thresholds
) -> MoveReview:
    """Cost and label of `action` in the evaluated position."""
    d, w = ev.score_diff, ev.win_diff
    if d is None or w is None:  # forced take
        return MoveReview(index, view, action, Action.TAKE, ev.take, None, _ZERO, _ZERO, "good")
    best = ev.best
    if action is best:
        cost = Interval(0.0, 0.0, 0.0, d.n, d.level)
        win_cost = Interval(0.0, 0.0, 0.0, w.n, w.level)
    elif action is Action.TAKE:  # Take played, No Thanks! better: cost = take - pass
        cost = Interval(max(0.0, d.value), d.low, d.high, d.n, d.level)
        win_cost = Interval(-w.value, -w.high, -w.low, w.n, w.level)
    else:  # No Thanks! played, Take better: cost = pass - take
        cost = Interval(max(0.0, -d.value), -d.high, -d.low, d.n, d.level)
        win_cost = Interval(w.value, w.low, w.high, w.n, w.level)
    label = "good" if action is best else thresholds.label(cost.low)
    return MoveReview(index, view, action, best, ev.take, ev.no_thanks, cost, win_cost, label)


def _settled(action: Action, ev: PositionEvaluation, thresholds: Thresholds) -> bool:
    """Whether more rollouts could not change the label of `action` (forced: always settled).

    The cost of the move played against the other move lies, with 95% confidence, in an
    interval; the label is settled when both ends of that interval earn the same label.
    """
    d = ev.score_diff
    if d is None:
        return True
    low, high = (d.low, d.high) if action is Action.TAKE else (-d.high, -d.low)
    return thresholds.label(max(low, 0.0)) == thresholds.label(max(high, 0.0))


def review(
    game: Game,
    seat: int,
    *,
    seed: SeedLike = None,
    policy: object | None = None,
    field: object | Sequence[object] | None = None,
    n: int = DEFAULT_ROLLOUTS,
    n_first: int | None = None,
    thresholds: Thresholds | None = None,
    name: str | None = None,
) -> Review:
    """Review every decision `seat` made in `game` (finished or not).

    Each decision's position is valued by :func:`~nothanks_lab.analysis.evaluate_position`:
    first with `n_first` rollouts per move (default ``n // 4``), and when those cannot settle
    the label (the cost's interval straddles a threshold) again with `n` fresh rollouts, which
    are then the ones reported. The rollouts play `policy` for the seat and `field` for the
    others (both ``make_bot("linear")``, the package's strongest compiled bot, by default).
    `seed` makes the review reproducible (independent streams per decision). Labels follow
    `thresholds` (default :data:`THRESHOLDS`, see the module docstring).

    >>> g = Game(3, deck=[35, *range(3, 26)])
    >>> g.step(Action.TAKE)          # the 35 on an empty pot, first move of the round
    >>> r = review(g, 0, seed=1, n=2000)
    >>> [(m.card, m.action.name, m.best.name, m.label) for m in r.moves]
    [(35, 'TAKE', 'PASS', 'blunder')]
    """
    if not isinstance(game, Game):
        raise ValueError(f"game must be a nothanks_lab.Game; got {type(game).__name__}")
    seat = check_seat(seat, game.n_players)
    thresholds = THRESHOLDS if thresholds is None else thresholds
    if not isinstance(thresholds, Thresholds):
        raise ValueError(f"thresholds must be a review.Thresholds; got {thresholds!r}")
    n = check_int(n, "n", low=2)
    n_first = max(2, n // 4) if n_first is None else check_int(n_first, "n_first", low=2, high=n)
    if name is not None and not isinstance(name, str):
        raise ValueError(f"name must be a string or None; got {name!r}")
    if policy is None or field is None:
        from .bots import make_bot

        policy = make_bot(ROLLOUT_BOT) if policy is None else policy
        field = make_bot(ROLLOUT_BOT) if field is None else field
    start = time.perf_counter()
    history = game.history
    mine = [i for i, e in enumerate(history) if e.seat == seat]
    streams = seed_sequence(seed).spawn(len(mine))
    replay = _public_replay(game)
    moves: list[MoveReview] = []
    for i, event in enumerate(history):
        if event.seat == seat:
            view = replay.view(seat)
            first, second = streams[len(moves)].spawn(2)
            ev = evaluate_position(view, policy, field=field, n=int(n_first), seed=first)
            if n_first < n and not _settled(event.action, ev, thresholds):
                ev = evaluate_position(view, policy, field=field, n=n, seed=second)
            moves.append(_judge(i, view, event.action, ev, thresholds))
        replay.step(event.action)
    return Review(
        seat=seat,
        name=f"Seat {seat}" if name is None else name,
        moves=tuple(moves),
        thresholds=thresholds,
        n=n,
        policy=_policies_name(policy, field),
        final_score=game.scores()[seat] if game.is_over else None,
        elapsed_s=time.perf_counter() - start,
    )
