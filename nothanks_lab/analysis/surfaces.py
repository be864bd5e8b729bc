"""Trade-off surfaces: a card's points against the chips it brings, over card × pot.

The simplest bookkeeping of a move counts this move only: taking costs the card's marginal
points (what it adds to the hand's card points) less the pot, passing costs one chip
(`immediate_take_minus_pass`); where the two are equal is the card's *break-even pot*
(`break_even_pots`, the package's one meaning of the term). `take_pass_surface` lays that
difference, or the whole-round difference estimated by rollouts (:mod:`.evaluation`), over a grid
of cards × pots as a `TakePassSurface`, and `bot_boundary` asks a bot for its move on the same
grid of constructed positions (a `BotBoundary`), so a lesson can set what the bookkeeping says,
what rollouts say and what a bot does side by side.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .. import core
from ..engine import Action, SeedLike
from ..play import ask, check_policies, policy_name
from ..rules import Rules
from ..validate import check_int, check_rules, take_items
from ..view import PlayerView
from .evaluation import PositionSetup, evaluate_position, position_view
from .rollout import _rng

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.11

__all__ = [
    "BotBoundary",
    "TakePassSurface",
    "bot_boundary",
    "break_even_pots",
    "immediate_take_minus_pass",
    "take_pass_surface",
]


def immediate_take_minus_pass(card: int, pot: int, hand: Iterable[int] = ()) -> int:
    """Score change of Take minus that of No Thanks!, counting only this move.

    Taking changes the score by the card's marginal points minus the pot's chips; passing
    costs one chip (+1). Negative: Take is better now.

    >>> immediate_take_minus_pass(28, 0, (27, 29))   # the gap filler merges two runs
    -30
    >>> immediate_take_minus_pass(20, 5)              # a lone 20 for 5 chips
    14
    """
    from ..rules import MAX_CARD
    from ..validate import check_int, check_sequence

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
    rules = check_rules(rules)
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
    out = tuple(check_int(v, name, low=low) for v in take_items(values, name))
    if not out:
        raise ValueError(f"{name} must name at least one value")
    return out


def _surface_grid(
    cards: Iterable[int],
    pots: Iterable[int],
    hand: Iterable[int],
    rules: Rules,
    other_hands: Sequence[Iterable[int]] | None = None,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Checked rows (cards nobody holds), columns (pots) and hand of a card × pot grid."""
    mine = tuple(sorted(rules.check_cards(hand, what="hand")))
    if len(set(mine)) != len(mine):
        raise ValueError(f"the hand holds a card twice: {list(mine)}")
    theirs = {c for h in other_hands or () for c in rules.check_cards(h, what="other_hands")}
    # A held card cannot be the active one: a full range of cards simply skips the held ones.
    held = theirs.union(mine)
    cs = tuple(c for c in dict.fromkeys(rules.check_cards(cards, what="cards")) if c not in held)
    if not cs:
        also = f" nor in the other hands {sorted(theirs)}" if theirs else ""
        raise ValueError(f"cards must name at least one card not in the hand {list(mine)}{also}")
    return cs, _grid(pots, "pots", low=0), mine


def _cell_views(
    cards: Sequence[int], pots: Sequence[int], hand: tuple[int, ...], setup: PositionSetup
) -> Iterator[tuple[int, int, PlayerView]]:
    """Row, column and constructed position (`position_view`) of every cell, row by row."""
    for i, c in enumerate(cards):
        for j, p in enumerate(pots):
            view = position_view(c, p, hand, **setup)
            if not view.can_pass:
                raise ValueError("my_chips must be at least 1: with no chip, Take is forced")
            yield i, j, view


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
    rules = check_rules(rules)
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
    setup: PositionSetup = {"n_players": n_players, "my_chips": my_chips, "rules": rules}
    for i, j, view in _cell_views(cs, ps, mine, setup):
        d = evaluate_position(view, policy, n=n, seed=seed_int).score_diff
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
    **setup: Unpack[PositionSetup],
) -> BotBoundary:
    """Ask `bot` for its move on every constructed position card × pot (seat 0 holding `hand`).

    `setup` is the rest of the table, as :func:`position_view` takes it (`n_players`,
    `my_chips`, `other_hands`, `other_chips`, `rules`; see `PositionSetup`). Cards anybody
    holds are left out of the rows.

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> bot_boundary(MarginalCostBot(5), [10, 20], range(0, 20, 5)).take_from
    {10: 5, 20: 15}
    """
    (checked,) = check_policies([bot])
    rules = setup.get("rules")
    rules = check_rules(rules)
    cs, ps, mine = _surface_grid(cards, pots, hand, rules, setup.get("other_hands"))
    takes = np.zeros((len(cs), len(ps)), dtype=np.bool_)
    for i, j, view in _cell_views(cs, ps, mine, setup):
        takes[i, j] = ask(checked, view, (Action.TAKE, Action.PASS)) is Action.TAKE
    return BotBoundary(policy_name(checked), cs, ps, mine, takes)
