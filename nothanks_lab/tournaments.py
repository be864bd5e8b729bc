"""Tournaments, parameter sweeps and tuning, with honest confidence intervals.

A tournament seats a field of bots at a table of P seats in several *lineups* (which bots
sit down together) and plays every lineup in all P *rotations*, so every bot sits in every
seat position equally often. Deals are *paired*: deal ``i`` of the seeded stream is played
once in every seating, so the luck of the cards cancels out of comparisons. Each bot's result
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
import html
import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from .parallel import check_picklable, is_local, open_executor, run_tasks
from .play import policy_name
from .rules import Rules

__all__ = [
    "Comparison",
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
#: Most seatings (lineups x rotations) a tournament will play per deal.
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


def make_policy(spec: Any) -> Any:
    """A policy from a spec: a policy object (used as is), ``"name:k=v"``, or ``(name, params)``.

    >>> make_policy(("marginal", {"threshold": 3}))
    MarginalCostBot(threshold=3)
    """
    from .bots import make_bot

    if isinstance(spec, str):
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
    if seed is None:
        return int(np.random.SeedSequence().generate_state(2, np.uint64)[0] >> np.uint64(1))
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0 or None; got {seed!r}")
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
    """One tournament to play: the field and its seatings (bot index per seat)."""

    policies: tuple[Any, ...]
    seatings: tuple[tuple[int, ...], ...]


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
    1/WIN_UNIT) or of its score. Kept: the number of deals, the sums of ``X`` and of the
    products ``X_a * X_b`` (for variances and paired differences), and per-seating sums.
    """

    n: int
    win: list[int]
    win2: list[list[int]]
    score: list[int]
    score2: list[list[int]]
    seat_win: list[list[int]]
    seat_score: list[list[int]]
    decisions: int

    def __add__(self, other: _Sums) -> _Sums:
        def add(a: Any, b: Any) -> Any:
            return [add(x, y) for x, y in zip(a, b, strict=True)] if isinstance(a, list) else a + b

        return _Sums(*(add(getattr(self, f), getattr(other, f)) for f in _SUM_FIELDS))


_SUM_FIELDS = ("n", "win", "win2", "score", "score2", "seat_win", "seat_score", "decisions")


def _fresh_policies(policies: Sequence[Any], seed: int, start: int) -> list[Any]:
    """Copies of the field for one chunk, each bot's own generator reseeded from (seed, chunk).

    Copying keeps the caller's bots untouched and makes a chunk's play the same whether it
    runs here or in another process; reseeding keeps a randomized bot's choices independent
    between chunks (without it every chunk would replay the same random draws).
    """
    fresh = copy.deepcopy(list(policies))  # one deepcopy keeps shared objects shared
    for i, p in enumerate(fresh):
        if isinstance(getattr(p, "rng", None), np.random.Generator):
            p.rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(start, i)))
    return fresh


def _play_chunk(chunk: _Chunk) -> _Sums:
    """Play deals ``[start, start + count)`` in every seating of the plan; exact sums."""
    from .deals import deal_decks
    from .simulation import simulate

    plan = chunk.plan
    n_bots = len(plan.policies)
    policies = _fresh_policies(plan.policies, chunk.seed, chunk.start)
    decks = deal_decks(chunk.rules, chunk.seed, chunk.start, chunk.count)
    win = np.zeros((chunk.count, n_bots), dtype=np.int64)
    score = np.zeros((chunk.count, n_bots), dtype=np.int64)
    seat_win, seat_score, decisions = [], [], 0
    for seating in plan.seatings:
        r = simulate(
            [policies[b] for b in seating],
            decks=decks,
            rules=chunk.rules,
            first_player=chunk.first_player,
        )
        w = np.rint(np.asarray(r.win_share) * WIN_UNIT).astype(np.int64)
        s = np.asarray(r.scores, dtype=np.int64)
        for seat, b in enumerate(seating):
            win[:, b] += w[:, seat]
            score[:, b] += s[:, seat]
        seat_win.append(w.sum(axis=0).tolist())
        seat_score.append(s.sum(axis=0).tolist())
        decisions += int(np.asarray(r.n_decisions).sum())
    return _Sums(
        n=chunk.count,
        win=win.sum(axis=0).tolist(),
        win2=_cross_products(win),
        score=score.sum(axis=0).tolist(),
        score2=_cross_products(score),
        seat_win=seat_win,
        seat_score=seat_score,
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
    starts = range(0, n_games, chunk_size)
    chunks = [
        _Chunk(plan, i, rules, seed, s, min(chunk_size, n_games - s), first_player)
        for i, plan in enumerate(plans)
        for s in starts
    ]
    if progress is None:
        progress = len(chunks) > 1
    with open_executor(executor, workers) as ex:
        if not is_local(ex):
            for plan in plans:
                for p in plan.policies:
                    check_picklable(p, f"bot {policy_name(p)}")
        answers = run_tasks(_play_chunk, chunks, ex, progress=progress, desc=desc)
    totals: list[_Sums | None] = [None] * len(plans)
    for chunk, answer in zip(chunks, answers, strict=True):
        prev = totals[chunk.plan_index]
        totals[chunk.plan_index] = answer if prev is None else prev + answer
    return [t for t in totals if t is not None]


def _rotations(lineup: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The P rotations of a lineup: lineup position j sits at seat (j - r) mod P in rotation r."""
    p = len(lineup)
    return [tuple(lineup[(s + r) % p] for s in range(p)) for r in range(p)]


def _seatings(
    n_bots: int, n_players: int, lineups: Iterable[Sequence[int]] | None
) -> tuple[tuple[int, ...], ...]:
    if lineups is None:
        if n_bots < n_players:
            raise ValueError(
                f"a field of {n_bots} bots cannot fill {n_players} seats; repeat bots in the "
                f"field, give lineups=, or use head_to_head(candidate, opponent, ...)"
            )
        lineups = itertools.combinations(range(n_bots), n_players)
    checked = []
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
        if len(checked) * n_players > MAX_SEATINGS:
            raise ValueError(
                f"more than {MAX_SEATINGS} seatings per deal; use a smaller field or "
                f"give lineups= explicitly"
            )
    if not checked:
        raise ValueError("lineups must hold at least one lineup")
    missing = sorted(set(range(n_bots)) - {b for lu in checked for b in lu})
    if missing:
        raise ValueError(f"bots {missing} sit in no lineup; every bot in the field must play")
    return tuple(s for lu in checked for s in _rotations(lu))


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
    seatings: tuple[tuple[int, ...], ...]
    """Bot index per seat, for each seating (lineups x rotations)."""
    confidence: float
    """Confidence level of the intervals, e.g. 0.95."""
    sums: _Sums = field(repr=False)
    """Exact integer sums behind every number."""

    # ---------------------------------------------------------------- numbers per bot
    @property
    def n_games(self) -> int:
        """Games played in all: deals x seatings."""
        return self.n_deals * len(self.seatings)

    @property
    def seats_per_deal(self) -> np.ndarray:
        """int[bots]: seats each bot holds per deal, summed over seatings."""
        counts = np.zeros(len(self.names), dtype=np.int64)
        for seating in self.seatings:
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
    def seat_mean_score(self) -> np.ndarray:
        """float[seatings, P]: mean score of each seat in each seating."""
        return np.array(self.sums.seat_score, dtype=np.float64) / self.n_deals

    @property
    def seat_win_share(self) -> np.ndarray:
        """float[seatings, P]: win share of each seat in each seating."""
        return np.array(self.sums.seat_win, dtype=np.float64) / (WIN_UNIT * self.n_deals)

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
        x1, _, unit = self._raw(metric)
        k = self.seats_per_deal
        return np.array([x1[b] / (self.n_deals * k[b] * unit) for b in range(len(self.names))])

    def _ci(self, metric: str) -> np.ndarray:
        x1, x2, unit = self._raw(metric)
        n, k = self.n_deals, self.seats_per_deal
        t = _t_quantile(self.confidence, n)
        out = np.empty((len(self.names), 2))
        for b in range(len(self.names)):
            mean = x1[b] / (n * k[b] * unit)
            if n < 2:
                out[b] = math.nan
                continue
            var = Fraction(n * x2[b][b] - x1[b] ** 2, n * (n - 1) * int(k[b]) ** 2 * unit**2)
            half = t * math.sqrt(float(var) / n)
            out[b] = (mean - half, mean + half)
        return out

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
            f"{len(self.seatings)} seatings = {self.n_games:,} games, seed {self.seed}, {pct} CI"
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
    """Play a field of bots against each other on paired deals with rotated seats.

    Args:
        bots: the field: policies, registered names like ``"marginal:threshold=10"``, or
            ``(name, params)`` pairs. The same object may appear more than once.
        n_players: seats at the table (default: the size of the field).
        n_games: number of deals; each is played in every seating, so the games played are
            ``n_games x len(result.seatings)``.
        seed: seed of the deal stream (None: fresh entropy, recorded in the result).
        rules: the rule set (default: the standard game).
        lineups: which bots sit down together, as tuples of field indices, one per seat;
            each is played in all P rotations. Default: every combination of P bots of the
            field (just the field itself when it has exactly P bots).
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
    ('MarginalCostBot(threshold=10)', 600, True)
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
    seatings = _seatings(len(policies), n_players, lineups)
    (sums,) = _run_plans(
        [_Plan(policies, seatings)],
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
    return TournamentResult(
        _unique_names(policies), n_players, n_games, seed, seatings, confidence, sums
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
    """The common analysis "candidate against P-1 copies of opponent", seats rotated.

    `opponent` may also be a list of P-1 opponents. The candidate sits in every seat once
    per deal; ``result.win_share[0]`` is its win share (1/P means no better than its table).
    `options` are those of `tournament` (rules, executor, workers, chunk_size, ...).

    >>> r = head_to_head("marginal:threshold=10", "marginal:threshold=-40", 3, 100, seed=2)
    >>> r.seatings, bool(r.win_share_ci[0, 0] > 1 / 3)
    (((0, 1, 1), (1, 1, 0), (1, 0, 1)), True)
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
            f"x {len(r.seatings)} seatings, seed {r.seed}, {r.confidence:.0%} CI"
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
    seatings = _rotations((0, *positions))
    plans = [_Plan((make_policy(build(**p)), *ops), tuple(seatings)) for p in points]
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
        TournamentResult(
            _unique_names(plan.policies), n_players, n_games, seed, plan.seatings, confidence, s
        )
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
        """The evaluations as a tidy table (one dict per distinct parameter set tried)."""
        return [dict(h) for h in self.history]

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

    with open_executor(executor, workers) as ex:
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
    return {
        name
        for name, b in bounds.items()
        if all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in b)
        or getattr(declared.get(name), "kind", None) is int
    }
