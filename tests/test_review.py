"""The round review: known good and bad moves get the right labels; costs, order, CLI, plot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab.__main__ import main, run
from nothanks_lab.analysis.labels import _beyond_the_budget, _settled
from nothanks_lab.bots import make_bot
from nothanks_lab.plots import plot_review
from nothanks_lab.review import LABELS, THRESHOLDS, Review, Thresholds
from nothanks_lab.stats import Interval

T, P = nt.Action.TAKE, nt.Action.PASS
REST = [c for c in range(3, 36) if c not in (27, 28, 29, 35)]
N = 2000  # rollouts per move in these tests: enough for costs of several points


def round_of(deck: list[int], moves: list[nt.Action], n_players: int = 3) -> nt.Game:
    g = nt.Game(n_players, deck=deck[:24])
    for a in moves:
        g.step(a)
    return g


def test_taking_a_35_on_an_empty_pot_early_is_a_blunder() -> None:
    g = round_of([35, *REST], [T])
    r = nt.review(g, 0, seed=1, n=N)
    (m,) = r.moves
    assert (m.card, m.pot, m.action, m.best) == (35, 0, T, P)
    assert m.label in ("mistake", "blunder") and m.cost > THRESHOLDS.mistake
    assert m.cost_estimate.low >= THRESHOLDS.mistake


def test_passing_the_35_on_an_empty_pot_is_good() -> None:
    g = round_of([35, *REST], [P])
    (m,) = nt.review(g, 0, seed=1, n=N).moves
    assert (m.action, m.best, m.label, m.cost) == (P, P, "good", 0.0)


def test_passing_a_free_run_completer_with_a_pot_is_costly_and_taking_it_is_good() -> None:
    # Seat 0 takes 27 and 29, then lets 28 (worth -29 points to it) go round with a pot.
    deck = [27, 29, 28, *REST]
    g = round_of(deck, [T, T, P, P, P, P, P, P, P])
    r = nt.review(g, 0, seed=2, n=N)
    on_28 = [m for m in r.moves if m.card == 28]
    assert [m.pot for m in on_28] == [0, 3, 6]
    for m in on_28:
        assert m.best is T and m.label in ("mistake", "blunder"), m
    assert on_28[-1].cost > 10
    g = round_of(deck, [T, T, P, P, P, T])
    took = nt.review(g, 0, seed=2, n=N).moves[-1]
    assert (took.card, took.pot, took.action, took.label, took.cost) == (28, 3, T, "good", 0.0)


def test_a_forced_take_is_good_at_cost_zero() -> None:
    rules = nt.Rules(chips=((3, 0),))
    g = nt.Game(3, rules=rules, deck=[35, *REST][:24])
    g.step(T)
    (m,) = nt.review(g, 0, seed=1, n=N).moves
    assert m.forced and m.no_thanks is None
    assert (m.action, m.best, m.cost, m.label) == (T, T, 0.0, "good")


def test_moves_are_the_seats_decisions_in_order_with_sane_values() -> None:
    g = nt.Game(3, seed=4)
    bot = nt.bots.MarginalCostBot(8)
    while len(g.history) < 25:
        g.step(bot.act(g.view(g.current_player)))
    r = nt.review(g, 1, seed=3, n=400)
    mine = [(i, e) for i, e in enumerate(g.history) if e.seat == 1]
    assert [m.index for m in r.moves] == [i for i, _ in mine]
    assert [m.action for m in r.moves] == [e.action for _, e in mine]
    assert [(m.card, m.pot) for m in r.moves] == [(e.card, e.pot) for _, e in mine]
    for m in r.moves:
        assert m.label in LABELS and m.cost >= 0
        assert m.view.seat == 1 and m.view.is_my_turn
        if m.action is m.best:
            assert m.cost == 0 and m.cost_estimate.high == 0
        assert m.played.score.low <= m.played.score.value <= m.played.score.high
        assert 0 <= m.played.win.low <= m.played.win.value <= m.played.win.high <= 1
    assert r.final_score is None
    # One decision per card (the costliest on it): a card passed four times is one card.
    per_card: dict[int, float] = {}
    for m in r.moves:
        per_card[m.card] = max(per_card.get(m.card, 0.0), m.cost)
    assert r.total_cost.value == pytest.approx(sum(per_card.values()))
    assert sum(r.counts.values()) == len(r.moves)
    assert len(r.to_records()) == len(r.moves)


def test_the_same_seed_gives_the_same_review() -> None:
    g = round_of([27, 29, 28, *REST], [T, T, P, P, P, T])
    a = nt.review(g, 0, seed=9, n=500)
    b = nt.review(g, 0, seed=9, n=500)
    assert a == b


def test_labels_come_from_the_lower_end_of_the_cost_interval() -> None:
    t = Thresholds(inaccuracy=1, mistake=3, blunder=6)
    assert [t.label(x) for x in (0, 0.99, 1, 2.9, 3, 5.9, 6, 40)] == [
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    for bad in [(0, 1, 2), (3, 2, 6), (1, 3, float("nan"))]:
        with pytest.raises(ValueError, match="thresholds"):
            Thresholds(*bad)


def test_noise_never_brands_a_move() -> None:
    # With few rollouts the intervals are wide; a label needs the whole interval past it.
    g = nt.Game(3, seed=6)
    bot = nt.bots.MarginalCostBot(10)
    while not g.is_over:
        g.step(bot.act(g.view(g.current_player)))
    r = nt.review(g, 0, seed=1, n=40, n_first=40)
    for m in r.moves:
        if m.label != "good":
            assert m.cost_estimate.low >= THRESHOLDS.inaccuracy
        else:
            assert m.action is m.best or m.cost_estimate.low < THRESHOLDS.inaccuracy


def test_settled_only_when_both_ends_of_the_interval_earn_the_same_label() -> None:
    from nothanks_lab.analysis import evaluate_position, position_view

    ev = evaluate_position(position_view(35, 0), n=N, seed=1)
    assert _settled(T, ev, THRESHOLDS)  # clearly a blunder
    assert _settled(P, ev, THRESHOLDS)  # clearly good
    forced = evaluate_position(position_view(35, 0, my_chips=0), n=50, seed=1)
    assert _settled(T, forced, THRESHOLDS)


def test_a_close_call_stops_once_the_full_budget_is_foreseen_not_to_settle_it() -> None:
    # Take's cost is Take − No Thanks!; 2,000 of 8,000 rollouts played, half-width 0.8.
    near = Interval(3.1, 2.3, 3.9, 2000)  # centre 0.1 above the mistake mark: at 8,000 +-0.4
    assert not THRESHOLDS.label(2.3) == THRESHOLDS.label(3.9)  # not settled today
    assert _beyond_the_budget(T, near, THRESHOLDS, 8000)
    far = Interval(3.7, 2.9, 4.5, 2000)  # centre 0.7 above it: 8,000 would settle "mistake"
    assert not _beyond_the_budget(T, far, THRESHOLDS, 8000)
    assert not _beyond_the_budget(T, near, THRESHOLDS, 8001 * 4)  # under a quarter: go on
    assert not _beyond_the_budget(T, Interval(3.1, 2.3, 3.9, 8000), THRESHOLDS, 8000)
    # No Thanks!'s cost is the difference turned round: the same interval, mirrored.
    assert _beyond_the_budget(P, Interval(-3.1, -3.9, -2.3, 2000), THRESHOLDS, 8000)
    assert not _beyond_the_budget(P, near, THRESHOLDS, 8000)  # a good pass: settled anyway


def test_close_calls_keep_the_label_the_full_budget_would_most_likely_give() -> None:
    # A review with the early stop labels as one that plays on to the full budget, except for
    # moves it stopped early on (close calls), and those by one step at most; it plays fewer.
    import importlib

    rv = importlib.import_module("nothanks_lab.review")
    g = nt.Game(3, seed=9)
    bots = [make_bot("linear"), make_bot("marginal"), make_bot("linear")]
    slips = np.random.default_rng(9)
    while not g.is_over:
        s = g.current_player
        a = bots[s].act(g.view(s))
        if s == 0 and g.view(0).can_pass and slips.random() < 0.2:
            a = P if a is T else T
        g.step(a)
    early = nt.review(g, 0, n=4000)
    full_only = rv._beyond_the_budget
    try:
        rv._beyond_the_budget = lambda *args: False
        full = nt.review(g, 0, n=4000)
    finally:
        rv._beyond_the_budget = full_only
    order = list(LABELS)
    for a, b in zip(early.moves, full.moves, strict=True):
        if a.label != b.label:
            assert a.score_diff is not None and b.score_diff is not None
            assert a.score_diff.n < b.score_diff.n, (a, b)
            assert abs(order.index(b.label) - order.index(a.label)) == 1, (a.label, b.label)
    assert sum(m.score_diff.n for m in early.moves if m.score_diff) < sum(
        m.score_diff.n for m in full.moves if m.score_diff
    )


@pytest.mark.parametrize("bad", [-1, 3, 1.0, "0", None])
def test_bad_seat_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="seat"):
        nt.review(nt.Game(3, seed=1), bad)  # type: ignore[arg-type]


def test_bad_arguments_are_refused() -> None:
    g = nt.Game(3, seed=1)
    with pytest.raises(ValueError, match="game"):
        nt.review("a round", 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n must"):
        nt.review(g, 0, n=1)
    with pytest.raises(ValueError, match="n_first"):
        nt.review(g, 0, n=100, n_first=200)


def test_a_seat_that_never_moved_has_an_empty_review() -> None:
    r = nt.review(nt.Game(3, seed=1), 2, seed=1)
    assert r.moves == () and r.accuracy is None and r.total_cost.value == 0
    assert "0 decisions" in r.summary()


def test_text_and_markdown_tables() -> None:
    g = round_of([35, *REST], [T, P])
    r = nt.review(g, 0, seed=1, n=N, name="Ada")
    text = str(r)
    assert "Review of Ada" in text and "blunder" in text and "accuracy 50%" in text
    md = r.table("markdown")
    assert md.splitlines()[0].startswith("| move |") and "| blunder |" in md
    with pytest.raises(ValueError, match="fmt"):
        r.table("html")


def test_plot_review_marks_the_labelled_moves_in_writing() -> None:
    g = round_of([27, 29, 28, *REST], [T, T, P, P, P, T])
    r = nt.review(g, 0, seed=2, n=N)
    fig = plot_review(r)
    notes = [a.text for a in fig.layout.annotations]
    # The pass on 28 is written out with its label; the good take of 28 is not.
    (note,) = [t for t in notes if t.startswith("28")]
    assert note.startswith("28: No Thanks!<br>") and ("mistake" in note or "blunder" in note)
    assert len(notes) == sum(m.label != "good" for m in r.moves)
    # The same slip round after round is one note.
    again = nt.review(round_of([27, 29, 28, *REST], [T, T, *[P] * 9]), 0, seed=2, n=N)
    (note,) = [a.text for a in plot_review(again).layout.annotations if a.text.startswith("28")]
    assert note.startswith("28: No Thanks! ×3<br>")
    names = [tr.name for tr in fig.data]
    assert any(n.startswith("good") for n in names)
    empty = nt.review(nt.Game(3, seed=1), 1)
    with pytest.raises(ValueError, match="no decision"):
        plot_review(empty)


# --------------------------------------------------------------------------- command line
@pytest.fixture
def round_file(tmp_path: Path) -> Path:
    g = round_of([35, *REST], [T, P, P, P, T])
    path = tmp_path / "round.json"
    path.write_text(g.to_json(names=["Ada", "B", "C"], bots=[None, "marginal", "marginal"]))
    return path


def test_cli_review_prints_the_table(round_file: Path) -> None:
    out = run(["review", str(round_file), "--seat", "0", "--seed", "1", "-n", str(N)])
    assert "Review of Ada (seat 0)" in out and "blunder" in out
    doc = json.loads(
        run(["review", str(round_file), "--seed", "1", "-n", "400", "--format", "json"])
    )
    assert doc["seat"] == 0 and [m["played"] for m in doc["moves"]] == ["take", "pass", "take"]
    md = run(["review", str(round_file), "--seat", "1", "-n", "400", "--format", "markdown"])
    assert "| move |" in md


def test_cli_review_bad_input_exits_with_a_message(
    round_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    doc = json.loads(round_file.read_text())
    doc["events"][1]["pot"] = 5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main(["review", str(bad)]) == 2
    assert "events[1].pot" in capsys.readouterr().err
    assert main(["review", str(round_file), "--seat", "7"]) == 2


@pytest.mark.slow
def test_installed_command_exits_zero(round_file: Path) -> None:
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "nothanks_lab",
            "review",
            str(round_file),
            "--seat",
            "0",
            "-n",
            "500",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
        check=False,
    )
    assert p.returncode == 0, p.stderr
    assert "Review of Ada" in p.stdout


def test_review_type_is_public() -> None:
    assert isinstance(nt.review(nt.Game(3, seed=1), 0), Review)


def test_costs_are_the_package_interval_type() -> None:
    from nothanks_lab.stats import Interval

    g = round_of([35, *REST], [T])
    r = nt.review(g, 0, seed=1, n=200)
    (m,) = r.moves
    assert isinstance(m.cost_estimate, Interval) and isinstance(m.win_cost, Interval)
    assert m.cost_estimate.confidence == 0.95 and m.cost_estimate.n == 200
    assert str(r.total_cost).endswith("(95%, n=200)")


def test_the_text_table_is_laid_out_like_every_other_table() -> None:
    """As `render.tables.text_table` lays out tables: a dashes line under the header."""
    g = round_of([35, *REST], [T, P])
    r = nt.review(g, 0, seed=1, n=N, name="Ada")
    lines = r.table().splitlines()
    assert len(lines) == len(r.moves) + 2
    assert set(lines[1].replace(" ", "")) == {"-"}
    assert {len(line) for line in lines} == {len(lines[1])}  # every column right-aligned
    assert lines[2].endswith(r.moves[0].label)
    assert lines[1] in str(r)


# ----------------------------------------------------------------------------- one evaluation
def bot_round(seed: int, n_players: int = 3) -> tuple[nt.Game, list[object]]:
    """A finished round: seat 0 a marginal bot that slips one move in six, the rest bots."""
    import numpy as np

    rng = np.random.default_rng(seed)
    bots: list[object] = [
        nt.bots.MarginalCostBot(6),
        nt.bots.make_bot("linear"),
        nt.bots.MarginalCostBot(9),
        nt.bots.make_bot("heuristic"),
    ][:n_players]
    g = nt.Game(n_players, seed=seed)
    while not g.is_over:
        s = g.current_player
        a = bots[s].act(g.view(s))  # type: ignore[attr-defined]
        if s == 0 and len(g.legal_actions()) == 2 and rng.random() < 1 / 6:
            a = P if a is T else T
        g.step(a)
    return g, bots


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "n_players"), [(1, 3), (2, 4), (3, 3)])
def test_hint_and_review_agree_whenever_both_are_clear(seed: int, n_players: int) -> None:
    from nothanks_lab.analysis import hint_evaluation, is_clear, rollout_field

    g, bots = bot_round(seed, n_players)
    field = rollout_field([None, *bots[1:]])
    r = nt.review(g, 0, field=field)
    replay = nt.Game(n_players, deck=list(dict.fromkeys(e.card for e in g.history)))
    compared = 0
    for event in g.history:
        if event.seat == 0:
            m = next(x for x in r.moves if x.index == len(replay.history))
            hint = hint_evaluation(replay.view(0), field, seed=seed * 1000 + m.index)
            d = hint.score_diff
            assert (d is None) == m.forced == (m.score_diff is None)
            if (
                d is not None
                and m.score_diff is not None
                and is_clear(d)
                and is_clear(m.score_diff)
            ):
                assert hint.best is m.best, (m.card, m.pot, d, m.score_diff)
                compared += 1
        replay.step(event.action)
    assert compared >= 5  # the test looked at many positions, not none


@pytest.mark.slow
def test_a_review_without_seed_is_the_same_every_time_and_after_save_and_load() -> None:
    g, _ = bot_round(5)
    a = nt.review(g, 0)
    b = nt.review(g, 0)
    c = nt.review(nt.Game.from_json(g.to_json()), 0)
    key = [(m.index, m.label, m.best, round(m.cost, 9)) for m in a.moves]
    assert key == [(m.index, m.label, m.best, round(m.cost, 9)) for m in b.moves]
    assert key == [(m.index, m.label, m.best, round(m.cost, 9)) for m in c.moves]
    # Saved with names and without its deck (as the advisor saves): still the same review.
    doc = json.loads(g.to_json(names=["Ada", "Bo", "Cy"]))
    doc.pop("deck", None)
    doc.pop("removed", None)
    d = nt.Game.from_json(json.dumps(doc))
    assert key == [(m.index, m.label, m.best, round(m.cost, 9)) for m in nt.review(d, 0).moves]


def test_the_round_seed_comes_from_the_moves() -> None:
    from nothanks_lab.review import round_seed

    g, _ = bot_round(5)
    same = nt.Game.from_json(g.to_json())
    assert round_seed(g, 0).entropy == round_seed(same, 0).entropy
    assert round_seed(g, 0).entropy != round_seed(g, 1).entropy
    other, _ = bot_round(6)
    assert round_seed(g, 0).entropy != round_seed(other, 0).entropy


@pytest.mark.slow
def test_a_clear_decision_stops_early_and_a_close_one_runs_longer() -> None:
    g = round_of([35, *REST], [T])  # the 35 on an empty pot: a blunder beyond doubt
    (m,) = nt.review(g, 0, seed=1).moves
    assert m.label == "blunder" and m.take.score.n < 8000
    g2, _ = bot_round(7)
    r = nt.review(g2, 0, seed=1)
    used = {m.take.score.n for m in r.moves}
    assert min(used) == 500 and len(used) > 1  # doubling batches where the label was open


@pytest.mark.slow
def test_progress_counts_the_decisions() -> None:
    g, _ = bot_round(8)
    seen: list[tuple[int, int]] = []
    r = nt.review(g, 0, progress=lambda done, total: seen.append((done, total)))
    k = len(r.moves)
    assert seen == [(i, k) for i in range(1, k + 1)]
    with pytest.raises(ValueError, match="progress"):
        nt.review(g, 0, progress=3)  # type: ignore[arg-type]


def test_the_headline_counts_a_card_once_and_names_the_costliest() -> None:
    # Seat 0 lets the 28 (between its 27 and 29) go round three times: three costly decisions
    # on one card.
    g = round_of([27, 29, 28, *REST], [T, T, P, P, P, P, P, P, P])
    r = nt.review(g, 0, seed=2, n=N)
    on_28 = [m for m in r.moves if m.card == 28]
    assert len(on_28) == 3 and all(m.cost > 0 for m in on_28)
    worst = max(r.moves, key=lambda m: m.cost)
    assert r.costliest is worst
    others = sum(m.cost for m in r.moves if m.card != 28)
    assert r.total_cost.value == pytest.approx(others + max(m.cost for m in on_28))
    assert r.total_cost.value < others + sum(m.cost for m in on_28)
    head = r.headline()
    assert f"the costliest: No Thanks! on 28 (cost {worst.cost:.1f} points)" in head
    bad = [m for m in r.moves if m.label != "good"]
    counted = head.split(";")[0].split(", ")  # e.g. ["2 blunders", "1 mistake"]
    assert sum(int(w.split()[0]) for w in counted) == len(bad) > 0
    assert "on 3 cards" in r.summary() and "points lost" not in r.summary()  # no false sum


def _evaluation(score_diff: tuple[float, float], win_diff: tuple[float, float]) -> object:
    from nothanks_lab.analysis import MoveValue, PositionEvaluation
    from nothanks_lab.stats import Interval

    def est(lo: float, hi: float) -> Interval:
        return Interval(value=(lo + hi) / 2, low=lo, high=hi, n=4000)

    return PositionEvaluation(
        seat=0,
        card=32,
        pot=4,
        take=MoveValue(T, est(40.0, 42.0), est(0.005, 0.02)),
        no_thanks=MoveValue(P, est(44.0, 46.0), est(0.04, 0.07)),
        score_diff=est(*score_diff),
        win_diff=est(*win_diff),
        n=4000,
        policy="linear",
    )


def test_the_hint_names_its_quantity_and_says_when_the_win_chance_disagrees() -> None:
    from nothanks_lab import render

    # The move: Take better by expected score, No Thanks! wins more often.
    html = render.position_evaluation_html(_evaluation((-4.5, -3.3), (-0.06, -0.02)), [])
    assert "By expected score, <b>Take</b> is clearly better" in html
    assert "But <b>No Thanks!</b> wins more often" in html
    assert "If you take: your expected final score <b>41</b> ± 1 points" in html
    assert "If you say No Thanks!: your expected final score <b>45</b>" in html
    summary, details = html.split("<details>")
    assert "rollout" not in summary and "95%" not in summary  # the jargon is behind the toggle
    assert "How is this computed?" in details and "95% interval" in details
    assert "played out 4,000 times for each move" in details
    # When both quantities agree, nothing more is said.
    agree = render.position_evaluation_html(_evaluation((-4.5, -3.3), (0.02, 0.06)), [])
    assert "wins more often" not in agree
    # Too close on score but clear on the win chance: the win chance is named.
    close = render.position_evaluation_html(_evaluation((-0.5, 0.5), (-0.06, -0.02)), [])
    assert "too close to call" in close and "But <b>No Thanks!</b> wins more often" in close


@pytest.mark.slow
def test_the_play_table_reviews_a_round_as_it_does_once_saved_and_loaded(tmp_path: Path) -> None:
    pytest.importorskip("ipywidgets")
    from nothanks_lab.widgets import PlayTable

    t = PlayTable(3, ["linear", ("marginal", {"threshold": 7})], bot_delay=0, double_click_s=0,
                  seed=21)  # fmt: skip
    me = nt.bots.MarginalCostBot(5)
    while t.phase == "human":
        t.play(me.act(t.view))
    assert t.phase in ("round_over", "match_over")
    shown: list[str] = []
    t.review_status.observe(lambda c: shown.append(c["new"]), names="value")
    t.review_round(background=False)
    before = [(m.index, m.label, m.best) for m in t.review.moves]
    k = len(before)
    assert any(f"Reviewing: {k} of {k} decisions" in x for x in shown)
    assert any("Reviewing: 1 of" in x for x in shown)
    assert "Reviewed in" in t.review_status.value
    t.load_round(t.session.round_json(), background=False)
    assert [(m.index, m.label, m.best) for m in t.review.moves] == before
    # The command line models the file's bots the same way: the same labels.
    path = tmp_path / "round.json"
    path.write_text(t.session.round_json(), encoding="utf-8")
    doc = json.loads(run(["review", str(path), "--format", "json"]))
    assert [(m["move"] - 1, m["label"]) for m in doc["moves"]] == [(i, la) for i, la, _ in before]


def test_a_played_best_move_is_called_better_only_when_the_rollouts_show_it() -> None:
    """Newcomer trial (issue 25, item 3): the review said "the better move (by 0.3 expected
    points)" where the hint, on its own rollouts, found the other move better. A move is called
    better only when the paired difference's interval excludes 0; else "as good as"."""
    from nothanks_lab.render.review import _move_review_words

    g = nt.Game(3, seed=11)
    bot = nt.bots.MarginalCostBot(8)
    while not g.is_over:
        g.step(bot.act(g.view(g.current_player)))
    words = {"better": 0, "as good": 0}
    for m in nt.review(g, 0, seed=5, n=200).moves:
        if m.forced or m.action is not m.best:
            continue
        text = _move_review_words(m)
        d = m.score_diff
        assert d is not None
        if d.low <= 0 <= d.high:
            assert text.startswith("as good as the other move"), (d, text)
            words["as good"] += 1
        else:
            assert text.startswith("the better move"), (d, text)
            words["better"] += 1
    assert words["better"] and words["as good"], words  # both cases met on this round
