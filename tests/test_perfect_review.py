"""Where students are judged on small decks: the review and the hints use exact values.

On a two-seat deck small enough to solve cheaply, every decision is valued under perfect play
(`analysis.exact_evaluation`). These tests solve the same variants independently with
`exact.solve` and hold the review's labels and the hint's recommendation to the exact values:
a move perfect play rates a blunder (the review's own thresholds on the exact cost) is never
labelled good, and the hint recommends the perfect move whenever the moves differ in value.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import exact
from nothanks_lab.analysis import (
    EXACT_MAX_MEMORY,
    exact_cheap,
    exact_evaluation,
    hint_evaluation,
)
from nothanks_lab.analysis.evaluation import _solved
from nothanks_lab.review import THRESHOLDS

T, P = nt.Action.TAKE, nt.Action.PASS

#: Solved two-seat variants: the bot table's three and two larger decks under the ceiling.
VARIANTS = [
    nt.Rules(low_card=3, high_card=9, n_removed=2, chips=((2, 2),)),
    nt.Rules(low_card=1, high_card=7, n_removed=1, chips=((2, 2),)),
    nt.Rules(low_card=3, high_card=10, n_removed=2, chips=((2, 3),)),
    nt.Rules(low_card=3, high_card=11, n_removed=3, chips=((2, 4),)),
    nt.Rules(low_card=3, high_card=12, n_removed=3, chips=((2, 4),)),
]


def played_round(rules: nt.Rules, seed: int) -> nt.Game:
    """A two-seat round: a heuristic bot that plays a random move a third of the time."""
    rng = np.random.default_rng(seed)
    bot = nt.bots.HeuristicBot()
    g = nt.Game(2, rules=rules, seed=seed, first_player=seed % 2)
    while not g.is_over:
        a = bot.act(g.view(g.current_player))
        if len(g.legal_actions()) == 2 and rng.random() < 1 / 3:
            a = P if a is T else T
        g.step(a)
    return g


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.low_card}-{r.high_card}")
def test_no_move_perfect_play_rates_a_blunder_is_labelled_good(rules: nt.Rules) -> None:
    assert exact_cheap(rules, 2)
    margin = exact.solve(rules, 2, "margin")  # solved here, apart from the review's own
    labels: dict[str, int] = {}
    for seed in range(6):
        g = played_round(rules, seed)
        for seat in (0, 1):
            r = nt.review(g, seat)
            assert r.exact and "perfect play" in r.header()
            for m in r.moves:
                values = margin.action_values(m.view)
                cost = max(values.values()) - values[m.action]
                truth = THRESHOLDS.label(cost) if len(values) == 2 else "good"
                if truth == "blunder":
                    assert m.label != "good", (m.card, m.pot, values)
                assert m.label == truth, (m.card, m.pot, m.action, values, m.label)
                assert m.cost == pytest.approx(cost, abs=1e-9)
                labels[truth] = labels.get(truth, 0) + 1
    # The rounds held real errors, not only good moves (the test could fail).
    assert sum(v for k, v in labels.items() if k != "good") > 0, labels


def test_some_variant_holds_a_blunder_that_the_review_catches() -> None:
    rules = VARIANTS[4]
    margin = exact.solve(rules, 2, "margin")
    found = 0
    for seed in range(12):
        g = played_round(rules, seed)
        for m in nt.review(g, 0).moves:
            values = margin.action_values(m.view)
            if len(values) == 2 and max(values.values()) - values[m.action] >= THRESHOLDS.blunder:
                assert m.label == "blunder"
                found += 1
    assert found > 0


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.low_card}-{r.high_card}")
def test_the_hint_recommends_the_perfect_move_whenever_the_moves_differ(rules: nt.Rules) -> None:
    margin = exact.solve(rules, 2, "margin")
    win = exact.solve(rules, 2, "win")
    differ = 0
    for seed in range(4):
        g = nt.Game(2, rules=rules, seed=100 + seed)
        rng = np.random.default_rng(seed)
        while not g.is_over:
            view = g.view(g.current_player)
            hint = hint_evaluation(view, seed=seed)
            assert hint.exact and hint.n == 0
            values = margin.action_values(view)
            if len(values) == 2 and abs(values[T] - values[P]) > 1e-9:
                assert hint.best is margin.action(view)
                differ += 1
            for action, move in hint.moves().items():
                assert move.score.value == pytest.approx(-values[action])
                assert move.win.value == pytest.approx(win.action_values(view)[action])
            g.step(g.legal_actions()[rng.integers(len(g.legal_actions()))])
    assert differ > 0


def test_large_decks_and_three_seats_keep_the_rollouts() -> None:
    assert not exact_cheap(nt.Rules(), 3)
    assert not exact_cheap(nt.Rules(low_card=3, high_card=14, n_removed=3, chips=((2, 4),)), 2)
    g = nt.Game(3, seed=1)
    assert exact_evaluation(g.view(0)) is None
    ev = hint_evaluation(g.view(0), seed=1, n=200)
    assert not ev.exact and ev.n > 0
    small = played_round(VARIANTS[2], 1)
    r = nt.review(small, 0, exact=False, n=200)
    assert not r.exact
    assert any(m.score_diff is not None and m.score_diff.high > m.score_diff.low for m in r.moves)


def test_the_exact_review_fits_its_budget_on_the_largest_deck_allowed() -> None:
    rules = nt.Rules(low_card=3, high_card=12, n_removed=3, chips=((2, 4),))
    assert exact.estimate_memory(rules) <= EXACT_MAX_MEMORY
    g = played_round(rules, 3)
    exact.solve(VARIANTS[0])  # compiled before the clock starts
    _solved.cache_clear()
    start = time.process_time()
    nt.review(g, 0)
    assert time.process_time() - start < 2.0
    start = time.process_time()
    hint_evaluation(nt.Game(2, rules=rules, seed=9).view(0))
    assert time.process_time() - start < 0.5  # solved once per process: a lookup now


def test_the_panel_and_the_text_say_the_values_are_exact() -> None:
    from nothanks_lab.render.panels import position_evaluation_html

    ev = hint_evaluation(nt.Game(2, rules=VARIANTS[2], seed=4).view(0))
    assert "play perfectly" in str(ev)
    html = position_evaluation_html(ev)
    assert "solve exactly" in html and "played out" not in html


def test_bad_input_is_refused() -> None:
    g = played_round(VARIANTS[0], 0)
    with pytest.raises(ValueError, match="exact"):
        nt.review(g, 0, exact="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="view"):
        exact_evaluation("not a view")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="over"):
        exact_evaluation(g.view(0))


def test_the_documented_position() -> None:
    """The position of docs/explanation/perfect-play.md: the rollouts pass, perfect play takes."""
    from nothanks_lab.analysis import advice_policy, evaluate_position, position_view

    rules = VARIANTS[2]
    view = position_view(7, pot=2, n_players=2, my_chips=2, other_chips=2, rules=rules)
    rolled = evaluate_position(view, advice_policy(), n=8000, seed=1)
    d = rolled.score_diff
    assert d is not None and d.low > 1.0  # clearly No Thanks!, cost of Take >= 1: inaccuracy
    assert rolled.best is P
    ev = exact_evaluation(view)
    assert ev is not None and ev.best is T
    assert ev.take.score.value == pytest.approx(-0.80, abs=0.005)
    assert ev.no_thanks is not None
    assert ev.no_thanks.score.value == pytest.approx(4.41, abs=0.005)
    assert ev.take.win.value == pytest.approx(0.581, abs=0.0005)
    assert ev.no_thanks.win.value == pytest.approx(0.164, abs=0.0005)
    assert THRESHOLDS.label(ev.no_thanks.score.value - ev.take.score.value) == "mistake"
    for name in ("search", "best"):
        assert nt.bots.make_bot(name, seed=0).act(view) is P
