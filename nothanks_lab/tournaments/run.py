"""The work of a tournament: plans, chunks of deals, exact integer sums, and running them.

A `_Plan` is a field and its lineups; a `_Chunk` is a range of deals of one plan, the unit of
work an executor runs (`_play_chunk`: every seating of every deal, compiled when every bot has
a fast path). Each chunk returns `_Sums`, exact integer sums that merge in any grouping, so a
run gives bit-identical numbers however its chunks are spread over workers.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..parallel import check_picklable, is_local, iter_tasks, open_executor
from ..play import policy_name
from ..rules import Rules
from ..seating import balanced_design, deal_cosets, lineup_blocks
from ..stats import check_confidence
from ..validate import MAX_GAMES, check_count, check_players, check_rules, is_int

if TYPE_CHECKING:
    from ..simulation import SimResult

#: A win shared by k players counts 1/k; times this number it is a whole number for k <= 7.
WIN_UNIT = 420
#: Most seatings (lineups x balanced seatings each) a tournament will play per deal.
MAX_SEATINGS = 10_000
#: Deals per chunk of work when every bot has a compiled fast path, and when some do not.
FAST_CHUNK, SLOW_CHUNK = 5_000, 200


# --------------------------------------------------------------------------- checks
def _check_seed(seed: object) -> int:
    """An explicit int seed (fresh entropy for None), so every result can be rerun."""
    from ..validate import check_seed  # the package's one seed rule

    seed = check_seed(seed)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(2**63))  # drawn once; the result reports it for a rerun
    if seed is None or isinstance(seed, np.random.SeedSequence):
        seq = np.random.SeedSequence() if seed is None else seed
        return int(seq.generate_state(2, np.uint64)[0] >> np.uint64(1))
    return int(seed)


@dataclass(frozen=True)
class _Setting:
    """The checked arguments every run on paired deals shares (tournament, sweep, tuning)."""

    rules: Rules
    n_players: int
    n_games: int
    first_player: int
    confidence: float
    seed: int  # explicit, so every result can be rerun


def _check_setting(
    rules: Rules | None,
    n_players: object,
    n_games: object,
    first_player: object,
    confidence: object,
    seed: object,
) -> _Setting:
    """Check the shared arguments once, in this order, each error naming its argument."""
    from ..validate import check_seat

    rules = check_rules(rules)
    players = check_players(n_players, rules)
    return _Setting(
        rules,
        players,
        check_count(n_games, "n_games", MAX_GAMES),
        check_seat(first_player, players, "first_player"),
        check_confidence(confidence),
        _check_seed(seed),
    )


@dataclass(frozen=True)
class _Execution:
    """Where and how the chunks run; none of it changes the numbers of a run."""

    chunk_size: int | None = None
    executor: Any = None
    workers: int | None = None
    progress: bool | None = None


def _chunk_size(plans: Sequence[_Plan], chunk_size: object) -> int:
    """Deals per unit of work: smaller when some bot plays through the one-game engine."""
    if chunk_size is None:
        fast = all(_has_fast_path(p) for plan in plans for p in plan.policies)
        return FAST_CHUNK if fast else SLOW_CHUNK
    return check_count(chunk_size, "chunk_size", MAX_GAMES)  # a chunk is dealt at once


def _has_fast_path(policy: object) -> bool:
    # The simulator's own test (imported late: it is where numba lives).
    from ..fast import has_fast_path

    return has_fast_path(policy)


# --------------------------------------------------------------------------- the work
@dataclass(frozen=True)
class _Plan:
    """One tournament to play: the field and its lineups (field index per lineup position).

    Each deal seats every lineup in one balanced block of seatings (:mod:`.seating`).
    """

    policies: tuple[Any, ...]
    lineups: tuple[tuple[int, ...], ...]

    @property
    def blocks(self) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
        """Per lineup, per coset: the bot seatings (bot index per seat) played."""
        return tuple(lineup_blocks(lu) for lu in self.lineups)

    @property
    def seatings_per_deal(self) -> int:
        """Games each deal is played in (the same for every deal)."""
        return sum(len(blocks[0]) for blocks in self.blocks)


@dataclass(frozen=True)
class _Chunk:
    """Deals ``[start, start + count)`` of one plan: a unit of work for an executor."""

    plan: _Plan
    plan_index: int
    rules: Rules
    seed: int
    start: int
    count: int
    first_player: int


@dataclass
class _Sums:
    """Exact integer sums over deals, mergeable in any grouping.

    Per deal and bot, ``X`` is the sum over the bot's seats of its win share (in units of
    1/WIN_UNIT) or of its score; per deal and seat position, ``Y`` the same sums by seat.
    Kept: the number of deals, the sums of ``X`` and ``Y`` and of their cross products (for
    variances and paired differences), and per pair of bots ``Z_ab``, twice the number of
    games in which ``a`` scored lower than ``b`` plus the ties, with its sum of squares.
    """

    n: int
    win: list[int]
    win2: list[list[int]]
    score: list[int]
    score2: list[list[int]]
    seat_win: list[int]
    seat_win2: list[list[int]]
    seat_score: list[int]
    seat_score2: list[list[int]]
    beat: list[list[int]]
    beat2: list[list[int]]
    decisions: int

    def __add__(self, other: _Sums) -> _Sums:
        def add(a: Any, b: Any) -> Any:
            return [add(x, y) for x, y in zip(a, b, strict=True)] if isinstance(a, list) else a + b

        return _Sums(*(add(getattr(self, f), getattr(other, f)) for f in _SUM_FIELDS))


_SUM_FIELDS = (
    "n",
    "win",
    "win2",
    "score",
    "score2",
    "seat_win",
    "seat_win2",
    "seat_score",
    "seat_score2",
    "beat",
    "beat2",
    "decisions",
)


def _fresh_policies(policies: Sequence[Any], seed: int, key: tuple[int, ...]) -> list[Any]:
    """Copies of the field for one batch of games, each bot's own generator reseeded.

    Copying keeps the caller's bots untouched and makes a batch's play the same whether it
    runs here or in another process; reseeding from (seed, batch key) keeps a randomized bot's
    choices independent between batches and lets one game be replayed on its own batch.
    """
    fresh = copy.deepcopy(list(policies))  # one deepcopy keeps shared objects shared
    for i, p in enumerate(fresh):
        if isinstance(getattr(p, "rng", None), np.random.Generator):
            p.rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(*key, i)))
    return fresh


@dataclass
class _Games:
    """Per-game outcomes of a chunk, slot-major: arrays [seatings per deal, deals, P]."""

    bots: np.ndarray
    scores: np.ndarray
    card_points: np.ndarray
    chips: np.ndarray
    win_share: np.ndarray

    @classmethod
    def zeros(cls, shape: tuple[int, int, int]) -> _Games:
        """Zeroed arrays of one shape: [seatings per deal, deals, P]."""

        def ints() -> np.ndarray:
            return np.zeros(shape, dtype=np.int64)

        return cls(ints(), ints(), ints(), ints(), np.zeros(shape))

    def store(self, slot: int, rows: np.ndarray, seating: tuple[int, ...], r: SimResult) -> None:
        """Write the result `r` of the deals `rows` played in `seating` at `slot`."""
        self.bots[slot, rows] = seating
        self.scores[slot, rows] = r.scores
        self.card_points[slot, rows] = r.card_points
        self.chips[slot, rows] = r.chips
        self.win_share[slot, rows] = r.win_share


def _batches(chunk: _Chunk) -> Iterator[tuple[int, tuple[int, ...], np.ndarray, tuple[int, ...]]]:
    """Every batch of games of a chunk: (slot, bot per seat, deal rows, reseed key), in order.

    ``slot`` numbers the seatings of one deal (lineup by lineup, then within the coset);
    ``rows`` are the chunk's deals (0-based) that play this coset: one array object per coset.
    """
    from ..deals import stream_key

    key = stream_key(chunk.seed)
    design_slot = 0
    for li, blocks in enumerate(chunk.plan.blocks):
        cosets = deal_cosets(key, li, chunk.start, chunk.count, len(blocks))
        for c, block in enumerate(blocks):
            rows = np.flatnonzero(cosets == c)
            if not len(rows):
                continue
            for k, seating in enumerate(block):
                yield design_slot + k, seating, rows, (chunk.start, li, c, k)
        design_slot += len(blocks[0])


def _play_chunk(chunk: _Chunk, games: _Games | None = None) -> _Sums:
    """Play deals ``[start, start + count)`` in their seatings; exact sums.

    With `games` (arrays shaped [seatings per deal, count, P]), every game's outcome is also
    written into it.
    """
    from ..deals import deal_decks
    from ..fast import fast_table
    from ..simulation import simulate

    plan = chunk.plan
    n_seats = len(plan.lineups[0])
    shape = (plan.seatings_per_deal, chunk.count, n_seats)
    if games is None:
        games = _Games.zeros(shape)
    decks = deal_decks(chunk.rules, seed=chunk.seed, start=chunk.start, count=chunk.count)
    decisions = 0
    # All compiled: one kernel table for the field, reindexed per seating (no per-game Python).
    table = fast_table(plan.policies, chunk.rules)
    chips0 = chunk.rules.starting_chips(n_seats)
    if table is None and _lockstep_ready(plan.policies):
        return _play_chunk_lockstep(chunk, games, decks)
    rows, d = None, decks
    for slot, seating, batch_rows, key in _batches(chunk):
        if batch_rows is not rows:  # a new coset: its deals, copied once for all its seatings
            rows, d = batch_rows, decks[batch_rows]
        if table is not None:
            points, chips, moves = table.seated(seating).play(
                chunk.rules,
                chips0,
                chunk.first_player,
                decks=d,
                key=None,
                start=0,
                count=len(d),
            )
            r = _checked_result(chunk, seating, rows, d, points, chips, moves)
        else:
            policies = _fresh_policies(plan.policies, chunk.seed, key)
            r = simulate(
                [policies[b] for b in seating],
                decks=d,
                rules=chunk.rules,
                first_player=chunk.first_player,
            )
        decisions += int(np.asarray(r.n_decisions).sum())
        games.store(slot, rows, seating, r)
    return _sums_of(games, len(plan.policies), decisions)


def _checked_result(
    chunk: _Chunk,
    seating: tuple[int, ...],
    rows: np.ndarray,
    decks: np.ndarray,
    points: np.ndarray,
    chips: np.ndarray,
    moves: np.ndarray,
) -> SimResult:
    """The result of the deals `rows` (their decks `decks`) played in `seating`, every game
    checked against the rules (as `simulate` checks its own)."""
    from ..simulation import check_outcomes, chunk_result

    names = tuple(policy_name(chunk.plan.policies[b]) for b in seating)
    r = chunk_result(points, chips, moves, names, None, 0)
    check_outcomes(r, chunk.rules, decks=decks, games=chunk.start + rows)
    return r


def _lockstep_ready(policies: Sequence[Any]) -> bool:
    from .lockstep import lockstep_ready

    return lockstep_ready(policies)


def _play_chunk_lockstep(chunk: _Chunk, games: _Games, decks: np.ndarray) -> _Sums:
    """`_play_chunk` for a field with batched bots (bots in processes of their own): every
    game of the chunk at once, each such bot asked for all its waiting decisions in one message
    (:mod:`.lockstep`); the same games and results as one game after another."""
    from .lockstep import play_lockstep

    plan = chunk.plan
    batches = list(_batches(chunk))
    todo: list[tuple[list[Any], np.ndarray]] = []
    for _, seating, rows, _key in batches:
        # Copies of the seated bots only, not of the whole field (a league's is 30+ bots): in
        # lockstep no bot keeps a generator (`lockstep_ready`), so there is nothing to reseed.
        seated = copy.deepcopy([plan.policies[b] for b in seating])
        todo.extend((seated, decks[r]) for r in rows)
    played = iter(play_lockstep(todo, chunk.rules, chunk.first_player))
    decisions = 0
    for slot, seating, rows, _ in batches:
        out = [next(played) for _ in rows]
        points = np.array([o[0] for o in out], dtype=np.int64)
        chips = np.array([o[1] for o in out], dtype=np.int64)
        moves = np.array([o[2] for o in out], dtype=np.int64)
        r = _checked_result(chunk, seating, rows, decks[rows], points, chips, moves)
        decisions += int(moves.sum())
        games.store(slot, rows, seating, r)
    return _sums_of(games, len(plan.policies), decisions)


def _tally(
    bots: np.ndarray,
    scores: np.ndarray,
    wins: np.ndarray,
    win: np.ndarray,
    score: np.ndarray,
    beat: np.ndarray,
) -> None:
    """Per deal and bot, sum win units and scores; per pair, 2 per game won, 1 per tie.

    `bots`, `scores`, `wins` are [slots, deals, P]; `win`, `score` are [deals, bots] and
    `beat` [deals, bots, bots], all zeroed. Written in the subset of Python numba compiles:
    one pass over the games instead of a dozen numpy passes.
    """
    for k in range(bots.shape[0]):
        for d in range(bots.shape[1]):
            for i in range(bots.shape[2]):
                a = bots[k, d, i]
                win[d, a] += wins[k, d, i]
                score[d, a] += scores[k, d, i]
                for j in range(bots.shape[2]):
                    b = bots[k, d, j]
                    if a != b:
                        if scores[k, d, i] < scores[k, d, j]:
                            beat[d, a, b] += 2
                        elif scores[k, d, i] == scores[k, d, j]:
                            beat[d, a, b] += 1


def _sums_of(games: _Games, n_bots: int, decisions: int) -> _Sums:
    """The exact sums of a chunk from its games (deal-major arrays)."""
    from ..jit import jit_pure

    count = games.bots.shape[1]
    w = np.rint(games.win_share * WIN_UNIT).astype(np.int64)
    s = games.scores
    win = np.zeros((count, n_bots), dtype=np.int64)
    score = np.zeros((count, n_bots), dtype=np.int64)
    beat = np.zeros((count, n_bots, n_bots), dtype=np.int64)
    jit_pure(_tally)(games.bots, s, w, win, score, beat)
    seat_win, seat_score = w.sum(axis=0), s.sum(axis=0)
    return _Sums(
        n=count,
        win=win.sum(axis=0).tolist(),
        win2=_cross_products(win),
        score=score.sum(axis=0).tolist(),
        score2=_cross_products(score),
        seat_win=seat_win.sum(axis=0).tolist(),
        seat_win2=_cross_products(seat_win),
        seat_score=seat_score.sum(axis=0).tolist(),
        seat_score2=_cross_products(seat_score),
        beat=beat.sum(axis=0).tolist(),
        beat2=(beat * beat).sum(axis=0).tolist(),
        decisions=decisions,
    )


def _cross_products(x: np.ndarray) -> list[list[int]]:
    """``x.T @ x`` as exact ints (Python ints when int64 could overflow on a huge chunk)."""
    biggest = int(np.abs(x).max(initial=0))
    if x.shape[0] * biggest * biggest >= 2**62:
        x = x.astype(object)
    products: list[list[int]] = (x.T @ x).tolist()
    return products


def _run_plans(
    plans: Sequence[_Plan], setting: _Setting, execution: _Execution, desc: str
) -> list[_Sums]:
    """Play every plan on the same deals, chunked; one exact `_Sums` per plan."""
    n_games, seed, rules = setting.n_games, setting.seed, setting.rules
    first_player, progress = setting.first_player, execution.progress
    chunk_size = _chunk_size(plans, execution.chunk_size)
    per_plan = -(-n_games // chunk_size)
    n_tasks = per_plan * len(plans)

    def chunks() -> Iterator[_Chunk]:
        # Made one at a time, as the executor has room: memory never grows with n_games.
        for i, plan in enumerate(plans):
            for s in range(0, n_games, chunk_size):
                yield _Chunk(plan, i, rules, seed, s, min(chunk_size, n_games - s), first_player)

    if progress is None:
        progress = n_tasks > 1
    elif not isinstance(progress, bool | np.bool_):
        raise ValueError(f"progress must be True, False or None (automatic); got {progress!r}")
    totals: list[_Sums | None] = [None] * len(plans)
    with open_executor(execution.executor, execution.workers, n_tasks=n_tasks) as ex:
        if not is_local(ex):
            for plan in plans:
                for p in plan.policies:
                    check_picklable(p, f"bot {policy_name(p)}")
        answers = iter_tasks(_play_chunk, chunks(), ex, total=n_tasks, progress=progress, desc=desc)
        try:  # answers arrive in chunk order, plan after plan
            for k, answer in enumerate(answers):
                prev = totals[k // per_plan]
                totals[k // per_plan] = answer if prev is None else prev + answer
        finally:
            answers.close()  # cancels pending chunks at once on an error or Ctrl-C
    return [t for t in totals if t is not None]


def _lineups(
    n_bots: int, n_players: int, lineups: Iterable[Sequence[int]] | None
) -> tuple[tuple[int, ...], ...]:
    if lineups is None:
        if n_bots < n_players:
            raise ValueError(
                f"a field of {n_bots} bots cannot fill {n_players} seats; repeat bots in the "
                f"field, give lineups=, or use head_to_head(candidate, opponent, ...)"
            )
        lineups = itertools.combinations(range(n_bots), n_players)
    checked: list[tuple[int, ...]] = []
    block = balanced_design(n_players).block_size
    for lineup in lineups:
        lineup = tuple(lineup)
        if len(lineup) != n_players or not all(is_int(b) and 0 <= b < n_bots for b in lineup):
            raise ValueError(
                f"lineup {lineup!r} must list {n_players} bot indices in 0..{n_bots - 1}"
            )
        checked.append(tuple(int(b) for b in lineup))
        if len(checked) * block > MAX_SEATINGS:
            raise ValueError(
                f"more than {MAX_SEATINGS} seatings per deal ({len(checked)} lineups x "
                f"{block} balanced seatings each); use a smaller field or give lineups= "
                f"explicitly"
            )
    if not checked:
        raise ValueError("lineups must hold at least one lineup")
    missing = sorted(set(range(n_bots)) - {b for lu in checked for b in lu})
    if missing:
        raise ValueError(f"bots {missing} sit in no lineup; every bot in the field must play")
    return tuple(checked)
