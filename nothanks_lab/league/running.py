"""Running a league: the student bots and the built-ins in one fair tournament.

:func:`run_league` screens the bots it is given (a folder, `collect_bots`' result, a list or a
dict of bots), seats them in lineups (``"gauntlet"``: each student bot with the built-ins, so
every student meets the same opponents on the same deals; or ``"round robin"``) and plays a fair
:func:`~nothanks_lab.tournaments.tournament` (paired deals, every order of the seats). A bot that
fails on a position the screening never met is left out and the league is played again without
it, on the same deals.
"""

from __future__ import annotations

import copy
import itertools
import time
import warnings
from collections.abc import Mapping, Sequence
from os import PathLike
from typing import Any

from ..bots import SlowPathWarning
from ..bots.specs import short_name
from ..i18n import _
from ..play import PolicyError, policy_name
from ..rules import Rules
from ..tournaments import tournament
from ..tournaments.lockstep import lockstep_ready
from ..validate import MAX_GAMES, MAX_SCREEN_ROUNDS, check_count, check_players, check_rules
from .loading import LeagueEntries, collect_bots
from .screening import (
    DEFAULT_BUILTINS,
    MAX_MS_PER_DECISION,
    TIME_LIMIT_S,
    _builtin_policies,
    _fresh_seed,
    _screen_each,
    check_max_ms,
    check_time_limit,
)
from .standings import LeagueResult
from .student import Rejection, StudentBot, _left_out_lines, _rejection, as_bot

__all__ = ["DEFAULT_DEALS", "run_league"]

#: Deals a league plays by default (each in every order of the seats).
DEFAULT_DEALS = 100


def _league_lineups(
    n_students: int, n_builtins: int, n_players: int, lineups: str
) -> list[tuple[int, ...]] | None:
    """Field indices per lineup: students first, then the built-ins."""
    if lineups == "round robin":
        return None
    if lineups != "gauntlet":
        raise ValueError(f"lineups must be 'gauntlet' or 'round robin'; got {lineups!r}")
    if n_builtins < n_players - 1:
        raise ValueError(
            f"lineups='gauntlet' seats each student bot with {n_players - 1} built-in bots; "
            f"give at least {n_players - 1} builtins (got {n_builtins}), or lineups='round robin'"
        )
    combos = list(itertools.combinations(range(n_students, n_students + n_builtins), n_players - 1))
    return [(s, *c) for s in range(n_students) for c in combos]


def _distinct_names(students: list[StudentBot], builtin_names: list[str]) -> list[StudentBot]:
    """The students, each named apart from every built-in and from each other: a file named
    like a built-in (``HeuristicBot(defaults).py``) plays as ``HeuristicBot(defaults)
    (student)``, so no row of the table can pass for a built-in's (copies; the caller's bots
    keep their names)."""
    taken = set(builtin_names)
    out = []
    for bot in students:
        name, k = bot.name, 1
        while name in taken:
            k += 1
            label = _("{name} (student)") if k == 2 else _("{name} (student {k})")
            name = label.format(name=bot.name, k=k - 1)
        taken.add(name)
        if name != bot.name:
            bot = copy.copy(bot)
            bot.name = name
        out.append(bot)
    return out


def _entries(
    folder_or_bots: Any, screen: Mapping[str, Any], time_limit: float | None, isolate: bool = True
) -> tuple[list[StudentBot], list[Rejection]]:
    """The student bots to play and the rejections so far, from whatever the caller gave."""
    if isinstance(folder_or_bots, LeagueEntries):
        return list(folder_or_bots.bots), list(folder_or_bots.rejections)
    if isinstance(folder_or_bots, str | PathLike):
        found = collect_bots(folder_or_bots, time_limit=time_limit, isolate=isolate, **screen)
        return list(found.bots), list(found.rejections)
    if isinstance(folder_or_bots, Mapping):
        given = [as_bot(bot, str(name)) for name, bot in folder_or_bots.items()]
    elif isinstance(folder_or_bots, Sequence) and not isinstance(folder_or_bots, bytes):
        given = [as_bot(bot) for bot in folder_or_bots]
    else:
        raise ValueError(
            "folder_or_bots must be a folder, collect_bots' result, a list of bots or a dict "
            f"of name -> bot; got {folder_or_bots!r}"
        )
    return _screen_each(given, time_limit=time_limit, **screen)


def run_league(
    folder_or_bots: Any,
    builtins: Sequence[Any] = DEFAULT_BUILTINS,
    n_players: int = 3,
    n_games: int = DEFAULT_DEALS,
    *,
    seed: int | None = None,
    rules: Rules | None = None,
    lineups: str = "gauntlet",
    progress: bool = True,
    workers: int | None = None,
    chunk_size: int | None = None,
    confidence: float = 0.95,
    screen_rounds: int = 3,
    max_ms: float = MAX_MS_PER_DECISION,
    time_limit: float | None = TIME_LIMIT_S,
    isolate: bool = True,
) -> LeagueResult:
    """Play the student bots and the built-ins in a fair tournament; the leaderboard.

    Args:
        folder_or_bots: a league folder (collected and screened with `collect_bots`), the
            result of `collect_bots`, or bots given directly (a list, or a dict of name ->
            bot; each is screened first).
        builtins: the built-in bots (registered names, specs or policies).
        n_players: seats at a table.
        n_games: deals; each is played in every order of the seats of every lineup.
        seed: seed of the deals and of the screening (None: fresh 63-bit entropy; the
            result's ``tournament.seed`` reruns it). Keep it secret when the league counts: a
            bot that knows or guesses a small seed can compute every deal.
        rules: the rule set (default: the standard game).
        lineups: ``"gauntlet"`` (default): each student bot at a table with ``n_players - 1``
            built-ins, every combination of them, so every student meets the same opponents on
            the same deals. ``"round robin"``: every combination of ``n_players`` bots of the
            whole field (students meet each other too; far more games).
        progress: show a progress bar while the tournament runs.
        workers: local worker processes (default 1).
        chunk_size: deals per unit of work (default: a tenth of `n_games`, so the bar moves;
            a quarter when bots play in processes and no other bot keeps a generator: each
            process is asked the decisions of a chunk's games together, so fewer and fuller
            messages, and the numbers do not depend on the chunks; at most 1,000 deals, whose
            games are all set up at once).
        confidence: level of the intervals.
        screen_rounds, max_ms, time_limit: the screening of bots given directly or by folder
            (see `screen_bot`).

    With `isolate` (the default) the files of a folder load and play in processes of their
    own (:mod:`nothanks_lab.tournaments.sandbox`), killed when the league ends or is interrupted;
    ``isolate=False`` is for trusted files only.

    A student bot that fails during the tournament is left out (a `Rejection` at stage
    ``"league"``) and the tournament is played again without it, on the same deals.
    """
    rules = check_rules(rules)
    n_players = check_players(n_players, rules)
    n_games = check_count(n_games, "n_games", MAX_GAMES)
    screen_rounds = check_count(screen_rounds, "screen_rounds", MAX_SCREEN_ROUNDS)
    time_limit = check_time_limit(time_limit)
    check_max_ms(max_ms)
    seed = _fresh_seed(seed)
    if not isinstance(lineups, str):
        raise ValueError(f"lineups must be 'gauntlet' or 'round robin'; got {lineups!r}")
    builtin_policies = _builtin_policies(builtins)
    _league_lineups(1, len(builtin_policies), n_players, lineups)  # refuse a bad setup early
    screen = {
        "builtins": builtins,
        "n_players": n_players,
        "rounds": screen_rounds,
        "seed": seed,
        "rules": rules,
        "max_ms": max_ms,
    }
    if not isinstance(isolate, bool):
        raise ValueError(f"isolate must be True or False; got {isolate!r}")
    if isinstance(folder_or_bots, str | PathLike) and isolate and workers not in (None, 1):
        raise ValueError(  # before any file loads: each bot's process answers this one
            f"workers must be 1 (or None) when the league's files play in processes of their "
            f"own (isolate=True); got workers={workers!r}"
        )
    students, rejections = _entries(folder_or_bots, screen, time_limit, isolate)
    from ..tournaments.sandbox import IsolatedPolicy

    if workers not in (None, 1) and any(isinstance(b.policy, IsolatedPolicy) for b in students):
        for bot in students:  # bots collected in processes of their own: none can be copied
            close = getattr(bot.policy, "close", None)
            if callable(close):
                close()
        raise ValueError(
            f"workers must be 1 (or None) when bots play in processes of their own "
            f"(collected with isolate=True); got workers={workers!r}"
        )
    students = _distinct_names(students, [short_name(b) for b in builtin_policies])
    if chunk_size is None:  # bots in processes: fewer, fuller batches (`tournaments.lockstep`)
        if lockstep_ready([*students, *builtin_policies]):  # at most _BATCHED_DEALS a chunk
            chunk_size = max(1, min(-(-n_games // 4), _BATCHED_DEALS))
        else:
            chunk_size = max(1, -(-n_games // 10))
    try:
        return _play_league(
            students,
            rejections,
            builtin_policies,
            n_players,
            n_games,
            seed,
            rules,
            lineups,
            progress,
            workers,
            chunk_size,
            confidence,
        )
    finally:
        for bot in students:
            close = getattr(bot.policy, "close", None)
            if callable(close):
                close()  # an isolated bot's process ends with the league (or its Ctrl-C)


#: Most deals of a default chunk when bots play in processes: its games are dealt, copied and
#: played at once (lockstep), so a huge league's chunk is bounded in memory and set-up time.
_BATCHED_DEALS = 1000


def _play_league(
    students: list[StudentBot],
    rejections: list[Rejection],
    builtin_policies: list[Any],
    n_players: int,
    n_games: int,
    seed: int,
    rules: Rules,
    lineups: str,
    progress: bool,
    workers: int | None,
    chunk_size: int,
    confidence: float,
) -> LeagueResult:
    """The tournament of the screened bots; a bot failing in it is left out, and it reruns."""
    students = list(students)
    while True:
        if not students:
            left_out = _left_out_lines(rejections) or "  (no bot files)"
            raise ValueError(f"no student bot is left to play the league:\n{left_out}")
        field = [*students, *builtin_policies]
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SlowPathWarning)  # slow is expected here
                result = tournament(
                    field,
                    n_players,
                    n_games,
                    seed=seed,
                    rules=rules,
                    lineups=_league_lineups(
                        len(students), len(builtin_policies), n_players, lineups
                    ),
                    progress=progress,
                    workers=workers,
                    chunk_size=chunk_size,
                    confidence=confidence,
                )
        except PolicyError as e:
            failed = policy_name(e.policy)
            index = next((i for i, b in enumerate(students) if b.name == failed), None)
            if index is None or not isinstance(e.policy, StudentBot):
                raise
            rejections.append(_rejection(e.policy, "league", e))
            gone = students.pop(index)
            close = getattr(gone.policy, "close", None)
            if callable(close):
                close()
            if progress:
                print(f"{failed} failed during the league and is left out; playing again")
            continue
        seconds = time.perf_counter() - start
        names = result.names
        return LeagueResult(
            result,
            names[: len(students)],
            names[len(students) :],
            tuple(rejections),
            seconds,
        )
