"""Tests of the Plotly figures: each figure's data equals the numbers it is meant to show."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

import nothanks_lab as nt
from nothanks_lab import analysis as an
from nothanks_lab import plots
from nothanks_lab import probability as pr
from nothanks_lab.bots import MarginalCostBot


def error_bounds(trace: go.Scatter | go.Bar) -> tuple[np.ndarray, np.ndarray]:
    """The (low, high) ends a trace's asymmetric error bars span."""
    y = np.array(trace.y, dtype=float)
    return y - np.array(trace.error_y.arrayminus), y + np.array(trace.error_y.array)


def check_readable(fig: go.Figure) -> None:
    """Titles on the figure and its axes, fonts big enough for a projector."""
    assert fig.layout.title.text
    assert fig.layout.font.size >= 14
    assert fig.layout.xaxis.title.text or fig.layout.xaxis2.title.text
    assert fig.layout.yaxis.title.text


def mid_round(seed: int = 1, moves: int = 20) -> nt.Game:
    g = nt.Game(4, seed=seed)
    bot = MarginalCostBot(5)
    for _ in range(moves):
        g.step(bot.act(g.view(g.current_player)))
    return g


# ------------------------------------------------------------------------ probability
def test_in_play_chances_of_a_view() -> None:
    view = mid_round().view(2)
    fig = plots.plot_in_play_chances(view)
    check_readable(fig)
    by_name = {t.name: t for t in fig.data}
    mine, seen, unseen = (
        by_name[k] for k in ("in my hand", "seen: taken or face up", "unseen: face down or removed")
    )
    assert list(mine.x) == list(view.my_hand)
    assert set(seen.x) == set(view.seen_cards) - set(view.my_hand)
    assert list(unseen.x) == list(view.unseen_cards)
    assert all(y == 1.0 for y in (*mine.y, *seen.y))
    # Exact: the face-down cards are a uniform subset of the unseen ones.
    assert np.allclose(unseen.y, view.cards_left / len(view.unseen_cards))
    assert sorted([*mine.x, *seen.x, *unseen.x]) == list(view.rules.cards)


def test_in_play_chances_from_cards() -> None:
    fig = plots.plot_in_play_chances([3, 10], hand=(27, 29))
    unseen = fig.data[2]
    assert list(fig.data[0].x) == [27, 29] and list(fig.data[1].x) == [3, 10]
    assert np.allclose(unseen.y, pr.p_all_in_play(28, seen=[3, 10, 27, 29]))
    with pytest.raises(ValueError, match="outside"):
        plots.plot_in_play_chances([40])


def test_removed_count_exact_and_simulated() -> None:
    cards = [27, 28, 29]
    pmf = pr.removed_count_pmf(cards, seen=[3])
    sim = pr.mc_removed_count_pmf(cards, seen=[3], n=2000, seed=1)
    fig = plots.plot_removed_count(pmf, sim, cards=cards)
    check_readable(fig)
    assert list(fig.data[0].x) == [0, 1, 2, 3] and np.allclose(fig.data[0].y, pmf)
    low, high = error_bounds(fig.data[1])
    assert np.allclose(fig.data[1].y, [e.value for e in sim])
    assert np.allclose(low, [e.low for e in sim]) and np.allclose(high, [e.high for e in sim])
    assert "[27, 28, 29]" in fig.layout.title.text
    with pytest.raises(ValueError, match="entries"):
        plots.plot_removed_count(pmf, sim[:2])


def test_run_count_exact_versus_simulated() -> None:
    exact = pr.run_count_pmf()
    sim = pr.mc_run_count_pmf(n=3000, seed=2)
    fig = plots.plot_run_count(exact, sim)
    assert np.allclose(fig.data[0].y, exact) and len(fig.data[0].x) == len(exact)
    low, high = error_bounds(fig.data[1])
    assert np.allclose(low, [e.low for e in sim]) and np.allclose(high, [e.high for e in sim])
    freq = np.array([e.value for e in sim])
    plain = plots.plot_run_count(exact, freq)  # plain frequencies: markers, no error bars
    assert np.allclose(plain.data[1].y, freq) and plain.data[1].error_y.array is None


def test_convergence_band_and_exact_line() -> None:
    rows = pr.convergence(
        partial(pr.p_all_in_play, 28), partial(pr.mc_p_all_in_play, 28), [100, 1000, 10000], seed=4
    )
    fig = plots.plot_convergence(rows)
    check_readable(fig)
    band, est, exact = fig.data
    assert list(est.x) == [100, 1000, 10000]
    assert np.allclose(est.y, [r.estimate for r in rows])
    assert np.allclose(band.y, [*(r.high for r in rows), *(r.low for r in rows[::-1])])
    assert np.allclose(exact.y, pr.p_all_in_play(28))
    assert fig.layout.xaxis.type == "log"
    with pytest.raises(ValueError, match="nothing to plot"):
        plots.plot_convergence([])


# ------------------------------------------------------------------------ analysis
def test_chip_value_curves_have_the_intervals() -> None:
    cv = an.chip_value((3, 5), extra_chips=(0, 1, 3), n_games=400, seed=1)
    fig = plots.plot_chip_value(cv)
    check_readable(fig)
    assert [t.name for t in fig.data] == ["3 players", "5 players"]
    for trace, p in zip(fig.data, (3, 5), strict=True):
        assert list(trace.x) == [0, 1, 3]
        ests = [cv.score_change[(p, e)] for e in (0, 1, 3)]
        assert np.allclose(trace.y, [e.value for e in ests])
        low, high = error_bounds(trace)
        assert np.allclose(low, [e.low for e in ests]) and np.allclose(high, [e.high for e in ests])
    win = plots.plot_chip_value(cv, metric="win")
    assert np.allclose(win.data[0].y, [cv.win[(3, e)].value for e in (0, 1, 3)])
    with pytest.raises(ValueError, match="metric"):
        plots.plot_chip_value(cv, metric="chips")


def test_take_pass_heatmap_with_a_bots_boundary() -> None:
    hand = (27, 29)
    surface = an.take_pass_surface(range(3, 36), range(0, 25), hand)
    bot = MarginalCostBot(4)
    boundary = an.bot_boundary(bot, range(3, 36), range(0, 25), hand)
    fig = plots.plot_take_pass(surface, boundary)
    check_readable(fig)
    heat, line = fig.data
    assert list(heat.y) == list(surface.cards) and list(heat.x) == list(surface.pots)
    assert np.array_equal(np.array(heat.z), surface.values)
    assert heat.zmid == 0
    takes = boundary.take_from
    on_grid = [c for c in boundary.cards if takes[c] is not None]
    assert list(line.y) == on_grid and list(line.x) == [takes[c] for c in on_grid]
    assert bot.name in line.name
    # Cards whose cost is above threshold + 24 never get taken on this grid: not drawn.
    assert 35 not in line.y and takes[35] is None
    alone = plots.plot_take_pass(surface)
    assert len(alone.data) == 1


# ------------------------------------------------------------------------ tournaments
def test_win_shares_error_bars_are_the_intervals() -> None:
    res = nt.tournament(
        [MarginalCostBot(10), MarginalCostBot(0), MarginalCostBot(-20)], 3, 300, seed=1
    )
    recs = res.to_records()
    fig = plots.plot_win_shares(res)
    check_readable(fig)
    bar = fig.data[0]
    assert list(bar.x) == [r["bot"] for r in recs]
    assert np.allclose(bar.y, [r["win_share"] for r in recs])
    low, high = error_bounds(bar)
    assert np.allclose(low, [r["win_share_low"] for r in recs])
    assert np.allclose(high, [r["win_share_high"] for r in recs])
    assert fig.layout.shapes[0].y0 == pytest.approx(1 / 3)  # the fair-share line
    score = plots.plot_win_shares(recs, metric="mean_score")
    assert np.allclose(score.data[0].y, [r["mean_score"] for r in recs])
    with pytest.raises(ValueError, match="metric"):
        plots.plot_win_shares(res, metric="chips")
    with pytest.raises(ValueError, match="no column"):
        plots.plot_win_shares([{"bot": "x"}])


def test_sweep_heatmap_and_curve() -> None:
    rows = [
        {
            "threshold": t,
            "milk": m,
            "win_share": 0.1 * t + m,
            "win_share_low": 0.1 * t + m - 0.05,
            "win_share_high": 0.1 * t + m + 0.05,
        }
        for t in (4, 0, 8)
        for m in (0, 1)
    ]
    heat = plots.plot_sweep(rows, "threshold", "milk")
    check_readable(heat)
    h = heat.data[0]
    assert list(h.x) == [0, 4, 8] and list(h.y) == [0, 1]
    assert np.allclose(h.z, [[0.1 * t + m for t in (0, 4, 8)] for m in (0, 1)])
    curve = plots.plot_sweep([r for r in rows if r["milk"] == 0], "threshold")
    c = curve.data[0]
    assert list(c.x) == [0, 4, 8] and np.allclose(c.y, [0.0, 0.4, 0.8])
    low, high = error_bounds(c)
    assert np.allclose(high - low, 0.1)


def test_sweep_of_a_real_sweep_result() -> None:
    res = nt.sweep(
        lambda threshold: MarginalCostBot(threshold),
        {"threshold": [0, 10]},
        MarginalCostBot(5),
        3,
        200,
        seed=2,
    )
    fig = plots.plot_sweep(res, "threshold")
    recs = res.to_records()
    assert np.allclose(fig.data[0].y, [r["win_share"] for r in recs])


def test_score_distribution_counts() -> None:
    sim = nt.simulate([MarginalCostBot(5)] * 3, 500, seed=3)
    fig = plots.plot_score_distribution(sim)
    check_readable(fig)
    assert len(fig.data) == 3
    for p, trace in enumerate(fig.data):
        vals, counts = np.unique(sim.scores[:, p], return_counts=True)
        assert list(trace.x) == vals.tolist()
        assert np.allclose(trace.y, counts / 500) and np.isclose(sum(trace.y), 1)
    named = plots.plot_score_distribution({"a": [1, 1, 2], "b": [5]}, normalize=False)
    assert list(named.data[0].y) == [2, 1] and list(named.data[1].x) == [5]
    with pytest.raises(ValueError, match="labels"):
        plots.plot_score_distribution(sim.scores, labels=["only one"])


# ------------------------------------------------------------------------ one round
@pytest.mark.parametrize("first_player", [0, 2])
def test_timeline_replays_the_round(first_player: int) -> None:
    r = nt.play_game([MarginalCostBot(t) for t in (0, 5, 10)], seed=5, first_player=first_player)
    fig = plots.plot_timeline(r, names=["Ann", "Bo", "Cy"])
    check_readable(fig)
    chips = {t.name: t for t in fig.data if t.xaxis == "x"}
    points = {t.name: t for t in fig.data if t.xaxis == "x2"}
    assert set(chips) == set(points) == {"Ann", "Bo", "Cy"}
    for p, name in enumerate(["Ann", "Bo", "Cy"]):
        assert len(chips[name].y) == len(r.history) + 1
        assert chips[name].y[0] == 11 and points[name].y[0] == 0
        assert chips[name].y[-1] == r.chips[p] and points[name].y[-1] == r.card_points[p]
    # Move by move, a pass costs the mover one chip.
    for i, e in enumerate(r.history):
        who = ["Ann", "Bo", "Cy"][e.seat]
        if e.action is nt.Action.PASS:
            assert chips[who].y[i + 1] == chips[who].y[i] - 1
        else:
            assert chips[who].y[i + 1] == chips[who].y[i] + e.pot


def test_timeline_of_a_round_in_progress() -> None:
    g = mid_round(seed=3, moves=30)
    fig = plots.plot_timeline(g)
    chips = [t for t in fig.data if t.xaxis == "x"]
    points = [t for t in fig.data if t.xaxis == "x2"]
    assert len(chips[0].y) == 31
    assert tuple(t.y[-1] for t in chips) == g.chips
    assert tuple(t.y[-1] for t in points) == g.card_points()
    with pytest.raises(ValueError, match="names"):
        plots.plot_timeline(g, names=["x"])


def test_figures_are_self_contained() -> None:
    html = plots.figure_html(plots.plot_run_count(pr.run_count_pmf()))
    assert not re.findall(r"<script[^>]*src=", html)  # plotly.js inline, no CDN fetch
    assert "Plotly.newPlot" in html


def test_timeline_reads_without_hovering() -> None:
    r = nt.play_game([MarginalCostBot(t) for t in (0, 5, 10)], seed=5)
    names = ["Ann", "Bo", "Ann"]  # two seats sharing a name are still told apart at the ends
    fig = plots.plot_timeline(r, names=names)
    points = [t for t in fig.data if t.xaxis == "x2"]
    labels = [dict(enumerate(t.text)) for t in points]
    for i, e in enumerate(r.history):
        if e.action is not nt.Action.TAKE:
            continue
        # the label of a take (or of the takes in a row it ends) sits on the taker's line,
        # names the card, the chips it brought, and no other seat labels that move
        later = next(
            j
            for j in range(i + 1, len(r.history) + 1)
            if j == len(r.history)
            or r.history[j].seat != e.seat
            or r.history[j].action is nt.Action.PASS
        )
        text = labels[e.seat][later]
        assert str(e.card) in text.split("  ")[0], (i, text)
        assert all(not labels[p][later] or later == len(r.history) for p in range(3) if p != e.seat)
        assert points[e.seat].marker.size[later] > 0
    assert all(t.textfont.color == t.line.color for t in points)
    ends = [t.text[-1] for t in points]
    assert ends[0].endswith(f"Ann 0: {r.card_points[0]}")
    assert ends[2].endswith(f"Ann 2: {r.card_points[2]}")
    assert "Bo: " in ends[1]


def test_take_labels_group_a_seats_takes_in_a_row() -> None:
    take, pass_ = nt.Action.TAKE, nt.Action.PASS
    history = [
        nt.Event(0, pass_, 20, 0),
        nt.Event(1, take, 20, 1),
        nt.Event(1, take, 21, 0),
        nt.Event(1, pass_, 5, 0),
        nt.Event(2, take, 5, 1),
    ]
    assert plots.rounds._take_labels(history) == {3: (1, "20, 21 +1"), 5: (2, "5 +1")}


@pytest.mark.parametrize(
    "fig",
    [
        lambda: plots.plot_run_count(pr.run_count_pmf()),
        lambda: plots.plot_timeline(nt.play_game([MarginalCostBot(5)] * 3, seed=1)),
    ],
    ids=["run_count", "timeline"],
)
def test_figures_stay_white_cards_with_dark_text_on_a_dark_page(fig: Any) -> None:
    # Set on the figure itself, so JupyterLab's dark theme cannot turn the text light on white.
    f = fig()
    assert f.layout.paper_bgcolor == "white" and f.layout.plot_bgcolor == "white"
    for colour in (f.layout.font.color, f.layout.title.font.color, f.layout.legend.font.color):
        assert colour == plots.TEXT_COLOR
    r, g, b = (int(plots.TEXT_COLOR[i : i + 2], 16) for i in (1, 3, 5))
    assert 0.2126 * r + 0.7152 * g + 0.0722 * b < 60  # near-black on white


def test_figure_colours_come_from_the_okabe_ito_palette() -> None:
    """Issue 23, item 8: no hard-coded hue outside Okabe-Ito (greys and black/white allowed)."""
    import re
    from pathlib import Path

    import nothanks_lab as nt
    from nothanks_lab.render.figures import OKABE_ITO

    allowed = {c.lower() for c in OKABE_ITO.values()}
    root = Path(nt.__file__).parent
    found = []
    for path in [*sorted((root / "plots").glob("*.py")), root / "render" / "figures.py"]:
        for colour in re.findall(r"[\"']#([0-9a-fA-F]{6})[\"']", path.read_text()):
            r, g, b = (int(colour[i : i + 2], 16) for i in (0, 2, 4))
            grey = max(r, g, b) - min(r, g, b) <= 8
            if f"#{colour.lower()}" not in allowed and not grey:
                found.append(f"{path.name}: #{colour}")
    assert found == [], found
    from nothanks_lab.plots import rounds

    assert set(rounds.SEAT_COLORS) <= set(OKABE_ITO.values())
