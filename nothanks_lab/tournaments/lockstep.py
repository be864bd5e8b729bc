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
    round of the lockstep with the views of every game waiting for them.
    """
    tables = [
        Game(len(seated), rules=rules, deck=deck, first_player=first_player)
        for seated, deck in games
    ]
    seated_of = [list(seated) for seated, _ in games]
    waiting = list(range(len(tables)))
    while waiting:
        asks: dict[int, tuple[Any, list[int]]] = {}  # id(batch key) -> (a copy of it, games)
        for g in waiting:
            game, seated = tables[g], seated_of[g]
            while not game.is_over:
                policy = seated[game.current_player]
                key = _batch_key(policy)
                if key is not None:
                    asks.setdefault(id(key), (policy, []))[1].append(g)
                    break
                game.step(ask(policy, game.view(game.current_player), game.legal_actions()))
        # Every process gets its views before any is waited for, so they all think at once.
        pending: list[tuple[Any, list[int], list[Any], list[list[object]]]] = []
        try:
            for policy, gs in asks.values():
                views = [tables[g].view(tables[g].current_player) for g in gs]
                lineup = [seated_of[g] for g in gs]
                if _pipelined(policy):
                    _ask_many(policy, views, lineup, submit=True)
                pending.append((policy, gs, views, lineup))
            while pending:
                policy, gs, views, lineup = pending[0]
                moves = _ask_many(policy, views, lineup)
                pending.pop(0)
                _play_moves(tables, seated_of, policy, gs, views, moves)
        finally:
            for policy, *_ in pending:  # after a failure, what the others were sent is dropped
                if _pipelined(policy):
                    try:
                        policy.collect()
                    except Exception:
                        pass
        waiting = [g for g in waiting if not tables[g].is_over]
    return [(t.card_points(), t.chips, len(t.history)) for t in tables]


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
