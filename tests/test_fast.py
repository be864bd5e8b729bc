"""Tests of the compiled fast path's machinery: `jit_pure`, the kernel modules and their cache.

`test_simulation.py` proves the kernel plays the same rounds as the engine for the package's
bots; here: the compiled pure functions equal their Python selves, a bot class defined outside
the package gets a fast path just by defining ``FAST_DECIDE`` and ``fast_params``, a changed
decision function gets a freshly compiled kernel (never a stale cached one), and the kernel
finishes rounds from the middle as the engine does.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from file_import import import_file

import nothanks_lab as nt
from nothanks_lab import core, fast
from nothanks_lab.bots import MarginalCostBot
from nothanks_lab.bots.simple import marginal_decide
from nothanks_lab.deals import deal_decks


def test_jit_pure_equals_python():
    rng = np.random.default_rng(0)
    masks = rng.integers(0, 2**36, size=300) & ~np.int64(7)  # cards 3..35
    cp = fast.jit_pure(core.card_points_mask)
    mp = fast.jit_pure(core.marginal_points)
    for m in masks:
        assert (
            cp(m)
            == core.card_points_mask(int(m))
            == nt.card_points([c for c in range(3, 36) if (int(m) >> c) & 1])
        )
        for card in range(3, 36):
            if not (int(m) >> card) & 1:
                assert mp(m, card) == core.marginal_points(int(m), card)
    # A function calling another module's function gets the compiled callee.
    decide = fast.jit_pure(marginal_decide)
    hands = np.array([0, 1 << 20 | 1 << 22], dtype=np.int64)
    chips = np.array([3, 4], dtype=np.int64)
    for t in (-2.0, 0.0, 5.0):
        for card, pot in ((21, 0), (5, 2), (23, 1), (19, 0)):
            args = (np.array([t]), card, pot, 1, hands, chips, 10)
            assert decide(*args) == marginal_decide(*args)


def test_jit_pure_memo_cache_rule_and_errors():
    assert fast.jit_pure(core.step) is fast.jit_pure(core.step)
    d = fast.jit_pure(core.step)
    assert fast.jit_pure(d) is d
    # Cached on disk only when everything it reaches is in its own file (numba's cache would
    # not see a change elsewhere): core.step yes, marginal_decide (calls core) no.
    assert type(d._cache).__name__ != "NullCache"
    assert type(fast.jit_pure(marginal_decide)._cache).__name__ == "NullCache"
    with pytest.raises(ValueError, match="plain Python function"):
        fast.jit_pure(len)


def test_has_fast_path():
    assert fast.has_fast_path(MarginalCostBot())
    assert fast.has_fast_path(nt.bots.RandomBot(seed=1))
    assert not fast.has_fast_path(nt.bots.SearchBot(seed=1))
    assert fast.fast_table([MarginalCostBot(), nt.bots.SearchBot(seed=1)]) is None
    table = fast.fast_table([MarginalCostBot(3), MarginalCostBot(7)] * 2)
    assert table is not None
    np.testing.assert_array_equal(table.params[:, 0], [3, 7, 3, 7])
    assert (table.kinds == table.kinds[0]).all()


_BOT_SOURCE = '''
import numpy as np
from nothanks_lab import Action
from nothanks_lab.bots.base import decision_args


def pot_decide(params, card, pot, seat, hands, chips, cards_left):
    """Take once the pot pays for the card's face value scaled by params[0]."""
    return pot * {factor} >= card * params[0]


class PotBot:
    FAST_DECIDE = staticmethod(pot_decide)

    def __init__(self, share):
        self.share = share
        self.name = f"PotBot({{share}})"

    def fast_params(self):
        return np.array([self.share])

    def act(self, view):
        if not view.can_pass:
            return Action.TAKE
        take = pot_decide(self.fast_params(), *decision_args(view))
        return Action.TAKE if take else Action.PASS
'''


def _load(path: Path, name: str, factor: int):
    path.write_text(_BOT_SOURCE.format(factor=factor))
    return import_file(path, name)


@pytest.mark.slow
def test_outside_bot_class_gets_a_fresh_kernel_when_it_changes(tmp_path, monkeypatch):
    """A class defined anywhere has a fast path; editing its rule never reuses a stale kernel."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("NOTHANKS_LAB_CACHE", str(cache))
    decks = deal_decks(nt.Rules(), seed=31, start=0, count=60)
    results, files = [], []
    for version, factor in enumerate((1, 3)):
        mod = _load(tmp_path / "potbot.py", f"potbot_v{version}", factor)
        bots = [mod.PotBot(0.2), MarginalCostBot(9), mod.PotBot(0.1), mod.PotBot(0.3)]
        table = fast.fast_table(bots)
        assert table is not None and sorted(set(table.kinds)) == [0, 1]
        files.append(Path(table.module.__file__))
        res = nt.simulate(bots, decks=decks, first_player=2, fast=True)
        slow = [nt.play_game(bots, deck=d, first_player=2) for d in decks]
        np.testing.assert_array_equal(res.scores, [r.scores for r in slow])
        np.testing.assert_array_equal(res.n_decisions, [len(r.history) for r in slow])
        results.append(res.scores)
    assert files[0] != files[1] and all(f.parent == cache for f in files)
    assert "Dependency hash" in files[1].read_text()
    assert (results[0] != results[1]).any(), "the edit should change some rounds"


def test_kernel_finishes_rounds_from_the_middle():
    """With deal=False the kernel continues whatever position each row holds."""
    rng = np.random.default_rng(5)
    bots = [MarginalCostBot(t) for t in (4, 10, 16, 1)]
    table = fast.fast_table(bots)
    decks = deal_decks(nt.Rules(), seed=8, start=0, count=40)
    games, expected = [], []
    for d in decks:
        g = nt.Game(4, deck=d, first_player=1)
        for _ in range(int(rng.integers(0, 40))):
            if g.is_over:
                break
            legal = g.legal_actions()
            g.step(legal[int(rng.integers(len(legal)))])
        games.append(g)
        rest = g.copy()
        moves = 0
        while not rest.is_over:
            view = rest.view(rest.current_player)
            rest.step(bots[rest.current_player].act(view))
            moves += 1
        expected.append((rest.scores(), moves))
    s = core.State(*(np.concatenate([g._state[i] for g in games]) for i in range(6)))
    points = np.empty((len(games), 4), dtype=np.int64)
    moves = np.empty(len(games), dtype=np.int64)
    zero = np.uint64(0)
    table.module.play_chunk(
        s, table.kinds, table.params, False, zero, zero, np.int64(0), np.int64(3),
        np.int64(33), points, moves,
    )  # fmt: skip
    np.testing.assert_array_equal(points - s.chips, [e[0] for e in expected])
    np.testing.assert_array_equal(moves, [e[1] for e in expected])


class AlwaysTakes(MarginalCostBot):
    """Inherits FAST_DECIDE but decides otherwise: must not run on the fast path."""

    def act(self, view):
        return nt.Action.TAKE


class Cautious(MarginalCostBot):
    """Only a different default: still the marginal rule, so still fast."""

    def __init__(self, threshold: float = 2, **params):
        super().__init__(threshold=threshold, **params)


def test_subclass_overriding_act_loses_the_fast_path():
    assert not fast.has_fast_path(AlwaysTakes())
    assert fast.has_fast_path(Cautious())
    decks = deal_decks(nt.Rules(), seed=2, start=0, count=20)
    res = nt.simulate([AlwaysTakes(), Cautious(), MarginalCostBot()], decks=decks)
    # Seat 0 takes every card it is shown; the engine agrees game by game.
    slow = [nt.play_game([AlwaysTakes(), Cautious(), MarginalCostBot()], deck=d) for d in decks]
    np.testing.assert_array_equal(res.scores, [r.scores for r in slow])
    assert (res.chips[:, 0] >= 11).all()


def test_threads_share_kernels_and_agree():
    """Threaded workers (as in a Dask cluster) build and run kernels side by side."""
    from concurrent.futures import ThreadPoolExecutor

    bots = [MarginalCostBot(6), nt.bots.HeuristicBot(), MarginalCostBot(12)]
    whole = nt.simulate(bots, 4000, seed=44)
    with ThreadPoolExecutor(max_workers=4) as pool:
        parts = list(
            pool.map(
                lambda lo: nt.simulate(bots, 1000, seed=44, game_offset=lo), range(0, 4000, 1000)
            )
        )
    np.testing.assert_array_equal(nt.SimResult.concat(parts).scores, whole.scores)


@pytest.mark.slow
def test_kernel_runs_without_reference_counting_unless_a_kind_allocates(tmp_path, monkeypatch):
    """The hot loop is compiled without numba's reference counting; a decision function that
    allocates arrays cannot be, so its kinds fall back to a counting kernel that agrees too."""
    d = fast.jit_pure(core.step, nrt=False)
    assert d is fast.jit_pure(core.step, nrt=False) and d is not fast.jit_pure(core.step)
    assert type(d._cache).__name__ == "NullCache"  # numba's cache index ignores the flag
    assert fast.fast_table([MarginalCostBot()] * 3).module.NRT is False

    monkeypatch.setenv("NOTHANKS_LAB_CACHE", str(tmp_path / "cache"))
    source = _BOT_SOURCE.format(factor=2).replace(
        "return pot *", "scratch = np.zeros(2)\n    return scratch.sum() + pot *"
    )
    path = tmp_path / "allocbot.py"
    path.write_text(source)
    module = import_file(path, "allocbot")
    bots = [module.PotBot(0.2), MarginalCostBot(8), module.PotBot(0.4)]
    table = fast.fast_table(bots)
    assert table is not None and table.module.NRT is True
    decks = deal_decks(nt.Rules(), seed=17, start=0, count=40)
    res = nt.simulate(bots, decks=decks, fast=True)
    slow = [nt.play_game(bots, deck=d) for d in decks]
    np.testing.assert_array_equal(res.scores, [r.scores for r in slow])


def test_numba_still_has_the_private_nrt_option():
    """The kernel relies on numba's private ``_nrt=False`` (twice the games per second, measured
    in `fast.kernel_module`'s docstring). If a numba release drops the option or it stops
    removing reference counting, this fails loudly: re-measure, then drop or adapt it."""
    import numba

    def head(row):
        return row[0]

    counts = {}
    for nrt in (True, False):
        try:
            inner = numba.njit(_nrt=nrt)(head)
        except KeyError as e:  # numba: "Unrecognized options: {'_nrt'} ..."
            pytest.fail(f"numba {numba.__version__} no longer accepts _nrt: {e}")

        def total(a, inner=inner):
            t = 0
            for i in range(a.shape[0]):
                t += inner(a[i])  # a row view passed to a call: counted under NRT
            return t

        outer = numba.njit(_nrt=nrt)(total)
        assert outer(np.arange(6, dtype=np.int64).reshape(3, 2)) == 6
        llvm = "\n".join(outer.inspect_llvm().values())
        counts[nrt] = llvm.count("NRT_incref") + llvm.count("NRT_decref")
    assert counts[True] > 0, "the probe no longer exercises reference counting"
    assert counts[False] == 0, f"numba {numba.__version__}: _nrt=False still counts references"


def _soak_module():
    """benchmarks/soak.py, imported by path (benchmarks/ is not a package)."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "soak.py"
    return import_file(path, "nothanks_soak")


@pytest.mark.slow
def test_soak_checks_20000_random_rounds_clean():
    """The soak run's checks over random variants and random compiled bots: no violation."""
    soak = _soak_module()
    tally = soak.soak(20_000, seed=11, max_batch=2_500, chunk_size=1_000)
    assert tally.rounds == 20_000 and tally.batches >= 5
    assert tally.violations == 0, (dict(tally.failed), tally.examples)
    assert tally.replayed >= 2 * tally.batches - 2  # a batch of one round replays one


def test_soak_checks_catch_a_broken_round():
    """Each check fails on the round it is about (so a clean soak means something)."""
    soak = _soak_module()
    rules = nt.Rules(low_card=2, high_card=20, n_removed=4, chips=((3, 5), (4, 6)))
    bots = [MarginalCostBot(3), nt.bots.HeuristicBot(), MarginalCostBot(12), MarginalCostBot(0)]
    decks = deal_decks(rules, seed=5, start=0, count=50)
    table = fast.fast_table(bots, rules)
    hands = np.empty((50, 4), dtype=np.int64)
    out = table.play(rules, 6, 1, decks=decks, key=None, start=0, count=50, hands=hands)
    result = nt.simulate(bots, rules=rules, decks=decks, first_player=1)
    assert not any(v.any() for v in soak.check_rounds(rules, decks, result, hands, out).values())

    def broken(**changes):
        arrays = {f: getattr(result, f).copy() for f in ("scores", "card_points", "chips")}
        for f, (g, seat, delta) in changes.items():
            arrays[f][g, seat] += delta
        return nt.SimResult(
            **arrays, winners=result.winners, win_share=result.win_share,
            n_decisions=result.n_decisions,
        )  # fmt: skip

    chips_moved = broken(chips=(7, 0, 1), scores=(7, 0, -1))
    failed = soak.check_rounds(rules, decks, chips_moved, hands, out)
    assert np.flatnonzero(failed["chips conserved"]).tolist() == [7]
    points_off = broken(card_points=(3, 2, 1), scores=(3, 2, 1))
    failed = soak.check_rounds(rules, decks, points_off, hands, out)
    assert np.flatnonzero(failed["card points of hands"]).tolist() == [3]
    assert np.flatnonzero(failed["two runs agree"]).tolist() == [3]
    failed = soak.check_rounds(rules, decks, broken(scores=(9, 1, 2)), hands, out)
    assert np.flatnonzero(failed["score = points - chips"]).tolist() == [9]
    lost = hands.copy()
    seat = int(np.argmax(hands[4]))  # one that took a card
    lost[4, seat] &= lost[4, seat] - 1  # its lowest card vanishes
    twice = hands.copy()
    seat = int(np.argmax(hands[5]))
    twice[5, seat - 1] |= hands[5, seat] & -hands[5, seat]  # its lowest card held twice
    failed = soak.check_rounds(rules, decks, result, lost, out)
    assert failed["hands are the deck"][4] and failed["hands disjoint"][4]
    failed = soak.check_rounds(rules, decks, result, twice, out)
    assert np.flatnonzero(failed["hands disjoint"]).tolist() == [5]


def test_play_out_finishes_positions_on_the_simulator_s_kernel() -> None:
    """`play_out` (the one compiled playout loop of rollouts) from fresh rounds gives exactly
    `simulate`'s card points and chips on the same decks, and uses the same kernel module."""
    from nothanks_lab.bots import HeuristicBot, LinearBot
    from nothanks_lab.bots.heuristic import heuristic_decide
    from nothanks_lab.bots.linear import linear_decide

    bots = [LinearBot(), HeuristicBot(), HeuristicBot(milk=False), LinearBot(w_pot=1.0)]
    decks = deal_decks(nt.Rules(), seed=21, start=0, count=300)
    want = nt.simulate(bots, decks=decks, first_player=1, fast=True)
    table = fast.fast_table(bots)
    s = core.new_state(decks, 4, 11, 1)
    decides = [linear_decide, heuristic_decide, heuristic_decide, linear_decide]
    points = fast.finish_rounds(s, decides, table.params)
    np.testing.assert_array_equal(points, want.card_points)
    np.testing.assert_array_equal(s.chips, want.chips)
    assert fast.kernel_module(sorted(set(decides), key=fast.kind_key)) is table.module
    with pytest.raises(ValueError, match="one row per seat"):
        fast.finish_rounds(core.new_state(decks, 4, 11, 1), decides, table.params[:3])
