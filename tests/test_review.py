"""The round review: known good and bad moves get the right labels; costs, order, CLI, plot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import nothanks_lab as nt
from nothanks_lab.__main__ import main, run
from nothanks_lab.plots import plot_review
from nothanks_lab.review import LABELS, THRESHOLDS, Review, Thresholds, _settled

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
    assert m.cost_estimate.level == 0.95 and m.cost_estimate.n == 200
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
