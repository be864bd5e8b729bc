"""Tests of `simulate`, `SimResult` and the seeded deals behind them.

The heart is the differential test: on seeded deals, the compiled fast path and the one-game
engine (`play_game`, one view at a time) must give the same rounds for every bot class that has
a fast path, at several table sizes, parameter values, mixed tables and first players. Then
determinism (seed, chunk size, game-offset splits, no global random state), a statistical
cross-check of the rules against the compiled C reference's mean score, and bad input.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

import nothanks_lab as nt
from nothanks_lab.bots import ExpectationBot, HeuristicBot, MarginalCostBot, RandomBot
from nothanks_lab.deals import deal_decks, stream_key
from nothanks_lab.fast import has_fast_path
from nothanks_lab.simulation import simulate_chunks

RULES = nt.Rules()


def fast_classes() -> list[type]:
    """Every registered bot class with a compiled fast path."""
    out = []
    for name in nt.bots.available_bots():
        cls = nt.bots.bot_class(name)
        if isinstance(cls, type) and callable(getattr(cls, "FAST_DECIDE", None)):
            out.append(cls)
    return out


def param_variants(cls: type) -> list[dict]:
    """Defaults, then each parameter at an end of its range (others at defaults)."""
    variants: list[dict] = [{}]
    for p in cls.PARAMS:  # type: ignore[attr-defined]
        if p.kind is bool:
            variants.append({p.name: not p.default})
        else:
            lo = p.kind(p.low + (p.default - p.low) / 2)
            hi = p.kind(p.default + (p.high - p.default) / 4)
            variants += [{p.name: lo}, {p.name: hi}]
    return variants


def engine_rounds(policies, decks, *, rules=RULES, first_player=0):
    """Card points, chips and moves per deck, played view by view through `play_game`."""
    out = [nt.play_game(policies, rules=rules, deck=d, first_player=first_player) for d in decks]
    return (
        np.array([r.card_points for r in out]),
        np.array([r.chips for r in out]),
        np.array([len(r.history) for r in out]),
        np.array([r.scores for r in out]),
    )


def assert_same_rounds(res: nt.SimResult, policies, decks, **kw) -> None:
    points, chips, moves, scores = engine_rounds(policies, decks, **kw)
    np.testing.assert_array_equal(res.card_points, points)
    np.testing.assert_array_equal(res.chips, chips)
    np.testing.assert_array_equal(res.n_decisions, moves)
    np.testing.assert_array_equal(res.scores, scores)


# --------------------------------------------------------------------------- differential
def test_every_fast_bot_class_is_covered():
    classes = fast_classes()
    assert MarginalCostBot in classes
    assert all(has_fast_path(cls()) for cls in classes)


@pytest.mark.parametrize(
    "cls",
    # LinearBot's engine replay is the slow one (about 4 s at 3 seats): in the slow tier
    [
        pytest.param(c, marks=pytest.mark.slow) if c.__name__ == "LinearBot" else c
        for c in fast_classes()
    ],
    ids=lambda c: c.__name__,
)
@pytest.mark.parametrize(
    "n_players",
    [3, pytest.param(5, marks=pytest.mark.slow), pytest.param(7, marks=pytest.mark.slow)],
)
def test_fast_path_equals_engine(cls, n_players):
    """Each parameter variant in turn, over its own seeded deals; seats rotate through them."""
    variants = param_variants(cls)
    per_variant = max(8, 150 // len(variants))
    rng = np.random.default_rng(n_players)
    for i, params in enumerate(variants):
        # Neighbouring variants share the table, so a seat's kind and params really vary.
        other = variants[(i + 1) % len(variants)]
        bots = [cls(**(params if s % 2 == 0 else other)) for s in range(n_players)]
        decks = deal_decks(RULES, seed=1000 * n_players + i, start=0, count=per_variant)
        first = int(rng.integers(n_players))
        res = nt.simulate(bots, decks=decks, first_player=first, fast=True)
        assert_same_rounds(res, bots, decks, first_player=first)


@pytest.mark.parametrize("n_players", [3, 5, 7])
def test_mixed_tables_equal_engine(n_players):
    classes = fast_classes()
    bots = [
        classes[s % len(classes)](**param_variants(classes[s % len(classes)])[s % 3])
        for s in range(n_players)
    ]
    decks = deal_decks(RULES, seed=77 + n_players, start=0, count=100)
    res = nt.simulate(bots, decks=decks, first_player=n_players - 1, fast=True)
    assert_same_rounds(res, bots, decks, first_player=n_players - 1)


def test_marginal_thresholds_across_range_equal_engine():
    bots = [MarginalCostBot(t) for t in (-3, 0, 4, 13, 25)]
    decks = deal_decks(RULES, seed=5, start=0, count=200)
    res = nt.simulate(bots, decks=decks, first_player=2)
    assert_same_rounds(res, bots, decks, first_player=2)


def test_variant_rules_equal_engine():
    """A lesson's small deck: rule constants reach the compiled bots too."""
    rules = nt.Rules(low_card=1, high_card=20, n_removed=4, chips=((3, 5), (4, 4)))
    bots = [cls() for cls in fast_classes()]
    bots = (bots * 3)[:4]
    decks = deal_decks(rules, seed=9, start=0, count=100)
    res = nt.simulate(bots, decks=decks, rules=rules, first_player=1)
    assert_same_rounds(res, bots, decks, rules=rules, first_player=1)
    seeded = nt.simulate(bots, 100, rules=rules, seed=9, first_player=1)
    np.testing.assert_array_equal(seeded.scores, res.scores)


def test_fallback_path_random_bot_equals_engine():
    """The engine path (``fast=False``) of `simulate` plays the rounds `play_game` plays."""
    decks = deal_decks(RULES, seed=3, start=0, count=60)
    res = nt.simulate(
        [RandomBot(seed=s) for s in range(4)], decks=decks, first_player=3, fast=False
    )
    fresh = [RandomBot(seed=s) for s in range(4)]
    assert_same_rounds(res, fresh, decks, first_player=3)


def test_mixed_fast_and_slow_table_runs_on_engine():
    decks = deal_decks(RULES, seed=4, start=0, count=40)
    bots = [MarginalCostBot(5), ExpectationBot(), MarginalCostBot(12)]  # no fast path
    res = nt.simulate(bots, decks=decks)
    assert_same_rounds(res, [MarginalCostBot(5), ExpectationBot(), MarginalCostBot(12)], decks)


def test_fast_and_fallback_give_the_same_seeded_run():
    bots = [HeuristicBot(), MarginalCostBot(8), MarginalCostBot(11), HeuristicBot(milk=False)]
    a = nt.simulate(bots, 120, seed=21, first_player=1, fast=True)
    b = nt.simulate(iter(bots), 120, seed=21, first_player=1, fast=False, chunk_size=50)
    for f in ("scores", "card_points", "chips", "winners", "win_share", "n_decisions"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))


# --------------------------------------------------------------------------- the result
def test_result_fields_are_consistent():
    r = nt.simulate([MarginalCostBot(t) for t in (2, 9, 15, 30)], 3000, seed=8)
    g, p = 3000, 4
    for f, dtype in (("scores", np.int64), ("card_points", np.int64), ("chips", np.int64)):
        a = getattr(r, f)
        assert a.shape == (g, p) and a.dtype == dtype
    assert r.winners.dtype == bool and r.win_share.dtype == np.float64
    assert r.n_decisions.shape == (g,) and r.n_decisions.dtype == np.int64
    assert (r.n_games, r.n_players) == (g, p)
    np.testing.assert_array_equal(r.scores, r.card_points - r.chips)
    # Chips are never lost: every pot is taken with the last card.
    np.testing.assert_array_equal(r.chips.sum(axis=1), p * RULES.starting_chips(p))
    best = r.scores.min(axis=1, keepdims=True)
    np.testing.assert_array_equal(r.winners, r.scores == best)
    np.testing.assert_allclose(r.win_share.sum(axis=1), 1.0)
    k = r.winners.sum(axis=1)
    assert (k > 1).any(), "no tie in 3000 games would be suspicious"
    np.testing.assert_allclose(r.win_share[r.winners], np.repeat(1 / k, k))
    assert (r.win_share[~r.winners] == 0).all()
    assert (r.n_decisions >= RULES.n_in_play).all()
    assert r.names == tuple(f"MarginalCostBot(threshold={t})" for t in (2, 9, 15, 30))
    assert r.seed == 8


def test_zero_games_and_empty_decks():
    r = nt.simulate([MarginalCostBot()] * 3, 0, seed=1)
    assert r.scores.shape == (0, 3) and r.n_decisions.shape == (0,)
    r = nt.simulate([MarginalCostBot()] * 3, decks=np.empty((0, 24), dtype=int))
    assert r.n_games == 0


def test_chunks_stream_is_the_same_run():
    bots = [MarginalCostBot(10)] * 5
    whole = nt.simulate(bots, 1000, seed=12)
    parts = list(simulate_chunks(bots, 1000, seed=12, chunk_size=300))
    assert [p.n_games for p in parts] == [300, 300, 300, 100]
    assert [p.game_offset for p in parts] == [0, 300, 600, 900]
    np.testing.assert_array_equal(nt.SimResult.concat(parts).scores, whole.scores)


# --------------------------------------------------------------------------- determinism
def test_same_seed_same_result_and_seeds_differ():
    bots = [MarginalCostBot(10)] * 5
    a, b = nt.simulate(bots, 500, seed=1), nt.simulate(bots, 500, seed=1)
    np.testing.assert_array_equal(a.scores, b.scores)
    c = nt.simulate(bots, 500, seed=2)
    assert (a.scores != c.scores).any()


def test_independent_of_chunk_size_and_offset_splits():
    bots = [HeuristicBot(), MarginalCostBot(6), MarginalCostBot(14)]
    whole = nt.simulate(bots, 2000, seed=99)
    small = nt.simulate(bots, 2000, seed=99, chunk_size=7)
    np.testing.assert_array_equal(whole.scores, small.scores)
    np.testing.assert_array_equal(whole.n_decisions, small.n_decisions)
    cuts = [0, 1, 640, 641, 1999, 2000]
    parts = [
        nt.simulate(bots, hi - lo, seed=99, game_offset=lo, chunk_size=333)
        for lo, hi in itertools.pairwise(cuts)
    ]
    joined = nt.SimResult.concat(parts)
    for f in ("scores", "chips", "card_points", "n_decisions", "win_share"):
        np.testing.assert_array_equal(getattr(joined, f), getattr(whole, f))


def test_seeded_decks_are_deal_decks():
    bots = [MarginalCostBot(3)] * 3
    seeded = nt.simulate(bots, 50, seed=5, game_offset=10)
    replay = nt.simulate(bots, decks=deal_decks(RULES, seed=5, start=10, count=50))
    np.testing.assert_array_equal(seeded.scores, replay.scores)


def test_no_global_random_state_used(restore_global_random):
    np_before = np.random.get_state()  # noqa: NPY002 - checking the legacy global on purpose
    py_before = random.getstate()
    bots = [MarginalCostBot(10)] * 4
    a = nt.simulate(bots, 200, seed=3)
    b0 = nt.simulate([RandomBot(seed=2)] * 3, 20, seed=3)
    fresh = nt.simulate(bots, 20)  # fresh entropy from the OS, not from the globals
    after = np.random.get_state()  # noqa: NPY002
    assert random.getstate() == py_before
    assert np.array_equal(np_before[1], after[1]) and np_before[2:] == after[2:]
    np.random.seed(12345)  # noqa: NPY002 - disturbing the globals is the point
    random.seed(12345)
    np.random.random(100)  # noqa: NPY002
    np.testing.assert_array_equal(nt.simulate(bots, 200, seed=3).scores, a.scores)
    b1 = nt.simulate([RandomBot(seed=2)] * 3, 20, seed=3)
    np.testing.assert_array_equal(b0.scores, b1.scores)
    # seed=None: fresh entropy, reported so the run can be repeated exactly.
    assert isinstance(fresh.seed, int)
    np.testing.assert_array_equal(nt.simulate(bots, 20, seed=fresh.seed).scores, fresh.scores)


def test_generator_and_seed_sequence_seeds():
    bots = [MarginalCostBot(10)] * 3
    ss = nt.simulate(bots, 30, seed=np.random.SeedSequence(4))
    np.testing.assert_array_equal(ss.scores, nt.simulate(bots, 30, seed=4).scores)
    g1 = nt.simulate(bots, 30, seed=np.random.default_rng(4))
    g2 = nt.simulate(bots, 30, seed=np.random.default_rng(4))
    np.testing.assert_array_equal(g1.scores, g2.scores)


def test_mean_score_agrees_with_compiled_reference():
    """MarginalCostBot(10) x5: the C reference measured 37.6908 per seat over 1M games.

    The interval is computed from this run's own spread (per-game mean score is the sample
    unit, seats of a game being dependent), widened for the reference's sampling error.
    """
    n, ref, ref_games = 200_000, 37.6908, 1_000_000
    r = nt.simulate([MarginalCostBot(10)] * 5, n, seed=2024)
    per_game = r.scores.mean(axis=1)
    sd = per_game.std(ddof=1)
    se = np.hypot(sd / np.sqrt(n), sd / np.sqrt(ref_games))
    z = stats.norm.ppf(0.9995)  # two-sided 99.9%
    assert abs(per_game.mean() - ref) <= z * se, (per_game.mean(), ref, z * se)


# --------------------------------------------------------------------------- deals
def test_deal_decks_are_valid_and_split_invariant():
    d = deal_decks(RULES, seed=17, start=0, count=4000)
    assert d.shape == (4000, 24) and d.dtype == np.int64
    s = np.sort(d, axis=1)
    assert (s[:, 1:] > s[:, :-1]).all()
    assert d.min() >= RULES.low_card and d.max() <= RULES.high_card
    np.testing.assert_array_equal(deal_decks(RULES, seed=17, start=1234, count=10), d[1234:1244])
    assert (deal_decks(RULES, seed=18, start=0, count=4000) != d).any(axis=1).all()


def test_deal_decks_takes_seed_start_count_by_keyword_and_warns_by_position():
    import warnings

    from nothanks_lab.deals import deal_one

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the keyword spelling is silent
        kw = deal_decks(RULES, seed=3, start=5, count=2)
        one = deal_one(RULES, seed=3, game=5)
    with pytest.warns(DeprecationWarning, match=r"give seed, start, count by keyword"):
        old = deal_decks(RULES, 3, 5, 2)
    with pytest.warns(DeprecationWarning, match=r"give seed by keyword"):
        old_one = deal_one(RULES, 3, game=5)
    np.testing.assert_array_equal(old, kw)
    np.testing.assert_array_equal(old_one, one)
    np.testing.assert_array_equal(one, kw[0])
    with pytest.raises(TypeError, match="seed twice"):
        deal_decks(RULES, 3, seed=3)


def test_deal_decks_are_uniform():
    """Each card leads a deck equally often; each card is in play with chance 24/33."""
    n = 33_000
    d = deal_decks(RULES, seed=6, start=0, count=n)
    lead = np.bincount(d[:, 0] - RULES.low_card, minlength=RULES.n_cards)
    assert stats.chisquare(lead).pvalue > 1e-4
    in_play = np.bincount(d.ravel() - RULES.low_card, minlength=RULES.n_cards)
    expected = n * RULES.n_in_play / RULES.n_cards
    sd = np.sqrt(n * (24 / 33) * (9 / 33))
    assert np.abs(in_play - expected).max() < 5 * sd
    # Order within the deck: the last card is as uniform as the first.
    last = np.bincount(d[:, -1] - RULES.low_card, minlength=RULES.n_cards)
    assert stats.chisquare(last).pvalue > 1e-4


def test_stream_key_forms():
    np.testing.assert_array_equal(stream_key(5), stream_key(np.random.SeedSequence(5)))
    key = stream_key(5)
    np.testing.assert_array_equal(stream_key(key), key)
    for bad in (-1, "x", 1.5, None, True):
        with pytest.raises(ValueError, match="seed"):
            stream_key(bad)
    with pytest.raises(ValueError, match="count"):
        deal_decks(RULES, seed=1, start=0, count=-1)
    with pytest.raises(ValueError, match="start"):
        deal_decks(RULES, seed=1, start=-3, count=1)


# --------------------------------------------------------------------------- bad input
BOTS3 = [MarginalCostBot()] * 3


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_games": -1, "seed": 1}, "n_games"),
        ({"n_games": 2.5, "seed": 1}, "n_games"),
        ({"n_games": "10", "seed": 1}, "n_games"),
        ({"seed": 1}, "n_games"),
        (
            {"n_games": 3, "decks": deal_decks(RULES, seed=1, start=0, count=2)},
            "n_games=3 but 2 decks",
        ),
        ({"decks": np.arange(3, 27)}, "shape"),
        ({"decks": np.zeros((2, 23), dtype=int)}, "shape"),
        ({"decks": np.tile(np.arange(2, 26), (2, 1))}, "outside the deck"),
        ({"decks": [list(range(3, 27)), list(range(13, 37))]}, r"decks\[1\] holds card 36"),
        ({"decks": np.tile([3] * 2 + list(range(5, 27)), (1, 1))}, r"\[3\] more than once"),
        ({"decks": np.full((1, 24), 3.5)}, "whole-numbered"),
        ({"decks": [[3, 4], [5]]}, "decks"),
        ({"n_games": 5, "seed": -2}, "seed"),
        ({"n_games": 5, "seed": "abc"}, "seed"),
        ({"n_games": 5, "seed": 1, "first_player": 3}, "first_player"),
        ({"n_games": 5, "seed": 1, "first_player": -1}, "first_player"),
        ({"n_games": 5, "seed": 1, "chunk_size": 0}, "chunk_size"),
        ({"n_games": 5, "seed": 1, "game_offset": -1}, "game_offset"),
        ({"n_games": 5, "seed": 1, "fast": "yes"}, "fast"),
        ({"n_games": 5, "seed": 1, "rules": "standard"}, "rules"),
    ],
)
def test_bad_input_is_a_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        nt.simulate(BOTS3, **kwargs)


def test_bad_tables():
    with pytest.raises(ValueError, match="not a policy"):
        nt.simulate([MarginalCostBot(), "marginal", MarginalCostBot()], 5, seed=1)
    with pytest.raises(ValueError, match="players is not allowed"):
        nt.simulate([MarginalCostBot()] * 8, 5, seed=1)
    with pytest.raises(ValueError, match="no compiled fast path"):
        nt.simulate([MarginalCostBot(), ExpectationBot(), MarginalCostBot()], 5, seed=1, fast=True)
    with pytest.raises(ValueError, match="at least one"):
        nt.SimResult.concat([])


class Raising:
    name = "Raising(1)"

    def act(self, view):
        raise RuntimeError("boom")


class Answering:
    name = "Answering"

    def act(self, view):
        return "take"


@pytest.mark.parametrize(
    ("bad", "match"), [(Raising(), "raised RuntimeError: boom"), (Answering(), "answered 'take'")]
)
def test_failing_policy_is_a_policy_error(bad, match):
    with pytest.raises(nt.PolicyError, match=match) as e:
        nt.simulate([MarginalCostBot(), bad, MarginalCostBot()], 5, seed=1, first_player=1)
    assert e.value.policy is bad
    assert e.value.view.seat == 1
    assert bad.name in str(e.value) and "PlayerView(" in str(e.value)


def test_import_does_not_load_numba():
    code = "import sys, nothanks_lab; assert 'numba' not in sys.modules, 'numba imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


# ----------------------------------------------------------------- every result is checked
def _forged(r: nt.SimResult, **changes: np.ndarray) -> nt.SimResult:
    import dataclasses

    return dataclasses.replace(r, **{k: v.copy() for k, v in changes.items()})


@pytest.mark.parametrize(
    ("tamper", "law"),
    [
        (lambda r: {"chips": r.chips + np.eye(1, r.chips.shape[1], 0, dtype=np.int64)}, "chips"),
        (lambda r: {"scores": r.scores - 1}, "card points minus chips"),
        (lambda r: {"n_decisions": r.n_decisions * 0 + 5}, "fewer cards"),
        (
            lambda r: {
                "card_points": r.card_points * 0,
                "scores": -r.chips,
            },
            "card points no deal",
        ),
        (lambda r: {"winners": ~r.winners}, "wrong winners"),
    ],
)
def test_a_forged_result_is_refused_naming_game_and_bots(tamper, law) -> None:
    from nothanks_lab.simulation import ResultCheckError, check_outcomes

    bots = [MarginalCostBot(t) for t in (0, 5, 10)]
    decks = deal_decks(None, seed=3, start=0, count=20)
    r = nt.simulate(bots, decks=decks)
    check_outcomes(r, nt.Rules(), decks=decks)  # the honest result passes
    bad = _forged(r, **tamper(r))
    with pytest.raises(ResultCheckError, match=rf"game 0 .*{law}.*MarginalCostBot\(threshold=5\)"):
        check_outcomes(bad, nt.Rules(), decks=decks)


def test_the_check_knows_a_deck_s_card_point_bounds() -> None:
    from nothanks_lab.simulation import ResultCheckError, check_outcomes

    deck = np.array([list(range(3, 27))])  # one run: the fewest points any split gives is 3
    r = nt.simulate([MarginalCostBot(40)] * 3, decks=deck)
    check_outcomes(r, nt.Rules(), decks=deck)
    low = _forged(r, card_points=np.array([[2, 0, 0]]), scores=np.array([[2, 0, 0]]) - r.chips)
    with pytest.raises(ResultCheckError, match="card points no deal"):
        check_outcomes(low, nt.Rules(), decks=deck)
    # Above the deck's sum (every card alone) is impossible too.
    high = _forged(r, card_points=np.array([[sum(range(3, 27)) + 1, 0, 0]]))
    high = _forged(high, scores=high.card_points - r.chips)
    with pytest.raises(ResultCheckError, match="card points no deal"):
        check_outcomes(high, nt.Rules(), decks=deck)


def test_a_tournament_refuses_a_forged_game(monkeypatch) -> None:
    import nothanks_lab.simulation as sim

    real = sim.chunk_result

    def forged(points, chips, *args, **kwargs):
        chips = chips.copy()
        chips[-1, 0] += 1  # one chip from nowhere in the chunk's last game
        return real(points, chips, *args, **kwargs)

    monkeypatch.setattr(sim, "chunk_result", forged)
    with pytest.raises(sim.ResultCheckError, match=r"game \d+ does not conserve chips"):
        nt.tournament(["marginal", "marginal:threshold=0", "marginal:threshold=3"], 3, 10, seed=1)
    with pytest.raises(sim.ResultCheckError, match="MarginalCostBot"):
        nt.simulate([MarginalCostBot(4)] * 3, 10, seed=1)


def test_read_only_and_memory_mapped_decks_play(tmp_path) -> None:
    """Issue 24: a read-only decks array was a numba TypingError."""
    decks = deal_decks(None, seed=2, start=0, count=30)
    bots = [MarginalCostBot(t) for t in (1, 4, 9)]
    expected = nt.simulate(bots, decks=decks).scores
    frozen = decks.copy()
    frozen.flags.writeable = False
    np.save(tmp_path / "decks.npy", decks)
    mapped = np.load(tmp_path / "decks.npy", mmap_mode="r")
    for d in (frozen, mapped):
        np.testing.assert_array_equal(nt.simulate(bots, decks=d).scores, expected)
        np.testing.assert_array_equal(nt.simulate(bots, decks=d, fast=False).scores, expected)
