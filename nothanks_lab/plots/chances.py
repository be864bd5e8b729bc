"""Figures of chances: which cards are still to come, how many were removed, how runs fall.

The exact answers of :mod:`nothanks_lab.probability` drawn as bars (in red, `EXACT_COLOR`),
beside their Monte Carlo twins as black markers with 95% intervals, and a simulation's estimate
closing in on the exact value as it grows (`plot_convergence`). These are the figures of the
probability lessons and of the probability explorer widget.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..i18n import _, fmt_int
from ..render.cards import BUTTON_COLORS, CARD_STATUS_KIND
from ..render.figures import OKABE_ITO
from ..rules import Rules
from ..stats import fmt_number
from ..validate import check_rules
from ..view import PlayerView
from .common import EXACT_COLOR, _add_band, _bounds, _column, _error_y, _style, card_axis

#: Colours of a card's status in the in-play chances figure: a card in my hand or taken has the
#: fill of its button in the probability explorer's grid (`render.CARD_STATUS_KIND`), so one
#: status has one colour on grid and chart; the unseen cards, plain in the grid, are blue.
STATUS_COLORS = {
    **{status: BUTTON_COLORS[kind][0] for status, kind in CARD_STATUS_KIND.items()},
    "unseen": OKABE_ITO["blue"],
}


def plot_in_play_chances(
    view_or_seen: PlayerView | Iterable[int] = (),
    *,
    hand: Iterable[int] = (),
    rules: Rules | None = None,
) -> go.Figure:
    """Chance that each card of the deck is in play: one bar per card, coloured by status.

    From a `PlayerView`: the view's own cards (mine), the other cards seen (taken or face up,
    certainly in play) and the unseen ones (each still to come with the same chance). Or
    from explicit seen cards and `hand`.
    """
    from ..probability import p_in_play_each

    if isinstance(view_or_seen, PlayerView):
        view = view_or_seen
        chances = p_in_play_each(view)
        mine, seen, rules = set(view.my_hand), set(view.seen_cards), view.rules
        title = _("Which cards are still to come? (seat {seat}, {n} face down)").format(
            seat=view.seat, n=view.cards_left
        )
    else:
        rules = check_rules(rules)
        mine = set(rules.check_cards(hand, what="hand"))
        seen = set(rules.check_cards(view_or_seen, what="seen cards")) | mine
        chances = p_in_play_each(sorted(seen), rules)
        title = _("Which cards are still to come?")
    fig = go.Figure()
    groups = {
        "mine": (_("in my hand"), [c for c in rules.cards if c in mine]),
        "seen": (_("seen: taken or face up"), [c for c in rules.cards if c in seen - mine]),
        "unseen": (
            _("unseen: face down or removed"),
            [c for c in rules.cards if c not in seen],
        ),
    }
    for key, (label, cards) in groups.items():
        fig.add_bar(
            x=cards,
            y=[chances[c] for c in cards],
            name=label,
            marker_color=STATUS_COLORS[key],
            hovertemplate=_("card %{x}: %{y:.1%}") + "<extra>" + label + "</extra>",
        )
    _style(fig, title, _("card"), _("chance the card is in play"))
    fig.update_yaxes(range=[0, 1.05], tickformat=".0%")
    fig.update_xaxes(**card_axis(rules.low_card, rules.high_card, every=5))
    return fig


def _pmf_figure(
    exact: Sequence[float] | np.ndarray,
    simulated: Sequence[Any] | np.ndarray | None,
    title: str,
    x_label: str,
) -> go.Figure:
    exact = np.asarray(exact, dtype=np.float64)
    xs = list(range(len(exact)))
    fig = go.Figure()
    fig.add_bar(x=xs, y=exact.tolist(), name=_("exact"), marker_color=EXACT_COLOR, opacity=0.75)
    if simulated is not None:
        sim = list(simulated)
        if len(sim) != len(exact):
            raise ValueError(
                f"simulated has {len(sim)} entries but the exact distribution has {len(exact)}"
            )
        if sim and hasattr(sim[0], "low"):
            v, lo, hi = _bounds(sim)
            n = getattr(sim[0], "n", None)
            fig.add_scatter(
                x=xs,
                y=v.tolist(),
                mode="markers",
                name=(
                    _("simulated ({n} rounds, 95% CI)").format(n=fmt_int(n))
                    if n
                    else _("simulated (95% CI)")
                ),
                marker={"size": 10, "color": "black"},
                error_y=_error_y(v, lo, hi),
            )
        else:
            fig.add_scatter(
                x=xs,
                y=np.asarray(sim, dtype=np.float64).tolist(),
                mode="markers",
                name=_("simulated"),
                marker={"size": 10, "color": "black"},
            )
    _style(fig, title, x_label, _("probability"))
    fig.update_xaxes(dtick=1)
    return fig


def plot_removed_count(
    pmf: Sequence[float] | np.ndarray,
    simulated: Sequence[Any] | np.ndarray | None = None,
    *,
    cards: Iterable[int] | None = None,
) -> go.Figure:
    """How many of a set of cards were removed: the exact pmf, optionally beside a simulation.

    `pmf` is :func:`nothanks_lab.probability.removed_count_pmf`; `simulated` its Monte Carlo
    twin (a list of estimates, drawn with their intervals) or plain frequencies.
    """
    title = (
        _("How many cards of {cards} were removed?").format(cards=sorted(cards))
        if cards is not None
        else _("How many cards were removed?")
    )
    return _pmf_figure(pmf, simulated, title, _("number of these cards removed"))


def plot_run_count(
    exact: Sequence[float] | np.ndarray, simulated: Sequence[Any] | np.ndarray | None = None
) -> go.Figure:
    """Number of runs the in-play cards form: exact distribution versus a simulation."""
    return _pmf_figure(
        exact,
        simulated,
        _("Runs formed by the in-play cards: exact vs simulated"),
        _("number of runs"),
    )


def plot_convergence(rows: Sequence[Any], *, what: str = "probability") -> go.Figure:
    """A simulation approaching the exact value as it grows: estimate, 95% band, exact line.

    `rows` are :func:`nothanks_lab.probability.convergence` rows (``n, estimate, low, high,
    exact``), or dicts with those keys.
    """
    recs = [r._asdict() if hasattr(r, "_asdict") else dict(r) for r in rows]
    if not recs:
        raise ValueError("there is nothing to plot: no convergence rows")
    n = np.array(_column(recs, "n"), dtype=np.float64)
    est = np.array(_column(recs, "estimate"), dtype=np.float64)
    low = np.array(_column(recs, "low"), dtype=np.float64)
    high = np.array(_column(recs, "high"), dtype=np.float64)
    exact = float(recs[0]["exact"])
    fig = go.Figure()
    _add_band(fig, n, low, high, opacity=0.2)
    fig.add_scatter(
        x=n.tolist(), y=est.tolist(), mode="lines+markers", name=_("simulated"), line={"width": 3}
    )
    fig.add_scatter(
        x=[n.min(), n.max()],
        y=[exact, exact],
        mode="lines",
        name=_("exact = {value}").format(value=fmt_number(exact, ".4g")),
        line={"color": EXACT_COLOR, "dash": "dash", "width": 3},
    )
    shown = _(what)  # the default word, "probability", in the language in use
    title = _("Simulation converging to the exact {what}").format(what=shown)
    _style(fig, title, _("simulated rounds"), shown)
    fig.update_xaxes(type="log")
    return fig
