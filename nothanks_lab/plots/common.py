"""The look every figure shares, and the small helpers that turn the package's data into traces.

`_style` gives a figure the classroom-projector look (big fonts, titled axes, a white card with
near-black text whatever the page's theme, the legend's font set alike); `figure_html` writes a
figure as a self-contained page. The helpers read the package's results the same way for every
figure: `_bounds` (value, low, high of interval estimates), `_error_y` (asymmetric error bars),
`_add_band` (a shaded 95% band under a curve), `_records` and `_column` (a tidy table with a
clear error for a missing column). The colours shared by several figures live here too; a
colour of one figure only lives beside that figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..render.figures import OKABE_ITO, figure_numbers

#: Base font size: legible from the back of a classroom.
FONT_SIZE = 16
#: Colour of exact values beside simulated ones.
EXACT_COLOR = OKABE_ITO["vermillion"]
#: Background of every figure: a white card, on a light page or on JupyterLab's dark theme.
BACKGROUND = "white"
#: Colour of every text on a figure: near-black, readable on the white background.
TEXT_COLOR = "#1a1a1a"


def _style(fig: go.Figure, title: str, x: str, y: str, **layout: Any) -> go.Figure:
    """Apply the package's projector-friendly look: big fonts, white background, titles.

    The background and the text colour are set explicitly, not left to the template or the
    page: on JupyterLab's dark theme the figure stays a white card with dark text, so no label
    takes on a colour that vanishes against its background. Its numbers take the language's
    decimal mark (`figure_numbers`).
    """
    layout = {"legend": {}, "margin": {"t": 80}, **layout}
    layout["legend"] = {"font": {"size": FONT_SIZE, "color": TEXT_COLOR}, **layout["legend"]}
    fig.update_layout(
        title={"text": title, "font": {"size": FONT_SIZE + 6, "color": TEXT_COLOR}},
        font={"size": FONT_SIZE, "color": TEXT_COLOR},
        template="plotly_white",
        paper_bgcolor=BACKGROUND,
        plot_bgcolor=BACKGROUND,
        **{**figure_numbers(), **layout},
    )
    fig.update_xaxes(title_text=x, title_font={"size": FONT_SIZE + 2})
    fig.update_yaxes(title_text=y, title_font={"size": FONT_SIZE + 2})
    return fig


def card_axis(low: int, high: int, every: int = 2) -> dict[str, Any]:
    """An axis of cards `low`..`high`: a tick at every card, a number at every `every`-th one.

    Only real cards are on it (no 2 or 36 in the standard game). Numbering all 33 cards
    crowds a phone's width (issue 25); `every` = 2 suits a tall axis, 5 a wide one that
    must stay readable at 390 px (5, 10, ... 35), and the small ticks between still let a
    reader count to any card.

    >>> a = card_axis(3, 35)
    >>> a["tick0"], a["dtick"], a["range"], card_axis(3, 35, every=5)["tick0"]
    (3, 2, [2.4, 35.6], 5)
    """
    first = low if every <= 2 else -(-low // every) * every  # the first multiple of `every`
    return {
        "tickmode": "linear",
        "tick0": first,
        "dtick": every,
        "ticks": "outside",
        "minor": {"tickmode": "linear", "tick0": low, "dtick": 1, "ticks": "outside", "ticklen": 4},
        "range": [low - 0.6, high + 0.6],
    }


def figure_html(fig: go.Figure) -> str:
    """A self-contained HTML page of `fig`: plotly.js inline, nothing fetched from a CDN."""
    html: str = fig.to_html(include_plotlyjs=True, full_html=True)
    return html


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


def _add_band(
    fig: go.Figure,
    x: Sequence[float] | np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    *,
    opacity: float,
) -> None:
    """Shade the 95% interval [low, high] over `x` (blue, `opacity`), drawn under what follows.

    The band is one closed polygon: along the upper ends, then back along the lower ones.
    """
    xs = np.asarray(x)
    fig.add_scatter(
        x=np.concatenate([xs, xs[::-1]]).tolist(),
        y=np.concatenate([high, low[::-1]]).tolist(),
        fill="toself",
        fillcolor=f"rgba(31, 119, 180, {opacity})",
        line={"width": 0},
        name="95% interval",
        hoverinfo="skip",
    )


def _records(data: Any) -> list[dict[str, Any]]:
    """A tidy table from a result with ``to_records()`` or a sequence of dicts."""
    recs = data.to_records() if hasattr(data, "to_records") else data
    out = [dict(r) for r in recs]
    if not out:
        raise ValueError("there is nothing to plot: the table has no rows")
    return out


def _column(recs: list[dict[str, Any]], key: str) -> list[Any]:
    """The column `key` of a tidy table; a ValueError naming the row and the columns if absent."""
    missing = [i for i, r in enumerate(recs) if key not in r]
    if missing:
        raise ValueError(f"row {missing[0]} has no column {key!r}; columns: {sorted(recs[0])}")
    return [r[key] for r in recs]
