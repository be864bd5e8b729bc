"""Many games in lockstep: each batched bot is asked the decisions of all of them at once.

A bot that lives in a process of its own (a league's isolated student file,
`~nothanks_lab.league.sandbox.IsolatedPolicy`) pays one round trip per message, so asking it
one decision at a time would make isolation slow. :func:`play_lockstep` plays a chunk's games
side by side with the one-game engine: each game runs its in-process bots until a batched bot
is to move, then every batched bot gets the decisions waiting for it, from all the games, in one
message (``act_many(views)``, one list of moves back) and the games go on. The games, their
moves and their results are exactly those of playing them one after another, provided the
in-process bots do not depend on the order of their calls across games: :func:`lockstep_ready`
allows lockstep only when some bot answers batches and no other keeps a generator (``rng``).

A policy answers batches when it has ``batch_key`` (the object that answers, shared by every
copy of the bot; None if it does not batch) and ``act_many(views) -> list of moves``. A failure
of a batched bot is raised as `~nothanks_lab.play.PolicyError` naming the position it failed on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import Action, Game
from ..play import PolicyError, ask, policy_name
from ..rules import Rules

__all__ = ["lockstep_ready", "play_lockstep"]


def _batch_key(policy: object) -> object | None:
    key = getattr(policy, "batch_key", None)
    return key if key is not None and callable(getattr(policy, "act_many", None)) else None


def lockstep_ready(policies: Sequence[object]) -> bool:
    """Whether games of `policies` may be played in lockstep with identical results."""
    batched = [p for p in policies if _batch_key(p) is not None]
    others = [p for p in policies if _batch_key(p) is None]
    return bool(batched) and not any(
        isinstance(getattr(p, "rng", None), np.random.Generator) for p in others
    )


def play_lockstep(
    games: Sequence[tuple[Sequence[object], np.ndarray]], rules: Rules, first_player: int
) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Play each (policies per seat, deck) to its end; card points, chips, moves of each.

    The in-process bots are asked through `nothanks_lab.play.ask`; the batched bots once per
    round of the lockstep with the views of every game waiting for them. With bots that answer
    later (``submit``/``collect``: processes of their own) the games are dealt into two halves
    that take turns: while the processes think on one half's views, this process plays the
    in-process bots of the other half, so the two overlap on two cores. Each process still gets
    its batches in a fixed order (half A, half B, half A...), so a rerun asks it the same.
    """
    tables = [
        Game(len(seated), rules=rules, deck=deck, first_player=first_player)
        for seated, deck in games
    ]
    seated_of = [list(seated) for seated, _ in games]
    later = any(_pipelined(p) for s in seated_of for p in s if _batch_key(p) is not None)
    n = 2 if later and len(tables) > 1 else 1
    halves = [list(range(h, len(tables), n)) for h in range(n)]
    out: list[list[_Batch]] = [[] for _ in halves]  # per half: batches sent, not answered
    try:
        _send(tables, seated_of, _advance(tables, seated_of, halves[0]), out[0])
        ready: list[dict[int, tuple[Any, list[int]]]] = [{} for _ in halves]
        if n == 2:
            ready[1] = _advance(tables, seated_of, halves[1])
        h = 0
        while out[h] or ready[(h + 1) % n]:
            o = (h + 1) % n
            busy = {b.key for b in out[h]}
            # A process with nothing out gets the other half's views for it at once; a busy one
            # right after it answered (one batch out per process: answers come back in order).
            _send(tables, seated_of, {k: a for k, a in ready[o].items() if k not in busy}, out[o])
            answered = []
            for batch in out[h]:
                batch.open = False
                answered.append((batch, _ask_many(batch.policy, batch.views, batch.lineup)))
                if batch.key in ready[o]:
                    _send(tables, seated_of, {batch.key: ready[o][batch.key]}, out[o])
            out[h], ready[o] = [], {}
            for batch, moves in answered:
                _play_moves(tables, seated_of, batch.policy, batch.gs, batch.views, moves)
            ready[h] = _advance(tables, seated_of, sorted(g for b, _ in answered for g in b.gs))
            if n == 1:
                _send(tables, seated_of, ready[0], out[0])
                ready[0] = {}
            h = o
    finally:
        for batch in (b for half in out for b in half if b.open and _pipelined(b.policy)):
            try:  # after a failure, what the others were sent is dropped
                batch.policy.collect()
            except Exception:
                pass
    return [(t.card_points(), t.chips, len(t.history)) for t in tables]


@dataclasses.dataclass
class _Batch:
    """The views of games `gs` sent to one batched bot (`key`: id of what answers)."""

    key: int
    policy: Any  # the copy of the bot that was asked
    gs: list[int]
    views: list[Any]
    lineup: list[list[object]]  # the seated bots of each game
    open: bool = True  # sent, not yet answered


def _advance(
    tables: list[Game], seated_of: list[list[object]], gs: list[int]
) -> dict[int, tuple[Any, list[int]]]:
    """Play games `gs` on until a batched bot is to move; id(batch key) -> (a copy, games)."""
    asks: dict[int, tuple[Any, list[int]]] = {}
    for g in gs:
        game, seated = tables[g], seated_of[g]
        while not game.is_over:
            policy = seated[game.current_player]
            key = _batch_key(policy)
            if key is not None:
                asks.setdefault(id(key), (policy, []))[1].append(g)
                break
            game.step(ask(policy, game.view(game.current_player), game.legal_actions()))
    return asks


def _send(
    tables: list[Game],
    seated_of: list[list[object]],
    asks: dict[int, tuple[Any, list[int]]],
    out: list[_Batch],
) -> None:
    """Each batched bot's views of `asks` into `out`, handed to its process now if it answers
    later (`out` holds every batch sent, for a failure to drop)."""
    for key, (policy, gs) in asks.items():
        views = [tables[g].view(tables[g].current_player) for g in gs]
        lineup = [seated_of[g] for g in gs]
        if _pipelined(policy):
            _ask_many(policy, views, lineup, submit=True)
        out.append(_Batch(key, policy, gs, views, lineup))


def _pipelined(policy: object) -> bool:
    """Whether `policy` takes a batch (``submit(views)``) and answers it later (``collect()``)."""
    return callable(getattr(policy, "submit", None)) and callable(getattr(policy, "collect", None))


def _play_moves(
    tables: list[Game],
    seated_of: list[list[object]],
    policy: Any,
    gs: list[int],
    views: list[Any],
    moves: list[Any],
) -> None:
    """Check and play the `moves` the batched `policy` answered in the games `gs`."""
    for g, move, view in zip(gs, moves, views, strict=True):
        game = tables[g]
        seat_policy: Any = seated_of[g][view.seat]
        if not isinstance(move, Action) or move not in game.legal_actions():
            if hasattr(seat_policy, "last_answer"):  # a league's bot explains it
                seat_policy.last_answer = move
                seat_policy.last_error = None
            raise PolicyError(
                f"{policy_name(seat_policy)} (seat {view.seat}) answered {move!r}; "
                f"legal moves are {[a.name for a in game.legal_actions()]}; it was "
                f"shown {view}",
                policy=seat_policy,
                view=view,
            )
        game.step(move)


def _ask_many(
    policy: Any, views: list[Any], seated: list[list[object]], *, submit: bool = False
) -> list[Any]:
    """`policy.act_many(views)` (pipelined: ``submit(views)`` with `submit`, else
    ``collect()``); a failure as `PolicyError` naming the failing position."""
    try:
        if submit:
            policy.submit(views)
            return []
        moves = list(policy.collect() if _pipelined(policy) else policy.act_many(views))
    except Exception as e:
        index = getattr(e, "index", None)
        i = index if isinstance(index, int) and 0 <= index < len(views) else 0
        view = views[i]
        failed: Any = seated[i][view.seat]
        if hasattr(failed, "last_error"):
            failed.last_error = e
        raise PolicyError(
            f"{policy_name(failed)} (seat {view.seat}) raised {type(e).__name__}: {e} "
            f"when shown {view}",
            policy=failed,
            view=view,
        ) from e
    if len(moves) != len(views):
        raise PolicyError(
            f"{policy_name(policy)} answered {len(moves)} moves for {len(views)} positions",
            policy=policy,
            view=views[0],
        )
    return moves
