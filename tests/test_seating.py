"""Fair seating: balanced blocks of seatings, a random block per deal, no seat-order bias.

The identical-bots checks are the ones an analyst relies on: two copies of one bot in a mixed
field must differ only by noise (their paired interval covers 0 about 95% of the time), and
permuting the field list must change no bot's result beyond noise.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from file_import import import_file
from scipy import stats

import nothanks_lab as nt
from nothanks_lab.seating import balanced_design, deal_cosets, lineup_blocks
from nothanks_lab.tournaments import tournament


@pytest.mark.parametrize("p", [2, 3, 4, 5, 6, 7])
def test_every_block_balances_seats_and_neighbours(p: int) -> None:
    design = balanced_design(p)
    assert len(design.group) * design.n_cosets == math.factorial(p)
    # The cosets partition every order of the seats.
    every = [perm for coset in design.cosets for perm in coset]
    assert sorted(every) == sorted(itertools.permutations(range(p)))
    for coset in design.cosets[:12]:
        seats = Counter((perm[j], j) for perm in coset for j in range(p))
        assert len(seats) == p * p and len(set(seats.values())) == 1
        after = Counter((perm[j], perm[(j + 1) % p]) for perm in coset for j in range(p))
        assert len(after) == p * (p - 1) and len(set(after.values())) == 1


def test_small_tables_play_every_order() -> None:
    assert [balanced_design(p).n_cosets for p in (2, 3, 4)] == [1, 1, 1]
    assert [balanced_design(p).block_size for p in (5, 6, 7)] == [20, 60, 42]


def test_copies_of_one_bot_merge_to_rotations() -> None:
    for p in (3, 5, 7):
        for block in lineup_blocks((0, *([1] * (p - 1)))):
            assert sorted(block) == sorted(
                tuple(0 if s == j else 1 for s in range(p)) for j in range(p)
            )


def test_each_deal_draws_its_block_from_the_seed_and_its_index_alone() -> None:
    key = np.array([3, 4], dtype=np.uint64)
    whole = deal_cosets(key, 0, 0, 10_000, 120)
    assert (deal_cosets(key, 0, 4_000, 100, 120) == whole[4_000:4_100]).all()
    assert not (deal_cosets(key, 1, 0, 10_000, 120) == whole).all()  # lineups differ
    counts = np.bincount(whole, minlength=120)
    assert stats.chisquare(counts).pvalue > 1e-4  # uniform over blocks


@pytest.mark.parametrize("p", [3, 4])
def test_small_tables_give_copies_of_a_bot_exactly_the_same_result(p: int) -> None:
    field = ["heuristic", "heuristic", "marginal", "linear"][:p]
    r = tournament(field, p, 400, seed=11, progress=False)
    assert r.win_share[0] == r.win_share[1] and r.mean_score[0] == r.mean_score[1]
    c = r.compare(0, 1)
    # Every deal's difference is exactly 0; a win-share interval still has width (the share
    # rule: nothing measured a spread), symmetric and small at 400 deals.
    assert c.diff == 0.0 and c.low == -c.high and 0 < c.high < 0.02
    s = r.compare(0, 1, metric="mean_score")
    assert (s.diff, s.low, s.high) == (0.0, 0.0, 0.0)  # scores keep the plain t interval


def test_permuting_the_field_changes_nothing_at_small_tables() -> None:
    field = ["heuristic", "marginal:threshold=10", "marginal:threshold=0", "linear"]
    base = tournament(field, 4, 300, seed=2, progress=False)
    for order in ([3, 1, 0, 2], [2, 3, 1, 0]):
        r = tournament([field[i] for i in order], 4, 300, seed=2, progress=False)
        assert np.allclose(r.win_share, base.win_share[order], rtol=0, atol=1e-12)


def _bench_seating() -> ModuleType:
    """benchmarks/bench_seating.py, imported by path (benchmarks/ is not a package)."""
    return import_file(
        Path(__file__).resolve().parents[1] / "benchmarks" / "bench_seating.py",
        "nothanks_bench_seating",
    )


@pytest.mark.slow
@pytest.mark.parametrize("p", [5, 6, 7])
def test_copies_of_a_bot_differ_only_by_noise(p: int) -> None:
    """Over many seeds the paired 95% interval of two copies covers 0 about 95% of the time.

    (With rotations alone it missed 0 in 60 of 60 seeds at 3 players and 30 of 30 at 5.)
    """
    field = _bench_seating().FIELDS[p]  # the field benchmarks/bench_seating.py measures
    n_seeds, deals = {5: (40, 200), 6: (16, 60), 7: (16, 60)}[p]
    covered = 0
    z = []
    for seed in range(n_seeds):
        c = tournament(field, p, deals, seed=1000 + seed, progress=False).compare(0, 1)
        covered += c.low <= 0 <= c.high
        z.append(c.diff / ((c.high - c.low) / 2 / 1.96))
    # P(covered < this | coverage 95%) is below 1e-3.
    need = {40: 33, 16: 12}[n_seeds]
    assert covered >= need, (covered, n_seeds)
    assert abs(np.mean(z)) < 4 / math.sqrt(n_seeds)  # no systematic lean to one copy


@pytest.mark.slow
def test_permuting_the_field_changes_results_only_by_noise_at_five() -> None:
    field = ["heuristic", "marginal:threshold=10", "marginal:threshold=0", "linear", "random"]
    n = 400
    a = tournament(field, 5, n, seed=5, progress=False)
    order = [4, 2, 0, 3, 1]
    b = tournament([field[i] for i in order], 5, n, seed=5, progress=False)
    for i, j in enumerate(order):
        se = ((a.win_share_ci[j, 1] - a.win_share_ci[j, 0]) / 3.92) ** 2
        se += ((b.win_share_ci[i, 1] - b.win_share_ci[i, 0]) / 3.92) ** 2
        assert abs(a.win_share[j] - b.win_share[i]) < 4.5 * math.sqrt(se) + 1e-12


def test_seat_position_summary_has_intervals() -> None:
    r = tournament(["marginal:threshold=10"] * 3, 3, 500, seed=3, progress=False)
    assert r.seat_win_share.shape == (3,) and r.seat_win_share_ci.shape == (3, 2)
    assert r.seat_win_share.sum() == pytest.approx(1.0)
    assert (r.seat_win_share_ci[:, 0] <= r.seat_win_share).all()
    assert (r.seat_mean_score <= r.seat_score_ci[:, 1]).all()


def test_records_replay_every_kind_of_game() -> None:
    field = [
        "marginal:threshold=10",
        "random:seed=3",
        "heuristic",
        "marginal:threshold=0",
        "linear",
    ]
    r = tournament(field, 5, 12, seed=7, chunk_size=5, progress=False)
    recs = r.game_records()
    assert len(recs) == r.n_games * 5
    by_game: dict[int, list[int]] = {}
    for rec in recs:
        by_game.setdefault(rec["game"], []).append(rec["score"])
        assert rec["score"] == rec["card_points"] - rec["chips"]
    rng = np.random.default_rng(0)
    for i in rng.choice(r.n_games, 25, replace=False):
        assert list(r.replay(int(i)).scores()) == by_game[int(i)]
    # The records add up to the table's numbers.
    ws = np.zeros(5)
    for rec in recs:
        ws[rec["bot_index"]] += rec["win_share"]
    assert np.allclose(ws / r.games, r.win_share)
    with pytest.raises(ValueError, match="game index"):
        r.replay(r.n_games)
    assert isinstance(r.replay(0), nt.Game)


def test_balanced_design_checks_before_its_cache() -> None:
    # A numpy count is a count; True is not, even once the design for 1 seat is cached.
    assert balanced_design(np.int64(3)) == balanced_design(3)
    balanced_design(1)
    for bad in (True, 3.0, "3", 0):
        with pytest.raises(ValueError, match="n_players"):
            balanced_design(bad)  # type: ignore[arg-type]
