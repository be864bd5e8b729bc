"""Plotly figures for the lessons and the lab: each ``plot_*(data) -> go.Figure``.

Every function takes plain data (a view, arrays, the package's result objects or their
``to_records()`` tables) and returns a figure; none calls ``.show()``, so a notebook displays
the figure, a widget wraps it in ``go.FigureWidget``, and a test reads its traces. Figures are
styled for a classroom projector (large fonts, titled axes) and carry no reference to a CDN:
:func:`figure_html` embeds plotly.js itself.

One module per concept, every public name re-exported here: `common` (the shared look,
`figure_html`, the interval and table helpers), `chances` (in-play chances, removed-card and
run-count distributions, convergence), `decisions` (chip value, take-or-pass surface, take rate,
distance from perfect play), `tournaments` (win shares, sweeps, score distributions, head to
head, ratings, seats) and `rounds` (a round's timeline and its review). Public names outside
``__all__`` are re-exported as ``X as X``; a private helper is imported from the module that
defines it, never from here.
"""

from __future__ import annotations

from ..render.review import LABEL_COLORS as LABEL_COLORS
from .chances import STATUS_COLORS as STATUS_COLORS
from .chances import (
    plot_convergence,
    plot_in_play_chances,
    plot_removed_count,
    plot_run_count,
)
from .common import BACKGROUND as BACKGROUND
from .common import EXACT_COLOR as EXACT_COLOR
from .common import FONT_SIZE as FONT_SIZE
from .common import TEXT_COLOR as TEXT_COLOR
from .common import card_axis as card_axis
from .common import figure_html
from .decisions import plot_chip_value, plot_exploitability, plot_take_pass, plot_take_rate
from .rounds import LABELS_ORDER as LABELS_ORDER
from .rounds import SEAT_COLORS as SEAT_COLORS
from .rounds import plot_review, plot_timeline
from .tournaments import (
    plot_pairwise,
    plot_ratings,
    plot_score_distribution,
    plot_seat_positions,
    plot_sweep,
    plot_win_shares,
)

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
