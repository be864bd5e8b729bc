"""Tests of `fast.memory`: a kept result's block is reused only once nothing refers to it.

`simulate` carves a large result from one block lent by `result_block`, and the last dropped
block is kept as a spare for the next result. The laws: a result (or any one of its arrays)
still held is never written over; a reused block gives exactly the numbers a fresh one gives,
its old contents never showing; the spare is used only for a size it fits.
"""

from __future__ import annotations

import gc
import os

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab.bots import MarginalCostBot
from nothanks_lab.fast import memory
from nothanks_lab.simulation import _ARRAYS, simulate_chunks

BOTS = [MarginalCostBot(t) for t in (0, 4, 8, 12, 16)]
N = 30_000  # 5.2 MB of results at five seats: above memory.MIN_POOLED, so pooled


def _address(r: nt.SimResult) -> int:
    return int(r.scores.__array_interface__["data"][0])


def _chunked(seed: int) -> nt.SimResult:
    """The same run, chunk by chunk: every chunk in memory of its own, never pooled."""
    return nt.SimResult.concat(list(simulate_chunks(BOTS, N, seed=seed)))


@pytest.fixture(autouse=True)
def _no_spare():
    gc.collect()  # blocks of results another test left behind come back now
    memory.release_spare()
    yield
    memory.release_spare()


def test_a_held_result_is_never_written_over() -> None:
    first = nt.simulate(BOTS, N, seed=1)
    kept = {f: getattr(first, f).copy() for f in _ARRAYS}
    second = nt.simulate(BOTS, N, seed=2)
    assert not np.shares_memory(first.scores, second.scores)
    for f in _ARRAYS:
        np.testing.assert_array_equal(getattr(first, f), kept[f])


def test_one_array_kept_keeps_the_whole_block() -> None:
    r = nt.simulate(BOTS, N, seed=1)
    winners = r.winners  # the last field of the block: keeps it lent
    kept = winners.copy()
    address = _address(r)
    del r
    gc.collect()
    again = nt.simulate(BOTS, N, seed=2)
    assert _address(again) != address
    np.testing.assert_array_equal(winners, kept)


def test_a_dropped_block_is_reused_and_its_old_numbers_never_show() -> None:
    r = nt.simulate(BOTS, N, seed=1)
    address = _address(r)
    del r
    reused = nt.simulate(BOTS, N, seed=2)
    assert _address(reused) == address  # the spare was taken
    expected = _chunked(2)
    for f in _ARRAYS:
        np.testing.assert_array_equal(getattr(reused, f), getattr(expected, f))
    # Every field written in full: the same run on a block full of other numbers agrees.
    del reused
    r = nt.simulate(BOTS, N, seed=3)
    address = _address(r)
    for f in _ARRAYS:
        getattr(r, f)[...] = 7
    del r
    again = nt.simulate(BOTS, N, seed=2)
    assert _address(again) == address
    for f in _ARRAYS:
        np.testing.assert_array_equal(getattr(again, f), getattr(expected, f))


def test_the_spare_serves_only_a_size_it_fits() -> None:
    small = memory.MIN_POOLED - 1
    assert memory.result_block(small).flags.owndata  # plain numpy memory below the floor
    big = memory.result_block(3 * memory.MIN_POOLED)
    address = big.__array_interface__["data"][0]
    assert big.shape == (3 * memory.MIN_POOLED,) and big.flags.writeable
    del big
    too_small = memory.result_block(memory.MIN_POOLED)  # 3x bigger spare: not used
    assert too_small.__array_interface__["data"][0] != address
    fits = memory.result_block(2 * memory.MIN_POOLED)  # within 2x: used, cut to size
    assert fits.__array_interface__["data"][0] == address
    assert fits.shape == (2 * memory.MIN_POOLED,)
    del fits, too_small
    memory.release_spare()
    assert memory._spare == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_process_writes_into_copies_of_the_blocks() -> None:
    """A worker forked from this process (a pool's) must not share this process's blocks:
    two workers taking the same inherited spare would write into each other's games."""
    block = memory.result_block(memory.MIN_POOLED)
    block[...] = 1
    pid = os.fork()
    if pid == 0:  # the child: writes its copy, then leaves at once
        block[...] = 2
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert (block == 1).all()
