"""Figures of what a decision is worth: a chip, a take or a pass, a policy against perfect play.

`plot_chip_value` and `plot_take_pass` draw the estimates of :mod:`nothanks_lab.analysis`
(what extra starting chips are worth; Take minus No Thanks! over card × pot, with a bot's
boundary on top); `plot_take_rate` and `plot_exploitability` draw the perfect-play lesson's
findings from :mod:`nothanks_lab.exact` (how often a policy takes by net cost; how far each
policy is from perfect play). These are the figures of the chip-value and perfect-play lessons
and of the chip-value explorer widget.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..i18n import N_, _
from ..render.figures import OKABE_ITO
from .common import EXACT_COLOR, _error_y, _records, _style


def plot_chip_value(cv: Any, metric: str = "score_change") -> go.Figure:
    """What extra starting chips are worth: one curve per player count, with 95% intervals.

    `cv` is an :class:`nothanks_lab.analysis.ChipValue` (or its ``to_records()``); `metric` is
    ``"score_change"``, ``"win_change"``, ``"score"`` or ``"win"``.
    """
    labels = {
        "score_change": _("change in final score (lower is better)"),
        "win_change": _("change in win chance"),
        "score": _("mean final score"),
        "win": _("win chance"),
    }
    if metric not in labels:
        raise ValueError(f"metric must be one of {sorted(labels)}; got {metric!r}")
    recs = _records(cv)
    fig = go.Figure()
    for p in sorted({r["n_players"] for r in recs}):
        rows = sorted((r for r in recs if r["n_players"] == p), key=lambda r: r["extra_chips"])
        v = np.array([r[metric] for r in rows])
        lo = np.array([r[f"{metric}_low"] for r in rows])
        hi = np.array([r[f"{metric}_high"] for r in rows])
        fig.add_scatter(
            x=[r["extra_chips"] for r in rows],
            y=v.tolist(),
            mode="lines+markers",
            name=_("{n} players").format(n=p),
            error_y=_error_y(v, lo, hi),
            line={"width": 3},
            marker={"size": 9},
        )
    _style(fig, _("What is a chip worth?"), _("extra starting chips"), labels[metric])
    fig.update_xaxes(dtick=1)
    if "win" in metric:
        fig.update_yaxes(tickformat=".0%")
    return fig


def plot_take_pass(surface: Any, boundary: Any | None = None) -> go.Figure:
    """Take minus No Thanks! over card × pot as a heatmap, optionally with a bot's boundary.

    `surface` is a :class:`nothanks_lab.analysis.TakePassSurface` (blue: Take is better, red:
    No Thanks! is better); `boundary` a :class:`nothanks_lab.analysis.BotBoundary`, drawn as the
    smallest pot at which the bot takes each card.
    """
    z = np.asarray(surface.values, dtype=np.float64)
    fig = go.Figure()
    fig.add_heatmap(
        x=list(surface.pots),
        y=list(surface.cards),
        z=z.tolist(),
        zmid=0,
        colorscale="RdBu_r",
        colorbar={"title": {"text": _("Take − No Thanks!<br>(points)")}},
        name=_("Take − No Thanks!"),
        hovertemplate=_("card %{y}, pot %{x}: %{z:+.1f} points") + "<extra></extra>",
    )
    if boundary is not None:
        takes = boundary.take_from
        cards = [c for c in boundary.cards if takes[c] is not None]
        fig.add_scatter(
            x=[takes[c] for c in cards],
            y=cards,
            mode="lines+markers",
            line={"shape": "vh", "color": "black", "width": 3},
            marker={"size": 8},
            name=_("{bot} takes from here").format(bot=boundary.bot),
        )
    hand = _(" holding {hand}").format(hand=list(surface.hand)) if surface.hand else ""
    kind = _("this move only") if surface.method == "immediate" else _("whole-round rollouts")
    _style(
        fig,
        _("Take or No Thanks!{hand} ({kind})").format(hand=hand, kind=kind),
        _("chips on the card (pot)"),
        _("card"),
        legend={"orientation": "h", "y": -0.2},
    )
    return fig


def plot_take_rate(
    net_costs: Sequence[int],
    takes: Sequence[bool],
    *,
    threshold: float | None = None,
    name: str = N_("perfect play"),
) -> go.Figure:
    """How often a policy takes, by the card's net cost (its marginal points minus the pot).

    `net_costs` and `takes` hold one entry per position with a choice. A `MarginalCostBot`
    with `threshold` (drawn when given) takes exactly when the net cost is at most it.
    """
    name = _(name)  # the default, "perfect play", in the language in use
    costs = np.asarray(net_costs, dtype=np.int64)
    took = np.asarray(takes, dtype=bool)
    if costs.shape != took.shape or costs.ndim != 1 or costs.size == 0:
        raise ValueError(
            f"net_costs and takes must be two equally long, non-empty sequences; got "
            f"{costs.shape} and {took.shape}"
        )
    xs = np.unique(costs)
    counts = np.array([(costs == x).sum() for x in xs])
    share = np.array([took[costs == x].mean() for x in xs])
    fig = go.Figure()
    fig.add_bar(
        x=xs.tolist(),
        y=share.tolist(),
        name=name,
        marker_color=OKABE_ITO["blue"],
        customdata=counts.tolist(),
        hovertemplate=_("net cost %{x}: takes in %{y:.1%} of %{customdata} positions")
        + "<extra></extra>",
    )
    if threshold is not None:
        fig.add_scatter(
            x=xs.tolist(),
            y=[1.0 if x <= threshold else 0.0 for x in xs],
            mode="lines",
            line={"shape": "hvh", "color": EXACT_COLOR, "width": 3},
            name=f"MarginalCostBot({threshold:g})",
        )
    _style(
        fig,
        _("How often {name} takes").format(name=name),
        _("net cost: the card's marginal points minus the pot"),
        _("share of positions where it takes"),
        legend={"orientation": "h", "y": -0.25},
    )
    fig.update_yaxes(tickformat=".0%", range=[0, 1.05])
    return fig


def plot_exploitability(table: Mapping[str, Any]) -> go.Figure:
    """How far each policy is from perfect play: what a best response wins beyond a fair share.

    `table` maps a policy's name to its :class:`nothanks_lab.exact.Exploitability` (anything
    with ``gap``, ``first`` and ``second``); bars keep the mapping's order.
    """
    if not table:
        raise ValueError("table must map at least one policy name to its exploitability")
    names = [str(k) for k in table]
    gaps = [float(e.gap) for e in table.values()]
    fig = go.Figure()
    fig.add_bar(
        y=names,
        x=gaps,
        orientation="h",
        marker_color=OKABE_ITO["blue"],
        text=[f"{round(g, 3) + 0.0:.3f}" for g in gaps],  # + 0.0: never "-0.000"
        textposition="outside",
        customdata=[[float(e.first), float(e.second)] for e in table.values()],
        hovertemplate=_(
            "%{y}: a best response wins %{customdata[0]:.3f} acting first, "
            "%{customdata[1]:.3f} acting second"
        )
        + "<extra></extra>",
    )
    _style(
        fig,
        _("Distance from perfect play (0 = perfect)"),
        _("a best response's win chance minus 1/2, mean over both seats"),
        "",
        showlegend=False,
        height=max(320, 60 * len(names) + 160),
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(range=[0, max(0.55, max(gaps) * 1.15)])
    return fig
