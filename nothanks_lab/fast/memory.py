"""The memory of kept results: one large block per result, and the last dropped block reused.

`simulate` keeps every game's arrays (173 bytes a game at five seats, so 173 MB for a million
games), carved from one block (:func:`nothanks_lab.simulation._result_arrays`). Measured on
the project's machines (KVM guests whose freed memory is handed back to the host within a
second or two), first writes to fresh memory cost about 0.3-0.45 CPU s of system time per
173 MB, a third of a million-game `simulate` and the whole gap to the C reference, which keeps
nothing. `result_block` therefore lends blocks of its own (anonymous memory maps, huge pages
asked for) and, when the last array viewing a block is gone, keeps that one block as a spare
for the next result of a size it fits (not more than twice what that result needs). A block is
lent to one result at a time: it comes back only once nothing refers to any of its arrays, so
a result still held is never written over. At most one spare is kept (the most recently
freed), so a process holds at most one dropped result's memory; `release_spare` gives it back
to the system. Every field of a result is written in full before the result is returned, so a
reused block's old contents never show.
"""

from __future__ import annotations

import ctypes
import mmap
import weakref
from typing import Any

import numpy as np

__all__ = ["MIN_POOLED", "release_spare", "result_block"]

#: Blocks smaller than this come from numpy's allocator as usual (malloc recycles them itself).
MIN_POOLED = 4 * 2**20

# Private memory: Python's anonymous maps are shared by default, so a process forked from this
# one (a worker pool) would write into the very pages of this process's blocks and spare.
_PRIVATE = (
    {"flags": mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS} if hasattr(mmap, "MAP_ANONYMOUS") else {}
)

# The spare: at most one (memory map, its pinned first byte) pair. List append and pop are
# atomic under the GIL, and a block comes back from a finalizer that may run on any thread
# (or inside this module, when a refcount drops), so no lock that could be held then is used.
_spare: list[tuple[mmap.mmap, ctypes.c_char]] = []


class _Lease:
    """Exposes a block to numpy (``__array_interface__``); each lent array's views refer to
    it, so it lives exactly as long as some array of the result does."""

    def __init__(self, entry: tuple[mmap.mmap, ctypes.c_char]) -> None:
        mem, first = entry
        self.__array_interface__: dict[str, Any] = {
            "data": (ctypes.addressof(first), False),
            "shape": (len(mem),),
            "typestr": "|u1",
            "version": 3,
        }


def _give_back(entry: tuple[mmap.mmap, ctypes.c_char]) -> None:
    """Keep `entry` as the spare, dropping (unmapping) any older one."""
    _spare.append(entry)
    del _spare[:-1]


def release_spare() -> None:
    """Return the spare block, if any, to the system."""
    _spare.clear()


def result_block(nbytes: int) -> np.ndarray:
    """A writable uint8[nbytes] array, its contents undefined (like ``np.empty``).

    From the spare block when it fits (at least `nbytes`, at most twice that), else fresh;
    under `MIN_POOLED` bytes, plain ``np.empty``.
    """
    if nbytes < MIN_POOLED:
        return np.empty(nbytes, dtype=np.uint8)
    entry = None
    try:
        got = _spare.pop()
    except IndexError:
        got = None
    if got is not None:
        if nbytes <= len(got[0]) <= 2 * nbytes:
            entry = got
        else:
            _spare.append(got)  # another size: left for a later result
            del _spare[:-1]
    if entry is None:
        mem = mmap.mmap(-1, nbytes, **_PRIVATE)
        if hasattr(mmap, "MADV_HUGEPAGE"):  # fewer page faults (Linux)
            mem.madvise(mmap.MADV_HUGEPAGE)
        entry = (mem, ctypes.c_char.from_buffer(mem))  # pins the map while it is lent
    lease = _Lease(entry)
    weakref.finalize(lease, _give_back, entry).atexit = False
    return np.asarray(lease)[:nbytes]
