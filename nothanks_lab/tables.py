"""Plain-Python tables of one round's `core.State`: what the one-game engine plays on.

`core`'s transitions index a state as ``a[g]`` and ``a[g, p]``; numpy answers each scalar
access about 10x slower than a dict or a list, so `nothanks_lab.engine.Game` runs those same
functions on a batch of one made of these tables (1-D fields are one-item lists).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from . import core

__all__ = ["KEYS", "ROWS", "Table", "array_state", "cards_of", "table", "table_state"]


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a bit-mask hand, ascending (only when a position is set up)."""
    return tuple(c for c in range(mask.bit_length()) if (mask >> c) & 1)


class Table(dict[tuple[int, int], int]):
    """One round's row of a 2-D `core.State` field: ``t[0, p]`` at dict speed, and ``shape``.

    `core`'s functions index a state as ``a[g]`` and ``a[g, p]``; numpy answers each scalar
    access ~10x slower than a dict or a list, so the engine runs those same functions on a
    batch of one made of plain tables (1-D fields are one-item lists).
    """

    shape: tuple[int, int]

    def copy(self) -> Table:
        new = Table(self)
        new.shape = self.shape
        return new


#: The keys ``(0, p)`` of a table row of each width, and a getter of the row as a tuple.
KEYS: dict[int, tuple[tuple[int, int], ...]] = {}
ROWS: dict[int, Callable[[Any], tuple[int, ...]]] = {}


def table(row: list[int]) -> Table:
    """A table of one round's row (a list of plain ints)."""
    n = len(row)
    keys = KEYS.get(n)
    if keys is None:
        keys = KEYS[n] = tuple((0, i) for i in range(n))
        # One row as a tuple, in one call (a state's rows have n >= 2: itemgetter's tuple).
        ROWS[n] = operator.itemgetter(*keys)
    t = Table(zip(keys, row, strict=True))
    t.shape = (1, n)
    return t


def table_state(state: core.State) -> core.State:
    """Round 0 of a numpy `state` as plain tables (what `Game` plays on)."""
    return core.State(
        table(state.deck[0].tolist()),  # type: ignore[arg-type]
        [int(state.turned[0])],  # type: ignore[arg-type]
        [int(state.player[0])],  # type: ignore[arg-type]
        [int(state.pot[0])],  # type: ignore[arg-type]
        table(state.chips[0].tolist()),  # type: ignore[arg-type]
        table(state.hands[0].tolist()),  # type: ignore[arg-type]
    )


def array_state(state: core.State) -> core.State:
    """The numpy batch of one of a table state (the form the rest of the package reads)."""
    # A table's values are in key order ``(0, 0), (0, 1), ...``; 1-D fields are lists.
    rows = ([list(f.values())] if isinstance(f, Table) else f for f in state)
    return core.State(*(np.array(r, dtype=np.int64) for r in rows))
