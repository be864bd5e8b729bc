"""The plumbing every analysis shares: playing positions out, seating a table, seeds, estimates.

Position evaluation, chip value and the rollout surfaces all do the same few things: seat a
table of policies (`policy` at the studied seat, `field` elsewhere, ``MarginalCostBot(10)`` by
default), finish a batch of rounds from wherever each stands, read off who won, and turn the
samples into 95% intervals from :mod:`nothanks_lab.stats`; a win is a win share, a tie among k
winners counting 1/k, as everywhere in the package. Rounds are finished on the package's
one compiled playout loop (:meth:`nothanks_lab.fast.FastTable.finish`, the kernel `simulate`
runs, with named arguments and its on-disk cache); a table with a policy that has no compiled
decision is played through the readable engine instead, slower but identical in meaning. The
seed helpers follow the package's one seed rule (:mod:`nothanks_lab.validate`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import core
from ..engine import Game, SeedLike
from ..i18n import _
from ..play import ask, check_policies
from ..rules import Rules
from ..stats import Interval, mean_interval, share_interval
from ..view import PlayerView, hypothetical_view

__all__ = [
    "ADVICE_BOT",
    "advice_policy",
    "default_rollout_policy",
    "describe_players",
    "rollout_field",
    "rollout_field_of_specs",
]

#: The registered bot hints, reviews and the advisor play the rollouts with, for the advised
#: seat and for every seat whose own bot cannot be played on the compiled loop: the package's
#: strongest compiled bot, which punishes what real players punish (it takes a card that
#: completes someone's run), unlike the lessons' plain ``MarginalCostBot(10)``.
ADVICE_BOT = "linear"


# ------------------------------------------------------------------------ estimates
def _mean_estimate(x: np.ndarray) -> Interval:
    """Mean of `x` with its Student-t 95% interval (:func:`nothanks_lab.stats.mean_interval`)."""
    return mean_interval(np.asarray(x, dtype=np.float64))


def _share_estimate(shares: np.ndarray) -> Interval:
    """A mean win share (values in [0, 1], ties split 1/k) with its 95% interval inside [0, 1]
    (:func:`nothanks_lab.stats.share_interval`, as tournaments give win shares)."""
    return share_interval(np.asarray(shares, dtype=np.float64))


# ------------------------------------------------------------------------ playing rounds out
def _play_fast(s: core.State, policies: Sequence[object], rules: Rules) -> np.ndarray | None:
    """Finish every round of `s` in the simulator's compiled kernel; None if a policy lacks one.

    :meth:`nothanks_lab.fast.FastTable.finish` plays whatever position each row of the state
    holds, so rollouts from the middle of a round reuse the simulator's kernel (the one
    compiled playout loop, :func:`nothanks_lab.fast.finish_rounds`) and its on-disk cache.
    """
    from .. import fast  # numba loads only when rollouts are played

    table = fast.fast_table(policies, rules)
    if table is None:
        return None
    scores: np.ndarray = table.finish(s) - s.chips
    return scores


def _view_of_state(s: core.State, g: int, rules: Rules) -> PlayerView:
    """The current player's view of round `g` of a state batch (public facts only)."""
    n_cards = s.deck.shape[1]
    p = int(s.player[g])
    chips = tuple(int(c) for c in s.chips[g])
    hands = tuple(tuple(c for c in rules.cards if (int(m) >> c) & 1) for m in s.hands[g])
    return hypothetical_view(
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


def _win_shares(scores: np.ndarray, seat: int) -> np.ndarray:
    """float64[B]: `seat`'s win share of each round, by the package's one result rule
    (:func:`nothanks_lab.core.score_rows`): the lowest score wins, k tied winners 1/k each."""
    from ..jit import jit_pure  # compiled: a few thousand rollouts score in microseconds

    scores = np.ascontiguousarray(scores, dtype=np.int64)
    winners = np.empty(scores.shape, dtype=np.bool_)
    shares = np.empty(scores.shape, dtype=np.float64)
    no_chips = np.zeros_like(scores)  # the scores are final already: card points minus chips
    jit_pure(core.score_rows)(scores, no_chips, np.empty_like(scores), winners, shares)
    seat_shares: np.ndarray = shares[:, seat]
    return seat_shares


# ------------------------------------------------------------------------ tables, seeds, checks
def default_rollout_policy() -> object:
    """The policy rollouts use when none is given: ``MarginalCostBot(10)``, fast and sane."""
    from ..bots import MarginalCostBot

    return MarginalCostBot(10)


def advice_policy() -> object:
    """The policy of hints, reviews and the advisor's rollouts: ``make_bot(ADVICE_BOT)``."""
    from ..bots import make_bot

    return make_bot(ADVICE_BOT)


def rollout_field(policies: Sequence[object | None]) -> list[object]:
    """The model of a table's seats for rollouts: each bot as itself when it has a compiled
    decision, else (a person, a search bot, a custom policy) :func:`advice_policy`.

    Hints and reviews both seat their rollouts with this, so they model the same table.
    """
    from ..fast import has_fast_path

    return [p if p is not None and has_fast_path(p) else advice_policy() for p in policies]


def rollout_field_of_specs(specs: Sequence[str | None]) -> list[object]:
    """`rollout_field` of a saved round's seats: each a registered bot's spec, or None.

    A spec that is not a registered bot (a user's file, say) counts as unknown, so loading a
    round never imports code; a person's seat is None. A round reviewed at the table and the
    same round saved and loaded then get the same model of the table, so the same review.
    """
    from ..bots import make_bot
    from ..bots.specs import parse_bot_spec

    policies: list[object | None] = []
    for spec in specs:
        bot = None
        if spec is not None:
            try:
                name, params = parse_bot_spec(spec)
                bot = make_bot(name, **params)
            except (ValueError, TypeError):
                bot = None
        policies.append(bot)
    return rollout_field(policies)


def describe_players(policy: object, field: object) -> str:
    """Who plays the rollouts, in words: `policy` at the studied seat, `field` at the others.

    Shared by the review's and the hints' report lines, so both name a table alike.
    """
    from ..bots.specs import short_name as _short_name

    me = _short_name(policy)
    if isinstance(field, Sequence) and not isinstance(field, str):
        others = " / ".join(dict.fromkeys(_short_name(f) for f in field))
    else:
        others = _short_name(field)
    if others == me:
        return _("{me} in every seat").format(me=me)
    return _("{me} for the seat, {others} for the rest").format(me=me, others=others)


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
    """A `Generator` from any seed form (:func:`nothanks_lab.validate.make_rng`)."""
    from ..validate import make_rng  # the package's one seed rule

    return make_rng(seed)
