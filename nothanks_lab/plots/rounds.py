"""Figures of one round: the round move by move (`plot_timeline`) and its review (`plot_review`).

`plot_timeline` replays a round's moves on the engine, so every chip count and card-points
value drawn is the engine's own, and labels every take on the taker's line in the seat's
colour (`SEAT_COLORS`); `plot_review` draws a reviewed seat's win chance over the round, every
decision marked in its label's colour (`LABEL_COLORS`) and every slip written out. Both are
meant to read without hovering, from a projector or a printed handout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..engine import Action, Game
from ..i18n import _, fmt_decimal, fmt_percent
from ..render.figures import OKABE_ITO
from ..render.review import LABEL_COLORS  # one colour per label, in the figures and the HTML
from ..rules import Rules
from ..validate import check_rules
from .common import FONT_SIZE, _add_band, _bounds, _style

#: Colour of each seat in figures of one round (seat i gets the i-th).
SEAT_COLORS = tuple(
    OKABE_ITO[k]
    for k in ("blue", "orange", "bluish_green", "vermillion", "reddish_purple", "sky_blue", "black")
)
#: Review labels from good to bad.
LABELS_ORDER = ("good", "inaccuracy", "mistake", "blunder")


def _timeline_game(game_or_result: Any, rules: Rules | None) -> tuple[Game, Sequence[Any]]:
    """A fresh game at the round's start and the round's moves, to replay step by step."""
    history = tuple(game_or_result.history)
    if isinstance(game_or_result, Game):
        rules = game_or_result.rules
        n_players = game_or_result.n_players
    else:
        rules = check_rules(rules)
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
    names = [_("seat {seat}").format(seat=p) for p in range(n)] if names is None else list(names)
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
        subplot_titles=(_("chips"), _("card points")),
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
    title = _("A round move by move ({n} moves)").format(n=len(history))
    _style(fig, title, "", "", height=700)
    fig.update_xaxes(title_text=_("move"), row=2, col=1)
    # Room on the right for the seats' names at the lines' ends.
    fig.update_xaxes(range=[-1, last * 1.3 + 6])
    fig.update_yaxes(title_text=_("chips"), row=1, col=1)
    fig.update_yaxes(title_text=_("card points"), row=2, col=1)
    fig.update_annotations(font_size=FONT_SIZE + 2)
    return fig


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
    _add_band(fig, x, lo, hi, opacity=0.15)
    fig.add_scatter(
        x=x,
        y=100 * _bounds(better)[0],
        mode="lines",
        line={"color": "#7f7f7f", "dash": "dash", "width": 2},
        name=_("after the better move"),
    )
    fig.add_scatter(
        x=x,
        y=v,
        mode="lines",
        line={"color": OKABE_ITO["blue"], "width": 3},
        name=_("after the move played"),
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
    title = _("Review of {name}: win chance move by move (expected cost {cost} points").format(
        name=review.name, cost=fmt_decimal(review.total_cost.value, 1)
    )
    title += ("" if acc is None else _(", accuracy {p}").format(p=fmt_percent(acc))) + ")"
    _style(fig, title, _("move of the round"), _("win chance (%)"), height=560)
    fig.update_yaxes(range=[-5, 105])
    return fig
