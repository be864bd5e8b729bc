"""How much a move, a chip or a card is worth: position evaluation, chip value, trade-off surfaces.

Everything here answers a classroom question with numbers and honest intervals. The value of
Take versus No Thanks! in a position is estimated by rollouts: the face-down cards are sampled
from the cards the seat has not seen (the only thing it does not know), the same samples serve
both moves (common random numbers, so the difference gets a tight interval), and every seat is
played out by a rollout policy. The rollouts run on a small numba loop compiled from the one
rules definition (:func:`nothanks_lab.core.step`) and the bots' shared ``FAST_DECIDE`` functions,
never a re-typed copy of either; a policy without a compiled decision is played out through the
readable engine instead, slower but identical in meaning. The value of a chip is estimated by
paired simulation (the same deals with and without the extra chip). The trade-off surfaces set
the simple bookkeeping of a move (a card's points against the chips it brings) beside what a bot
actually does and what rollouts say.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from . import core
from .engine import Action, Game, SeedLike
from .play import ask, check_policies, policy_name
from .probability import Estimate
from .rules import Rules
from .stats import mean_interval, paired_interval, proportion_interval
from .view import PlayerView, position_state

__all__ = [
    "BotBoundary",
    "ChipValue",
    "MoveValue",
    "PositionEvaluation",
    "TakePassSurface",
    "bot_boundary",
    "break_even_pots",
    "chip_value",
    "default_rollout_policy",
    "evaluate_position",
    "immediate_take_minus_pass",
    "position_view",
    "take_pass_surface",
]


# ------------------------------------------------------------------------ estimates
def _mean_estimate(x: np.ndarray) -> Estimate:
    """Mean of `x` with its Student-t 95% interval (:func:`nothanks_lab.stats.mean_interval`)."""
    return mean_interval(np.asarray(x, dtype=np.float64))


def _proportion_estimate(hits: np.ndarray) -> Estimate:
    """A proportion with scipy's Wilson 95% interval (sound near 0 and 1, unlike the normal one)."""
    hits = np.asarray(hits)
    return proportion_interval(int(np.count_nonzero(hits)), len(hits), method="wilson")


# ------------------------------------------------------------------------ compiled rollouts
def _play_fast(s: core.State, policies: Sequence[object], rules: Rules) -> np.ndarray | None:
    """Finish every round of `s` in the simulator's compiled kernel; None if a policy lacks one.

    :meth:`nothanks_lab.fast.FastTable.finish` plays whatever position each row of the state
    holds, so rollouts from the middle of a round reuse the simulator's kernel (the one
    compiled playout loop, :func:`nothanks_lab.fast.play_out`) and its on-disk cache.
    """
    from . import fast  # numba loads only when rollouts are played

    table = fast.fast_table(policies, rules)
    if table is None:
        return None
    return table.finish(s) - s.chips


def _view_of_state(s: core.State, g: int, rules: Rules) -> PlayerView:
    """The current player's view of round `g` of a state batch (public facts only)."""
    n_cards = s.deck.shape[1]
    p = int(s.player[g])
    chips = tuple(int(c) for c in s.chips[g])
    hands = tuple(tuple(c for c in rules.cards if (int(m) >> c) & 1) for m in s.hands[g])
    return PlayerView(
        seat=p,
        n_players=len(chips),
        active_card=int(s.deck[g, s.turned[g]]),
        pot=int(s.pot[g]),
        my_chips=chips[p],
        chips=chips,
        hands=hands,
        cards_left=n_cards - int(s.turned[g]) - 1,
        rules=rules,
        current_player=p,
    )


def _play_out(s: core.State, policies: Sequence[object], rules: Rules) -> np.ndarray:
    """Finish every round of `s` (in place) with `policies`; int64[B, P] final scores."""
    fast_scores = _play_fast(s, policies, rules)
    if fast_scores is not None:
        return fast_scores
    scores = np.zeros(s.chips.shape, dtype=np.int64)
    # Readable engine: each round rebuilt from its public position and its face-down cards.
    for g in range(s.deck.shape[0]):
        if core.is_over(s, g):
            for p in range(s.chips.shape[1]):
                scores[g, p] = core.card_points_mask(int(s.hands[g, p])) - int(s.chips[g, p])
            continue
        view = _view_of_state(s, g, rules)
        game = Game.from_position(view, [int(c) for c in s.deck[g, s.turned[g] + 1 :]])
        while not game.is_over:
            seat = game.current_player
            game.step(ask(policies[seat], game.view(seat), game.legal_actions()))
        scores[g] = game.scores()
    return scores


def _winners(scores: np.ndarray, seat: int) -> np.ndarray:
    """bool[B]: whether `seat` has the lowest score (ties are shared: each is a winner)."""
    return scores[:, seat] == scores.min(axis=1)


def default_rollout_policy() -> object:
    """The policy rollouts use when none is given: ``MarginalCostBot(10)``, fast and sane."""
    from .bots import MarginalCostBot

    return MarginalCostBot(10)


def _table(
    policy: object | None, field: object | Sequence[object] | None, seat: int, n: int
) -> list[object]:
    """Per-seat policies: `policy` at `seat` (default rollout bot), `field` at the others."""
    me = default_rollout_policy() if policy is None else policy
    if field is None:
        others: list[object] = [me] * n
    elif isinstance(field, Sequence) and not isinstance(field, str):
        others = list(field)
        if len(others) != n:
            raise ValueError(f"field must hold one policy per seat ({n}); got {len(others)}")
    else:
        others = [field] * n
    table = [me if p == seat else others[p] for p in range(n)]
    return check_policies(table)


def _rng(seed: SeedLike) -> np.random.Generator:
    from .validate import make_rng  # the package's one seed rule

    return make_rng(seed)


def _seed_sequence(seed: SeedLike) -> np.random.SeedSequence:
    """A `SeedSequence` from any seed form (a Generator gives one draw of its stream)."""
    from .validate import check_seed  # the package's one seed rule

    seed = check_seed(seed)
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(2**63)))
    return np.random.SeedSequence(seed)


def _check_count(value: object, name: str, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise ValueError(f"{name} must be a whole number >= {low}; got {value!r}")
    return int(value)


# ------------------------------------------------------------------------ positions
@dataclass(frozen=True)
class MoveValue:
    """What one move is worth to the seat that makes it, estimated by rollouts."""

    action: Action
    """The move."""
    score: Estimate
    """Expected final score of the seat after this move (lower is better)."""
    win: Estimate
    """Chance the seat ends among the winners (ties shared: every lowest score wins)."""

    def __str__(self) -> str:
        s, w = self.score, self.win
        return (
            f"{self.action}: score {s.value:.2f} [{s.low:.2f}, {s.high:.2f}], "
            f"win {w.value:.0%} [{w.low:.0%}, {w.high:.0%}]"
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
    score_diff: Estimate | None
    """Expected score after Take minus after No Thanks! (negative: Take is better), paired."""
    win_diff: Estimate | None
    """Win chance after Take minus after No Thanks!, paired."""
    n: int
    """Rollouts per move (the same sampled face-down cards for both moves)."""
    policy: str
    """The rollout policies, by name."""
    elapsed_s: float = field(default=0.0, compare=False)
    """Wall-clock time the evaluation took."""

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
        lines = [f"Seat {self.seat} on card {self.card} with {self.pot} chip(s) in the pot:"]
        lines += [f"  {m}" for m in self.moves().values()]
        d = self.score_diff
        if d is None:
            lines.append("  No chips left: Take is forced.")
        else:
            verdict = "clearly" if self.confident else "perhaps"
            lines.append(
                f"  Take − No Thanks!: {d.value:+.2f} [{d.low:+.2f}, {d.high:+.2f}] points"
                f" -> {verdict} {self.best}"
            )
        lines.append(f"  ({self.n} rollouts per move, {self.policy}, {self.elapsed_s:.2f} s)")
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
) -> PositionEvaluation:
    """Expected final score and win chance of Take and of No Thanks! for the seat to act.

    Rollouts sample the face-down cards from what `view` has not seen, play the move, then
    finish the round with `policy` in every seat (`field`, if given, in the other seats; by
    default ``MarginalCostBot(10)``). Both moves share the same samples, so the difference
    Take − No Thanks! has a tight paired interval. Sampling stops at `n` rollouts per move, or
    earlier once `budget_s` seconds have passed or every score interval's half-width is at
    most `tol` (at least one batch is always run). Batches hold 1000 rollouts on the compiled
    kernel; a policy without a compiled decision plays through the engine (a few hundred
    rounds a second) in batches of 8, so give it a `budget_s`.

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
    n = _check_count(n, "n", low=2)
    if batch is not None:
        batch = _check_count(batch, "batch", low=2)
    if budget_s is not None and not budget_s > 0:
        raise ValueError(f"budget_s must be a positive number of seconds or None; got {budget_s!r}")
    if tol is not None and not tol > 0:
        raise ValueError(f"tol must be a positive number of points or None; got {tol!r}")
    start = time.perf_counter()
    table = _table(policy, field, view.seat, view.n_players)
    if batch is None:
        from .fast import has_fast_path

        batch = 1000 if all(has_fast_path(p) for p in table) else 8
    rng = _rng(seed)
    moves = (True, False) if view.can_pass else (True,)
    seat = view.seat
    scores: dict[bool, list[np.ndarray]] = {m: [] for m in moves}
    done = 0
    while done < n:
        b = min(batch, n - done)
        rests = sample_face_down(view, b, rng)
        for take in moves:
            s = position_state(view, rests, take)
            scores[take].append(_play_out(s, table, view.rules))
        done += b
        if budget_s is not None and time.perf_counter() - start >= budget_s:
            break
        if tol is not None and _widest(scores, seat) <= tol:
            break
    all_scores = {m: np.concatenate(v) for m, v in scores.items()}
    values = {
        m: MoveValue(
            Action.TAKE if m else Action.PASS,
            _mean_estimate(sc[:, seat]),
            _proportion_estimate(_winners(sc, seat)),
        )
        for m, sc in all_scores.items()
    }
    score_diff = win_diff = None
    if view.can_pass:
        t, p = all_scores[True], all_scores[False]
        score_diff = paired_interval(t[:, seat], p[:, seat])
        win_diff = paired_interval(
            _winners(t, seat).astype(np.float64), _winners(p, seat).astype(np.float64)
        )
    names = sorted({policy_name(p) for p in table})
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


def warm_up(policy: object | None = None) -> None:
    """Compile the rollout loop for `policy` now (about a second, once per session).

    The first evaluation otherwise pays numba's compile time; a UI can call this while the
    page loads so its first hint is as quick as the rest.
    """
    from .bots import MarginalCostBot

    g = Game(3, deck=range(3, 3 + Rules().n_in_play))
    evaluate_position(g.view(0), policy if policy is not None else MarginalCostBot(10), n=128)


# ------------------------------------------------------------------------ chip value
@dataclass(frozen=True)
class ChipValue:
    """What extra starting chips are worth to one seat, by player count (paired simulation)."""

    n_players: tuple[int, ...]
    """Player counts simulated."""
    extra_chips: tuple[int, ...]
    """Extra starting chips given to the seat (0 is the baseline)."""
    score: dict[tuple[int, int], Estimate]
    """(players, extra) -> the seat's mean final score."""
    win: dict[tuple[int, int], Estimate]
    """(players, extra) -> the seat's win chance (ties shared: every lowest score wins)."""
    score_change: dict[tuple[int, int], Estimate]
    """(players, extra) -> mean score change against no extra chip, on the same deals."""
    win_change: dict[tuple[int, int], Estimate]
    """(players, extra) -> win chance change against no extra chip, on the same deals."""
    n_games: int
    """Deals per player count (each played once per extra-chip value)."""
    policy: str
    """The policies at the table, by name."""

    def per_chip(self, n_players: int) -> Estimate:
        """Score change per extra chip at `n_players`: the largest extra's change divided by it."""
        extra = max(self.extra_chips)
        if extra == 0:
            raise ValueError("per_chip needs a positive value among extra_chips")
        e = self.score_change[(n_players, extra)]
        return Estimate(e.value / extra, e.low / extra, e.high / extra, e.n, e.level)

    def to_records(self) -> list[dict[str, float]]:
        """One dict per (players, extra): the estimates and their 95% interval ends."""
        out = []
        for key in sorted(self.score):
            row: dict[str, float] = {"n_players": key[0], "extra_chips": key[1]}
            for name in ("score", "win", "score_change", "win_change"):
                e = getattr(self, name)[key]
                row[name] = e.value
                row[f"{name}_low"] = e.low
                row[f"{name}_high"] = e.high
            out.append(row)
        return out

    def __str__(self) -> str:
        lines = [f"Value of extra starting chips ({self.n_games} paired deals, {self.policy})"]
        lines.append("players  extra  score change        win change")
        for (p, e), d in sorted(self.score_change.items()):
            w = self.win_change[(p, e)]
            lines.append(
                f"{p:>7}  {e:>5}  {d.value:+6.2f} ±{d.half_width:4.2f}   "
                f"{w.value:+6.1%} ±{w.half_width:4.1%}"
            )
        return "\n".join(lines)


def _check_counts(values: int | Iterable[int], name: str, low: int) -> tuple[int, ...]:
    items = [values] if isinstance(values, int | np.integer) else list(values)
    if not items:
        raise ValueError(f"{name} must name at least one value")
    out = tuple(_check_count(v, name, low=low) for v in items)
    if len(set(out)) != len(out):
        raise ValueError(f"{name} names a value twice: {list(out)}")
    return out


def chip_value(
    n_players: int | Iterable[int] = (3, 4, 5, 6, 7),
    *,
    policy: object | None = None,
    field: object | None = None,
    extra_chips: Iterable[int] = (0, 1, 2, 3, 4),
    n_games: int = 20_000,
    seed: SeedLike = None,
    rules: Rules | None = None,
) -> ChipValue:
    """How one seat's expected final score and win chance change with extra starting chips.

    For each player count, `n_games` deals are played once per value of `extra_chips` with
    seat 0 given that many chips more than the rules' start, everything else equal (paired:
    the same deals, so the change has a tight interval). Seat 0 plays `policy`, the others
    `field` (both ``MarginalCostBot(10)`` by default), and the first player rotates over the
    deals so the seat sits at every position equally often.

    >>> cv = chip_value(3, extra_chips=(0, 2), n_games=2000, seed=1)
    >>> cv.score_change[(3, 2)].value < 0   # two more chips, a lower (better) score
    True
    """
    rules = Rules() if rules is None else rules
    counts = _check_counts(n_players, "n_players", low=2)
    for p in counts:
        rules.starting_chips(p)  # ValueError for a count the rules lack
    extras = _check_counts(extra_chips, "extra_chips", low=0)
    n_games = _check_count(n_games, "n_games", low=2)
    seeds = _seed_sequence(seed).spawn(len(counts))
    score: dict[tuple[int, int], Estimate] = {}
    win: dict[tuple[int, int], Estimate] = {}
    score_change: dict[tuple[int, int], Estimate] = {}
    win_change: dict[tuple[int, int], Estimate] = {}
    names: set[str] = set()
    for p, ss in zip(counts, seeds, strict=True):
        table = _table(policy, field, 0, p)
        names |= {policy_name(t) for t in table}
        rng = np.random.default_rng(ss)
        cards = np.array(rules.cards, dtype=np.int64)
        decks = rng.permuted(np.tile(cards, (n_games, 1)), axis=1)[:, : rules.n_in_play]
        start = rules.starting_chips(p)
        results = {}
        for e in sorted({0, *extras}):
            s = core.new_state(decks, p, start, 0)
            s.player[:] = np.arange(n_games) % p
            s.chips[:, 0] += e
            sc = _play_out(s, table, rules)
            results[e] = (sc[:, 0].astype(np.float64), _winners(sc, 0).astype(np.float64))
        for e in extras:
            sc, w = results[e]
            score[(p, e)] = _mean_estimate(sc)
            win[(p, e)] = _proportion_estimate(w)
            score_change[(p, e)] = paired_interval(sc, results[0][0])
            win_change[(p, e)] = paired_interval(w, results[0][1])
    return ChipValue(
        n_players=counts,
        extra_chips=extras,
        score=score,
        win=win,
        score_change=score_change,
        win_change=win_change,
        n_games=n_games,
        policy=" / ".join(sorted(names)),
    )


# ------------------------------------------------------------------------ surfaces
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
    rules = Rules() if rules is None else rules
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
    if isinstance(pot, bool) or not isinstance(pot, int | np.integer) or pot < 0:
        raise ValueError(f"pot must be a whole number >= 0; got {pot!r}")
    mine_chips = start if my_chips is None else _check_count(my_chips, "my_chips", low=0)
    if other_chips is None or isinstance(other_chips, int | np.integer):
        oc = [start if other_chips is None else int(other_chips)] * (n_players - 1)
    else:
        oc = list(other_chips)
    if len(oc) != n_players - 1 or any(
        isinstance(c, bool) or not isinstance(c, int | np.integer) or c < 0 for c in oc
    ):
        raise ValueError(
            f"other_chips must be one whole number >= 0 or {n_players - 1} of them; "
            f"got {other_chips!r}"
        )
    chips = (mine_chips, *(int(c) for c in oc))
    return PlayerView(
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


def immediate_take_minus_pass(card: int, pot: int, hand: Iterable[int] = ()) -> int:
    """Score change of Take minus that of No Thanks!, counting only this move.

    Taking changes the score by the card's marginal points minus the pot's chips; passing
    costs one chip (+1). Negative: Take is better now.

    >>> immediate_take_minus_pass(28, 0, (27, 29))   # the gap filler merges two runs
    -30
    >>> immediate_take_minus_pass(20, 5)              # a lone 20 for 5 chips
    14
    """
    from .rules import MAX_CARD
    from .validate import check_int, check_sequence

    # No rule set here: any card a rule set may have (1..MAX_CARD).
    card = check_int(card, "card", low=1, high=MAX_CARD)
    pot = check_int(pot, "pot", low=0)
    hand = tuple(hand) if isinstance(hand, set | frozenset) else hand
    cards = [check_int(c, "hand", low=1, high=MAX_CARD) for c in check_sequence(hand, "hand")]
    if len(set(cards)) != len(cards):
        raise ValueError(f"hand holds a card twice: {sorted(cards)}")
    mask = core.mask_of(tuple(cards))
    if (mask >> int(card)) & 1:
        raise ValueError(f"card {card} is already in the hand {sorted(hand)}")
    return int(core.marginal_points(mask, int(card))) - int(pot) - 1


def break_even_pots(
    hand: Iterable[int] = (), cards: Iterable[int] | None = None, *, rules: Rules | None = None
) -> dict[int, int]:
    """Per card, the break-even pot: where Take and No Thanks! cost the same (this move only).

    This is the package's one meaning of *break-even pot* (the surfaces' ``break_even`` and the
    lessons use it too): the pot at which both moves cost the same, so that on any larger pot
    taking is strictly better. Counting this move only it is the card's marginal points minus
    one: the card's cost against the chip a pass gives up. A value below zero means the card is
    worth taking even on an empty pot.

    >>> b = break_even_pots((27, 29))
    >>> b[20], b[26], b[28], b[30]
    (19, -2, -30, -1)
    """
    rules = Rules() if rules is None else rules
    mine = rules.check_cards(hand, what="hand")
    chosen = rules.cards if cards is None else rules.check_cards(cards, what="cards")
    return {c: immediate_take_minus_pass(c, 0, mine) for c in chosen if c not in set(mine)}


@dataclass(frozen=True)
class TakePassSurface:
    """Score change of Take minus No Thanks! over card × pot (negative: Take is better)."""

    cards: tuple[int, ...]
    """Rows: the active card."""
    pots: tuple[int, ...]
    """Columns: chips on it."""
    hand: tuple[int, ...]
    """The deciding seat's hand."""
    values: np.ndarray = field(repr=False)
    """float[cards, pots]: Take minus No Thanks! in expected final score points."""
    low: np.ndarray | None = field(default=None, repr=False)
    """float[cards, pots]: lower ends of 95% intervals (rollout surfaces only)."""
    high: np.ndarray | None = field(default=None, repr=False)
    """float[cards, pots]: upper ends of 95% intervals (rollout surfaces only)."""
    method: str = "immediate"
    """``"immediate"`` (this move's bookkeeping) or ``"rollout"`` (whole-round rollouts)."""

    def break_even(self) -> dict[int, float | None]:
        """Per card, the break-even pot: where Take − No Thanks! is zero (see `break_even_pots`).

        On a larger pot Take is better. An immediate surface falls by exactly one point per
        chip, so its break-even pot is exact even outside the grid (the same number as
        :func:`break_even_pots`). A rollout surface is read where it last crosses zero: between
        the last pot where No Thanks! is at least as good and the next pot it is interpolated
        linearly; None when it does not cross zero within the grid (see :meth:`take_from`).
        """
        out: dict[int, float | None] = {}
        for i, c in enumerate(self.cards):
            row = self.values[i]
            if self.method == "immediate":
                out[c] = float(row[0] + self.pots[0])
                continue
            not_worse = np.flatnonzero(row >= 0)
            j = int(not_worse[-1]) if len(not_worse) else -1
            if j < 0 or j == len(row) - 1:
                out[c] = None
                continue
            p0, p1, v0, v1 = self.pots[j], self.pots[j + 1], row[j], row[j + 1]
            out[c] = float(p0 + (p1 - p0) * v0 / (v0 - v1))
        return out

    @property
    def take_from(self) -> dict[int, int | None]:
        """Per card, the smallest pot of the grid from which on Take is better (None: never).

        Comparable with :attr:`BotBoundary.take_from`; it lies just above the break-even pot.
        """
        out: dict[int, int | None] = {}
        for i, c in enumerate(self.cards):
            not_worse = np.flatnonzero(self.values[i] >= 0)
            j = int(not_worse[-1]) + 1 if len(not_worse) else 0
            out[c] = self.pots[j] if j < len(self.pots) else None
        return out


def _grid(values: Iterable[int], name: str, low: int) -> tuple[int, ...]:
    out = tuple(_check_count(v, name, low=low) for v in values)
    if not out:
        raise ValueError(f"{name} must name at least one value")
    return out


def _surface_grid(
    cards: Iterable[int], pots: Iterable[int], hand: Iterable[int], rules: Rules
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Checked rows (cards not in the hand), columns (pots) and hand of a card × pot grid."""
    mine = tuple(sorted(rules.check_cards(hand, what="hand")))
    if len(set(mine)) != len(mine):
        raise ValueError(f"the hand holds a card twice: {list(mine)}")
    # A held card cannot be the active one: a full range of cards simply skips the hand's.
    cs = tuple(c for c in dict.fromkeys(rules.check_cards(cards, what="cards")) if c not in mine)
    if not cs:
        raise ValueError(f"cards must name at least one card not in the hand {list(mine)}")
    return cs, _grid(pots, "pots", low=0), mine


def take_pass_surface(
    cards: Iterable[int],
    pots: Iterable[int],
    hand: Iterable[int] = (),
    *,
    method: str = "immediate",
    policy: object | None = None,
    n_players: int = 3,
    my_chips: int | None = None,
    n: int = 1000,
    seed: SeedLike = None,
    rules: Rules | None = None,
) -> TakePassSurface:
    """Take minus No Thanks! over a grid of cards × pots, for a seat holding `hand`.

    Cards of `hand` are left out of the rows (a held card cannot be the active one).
    ``method="immediate"`` counts this move only (:func:`immediate_take_minus_pass`).
    ``method="rollout"`` evaluates each cell's constructed position (:func:`position_view`)
    with :func:`evaluate_position` (`n` rollouts per move, `policy` in every seat), reusing one
    seed for every cell so the surface is smooth (common random numbers).

    >>> s = take_pass_surface([10, 28], [0, 9, 10], hand=(27, 29))
    >>> s.values.tolist(), s.break_even(), s.take_from
    ([[9.0, 0.0, -1.0], [-30.0, -39.0, -40.0]], {10: 9.0, 28: -30.0}, {10: 10, 28: 0})
    """
    rules = Rules() if rules is None else rules
    cs, ps, mine = _surface_grid(cards, pots, hand, rules)
    if method == "immediate":
        vals = np.array(
            [[immediate_take_minus_pass(c, p, mine) for p in ps] for c in cs], dtype=np.float64
        )
        return TakePassSurface(cs, ps, mine, vals)
    if method != "rollout":
        raise ValueError(f"method must be 'immediate' or 'rollout'; got {method!r}")
    seed_int = int(_rng(seed).integers(2**63))
    vals = np.empty((len(cs), len(ps)))
    low = np.empty_like(vals)
    high = np.empty_like(vals)
    for i, c in enumerate(cs):
        for j, p in enumerate(ps):
            view = position_view(c, p, mine, n_players=n_players, my_chips=my_chips, rules=rules)
            if not view.can_pass:
                raise ValueError("my_chips must be at least 1: with no chip, Take is forced")
            ev = evaluate_position(view, policy, n=n, seed=seed_int)
            d = ev.score_diff
            vals[i, j], low[i, j], high[i, j] = d.value, d.low, d.high  # type: ignore[union-attr]
    return TakePassSurface(cs, ps, mine, vals, low, high, "rollout")


@dataclass(frozen=True)
class BotBoundary:
    """Where a bot switches between No Thanks! and Take over card × pot."""

    bot: str
    """The bot, by name."""
    cards: tuple[int, ...]
    """Rows: the active card."""
    pots: tuple[int, ...]
    """Columns: chips on it."""
    hand: tuple[int, ...]
    """The deciding seat's hand."""
    takes: np.ndarray = field(repr=False)
    """bool[cards, pots]: whether the bot takes."""

    @property
    def take_from(self) -> dict[int, int | None]:
        """Per card, the smallest pot of the grid at which the bot takes (None: never)."""
        out: dict[int, int | None] = {}
        for i, c in enumerate(self.cards):
            hit = np.flatnonzero(self.takes[i])
            out[c] = self.pots[hit[0]] if len(hit) else None
        return out


def bot_boundary(
    bot: object,
    cards: Iterable[int],
    pots: Iterable[int],
    hand: Iterable[int] = (),
    *,
    n_players: int = 3,
    my_chips: int | None = None,
    other_hands: Sequence[Iterable[int]] | None = None,
    other_chips: Sequence[int] | int | None = None,
    rules: Rules | None = None,
) -> BotBoundary:
    """Ask `bot` for its move on every constructed position card × pot (seat 0 holding `hand`).

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> bot_boundary(MarginalCostBot(5), [10, 20], range(0, 20, 5)).take_from
    {10: 5, 20: 15}
    """
    (checked,) = check_policies([bot])
    rules = Rules() if rules is None else rules
    cs, ps, mine = _surface_grid(cards, pots, hand, rules)
    if my_chips is not None and my_chips < 1:
        raise ValueError("my_chips must be at least 1: with no chip, Take is forced")
    takes = np.zeros((len(cs), len(ps)), dtype=np.bool_)
    for i, c in enumerate(cs):
        for j, p in enumerate(ps):
            view = position_view(
                c,
                p,
                mine,
                n_players=n_players,
                my_chips=my_chips,
                other_hands=other_hands,
                other_chips=other_chips,
                rules=rules,
            )
            takes[i, j] = ask(checked, view, (Action.TAKE, Action.PASS)) is Action.TAKE
    return BotBoundary(policy_name(checked), cs, ps, mine, takes)
