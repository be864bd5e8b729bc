"""Tournaments, parameter sweeps and tuning, with honest confidence intervals.

A tournament seats a field of bots at a table of P seats in several *lineups* (which bots
sit down together) and plays each deal of a lineup in a *balanced block of seatings*
(:mod:`nothanks_lab.seating`): every bot holds every seat and sits directly after every other
bot equally often, and the block is drawn at random per deal, so copies of one bot have the
same expected result wherever they stand in the field. (Rotations alone are not fair: they
never change who sits after whom, and your left-hand neighbour is who gets the cards you
pass.) Deals are *paired*: deal ``i`` of the seeded stream is played in every seating of its
block, so the luck of the cards cancels out of comparisons. Each bot's result
on a deal is its average over the seats it held on that deal; confidence intervals are
Student-t intervals over those per-deal averages (the deals are the independent units, the
games within a deal are not). Sums are exact integers (a win share of 1/k is counted as
420/k, 420 being divisible by every k up to 7), so a run gives bit-identical numbers however
its chunks are spread over workers (:mod:`nothanks_lab.parallel`).

`sweep` and `tune` evaluate a candidate bot against chosen opponents on common random
numbers: every grid point or trial parameter sees the same deals.
"""

from __future__ import annotations

import copy
import dataclasses
import html
import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from .parallel import check_picklable, is_local, iter_tasks, open_executor
from .play import policy_name
from .rules import Rules
from .seating import balanced_design, deal_cosets, lineup_blocks

__all__ = [
    "Comparison",
    "Pairwise",
    "Ratings",
    "SweepResult",
    "TournamentResult",
    "TuneResult",
    "head_to_head",
    "make_policy",
    "parse_bot_spec",
    "sweep",
    "tournament",
    "tune",
]

#: A win shared by k players counts 1/k; times this number it is a whole number for k <= 7.
WIN_UNIT = 420
#: Most seatings (lineups x balanced seatings each) a tournament will play per deal.
MAX_SEATINGS = 10_000
#: Deals per chunk of work when every bot has a compiled fast path, and when some do not.
FAST_CHUNK, SLOW_CHUNK = 5_000, 200


# --------------------------------------------------------------------------- bot specs
def parse_bot_spec(text: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value,key=value"`` into a bot name and its parameters.

    >>> parse_bot_spec("marginal:threshold=10")
    ('marginal', {'threshold': 10})
    >>> parse_bot_spec("random:p_take=0.25,seed=3")
    ('random', {'p_take': 0.25, 'seed': 3})
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(
            f"a bot spec must be a non-empty string like 'marginal:threshold=10'; got {text!r}"
        )
    name, _, rest = text.strip().partition(":")
    params: dict[str, Any] = {}
    for item in rest.split(",") if rest.strip() else []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ValueError(
                f"bad parameter {item!r} in bot spec {text!r}; write name:key=value,key=value"
            )
        params[key.strip()] = _parse_value(value.strip())
    return name.strip(), params


def _parse_value(text: str) -> Any:
    lower = text.lower()
    if lower in ("true", "false"):
        return lower == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    raise ValueError(f"parameter value {text!r} is not a number or true/false")


def _user_bot_class(spec: str) -> tuple[Any, str] | None:
    """For ``"path/to/file.py:Class[:k=v]"`` or ``"package.module:Class[:k=v]"``: the class.

    Returns None for a registered name (``"marginal:threshold=10"``: no dot, no slash). The
    class is whatever builds a policy from keyword parameters (a `Bot` subclass, with its
    declared parameters checked, or any callable returning an object with ``act``).
    """
    import importlib
    import importlib.util
    import sys
    from pathlib import Path

    where, _, rest = spec.strip().partition(":")
    if not (where.endswith(".py") or "/" in where or "." in where):
        return None
    class_name, _, params = rest.partition(":")
    if not class_name.strip().isidentifier():
        raise ValueError(
            f"bot spec {spec!r}: after {where!r} give the class name, as "
            f"'{where}:ClassName' or '{where}:ClassName:key=value'"
        )
    if where.endswith(".py") or "/" in where:
        path = Path(where).expanduser().resolve()
        if not path.is_file():
            raise ValueError(f"bot spec {spec!r}: no file {str(path)!r}")
        mod_name = f"nothanks_user_{abs(hash(str(path))):x}_{path.stem}"
        module = sys.modules.get(mod_name)
        if module is None:
            loader_spec = importlib.util.spec_from_file_location(mod_name, path)
            if loader_spec is None or loader_spec.loader is None:
                raise ValueError(f"bot spec {spec!r}: cannot load {str(path)!r} as Python")
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[mod_name] = module  # so worker processes can unpickle its bots
            try:
                loader_spec.loader.exec_module(module)
            except Exception as e:
                del sys.modules[mod_name]
                raise ValueError(
                    f"bot spec {spec!r}: {path.name} failed to load: {type(e).__name__}: {e}"
                ) from None
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as e:
            raise ValueError(f"bot spec {spec!r}: cannot import module {where!r} ({e})") from None
    cls = getattr(module, class_name.strip(), None)
    if cls is None or not callable(cls):
        raise ValueError(f"bot spec {spec!r}: {where!r} has no class {class_name.strip()!r}")
    return cls, params


def make_policy(spec: Any) -> Any:
    """A policy from a spec: a policy object (used as is), ``"name:k=v"``, or ``(name, params)``.

    A user's own bot class is given by where it lives: ``"path/to/mybot.py:MyBot:k=v"`` or
    ``"package.module:MyBot:k=v"`` (built as ``MyBot(k=v)``).

    >>> make_policy(("marginal", {"threshold": 3}))
    MarginalCostBot(threshold=3)
    """
    from .bots import make_bot

    if isinstance(spec, str):
        user = _user_bot_class(spec)
        if user is not None:
            cls, rest = user
            _, params = parse_bot_spec("user:" + rest)
            try:
                return cls(**params)
            except (TypeError, ValueError) as e:
                raise ValueError(f"bot spec {spec!r}: {e}") from None
        name, params = parse_bot_spec(spec)
        return make_bot(name, **params)
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        name, params = spec
        if not isinstance(params, Mapping):
            raise ValueError(f"bot spec {spec!r}: parameters must be a dict")
        return make_bot(name, **dict(params))
    if callable(getattr(spec, "act", None)):
        return spec
    raise ValueError(
        f"not a bot: {spec!r}; give a policy (an object with act(view)), a registered name "
        f"like 'marginal:threshold=10', or a (name, params) pair"
    )


def _short_name(policy: Any, limit: int = 40) -> str:
    """`policy_name`, or for a long one only the parameters that differ from the defaults.

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> _short_name(MarginalCostBot(3)), _short_name(MarginalCostBot(3), limit=10)
    ('MarginalCostBot(threshold=3)', 'MarginalCostBot(threshold=3)')
    >>> _short_name(MarginalCostBot(10), limit=10)
    'MarginalCostBot(defaults)'
    """
    name = policy_name(policy)
    params = getattr(policy, "params", None)
    declared = getattr(type(policy), "PARAMS", ())
    if len(name) <= limit or not isinstance(params, Mapping) or not declared:
        return name
    changed = [
        f"{p.name}={params[p.name]:g}"
        if isinstance(params[p.name], float)
        else f"{p.name}={params[p.name]}"
        for p in declared
        if p.name in params and params[p.name] != p.default
    ]
    return f"{type(policy).__name__}({', '.join(changed) or 'defaults'})"


def _unique_names(policies: Sequence[Any]) -> tuple[str, ...]:
    """Names for a table (long ones shortened); repeats get ``#1``, ``#2``... to tell apart."""
    names = [_short_name(p) for p in policies]
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if names.count(n) == 1 else f"{n} #{seen[n]}")
    return tuple(out)


# --------------------------------------------------------------------------- checks
def _check_int(value: object, what: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise ValueError(f"{what} must be a whole number >= {low}; got {value!r}")
    return int(value)


def _check_seed(seed: object) -> int:
    """An explicit int seed (fresh entropy for None), so every result can be rerun."""
    from .validate import check_seed  # the package's one seed rule

    seed = check_seed(seed)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(2**63))  # drawn once; the result reports it for a rerun
    if seed is None or isinstance(seed, np.random.SeedSequence):
        seq = np.random.SeedSequence() if seed is None else seed
        return int(seq.generate_state(2, np.uint64)[0] >> np.uint64(1))
    return int(seed)


def _check_players(n_players: object, rules: Rules) -> int:
    if isinstance(n_players, bool) or not isinstance(n_players, int | np.integer):
        raise ValueError(f"n_players must be a whole number; got {n_players!r}")
    try:
        rules.starting_chips(int(n_players))
    except ValueError as e:
        raise ValueError(f"n_players={n_players} is not allowed by the rules: {e}") from None
    return int(n_players)


def _check_rules(rules: Rules | None) -> Rules:
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nothanks_lab.Rules; got {type(rules).__name__}")
    return rules


def _check_confidence(confidence: object) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        raise ValueError(f"confidence must be a number in (0, 1); got {confidence!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), e.g. 0.95; got {confidence!r}")
    return float(confidence)


def _has_fast_path(policy: object) -> bool:
    # The simulator's own test (imported late: it is where numba lives).
    from .fast import has_fast_path

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


def _batches(chunk: _Chunk) -> Iterator[tuple[int, tuple[int, ...], np.ndarray, tuple[int, ...]]]:
    """Every batch of games of a chunk: (slot, bot per seat, deal rows, reseed key), in order.

    ``slot`` numbers the seatings of one deal (lineup by lineup, then within the coset);
    ``rows`` are the chunk's deals (0-based) that play this coset: one array object per coset.
    """
    from .deals import stream_key

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
    from .deals import deal_decks
    from .fast import fast_table
    from .simulation import _outcome, simulate

    plan = chunk.plan
    n_seats = len(plan.lineups[0])
    shape = (plan.seatings_per_deal, chunk.count, n_seats)
    if games is None:
        games = _Games.zeros(shape)
    decks = deal_decks(chunk.rules, chunk.seed, chunk.start, chunk.count)
    decisions = 0
    # All compiled: one kernel table for the field, reindexed per seating (no per-game Python).
    table = fast_table(plan.policies, chunk.rules)
    chips0 = chunk.rules.starting_chips(n_seats)
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
            r = _outcome(points, chips, moves, (), None, 0)
        else:
            policies = _fresh_policies(plan.policies, chunk.seed, key)
            r = simulate(
                [policies[b] for b in seating],
                decks=d,
                rules=chunk.rules,
                first_player=chunk.first_player,
            )
        decisions += int(np.asarray(r.n_decisions).sum())
        games.bots[slot, rows] = seating
        games.scores[slot, rows] = r.scores
        games.card_points[slot, rows] = r.card_points
        games.chips[slot, rows] = r.chips
        games.win_share[slot, rows] = r.win_share
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
    from .fast import jit_pure

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
    if x.shape[0] * biggest * biggest < 2**62:
        return (x.T @ x).tolist()
    x = x.astype(object)
    return (x.T @ x).tolist()


def _run_plans(
    plans: Sequence[_Plan],
    *,
    n_games: int,
    seed: int,
    rules: Rules,
    first_player: int,
    chunk_size: int | None,
    executor: Any,
    workers: int | None,
    progress: bool | None,
    desc: str,
) -> list[_Sums]:
    """Play every plan on the same deals, chunked; one exact `_Sums` per plan."""
    if chunk_size is None:
        fast = all(_has_fast_path(p) for plan in plans for p in plan.policies)
        chunk_size = FAST_CHUNK if fast else SLOW_CHUNK
    chunk_size = _check_int(chunk_size, "chunk_size", 1)
    per_plan = -(-n_games // chunk_size)
    n_tasks = per_plan * len(plans)

    def chunks() -> Iterator[_Chunk]:
        # Made one at a time, as the executor has room: memory never grows with n_games.
        for i, plan in enumerate(plans):
            for s in range(0, n_games, chunk_size):
                yield _Chunk(plan, i, rules, seed, s, min(chunk_size, n_games - s), first_player)

    if progress is None:
        progress = n_tasks > 1
    totals: list[_Sums | None] = [None] * len(plans)
    with open_executor(executor, workers, n_tasks=n_tasks) as ex:
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
        if len(lineup) != n_players or not all(
            isinstance(b, int | np.integer) and not isinstance(b, bool) and 0 <= b < n_bots
            for b in lineup
        ):
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


def _means_and_cis(
    x1: Sequence[int],
    x2: Sequence[Sequence[int]],
    k: Sequence[int],
    n: int,
    unit: int,
    confidence: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Means per game and Student-t intervals over deals, from exact per-deal sums.

    Item ``b``'s per-deal value is ``X_b / (k_b * unit)``; ``x1`` sums ``X_b`` over deals,
    ``x2[b][b]`` sums its squares.
    """
    means = np.array([x1[b] / (n * k[b] * unit) for b in range(len(x1))])
    cis = np.full((len(x1), 2), math.nan)
    if n >= 2:
        t = _t_quantile(confidence, n)
        for b in range(len(x1)):
            var = Fraction(n * x2[b][b] - x1[b] ** 2, n * (n - 1) * k[b] ** 2 * unit**2)
            half = t * math.sqrt(float(var) / n)
            cis[b] = (means[b] - half, means[b] + half)
    return means, cis


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Comparison:
    """A paired difference ``a - b`` between two bots on the same deals, with its interval."""

    metric: str
    """``"win_share"`` or ``"mean_score"``."""
    a: str
    """Name of the first bot."""
    b: str
    """Name of the second bot."""
    diff: float
    """Mean of ``a``'s per-deal value minus ``b``'s."""
    low: float
    """Lower end of the confidence interval of `diff`."""
    high: float
    """Upper end of the confidence interval of `diff`."""

    def __str__(self) -> str:
        ci = f"[{self.low:+.4f}, {self.high:+.4f}]"
        return f"{self.a} - {self.b} {self.metric}: {self.diff:+.4f} {ci}"


@dataclass(frozen=True, eq=False)
class Pairwise:
    """Head-to-head record of every pair of bots over the games in which both sat.

    ``share[a, b]``: the share of those games in which ``a`` finished with a lower score than
    ``b``, a tie counting one half (so ``share[a, b] + share[b, a] == 1``); NaN where the two
    never met and on the diagonal. ``low``/``high``: its confidence interval (Student-t over
    deals, the independent units).
    """

    names: tuple[str, ...]
    share: np.ndarray
    low: np.ndarray
    high: np.ndarray
    games: np.ndarray
    """int[bots, bots]: games in which both sat."""
    confidence: float


@dataclass(frozen=True, eq=False)
class Ratings:
    """Bradley–Terry ratings on the Elo scale: 400 points is 10-to-1 odds in a head-to-head.

    Fitted by maximum likelihood to the pairwise records (`TournamentResult.pairwise`), with a
    half-game prior each way per pair so that a bot that never loses still gets a finite
    rating. Centred on `anchor` (0 there) or on the field's mean. The intervals come from a
    parametric bootstrap over the pairwise shares (their per-deal standard errors), refitted
    each time; they ignore the correlation between pairs, so read them as approximate.
    """

    names: tuple[str, ...]
    rating: np.ndarray
    low: np.ndarray
    high: np.ndarray
    anchor: str | None
    confidence: float

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per bot, best first."""
        order = np.argsort(-self.rating, kind="stable")
        return [
            {
                "bot": self.names[b],
                "rating": float(self.rating[b]),
                "low": float(self.low[b]),
                "high": float(self.high[b]),
            }
            for b in order
        ]

    def __str__(self) -> str:
        pct = f"{self.confidence * 100:g}%"
        head = ["bot", "rating", f"{pct} CI"]
        rows = [
            [r["bot"], f"{r['rating']:+.0f}", f"[{r['low']:+.0f}, {r['high']:+.0f}]"]
            for r in self.to_records()
        ]
        return "Bradley–Terry ratings (Elo scale)\n" + _text_table(head, rows, {1, 2})


_ELO = 400 / math.log(10)


def _bradley_terry(wins: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Bradley–Terry strengths (natural-log scale, mean 0) by Hunter's MM iteration.

    `wins` is ``[..., bots, bots]`` (a batch of win tables at once), `games` ``[bots, bots]``.
    A half-game prior each way per pair that met keeps every strength finite.
    """
    met = games > 0
    w = np.where(met, wins + 0.5, 0.0)
    n = np.where(met, games + 1.0, 0.0)
    total = w.sum(axis=-1)
    pi = np.ones(w.shape[:-1])
    for _ in range(10_000):
        denom = (n / (pi[..., :, None] + pi[..., None, :])).sum(axis=-1)
        new = total / denom
        new /= np.exp(np.log(new).mean(axis=-1, keepdims=True))
        done = np.abs(np.log(new) - np.log(pi)).max() < 1e-10
        pi = new
        if done:
            break
    r = np.log(pi)
    return r - r.mean(axis=-1, keepdims=True)


@dataclass(frozen=True, eq=False)
class TournamentResult:
    """Per-bot win shares and mean scores with confidence intervals; best first in tables.

    Win share: the share of games won, a win shared by k tied players counting 1/k (a bot
    as good as its table wins 1/P). Mean score: lower is better.
    """

    names: tuple[str, ...]
    """Bot names, in field order (repeats get ``#2``...)."""
    n_players: int
    """Seats at the table."""
    n_deals: int
    """Deals played; each one in every seating."""
    seed: int
    """Seed of the deal stream (rerun with it to get the same table)."""
    lineups: tuple[tuple[int, ...], ...]
    """Which bots sit down together: field index per lineup position."""
    confidence: float
    """Confidence level of the intervals, e.g. 0.95."""
    sums: _Sums = field(repr=False)
    """Exact integer sums behind every number."""
    policies: tuple[Any, ...] = field(default=(), repr=False)
    """The field as played (copies are reseeded per batch; see `replay`)."""
    rules: Rules = field(default_factory=Rules, repr=False)
    """The rule set the deals were played under."""
    first_player: int = 0
    """The seat that acted first in every game."""
    chunk_size: int = 0
    """Deals per unit of work (records and replays rebuild the same batches)."""

    # ---------------------------------------------------------------- numbers per bot
    @property
    def seatings_per_deal(self) -> int:
        """Games each deal was played in: one balanced block of seatings per lineup."""
        return _Plan(self.policies, self.lineups).seatings_per_deal

    @property
    def n_games(self) -> int:
        """Games played in all: deals x seatings per deal."""
        return self.n_deals * self.seatings_per_deal

    @property
    def seats_per_deal(self) -> np.ndarray:
        """int[bots]: seats each bot holds per deal, summed over its seatings."""
        counts = np.zeros(len(self.names), dtype=np.int64)
        for blocks in _Plan(self.policies, self.lineups).blocks:
            for seating in blocks[0]:
                for b in seating:
                    counts[b] += 1
        return counts

    @property
    def games(self) -> np.ndarray:
        """int[bots]: games each bot played (a bot in two seats of a game counts twice)."""
        return self.seats_per_deal * self.n_deals

    @property
    def win_share(self) -> np.ndarray:
        """float[bots]: mean win share per game played."""
        return self._mean("win_share")

    @property
    def win_share_ci(self) -> np.ndarray:
        """float[bots, 2]: confidence interval of `win_share`."""
        return self._ci("win_share")

    @property
    def mean_score(self) -> np.ndarray:
        """float[bots]: mean final score per game played (lower is better)."""
        return self._mean("mean_score")

    @property
    def score_ci(self) -> np.ndarray:
        """float[bots, 2]: confidence interval of `mean_score`."""
        return self._ci("mean_score")

    @property
    def seat_win_share(self) -> np.ndarray:
        """float[P]: win share of each seat position (seat 0 acts first unless moved)."""
        return self._seat("win_share")[0]

    @property
    def seat_win_share_ci(self) -> np.ndarray:
        """float[P, 2]: confidence interval of `seat_win_share` (over deals)."""
        return self._seat("win_share")[1]

    @property
    def seat_mean_score(self) -> np.ndarray:
        """float[P]: mean score of each seat position."""
        return self._seat("mean_score")[0]

    @property
    def seat_score_ci(self) -> np.ndarray:
        """float[P, 2]: confidence interval of `seat_mean_score` (over deals)."""
        return self._seat("mean_score")[1]

    def _seat(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        if metric == "win_share":
            y1, y2, unit = self.sums.seat_win, self.sums.seat_win2, WIN_UNIT
        else:
            y1, y2, unit = self.sums.seat_score, self.sums.seat_score2, 1
        return _means_and_cis(
            y1, y2, [self.seatings_per_deal] * len(y1), self.n_deals, unit, self.confidence
        )

    @property
    def mean_decisions(self) -> float:
        """Mean number of decisions per game."""
        return self.sums.decisions / self.n_games

    def ranking(self) -> list[int]:
        """Bot indices, best first: highest win share, then lowest mean score."""
        ws, ms = self.win_share, self.mean_score
        return sorted(range(len(self.names)), key=lambda b: (-ws[b], ms[b], self.names[b]))

    def index(self, bot: int | str) -> int:
        """The field index of a bot given by index or name."""
        if isinstance(bot, str):
            if bot not in self.names:
                raise ValueError(f"no bot named {bot!r}; the field is {list(self.names)}")
            return self.names.index(bot)
        if (
            isinstance(bot, bool)
            or not isinstance(bot, int | np.integer)
            or not 0 <= bot < len(self.names)
        ):
            raise ValueError(
                f"bot must be a name or an index in 0..{len(self.names) - 1}; got {bot!r}"
            )
        return int(bot)

    def compare(self, a: int | str, b: int | str, metric: str = "win_share") -> Comparison:
        """Paired difference of two bots' per-deal values (``a - b``) with its interval.

        Both bots played the same deals, so the interval is much tighter than one built
        from two separate intervals.
        """
        ia, ib = self.index(a), self.index(b)
        x1, x2, unit = self._raw(metric)
        n = self.n_deals
        ka, kb = (int(k) for k in self.seats_per_deal[[ia, ib]])
        diff = Fraction(x1[ia], n * ka * unit) - Fraction(x1[ib], n * kb * unit)
        if n < 2:
            return Comparison(
                metric, self.names[ia], self.names[ib], float(diff), math.nan, math.nan
            )

        def cov(i: int, j: int, ki: int, kj: int) -> Fraction:
            return Fraction(n * x2[i][j] - x1[i] * x1[j], n * (n - 1) * ki * kj * unit * unit)

        var = cov(ia, ia, ka, ka) + cov(ib, ib, kb, kb) - 2 * cov(ia, ib, ka, kb)
        half = _t_quantile(self.confidence, n) * math.sqrt(max(float(var), 0.0) / n)
        return Comparison(
            metric,
            self.names[ia],
            self.names[ib],
            float(diff),
            float(diff) - half,
            float(diff) + half,
        )

    def _raw(self, metric: str) -> tuple[list[int], list[list[int]], int]:
        if metric == "win_share":
            return self.sums.win, self.sums.win2, WIN_UNIT
        if metric == "mean_score":
            return self.sums.score, self.sums.score2, 1
        raise ValueError(f"metric must be 'win_share' or 'mean_score'; got {metric!r}")

    def _mean(self, metric: str) -> np.ndarray:
        return self._means_cis(metric)[0]

    def _ci(self, metric: str) -> np.ndarray:
        return self._means_cis(metric)[1]

    def _means_cis(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        x1, x2, unit = self._raw(metric)
        k = [int(c) for c in self.seats_per_deal]
        return _means_and_cis(x1, x2, k, self.n_deals, unit, self.confidence)

    # ---------------------------------------------------------------- structure
    def _meets(self) -> np.ndarray:
        """int[bots, bots]: per deal, the games in which bots a and b both sat."""
        n_bots = len(self.names)
        meets = np.zeros((n_bots, n_bots), dtype=np.int64)
        for blocks in _Plan(self.policies, self.lineups).blocks:
            for seating in blocks[0]:
                for a in set(seating):
                    for b in set(seating):
                        if a != b:
                            meets[a, b] += seating.count(a) * seating.count(b)
        return meets

    def pairwise(self) -> Pairwise:
        """Each pair's head-to-head record with intervals (see `Pairwise`).

        >>> r = tournament(["marginal:threshold=10", "marginal:threshold=-40", "marginal"],
        ...                n_games=200, seed=1)
        >>> pw = r.pairwise()
        >>> bool(pw.low[0, 1] > 0.5), float(pw.share[0, 1] + pw.share[1, 0])
        (True, 1.0)
        """
        m = self._meets()
        n = self.n_deals
        z1 = np.array(self.sums.beat, dtype=np.float64)
        z2 = np.array(self.sums.beat2, dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            unit = 2.0 * m
            share = z1 / (n * unit)
            if n >= 2:
                var = (n * z2 - z1**2) / (n * (n - 1) * unit**2)
                half = _t_quantile(self.confidence, n) * np.sqrt(np.maximum(var, 0) / n)
            else:
                half = np.full_like(share, math.nan)
        share[m == 0] = math.nan
        return Pairwise(self.names, share, share - half, share + half, m * n, self.confidence)

    def ratings(
        self, anchor: int | str | None = None, *, n_boot: int = 200, seed: int = 0
    ) -> Ratings:
        """Bradley–Terry ratings of the field on the Elo scale (see `Ratings`).

        Every pair must be connected through games (the default lineups always are).

        >>> r = tournament(["marginal:threshold=10", "marginal:threshold=-40",
        ...                 "marginal:threshold=0"], n_games=200, seed=1)
        >>> rt = r.ratings(anchor="MarginalCostBot(threshold=-40)")
        >>> rt.names[int(rt.rating.argmax())], float(rt.rating[1])
        ('MarginalCostBot(threshold=10)', 0.0)
        """
        pw = self.pairwise()
        games = pw.games.astype(np.float64)
        wins = np.nan_to_num(pw.share) * games
        ref = None if anchor is None else self.index(anchor)
        n_boot = _check_int(n_boot, "n_boot", 0)

        def fit(w: np.ndarray) -> np.ndarray:
            r = _bradley_terry(w, games) * _ELO
            return r - (r[..., [ref]] if ref is not None else 0.0)

        rating = fit(wins)
        low = np.full_like(rating, math.nan)
        high = np.full_like(rating, math.nan)
        if n_boot > 0 and self.n_deals >= 2:
            rng = np.random.default_rng(seed)
            se = (pw.high - pw.low) / (2 * _t_quantile(self.confidence, self.n_deals))
            upper = np.triu(games > 0, 1)
            p = np.clip(
                rng.normal(np.nan_to_num(pw.share), np.nan_to_num(se), size=(n_boot, *games.shape)),
                0,
                1,
            )
            p = np.where(upper, p, 0)
            p = p + np.where(upper.T, 1 - np.swapaxes(p, -1, -2), 0)
            draws = fit(p * games)
            alpha = 1 - self.confidence
            low, high = np.quantile(draws, [alpha / 2, 1 - alpha / 2], axis=0)
        return Ratings(
            self.names,
            rating,
            low,
            high,
            None if ref is None else self.names[ref],
            self.confidence,
        )

    # ---------------------------------------------------------------- games one by one
    def _plan(self) -> _Plan:
        if not self.policies:
            raise ValueError("this result does not carry its field; rerun the tournament")
        return _Plan(self.policies, self.lineups)

    def _chunks(self) -> Iterator[_Chunk]:
        plan, size = self._plan(), self.chunk_size
        for start in range(0, self.n_deals, size):
            count = min(size, self.n_deals - start)
            yield _Chunk(plan, 0, self.rules, self.seed, start, count, self.first_player)

    def seatings_of(self, deal: int) -> list[tuple[int, ...]]:
        """The seatings (bot index per seat) deal `deal` was played in, in slot order."""
        if isinstance(deal, bool) or not isinstance(deal, int | np.integer):
            raise ValueError(f"deal must be a whole number; got {deal!r}")
        if not 0 <= deal < self.n_deals:
            raise ValueError(f"deal must be in 0..{self.n_deals - 1}; got {deal}")
        chunk = _Chunk(self._plan(), 0, self.rules, self.seed, int(deal), 1, self.first_player)
        return [seating for _, seating, _, _ in _batches(chunk)]

    def game_records(self) -> list[dict[str, Any]]:
        """One record per game and seat, rebuilt from the seed (the games are replayed).

        Keys: ``game`` (index, deal-major: ``deal * seatings_per_deal + slot``), ``deal``,
        ``lineup`` (index into `lineups`), ``slot``, ``seat``, ``bot`` (name), ``bot_index``,
        ``score``, ``card_points``, ``chips``, ``win_share``. `replay` rebuilds any game.

        >>> r = tournament(["marginal:threshold=10", "marginal:threshold=0", "random"], n_games=3,
        ...                seed=1)
        >>> recs = r.game_records()
        >>> len(recs) == r.n_games * 3, sorted(recs[0])[:4]
        (True, ['bot', 'bot_index', 'card_points', 'chips'])
        """
        plan = self._plan()
        n_slots, n_seats = self.seatings_per_deal, self.n_players
        slot_lineup = [li for li, b in enumerate(plan.blocks) for _ in b[0]]
        records: list[dict[str, Any]] = []
        for chunk in self._chunks():
            shape = (n_slots, chunk.count, n_seats)
            g = _Games.zeros(shape)
            _play_chunk(chunk, g)
            for d in range(chunk.count):
                deal = chunk.start + d
                for slot in range(n_slots):
                    for seat in range(n_seats):
                        b = int(g.bots[slot, d, seat])
                        records.append(
                            {
                                "game": deal * n_slots + slot,
                                "deal": deal,
                                "lineup": slot_lineup[slot],
                                "slot": slot,
                                "seat": seat,
                                "bot": self.names[b],
                                "bot_index": b,
                                "score": int(g.scores[slot, d, seat]),
                                "card_points": int(g.card_points[slot, d, seat]),
                                "chips": int(g.chips[slot, d, seat]),
                                "win_share": float(g.win_share[slot, d, seat]),
                            }
                        )
        return records

    def save_games(self, path: Any) -> None:
        """Write `game_records` to a Parquet file (needs pandas and pyarrow: the ``frames``
        extra)."""
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise ImportError(
                "save_games needs pyarrow (pip install 'nothanks_lab[frames]'); game_records() "
                "gives the same table as a list of dicts"
            ) from None
        self.game_frame().to_parquet(path, index=False)

    # ---------------------------------------------------------------- files
    def to_json(self) -> str:
        """The result as a versioned JSON document: every number behind the tables.

        The field itself is kept by name only, so a loaded result prints, compares and
        rates like the original, while `game_records` and `replay` need the original (or a
        rerun with the same seed).
        """
        doc = {
            "format": "nothanks_lab.tournament",
            "version": 1,
            "names": list(self.names),
            "n_players": self.n_players,
            "n_deals": self.n_deals,
            "seed": self.seed,
            "lineups": [list(lu) for lu in self.lineups],
            "confidence": self.confidence,
            "rules": dataclasses.asdict(self.rules),
            "first_player": self.first_player,
            "chunk_size": self.chunk_size,
            "sums": {f: getattr(self.sums, f) for f in _SUM_FIELDS},
        }
        return json.dumps(doc)

    @classmethod
    def from_json(cls, text: str) -> TournamentResult:
        """A result saved by `to_json`; a malformed or foreign document is a `ValueError`."""
        try:
            doc = json.loads(text)
        except (TypeError, ValueError) as e:
            raise ValueError(f"text is not a JSON document: {e}") from None
        if not isinstance(doc, dict) or doc.get("format") != "nothanks_lab.tournament":
            raise ValueError("format: not a nothanks_lab tournament result")
        if doc.get("version") != 1:
            raise ValueError(f"version: {doc.get('version')!r} is not a known version (1)")
        try:
            rules_doc = doc["rules"]
            rules = Rules(**{k: _tuples(v) for k, v in rules_doc.items()})
            sums = _Sums(**{f: doc["sums"][f] for f in _SUM_FIELDS})
            lineups = tuple(tuple(int(b) for b in lu) for lu in doc["lineups"])
            names = tuple(str(n) for n in doc["names"])
            result = cls(
                names,
                int(doc["n_players"]),
                int(doc["n_deals"]),
                int(doc["seed"]),
                lineups,
                float(doc["confidence"]),
                sums,
                (),
                rules,
                int(doc["first_player"]),
                int(doc["chunk_size"]),
            )
            _ = result.win_share_ci, result.pairwise()  # every number must be computable
        except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError) as e:
            raise ValueError(f"the document is inconsistent: {type(e).__name__}: {e}") from None
        return result

    def game_frame(self) -> Any:
        """`game_records` as a pandas DataFrame (needs pandas, which is optional)."""
        return _frame(self.game_records())

    def replay(self, i: int) -> Any:
        """Game `i` (as numbered by `game_records`) replayed through the one-game engine.

        Returns the finished `nothanks_lab.Game`: same deal, same seating, same moves, so its
        ``scores()`` equal the records'. A randomized bot replays the same draws: its batch of
        games is replayed in order up to game `i`.
        """
        from .engine import Game
        from .play import play_out

        n_slots = self.seatings_per_deal
        total = self.n_deals * n_slots
        if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < total:
            raise ValueError(f"i must be a game index in 0..{total - 1}; got {i!r}")
        deal, slot = divmod(int(i), n_slots)
        start = deal - deal % self.chunk_size
        chunk = _Chunk(
            self._plan(),
            0,
            self.rules,
            self.seed,
            start,
            min(self.chunk_size, self.n_deals - start),
            self.first_player,
        )
        from .deals import deal_decks

        decks = deal_decks(self.rules, self.seed, start, chunk.count)
        for s, seating, rows, key in _batches(chunk):
            if s != slot or deal - start not in rows:
                continue
            policies = _fresh_policies(self.policies, self.seed, key)
            seated = [policies[b] for b in seating]
            # Deterministic bots need only this deal; a randomized one (no compiled path)
            # drew from its generator on every earlier game of the batch, in deal order.
            compiled = all(map(_has_fast_path, seated))
            earlier: np.ndarray = rows[rows < deal - start] if not compiled else rows[:0]
            for row in earlier:
                play_out(
                    Game(
                        self.n_players,
                        rules=self.rules,
                        deck=decks[row],
                        first_player=self.first_player,
                    ),
                    seated,
                )
            game = Game(
                self.n_players,
                rules=self.rules,
                deck=decks[deal - start],
                first_player=self.first_player,
            )
            return play_out(game, seated)
        raise AssertionError("every deal is played in every slot")  # pragma: no cover

    # ---------------------------------------------------------------- tables
    def to_records(self) -> list[dict[str, Any]]:
        """A tidy table, best first: one dict per bot (for plotting or a DataFrame)."""
        ws, wci = self.win_share, self.win_share_ci
        ms, sci = self.mean_score, self.score_ci
        games = self.games
        return [
            {
                "rank": rank,
                "bot": self.names[b],
                "games": int(games[b]),
                "deals": self.n_deals,
                "n_players": self.n_players,
                "win_share": float(ws[b]),
                "win_share_low": float(wci[b, 0]),
                "win_share_high": float(wci[b, 1]),
                "mean_score": float(ms[b]),
                "score_low": float(sci[b, 0]),
                "score_high": float(sci[b, 1]),
            }
            for rank, b in enumerate(self.ranking(), start=1)
        ]

    def to_frame(self) -> Any:
        """The tidy table as a pandas DataFrame (needs pandas, which is optional)."""
        return _frame(self.to_records())

    def _title(self) -> str:
        pct = f"{self.confidence * 100:g}%"
        return (
            f"No Thanks! tournament: {self.n_players} players, {self.n_deals:,} deals x "
            f"{self.seatings_per_deal} seatings = {self.n_games:,} games, seed {self.seed}, "
            f"{pct} CI"
        )

    def _rows(self) -> tuple[list[str], list[list[str]]]:
        head = [
            "rank",
            "bot",
            "games",
            "win share",
            "95% CI" if self.confidence == 0.95 else f"{self.confidence:.0%} CI",
            "mean score",
            "CI",
        ]
        rows = [
            [
                str(r["rank"]),
                r["bot"],
                f"{r['games']:,}",
                f"{r['win_share']:.4f}",
                _fmt_ci(r["win_share_low"], r["win_share_high"], 4),
                f"{r['mean_score']:.2f}",
                _fmt_ci(r["score_low"], r["score_high"], 2),
            ]
            for r in self.to_records()
        ]
        return head, rows

    def __str__(self) -> str:
        head, rows = self._rows()
        return self._title() + "\n" + _text_table(head, rows, right={0, 2, 3, 5})

    def _repr_html_(self) -> str:
        head, rows = self._rows()
        return _html_table(self._title(), head, rows)

    def __repr__(self) -> str:
        return (
            f"TournamentResult({len(self.names)} bots, {self.n_players} players, "
            f"{self.n_deals} deals, seed={self.seed})"
        )


def _t_quantile(confidence: float, n: int) -> float:
    from scipy import stats

    return float(stats.t.ppf(0.5 + confidence / 2, n - 1)) if n >= 2 else math.nan


def _fmt_ci(low: float, high: float, digits: int) -> str:
    if math.isnan(low):
        return "n/a"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def _text_table(head: list[str], rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(head), line(["-" * w for w in widths]), *map(line, rows)])


def _html_table(title: str, head: list[str], rows: list[list[str]]) -> str:
    esc = html.escape
    th = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f'<table class="nothanks-tournament"><caption>{esc(title)}</caption>'
        f"<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
    )


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples a frozen dataclass holds."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _frame(records: list[dict[str, Any]]) -> Any:
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            "to_frame() needs pandas (pip install pandas); to_records() gives the same table "
            "as a list of dicts"
        ) from None
    return pd.DataFrame.from_records(records)


# --------------------------------------------------------------------------- tournaments
def tournament(
    bots: Sequence[Any],
    n_players: int | None = None,
    n_games: int = 1_000,
    *,
    seed: int | None = None,
    rules: Rules | None = None,
    lineups: Iterable[Sequence[int]] | None = None,
    first_player: int = 0,
    chunk_size: int | None = None,
    executor: Any = None,
    workers: int | None = None,
    progress: bool | None = None,
    confidence: float = 0.95,
) -> TournamentResult:
    """Play a field of bots against each other on paired deals with balanced seating.

    Args:
        bots: the field: policies, registered names like ``"marginal:threshold=10"``, or
            ``(name, params)`` pairs. The same object may appear more than once.
        n_players: seats at the table (default: the size of the field).
        n_games: number of deals; each is played in a balanced block of seatings per
            lineup, so the games played are ``n_games x result.seatings_per_deal``.
        seed: seed of the deal stream (None: fresh entropy, recorded in the result).
        rules: the rule set (default: the standard game).
        lineups: which bots sit down together, as tuples of field indices, one per seat.
            Each deal seats each lineup in a balanced block of seatings (every order for up
            to 4 players; for more, a block in which every bot holds every seat and sits
            directly after every other equally often, drawn at random per deal: see
            :mod:`nothanks_lab.seating`). Default: every combination of P bots of the field
            (just the field itself when it has exactly P bots).
        first_player: the seat that acts first in every game.
        chunk_size: deals per unit of work (default: 5,000 when every bot has a compiled
            fast path, else 200). Results never depend on the executor or the number of
            workers; randomized bots are reseeded per chunk, so theirs depend on chunk_size.
        executor: a ``concurrent.futures`` executor or ``dask.distributed.Client``.
        workers: without `executor`, the number of local worker processes (default 1).
        progress: show a progress bar (default: when there is more than one chunk).
        confidence: level of the intervals.

    >>> t = tournament(["marginal:threshold=10", "marginal:threshold=-40", "marginal:threshold=0"],
    ...                n_games=200, seed=1)
    >>> best = t.to_records()[0]
    >>> best["bot"], best["games"], bool(best["win_share_low"] > 1 / 3)
    ('MarginalCostBot(threshold=10)', 1200, True)
    """
    rules = _check_rules(rules)
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence) or not bots:
        raise ValueError("bots must be a non-empty list of bots or bot specs")
    policies = tuple(make_policy(b) for b in bots)
    if n_players is None:
        n_players = len(policies)
        try:
            rules.starting_chips(n_players)
        except ValueError as e:
            raise ValueError(
                f"a field of {n_players} bots cannot sit at one table ({e}); give n_players "
                f"(every combination of that many bots then plays), or use head_to_head for "
                f"a bot against copies of another"
            ) from None
    n_players = _check_players(n_players, rules)
    n_games = _check_int(n_games, "n_games", 1)
    first_player = _check_first_player(first_player, n_players)
    confidence = _check_confidence(confidence)
    seed = _check_seed(seed)
    plan = _Plan(policies, _lineups(len(policies), n_players, lineups))
    chunk_size = _default_chunk_size([plan], chunk_size)
    (sums,) = _run_plans(
        [plan],
        n_games=n_games,
        seed=seed,
        rules=rules,
        first_player=first_player,
        chunk_size=chunk_size,
        executor=executor,
        workers=workers,
        progress=progress,
        desc="tournament",
    )
    return _result(
        plan, n_players, n_games, seed, confidence, sums, rules, first_player, chunk_size
    )


def _default_chunk_size(plans: Sequence[_Plan], chunk_size: int | None) -> int:
    """Deals per unit of work: smaller when some bot plays through the one-game engine."""
    if chunk_size is None:
        fast = all(_has_fast_path(p) for plan in plans for p in plan.policies)
        return FAST_CHUNK if fast else SLOW_CHUNK
    return _check_int(chunk_size, "chunk_size", 1)


def _result(
    plan: _Plan,
    n_players: int,
    n_games: int,
    seed: int,
    confidence: float,
    sums: _Sums,
    rules: Rules,
    first_player: int,
    chunk_size: int,
) -> TournamentResult:
    return TournamentResult(
        _unique_names(plan.policies),
        n_players,
        n_games,
        seed,
        plan.lineups,
        confidence,
        sums,
        plan.policies,
        rules,
        first_player,
        chunk_size,
    )


def _check_first_player(first_player: object, n_players: int) -> int:
    from .engine import check_seat

    return check_seat(first_player, n_players, "first_player")


def _opponent_field(opponents: Any, n_players: int) -> tuple[list[Any], tuple[int, ...]]:
    """Opponent policies and the lineup positions they fill (copies of one, or P-1 given)."""
    if isinstance(opponents, list | tuple) and not (
        isinstance(opponents, tuple)
        and len(opponents) == 2
        and isinstance(opponents[0], str)
        and isinstance(opponents[1], Mapping)
    ):
        if len(opponents) != n_players - 1:
            raise ValueError(
                f"give one opponent (copies fill the other seats) or exactly {n_players - 1} "
                f"opponents for {n_players} players; got {len(opponents)}"
            )
        ops = [make_policy(o) for o in opponents]
        return ops, tuple(range(1, n_players))
    return [make_policy(opponents)], (1,) * (n_players - 1)


def head_to_head(
    candidate: Any,
    opponent: Any,
    n_players: int,
    n_games: int = 1_000,
    seed: int | None = None,
    **options: Any,
) -> TournamentResult:
    """The common analysis "candidate against P-1 copies of opponent", seating balanced.

    `opponent` may also be a list of P-1 opponents. The candidate sits in every seat once
    per deal; ``result.win_share[0]`` is its win share (1/P means no better than its table).
    `options` are those of `tournament` (rules, executor, workers, chunk_size, ...).

    >>> r = head_to_head("marginal:threshold=10", "marginal:threshold=-40", 3, 100, seed=2)
    >>> r.seatings_per_deal, bool(r.win_share_ci[0, 0] > 1 / 3)
    (3, True)
    """
    rules = _check_rules(options.pop("rules", None))
    n_players = _check_players(n_players, rules)
    ops, positions = _opponent_field(opponent, n_players)
    return tournament(
        [make_policy(candidate), *ops],
        n_players,
        n_games,
        seed=seed,
        rules=rules,
        lineups=[(0, *positions)],
        **options,
    )


# --------------------------------------------------------------------------- sweeps
def _candidate_factory(make_candidate: Any) -> Callable[..., Any]:
    if isinstance(make_candidate, str):
        from .bots import make_bot

        name = make_candidate

        def build(**params: Any) -> Any:
            return make_bot(name, **params)

        return build
    if callable(make_candidate):
        return make_candidate
    raise ValueError(
        f"make_candidate must be a registered bot name or a callable(**params) -> policy; "
        f"got {make_candidate!r}"
    )


def _grid_points(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    if not isinstance(grid, Mapping) or not grid:
        raise ValueError("grid must be a non-empty dict of parameter name -> list of values")
    for name, values in grid.items():
        if isinstance(values, str) or not isinstance(values, Iterable) or not list(values):
            raise ValueError(f"grid[{name!r}] must be a non-empty list of values")
    names = list(grid)
    return [
        dict(zip(names, combo, strict=True))
        for combo in itertools.product(*map(list, grid.values()))
    ]


@dataclass(frozen=True, eq=False)
class SweepResult:
    """A candidate's results at every grid point, all on the same deals."""

    points: tuple[dict[str, Any], ...]
    """Parameter values of each grid point."""
    results: tuple[TournamentResult, ...]
    """The head-to-head tournament at each grid point (candidate is bot 0)."""

    @property
    def win_share(self) -> np.ndarray:
        """float[points]: the candidate's win share at each grid point."""
        return np.array([r.win_share[0] for r in self.results])

    @property
    def mean_score(self) -> np.ndarray:
        """float[points]: the candidate's mean score at each grid point."""
        return np.array([r.mean_score[0] for r in self.results])

    def best(self, metric: str = "win_share") -> dict[str, Any]:
        """Parameters of the best grid point (highest win share, or lowest mean score)."""
        if metric == "win_share":
            return dict(self.points[int(np.argmax(self.win_share))])
        if metric == "mean_score":
            return dict(self.points[int(np.argmin(self.mean_score))])
        raise ValueError(f"metric must be 'win_share' or 'mean_score'; got {metric!r}")

    def to_records(self) -> list[dict[str, Any]]:
        """A tidy table: one dict per grid point with the candidate's numbers and intervals."""
        rows = []
        for point, r in zip(self.points, self.results, strict=True):
            wci, sci = r.win_share_ci[0], r.score_ci[0]
            rows.append(
                {
                    **point,
                    "candidate": r.names[0],
                    "games": int(r.games[0]),
                    "deals": r.n_deals,
                    "n_players": r.n_players,
                    "win_share": float(r.win_share[0]),
                    "win_share_low": float(wci[0]),
                    "win_share_high": float(wci[1]),
                    "mean_score": float(r.mean_score[0]),
                    "score_low": float(sci[0]),
                    "score_high": float(sci[1]),
                }
            )
        return rows

    def to_frame(self) -> Any:
        """The tidy table as a pandas DataFrame (needs pandas, which is optional)."""
        return _frame(self.to_records())

    def _rows(self) -> tuple[list[str], list[list[str]]]:
        names = list(self.points[0]) if self.points else []
        head = [*names, "win share", "CI", "mean score", "CI"]
        rows = [
            [
                *(f"{p[n]:g}" if isinstance(p[n], float) else str(p[n]) for n in names),
                f"{r['win_share']:.4f}",
                _fmt_ci(r["win_share_low"], r["win_share_high"], 4),
                f"{r['mean_score']:.2f}",
                _fmt_ci(r["score_low"], r["score_high"], 2),
            ]
            for p, r in zip(self.points, self.to_records(), strict=True)
        ]
        return head, rows

    def _title(self) -> str:
        r = self.results[0]
        ops = ", ".join(sorted(set(r.names[1:])))
        return (
            f"Sweep: candidate vs {ops}; {r.n_players} players, {r.n_deals:,} deals per point "
            f"x {r.seatings_per_deal} seatings, seed {r.seed}, {r.confidence:.0%} CI"
        )

    def __str__(self) -> str:
        head, rows = self._rows()
        n = len(head) - 4
        return self._title() + "\n" + _text_table(head, rows, right=set(range(n)) | {n, n + 2})

    def _repr_html_(self) -> str:
        head, rows = self._rows()
        return _html_table(self._title(), head, rows)

    def __repr__(self) -> str:
        return f"SweepResult({len(self.points)} points)"


def sweep(
    make_candidate: Any,
    grid: Mapping[str, Sequence[Any]],
    opponents: Any,
    n_players: int,
    n_games: int = 1_000,
    seed: int | None = None,
    executor: Any = None,
    *,
    workers: int | None = None,
    rules: Rules | None = None,
    first_player: int = 0,
    chunk_size: int | None = None,
    progress: bool | None = None,
    confidence: float = 0.95,
) -> SweepResult:
    """Evaluate a candidate at every point of a parameter grid on the same deals.

    Args:
        make_candidate: a registered bot name (``"marginal"``) or ``callable(**params)``
            returning a policy.
        grid: parameter name -> values; every combination is a grid point.
        opponents: one opponent (copies fill the other P-1 seats) or a list of P-1.
        n_players: seats at the table.
        n_games: deals per grid point, the same deals at every point (common random
            numbers), each played with the candidate in every seat.
        seed: seed of the deal stream (None: fresh entropy, recorded in the results).
        executor: where to run (see `tournament`); all grid points share it.

    Other arguments are those of `tournament`.

    >>> s = sweep("marginal", {"threshold": [-40, 10]}, "marginal:threshold=10", 3, 100, seed=1)
    >>> s.best()
    {'threshold': 10}
    """
    rules = _check_rules(rules)
    n_players = _check_players(n_players, rules)
    n_games = _check_int(n_games, "n_games", 1)
    first_player = _check_first_player(first_player, n_players)
    confidence = _check_confidence(confidence)
    seed = _check_seed(seed)
    build = _candidate_factory(make_candidate)
    points = _grid_points(grid)
    ops, positions = _opponent_field(opponents, n_players)
    lineups = ((0, *positions),)
    plans = [_Plan((make_policy(build(**p)), *ops), lineups) for p in points]
    chunk_size = _default_chunk_size(plans, chunk_size)
    sums = _run_plans(
        plans,
        n_games=n_games,
        seed=seed,
        rules=rules,
        first_player=first_player,
        chunk_size=chunk_size,
        executor=executor,
        workers=workers,
        progress=progress,
        desc="sweep",
    )
    results = tuple(
        _result(plan, n_players, n_games, seed, confidence, s, rules, first_player, chunk_size)
        for plan, s in zip(plans, sums, strict=True)
    )
    return SweepResult(tuple(points), results)


# --------------------------------------------------------------------------- tuning
@dataclass(frozen=True, eq=False)
class TuneResult:
    """The best parameters found, the evaluations made, and a check on fresh deals."""

    best_params: dict[str, Any]
    """Parameters with the best objective on the tuning deals."""
    best: TournamentResult
    """Head-to-head result at `best_params` on the tuning deals (optimistic: it was picked)."""
    validation: TournamentResult | None
    """Head-to-head result at `best_params` on independent deals (an honest estimate)."""
    history: tuple[dict[str, Any], ...]
    """Every evaluation in order: parameters, win share and mean score with intervals."""
    method: str
    """The scipy.optimize method used."""
    metric: str
    """``"win_share"`` (maximized) or ``"mean_score"`` (minimized)."""

    def to_records(self) -> list[dict[str, Any]]:
        """The evaluations as a tidy table (one dict per distinct parameter set tried).

        Column ``best`` marks the chosen parameters; on that row the ``fresh_*`` columns give
        the check on independent deals (None elsewhere, or when there was no validation).
        """
        cand = None
        if self.validation is not None:
            first = self.validation.names[0]
            cand = next((r for r in self.validation.to_records() if r["bot"] == first), None)
        rows = []
        for h in self.history:
            best = all(h.get(k) == v for k, v in self.best_params.items())
            row = {**h, "best": best}
            for key in ("win_share", "win_share_low", "win_share_high", "mean_score"):
                row[f"fresh_{key}"] = cand[key] if best and cand is not None else None
            rows.append(row)
        return rows

    def to_document(self) -> dict[str, Any]:
        """Everything as one JSON-ready dict: best parameters, both checks, the history."""
        cand = self.best.to_records()
        fresh = self.validation.to_records() if self.validation is not None else None
        return {
            "best_params": dict(self.best_params),
            "metric": self.metric,
            "method": self.method,
            "tuning_deals": cand,
            "fresh_deals": fresh,
            "history": [dict(h) for h in self.history],
        }

    def to_frame(self) -> Any:
        """The evaluations as a pandas DataFrame (needs pandas, which is optional)."""
        return _frame(self.to_records())

    def __str__(self) -> str:
        params = ", ".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in self.best_params.items()
        )
        lines = [
            f"Tuned ({self.method}, {len(self.history)} evaluations, {self.metric}): {params}",
            "on the tuning deals:",
            str(self.best),
        ]
        if self.validation is not None:
            lines += ["on fresh deals:", str(self.validation)]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        title = html.escape(str(self).splitlines()[0])
        parts = [f"<p><b>{title}</b></p>", "<p>on the tuning deals:</p>", self.best._repr_html_()]
        if self.validation is not None:
            parts += ["<p>on fresh deals:</p>", self.validation._repr_html_()]
        return "".join(parts)

    def __repr__(self) -> str:
        return f"TuneResult(best_params={self.best_params!r}, method={self.method!r})"


def tune(
    make_candidate: Any,
    bounds: Mapping[str, tuple[float, float]],
    opponents: Any,
    n_players: int,
    n_games: int = 1_000,
    seed: int | None = None,
    *,
    method: str | None = None,
    max_evals: int = 30,
    metric: str = "win_share",
    integer: Iterable[str] | None = None,
    validate: bool = True,
    executor: Any = None,
    workers: int | None = None,
    rules: Rules | None = None,
    first_player: int = 0,
    chunk_size: int | None = None,
    progress: bool | None = None,
    confidence: float = 0.95,
) -> TuneResult:
    """Tune a candidate's parameters against opponents with ``scipy.optimize``.

    Every evaluation is a `head_to_head` on the same deals (common random numbers), so
    differences between trial parameters are not drowned by the luck of the cards.

    Args:
        make_candidate: a registered bot name or ``callable(**params)`` returning a policy.
        bounds: parameter name -> (low, high) search range.
        opponents: one opponent (copies fill the other seats) or a list of P-1.
        n_players: seats at the table.
        n_games: deals per evaluation.
        seed: seed of the tuning deals (None: fresh entropy).
        method: for one parameter ``"grid-bounded"`` (the default: a coarse grid, then
            ``minimize_scalar`` between the best point's neighbours) or ``"bounded"``
            (``minimize_scalar`` alone); for any number ``"differential-evolution"`` (the
            default for several; seeded) or ``"nelder-mead"`` (local, from the middle).
        max_evals: budget of distinct evaluations (approximately, for differential evolution).
        metric: ``"win_share"`` (maximized) or ``"mean_score"`` (minimized).
        integer: parameters searched over whole numbers (default: those whose bounds are
            both ints, and those the bot declares as int).
        validate: also play the best parameters on independent deals (reported apart,
            since the best of many noisy evaluations is optimistic).

    Other arguments are those of `tournament`.

    >>> t = tune("marginal", {"threshold": (-20, 20)}, "marginal:threshold=10", 3, 100,
    ...          seed=1, max_evals=8, validate=False)
    >>> -20 <= t.best_params["threshold"] <= 20, len(t.history) <= 8
    (True, True)
    """
    from scipy import optimize

    rules = _check_rules(rules)
    n_players = _check_players(n_players, rules)
    n_games = _check_int(n_games, "n_games", 1)
    max_evals = _check_int(max_evals, "max_evals", 1)
    seed = _check_seed(seed)
    if metric not in ("win_share", "mean_score"):
        raise ValueError(f"metric must be 'win_share' or 'mean_score'; got {metric!r}")
    build = _candidate_factory(make_candidate)
    names, lows, highs = _check_bounds(bounds)
    ints = _integer_params(make_candidate, bounds, integer)
    method = method or ("grid-bounded" if len(names) == 1 else "differential-evolution")
    if method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(_METHODS)}; got {method!r}")
    if method in ("bounded", "grid-bounded") and len(names) != 1:
        raise ValueError(f"method {method!r} tunes one parameter; got {len(names)}: {names}")
    options: dict[str, Any] = {
        "rules": rules,
        "first_player": first_player,
        "chunk_size": chunk_size,
        "executor": executor,
        "workers": workers,
        "progress": False,
        "confidence": confidence,
    }
    cache: dict[tuple[Any, ...], TournamentResult] = {}
    history: list[dict[str, Any]] = []

    from tqdm.auto import tqdm

    bar = tqdm(
        total=max_evals, desc="tune", disable=not (progress or progress is None), leave=False
    )

    def params_of_x(x: Sequence[float]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, v, lo, hi in zip(names, x, lows, highs, strict=True):
            v = float(np.clip(v, lo, hi))
            out[name] = round(v) if name in ints else v
        return out

    def evaluate(params: dict[str, Any]) -> TournamentResult:
        key = tuple(params.values())
        if key not in cache:
            if len(cache) >= max_evals:
                raise _BudgetSpent
            r = head_to_head(build(**params), opponents, n_players, n_games, seed, **options)
            cache[key] = r
            wci, sci = r.win_share_ci[0], r.score_ci[0]
            history.append(
                {
                    **params,
                    "win_share": float(r.win_share[0]),
                    "win_share_low": float(wci[0]),
                    "win_share_high": float(wci[1]),
                    "mean_score": float(r.mean_score[0]),
                    "score_low": float(sci[0]),
                    "score_high": float(sci[1]),
                }
            )
            bar.update(1)
        return cache[key]

    def objective(x: Any) -> float:
        r = evaluate(params_of_x(np.atleast_1d(x).tolist()))
        return -float(r.win_share[0]) if metric == "win_share" else float(r.mean_score[0])

    # No more worker processes than one evaluation has chunks of work.
    probe = make_policy(build(**params_of_x([(lo + hi) / 2 for lo, hi in zip(lows, highs)])))
    ops, _ = _opponent_field(opponents, n_players)
    chunk = _default_chunk_size([_Plan((probe, *ops), ((0,),))], options.get("chunk_size"))
    with open_executor(executor, workers, n_tasks=-(-n_games // chunk)) as ex:
        options["executor"], options["workers"] = ex, None
        try:
            _optimize(optimize, method, objective, names, lows, highs, ints, max_evals, seed)
        except _BudgetSpent:
            pass  # the optimizer wanted more evaluations than allowed: keep the best so far
        finally:
            bar.close()
        best_key = min(cache, key=lambda k: _objective_value(cache[k], metric))
        best_params = dict(zip(names, best_key, strict=True))
        validation = None
        if validate:
            fresh = int(np.random.SeedSequence([seed, 1]).generate_state(1, np.uint64)[0] >> 1)
            validation = head_to_head(
                build(**best_params), opponents, n_players, n_games, fresh, **options
            )
    return TuneResult(best_params, cache[best_key], validation, tuple(history), method, metric)


_METHODS = ("grid-bounded", "bounded", "differential-evolution", "nelder-mead")


class _BudgetSpent(Exception):
    """Raised inside the objective to stop an optimizer at the evaluation budget."""


def _optimize(
    optimize: Any,
    method: str,
    objective: Callable[[Any], float],
    names: list[str],
    lows: list[float],
    highs: list[float],
    ints: set[str],
    max_evals: int,
    seed: int,
) -> None:
    """Run the chosen scipy.optimize method; the objective records every evaluation."""
    xatol = 0.5 if names[0] in ints else (highs[0] - lows[0]) * 1e-3
    if method == "bounded":
        optimize.minimize_scalar(
            objective,
            bounds=(lows[0], highs[0]),
            method="bounded",
            options={"maxiter": max_evals, "xatol": xatol},
        )
    elif method == "grid-bounded":
        # A win-share curve can have several peaks (a copy of the opponents is one), which
        # a bounded Brent search alone may miss: scan a coarse grid with half the budget,
        # then refine between the best point's neighbours.
        xs = np.linspace(lows[0], highs[0], max(3, max_evals // 2))
        values = [objective(x) for x in xs]
        i = int(np.argmin(values))
        lo, hi = xs[max(i - 1, 0)], xs[min(i + 1, len(xs) - 1)]
        if hi - lo > 2 * xatol:
            optimize.minimize_scalar(
                objective, bounds=(lo, hi), method="bounded", options={"xatol": xatol}
            )
    elif method == "nelder-mead":
        x0 = [(lo + hi) / 2 for lo, hi in zip(lows, highs, strict=True)]
        optimize.minimize(
            objective,
            x0,
            method="Nelder-Mead",
            bounds=list(zip(lows, highs, strict=True)),
            options={"maxfev": max_evals, "xatol": 0.5, "fatol": 1e-4},
        )
    else:
        popsize = 5
        optimize.differential_evolution(
            objective,
            list(zip(lows, highs, strict=True)),
            popsize=popsize,
            maxiter=max(1, max_evals // (popsize * len(names)) - 1),
            seed=seed,
            polish=False,
            integrality=[n in ints for n in names],
        )


def _objective_value(r: TournamentResult, metric: str) -> float:
    return -float(r.win_share[0]) if metric == "win_share" else float(r.mean_score[0])


def _check_bounds(
    bounds: Mapping[str, tuple[float, float]],
) -> tuple[list[str], list[float], list[float]]:
    if not isinstance(bounds, Mapping) or not bounds:
        raise ValueError("bounds must be a non-empty dict of parameter name -> (low, high)")
    names, lows, highs = [], [], []
    for name, b in bounds.items():
        try:
            lo, hi = (float(v) for v in b)
        except (TypeError, ValueError):
            raise ValueError(f"bounds[{name!r}] must be a (low, high) pair; got {b!r}") from None
        if not lo < hi:
            raise ValueError(f"bounds[{name!r}] must have low < high; got {b!r}")
        names.append(name)
        lows.append(lo)
        highs.append(hi)
    return names, lows, highs


def _integer_params(
    make_candidate: Any, bounds: Mapping[str, Any], integer: Iterable[str] | None
) -> set[str]:
    if integer is not None:
        ints = set(integer)
        unknown = ints - set(bounds)
        if unknown:
            raise ValueError(f"integer names {sorted(unknown)} that are not in bounds")
        return ints
    from .bots import params_of

    try:
        declared = params_of(make_candidate) if isinstance(make_candidate, str | type) else {}
    except ValueError:
        declared = {}
    # A declared parameter keeps its declared type (float bounds written as ints still search
    # floats); only an undeclared one is taken as whole-numbered from int bounds.
    ints = set()
    for name, b in bounds.items():
        kind = getattr(declared.get(name), "kind", None)
        if kind is int or (
            kind is None
            and all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in b)
        ):
            ints.add(name)
    return ints
