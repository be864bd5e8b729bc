"""Plotly figures for the lessons and the lab: each ``plot_*(data) -> go.Figure``.

Every function takes plain data (a view, arrays, the package's result objects or their
``to_records()`` tables) and returns a figure; none calls ``.show()``, so a notebook displays
the figure, a widget wraps it in ``go.FigureWidget``, and a test reads its traces. Figures are
styled for a classroom projector (large fonts, titled axes) and carry no reference to a CDN:
:func:`figure_html` embeds plotly.js itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .engine import Action, Game
from .rules import Rules
from .view import PlayerView

__all__ = [
    "figure_html",
    "plot_chip_value",
    "plot_convergence",
    "plot_exploitability",
    "plot_in_play_chances",
    "plot_pairwise",
    "plot_ratings",
    "plot_removed_count",
    "plot_review",
    "plot_run_count",
    "plot_score_distribution",
    "plot_seat_positions",
    "plot_sweep",
    "plot_take_pass",
    "plot_take_rate",
    "plot_timeline",
    "plot_win_shares",
]

#: Base font size: legible from the back of a classroom.
FONT_SIZE = 16
#: Colours of a card's status in the in-play chances figure.
STATUS_COLORS = {"mine": "#2ca02c", "seen": "#9e9e9e", "unseen": "#1f77b4"}
#: Colour of exact values beside simulated ones.
EXACT_COLOR = "#d62728"
#: Background of every figure: a white card, on a light page or on JupyterLab's dark theme.
BACKGROUND = "white"
#: Colour of every text on a figure: near-black, readable on the white background.
TEXT_COLOR = "#1a1a1a"
#: Colour of each seat in figures of one round (seat i gets the i-th).
SEAT_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")


def _style(fig: go.Figure, title: str, x: str, y: str, **layout: Any) -> go.Figure:
    """Apply the package's projector-friendly look: big fonts, white background, titles.

    The background and the text colour are set explicitly, not left to the template or the
    page: on JupyterLab's dark theme the figure stays a white card with dark text, so no label
    takes on a colour that vanishes against its background.
    """
    layout = {"legend": {}, "margin": {"t": 80}, **layout}
    layout["legend"] = {"font": {"size": FONT_SIZE, "color": TEXT_COLOR}, **layout["legend"]}
    fig.update_layout(
        title={"text": title, "font": {"size": FONT_SIZE + 6, "color": TEXT_COLOR}},
        font={"size": FONT_SIZE, "color": TEXT_COLOR},
        template="plotly_white",
        paper_bgcolor=BACKGROUND,
        plot_bgcolor=BACKGROUND,
        **layout,
    )
    fig.update_xaxes(title_text=x, title_font={"size": FONT_SIZE + 2})
    fig.update_yaxes(title_text=y, title_font={"size": FONT_SIZE + 2})
    return fig


def figure_html(fig: go.Figure) -> str:
    """A self-contained HTML page of `fig`: plotly.js inline, nothing fetched from a CDN."""
    return fig.to_html(include_plotlyjs=True, full_html=True)


def _bounds(estimates: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Values, lower and upper ends of a sequence of estimates (anything with value/low/high)."""
    v = np.array([e.value for e in estimates], dtype=np.float64)
    lo = np.array([e.low for e in estimates], dtype=np.float64)
    hi = np.array([e.high for e in estimates], dtype=np.float64)
    return v, lo, hi


def _error_y(value: np.ndarray, low: np.ndarray, high: np.ndarray) -> dict[str, Any]:
    """Asymmetric error bars spanning the interval [low, high] around `value`."""
    return {
        "type": "data",
        "symmetric": False,
        "array": (high - value).tolist(),
        "arrayminus": (value - low).tolist(),
        "thickness": 2,
    }


def _records(data: Any) -> list[dict[str, Any]]:
    """A tidy table from a result with ``to_records()`` or a sequence of dicts."""
    recs = data.to_records() if hasattr(data, "to_records") else data
    out = [dict(r) for r in recs]
    if not out:
        raise ValueError("there is nothing to plot: the table has no rows")
    return out


def _column(recs: list[dict[str, Any]], key: str) -> list[Any]:
    missing = [i for i, r in enumerate(recs) if key not in r]
    if missing:
        raise ValueError(f"row {missing[0]} has no column {key!r}; columns: {sorted(recs[0])}")
    return [r[key] for r in recs]


# ------------------------------------------------------------------------ probability
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
    from .probability import p_in_play_each

    if isinstance(view_or_seen, PlayerView):
        view = view_or_seen
        chances = p_in_play_each(view)
        mine, seen, rules = set(view.my_hand), set(view.seen_cards), view.rules
        title = f"Which cards are still to come? (seat {view.seat}, {view.cards_left} face down)"
    else:
        rules = Rules() if rules is None else rules
        mine = set(rules.check_cards(hand, what="hand"))
        seen = set(rules.check_cards(view_or_seen, what="seen cards")) | mine
        chances = p_in_play_each(sorted(seen), rules)
        title = "Which cards are still to come?"
    fig = go.Figure()
    groups = {
        "mine": ("in my hand", [c for c in rules.cards if c in mine]),
        "seen": ("seen: taken or face up", [c for c in rules.cards if c in seen - mine]),
        "unseen": ("unseen: face down or removed", [c for c in rules.cards if c not in seen]),
    }
    for key, (label, cards) in groups.items():
        fig.add_bar(
            x=cards,
            y=[chances[c] for c in cards],
            name=label,
            marker_color=STATUS_COLORS[key],
            hovertemplate="card %{x}: %{y:.1%}<extra>" + label + "</extra>",
        )
    _style(fig, title, "card", "chance the card is in play")
    fig.update_yaxes(range=[0, 1.05], tickformat=".0%")
    fig.update_xaxes(dtick=1, range=[rules.low_card - 0.6, rules.high_card + 0.6])
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
    fig.add_bar(x=xs, y=exact.tolist(), name="exact", marker_color=EXACT_COLOR, opacity=0.75)
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
                name=f"simulated ({n:,} rounds, 95% CI)" if n else "simulated (95% CI)",
                marker={"size": 10, "color": "black"},
                error_y=_error_y(v, lo, hi),
            )
        else:
            fig.add_scatter(
                x=xs,
                y=np.asarray(sim, dtype=np.float64).tolist(),
                mode="markers",
                name="simulated",
                marker={"size": 10, "color": "black"},
            )
    _style(fig, title, x_label, "probability")
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
    what = f" of {sorted(cards)}" if cards is not None else ""
    return _pmf_figure(
        pmf, simulated, f"How many cards{what} were removed?", "number of these cards removed"
    )


def plot_run_count(
    exact: Sequence[float] | np.ndarray, simulated: Sequence[Any] | np.ndarray | None = None
) -> go.Figure:
    """Number of runs the in-play cards form: exact distribution versus a simulation."""
    return _pmf_figure(
        exact, simulated, "Runs formed by the in-play cards: exact vs simulated", "number of runs"
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
    fig.add_scatter(
        x=np.concatenate([n, n[::-1]]).tolist(),
        y=np.concatenate([high, low[::-1]]).tolist(),
        fill="toself",
        fillcolor="rgba(31, 119, 180, 0.2)",
        line={"width": 0},
        name="95% interval",
        hoverinfo="skip",
    )
    fig.add_scatter(
        x=n.tolist(), y=est.tolist(), mode="lines+markers", name="simulated", line={"width": 3}
    )
    fig.add_scatter(
        x=[n.min(), n.max()],
        y=[exact, exact],
        mode="lines",
        name=f"exact = {exact:.4g}",
        line={"color": EXACT_COLOR, "dash": "dash", "width": 3},
    )
    _style(fig, f"Simulation converging to the exact {what}", "simulated rounds", what)
    fig.update_xaxes(type="log")
    return fig


# ------------------------------------------------------------------------ analysis
def plot_chip_value(cv: Any, metric: str = "score_change") -> go.Figure:
    """What extra starting chips are worth: one curve per player count, with 95% intervals.

    `cv` is an :class:`nothanks_lab.analysis.ChipValue` (or its ``to_records()``); `metric` is
    ``"score_change"``, ``"win_change"``, ``"score"`` or ``"win"``.
    """
    labels = {
        "score_change": "change in final score (lower is better)",
        "win_change": "change in win chance",
        "score": "mean final score",
        "win": "win chance",
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
            name=f"{p} players",
            error_y=_error_y(v, lo, hi),
            line={"width": 3},
            marker={"size": 9},
        )
    _style(fig, "What is a chip worth?", "extra starting chips", labels[metric])
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
        colorbar={"title": {"text": "Take − No Thanks!<br>(points)"}},
        name="Take − No Thanks!",
        hovertemplate="card %{y}, pot %{x}: %{z:+.1f} points<extra></extra>",
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
            name=f"{boundary.bot} takes from here",
        )
    hand = f" holding {list(surface.hand)}" if surface.hand else ""
    kind = "this move only" if surface.method == "immediate" else "whole-round rollouts"
    _style(
        fig,
        f"Take or No Thanks!{hand} ({kind})",
        "chips on the card (pot)",
        "card",
        legend={"orientation": "h", "y": -0.2},
    )
    return fig


# ------------------------------------------------------------------------ tournaments
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
        name=metric.replace("_", " "),
        marker_color="#1f77b4",
    )
    players = recs[0].get("n_players")
    if metric == "win_share" and players:
        fig.add_hline(
            y=1 / players,
            line_dash="dash",
            line_color=EXACT_COLOR,
            annotation_text=f"fair share 1/{players}",
        )
    title = "Win share (shared wins split)" if metric == "win_share" else "Mean final score"
    if players:
        title += f", {players} players"
    _style(fig, title, "bot", "win share" if metric == "win_share" else "mean score (lower wins)")
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
    label = value.replace("_", " ")
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
        _style(fig, f"Sweep: {label} against {x}", x, label)
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
    _style(fig, f"Sweep: {label} over {x} × {y}", x, y)
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
        names = labels if labels is not None else [f"seat {p}" for p in range(arr.shape[1])]
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
            name=f"{name} (mean {v.mean():.1f})",
            opacity=0.6,
        )
    n_games = max(len(v) for v in series.values())
    _style(
        fig,
        f"Final scores over {n_games:,} rounds (lower wins)",
        "final score",
        "share of rounds" if normalize else "rounds",
        barmode="overlay",
        bargap=0,
    )
    if normalize:
        fig.update_yaxes(tickformat=".0%")
    return fig


# ------------------------------------------------------------------------ one round
def _timeline_game(game_or_result: Any, rules: Rules | None) -> tuple[Game, Sequence[Any]]:
    """A fresh game at the round's start and the round's moves, to replay step by step."""
    history = tuple(game_or_result.history)
    if isinstance(game_or_result, Game):
        rules = game_or_result.rules
        n_players = game_or_result.n_players
    else:
        rules = Rules() if rules is None else rules
        n_players = len(game_or_result.scores)
    taken = [e.card for e in history if e.action is Action.TAKE]
    # The turning order is the order cards were taken; a round still running adds its active
    # card, and any unseen cards stand in for the face-down ones (the moves never reach them).
    rest = [] if getattr(game_or_result, "is_over", True) else [game_or_result.active_card]
    used = set(taken) | set(rest)
    filler = [c for c in rules.cards if c not in used]
    deck = [*taken, *rest, *filler][: rules.n_in_play]
    game = Game(n_players, rules=rules, deck=deck, first_player=game_or_result.first_player)
    return game, history


def _take_labels(history: Sequence[Any]) -> dict[int, tuple[int, str]]:
    """Move index -> (seat, text) for the timeline: the card(s) taken and the chips they brought.

    Takes in a row by one seat (a taker acts again) share one label at the last of them,
    ``"31, 32 +4"``, so a run grabbed at the end of a round does not stack labels on each other.
    """
    labels: dict[int, tuple[int, str]] = {}
    group: list[Any] = []
    for i, e in enumerate([*history, None]):
        if group and (e is None or e.action is not Action.TAKE or e.seat != group[0].seat):
            pot = sum(g.pot for g in group)
            cards = ", ".join(str(g.card) for g in group)
            labels[i] = (group[0].seat, f"{cards} +{pot}" if pot else cards)
            group = []
        if e is not None and e.action is Action.TAKE:
            group.append(e)
    return labels


def plot_timeline(
    game_or_result: Any, *, names: Sequence[str] | None = None, rules: Rules | None = None
) -> go.Figure:
    """A round move by move: each seat's chips (top) and card points (bottom).

    Takes a :class:`~nothanks_lab.engine.Game` (finished or not) or a
    :class:`~nothanks_lab.play.GameResult` (give `rules` for a variant; a Game knows its own).
    The moves are replayed on the engine, so every point is the engine's own count. The figure
    reads without hovering: every take is a marker on the taker's card-points line, in the
    taker's colour, labelled with the card and the chips it brought (``"27 +3"``), and each
    line ends with the seat's name and final count.
    """
    game, history = _timeline_game(game_or_result, rules)
    n = game.n_players
    names = [f"seat {p}" for p in range(n)] if names is None else list(names)
    if len(names) != n:
        raise ValueError(f"names must name {n} seats; got {len(names)}")
    chips = [game.chips]
    points = [game.card_points()]
    hover = ["start"]
    for e in history:
        game.step(e.action)
        chips.append(game.chips)
        points.append(game.card_points())
        hover.append(e.describe(names))
    moves = list(range(len(history) + 1))
    last = len(history)
    takes = _take_labels(history)
    # Alternate above-left and below-right so neighbouring labels do not collide.
    side = {m: ("top left", "bottom right")[k % 2] for k, m in enumerate(sorted(takes))}
    # Names at the lines' ends tell the seats apart even when two seats share a name.
    ends = [f"{x} {p}" if names.count(x) > 1 else x for p, x in enumerate(names)]
    fig = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.08,
        subplot_titles=("chips", "card points"),
    )
    for p in range(n):
        color = SEAT_COLORS[p % len(SEAT_COLORS)]
        mine = {m: text for m, (seat, text) in takes.items() if seat == p}
        for row, series in ((1, chips), (2, points)):
            labels = [mine.get(m, "") if row == 2 else "" for m in moves]
            end = f"{ends[p]}: {series[-1][p]}"
            labels[last] = f"{labels[last]}  {end}" if labels[last] else end
            fig.add_scatter(
                x=moves,
                y=[s[p] for s in series],
                mode="lines+markers+text",
                line={"shape": "hv", "width": 3, "color": color},
                marker={
                    "size": [9 if row == 2 and m in mine else 0 for m in moves],
                    "color": color,
                },
                text=labels,
                textposition=[
                    "middle right" if m == last else side.get(m, "top left") for m in moves
                ],
                textfont={"size": FONT_SIZE - 3, "color": color},
                name=names[p],
                legendgroup=names[p],
                showlegend=row == 1,
                customdata=hover,
                hovertemplate="%{customdata}<br>" + names[p] + ": %{y}<extra></extra>",
                row=row,
                col=1,
            )
    _style(fig, f"A round move by move ({len(history)} moves)", "", "", height=700)
    fig.update_xaxes(title_text="move", row=2, col=1)
    # Room on the right for the seats' names at the lines' ends.
    fig.update_xaxes(range=[-1, last * 1.3 + 6])
    fig.update_yaxes(title_text="chips", row=1, col=1)
    fig.update_yaxes(title_text="card points", row=2, col=1)
    fig.update_annotations(font_size=FONT_SIZE + 2)
    return fig


#: Review labels from good to bad.
LABELS_ORDER = ("good", "inaccuracy", "mistake", "blunder")
#: Marker colour of each review label, from good to bad.
LABEL_COLORS = {
    "good": "#2ca02c",
    "inaccuracy": "#e6b800",
    "mistake": "#ff7f0e",
    "blunder": "#d62728",
}


def plot_review(review: Any) -> go.Figure:
    """A reviewed seat's win chance over the round, every decision marked by its label.

    Takes a :class:`~nothanks_lab.review.Review`. The line is the estimated win chance after
    the move played (band: its 95% interval), the dashed line the same after the better move;
    each decision is a marker coloured by its label, and every move not labelled good is
    written out beside it (its card, the move, the label and the cost; the same slip repeated
    on one card, round after round, as one note), so the figure reads without hovering.
    """
    moves = list(review.moves)
    if not moves:
        raise ValueError("the review holds no decision to plot (the seat never moved)")
    x = [m.index + 1 for m in moves]
    played = [m.played.win for m in moves]
    better = [m.better.win for m in moves]
    v, lo, hi = (100 * a for a in _bounds(played))
    fig = go.Figure()
    fig.add_scatter(
        x=x + x[::-1],
        y=list(hi) + list(lo[::-1]),
        fill="toself",
        fillcolor="rgba(31, 119, 180, 0.15)",
        line={"width": 0},
        hoverinfo="skip",
        name="95% interval",
    )
    fig.add_scatter(
        x=x,
        y=100 * _bounds(better)[0],
        mode="lines",
        line={"color": "#7f7f7f", "dash": "dash", "width": 2},
        name="after the better move",
    )
    fig.add_scatter(
        x=x,
        y=v,
        mode="lines",
        line={"color": "#1f77b4", "width": 3},
        name="after the move played",
    )
    for label, color in LABEL_COLORS.items():
        idx = [i for i, m in enumerate(moves) if m.label == label]
        if not idx:
            continue
        fig.add_scatter(
            x=[x[i] for i in idx],
            y=[v[i] for i in idx],
            mode="markers",
            marker={"color": color, "size": 9 if label == "good" else 14, "line": {"width": 1}},
            name=f"{label} ({len(idx)})",
            hovertext=[
                f"move {x[i]}: card {moves[i].card}, pot {moves[i].pot}: {moves[i].action}; "
                f"better {moves[i].best}; cost {moves[i].cost:.1f} points"
                for i in idx
            ],
            hoverinfo="text",
        )
    # Written labels: one per run of the same slip (a card passed round after round), offsets
    # alternating above and below the curve so neighbouring labels do not overprint.
    groups: list[list[int]] = []
    for i, m in enumerate(moves):
        if m.label == "good":
            continue
        last = groups[-1][-1] if groups else None
        if (
            last is not None
            and moves[last].card == m.card
            and moves[last].action is m.action
            and last == i - 1
        ):
            groups[-1].append(i)
        else:
            groups.append([i])
    offsets = (-45, 45, -85, 85)
    for k, group in enumerate(groups):
        first = moves[group[0]]
        worst = max(group, key=lambda i: LABELS_ORDER.index(moves[i].label))
        costs = [moves[i].cost for i in group]
        times = f" ×{len(group)}" if len(group) > 1 else ""
        cost = f"−{costs[0]:.1f}" if len(group) == 1 else f"−{min(costs):.1f} to −{max(costs):.1f}"
        fig.add_annotation(
            x=x[group[0]],
            y=v[group[0]],
            text=f"{first.card}: {first.action}{times}<br>{moves[worst].label}, {cost} pts",
            showarrow=True,
            arrowhead=2,
            arrowcolor=LABEL_COLORS[moves[worst].label],
            ax=0,
            ay=offsets[k % len(offsets)],
            font={"size": FONT_SIZE - 3, "color": LABEL_COLORS[moves[worst].label]},
            bgcolor="rgba(255, 255, 255, 0.85)",
        )
    acc = review.accuracy
    title = (
        f"Review of {review.name}: win chance move by move "
        f"(expected cost {review.total_cost.value:.1f} points"
        + ("" if acc is None else f", accuracy {acc:.0%}")
        + ")"
    )
    _style(fig, title, "move of the round", "win chance (%)", height=560)
    fig.update_yaxes(range=[-5, 105])
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
            else f"{share[a, b]:.0%}<br>[{pw.low[a, b]:.0%}, {pw.high[a, b]:.0%}]"
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
            colorbar={"title": "row beats column", "tickformat": ".0%"},
        )
    )
    _style(fig, "Head to head: how often the row bot scored lower", "column bot", "row bot")
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
        marker={"size": 12, "color": "#1f77b4"},
        error_x=_error_y(v, lo, hi),
        name="rating",
    )
    anchor = f" (0 = {rt.anchor})" if rt.anchor else " (0 = the field's mean)"
    _style(
        fig,
        "Ratings on the Elo scale" + anchor,
        "rating (400 = 10-to-1 odds)",
        "bot",
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
    labels = [f"seat {s}" + (" (first)" if s == first else "") for s in range(p)]
    fig = go.Figure()
    fig.add_bar(
        x=labels,
        y=np.asarray(v).tolist(),
        error_y=_error_y(np.asarray(v), ci[:, 0], ci[:, 1]),
        text=[f"{x:.1%}" if metric == "win_share" else f"{x:.1f}" for x in v],
        textposition="outside",
        marker_color="#1f77b4",
    )
    if metric == "win_share":
        fig.add_hline(
            y=1 / p, line_dash="dash", line_color=EXACT_COLOR, annotation_text=f"fair share 1/{p}"
        )
        fig.update_yaxes(tickformat=".0%")
    title = "Win share by seat" if metric == "win_share" else "Mean score by seat"
    _style(fig, title, "seat (in turn order)", metric.replace("_", " "), showlegend=False)
    return fig


def plot_take_rate(
    net_costs: Sequence[int],
    takes: Sequence[bool],
    *,
    threshold: float | None = None,
    name: str = "perfect play",
) -> go.Figure:
    """How often a policy takes, by the card's net cost (its marginal points minus the pot).

    `net_costs` and `takes` hold one entry per position with a choice. A `MarginalCostBot`
    with `threshold` (drawn when given) takes exactly when the net cost is at most it.
    """
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
        marker_color="#1f77b4",
        customdata=counts.tolist(),
        hovertemplate="net cost %{x}: takes in %{y:.1%} of %{customdata} positions<extra></extra>",
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
        f"How often {name} takes",
        "net cost: the card's marginal points minus the pot",
        "share of positions where it takes",
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
        marker_color="#1f77b4",
        text=[f"{round(g, 3) + 0.0:.3f}" for g in gaps],  # + 0.0: never "-0.000"
        textposition="outside",
        customdata=[[float(e.first), float(e.second)] for e in table.values()],
        hovertemplate=(
            "%{y}: a best response wins %{customdata[0]:.3f} acting first, "
            "%{customdata[1]:.3f} acting second<extra></extra>"
        ),
    )
    _style(
        fig,
        "Distance from perfect play (0 = perfect)",
        "a best response's win chance minus 1/2, mean over both seats",
        "",
        showlegend=False,
        height=max(320, 60 * len(names) + 160),
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(range=[0, max(0.55, max(gaps) * 1.15)])
    return fig
