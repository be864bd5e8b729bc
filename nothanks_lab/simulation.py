"""Many rounds at once: `simulate` and its `SimResult`.

`simulate` plays a batch of rounds with the same policies in the same seats and returns per-game
arrays (scores, card points, chips, winners, win shares, number of decisions) for analysis.
When every seat's policy has a compiled fast path (its class defines ``FAST_DECIDE`` and
``fast_params()``, see :mod:`nothanks_lab.fast`), the rounds run in a numba-compiled loop over
the shared rules of :mod:`nothanks_lab.core`; any other policy plays through the one-game engine
(`play_game`) on the same deals, slower but with the same meaning. Deals come from
:func:`nothanks_lab.deals.deal_decks`, where game ``i`` depends only on the seed and ``i``, so
results do not depend on the chunk size, on the path taken, or on how a caller splits a run
with ``game_offset`` across workers. (A bot that draws random numbers owns its generator and
draws from it game after game, so its choices depend on which games it played before; the
deals do not.) `simulate_chunks` streams the same results chunk by chunk, for runs too big to
keep per game.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .core import LAWS, first_broken_law, score_rows
from .deals import deal_decks, stream_key
from .engine import SeedLike
from .play import check_policies, play_game, policy_name
from .rules import Rules
from .validate import (
    MAX_GAME_OFFSET,
    MAX_GAMES,
    check_count,
    check_int,
    check_rules,
    check_seed,
    check_sequence,
    is_int,
)

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "ResultCheckError",
    "SimResult",
    "check_outcomes",
    "score_rows",
    "simulate",
    "simulate_chunks",
]

_ARRAYS = ("scores", "card_points", "chips", "winners", "win_share", "n_decisions")

#: Rounds played per compiled call: memory grows with this, never with the total. A compiled
#: call does not see Ctrl-C until it returns, so one must stay well under a second (the
#: slowest compiled bots, linear at 7 seats, take about 0.3 s for 8,192 rounds).
DEFAULT_CHUNK_SIZE = 8_192

#: Bytes of `SimResult` arrays per game and seat (scores, card points, chips: int64; winners:
#: bool; win share: float64), and per game (move count: int64).
_BYTES_PER_SEAT, _BYTES_PER_GAME = 3 * 8 + 1 + 8, 8


def _memory_limit() -> int:
    """Bytes a result may take: half of this machine's memory (8 GiB when it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (AttributeError, OSError, ValueError):
        return 8 * 2**30


def _check_memory(n_games: int, n_players: int) -> None:
    """Refuse at once, before any game is played, a result that would not fit in memory."""
    need = n_games * (n_players * _BYTES_PER_SEAT + _BYTES_PER_GAME)
    limit = _memory_limit()
    if need > limit:
        raise ValueError(
            f"simulate: n_games={n_games:,} at {n_players} seats needs about "
            f"{need / 2**30:,.1f} GiB for the per-game results, more than the "
            f"{limit / 2**30:,.1f} GiB allowed (half of this machine's memory); stream the run "
            f"with nothanks_lab.simulation.simulate_chunks (same arguments, one result per "
            f"chunk to aggregate and drop), or use nt.tournament for win shares and mean scores"
        )


@dataclass(frozen=True, eq=False)
class SimResult:
    """Per-game outcomes of a batch of rounds (``G`` games, ``P`` seats).

    >>> import nothanks_lab as nt
    >>> r = nt.simulate([nt.bots.MarginalCostBot(10)] * 3, 4, seed=1)
    >>> r.scores.shape, r.n_games, r.n_players, bool((r.win_share.sum(axis=1) == 1).all())
    ((4, 3), 4, 3, True)
    """

    scores: np.ndarray
    """int64[G, P]: final score per seat (card points minus chips; lowest wins)."""
    card_points: np.ndarray
    """int64[G, P]: card points per seat."""
    chips: np.ndarray
    """int64[G, P]: chips per seat at the end."""
    winners: np.ndarray
    """bool[G, P]: every seat with the lowest score of its game."""
    win_share: np.ndarray
    """float64[G, P]: 1/k to each of a game's k tied winners, 0 to the others."""
    n_decisions: np.ndarray
    """int64[G]: moves made in each game (forced takes included)."""
    names: tuple[str, ...] = ()
    """The policy name of each seat."""
    seed: Any = None
    """The seed of the deals (the fresh entropy drawn when `simulate` got ``seed=None``;
    None when the decks were given)."""
    game_offset: int = 0
    """Index of the first game in the seeded stream."""

    @property
    def n_games(self) -> int:
        """Number of games."""
        return int(self.scores.shape[0])

    @property
    def n_players(self) -> int:
        """Seats per game."""
        return int(self.scores.shape[1])

    @classmethod
    def concat(cls, parts: Sequence[SimResult]) -> SimResult:
        """Join results of consecutive game ranges (e.g. from several workers) into one."""
        parts = check_sequence(parts, "parts", "a sequence of SimResult")
        if not parts:
            raise ValueError("SimResult.concat needs at least one result")
        for i, p in enumerate(parts):
            if not isinstance(p, SimResult):
                raise ValueError(
                    f"SimResult.concat: parts[{i}] is a {type(p).__name__}, not a SimResult"
                )
        if len({p.n_players for p in parts}) != 1:
            raise ValueError("SimResult.concat: results have different numbers of seats")
        first = parts[0]
        for i, (a, b) in enumerate(itertools.pairwise(parts)):
            if b.names != a.names:
                raise ValueError(
                    f"SimResult.concat: parts[{i + 1}] was played by {list(b.names)}, "
                    f"parts[{i}] by {list(a.names)}; join only results of the same policies"
                )
            if (a.seed is None) != (b.seed is None) or (
                a.seed is not None and _seed_key(a.seed) != _seed_key(b.seed)
            ):
                raise ValueError(
                    f"SimResult.concat: parts[{i}] and parts[{i + 1}] come from different seeds "
                    f"({a.seed!r} and {b.seed!r}); join only ranges of one seeded stream"
                )
            if a.seed is not None and b.game_offset != a.game_offset + a.n_games:
                raise ValueError(
                    f"SimResult.concat: parts[{i}] covers games {a.game_offset}.."
                    f"{a.game_offset + a.n_games - 1} but parts[{i + 1}] starts at game_offset "
                    f"{b.game_offset}, not {a.game_offset + a.n_games}; join consecutive, "
                    "non-overlapping game ranges in order"
                )
        return cls(
            **{f: np.concatenate([getattr(p, f) for p in parts]) for f in _ARRAYS},
            names=first.names,
            seed=first.seed,
            game_offset=first.game_offset,
        )

    def mean_scores(self) -> np.ndarray:
        """float64[P]: mean score per seat."""
        means: np.ndarray = self.scores.mean(axis=0)
        return means

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per game and seat: ``game`` (index in the seeded stream), ``seat``,
        ``bot``, ``score``, ``card_points``, ``chips``, ``winner``, ``win_share``,
        ``n_decisions``."""
        names = self.names or tuple(f"seat {p}" for p in range(self.n_players))
        return [
            {
                "game": self.game_offset + g,
                "seat": p,
                "bot": names[p],
                "score": int(self.scores[g, p]),
                "card_points": int(self.card_points[g, p]),
                "chips": int(self.chips[g, p]),
                "winner": bool(self.winners[g, p]),
                "win_share": float(self.win_share[g, p]),
                "n_decisions": int(self.n_decisions[g]),
            }
            for g in range(self.n_games)
            for p in range(self.n_players)
        ]

    def to_frame(self) -> Any:
        """`to_records` as a pandas DataFrame, built column-wise (needs pandas, optional)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError(
                "to_frame() needs pandas (pip install 'nothanks_lab[frames]'); to_records() "
                "gives the same table as a list of dicts"
            ) from None
        g, p = self.n_games, self.n_players
        names = self.names or tuple(f"seat {s}" for s in range(p))
        return pd.DataFrame(
            {
                "game": np.repeat(np.arange(g) + self.game_offset, p),
                "seat": np.tile(np.arange(p), g),
                "bot": np.tile(np.array(names, dtype=object), g),
                "score": self.scores.ravel(),
                "card_points": self.card_points.ravel(),
                "chips": self.chips.ravel(),
                "winner": self.winners.ravel(),
                "win_share": self.win_share.ravel(),
                "n_decisions": np.repeat(self.n_decisions, p),
            }
        )


def _seed_key(seed: Any) -> Any:
    """What identifies a seeded stream: equal keys, equal deals (a Generator matches nothing,
    since each run draws a fresh key from it)."""
    if isinstance(seed, np.random.SeedSequence):
        return ("seq", str(seed.entropy), tuple(seed.spawn_key), seed.pool_size)
    if isinstance(seed, np.ndarray):
        return ("key", tuple(int(x) for x in seed.ravel()))
    if is_int(seed):
        return ("int", int(seed))
    return ("object", id(seed), object())


def _check_decks(decks: object, rules: Rules) -> np.ndarray:
    """Return `decks` as int64[G, n_in_play], or raise `ValueError` saying what is wrong."""
    try:
        arr = np.asarray(decks)
    except Exception as e:  # ragged lists and the like
        raise ValueError(f"decks must be an integer array (games × cards); {e}") from None
    n = rules.n_in_play
    if arr.ndim != 2 or arr.shape[1] != n:
        raise ValueError(
            f"decks must have shape (games, {n}): one row of the {n} in-play cards per game; "
            f"got shape {arr.shape}"
        )
    if arr.size and not np.issubdtype(arr.dtype, np.integer):  # floats and bools too
        raise ValueError(
            f"decks must be an integer array of whole-numbered cards (any integer dtype), "
            f"{rules.low_card}..{rules.high_card}; got dtype {arr.dtype}"
        )
    bad = (arr < rules.low_card) | (arr > rules.high_card)  # before a copy is made
    if bad.any():
        g, k = divmod(int(np.argmax(bad)), n)  # the first bad card, with no index array
        raise ValueError(
            f"decks[{g}] holds card {arr[g, k]}, outside the deck "
            f"{rules.low_card}..{rules.high_card}"
        )
    arr = np.ascontiguousarray(arr, dtype=np.int64)
    if not arr.flags.writeable:  # read-only or memory-mapped: the compiled kernel types a copy
        arr = arr.copy()
    s = np.sort(arr, axis=1)
    dup = (s[:, 1:] == s[:, :-1]).any(axis=1)
    if dup.any():
        g = int(np.flatnonzero(dup)[0])
        twice = sorted({int(c) for c in s[g, 1:][s[g, 1:] == s[g, :-1]]})
        raise ValueError(f"decks[{g}] holds {twice} more than once; each card appears at most once")
    return arr


class ResultCheckError(RuntimeError):
    """A reported game broke a law of the game: its numbers are refused, never reported."""


def check_outcomes(
    result: SimResult,
    rules: Rules,
    *,
    decks: np.ndarray | None = None,
    games: np.ndarray | None = None,
) -> None:
    """Raise `ResultCheckError` naming the game and bots if any game of `result` is impossible.

    Every reported game is checked, compiled in one pass (`first_broken_law`, about 1% of a
    simulation's time): each must conserve chips (seats' chips sum to the starting chips,
    none negative), score by the formula (card points minus chips), take every in-play card
    exactly once as far as the arrays show it (at least one move per in-play card, and card
    points between those of one hand holding the whole deck, the lowest card of each run, and
    the deck's sum, every card alone), and share the win as `score_rows` defines it. `decks`
    (the games' in-play cards) makes the card-point bounds exact per game; `games` gives the
    games' indices to report (default: ``game_offset + row``).
    """
    if result.n_games == 0:
        return
    from .fast import jit_pure  # numba loads only once games are played

    p = result.n_players
    no_decks = np.empty((0, rules.n_in_play), dtype=np.int64)
    row, law = jit_pure(first_broken_law)(  # one compiled pass
        result.card_points,
        result.chips,
        result.scores,
        result.winners,
        result.win_share,
        result.n_decisions,
        np.int64(rules.starting_chips(p)),
        np.int64(rules.n_in_play),
        np.int64(rules.low_card),
        np.int64(rules.n_cards),
        no_decks if decks is None else np.ascontiguousarray(decks, dtype=np.int64),
    )
    if law:
        game = int(games[row]) if games is not None else result.game_offset + row
        bots = ", ".join(result.names) if result.names else f"{p} seats"
        raise ResultCheckError(
            f"game {game} {LAWS[law]} (bots: {bots}; card points "
            f"{result.card_points[row].tolist()}, chips {result.chips[row].tolist()}, scores "
            f"{result.scores[row].tolist()}); it is not reported"
        )


def chunk_result(
    points: np.ndarray,
    chips: np.ndarray,
    n_decisions: np.ndarray,
    names: tuple[str, ...],
    seed: Any,
    game_offset: int,
    out: dict[str, np.ndarray] | None = None,
) -> SimResult:
    """The result of a chunk; with `out`, computed into those arrays (slices of the whole run)."""
    if out is None:
        out = {
            "scores": np.empty_like(points),
            "winners": np.empty(points.shape, dtype=bool),
            "win_share": np.empty(points.shape, dtype=np.float64),
        }
    for name, value in (("card_points", points), ("chips", chips), ("n_decisions", n_decisions)):
        if name in out and out[name] is not value:
            out[name][...] = value
        else:
            out[name] = value
    from .fast import jit_pure  # numba loads only once games are played

    jit_pure(score_rows)(points, out["chips"], out["scores"], out["winners"], out["win_share"])
    return SimResult(
        **{f: out[f] for f in _ARRAYS}, names=names, seed=seed, game_offset=game_offset
    )


def _result_arrays(total: int, n_players: int) -> dict[str, np.ndarray]:
    """Empty arrays for every field of a `total`-game result, carved from one allocation.

    One block rather than six: fresh memory costs a page fault per page on first write, and
    one block large enough for huge pages takes far fewer faults; `fast.memory.result_block`
    lends it, reusing the last dropped result's block when it fits (fresh memory is a third
    of a million-game run's time on the project's machines).
    """
    from .fast.memory import result_block

    layout = [
        (f, (total,) if f == "n_decisions" else (total, n_players), np.dtype(dtype))
        for f, dtype in (  # 8-byte fields first, so every field stays aligned
            ("scores", np.int64),
            ("card_points", np.int64),
            ("chips", np.int64),
            ("win_share", np.float64),
            ("n_decisions", np.int64),
            ("winners", np.bool_),
        )
    ]
    sizes = [int(np.prod(shape)) * dtype.itemsize for _, shape, dtype in layout]
    block = result_block(sum(sizes))
    out, at = {}, 0
    for (name, shape, dtype), size in zip(layout, sizes, strict=True):
        out[name] = block[at : at + size].view(dtype).reshape(shape)
        at += size
    return out


def _play_slow(
    policies: list[object], decks: np.ndarray, rules: Rules, first_player: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Card points, chips and move counts of each deck, through the one-game engine."""
    g, p = decks.shape[0], len(policies)
    points = np.empty((g, p), dtype=np.int64)
    chips = np.empty((g, p), dtype=np.int64)
    moves = np.empty(g, dtype=np.int64)
    for i in range(g):
        r = play_game(policies, rules=rules, deck=decks[i], first_player=first_player)
        points[i] = r.card_points
        chips[i] = r.chips
        moves[i] = len(r.history)
    return points, chips, moves


class _Chunks(Iterator[SimResult]):
    """The lazy results of a checked run, chunk by chunk (what `simulate_chunks` returns)."""

    def __init__(
        self, total: int, n_players: int, play: Callable[..., Iterator[SimResult]]
    ) -> None:
        self.total, self.n_players, self._play = total, n_players, play
        self._results: Iterator[SimResult] | None = None

    def __next__(self) -> SimResult:
        if self._results is None:
            self._results = self._play()
        return next(self._results)

    def into(self, out: dict[str, np.ndarray]) -> Iterator[SimResult]:
        """Each chunk's result, written into `out`'s arrays for the whole run (`simulate`)."""
        return self._play(out)


def _outside_level() -> int:
    """The `stacklevel` (as `warnings.warn` counts it, from the function that calls this one)
    of the first frame outside this module: a warning from `simulate_chunks` points at the
    user's line whether they called it or `simulate`."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    return level


def simulate_chunks(
    policies: Sequence[object],
    n_games: int | None = None,
    *,
    rules: Rules | None = None,
    seed: SeedLike | np.ndarray = None,
    decks: Any = None,
    first_player: int = 0,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    game_offset: int = 0,
    fast: bool | None = None,
) -> _Chunks:
    """`simulate`, one `SimResult` per chunk of at most `chunk_size` games, lazily.

    For runs too large to hold per-game arrays (ten million games of five seats is over a
    gigabyte): aggregate each chunk and drop it, and memory stays bounded by the chunk.
    Arguments are checked before the first chunk is played.
    """
    rules = check_rules(rules)
    if not (isinstance(seed, np.ndarray) and seed.dtype == np.uint64 and seed.shape == (2,)):
        seed = check_seed(seed)  # the one seed rule (or an already made uint64[2] key)
    try:
        policies = check_policies(policies)
    except ValueError as e:
        raise ValueError(f"simulate: {e}") from None
    n_players = len(policies)
    chips0 = rules.starting_chips(n_players)
    from .validate import check_seat

    first_player = check_seat(first_player, n_players, "first_player")
    chunk_size = check_count(chunk_size, "chunk_size", MAX_GAMES)  # memory grows with it
    game_offset = check_int(game_offset, "game_offset", low=0, high=MAX_GAME_OFFSET)
    if fast is not None and not isinstance(fast, bool | np.bool_):
        raise ValueError(f"fast must be None (automatic), True or False; got {fast!r}")

    if decks is not None:
        deck_arr = _check_decks(decks, rules)
        if n_games is not None and check_int(n_games, "n_games", low=0) != deck_arr.shape[0]:
            raise ValueError(
                f"n_games={n_games} but {deck_arr.shape[0]} decks were given; "
                "omit n_games or make them equal"
            )
        total, key, seed_out = deck_arr.shape[0], None, None
    else:
        if n_games is None:
            raise ValueError("simulate needs n_games (or decks to replay)")
        total = check_count(n_games, "n_games", MAX_GAMES, low=0)
        deck_arr = None
        # Fresh entropy is drawn once and reported in the result, so the run can be repeated.
        seed_out = np.random.SeedSequence().entropy if seed is None else seed
        key = stream_key(seed_out)  # type: ignore[arg-type]  # fresh entropy is an int

    from . import fast as fastpath  # numba loads only once games are played

    table = None
    if fast is not False:
        try:
            table = fastpath.fast_table(policies, rules, strict=True)
        except fastpath.FastPathError:
            if fast is True:
                raise
    if fast is True and table is None:
        slow = [policy_name(p) for p in policies if not fastpath.has_fast_path(p)]
        raise fastpath.FastPathError(
            f"fast=True but these policies have no compiled fast path: {slow}"
        )
    if fast is None and table is None:
        # The caller of simulate (or simulate_chunks) is told, once per bot class.
        fastpath.warn_slow_path(policies, stacklevel=_outside_level())
    names = tuple(policy_name(p) for p in policies)

    def chunks(out: dict[str, np.ndarray] | None = None) -> Iterator[SimResult]:
        """Each chunk's result; with `out` (arrays for the whole run), written into it."""
        if total == 0:
            empty = np.empty((0, n_players), dtype=np.int64)
            none = np.empty(0, dtype=np.int64)
            yield chunk_result(empty, empty.copy(), none, names, seed_out, game_offset)
        for lo in range(0, total, chunk_size):
            count = min(chunk_size, total - lo)
            part = None if out is None else {f: a[lo : lo + count] for f, a in out.items()}
            d = deck_arr[lo : lo + count] if deck_arr is not None else None
            if table is not None:
                points, chips, moves = table.play(
                    rules,
                    chips0,
                    first_player,
                    decks=d,
                    key=key,
                    start=game_offset + lo,
                    count=count,
                    points=None if part is None else part["card_points"],
                    moves=None if part is None else part["n_decisions"],
                    chips=None if part is None else part["chips"],
                )
            else:
                if d is None:
                    d = deal_decks(rules, seed=key, start=game_offset + lo, count=count)
                points, chips, moves = _play_slow(policies, d, rules, first_player)
            r = chunk_result(points, chips, moves, names, seed_out, game_offset + lo, part)
            check_outcomes(r, rules, decks=d)  # every reported game obeys the rules
            yield r

    return _Chunks(total, n_players, chunks)


def simulate(
    policies: Sequence[object],
    n_games: int | None = None,
    *,
    rules: Rules | None = None,
    seed: SeedLike | np.ndarray = None,
    decks: Any = None,
    first_player: int = 0,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    game_offset: int = 0,
    fast: bool | None = None,
) -> SimResult:
    """Play `n_games` rounds, seat ``i`` moved by ``policies[i]``; every round starts at
    `first_player`.

    Args:
        policies: one policy per seat (the same object may sit in several seats).
        n_games: rounds to play; omit it (or make it equal) when `decks` is given.
        rules: the rule set (default: the standard game).
        seed: fixes the deals (int, SeedSequence, Generator); None draws fresh entropy, which
            the result reports as ``.seed``.
        decks: int[G, n_in_play] in-play cards of each game in turning order, replayed
            instead of dealing.
        first_player: the seat that acts first in every round.
        chunk_size: rounds per compiled call (memory grows with it; results do not change;
            at most 100,000,000, ``validate.MAX_GAMES``).
        game_offset: play games ``game_offset .. game_offset+n_games-1`` of the seeded
            stream, so workers can share one run and get results identical to a single call.
        fast: None picks the compiled path when every policy has one, else plays through the
            one-game engine with a `SlowPathWarning` (once per bot class); False forces the
            engine (no warning); True requires the compiled path, raising `FastPathError`
            (a `ValueError`) when a policy has none or its ``FAST_DECIDE`` does not compile.

    Returns:
        A `SimResult` of per-game arrays.

    >>> import nothanks_lab as nt
    >>> bots = [nt.bots.MarginalCostBot(10)] * 5
    >>> a = nt.simulate(bots, 1000, seed=3)
    >>> b = nt.SimResult.concat([nt.simulate(bots, 400, seed=3),
    ...                          nt.simulate(bots, 600, seed=3, game_offset=400)])
    >>> bool((a.scores == b.scores).all())
    True
    """
    chunks = simulate_chunks(
        policies,
        n_games,
        rules=rules,
        seed=seed,
        decks=decks,
        first_player=first_player,
        chunk_size=chunk_size,
        game_offset=game_offset,
        fast=fast,
    )
    total, n_players = chunks.total, chunks.n_players
    _check_memory(total, n_players)
    if total <= chunk_size:
        return next(chunks)
    # Several chunks write into arrays of the full size: no copies, and the peak is the
    # result plus one chunk's working state.
    out = _result_arrays(total, n_players)
    names = seed_out = None
    for part in chunks.into(out):
        names, seed_out = part.names, part.seed
    return SimResult(**out, names=names, seed=seed_out, game_offset=game_offset)  # type: ignore[arg-type]
