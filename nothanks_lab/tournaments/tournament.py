"""`tournament` and `head_to_head`: a field of bots on paired deals with balanced seating."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..bots.base import seed_field
from ..bots.specs import make_policy, unique_names
from ..i18n import _
from ..rules import Rules
from ..validate import MAX_FIELD, check_players, check_rules, keyword_only_after
from .result import TournamentResult
from .run import (
    _check_setting,
    _chunk_size,
    _Execution,
    _lineups,
    _Plan,
    _run_plans,
    _Setting,
)


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
    isolate: bool = False,
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
            fast path, else 200; at most 100,000,000, ``validate.MAX_GAMES``). Results never
            depend on the executor or the number of workers; randomized bots are reseeded per
            chunk, so theirs depend on chunk_size.
        executor: a ``concurrent.futures`` executor or ``dask.distributed.Client``.
        workers: without `executor`, the number of local worker processes (default 1).
        progress: show a progress bar (default: when there is more than one chunk).
        confidence: level of the intervals.
        isolate: play each bot given as ``"path/to/file.py:Class[:k=v]"`` from a process of
            its own (:mod:`nothanks_lab.tournaments.sandbox`: only the public facts of each
            decision reach it, with CPU, memory and per-decision time limits; the process ends
            with the tournament), for files you do not trust. Other bots play in this process;
            with no such bot `isolate` changes nothing, with one `workers` must be 1.

    >>> t = tournament(["marginal:threshold=10", "marginal:threshold=-40", "marginal:threshold=0"],
    ...                n_games=200, seed=1)
    >>> best = t.to_records()[0]
    >>> best["bot"], best["games"], bool(best["win_share_low"] > 1 / 3)
    ('MarginalCostBot(threshold=10)', 1200, True)
    """
    rules = check_rules(rules)
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence) or not bots:
        raise ValueError("bots must be a non-empty list of bots or bot specs")
    if len(bots) > MAX_FIELD:
        raise ValueError(
            f"bots: a field of {len(bots)} bots is above {MAX_FIELD} (MAX_FIELD, the ceiling)"
        )
    if not isinstance(isolate, bool):
        raise ValueError(f"isolate must be True or False; got {isolate!r}")
    isolated: list[Any] = [None] * len(bots)
    if isolate:
        from .sandbox import isolated_bot  # only then: the sandbox's imports are not needed

        isolated = [isolated_bot(b, rules, seed=seed, place=i) for i, b in enumerate(bots)]
        if any(i is not None for i in isolated) and (executor is not None or workers != 1):
            if executor is not None or workers is not None:
                raise ValueError(
                    f"workers must be 1 (and executor None) when isolate=True plays a file bot "
                    f"(its process answers this one); got workers={workers!r}. Isolation "
                    "applies only to bots given as 'file.py:Class'."
                )
    try:
        return _tournament(
            tuple(make_policy(b) if i is None else i for b, i in zip(bots, isolated, strict=True)),
            n_players,
            n_games,
            seed,
            rules,
            lineups,
            first_player,
            chunk_size,
            executor,
            workers,
            progress,
            confidence,
        )
    finally:
        for i in isolated:
            if i is not None:
                i.close()  # its process ends with the tournament (or its Ctrl-C)


def _tournament(
    policies: tuple[Any, ...],
    n_players: int | None,
    n_games: int,
    seed: int | None,
    rules: Rules,
    lineups: Iterable[Sequence[int]] | None,
    first_player: int,
    chunk_size: int | None,
    executor: Any,
    workers: int | None,
    progress: bool | None,
    confidence: float,
) -> TournamentResult:
    """`tournament` of a field already made into policies."""
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
    setting = _check_setting(rules, n_players, n_games, first_player, confidence, seed)
    plan = _Plan(policies, _lineups(len(policies), setting.n_players, lineups))
    run = _Execution(chunk_size, executor, workers, progress)
    (result,) = _play_plans([plan], setting, run, desc=_("tournament"))
    return result


def _play_plans(
    plans: Sequence[_Plan], setting: _Setting, execution: _Execution, desc: str
) -> list[TournamentResult]:
    """Play every plan on the same deals; one `TournamentResult` per plan."""
    plans = [_Plan(seed_field(p.policies, setting.seed), p.lineups) for p in plans]
    sums = _run_plans(plans, setting, execution, desc)
    chunk_size = _chunk_size(plans, execution.chunk_size)
    return [
        TournamentResult(
            unique_names(plan.policies),
            setting.n_players,
            setting.n_games,
            setting.seed,
            plan.lineups,
            setting.confidence,
            s,
            plan.policies,
            setting.rules,
            setting.first_player,
            chunk_size,
        )
        for plan, s in zip(plans, sums, strict=True)
    ]


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


@keyword_only_after(4, "seed")  # by position: one release more, with a warning
def head_to_head(
    candidate: Any,
    opponent: Any,
    n_players: int,
    n_games: int = 1_000,
    *,
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
    rules = check_rules(options.pop("rules", None))
    n_players = check_players(n_players, rules)
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
