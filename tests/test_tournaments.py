"""Tournaments, sweeps and tuning: seat rotation, paired deals, honest intervals, bad input."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any, ClassVar

import numpy as np
import pytest
from scipy import stats

import nothanks_lab as nt
from nothanks_lab.bots import Bot, MarginalCostBot, RandomBot
from nothanks_lab.deals import deal_decks
from nothanks_lab.tournaments import (
    WIN_UNIT,
    head_to_head,
    make_policy,
    parse_bot_spec,
    sweep,
    tournament,
    tune,
)


def per_deal_values(result: nt.TournamentResult, policies: list[Any], seed: int):
    """Each bot's per-deal average win share and score, recomputed straight from simulate."""
    decks = deal_decks(None, seed=seed, start=0, count=result.n_deals)
    n_bots = len(result.names)
    win = np.zeros((result.n_deals, n_bots))
    score = np.zeros((result.n_deals, n_bots))
    for d in range(result.n_deals):
        for seating in result.seatings_of(d):
            r = nt.simulate([policies[b] for b in seating], decks=decks[d : d + 1])
            for seat, b in enumerate(seating):
                win[d, b] += r.win_share[0, seat]
                score[d, b] += r.scores[0, seat]
    k = result.seats_per_deal
    return win / k, score / k


# ------------------------------------------------------------------------ specs
@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        ("marginal", "marginal", {}),
        ("marginal:threshold=10", "marginal", {"threshold": 10}),
        (" random : p_take=0.25 , seed=3 ", "random", {"p_take": 0.25, "seed": 3}),
        ("x:flag=true,other=False", "x", {"flag": True, "other": False}),
        ("m:t=-4.5", "m", {"t": -4.5}),
    ],
)
def test_parse_bot_spec(text: str, name: str, params: dict[str, Any]) -> None:
    assert parse_bot_spec(text) == (name, params)


@pytest.mark.parametrize("text", ["", "marginal:threshold", "marginal:=3", "marginal:t=abc"])
def test_parse_bot_spec_rejects_malformed(text: str) -> None:
    with pytest.raises(ValueError, match=r"bot spec|parameter|not a number"):
        parse_bot_spec(text)


def test_make_policy_accepts_objects_names_and_pairs() -> None:
    bot = MarginalCostBot(3)
    assert make_policy(bot) is bot
    assert make_policy("marginal:threshold=3").threshold == 3
    assert make_policy(("marginal", {"threshold": 4})).threshold == 4
    with pytest.raises(ValueError, match="unknown bot 'nope'"):
        make_policy("nope")
    with pytest.raises(ValueError, match="no parameter thresold"):
        make_policy("marginal:thresold=3")
    with pytest.raises(ValueError, match="outside its allowed range"):
        make_policy("marginal:threshold=99")
    with pytest.raises(ValueError, match="not a bot"):
        make_policy(42)


# ------------------------------------------------------------------------ design
def test_exactly_p_bots_play_every_order_of_seats() -> None:
    r = tournament(
        ["marginal:threshold=10", "marginal:threshold=0", "marginal:threshold=5"],
        n_games=20,
        seed=1,
    )
    assert r.seatings_per_deal == 6
    for deal in (0, 7, 19):
        assert sorted(r.seatings_of(deal)) == sorted(itertools.permutations(range(3)))
    assert r.n_games == 120
    assert r.games.tolist() == [120, 120, 120]


def test_field_larger_than_table_plays_every_lineup_in_every_seat() -> None:
    field = [MarginalCostBot(t) for t in (10, 0, 5, -40)]
    r = tournament(field, 3, n_games=10, seed=2)
    assert r.lineups == ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))
    seatings = r.seatings_of(4)
    assert len(seatings) == 4 * 6  # C(4, 3) lineups x every order of 3 seats
    for b in range(4):
        seats = Counter(s.index(b) for s in seatings if b in s)
        assert seats == {0: 6, 1: 6, 2: 6}  # each of its 3 lineups puts it in every seat twice
    assert r.seats_per_deal.tolist() == [18, 18, 18, 18]


def test_head_to_head_seats_the_candidate_everywhere() -> None:
    r = head_to_head("marginal:threshold=5", "marginal:threshold=10", 4, 10, seed=3)
    # Copies of one opponent: the 24 orders of a deal come down to the 4 rotations.
    assert sorted(r.seatings_of(3)) == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    assert r.games.tolist() == [40, 120]
    listed = head_to_head(
        "marginal:threshold=5", ["marginal", "marginal:threshold=0"], 3, 10, seed=3
    )
    assert len(listed.names) == 3 and listed.seatings_per_deal == 6


def test_deals_are_shared_by_every_seating() -> None:
    """Take-always bots: the first player takes every card, so it sees the whole deck."""

    class DeckRecorder(Bot):
        seen: ClassVar[list[int]] = []

        def act(self, view: nt.PlayerView) -> nt.Action:
            DeckRecorder.seen.append(view.active_card)
            return nt.Action.TAKE

    DeckRecorder.seen.clear()
    r = tournament(
        [DeckRecorder(), DeckRecorder(), DeckRecorder()], n_games=4, seed=9, chunk_size=3
    )
    n_in_play = nt.Rules().n_in_play
    assert len(DeckRecorder.seen) == 4 * r.seatings_per_deal * n_in_play
    games = Counter(
        tuple(DeckRecorder.seen[i : i + n_in_play])
        for i in range(0, len(DeckRecorder.seen), n_in_play)
    )
    expected = {tuple(d) for d in deal_decks(None, seed=9, start=0, count=4).tolist()}
    assert set(games) == expected
    assert all(c == r.seatings_per_deal for c in games.values())


# ------------------------------------------------------------------------ statistics
def test_identical_bots_share_wins_equally_with_intervals_covering_one_over_p() -> None:
    for p in (3, 5):
        r = tournament([MarginalCostBot(8)] * p, n_games=300, seed=4)
        # Every seating of a deal puts the same bot everywhere: they tie on every deal.
        assert np.allclose(r.win_share, 1 / p)
        assert np.all(r.win_share_ci[:, 0] <= 1 / p) and np.all(r.win_share_ci[:, 1] >= 1 / p)
        assert len(set(r.mean_score.tolist())) == 1


@pytest.mark.parametrize("p", [3, 5])
def test_intervals_are_over_per_deal_averages(p: int) -> None:
    # Scores: Student t over the per-deal averages. Win shares: the package's share interval
    # of the same per-deal averages (inside [0, 1]), close to their t interval.
    from nothanks_lab.stats import share_interval

    policies = [MarginalCostBot(t) for t in (10, 0, 4, -3, 20)[:p]]
    r = tournament(policies, n_games=250 if p == 3 else 60, seed=5, chunk_size=23)
    win, score = per_deal_values(r, policies, 5)
    for b in range(3):
        assert r.win_share[b] == pytest.approx(win[:, b].mean(), rel=1e-12)
        iv = share_interval(win[:, b])
        assert r.win_share_ci[b] == pytest.approx([iv.low, iv.high], rel=1e-9)
        assert 0 <= iv.low < r.win_share[b] < iv.high <= 1
        w = win[:, b]
        t_low, t_high = stats.t.interval(0.95, len(w) - 1, w.mean(), stats.sem(w))
        assert iv.half_width == pytest.approx((t_high - t_low) / 2, rel=0.1)
        values = score[:, b]
        assert r.mean_score[b] == pytest.approx(values.mean(), rel=1e-12)
        low, high = stats.t.interval(0.95, len(values) - 1, values.mean(), stats.sem(values))
        assert r.score_ci[b] == pytest.approx([low, high], rel=1e-9)
    c = r.compare(0, 1)
    d = win[:, 0] - win[:, 1]
    assert c.diff == pytest.approx(d.mean(), rel=1e-12)
    assert [c.low, c.high] == pytest.approx(
        np.clip(stats.t.interval(0.95, len(d) - 1, d.mean(), stats.sem(d)), -1, 1), rel=1e-9
    )
    c = r.compare("MarginalCostBot(threshold=4)", 1, metric="mean_score")
    d = score[:, 2] - score[:, 1]
    assert [c.diff, c.low, c.high] == pytest.approx(
        [d.mean(), *stats.t.interval(0.95, len(d) - 1, d.mean(), stats.sem(d))], rel=1e-9
    )
    # Pairing pays: the paired interval is narrower than the two separate ones combined.
    w = r.win_share_ci
    assert c.high - c.low < (r.score_ci[2, 1] - r.score_ci[2, 0]) + (
        r.score_ci[1, 1] - r.score_ci[1, 0]
    )
    assert w.shape == (p, 2)


def test_weak_bots_rank_below_marginal_cost_with_separate_intervals() -> None:
    r = tournament(
        ["marginal:threshold=10", "marginal:threshold=-40", ("random", {"p_take": 1.0})],
        n_games=60,
        seed=6,
    )
    rec = r.to_records()
    # Beside a bot that takes everything, never taking (-40) beats taking cheap cards (10)
    # once both cyclic orders are played; rotations of one order alone had it the other way.
    assert [x["bot"] for x in rec] == [
        "MarginalCostBot(threshold=-40)",
        "MarginalCostBot(threshold=10)",
        # An unseeded randomized bot is seeded from the run's seed and its place (here 2).
        f"RandomBot(p_take=1, seed={np.random.SeedSequence(6, spawn_key=(2,)).generate_state(1)[0]})",  # noqa: E501
    ]
    best, worst = rec[0], rec[-1]
    assert best["win_share_low"] > rec[1]["win_share_high"]
    assert rec[1]["win_share_low"] >= worst["win_share_high"]
    assert max(best["score_high"], rec[1]["score_high"]) < worst["score_low"]


def test_same_seed_same_table_and_chunking_does_not_matter() -> None:
    field = ["marginal:threshold=10", "marginal:threshold=2", "marginal:threshold=-3"]
    a = tournament(field, n_games=120, seed=7)
    b = tournament(field, n_games=120, seed=7, chunk_size=17)
    c = tournament(field, n_games=120, seed=8)
    assert a.to_records() == b.to_records()
    assert a.to_records() != c.to_records()
    assert str(a) == str(b)


def test_randomized_bots_are_reproducible_and_left_untouched() -> None:
    bot = RandomBot(p_take=0.4, seed=11)
    state = bot.rng.bit_generator.state
    field = [bot, MarginalCostBot(10), MarginalCostBot(0)]
    a = tournament(field, n_games=8, seed=3, chunk_size=4)
    b = tournament(field, n_games=8, seed=3, chunk_size=4)
    assert a.to_records() == b.to_records()
    assert bot.rng.bit_generator.state == state  # the caller's generator never advanced


def test_seed_none_is_recorded_and_reruns() -> None:
    a = tournament(["marginal", "marginal:threshold=0", "marginal:threshold=3"], n_games=30)
    b = tournament(
        ["marginal", "marginal:threshold=0", "marginal:threshold=3"], n_games=30, seed=a.seed
    )
    assert a.to_records() == b.to_records()


def test_single_deal_has_a_share_interval_but_no_score_interval() -> None:
    r = tournament(["marginal", "marginal:threshold=0", "marginal:threshold=3"], n_games=1, seed=1)
    # A share of one deal is still bounded (what 1 trial allows); a t interval needs two.
    assert np.isnan(r.score_ci).all() and "n/a" in str(r)
    lo, hi = r.win_share_ci.T
    assert ((0 <= lo) & (lo <= r.win_share) & (r.win_share <= hi) & (hi <= 1) & (lo < hi)).all()


# ------------------------------------------------------------------------ tables
def test_tables_text_html_records() -> None:
    r = tournament(
        ["marginal:threshold=10", "marginal:threshold=-40", "marginal:threshold=0"],
        n_games=50,
        seed=1,
    )
    text = str(r)
    assert "3 players" in text and "50 deals" in text and "300 games" in text
    lines = text.splitlines()
    assert lines[3].split()[:2] == ["1", "MarginalCostBot(threshold=10)"]
    html = r._repr_html_()
    assert html.count("<tr>") == 4 and "MarginalCostBot(threshold=-40)" in html
    rec = r.to_records()
    assert [x["rank"] for x in rec] == [1, 2, 3]
    ws = [x["win_share"] for x in rec]
    assert ws == sorted(ws, reverse=True)
    assert sum(ws) == pytest.approx(1.0)  # every game has winners sharing exactly one win
    assert all(x["win_share_low"] <= x["win_share"] <= x["win_share_high"] for x in rec)
    assert all(x["games"] == 300 and x["deals"] == 50 for x in rec)
    assert r.sums.win[0] % 1 == 0 and WIN_UNIT % 7 == 0


def test_to_frame_needs_pandas() -> None:
    r = tournament(["marginal", "marginal:threshold=0", "marginal:threshold=3"], n_games=5, seed=1)
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="to_records"):
            r.to_frame()
    else:
        assert list(r.to_frame()["bot"]) == [x["bot"] for x in r.to_records()]


def test_duplicate_names_are_told_apart() -> None:
    r = tournament([MarginalCostBot(5), MarginalCostBot(5), MarginalCostBot(0)], n_games=5, seed=1)
    assert set(r.names) == {
        "MarginalCostBot(threshold=5) #1",
        "MarginalCostBot(threshold=5) #2",
        "MarginalCostBot(threshold=0)",
    }


def test_seat_means_match_simulate_for_each_seating() -> None:
    policies = [MarginalCostBot(t) for t in (10, 0, 4, -2, 20)]
    r = tournament(policies, n_games=30, seed=12, first_player=1)
    decks = deal_decks(None, seed=12, start=0, count=30)
    win = np.zeros(5)
    score = np.zeros(5)
    for d in range(30):
        for seating in r.seatings_of(d):
            sim = nt.simulate(
                [policies[b] for b in seating], decks=decks[d : d + 1], first_player=1
            )
            win += sim.win_share[0]
            score += sim.scores[0]
    games = 30 * r.seatings_per_deal
    assert np.allclose(r.seat_mean_score, score / games)
    assert np.allclose(r.seat_win_share, win / games)
    assert (r.seat_win_share_ci[:, 0] <= r.seat_win_share).all()


# ------------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"bots": ["nope", "marginal", "marginal"]}, "unknown bot 'nope'"),
        ({"bots": ["marginal:threshold=100", "marginal", "marginal"]}, "threshold"),
        ({"bots": ["marginal"] * 3, "n_players": 2}, "n_players: 2 players"),
        ({"bots": ["marginal"] * 8}, "give n_players"),
        ({"bots": ["marginal"] * 8, "n_players": 8}, "n_players: 8 players"),
        ({"bots": ["marginal"] * 3, "n_games": 0}, "n_games"),
        ({"bots": ["marginal"] * 3, "n_games": 2.5}, "n_games"),
        ({"bots": ["marginal"] * 2, "n_players": 3}, "cannot fill 3 seats"),
        ({"bots": []}, "non-empty"),
        ({"bots": "marginal"}, "non-empty"),
        ({"bots": ["marginal"] * 3, "seed": -1}, "seed"),
        ({"bots": ["marginal"] * 3, "confidence": 1.5}, "confidence"),
        ({"bots": ["marginal"] * 3, "first_player": 3}, "first_player"),
        ({"bots": ["marginal"] * 3, "chunk_size": 0}, "chunk_size"),
        ({"bots": ["marginal"] * 3, "workers": 0}, "workers"),
        ({"bots": ["marginal"] * 4, "n_players": 3, "lineups": [(0, 1, 2)]}, r"bots \[3\]"),
        ({"bots": ["marginal"] * 3, "lineups": [(0, 1, 5)]}, "lineup"),
        ({"bots": ["marginal"] * 3, "lineups": []}, "at least one"),
    ],
)
def test_bad_input_is_named(kwargs: dict[str, Any], match: str) -> None:
    kwargs = {"n_games": 5, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=match):
        tournament(**kwargs)


def test_bad_compare_and_index() -> None:
    r = tournament(["marginal", "marginal:threshold=0", "marginal:threshold=3"], n_games=5, seed=1)
    with pytest.raises(ValueError, match="no bot named"):
        r.compare("x", 0)
    with pytest.raises(ValueError, match="index"):
        r.compare(0, 3)
    with pytest.raises(ValueError, match="metric"):
        r.compare(0, 1, metric="chips")


# ------------------------------------------------------------------------ sweeps and tuning
def test_sweep_uses_common_deals_and_matches_head_to_head() -> None:
    s = sweep("marginal", {"threshold": [-40, 0, 10]}, "marginal:threshold=10", 3, 80, seed=2)
    rec = s.to_records()
    assert [x["threshold"] for x in rec] == [-40, 0, 10]
    # The point equal to the opponents ties them on every deal: exactly 1/P. Nothing measured a
    # spread, so the interval is what 80 deals as single trials allow: around 1/P, never [1/P, 1/P].
    from nothanks_lab.stats import proportion_interval

    assert rec[2]["win_share"] == pytest.approx(1 / 3)
    lo, hi = rec[2]["win_share_low"], rec[2]["win_share_high"]
    assert lo < 1 / 3 < hi and hi - lo > 0.1
    wide = proportion_interval(27, 80)  # about a third of 80 trials
    assert hi - lo == pytest.approx(wide.high - wide.low, rel=0.05)
    assert s.best() == {"threshold": 10}
    assert s.best("mean_score") == {"threshold": 10}
    h = head_to_head("marginal:threshold=0", "marginal:threshold=10", 3, 80, seed=2)
    assert s.results[1].to_records() == h.to_records()
    assert "threshold" in str(s) and "<table" in s._repr_html_()


def test_sweep_grid_with_two_parameters_and_a_callable() -> None:
    def make(threshold: float, bias: float) -> MarginalCostBot:
        return MarginalCostBot(threshold + bias)

    s = sweep(make, {"threshold": [0, 5], "bias": [0, 1]}, [MarginalCostBot(10)] * 2, 3, 10, seed=1)
    assert [(x["threshold"], x["bias"]) for x in s.to_records()] == [(0, 0), (0, 1), (5, 0), (5, 1)]
    assert s.win_share.shape == (4,)


@pytest.mark.parametrize(
    ("grid", "opponents", "match"),
    [
        ({}, "marginal", "grid"),
        ({"threshold": []}, "marginal", "non-empty"),
        ({"threshold": [1]}, ["marginal"] * 3, "exactly 2 opponents"),
        ({"thresold": [1]}, "marginal", "no parameter thresold"),
    ],
)
def test_sweep_bad_input(grid: Any, opponents: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        sweep("marginal", grid, opponents, 3, 5, seed=1)


def test_tune_stays_in_budget_and_reports_its_best_honestly() -> None:
    t = tune(
        "marginal",
        {"threshold": (-20, 20)},
        "marginal:threshold=0",
        3,
        60,
        seed=3,
        max_evals=10,
        progress=False,
    )
    assert 1 <= len(t.history) <= 10
    # threshold is declared a float: int bounds still search floats.
    assert all(-20 <= h["threshold"] <= 20 and isinstance(h["threshold"], float) for h in t.history)
    best_ws = max(h["win_share"] for h in t.history)
    assert t.best.win_share[0] == best_ws
    # Common random numbers: the best point re-evaluated on the same deals gives the same table.
    again = head_to_head(
        MarginalCostBot(t.best_params["threshold"]), "marginal:threshold=0", 3, 60, seed=3
    )
    assert again.to_records() == t.best.to_records()
    assert t.validation is not None and t.validation.seed != t.best.seed
    # It beats the opponents' own setting, which scores exactly 1/3 against them.
    assert best_ws > 1 / 3
    assert "Tuned" in str(t)
    assert t._repr_html_().count("<table") == 2


def test_cross_products_stay_exact_beyond_int64() -> None:
    from nothanks_lab.tournaments.run import _cross_products

    x = np.array([[3_000_000_000, -1], [3_000_000_000, 2]], dtype=np.int64)
    assert _cross_products(x) == [[2 * 9 * 10**18, 3_000_000_000], [3_000_000_000, 5]]
    small = np.array([[1, 2], [3, 4]], dtype=np.int64)
    assert _cross_products(small) == [[10, 14], [14, 20]]


def test_tune_several_parameters_and_bad_input() -> None:
    def make(threshold: float, shift: float) -> MarginalCostBot:
        return MarginalCostBot(threshold + shift)

    t = tune(
        make,
        {"threshold": (-5, 15), "shift": (-2.0, 2.0)},
        "marginal:threshold=10",
        3,
        20,
        seed=1,
        max_evals=12,
        validate=False,
        progress=False,
    )
    assert t.method == "differential-evolution" and len(t.history) <= 12
    assert t.validation is None
    with pytest.raises(ValueError, match="bounds"):
        tune("marginal", {"threshold": (5, 5)}, "marginal", 3, 5, seed=1)
    with pytest.raises(ValueError, match="method"):
        tune("marginal", {"threshold": (0, 5)}, "marginal", 3, 5, seed=1, method="newton")
    with pytest.raises(ValueError, match="one parameter"):
        tune(
            make, {"threshold": (0, 5), "shift": (0, 1)}, "marginal", 3, 5, seed=1, method="bounded"
        )
    with pytest.raises(ValueError, match="metric"):
        tune("marginal", {"threshold": (0, 5)}, "marginal", 3, 5, seed=1, metric="chips")
    assert math.isfinite(t.best.win_share[0])


@pytest.mark.slow
def test_unseeded_random_bot_same_seed_same_numbers_whatever_the_split() -> None:
    """Issue 24: an unseeded RandomBot drew its key when built, so two runs differed."""
    field = ["linear", "marginal:threshold=7", "random:p_take=0.15"]
    runs = [
        tournament(field, 3, 60, seed=5, workers=1),
        tournament(field, 3, 60, seed=5, workers=2, chunk_size=7),
        tournament(list(field), 3, 60, seed=5, chunk_size=23),
    ]
    assert runs[0].to_records() == runs[1].to_records() == runs[2].to_records()
    assert tournament(field, 3, 60, seed=6).to_records() != runs[0].to_records()
    # The same bot object, unseeded, gets the run's seed for its place; the caller's is untouched.
    bot = RandomBot(p_take=0.3)
    key = bot.key
    a = tournament([bot, "marginal", "marginal:threshold=0"], 3, 40, seed=9)
    b = tournament([RandomBot(p_take=0.3), "marginal", "marginal:threshold=0"], 3, 40, seed=9)
    assert a.to_records() == b.to_records() and bot.key == key and bot.seed is None
    own = int(np.random.SeedSequence(9, spawn_key=(0,)).generate_state(1)[0])
    assert a.names[0] == f"RandomBot(p_take=0.3, seed={own})"
    seeded = tournament(
        [RandomBot(p_take=0.3, seed=own), "marginal", "marginal:threshold=0"], 3, 40, seed=9
    )  # the printed seed rebuilds the bot
    assert seeded.to_records() == a.to_records()


# ------------------------------------------------------------------ seed by keyword only
def test_seed_is_keyword_only_and_positional_use_warns_for_one_release() -> None:
    import inspect

    for fn in (nt.head_to_head, nt.sweep, nt.tune):
        kind = inspect.signature(fn).parameters["seed"].kind
        assert kind is inspect.Parameter.KEYWORD_ONLY, fn.__name__
    kw: dict[str, Any] = {"workers": 1, "progress": False}
    new = nt.head_to_head("marginal:threshold=5", "marginal", 3, 12, seed=3, **kw)
    with pytest.warns(DeprecationWarning, match=r"head_to_head: give seed by keyword"):
        old = nt.head_to_head("marginal:threshold=5", "marginal", 3, 12, 3, **kw)
    assert old.game_records() == new.game_records() and old.seed == new.seed == 3
    grid = {"threshold": [0, 5]}
    new_s = nt.sweep("marginal", grid, "marginal", 3, 12, seed=4, **kw)
    with pytest.warns(DeprecationWarning, match=r"sweep: give seed, executor by keyword"):
        old_s = nt.sweep("marginal", grid, "marginal", 3, 12, 4, None, **kw)
    assert old_s.to_records() == new_s.to_records()
    with pytest.raises(TypeError, match="twice"):
        nt.head_to_head("marginal", "marginal", 3, 12, 3, seed=3, **kw)
    with pytest.raises(TypeError, match="too many positional"):
        nt.head_to_head("marginal", "marginal", 3, 12, 3, 4, **kw)
