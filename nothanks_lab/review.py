"""Review of a played round: every decision of one seat, what it cost, and a label.

For each decision the seat made, the position it saw is rebuilt from the round's public
history. On a small two-seat deck (:func:`nothanks_lab.analysis.exact_cheap`) it is valued
exactly, under perfect play by both seats from there on (points: the seat's expected score
minus its rival's; :func:`nothanks_lab.analysis.exact_evaluation`). Otherwise it is handed to
:func:`nothanks_lab.analysis.evaluate_position` (the function behind the hints too), which
estimates the expected final score and win chance after Take and after No Thanks! by rollouts
over the face-down cards the seat could not know (the same samples for both moves, so their
difference has a tight paired interval). The rollouts model the table the way the hints do: the
seat itself, and every other seat unless `field` gives the bots that actually sat there
(:func:`nothanks_lab.analysis.rollout_field`), are played by
:func:`nothanks_lab.analysis.advice_policy` (``make_bot("linear")``, the package's strongest
compiled bot: it punishes what real players punish, such as letting a card that completes
someone's run go round).

Rollouts come in doubling batches (500, 1,000, 2,000, ... up to `n` per move) and stop as soon
as the label can no longer change (a sequential stopping rule), so a clear decision costs a few
hundred rollouts. A close call, whose cost lies so near a threshold that even `n` rollouts would
most likely leave its interval across it, stops as soon as that is foreseen, from a quarter of
`n` on (:mod:`nothanks_lab.analysis.labels`): its label is the milder one its interval allows,
as it would most likely be at `n`. Without a `seed` the randomness is derived from the round's
public content (the rules, the seats, the moves; see :func:`round_seed`), so the same round gets
the same labels every time, also after ``to_json``/``from_json``.

The better move is the one with the lower expected final score. The *cost* of the move played
is the expected points it loses against the better move (0 when it is the better move), with
the 95% interval of the paired difference; the win chance it loses is given beside it. The
label comes from declared thresholds on the cost (:data:`THRESHOLDS`), applied to the *lower
end* of the cost's 95% interval, so rollout noise never brands a move:

==============  =========================================================
label           the cost's 95% interval lies entirely at or above
==============  =========================================================
``good``        (anything less, including the better move itself)
``inaccuracy``  1 expected point
``mistake``     3 expected points
``blunder``     6 expected points
==============  =========================================================

A forced move (no chip left, so Take is the only legal move) is ``good`` at cost 0. The headline
counts the labels and names the costliest decision; the total cost sums one decision per card
(the costliest on it), since passing a card four times is one card, not four losses; accuracy
is the share of the real choices (forced moves left out) labelled ``good``.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .analysis import (
    MoveValue,
    PositionEvaluation,
    advice_policy,
    describe_players,
    evaluate_position,
    exact_cheap,
    exact_evaluation,
)
from .analysis.labels import (
    DEFAULT_ROLLOUTS,
    FIRST_BATCH,
    LABELS,
    THRESHOLDS,
    Thresholds,
    _beyond_the_budget,
    _settled_diff,
)
from .bots.specs import bot_label
from .engine import Action, Game, SeedLike
from .i18n import _, fmt_decimal, fmt_percent, ngettext
from .render.tables import markdown_table, text_table
from .stats import Interval, fmt_number
from .validate import MAX_SAMPLE_ROWS, check_count, check_int, check_seat, seed_sequence
from .view import PlayerView

__all__ = [
    "LABELS",
    "THRESHOLDS",
    "MoveReview",
    "Review",
    "Thresholds",
    "review",
    "round_seed",
]

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
    score_diff: Interval | None = None
    """Expected score after Take minus after No Thanks!, paired, with its 95% interval (None
    when forced): the quantity `best` comes from, as in the hints."""

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
    """Most rollouts per move and decision (a clear decision stops sooner)."""
    policy: str
    """The rollout policies, by name."""
    final_score: int | None
    """The seat's final score (None if the round is unfinished)."""
    elapsed_s: float = field(default=0.0, compare=False)
    """Wall-clock time of the review."""
    exact: bool = False
    """True when every decision was valued exactly under perfect play (no rollouts)."""

    @property
    def card_costs(self) -> dict[int, MoveReview]:
        """The costliest decision on each card decided on, keyed by card (in playing order)."""
        out: dict[int, MoveReview] = {}
        for m in self.moves:
            if m.card not in out or m.cost > out[m.card].cost:
                out[m.card] = m
        return out

    @property
    def total_cost(self) -> Interval:
        """Expected points lost over the round, one decision per card (the costliest on it),
        with a 95% interval (decisions independent).

        A card passed four times is one card: summing all four costs would count the same
        points up to four times (each later decision re-prices the same card).
        """
        costs = [m.cost_estimate for m in self.card_costs.values()]
        total = sum(c.value for c in costs)
        half = math.sqrt(sum(c.half_width**2 for c in costs))
        confidence = costs[0].confidence if costs else 0.95
        return Interval(total, max(0.0, total - half), total + half, self.n, confidence)

    @property
    def costliest(self) -> MoveReview | None:
        """The decision that lost the most expected points (None when none lost any)."""
        worst = max(self.moves, key=lambda m: m.cost, default=None)
        return worst if worst is not None and worst.cost > 0 else None

    def headline(self) -> str:
        """The review in one line a student reads first.

        For example ``3 mistakes, 1 blunder; the costliest: No Thanks! on 27 (cost 4.1
        points)``; ``all 12 decisions good`` when nothing was labelled worse.
        """
        bad = [(k, v) for k, v in self.counts.items() if k != "good" and v]
        if not self.moves:
            return _("no decisions to review")
        if not bad:
            words = _("all {n} decisions good").format(n=len(self.moves))
        else:
            words = ", ".join(_counted(k, v) for k, v in reversed(bad))
        worst = self.costliest
        if worst is not None and (bad or worst.cost >= 0.5):
            words += _("; the costliest: {move} on {card} (cost {cost} points)").format(
                move=_(str(worst.action)), card=worst.card, cost=fmt_decimal(worst.cost, 1)
            )
        return words

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
        """The headline, then the final score, decisions, accuracy and label counts."""
        acc = _("n/a") if self.accuracy is None else fmt_percent(self.accuracy)
        counts = ", ".join(f"{_(k)} {v}" for k, v in self.counts.items())
        final = (
            ""
            if self.final_score is None
            else _("final score {score}; ").format(score=self.final_score)
        )
        cards = len(self.card_costs)
        # No summed cost here: each decision's cost is measured from its own position, so a sum
        # reads like points lost from the final score, which it is not (`total_cost` keeps it).
        return ngettext(
            "{headline}. {final}{moves} decisions on {cards} card ({choices} real choices); "
            "accuracy {accuracy}; {counts}",
            "{headline}. {final}{moves} decisions on {cards} cards ({choices} real choices); "
            "accuracy {accuracy}; {counts}",
            cards,
        ).format(
            headline=self.headline(),
            final=final,
            moves=len(self.moves),
            cards=cards,
            choices=self.choices,
            accuracy=acc,
            counts=counts,
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
        marks = {k: fmt_number(getattr(self.thresholds, k), "g") for k in LABELS[1:]}
        if self.exact:
            return _(
                "Review of {name} (seat {seat}): exact values under perfect play by both seats "
                "from each position (no rollouts; points are your expected score minus your "
                "rival's); labels from the cost: inaccuracy >= {inaccuracy}, mistake >= "
                "{mistake}, blunder >= {blunder} expected points"
            ).format(name=self.name, seat=self.seat, **marks)
        return _(
            "Review of {name} (seat {seat}): up to {n} rollouts per move (fewer once a label is "
            "settled, or cannot be within {n}), {policy}; labels from the cost's 95% interval: "
            "inaccuracy >= {inaccuracy}, mistake >= {mistake}, blunder >= {blunder} expected "
            "points"
        ).format(name=self.name, seat=self.seat, n=self.n, policy=bot_label(self.policy), **marks)

    def __str__(self) -> str:
        return "\n".join([self.header(), self.table(), self.summary()])

    def __repr__(self) -> str:
        return f"<Review seat {self.seat}: {len(self.moves)} decisions; {self.summary()}>"


def _counted(label: str, count: int) -> str:
    """``3 mistakes``, ``1 blunder``: a review label counted, in the language in use."""
    forms = {
        "good": ngettext("{n} good", "{n} good", count),
        "inaccuracy": ngettext("{n} inaccuracy", "{n} inaccuracies", count),
        "mistake": ngettext("{n} mistake", "{n} mistakes", count),
        "blunder": ngettext("{n} blunder", "{n} blunders", count),
    }
    if label in forms:
        return forms[label].format(n=count)
    plural = label[:-1] + "ies" if label.endswith("y") else label + "s"  # another label
    return f"{count} {label if count == 1 else plural}"


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
        cost = Interval(0.0, 0.0, 0.0, d.n, d.confidence)
        win_cost = Interval(0.0, 0.0, 0.0, w.n, w.confidence)
    elif action is Action.TAKE:  # Take played, No Thanks! better: cost = take - pass
        cost = Interval(max(0.0, d.value), d.low, d.high, d.n, d.confidence)
        win_cost = Interval(-w.value, -w.high, -w.low, w.n, w.confidence)
    else:  # No Thanks! played, Take better: cost = pass - take
        cost = Interval(max(0.0, -d.value), -d.high, -d.low, d.n, d.confidence)
        win_cost = Interval(w.value, w.low, w.high, w.n, w.confidence)
    label = "good" if action is best else thresholds.label(cost.low)
    return MoveReview(
        index, view, action, best, ev.take, ev.no_thanks, cost, win_cost, label, ev.score_diff
    )


def round_seed(game: Game, seat: int) -> np.random.SeedSequence:
    """The randomness of a review without a seed: a hash of the round's public content.

    The rules, the table size, the first seat, every move (seat, card, Take or No Thanks!) and
    the reviewed seat; nothing volatile (names, the face-down deck, the time), so a round saved
    and loaded gets the same seed.
    """
    moves = ";".join(f"{e.seat},{e.card},{e.action.name}" for e in game.history)
    text = f"{game.rules!r}|{game.n_players}|{game.first_player}|{seat}|{moves}"
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return np.random.SeedSequence(int.from_bytes(digest[:16], "little"))


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
    progress: Callable[[int, int], object] | None = None,
    exact: bool = True,
) -> Review:
    """Review every decision `seat` made in `game` (finished or not).

    Each decision's position is valued by :func:`~nothanks_lab.analysis.evaluate_position` in
    doubling batches, `n_first` rollouts per move first (default :data:`FIRST_BATCH`), until
    the label is settled (the cost's interval no longer straddles a threshold), until `n` per
    move would not settle it either (judged from a quarter of `n` on), or `n` per move is
    reached. The rollouts play `policy` for the seat and `field` for the others (one policy,
    or one per seat; both :func:`~nothanks_lab.analysis.advice_policy` by default, as in the
    hints). `seed` fixes the randomness; without one it is derived from the round
    itself (:func:`round_seed`), so the same round always gets the same review. Labels follow
    `thresholds` (default :data:`THRESHOLDS`). `progress(done, total)` is called after each
    decision (``progress(12, 35)``: 12 of 35 decisions reviewed). On a small two-seat deck
    the values are exact instead (perfect play by both seats; see the module), unless `exact`
    is False.

    Parameters
    ----------
    game : Game
        The round, finished or not.
    seat : int
        The seat whose decisions are reviewed.
    seed : int, SeedSequence, Generator or None
        Fixes the rollouts' randomness; None derives it from the round.
    policy, field : object or sequence, optional
        Who plays the seat, and the other seats, in the rollouts.
    n : int
        The most rollouts per move.
    n_first : int, optional
        The rollouts per move of the first batch.
    thresholds : Thresholds, optional
        The cost thresholds of the labels.
    name : str, optional
        The seat's name in the review's headline.
    progress : callable, optional
        Called as ``progress(done, total)`` after each decision.
    exact : bool
        Use exact values where the deck is small enough (default True); False: rollouts.

    Returns
    -------
    Review
        ``.moves``: the seat's decisions in order, each with ``.action``, ``.best``,
        ``.cost`` (>= 0) and ``.label`` (``good``, ``inaccuracy``, ``mistake``, ``blunder``).

    Raises
    ------
    ValueError
        For a `game` that is not a `Game`, a bad seat, seed, rollout count or thresholds.

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
    n = check_count(n, "n", MAX_SAMPLE_ROWS, low=2)  # rollouts per move: bounded work
    first = min(FIRST_BATCH, n) if n_first is None else check_int(n_first, "n_first", low=2, high=n)
    if name is not None and not isinstance(name, str):
        raise ValueError(f"name must be a string or None; got {name!r}")
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be a function (done, total) or None; got {progress!r}")
    if not isinstance(exact, bool):
        raise ValueError(f"exact must be True or False; got {exact!r}")
    policy = advice_policy() if policy is None else policy
    field = policy if field is None else field
    seats = field if isinstance(field, list | tuple) else [field]
    for what, p in [("policy", policy), *(("field", f) for f in seats)]:
        if not callable(getattr(p, "act", None)):
            raise ValueError(
                f"{what} must be a bot (with act(view)), one per seat or None; got {p!r}"
            )
    start = time.perf_counter()
    history = game.history
    mine = [i for i, e in enumerate(history) if e.seat == seat]
    streams = seed_sequence(round_seed(game, seat) if seed is None else seed).spawn(len(mine))
    replay = _public_replay(game)
    moves: list[MoveReview] = []
    for i, event in enumerate(history):
        if event.seat == seat:
            view = replay.view(seat)

            def settled(d: Interval, action: Action = event.action) -> bool:
                return _settled_diff(action, d, thresholds) or _beyond_the_budget(
                    action, d, thresholds, n
                )

            ev = exact_evaluation(view) if exact else None
            ev = ev or evaluate_position(
                view, policy, field=field, n=n, seed=streams[len(moves)], batch=int(first),
                until=settled,
            )  # fmt: skip
            moves.append(_judge(i, view, event.action, ev, thresholds))
            if progress is not None:
                progress(len(moves), len(mine))
        replay.step(event.action)
    return Review(
        seat=seat,
        name=f"Seat {seat}" if name is None else name,
        moves=tuple(moves),
        thresholds=thresholds,
        n=n,
        policy=describe_players(policy, field),
        final_score=game.scores()[seat] if game.is_over else None,
        elapsed_s=time.perf_counter() - start,
        exact=exact and exact_cheap(game.rules, game.n_players),
    )
