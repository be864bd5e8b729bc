"""Chip value: what extra starting chips are worth to one seat against the cards, by table size.

A chip is worth what it saves: one more chip lets a seat say No Thanks! once more, and each
chip held at the end is a point off. `chip_value` measures that by paired simulation. For each
player count it deals one stream of rounds through :func:`nothanks_lab.deals.deal_decks` (game
``i`` depends only on the seed and ``i``, as in `simulate`), then plays every deal once per
number of extra chips given to seat 0, everything else equal, on the shared playout of
:mod:`nothanks_lab.analysis.rollout`; the change in score and win chance is then a paired
difference with a tight interval. The result is a `ChipValue`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .. import core
from ..deals import deal_decks
from ..engine import SeedLike
from ..i18n import _
from ..play import policy_name
from ..rules import Rules
from ..stats import Interval, fmt_number, paired_interval
from ..validate import (
    MAX_GAMES,
    check_count,
    check_int,
    check_rules,
    is_int,
    seed_sequence,
    take_items,
)
from .rollout import (
    _mean_estimate,
    _play_out,
    _share_estimate,
    _table,
    _win_shares,
)

__all__ = ["ChipValue", "chip_value"]


@dataclass(frozen=True)
class ChipValue:
    """What extra starting chips are worth to one seat, by player count (paired simulation)."""

    n_players: tuple[int, ...]
    """Player counts simulated."""
    extra_chips: tuple[int, ...]
    """Extra starting chips given to the seat (0 is the baseline)."""
    score: dict[tuple[int, int], Interval]
    """(players, extra) -> the seat's mean final score."""
    win: dict[tuple[int, int], Interval]
    """(players, extra) -> the seat's win share (a tie among k winners counts 1/k)."""
    score_change: dict[tuple[int, int], Interval]
    """(players, extra) -> mean score change against no extra chip, on the same deals."""
    win_change: dict[tuple[int, int], Interval]
    """(players, extra) -> win chance change against no extra chip, on the same deals."""
    n_games: int
    """Deals per player count (each played once per extra-chip value)."""
    policy: str
    """The policies at the table, by name."""

    def per_chip(self, n_players: int) -> Interval:
        """Score change per extra chip at `n_players`: the largest extra's change divided by it."""
        extra = max(self.extra_chips)
        if extra == 0:
            raise ValueError("per_chip needs a positive value among extra_chips")
        e = self.score_change[(n_players, extra)]
        return Interval(e.value / extra, e.low / extra, e.high / extra, e.n, e.confidence)

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
        title = _("Value of extra starting chips ({n} paired deals, {policy})")
        lines = [title.format(n=self.n_games, policy=self.policy)]
        lines.append(_("players  extra  score change        win change"))
        num = fmt_number  # the decimal mark of the language in use, widths kept
        for (p, e), d in sorted(self.score_change.items()):
            w = self.win_change[(p, e)]
            lines.append(
                f"{p:>7}  {e:>5}  {num(d.value, '+6.2f')} ±{num(d.half_width, '4.2f')}   "
                f"{num(w.value, '+6.1%')} ±{num(w.half_width, '4.1%')}"
            )
        return "\n".join(lines)


def _check_counts(values: int | Iterable[int], name: str, low: int) -> tuple[int, ...]:
    items = [values] if is_int(values) else take_items(values, name)  # type: ignore[arg-type]
    if not items:
        raise ValueError(f"{name} must name at least one value")
    out = tuple(check_int(v, name, low=low) for v in items)
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
    deals (deal ``i`` starts at seat ``i % players``) so the seat sits at every position
    equally often. The deals of each player count are games ``0 .. n_games-1`` of a stream of
    :func:`nothanks_lab.deals.deal_decks`, seeded by one child of `seed` per count (in order),
    so a longer run extends a shorter one deal for deal.

    >>> cv = chip_value(3, extra_chips=(0, 2), n_games=2000, seed=1)
    >>> cv.score_change[(3, 2)].value < 0   # two more chips, a lower (better) score
    True
    """
    rules = check_rules(rules)
    counts = _check_counts(n_players, "n_players", low=2)
    for p in counts:
        rules.starting_chips(p)  # ValueError for a count the rules lack
    extras = _check_counts(extra_chips, "extra_chips", low=0)
    n_games = check_count(n_games, "n_games", MAX_GAMES, low=2)
    seeds = seed_sequence(seed).spawn(len(counts))
    score: dict[tuple[int, int], Interval] = {}
    win: dict[tuple[int, int], Interval] = {}
    score_change: dict[tuple[int, int], Interval] = {}
    win_change: dict[tuple[int, int], Interval] = {}
    names: set[str] = set()
    for p, ss in zip(counts, seeds, strict=True):
        table = _table(policy, field, 0, p)
        names |= {policy_name(t) for t in table}
        decks = deal_decks(rules, seed=ss, start=0, count=n_games)
        start = rules.starting_chips(p)
        results = {}
        for e in sorted({0, *extras}):
            s = core.new_state(decks, p, start, 0)
            s.player[:] = np.arange(n_games) % p
            s.chips[:, 0] += e
            sc = _play_out(s, table, rules)
            results[e] = (sc[:, 0].astype(np.float64), _win_shares(sc, 0))
        for e in extras:
            sc, w = results[e]
            score[(p, e)] = _mean_estimate(sc)
            win[(p, e)] = _share_estimate(w)
            score_change[(p, e)] = paired_interval(sc, results[0][0])
            win_change[(p, e)] = paired_interval(w, results[0][1], shares=True)
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
