"""Head-to-head records between pairs of bots, and Bradley–Terry ratings fitted to them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..render.tables import fmt_interval, text_table
from ..stats import t_quantile


@dataclass(frozen=True, eq=False)
class Pairwise:
    """Head-to-head record of every pair of bots over the games in which both sat.

    ``share[a, b]``: the share of those games in which ``a`` finished with a lower score than
    ``b``, a tie counting one half (so ``share[a, b] + share[b, a] == 1``); NaN where the two
    never met and on the diagonal. ``low``/``high``: its confidence interval (Student-t over
    deals, the independent units).
    """

    names: tuple[str, ...]
    share: np.ndarray
    low: np.ndarray
    high: np.ndarray
    games: np.ndarray
    """int[bots, bots]: games in which both sat."""
    confidence: float


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
        pct = f"{self.confidence * 100:g}%"
        head = ["bot", "rating", f"{pct} CI"]
        rows = [
            [r["bot"], f"{r['rating']:+.0f}", fmt_interval(r["low"], r["high"], 0, signed=True)]
            for r in self.to_records()
        ]
        return "Bradley–Terry ratings (Elo scale)\n" + text_table(head, rows, {1, 2})


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
    for _ in range(10_000):
        denom = (n / (pi[..., :, None] + pi[..., None, :])).sum(axis=-1)
        new = total / denom
        new /= np.exp(np.log(new).mean(axis=-1, keepdims=True))
        done = np.abs(np.log(new) - np.log(pi)).max() < 1e-10
        pi = new
        if done:
            break
    r = np.log(pi)
    return r - r.mean(axis=-1, keepdims=True)


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
    z1 = np.array(beat, dtype=np.float64)
    z2 = np.array(beat2, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        unit = 2.0 * meets
        share = z1 / (n * unit)
        if n >= 2:
            var = (n * z2 - z1**2) / (n * (n - 1) * unit**2)
            half = t_quantile(confidence, n) * np.sqrt(np.maximum(var, 0) / n)
        else:
            half = np.full_like(share, math.nan)
    share[meets == 0] = math.nan
    return Pairwise(names, share, share - half, share + half, meets * n, confidence)


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
        se = (pw.high - pw.low) / (2 * t_quantile(pw.confidence, n_deals))
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
