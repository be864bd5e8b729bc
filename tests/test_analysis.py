"""Tests of position evaluation, chip value and the take/pass surfaces (nothanks_lab.analysis)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import analysis as an
from nothanks_lab.analysis import rollout
from nothanks_lab.bots import MarginalCostBot, RandomBot
from nothanks_lab.view import position_state


class Slow:
    """The same decisions as `bot`, but without a compiled fast path (engine rollouts)."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.name = f"slow {bot.name}"  # type: ignore[attr-defined]

    def act(self, view: nt.PlayerView) -> nt.Action:
        assert isinstance(view, nt.PlayerView)
        return self.bot.act(view)  # type: ignore[attr-defined]


def mid_round_view(seed: int, n_players: int = 4, moves: int = 25) -> nt.PlayerView:
    """The acting seat's view after some MarginalCostBot moves of a seeded round."""
    g = nt.Game(n_players, seed=seed)
    bot = MarginalCostBot(6)
    for _ in range(moves):
        g.step(bot.act(g.view(g.current_player)))
    return g.view(g.current_player)


# ------------------------------------------------------------------------ evaluate_position
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_compiled_rollouts_equal_engine_rollouts(seed: int) -> None:
    view = mid_round_view(seed)
    fast = an.evaluate_position(view, MarginalCostBot(8), n=60, seed=seed, batch=25)
    slow = an.evaluate_position(view, Slow(MarginalCostBot(8)), n=60, seed=seed, batch=25)
    assert fast.take == slow.take
    assert fast.no_thanks == slow.no_thanks
    assert fast.score_diff == slow.score_diff
    assert fast.n == slow.n == 60


def test_rollouts_play_out_from_position_like_the_engine() -> None:
    # Each sampled deck, played through Game.from_position and the readable engine, gives the
    # seat the same final scores the batch rollouts average.
    view = mid_round_view(5, n_players=3, moves=12)
    rng = np.random.default_rng(9)
    rests = an.sample_face_down(view, 40, rng)
    bots = [MarginalCostBot(10)] * 3
    for take, action in ((True, nt.Action.TAKE), (False, nt.Action.PASS)):
        got = rollout._play_out(position_state(view, rests, take), bots, view.rules)
        for row, rest in zip(got, rests, strict=True):
            g = nt.Game.from_position(view, rest.tolist())
            g.step(action)
            while not g.is_over:
                g.step(bots[0].act(g.view(g.current_player)))
            assert tuple(row) == g.scores()


@pytest.mark.slow
def test_compiled_rollouts_use_the_variant_s_constants() -> None:
    # The heuristic bot and the linear bot read the rule set's constants from their params: compiled
    # rollouts of a variant must get the variant's, as the engine's bots do.
    from nothanks_lab.bots import HeuristicBot, LinearBot

    rules = nt.Rules(low_card=1, high_card=30, n_removed=4)
    g = nt.Game(4, rules=rules, seed=8)
    bot = MarginalCostBot(6)
    for _ in range(20):
        g.step(bot.act(g.view(g.current_player)))
    view = g.view(g.current_player)
    for policy in (HeuristicBot(), LinearBot()):
        fast = an.evaluate_position(view, policy, n=80, seed=4, batch=40)
        slow = an.evaluate_position(view, Slow(policy), n=80, seed=4, batch=40)
        assert (fast.take, fast.no_thanks) == (slow.take, slow.no_thanks)


def test_sampled_face_down_cards_are_unseen_distinct_and_uniform() -> None:
    view = mid_round_view(3)
    rests = an.sample_face_down(view, 20_000, np.random.default_rng(1))
    assert rests.shape == (20_000, view.cards_left)
    assert set(np.unique(rests)) <= set(view.unseen_cards)
    assert all(len(set(r)) == len(r) for r in rests[:200])
    # Each unseen card comes next with chance 1/len(unseen): check within 5 sigma.
    p = 1 / len(view.unseen_cards)
    freq = np.array([(rests[:, 0] == c).mean() for c in view.unseen_cards])
    assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / len(rests)))


def test_last_card_is_evaluated_exactly() -> None:
    # 23 cards held, so the active card is the last: Take ends the round with no chance left.
    hands = [tuple(range(3, 11)), tuple(range(11, 19)), tuple(range(19, 26))]
    view = an.position_view(26, 4, hands[0], other_hands=hands[1:], my_chips=5, other_chips=3)
    assert view.cards_left == 0
    ev = an.evaluate_position(view, n=50, seed=0)
    take = nt.score([*hands[0], 26], 5 + 4)  # 3 + 26 - 9 = 20
    assert ev.take.score.value == take == ev.take.score.low == ev.take.score.high
    # Passing: seat 1 (11..18, MarginalCostBot(10)) passes on 26 (cost 26 - pot 5 > 10), and
    # seat 2 (19..25) takes it for free. The seat keeps 3 points and 4 chips: -1, the best.
    pass_score = nt.score(hands[0], 4)
    assert ev.no_thanks is not None and ev.no_thanks.score.value == pass_score == -1
    assert ev.score_diff is not None and ev.score_diff.value == take - pass_score
    assert ev.score_diff.low == ev.score_diff.high == 21
    # Take leaves seat 1 with 11 - 3 = 8 < 20: a sure loss; passing is a sure win.
    assert (ev.take.win.value, ev.take.win.low) == (0.0, 0.0)
    assert (ev.no_thanks.win.value, ev.no_thanks.win.high) == (1.0, 1.0)
    assert ev.win_diff is not None and ev.win_diff.value == -1


def test_difference_is_the_paired_mean_and_best_move_follows_it() -> None:
    view = mid_round_view(7)
    ev = an.evaluate_position(view, n=3000, seed=4)
    assert ev.score_diff is not None and ev.no_thanks is not None
    assert ev.score_diff.value == pytest.approx(ev.take.score.value - ev.no_thanks.score.value)
    assert ev.score_diff.low < ev.score_diff.value < ev.score_diff.high
    assert ev.best is (nt.Action.TAKE if ev.score_diff.value <= 0 else nt.Action.PASS)
    assert set(ev.moves()) == {nt.Action.TAKE, nt.Action.PASS}
    assert "Take − No Thanks!" in str(ev) and "PositionEvaluation(" in repr(ev)


def test_obvious_positions() -> None:
    # A 35 on an empty pot early in the round: passing is far better.
    bad = an.evaluate_position(an.position_view(35, 0), n=2000, seed=1)
    assert bad.best is nt.Action.PASS and bad.confident and bad.score_diff.low > 10  # type: ignore[union-attr]
    # The card that merges 27 and 29, when the next seat has no chip and so must take it if
    # we pass: taking is far better. (With chips all round, the rollouts rightly prefer to
    # let it go round once more: nobody else wants a 28.)
    view = an.position_view(28, 3, (27, 29), other_chips=0)
    good = an.evaluate_position(view, n=2000, seed=1)
    assert good.best is nt.Action.TAKE and good.score_diff.high < -10  # type: ignore[union-attr]
    assert good.take.win.value > good.no_thanks.win.value  # type: ignore[union-attr]


def test_default_budget_is_within_one_point() -> None:
    # The brief's target: +-1 point (95%) on each move and on their difference, standard game.
    for seed in (11, 12):
        ev = an.evaluate_position(mid_round_view(seed, n_players=5, moves=10), seed=seed)
        assert ev.take.score.half_width < 1 and ev.no_thanks.score.half_width < 1  # type: ignore[union-attr]
        assert ev.score_diff.half_width < 1  # type: ignore[union-attr]


def test_no_chips_means_take_only() -> None:
    view = an.position_view(20, 2, my_chips=0)
    ev = an.evaluate_position(view, n=100, seed=0)
    assert ev.no_thanks is None and ev.score_diff is None and ev.win_diff is None
    assert ev.best is nt.Action.TAKE and ev.moves().keys() == {nt.Action.TAKE}
    assert "forced" in str(ev)


def test_same_view_same_answer_whatever_the_hidden_cards() -> None:
    # Two rounds that differ only in cards nobody has seen give one evaluation.
    a = nt.Game(3, deck=list(range(3, 27)))
    b = nt.Game(3, deck=[3, 4, 5, 6, *range(27, 36), *range(7, 18)])
    for g in (a, b):
        for _ in range(3):
            g.step(nt.Action.TAKE)
    assert a.view(0) == b.view(0)
    ea = an.evaluate_position(a.view(0), n=300, seed=3)
    eb = an.evaluate_position(b.view(0), n=300, seed=3)
    assert ea.take == eb.take and ea.score_diff == eb.score_diff


def test_budget_and_tolerance_stop_early() -> None:
    view = mid_round_view(2)
    quick = an.evaluate_position(view, n=200_000, seed=0, budget_s=1e-9, batch=500)
    assert quick.n == 500  # one batch always runs, then the budget is spent
    # Engine rollouts (no compiled decision) come in small batches, so a budget bites soon.
    slow = an.evaluate_position(view, Slow(MarginalCostBot(8)), n=10_000, seed=0, budget_s=1e-9)
    assert slow.n == 8
    loose = an.evaluate_position(view, n=200_000, seed=0, tol=3.0, batch=200)
    assert loose.n < 200_000
    assert max(loose.take.score.half_width, loose.score_diff.half_width) <= 3.0  # type: ignore[union-attr]


def test_field_and_randomized_policies() -> None:
    view = mid_round_view(4, n_players=3)
    ev = an.evaluate_position(view, MarginalCostBot(5), field=RandomBot(seed=2), n=40, seed=1)
    assert "RandomBot" in ev.policy and "MarginalCostBot" in ev.policy
    with pytest.raises(ValueError, match="one policy per seat"):
        an.evaluate_position(view, field=[MarginalCostBot(5)], n=10)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"n": 1}, "n must be"), ({"budget_s": 0}, "budget_s"), ({"tol": -1}, "tol")],
)
def test_bad_arguments(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        an.evaluate_position(an.position_view(10), **kwargs)


def test_bad_views() -> None:
    g = nt.Game(3, seed=1)
    with pytest.raises(ValueError, match="seat 0 is to act"):
        an.evaluate_position(g.view(1))
    while not g.is_over:
        g.step(nt.Action.TAKE)
    with pytest.raises(ValueError, match="over"):
        an.evaluate_position(g.view(0))
    with pytest.raises(ValueError, match="PlayerView"):
        an.evaluate_position("view")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a policy"):
        an.evaluate_position(an.position_view(10), object())


# ------------------------------------------------------------------------ chip value
def test_chip_value_is_paired_and_sensible() -> None:
    cv = an.chip_value((3, 5), extra_chips=(0, 1, 4), n_games=3000, seed=2)
    for p in (3, 5):
        zero = cv.score_change[(p, 0)]
        assert (zero.value, zero.low, zero.high) == (0.0, 0.0, 0.0)
        four = cv.score_change[(p, 4)]
        assert four.high < 0  # four more chips: a clearly lower (better) score
        assert cv.win_change[(p, 4)].low > 0
        # The change is the paired difference of the per-extra means.
        assert four.value == pytest.approx(cv.score[(p, 4)].value - cv.score[(p, 0)].value)
        assert cv.per_chip(p).value == pytest.approx(four.value / 4)
    recs = cv.to_records()
    assert len(recs) == 6 and {"n_players", "extra_chips", "score_change_low"} <= set(recs[0])
    assert "players" in str(cv)


def test_chip_value_same_seed_same_result_and_engine_agrees() -> None:
    a = an.chip_value(4, extra_chips=(0, 2), n_games=40, seed=5)
    b = an.chip_value(4, extra_chips=(0, 2), n_games=40, seed=5)
    slow = an.chip_value(
        4, policy=Slow(MarginalCostBot(10)), extra_chips=(0, 2), n_games=40, seed=5
    )
    assert a.score == b.score == slow.score and a.win_change == slow.win_change
    for seed in (np.random.SeedSequence(5), np.random.default_rng(5)):
        c = an.chip_value(4, extra_chips=(0, 2), n_games=40, seed=seed)
        assert c.score[(4, 2)].n == 40


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_players": 2}, "players"),
        ({"n_players": 3, "extra_chips": (0, -1)}, "extra_chips"),
        ({"n_players": 3, "extra_chips": (1, 1)}, "twice"),
        ({"n_players": 3, "n_games": 0}, "n_games"),
    ],
)
def test_chip_value_bad_input(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        an.chip_value(**kwargs)


def test_chip_value_deals_come_from_the_one_dealer() -> None:
    # Player count k plays games 0..n-1 of the stream of nothanks_lab.deals seeded by the k-th
    # child of the seed, deal i starting at seat i % players: `simulate` on those very decks,
    # with the same first players, gives seat 0 the same baseline scores.
    from nothanks_lab.deals import deal_decks

    n = 61
    cv = an.chip_value((4, 3), extra_chips=(0, 2), n_games=n, seed=11)
    for p, child in zip((4, 3), np.random.SeedSequence(11).spawn(2), strict=True):
        decks = deal_decks(nt.Rules(), seed=child, start=0, count=n)
        seat0 = np.empty(n)
        for first in range(p):
            rows = np.arange(first, n, p)
            sim = nt.simulate([MarginalCostBot(10)] * p, decks=decks[rows], first_player=first)
            seat0[rows] = sim.scores[:, 0]
        assert cv.score[(p, 0)].value == pytest.approx(seat0.mean(), abs=1e-12)
        assert cv.score[(p, 0)].n == n


# ------------------------------------------------------------------------ surfaces
def test_immediate_surface_is_the_bookkeeping_of_one_move() -> None:
    hand = (27, 29)
    cards, pots = (3, 20, 26, 28, 30, 35), tuple(range(0, 30, 3))
    s = an.take_pass_surface(cards, pots, hand)
    # Card points change minus chips gained, against +1 for the chip a pass costs.
    cost = {3: 3, 20: 20, 26: -1, 28: -29, 30: 0, 35: 35}
    for i, c in enumerate(cards):
        for j, p in enumerate(pots):
            assert s.values[i, j] == cost[c] - p - 1
    be = an.break_even_pots(hand)
    assert set(be) == set(range(3, 36)) - set(hand)
    for c in cards:
        assert be[c] == cost[c] - 1
        # One meaning of break-even: the surface's is the function's, even outside the grid.
        assert s.break_even()[c] == be[c]
        # The grid's first pot where Take wins is the first one beyond the break-even pot.
        beyond = [p for p in pots if p > be[c]]
        assert s.take_from[c] == (beyond[0] if beyond else None)


def test_rollout_break_even_is_where_the_surface_crosses_zero() -> None:
    values = np.array([[3.0, 1.0, -1.0, -2.0], [-1.0, -2.0, -3.0, -4.0], [4.0, 3.0, 2.0, 1.0]])
    s = an.TakePassSurface((20, 21, 22), (0, 2, 4, 6), (), values, method="rollout")
    # Card 20: +1 at pot 2, -1 at pot 4, so both moves cost the same at pot 3.
    assert s.break_even() == {20: 3.0, 21: None, 22: None}
    assert s.take_from == {20: 4, 21: 0, 22: None}


def test_rollout_surface_agrees_in_sign_where_the_answer_is_clear() -> None:
    s = an.take_pass_surface((5, 35), (0, 15), method="rollout", n=600, seed=3)
    assert s.method == "rollout" and s.low is not None and s.high is not None
    assert np.all(s.low <= s.values) and np.all(s.values <= s.high)
    assert s.low[1, 0] > 0  # 35 for nothing: pass
    assert s.high[0, 1] < 0  # 5 with 15 chips: take
    # One seed for every cell: the same surface again.
    again = an.take_pass_surface((5, 35), (0, 15), method="rollout", n=600, seed=3)
    assert np.array_equal(s.values, again.values)


def test_surface_bad_input() -> None:
    assert an.take_pass_surface([27, 28, 27], [0], hand=(27,)).cards == (28,)
    with pytest.raises(ValueError, match="not in the hand"):
        an.take_pass_surface([27], [0], hand=(27,))
    with pytest.raises(ValueError, match="twice"):
        an.take_pass_surface([20], [0], hand=(27, 27))
    with pytest.raises(ValueError, match="method"):
        an.take_pass_surface([20], [0], method="exact")
    with pytest.raises(ValueError, match="outside"):
        an.take_pass_surface([2], [0])
    with pytest.raises(ValueError, match="pots"):
        an.take_pass_surface([20], [-1])
    with pytest.raises(ValueError, match="already in the hand"):
        an.immediate_take_minus_pass(27, 0, (27,))


@pytest.mark.parametrize("threshold", [-3, 0, 5, 12])
def test_bot_boundary_matches_the_marginal_rule(threshold: int) -> None:
    hand = (20, 22, 30)
    cards = tuple(c for c in range(3, 36) if c not in hand)
    pots = tuple(range(0, 40))
    b = an.bot_boundary(MarginalCostBot(threshold), range(3, 36), pots, hand)
    assert b.cards == cards
    for c in cards:
        cost = nt.card_points([*hand, c]) - nt.card_points(hand)
        expected = max(0, cost - threshold)  # smallest pot with cost - pot <= threshold
        assert b.take_from[c] == (expected if expected < 40 else None)
        assert b.takes[cards.index(c)].tolist() == [cost - p <= threshold for p in pots]
    assert b.bot == MarginalCostBot(threshold).name


def test_bot_boundary_asks_the_bot_with_views() -> None:
    seen = []

    class Spy:
        def act(self, view: nt.PlayerView) -> nt.Action:
            seen.append(view)
            return nt.Action.TAKE if view.pot >= 4 else nt.Action.PASS

    b = an.bot_boundary(Spy(), [10, 11], [0, 4, 8], hand=(12,), n_players=5)
    assert b.take_from == {10: 4, 11: 4}
    assert len(seen) == 6 and all(isinstance(v, nt.PlayerView) for v in seen)
    assert {(v.active_card, v.pot) for v in seen} == {(c, p) for c in (10, 11) for p in (0, 4, 8)}
    assert all(v.my_hand == (12,) and v.n_players == 5 and v.is_my_turn for v in seen)


def test_bot_boundary_skips_the_cards_other_seats_hold() -> None:
    # A card in another seat's hand cannot be the active one: the rows leave it out, as they
    # leave out the deciding seat's own cards (a full range of cards used to raise).
    others = [(3, 20), ()]
    b = an.bot_boundary(MarginalCostBot(5), range(3, 36), [0, 5], (10, 11), other_hands=others)
    assert b.cards == tuple(c for c in range(3, 36) if c not in (3, 10, 11, 20))
    with pytest.raises(ValueError, match="other hands"):
        an.bot_boundary(MarginalCostBot(5), [3, 10], [0], (10,), other_hands=others)
    with pytest.raises(ValueError, match="my_chips"):
        an.bot_boundary(MarginalCostBot(5), [20], [0], my_chips=0)


def test_every_name_stays_importable_from_the_package() -> None:
    # analysis became a package by question; what was importable from it still is.
    import importlib

    names = [*an.__all__, "sample_face_down", "warm_up"]
    for name in names:
        assert getattr(an, name) is not None, name
    # Private helpers come from their module, never re-exported (issue 27, item 5).
    for name in ("_mean_estimate", "_play_out", "_share_estimate", "_win_shares"):
        assert getattr(rollout, name) is not None and not hasattr(an, name), name
    for sub in ("rollout", "evaluation", "chips", "surfaces"):
        module = importlib.import_module(f"nothanks_lab.analysis.{sub}")
        assert module.__doc__ and len(module.__doc__) > 300  # opens with a paragraph on its role
        assert set(module.__all__) <= set(an.__all__)


def test_position_view_checks_its_input() -> None:
    v = an.position_view(28, 3, (27, 29), n_players=4, other_hands=[(5,), (), (30, 31)])
    assert v.cards_left == 24 - 1 - 5 and v.chips == (11, 11, 11, 11)
    assert v.seen_cards == {5, 27, 28, 29, 30, 31}
    with pytest.raises(ValueError, match="held once"):
        an.position_view(28, 0, (27,), other_hands=[(27,), ()])
    with pytest.raises(ValueError, match="held once"):
        an.position_view(28, 0, (28,))
    with pytest.raises(ValueError, match="other_hands"):
        an.position_view(28, 0, other_hands=[()])
    with pytest.raises(ValueError, match="exceed"):
        an.position_view(35, 0, tuple(range(3, 27)))
    with pytest.raises(ValueError, match="pot"):
        an.position_view(10, -1)
    with pytest.raises(ValueError, match="other_chips"):
        an.position_view(10, 0, other_chips=[1])
    with pytest.raises(ValueError, match="players"):
        an.position_view(10, 0, n_players=9)


def test_no_global_random_state(restore_global_random: None) -> None:
    view = mid_round_view(8)
    before = np.random.get_state()[1].copy()  # noqa: NPY002 - checking the legacy global
    a = an.evaluate_position(view, n=200, seed=6)
    b_cv = an.chip_value(3, extra_chips=(0, 1), n_games=50, seed=6)
    assert np.array_equal(np.random.get_state()[1], before)  # noqa: NPY002
    np.random.seed(123)  # noqa: NPY002 - disturb the global: results must not move
    assert an.evaluate_position(view, n=200, seed=6).take == a.take
    assert an.chip_value(3, extra_chips=(0, 1), n_games=50, seed=6).score == b_cv.score


# ------------------------------------------------------------------------ one interval type
def test_intervals_are_the_stats_ones() -> None:
    from nothanks_lab import stats

    ev = an.evaluate_position(an.position_view(20, 2), MarginalCostBot(8), n=200, seed=1)
    assert ev.score_diff is not None and ev.win_diff is not None
    for e in (ev.take.score, ev.take.win, ev.score_diff, ev.win_diff):
        assert isinstance(e, stats.Interval) and e.confidence == 0.95 and e.n == 200
    assert str(ev.score_diff).endswith("(95%, n=200)")
    x = np.array([3.0, 5.0, 4.0, 9.0, 1.0])
    assert rollout._mean_estimate(x) == stats.mean_interval(x)  # Student t, not a normal quantile
    shares = np.array([1.0, 0.0, 0.5, 1 / 3])  # win shares: ties split 1/k
    assert rollout._share_estimate(shares) == stats.share_interval(shares)
    hits = rollout._share_estimate(np.array([1.0, 0.0, 1.0, 1.0]))  # 0/1: the exact binomial one
    exact = stats.proportion_interval(3, 4)
    assert math.isclose(hits.low, exact.low) and math.isclose(hits.high, exact.high)
    cv = an.chip_value(3, extra_chips=(0, 2), n_games=50, seed=2)
    assert isinstance(cv.per_chip(3), stats.Interval) and cv.per_chip(3).confidence == 0.95


# ------------------------------------------------------------------ one tie rule
def test_rollouts_split_a_tie_among_k_winners() -> None:
    scores = np.array([[3, 3, 5], [1, 2, 3], [4, 4, 4], [9, 2, 2]], dtype=np.int64)
    # By hand: seat 0 ties one rival, wins alone, ties both, loses; seat 2 mirrors it.
    assert rollout._win_shares(scores, 0).tolist() == [0.5, 1.0, 1 / 3, 0.0]
    assert rollout._win_shares(scores, 2).tolist() == [0.0, 0.0, 1 / 3, 0.5]
    assert np.allclose(sum(rollout._win_shares(scores, p) for p in range(3)), 1.0)


def test_a_certain_tie_is_worth_half_a_win() -> None:
    # The last card, 26: taking it gives seat 0 points 3 + 26 = 29 and 17 + 4 chips, a score
    # of 8, level with seat 1 (11 points - 3 chips); seat 2 has 19 - 3 = 16. Passing costs a
    # chip and leaves seat 0 at 3 - 16 = -13, a sole win whoever takes the 26.
    hands = [tuple(range(3, 11)), tuple(range(11, 19)), tuple(range(19, 26))]
    view = an.position_view(26, 4, hands[0], other_hands=hands[1:], my_chips=17, other_chips=3)
    ev = an.evaluate_position(view, n=40, seed=0)
    assert ev.take.score.value == 8 and ev.take.win.value == 0.5
    assert ev.no_thanks is not None and ev.no_thanks.win.value == 1.0
    assert ev.win_diff is not None and ev.win_diff.value == -0.5
