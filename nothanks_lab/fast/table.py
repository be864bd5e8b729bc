"""A table of bots in the kernel's terms, and the entry points that play on its kernel.

`fast_table` turns the policies at a table into a `FastTable`: the distinct ``FAST_DECIDE``
functions numbered in a stable order (so the same kinds always share one kernel module), a
kind id per seat and a float64[P, K] array of each seat's ``fast_params``. `FastTable.play`
deals and plays rounds for `simulate`; `FastTable.finish` and `finish_rounds` finish positions from
the middle of a round (the search bot's and :mod:`nothanks_lab.analysis`'s rollouts), all on
the one compiled playout loop of :mod:`nothanks_lab.fast.loops`.
"""

from __future__ import annotations

import copy
import types
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import core
from ..deals import dealer_args
from ..rules import Rules
from .debug import check_table, debug_enabled
from .kernel import kernel_module
from .protocol import (
    FastPathError,
    _fast_params,
    _where,
    check_decide,
    has_fast_path,
    warn_slow_path,
)

__all__ = ["FastTable", "fast_table", "finish_rounds", "kind_key"]


def kind_key(f: Any) -> tuple[str, str, int]:
    """The order in which a table numbers its kinds of ``FAST_DECIDE`` (one kernel per set)."""
    return (getattr(f, "__module__", "") or "", getattr(f, "__qualname__", "") or "", id(f))


class FastTable:
    """The policies of a table in the kernel's terms: kind id and parameters per seat."""

    def __init__(self, policies: Sequence[object], rules: Rules | None = None) -> None:
        funcs = [type(p).FAST_DECIDE for p in policies]  # type: ignore[attr-defined]
        # Stable numbering, so the same kinds always share one kernel module.
        uniq = sorted(set(funcs), key=kind_key)
        for f in uniq:  # each on its own first, so a failure names its bot
            users = [type(p).__name__ for p, g in zip(policies, funcs, strict=True) if g is f]
            check_decide(f, " and ".join(dict.fromkeys(users)))
        if debug_enabled():  # NOTHANKS_LAB_DEBUG=1: bounds-checked and compared with act
            check_table(policies, rules)
        self.kinds = np.array([uniq.index(f) for f in funcs], dtype=np.int64)
        rows = [_fast_params(p, rules) for p in policies]
        k = max(1, max(len(r) for r in rows))
        self.params = np.zeros((len(rows), k), dtype=np.float64)
        for i, r in enumerate(rows):
            self.params[i, : len(r)] = r
        self.module = kernel_module(uniq)

    def finish(self, s: core.State) -> np.ndarray:
        """Finish every round of the batch `s` in place with these policies (`finish_rounds`)."""
        return _finish(self.module, s, self.kinds, self.params)

    def seated(self, seating: Sequence[int]) -> FastTable:
        """The same policies in another order: seat ``i`` gets policy ``seating[i]``.

        Shares the compiled kernel; only the per-seat kinds and parameters are reindexed, so a
        tournament builds one table per field rather than one per seating.
        """
        table = copy.copy(self)
        table.kinds = self.kinds[list(seating)]
        table.params = self.params[list(seating)]
        return table

    def play(
        self,
        rules: Rules,
        starting_chips: int,
        first_player: int,
        *,
        decks: np.ndarray | None,
        key: np.ndarray | None,
        start: int,
        count: int,
        points: np.ndarray | None = None,
        moves: np.ndarray | None = None,
        hands: np.ndarray | None = None,
        chips: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Card points, final chips and move counts of `count` rounds (given or dealt decks).

        `points` (int64[count, P]), `moves` (int64[count]) and `chips` (int64[count, P], the
        rounds' chips as they are played, so the final ones) may be given to be filled in;
        `hands` (int64[count, P]), if given, receives each seat's final cards as bit masks
        (bit ``c`` set: card ``c`` taken), for checks that every card is accounted for.
        """
        n_players = len(self.kinds)
        deal = decks is None
        if decks is None:
            decks = np.empty((count, rules.n_in_play), dtype=np.int64)
            key = np.zeros(2, dtype=np.uint64) if key is None else key
        else:
            key = np.zeros(2, dtype=np.uint64)
        s = core.new_state(decks, n_players, starting_chips, first_player)
        if chips is not None:  # the kernel plays on the caller's array: no copy afterwards
            chips[...] = s.chips
            s = s._replace(chips=chips)
        if points is None:
            points = np.empty((count, n_players), dtype=np.int64)
        if moves is None:
            moves = np.empty(count, dtype=np.int64)
        self.module.play_chunk(
            s,
            self.kinds,
            self.params,
            deal,
            *dealer_args(key, start, rules),
            points,
            moves,
        )
        if hands is not None:
            hands[...] = s.hands
        return points, s.chips, moves


def _finish(
    module: types.ModuleType, s: core.State, kinds: np.ndarray, params: np.ndarray
) -> np.ndarray:
    """int64[B, P] card points once `module`'s kernel has played every round of `s` out."""
    b, n_players = s.chips.shape
    points = np.empty((b, n_players), dtype=np.int64)
    module.play_chunk(
        s,
        kinds=kinds,
        params=params,
        deal=False,  # the decks are the state's own: the dealer's arguments play no part
        key0=np.uint64(0),
        key1=np.uint64(0),
        start=np.int64(0),
        low_card=np.int64(0),
        n_cards=np.int64(s.deck.shape[1]),
        points=points,
        n_decisions=np.empty(b, dtype=np.int64),
    )
    return points


def finish_rounds(
    s: core.State, decides: Sequence[Callable[..., Any]], params: np.ndarray
) -> np.ndarray:
    """Finish every round of the batch `s` in place; int64[B, P] card points at the end.

    Seat ``p`` decides with ``decides[p](params[p], ...)`` (a ``FAST_DECIDE`` function;
    `params` is float64[P, K], each row as long as the longest function needs); a seat without
    chips takes. Each round goes on from wherever it stands (`view.position_state` builds
    positions; a round already over is left alone), on the simulator's own kernel, so rollouts
    (the search bot, :mod:`nothanks_lab.analysis`) and `simulate` share one compiled playout
    loop, its per-seat dispatch and its on-disk cache; ``s.chips`` ends as the final chips.
    """
    uniq = sorted(set(decides), key=kind_key)  # as `FastTable` numbers them: one kernel
    for f in uniq:
        check_decide(f, _where(f))
    kinds = np.array([uniq.index(f) for f in decides], dtype=np.int64)
    rows = np.ascontiguousarray(params, dtype=np.float64)
    if rows.ndim != 2 or rows.shape[0] != len(decides):
        raise ValueError(
            f"params must be float64[P, K] with one row per seat ({len(decides)}); "
            f"got shape {rows.shape}"
        )
    return _finish(kernel_module(uniq), s, kinds, rows)


def fast_table(
    policies: Sequence[object], rules: Rules | None = None, *, strict: bool = False
) -> FastTable | None:
    """A `FastTable` when every policy has a fast path, else None.

    Pass `rules` when playing a variant: a bot whose ``fast_params`` takes the rule set gets it.
    A ``FAST_DECIDE`` numba cannot compile raises `FastPathError` with `strict`; otherwise the
    table has no fast path (None), and a `SlowPathWarning` says why (once per bot class).
    """
    if not all(has_fast_path(p) for p in policies):
        return None
    if strict:
        return FastTable(policies, rules)
    try:
        return FastTable(policies, rules)
    except FastPathError:
        warn_slow_path(policies, stacklevel=2)
        return None
