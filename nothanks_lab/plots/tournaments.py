"""Figures of many games: standings, sweeps, score distributions, head to head, ratings, seats.

Each reads a result of :mod:`nothanks_lab.tournaments` (or of `nothanks_lab.simulate`), or the
tidy table its ``to_records()`` gives, and draws every number with its 95% interval: a bot's
win share or mean score (`plot_win_shares`), a parameter sweep as a curve or a heatmap
(`plot_sweep`), the spread of final scores (`plot_score_distribution`), the head-to-head matrix
(`plot_pairwise`), Bradley–Terry ratings (`plot_ratings`) and the first player's edge
(`plot_seat_positions`). Fair-share lines are dashed in `EXACT_COLOR`. These are the figures of
the bot-lab lessons and the bot-lab widget.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..i18n import N_, _, fmt_decimal, fmt_int
from ..render.figures import OKABE_ITO
from ..stats import fmt_share
from .common import EXACT_COLOR, _column, _error_y, _records, _style

_METRIC_NAMES = {"win_share": N_("win share"), "mean_score": N_("mean score")}


def _metric_name(metric: str) -> str:
    """A result column as a person reads it (``win_share``: "win share"), translated."""
    return _(_METRIC_NAMES.get(metric, metric.replace("_", " ")))


def plot_win_shares(result: Any, *, metric: str = "win_share") -> go.Figure:
    """Each bot's win share (or mean score) with its 95% interval as error bars.

    `result` is a :class:`nothanks_lab.tournaments.TournamentResult` or its ``to_records()``
    (rows with ``bot``, ``win_share``, ``win_share_low``, ``win_share_high``; or
    ``mean_score``, ``score_low``, ``score_high``). Bars keep the table's order (best first).
    """
    if metric not in ("win_share", "mean_score"):
        raise ValueError(f"metric must be 'win_share' or 'mean_score'; got {metric!r}")
    recs = _records(result)
    lo_key, hi_key = ("win_share_low", "win_share_high")
    if metric == "mean_score":
        lo_key, hi_key = ("score_low", "score_high")
    v = np.array(_column(recs, metric), dtype=np.float64)
    lo = np.array(_column(recs, lo_key), dtype=np.float64)
    hi = np.array(_column(recs, hi_key), dtype=np.float64)
    fig = go.Figure()
    fig.add_bar(
        x=[str(b) for b in _column(recs, "bot")],
        y=v.tolist(),
        error_y=_error_y(v, lo, hi),
        name=_metric_name(metric),
        marker_color=OKABE_ITO["blue"],
    )
    players = recs[0].get("n_players")
    if metric == "win_share" and players:
        fig.add_hline(
            y=1 / players,
            line_dash="dash",
            line_color=EXACT_COLOR,
            annotation_text=_("fair share 1/{n}").format(n=players),
        )
    title = _("Win share (shared wins split)") if metric == "win_share" else _("Mean final score")
    if players:
        title += _(", {n} players").format(n=players)
    y_label = _("win share") if metric == "win_share" else _("mean score (lower wins)")
    _style(fig, title, _("bot"), y_label)
    if metric == "win_share":
        fig.update_yaxes(tickformat=".0%")
    return fig


def plot_sweep(result: Any, x: str, y: str | None = None, *, value: str = "win_share") -> go.Figure:
    """A parameter sweep: a heatmap of `value` over two parameters, or a curve over one.

    `result` is a :class:`nothanks_lab.tournaments.SweepResult` or any tidy table (rows of
    dicts) holding columns `x`, `y` and `value` (with ``<value>_low``/``_high`` or
    ``score_low``/``score_high`` for the curve's band when present).
    """
    recs = _records(result)
    xs_all = _column(recs, x)
    vals = np.array(_column(recs, value), dtype=np.float64)
    label = _metric_name(value)
    fig = go.Figure()
    if y is None:
        order = np.argsort(np.asarray(xs_all, dtype=np.float64), kind="stable")
        xv = [xs_all[i] for i in order]
        v = vals[order]
        lo_key = "score_low" if value == "mean_score" else f"{value}_low"
        hi_key = "score_high" if value == "mean_score" else f"{value}_high"
        err = None
        if lo_key in recs[0] and hi_key in recs[0]:
            lo = np.array([recs[i][lo_key] for i in order], dtype=np.float64)
            hi = np.array([recs[i][hi_key] for i in order], dtype=np.float64)
            err = _error_y(v, lo, hi)
        fig.add_scatter(
            x=xv, y=v.tolist(), mode="lines+markers", error_y=err, name=label, line={"width": 3}
        )
        _style(fig, _("Sweep: {value} against {x}").format(value=label, x=x), x, label)
        return fig
    ys_all = _column(recs, y)
    xs = sorted(set(xs_all))
    ys = sorted(set(ys_all))
    z = np.full((len(ys), len(xs)), np.nan)
    for xi, yi, vi in zip(xs_all, ys_all, vals, strict=True):
        z[ys.index(yi), xs.index(xi)] = vi
    fig.add_heatmap(
        x=xs,
        y=ys,
        z=z.tolist(),
        colorscale="Viridis",
        colorbar={"title": {"text": label}},
        hovertemplate=f"{x}=%{{x}}, {y}=%{{y}}: %{{z:.3f}}<extra></extra>",
    )
    _style(fig, _("Sweep: {value} over {x} × {y}").format(value=label, x=x, y=y), x, y)
    return fig


def plot_score_distribution(
    scores: Any, labels: Sequence[str] | None = None, *, normalize: bool = True
) -> go.Figure:
    """Distribution of final scores: one overlaid bar series per seat or per bot.

    `scores` is a simulation result (``.scores`` int[games, seats]), such an array, or a mapping
    of label -> 1-d scores. Bars give each score's share of games (or count, if not
    `normalize`).
    """
    if isinstance(scores, Mapping):
        series = {str(k): np.asarray(v).ravel() for k, v in scores.items()}
    else:
        arr = np.asarray(getattr(scores, "scores", scores))
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.ndim != 2:
            raise ValueError(f"scores must be 1-d or [games, seats]; got shape {arr.shape}")
        seats = [_("seat {seat}").format(seat=p) for p in range(arr.shape[1])]
        names = labels if labels is not None else seats
        if len(names) != arr.shape[1]:
            raise ValueError(f"labels must name {arr.shape[1]} seats; got {len(names)}")
        series = {str(n): arr[:, p] for p, n in enumerate(names)}
    if not series or any(len(v) == 0 for v in series.values()):
        raise ValueError("there is nothing to plot: a score series is empty")
    fig = go.Figure()
    for name, v in series.items():
        vals, counts = np.unique(v.astype(np.int64), return_counts=True)
        y = counts / counts.sum() if normalize else counts
        fig.add_bar(
            x=vals.tolist(),
            y=y.tolist(),
            name=_("{name} (mean {mean})").format(name=name, mean=fmt_decimal(v.mean(), 1)),
            opacity=0.6,
        )
    n_games = max(len(v) for v in series.values())
    _style(
        fig,
        _("Final scores over {n} rounds (lower wins)").format(n=fmt_int(n_games)),
        _("final score"),
        _("share of rounds") if normalize else _("rounds"),
        barmode="overlay",
        bargap=0,
    )
    if normalize:
        fig.update_yaxes(tickformat=".0%")
    return fig


def plot_pairwise(result: Any) -> go.Figure:
    """A tournament's head-to-head matrix: the share of games the row bot beat the column bot.

    `result` is a `TournamentResult` (its `pairwise()` is drawn) or a `Pairwise`. Each cell is
    written out with its interval, so the figure reads without hovering.
    """
    pw = result.pairwise() if hasattr(result, "pairwise") else result
    names = [str(n) for n in pw.names]
    share = np.asarray(pw.share, dtype=np.float64)
    text = [
        [
            ""
            if np.isnan(share[a, b])
            else fmt_share(share[a, b], pw.low[a, b], pw.high[a, b]).replace(" [", "<br>[", 1)
            for b in range(len(names))
        ]
        for a in range(len(names))
    ]
    fig = go.Figure(
        go.Heatmap(
            z=share.tolist(),
            x=names,
            y=names,
            text=text,
            texttemplate="%{text}",
            zmin=0,
            zmax=1,
            colorscale="RdBu",
            colorbar={"title": _("row beats column"), "tickformat": ".0%"},
        )
    )
    title = _("Head to head: how often the row bot scored lower")
    _style(fig, title, _("column bot"), _("row bot"))
    fig.update_yaxes(autorange="reversed")
    return fig


def plot_ratings(ratings: Any) -> go.Figure:
    """Bradley–Terry ratings (Elo scale) with their intervals, best at the top.

    `ratings` is a `Ratings` or a `TournamentResult` (its `ratings()` is drawn). The value is
    printed beside each point, so the figure reads without hovering.
    """
    rt = ratings.ratings() if hasattr(ratings, "ratings") else ratings
    recs = rt.to_records()[::-1]
    v = np.array([r["rating"] for r in recs])
    lo = np.array([r["low"] for r in recs])
    hi = np.array([r["high"] for r in recs])
    fig = go.Figure()
    fig.add_scatter(
        x=v.tolist(),
        y=[r["bot"] for r in recs],
        mode="markers+text",
        text=[f"{x:+.0f}" for x in v],
        textposition="top center",
        marker={"size": 12, "color": OKABE_ITO["blue"]},
        error_x=_error_y(v, lo, hi),
        name=_("rating"),
    )
    anchor = f" (0 = {rt.anchor})" if rt.anchor else _(" (0 = the field's mean)")
    _style(
        fig,
        _("Ratings on the Elo scale") + anchor,
        _("rating (400 = 10-to-1 odds)"),
        _("bot"),
        showlegend=False,
    )
    return fig


def plot_seat_positions(result: Any, *, metric: str = "win_share") -> go.Figure:
    """Win share (or mean score) by seat position with intervals: the first player's edge."""
    if metric not in ("win_share", "mean_score"):
        raise ValueError(f"metric must be 'win_share' or 'mean_score'; got {metric!r}")
    if metric == "win_share":
        v, ci = result.seat_win_share, result.seat_win_share_ci
    else:
        v, ci = result.seat_mean_score, result.seat_score_ci
    p = len(v)
    first = getattr(result, "first_player", 0)
    labels = [
        _("seat {seat}").format(seat=s) + (_(" (first)") if s == first else "") for s in range(p)
    ]
    fig = go.Figure()
    fig.add_bar(
        x=labels,
        y=np.asarray(v).tolist(),
        error_y=_error_y(np.asarray(v), ci[:, 0], ci[:, 1]),
        text=[f"{x:.1%}" if metric == "win_share" else f"{x:.1f}" for x in v],
        textposition="outside",
        marker_color=OKABE_ITO["blue"],
    )
    if metric == "win_share":
        fig.add_hline(
            y=1 / p,
            line_dash="dash",
            line_color=EXACT_COLOR,
            annotation_text=_("fair share 1/{n}").format(n=p),
        )
        fig.update_yaxes(tickformat=".0%")
    title = _("Win share by seat") if metric == "win_share" else _("Mean score by seat")
    y_label = _metric_name(metric)
    _style(fig, title, _("seat (in turn order)"), y_label, showlegend=False)
    return fig
