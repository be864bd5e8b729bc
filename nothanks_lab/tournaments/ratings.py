"""Head-to-head records between pairs of bots, and Bradley–Terry ratings fitted to them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..i18n import _
from ..render.tables import text_table
from ..stats import fmt_ends, fmt_number, share_interval


@dataclass(frozen=True, eq=False)
class Pairwise:
    """Head-to-head record of every pair of bots over the games in which both sat.

    ``share[a, b]``: the share of those games in which ``a`` finished with a lower score than
    ``b``, a tie counting one half (so ``share[a, b] + share[b, a] == 1``); NaN where the two
    never met and on the diagonal. ``low``/``high``: its confidence interval over deals, the
    independent units (`nothanks_lab.stats.share_interval`: inside [0, 1], positive width).
    """

    names: tuple[str, ...]
    share: np.ndarray
    low: np.ndarray
    high: np.ndarray
    games: np.ndarray
    """int[bots, bots]: games in which both sat."""
    confidence: float
    se: np.ndarray | None = None
    """float[bots, bots]: standard error of `share` over deals (NaN below two deals)."""


@dataclass(frozen=True, eq=False)
class Ratings:
    """Bradley–Terry ratings on the Elo scale: 400 points is 10-to-1 odds in a head-to-head.

    Fitted by maximum likelihood to the pairwise records (`TournamentResult.pairwise`), with a
    half-game prior each way per pair so that a bot that never loses still gets a finite
    rating. Centred on `anchor` (0 there) or on the field's mean. The intervals come from a
    parametric bootstrap over the pairwise shares (their per-deal standard errors), refitted
    each time; they ignore the correlation between pairs, so read them as approximate.
    """

    names: tuple[str, ...]
    rating: np.ndarray
    low: np.ndarray
    high: np.ndarray
    anchor: str | None
    confidence: float

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per bot, best first."""
        order = np.argsort(-self.rating, kind="stable")
        return [
            {
                "bot": self.names[b],
                "rating": float(self.rating[b]),
                "low": float(self.low[b]),
                "high": float(self.high[b]),
            }
            for b in order
        ]

    def __str__(self) -> str:
        pct = fmt_number(self.confidence * 100, "g") + "%"
        head = [_("bot"), _("rating"), _("{pct} CI").format(pct=pct)]
        rows = [
            [r["bot"], f"{r['rating']:+.0f}", fmt_ci(r["low"], r["high"], 0, signed=True)]
            for r in self.to_records()
        ]
        return _("Bradley–Terry ratings (Elo scale)") + "\n" + text_table(head, rows, {1, 2})


def fmt_ci(low: float, high: float, digits: int, *, signed: bool = False) -> str:
    """`render.tables.fmt_interval` in the language in use: ``[0,25; 0,50]`` in Portuguese.

    render.tables imports nothing from the package, so the tables of results localize here
    (through `stats.fmt_ends`, the one form of an interval's ends); English is unchanged.
    """
    if math.isnan(low) or math.isnan(high):
        return _("n/a")
    return fmt_ends(low, high, f"{'+' if signed else ''}.{digits}f")


_ELO = 400 / math.log(10)


def _bradley_terry(wins: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Bradley–Terry strengths (natural-log scale, mean 0) by Hunter's MM iteration.

    `wins` is ``[..., bots, bots]`` (a batch of win tables at once), `games` ``[bots, bots]``.
    A half-game prior each way per pair that met keeps every strength finite.
    """
    met = games > 0
    w = np.where(met, wins + 0.5, 0.0)
    n = np.where(met, games + 1.0, 0.0)
    total = w.sum(axis=-1)
    pi = np.ones(w.shape[:-1])
    for _iteration in range(10_000):
        denom = (n / (pi[..., :, None] + pi[..., None, :])).sum(axis=-1)
        new = total / denom
        new /= np.exp(np.log(new).mean(axis=-1, keepdims=True))
        done = np.abs(np.log(new) - np.log(pi)).max() < 1e-10
        pi = new
        if done:
            break
    r = np.log(pi)
    centred: np.ndarray = r - r.mean(axis=-1, keepdims=True)
    return centred


def pairwise_record(
    names: tuple[str, ...],
    meets: np.ndarray,
    n: int,
    beat: Sequence[Sequence[int]],
    beat2: Sequence[Sequence[int]],
    confidence: float,
) -> Pairwise:
    """`Pairwise` from a tournament's exact sums over `n` deals (see `run._Sums`).

    `meets[a, b]` counts the games per deal in which ``a`` and ``b`` both sat; `beat` sums
    over deals twice the games ``a`` finished below ``b`` plus the ties, `beat2` its squares.
    """
    from fractions import Fraction

    n_bots = len(names)
    share, low, high, se = (np.full((n_bots, n_bots), math.nan) for _ in range(4))
    for a in range(n_bots):
        for b in range(n_bots):
            m = int(meets[a, b])
            if a == b or m == 0:
                continue
            unit = 2 * m  # per deal: beat / (2 * meets) is a share in [0, 1]
            total = Fraction(int(beat[a][b]), unit)
            total_sq = Fraction(int(beat2[a][b]), unit * unit)
            iv = share_interval(n=n, total=total, total_sq=total_sq, confidence=confidence)
            share[a, b], low[a, b], high[a, b] = iv.value, iv.low, iv.high
            if n >= 2:
                var = float((n * total_sq - total * total) / (n * (n - 1)))
                se[a, b] = math.sqrt(max(var, 0.0) / n)
    return Pairwise(names, share, low, high, meets * n, confidence, se)


def fit_ratings(pw: Pairwise, n_deals: int, ref: int | None, *, n_boot: int, seed: int) -> Ratings:
    """Bradley–Terry `Ratings` fitted to `pw`, centred on bot `ref` (None: the mean), with
    `n_boot` parametric bootstrap refits for the intervals."""
    games = pw.games.astype(np.float64)
    wins = np.nan_to_num(pw.share) * games

    def fit(w: np.ndarray) -> np.ndarray:
        r = _bradley_terry(w, games) * _ELO
        return r - (r[..., [ref]] if ref is not None else 0.0)

    rating = fit(wins)
    low = np.full_like(rating, math.nan)
    high = np.full_like(rating, math.nan)
    if n_boot > 0 and n_deals >= 2:
        rng = np.random.default_rng(seed)
        se = pw.se if pw.se is not None else np.zeros_like(games)
        upper = np.triu(games > 0, 1)
        p = np.clip(
            rng.normal(np.nan_to_num(pw.share), np.nan_to_num(se), size=(n_boot, *games.shape)),
            0,
            1,
        )
        p = np.where(upper, p, 0)
        p = p + np.where(upper.T, 1 - np.swapaxes(p, -1, -2), 0)
        draws = fit(p * games)
        alpha = 1 - pw.confidence
        low, high = np.quantile(draws, [alpha / 2, 1 - alpha / 2], axis=0)
    return Ratings(
        pw.names, rating, low, high, None if ref is None else pw.names[ref], pw.confidence
    )
