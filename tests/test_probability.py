"""Exact probabilities against brute force and closed forms; Monte Carlo twins against exact."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import partial
from math import comb

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import probability as pr
from nothanks_lab.rules import Rules, runs

SMALL = Rules(low_card=1, high_card=10, n_removed=3)
TINY = Rules(low_card=2, high_card=9, n_removed=4)
STANDARD = Rules()


# --------------------------------------------------------------------------------------------
# Brute force: enumerate every removed set, keep those consistent with the seen cards
# --------------------------------------------------------------------------------------------


def worlds(rules: Rules, seen=()):
    """Every in-play set (a frozenset) consistent with `seen`, each equally likely."""
    seen = set(seen)
    out = []
    for removed in itertools.combinations(rules.cards, rules.n_removed):
        if seen.isdisjoint(removed):
            out.append(frozenset(rules.cards) - set(removed))
    return out


def brute_p(rules, seen, event) -> Fraction:
    ws = worlds(rules, seen)
    return Fraction(sum(bool(event(w)) for w in ws), len(ws))


def brute_pmf(rules, seen, value, size) -> list[Fraction]:
    ws = worlds(rules, seen)
    counts = [0] * size
    for w in ws:
        counts[value(w)] += 1
    return [Fraction(c, len(ws)) for c in counts]


def brute_mean(rules, seen, value) -> Fraction:
    ws = worlds(rules, seen)
    return Fraction(sum(value(w) for w in ws), len(ws))


def longest(w) -> int:
    return max((len(r) for r in runs(w)), default=0)


def close(a, b) -> bool:
    return abs(float(a) - float(b)) <= 1e-12


SEEN_CASES = [(), (5,), (1, 2), (4, 6, 10), (1, 3, 5, 7), (2, 3, 4, 5, 6, 7, 8)]


# --------------------------------------------------------------------------------------------
# Exact functions versus brute force on small decks
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seen", SEEN_CASES)
@pytest.mark.parametrize("cards", [(1,), (5,), (5, 6), (2, 9, 10), (1, 2, 3, 4), (3, 5, 7)])
def test_p_all_in_play_matches_brute_force(cards, seen):
    expected = brute_p(SMALL, seen, lambda w: set(cards) <= w)
    assert close(pr.p_all_in_play(cards, seen, SMALL), expected)


@pytest.mark.parametrize("seen", SEEN_CASES)
@pytest.mark.parametrize("cards", [(1,), (5, 6), (2, 9, 10), (1, 2, 3, 4), (3, 5, 7, 9, 10)])
def test_removed_count_pmf_matches_brute_force(cards, seen):
    m = len(set(cards) - set(seen))
    expected = brute_pmf(SMALL, seen, lambda w: sum(c not in w for c in cards), m + 1)
    got = pr.removed_count_pmf(cards, seen, SMALL)
    assert len(got) == m + 1
    assert all(close(g, e) for g, e in zip(got, expected, strict=True))


@pytest.mark.parametrize("rules", [SMALL, TINY, Rules(low_card=1, high_card=7, n_removed=1)])
@pytest.mark.parametrize("seen", [(), (2,), (3, 4), (2, 5, 7)])
def test_run_pmfs_and_means_match_brute_force(rules, seen):
    size_runs = len(pr.run_count_pmf(rules))
    exp_runs = brute_pmf(rules, seen, lambda w: len(runs(w)), size_runs)
    got_runs = pr.run_count_pmf(rules, seen=seen)
    assert len(got_runs) == size_runs
    assert all(close(g, e) for g, e in zip(got_runs, exp_runs, strict=True))

    exp_long = brute_pmf(rules, seen, longest, rules.n_in_play + 1)
    got_long = pr.longest_run_pmf(rules, seen=seen)
    assert all(close(g, e) for g, e in zip(got_long, exp_long, strict=True))
    for k in range(rules.n_in_play + 2):
        expected = brute_p(rules, seen, lambda w, k=k: longest(w) >= k)
        assert close(pr.p_longest_run_at_least(k, rules, seen=seen), expected)

    points = brute_mean(rules, seen, nt.card_points)
    assert close(pr.expected_card_points_all(rules, seen=seen), points)
    assert close(
        pr.expected_run_count(rules, seen=seen), brute_mean(rules, seen, lambda w: len(runs(w)))
    )


@pytest.mark.parametrize("seen", [(), (4,), (3, 8)])
def test_p_in_play_each_matches_brute_force(seen):
    got = pr.p_in_play_each(seen, SMALL)
    assert sorted(got) == list(SMALL.cards)
    for c in SMALL.cards:
        assert close(got[c], brute_p(SMALL, seen, lambda w, c=c: c in w))


def test_p_gap_fillable_matches_brute_force():
    hand, seen, taken = (2, 5, 9), (7,), (3,)
    got = pr.p_gap_fillable(hand, seen, SMALL, taken=taken)
    assert list(got) == [(3, 4), (6, 7, 8)]
    assert got[(3, 4)] == 0.0  # 3 is in someone's hand
    known = set(hand) | set(seen) | set(taken)
    assert close(got[(6, 7, 8)], brute_p(SMALL, known, lambda w: {6, 7, 8} <= w))


# --------------------------------------------------------------------------------------------
# Standard game: exact formulas, computed independently in fractions
# --------------------------------------------------------------------------------------------


def test_standard_p_all_in_play_is_the_hypergeometric_formula():
    # Unseen U = 33 - s cards hold the 9 removed; the m asked-about unseen cards all avoid them.
    for seen in [(), (27, 29), tuple(range(3, 26))]:
        u = 33 - len(seen)
        for cards in [(28,), (30, 31), (33, 34, 35), (4, 5, 6, 7)]:
            m = len(set(cards) - set(seen))
            exact = Fraction(comb(u - m, 9), comb(u, 9))
            assert close(pr.p_all_in_play(cards, seen), exact)


def test_standard_single_card_chance_is_in_play_share():
    assert close(pr.p_all_in_play([28]), Fraction(24, 33))
    assert close(pr.p_all_in_play(28, seen=[27, 29]), Fraction(22, 31))
    assert pr.p_all_in_play([28], seen=[28]) == 1.0


def test_standard_removed_count_matches_scipy_hypergeom():
    from scipy.stats import hypergeom

    got = pr.removed_count_pmf(range(29, 36), seen=[29, 3])
    # 31 unseen cards, 6 of them asked about, 9 drawn as removed.
    expected = hypergeom(31, 6, 9).pmf(np.arange(7))
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert close(got.sum(), 1)


def test_standard_run_count_closed_form_equals_dynamic_program():
    closed = pr.run_count_pmf()
    # With no card seen the closed form answers; with card 3 seen the dynamic program does.
    # Total probability over card 3 (in play or removed) ties the two together: given 3 was
    # removed, the rest is a fresh round of 24 in-play cards among 4..35 (closed form again).
    p3 = Fraction(24, 33)
    dp_in = pr.run_count_pmf(seen=[3])  # 3 seen = in play
    sub = Rules(low_card=4, high_card=35, n_removed=8)
    sub_pmf = pr.run_count_pmf(sub)
    mixed = [
        float(p3) * dp_in[r] + float(1 - p3) * (sub_pmf[r] if r < len(sub_pmf) else 0.0)
        for r in range(len(closed))
    ]
    np.testing.assert_allclose(closed, mixed, rtol=0, atol=1e-12)
    for r in range(1, len(closed)):
        exact = Fraction(comb(23, r - 1) * comb(10, r), comb(33, 24))
        assert close(closed[r], exact)
    assert closed[0] == 0.0 and len(closed) == 11


def test_standard_longest_run_closed_form_equals_dynamic_program():
    closed = pr.longest_run_pmf()
    p3 = Fraction(24, 33)
    given_in = pr.longest_run_pmf(seen=[3])
    sub = pr.longest_run_pmf(Rules(low_card=4, high_card=35, n_removed=8))
    mixed = float(p3) * given_in + float(1 - p3) * sub
    np.testing.assert_allclose(closed, mixed, rtol=0, atol=1e-12)
    assert close(closed.sum(), 1)


def test_standard_expected_values_have_closed_forms():
    # E[runs] = P(3 in) + 32 P(c in, c-1 out) = 24/33 + 32 * (9/33)(24/32) = 24 * 10 / 33.
    assert close(pr.expected_run_count(), Fraction(240, 33))
    assert close(pr.expected_run_count(), (np.arange(11) * pr.run_count_pmf()).sum())
    points = 3 * Fraction(24, 33) + sum(c * Fraction(9 * 24, 33 * 32) for c in range(4, 36))
    assert close(pr.expected_card_points_all(), points)


def test_seen_from_a_view_equals_seen_cards():
    g = nt.Game(4, seed=11)
    for _ in range(10):
        g.step(nt.Action.TAKE if g.pot >= 2 or g.chips[g.current_player] == 0 else nt.Action.PASS)
    view = g.view(1)
    seen = sorted(view.seen_cards)
    assert pr.p_all_in_play([20, 21], view) == pr.p_all_in_play([20, 21], seen)
    assert pr.p_in_play_each(view) == pr.p_in_play_each(seen)
    unseen = [c for c in view.rules.cards if c not in view.seen_cards]
    p = pr.p_in_play_each(view)
    # Every unseen card has the same chance, the share of unseen cards still face down.
    assert {p[c] for c in unseen} == {view.cards_left / len(unseen)}
    np.testing.assert_array_equal(pr.run_count_pmf(seen=view), pr.run_count_pmf(seen=seen))


def test_gap_fillable_from_a_view_uses_every_hand_as_taken():
    deck = [27, 29, 28, *range(3, 24)]  # seat 0 takes 27 then 29; 28 is the active card
    g = nt.Game(3, deck=deck)
    g.step(nt.Action.TAKE)
    g.step(nt.Action.TAKE)
    view = g.view(0)
    assert view.my_hand == (27, 29) and view.active_card == 28
    assert pr.p_gap_fillable(view) == {(28,): 1.0}  # the gap card is on the table now
    g.step(nt.Action.PASS)
    g.step(nt.Action.TAKE)  # seat 1 takes 28
    assert pr.p_gap_fillable(g.view(0)) == {(28,): 0.0}


def test_gaps_of_a_hand():
    assert pr.gaps([27, 29]) == [(28,)]
    assert pr.gaps([20, 23]) == [(21, 22)]
    assert pr.gaps([23, 20, 21]) == [(22,)]
    assert pr.gaps([]) == []
    assert pr.gaps([10, 11, 12]) == []


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------

EXACT_CALLS = [
    lambda cards, seen: pr.p_all_in_play(cards, seen),
    lambda cards, seen: pr.removed_count_pmf(cards, seen),
    lambda cards, seen: pr.p_gap_fillable(cards, seen),
]


@pytest.mark.parametrize("call", EXACT_CALLS)
@pytest.mark.parametrize(
    ("cards", "seen", "match"),
    [
        ([36], (), r"\[36\].*outside the deck 3\.\.35"),
        ([2, 28], (), r"\[2\]"),
        ([28], [1], r"seen cards contain \[1\]"),
        ([28], list(range(3, 28)), "25 seen cards.*at most 24"),
        ([28.5], (), "whole numbers"),
        (["28"], (), "whole numbers"),
        ("28", (), "not the text"),
        (None, (), "collection of card numbers"),
    ],
)
def test_bad_input_raises_value_error_naming_it(call, cards, seen, match):
    with pytest.raises(ValueError, match=match):
        call(cards, seen)


def test_a_card_named_twice_asks_the_same_question():
    assert pr.p_all_in_play([28, 28, 30], [5, 5]) == pr.p_all_in_play([28, 30], [5])
    np.testing.assert_array_equal(
        pr.removed_count_pmf([28, 30, 28], [30, 30]), pr.removed_count_pmf([28, 30], [30])
    )
    np.testing.assert_array_equal(pr.run_count_pmf(seen=[7, 7]), pr.run_count_pmf(seen=[7]))


def test_a_hand_holding_a_card_twice_is_malformed():
    with pytest.raises(ValueError, match=r"\[28\] appear more than once"):
        pr.p_gap_fillable([27, 28, 28, 30])
    with pytest.raises(ValueError, match="more than once"):
        pr.gaps([5, 5, 7])


def test_run_functions_reject_bad_seen_and_k():
    with pytest.raises(ValueError, match="outside the deck"):
        pr.run_count_pmf(seen=[40])
    with pytest.raises(ValueError, match="at most 24"):
        pr.longest_run_pmf(seen=range(3, 30))
    with pytest.raises(ValueError, match=r"k .* >= 0"):
        pr.p_longest_run_at_least(-1)
    with pytest.raises(ValueError, match="at most 3 face up"):
        pr.run_count_pmf(Rules(low_card=1, high_card=4, n_removed=1), seen=[1, 2, 3, 4])
    with pytest.raises(ValueError, match=r"n .* >= 1"):
        pr.mc_p_all_in_play(28, n=0)
    with pytest.raises(ValueError, match="confidence"):
        pr.mc_p_all_in_play(28, n=10, confidence=1.5)
    with pytest.raises(ValueError, match="Rules"):
        pr.run_count_pmf("standard")


def test_hand_plus_taken_plus_seen_count_is_checked():
    with pytest.raises(ValueError, match="25 seen cards"):
        pr.p_gap_fillable([3, 5], seen=range(6, 27), taken=[27, 28])


def test_view_with_other_rules_is_refused():
    view = nt.Game(3, seed=1).view(0)
    with pytest.raises(ValueError, match="differ from the view"):
        pr.p_all_in_play(28, view, SMALL)


def test_failed_call_changes_nothing():
    before = pr.run_count_pmf(SMALL)
    with pytest.raises(ValueError):
        pr.run_count_pmf(SMALL, seen=[1, 99])
    np.testing.assert_array_equal(pr.run_count_pmf(SMALL), before)


def test_returned_arrays_are_fresh_copies():
    a = pr.run_count_pmf()
    a[:] = -1
    assert pr.run_count_pmf().min() >= 0


# --------------------------------------------------------------------------------------------
# Sampling and Monte Carlo twins
# --------------------------------------------------------------------------------------------


def test_samples_respect_seen_cards_and_are_reproducible():
    seen = [3, 17, 27, 29, 35]
    x = pr.sample_in_play(2000, seen, seed=4)
    assert x.shape == (2000, 33)
    assert (x.sum(axis=1) == 24).all()
    assert x[:, [c - 3 for c in seen]].all()
    np.testing.assert_array_equal(x, pr.sample_in_play(2000, seen, seed=4))
    assert not np.array_equal(x, pr.sample_in_play(2000, seen, seed=5))
    removed = pr.sample_removed(500, seen, seed=np.random.default_rng(1))
    assert removed.shape == (500, 9) and not np.isin(seen, removed).any()
    assert (np.diff(removed, axis=1) > 0).all()


def test_samples_are_uniform_over_removed_sets():
    # TINY: C(8, 4) = 70 removed sets; with 3 seen, C(5, 4) = 5 remain, each 1/5.
    seen = (2, 5, 9)
    removed = pr.sample_removed(20_000, seen, TINY, seed=8)
    keys, counts = np.unique(removed, axis=0, return_counts=True)
    assert len(keys) == 5
    # Chi-square against uniform: 4 degrees of freedom, 0.999 quantile is 18.47.
    expected = 20_000 / 5
    assert ((counts - expected) ** 2 / expected).sum() < 18.47


SEEN = (27, 29, 10)
RUN_SEEN = (20, 21, 22, 23)  # a seen run of 4 makes long runs likelier


def _points_without_first_card_rule() -> float:
    # A plausible bug: treating the lowest card like the others (as if a card below it existed).
    return float(sum(c * Fraction(9 * 24, 33 * 32) for c in range(3, 36)))


def twins():
    """(name, exact value, mc function of (n, seed, level), value a plausible bug would give)."""
    return [
        (
            "p_all_in_play",
            pr.p_all_in_play([28, 30], SEEN),
            partial(pr.mc_p_all_in_play, [28, 30], SEEN),
            pr.p_all_in_play([28, 30]),  # seen cards ignored
        ),
        (
            "p_longest>=6",
            pr.p_longest_run_at_least(6),
            partial(pr.mc_p_longest_run_at_least, 6),
            pr.p_longest_run_at_least(7),  # off by one in k
        ),
        (
            "p_longest>=8|run seen",
            pr.p_longest_run_at_least(8, seen=RUN_SEEN),
            partial(pr.mc_p_longest_run_at_least, 8, seen=RUN_SEEN),
            pr.p_longest_run_at_least(8),  # seen cards ignored
        ),
        (
            "card_points",
            pr.expected_card_points_all(),
            pr.mc_expected_card_points_all,
            _points_without_first_card_rule(),
        ),
        (
            "card_points|run seen",
            pr.expected_card_points_all(seen=RUN_SEEN),
            partial(pr.mc_expected_card_points_all, seen=RUN_SEEN),
            pr.expected_card_points_all(),  # seen cards ignored
        ),
        (
            "run_count|run seen",
            pr.expected_run_count(seen=RUN_SEEN),
            partial(pr.mc_expected_run_count, seen=RUN_SEEN),
            pr.expected_run_count(),  # seen cards ignored
        ),
    ]


# Coverage is asserted for 99.9% intervals, so a fixed seed is not a lucky pick among many;
# the 5-sigma check uses the 95% interval of the very same samples (same seed).


@pytest.mark.parametrize(("name", "exact", "mc", "bug"), twins(), ids=[t[0] for t in twins()])
def test_scalar_twin_covers_exact_and_catches_errors(name, exact, mc, bug):
    wide = mc(n=40_000, seed=2024, confidence=0.999)
    assert wide.n == 40_000 and wide.low < wide.value < wide.high
    assert wide.covers(exact), (name, wide, exact)
    assert not wide.covers(bug), (name, wide, bug)
    est = mc(n=40_000, seed=2024)
    assert est.value == wide.value and est.half_width < wide.half_width
    sigma = est.half_width / 1.96
    assert not est.covers(exact + 5 * sigma) and not est.covers(exact - 5 * sigma)


def _check_vector_twin(exact, ests, bug):
    # Many 99.9% intervals at once: the chance that any of ~20 misses is about 2%.
    assert len(ests) == len(exact)
    for j, (e, est) in enumerate(zip(exact, ests, strict=True)):
        assert est.covers(e), (j, est, e)
    bug = np.pad(bug, (0, max(0, len(exact) - len(bug))))[: len(exact)]
    assert any(not est.covers(b) for est, b in zip(ests, bug, strict=True))


@pytest.mark.parametrize("seen", [(), SEEN])
def test_pmf_twins_cover_exact_and_catch_errors(seen):
    kw = dict(n=40_000, seed=99, confidence=0.999)
    # Bugs: seen cards ignored, or (with nothing seen) a deck one card short.
    short = Rules(low_card=4, n_removed=8)
    _check_vector_twin(
        pr.run_count_pmf(seen=seen),
        pr.mc_run_count_pmf(seen=seen, **kw),
        pr.run_count_pmf() if seen else pr.run_count_pmf(short),
    )
    _check_vector_twin(
        pr.longest_run_pmf(seen=seen),
        pr.mc_longest_run_pmf(seen=seen, **kw),
        pr.longest_run_pmf() if seen else pr.longest_run_pmf(short),
    )
    cards = range(30, 36)
    _check_vector_twin(
        pr.removed_count_pmf(cards, seen),
        pr.mc_removed_count_pmf(cards, seen, **kw),
        pr.removed_count_pmf(cards) if seen else pr.removed_count_pmf(cards, rules=short),
    )
    # The largest entry, from its 95% interval: an exact value 5 sigma off lies outside.
    exact = pr.run_count_pmf(seen=seen)
    ests = pr.mc_run_count_pmf(seen=seen, n=40_000, seed=99)
    j = int(exact.argmax())
    sigma = ests[j].half_width / 1.96
    assert not ests[j].covers(exact[j] + 5 * sigma) and not ests[j].covers(exact[j] - 5 * sigma)


def test_in_play_each_and_gap_twins_cover_exact():
    seen = (5, 6, 20, 31)
    exact = pr.p_in_play_each(seen)
    ests = pr.mc_p_in_play_each(seen, n=20_000, seed=3, confidence=0.999)
    assert sorted(ests) == sorted(exact)
    for c in exact:
        assert ests[c].covers(exact[c]), (c, ests[c], exact[c])
    hand, taken = (20, 23, 27, 29), (28,)
    exact_g = pr.p_gap_fillable(hand, seen, taken=taken)
    ests_g = pr.mc_p_gap_fillable(hand, seen, taken=taken, n=20_000, seed=3, confidence=0.999)
    assert list(ests_g) == list(exact_g) == [(21, 22), (24, 25, 26), (28,)]
    for g in exact_g:
        assert ests_g[g].covers(exact_g[g])
    assert ests_g[(28,)].value == 0.0


def test_wilson_interval_matches_scipy():
    from scipy.stats import binomtest

    est = pr.mc_p_all_in_play(28, n=500, seed=1)
    ci = binomtest(round(est.value * 500), 500).proportion_ci(0.95, method="wilson")
    assert close(est.low, ci.low) and close(est.high, ci.high)


@pytest.mark.parametrize(
    ("rules", "seen", "hand"),
    [(STANDARD, (27, 29), (20, 23, 27, 29)), (SMALL, (), (2, 5, 9)), (TINY, (2, 3, 5), (2, 5))],
    ids=["standard", "small", "tiny"],
)
def test_twins_count_the_sampled_rounds_whatever_the_batch(monkeypatch, rules, seen, hand):
    """Every twin, its rounds drawn in many small batches, equals its statistic counted by hand
    (with `runs` and `card_points`) over the same rounds drawn at once."""
    from nothanks_lab import stats
    from nothanks_lab.probability import montecarlo

    n, seed, level = 100, 11, 0.9
    monkeypatch.setattr(montecarlo, "_BATCH", 7)  # 15 batches, the last one short

    def rounds(seen) -> list[list[int]]:
        """The in-play cards of the `n` rounds a twin samples, drawn at once."""
        masks = pr.sample_in_play(n, seen, rules, seed=seed)
        return [[c for c, kept in zip(rules.cards, row, strict=True) if kept] for row in masks]

    in_play = rounds(seen)
    kw = dict(n=n, seed=seed, confidence=level)

    def shares(hits) -> list[stats.Interval]:
        return [
            stats.proportion_interval(int(k), n, confidence=level, method="wilson") for k in hits
        ]

    def tally(values, size) -> list[stats.Interval]:
        return shares([sum(v == i for v in values) for i in range(size)])

    asked = [rules.low_card + 1, rules.high_card - 1]
    assert (
        pr.mc_p_all_in_play(asked, seen, rules, **kw)
        == shares([sum(all(c in cards for c in asked) for cards in in_play)])[0]
    )
    unseen_asked = [c for c in asked if c not in seen]
    assert pr.mc_removed_count_pmf(asked, seen, rules, **kw) == tally(
        [sum(c not in cards for c in unseen_asked) for cards in in_play], len(unseen_asked) + 1
    )
    each = pr.mc_p_in_play_each(seen, rules, **kw)
    assert list(each.values()) == shares([sum(c in s for s in in_play) for c in rules.cards])
    n_runs = [len(runs(cards)) for cards in in_play]
    longest = [max(len(r) for r in runs(cards)) for cards in in_play]
    assert pr.mc_run_count_pmf(rules, seen=seen, **kw) == tally(
        n_runs, len(pr.run_count_pmf(rules))
    )
    assert pr.mc_longest_run_pmf(rules, seen=seen, **kw) == tally(longest, rules.n_in_play + 1)
    assert (
        pr.mc_p_longest_run_at_least(3, rules, seen=seen, **kw)
        == shares([sum(x >= 3 for x in longest)])[0]
    )
    points = [nt.card_points(cards) for cards in in_play]
    assert pr.mc_expected_card_points_all(rules, seen=seen, **kw) == stats.mean_interval(
        points, confidence=level
    )
    assert pr.mc_expected_run_count(rules, seen=seen, **kw) == stats.mean_interval(
        n_runs, confidence=level
    )
    # A hand was turned face up, so the gap twin samples the rounds given it too.
    gaps = pr.gaps(hand, rules)
    fillable = pr.mc_p_gap_fillable(hand, seen, rules, **kw)
    assert list(fillable) == gaps and gaps
    given_hand = rounds(set(seen) | set(hand))
    assert list(fillable.values()) == shares(
        [sum(all(c in cards for c in gap) for cards in given_hand) for gap in gaps]
    )


def test_convergence_table_narrows_and_repeats():
    exact = pr.p_all_in_play(28, seen=[27, 29])
    mc = partial(pr.mc_p_all_in_play, 28, [27, 29])
    rows = pr.convergence(partial(pr.p_all_in_play, 28, [27, 29]), mc, [100, 1000, 100_000], seed=7)
    assert [r.n for r in rows] == [100, 1000, 100_000]
    assert all(r.exact == exact for r in rows)
    widths = [r.high - r.low for r in rows]
    assert widths[0] > widths[1] > widths[2]
    assert rows[-1].low <= exact <= rows[-1].high
    assert pr.convergence(exact, mc, [100, 1000, 100_000], seed=7) == rows
    with pytest.raises(ValueError, match="one Interval"):
        pr.convergence(exact, partial(pr.mc_run_count_pmf), [10], seed=1)


# --------------------------------------------------------------------------------------------
# Calibration against the engine's own deals: the model of hidden cards is the engine's
# --------------------------------------------------------------------------------------------


def _calibration_z(predicted: list[float], happened: list[bool]) -> float:
    """How many standard errors the count of events is from the sum of predicted chances."""
    p = np.array(predicted)
    return float((np.sum(happened) - p.sum()) / np.sqrt((p * (1 - p)).sum()))


def test_exact_chances_are_calibrated_on_engine_deals():
    rng = np.random.default_rng(17)
    predicted, happened = [], []
    for i in range(6000):
        deck = nt.engine.deal(STANDARD, seed=rng)
        seen = deck[: i % 20]  # the first cards turned so far
        cards = (27, 28) if i % 2 else (33,)
        p = pr.p_all_in_play(cards, seen)
        if 0 < p < 1:
            predicted.append(p)
            happened.append(set(cards) <= set(deck.tolist()))
    assert abs(_calibration_z(predicted, happened)) < 4
    # A model that ignored the seen cards would be miscalibrated on the same deals.
    rng = np.random.default_rng(17)
    wrong = []
    for i in range(6000):
        deck = nt.engine.deal(STANDARD, seed=rng)
        seen = deck[: i % 20]
        cards = (27, 28) if i % 2 else (33,)
        if 0 < pr.p_all_in_play(cards, seen) < 1:
            wrong.append(pr.p_all_in_play(cards))
    assert abs(_calibration_z(wrong, happened)) > 4


def test_view_chances_are_calibrated_in_played_rounds():
    # Summed over all unseen cards the chances add up to cards_left exactly, so calibrate one
    # card at a time: whether 28 is still face down, asked of views of real rounds.
    bot = nt.bots.MarginalCostBot(8)
    rng = np.random.default_rng(23)
    predicted, happened = [], []
    for i in range(1000):
        deck = nt.engine.deal(STANDARD, seed=rng).tolist()
        g = nt.Game(4, deck=deck)
        for _ in range(i % 40):
            if g.is_over:
                break
            g.step(bot.act(g.view(g.current_player)))
        view = g.view(i % 4)
        if 28 in view.seen_cards:
            continue
        p = pr.p_in_play_each(view)[28]
        assert p == pr.p_all_in_play(28, view) == view.cards_left / len(view.unseen_cards)
        predicted.append(p)
        happened.append(28 in deck)
    assert len(predicted) > 400 and 0 < min(predicted) and max(predicted) < 1
    assert abs(_calibration_z(predicted, happened)) < 4


def test_edge_rounds_fully_seen_and_nothing_removed():
    rules = Rules(low_card=1, high_card=6, n_removed=2)
    seen = (1, 2, 4, 6)  # every in-play card turned: 3 and 5 must be the removed ones
    assert pr.p_all_in_play(3, seen, rules) == 0.0
    np.testing.assert_array_equal(pr.removed_count_pmf([3, 5], seen, rules), [0, 0, 1])
    assert (pr.sample_removed(4, seen, rules, seed=1) == [3, 5]).all()
    np.testing.assert_array_equal(pr.run_count_pmf(rules, seen=seen), [0, 0, 0, 1])
    assert pr.expected_card_points_all(rules, seen=seen) == 1 + 4 + 6
    assert pr.mc_expected_card_points_all(rules, seen=seen, n=10, seed=1).value == 11
    none_removed = Rules(low_card=1, high_card=5, n_removed=0)
    assert pr.p_all_in_play([1, 5], rules=none_removed) == 1.0
    np.testing.assert_array_equal(pr.run_count_pmf(none_removed), [0, 1])
    assert pr.sample_in_play(3, rules=none_removed, seed=1).all()


# ------------------------------------------------------------------------ one interval type
def test_estimate_is_the_package_interval_type_at_the_requested_level() -> None:
    from nothanks_lab import analysis as an
    from nothanks_lab import stats

    with pytest.warns(DeprecationWarning, match="use nothanks_lab.stats.Interval"):
        assert pr.Estimate is stats.Interval  # the old name, kept one release
    with pytest.warns(DeprecationWarning, match="analysis.Estimate is deprecated"):
        assert an.Estimate is stats.Interval
    est = pr.mc_p_all_in_play(28, n=2000, seed=1, confidence=0.9)
    assert isinstance(est, stats.Interval) and est.confidence == 0.9 and est.n == 2000
    k = round(est.value * 2000)
    assert est == stats.proportion_interval(k, 2000, confidence=0.9, method="wilson")
    assert str(est).endswith("(90%, n=2000)")
    mean = pr.mc_expected_run_count(n=500, seed=2, confidence=0.99)
    assert mean.confidence == 0.99 and "(99%, n=500)" in str(mean)
    pmf = pr.mc_run_count_pmf(n=300, seed=3)
    assert all(isinstance(e, stats.Interval) and e.confidence == 0.95 for e in pmf)


def test_convergence_takes_seed_by_keyword_only() -> None:
    mc = partial(pr.mc_p_all_in_play, 28)
    with pytest.raises(TypeError):
        pr.convergence(0.5, mc, [10], 3)  # type: ignore[misc]
    assert pr.convergence(0.5, mc, [10], seed=3) == pr.convergence(0.5, mc, [10], seed=3)
