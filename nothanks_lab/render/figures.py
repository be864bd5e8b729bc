"""Figures in HTML: plotly.js inlined once, and a figure as a div drawn by it.

The widgets redraw a figure by replacing this markup as a whole, so there is no front-end state
to fall out of step with the Python side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..i18n import _, fmt_decimal, fmt_percent

#: The Okabe-Ito colour-blind-safe palette (issue 23, item 8): every figure's colours come
#: from it, so no meaning rests on a red/green pair.
OKABE_ITO = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "bluish_green": "#009E73",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
    "sky_blue": "#56B4E9",
    "yellow": "#F0E442",
    "black": "#000000",
}


def figure_numbers() -> dict[str, Any]:
    """The layout that makes a figure's numbers (ticks, hovers, labels) use the language's
    decimal mark: ``{"separators": ",."}`` in Portuguese (``0,05``, ``72,7%``), nothing in
    English (plotly's default, so an English figure is unchanged). Every figure is finished
    with it: `plots.common._style` and the figures drawn here."""
    return {"separators": ",."} if fmt_decimal(0.5, 1)[1] == "," else {}


def plotly_js_html() -> str:
    """plotly.js from the installed plotly package, as one inline script (no CDN).

    The library is defined as ``window.Plotly`` even where a page has an AMD loader.
    """
    from plotly.offline import get_plotlyjs

    return (
        "<script type='text/javascript'>(function(define, module, exports){"
        f"{get_plotlyjs()}\n}}).call(window, undefined, undefined, undefined);</script>"
    )


def figure_div(fig: Any, div_id: str, height: int = 420) -> str:
    """A figure as a div that fills its container's width, drawn once ``window.Plotly`` exists.

    Redraws replace this markup as a whole (no front-end state to fall out of step); the
    script waits for plotly.js (loaded once by `plotly_js_html`) for up to a minute.
    """
    fig_json = fig.to_json()
    return (
        f"<div id='{div_id}' class='nothanks-figure' style='width:100%;height:{height}px'></div>"
        "<script type='text/javascript'>(function(){"
        f"var spec={fig_json};var tries=0;"
        "function draw(){var el=document.getElementById("
        f"'{div_id}');if(!el)return;"
        "if(!window.Plotly){if(tries++<600){setTimeout(draw,100);}return;}"
        "var layout=Object.assign({},spec.layout,{autosize:true});delete layout.width;"
        f"layout.height={height};"
        "window.Plotly.newPlot(el,spec.data,layout,{responsive:true,displaylogo:false})"
        ".then(function(){el.setAttribute('data-drawn',String(performance.now()));"
        # plotly's responsive mode follows window resizes only; a panel that grows or shrinks
        # (JupyterLab's sidebar) resizes the div alone, so watch the div itself.
        "if(window.ResizeObserver&&!el._ntObserved){el._ntObserved=true;"
        "new ResizeObserver(function(){if(el.isConnected&&window.Plotly)"
        "window.Plotly.Plots.resize(el);}).observe(el);}});}"
        "draw();})();</script>"
    )


def gap_chances_figure(chances: Mapping[tuple[int, ...], float], hand: Sequence[int]) -> Any:
    """Bars: for each gap between my runs, the chance all its cards can still come.

    Each bar is labelled with its chance; a gap one of whose cards is gone reads "gone".
    """
    import plotly.graph_objects as go

    labels = [f"{g[0]}" if len(g) == 1 else f"{g[0]}–{g[-1]}" for g in chances]
    fig = go.Figure()
    fig.add_bar(
        x=labels,
        y=list(chances.values()),
        marker_color=OKABE_ITO["bluish_green"],
        hovertemplate=_("gap %{x}: %{y:.1%}") + "<extra></extra>",
        name=_("gap can be filled"),
        # Every bar says its chance, and a gap with a card gone (chance 0, no bar) says so:
        # no column looks empty without a word (issue 25, item 7).
        text=[_("gone") if p == 0 else fmt_percent(p, 0) for p in chances.values()],
        textposition="outside",
        cliponaxis=False,
    )
    hand_text = " ".join(map(str, sorted(hand))) or _("no cards")
    if not chances:
        hand_text += _("; no gaps between runs")
    title = _("Can my gaps still be filled?")  # short: it fits a phone's figure
    hand_line = _("hand: {hand}").format(hand=hand_text)
    fig.update_layout(
        # 15 px and from the left: the title fits a phone's figure (issue 25).
        title={
            "text": f"{title}<br><sub>{hand_line}</sub>",
            "font": {"size": 15},
            "x": 0.01,
            "xanchor": "left",
        },
        font={"size": 14},
        template="plotly_white",
        xaxis_title=_("gap (the missing cards)"),
        yaxis={"title": _("chance all still to come"), "range": [0, 1.05]},
        yaxis_tickformat=".0%",
        margin={"t": 80, "l": 70, "r": 20},
        **figure_numbers(),
    )
    return fig
