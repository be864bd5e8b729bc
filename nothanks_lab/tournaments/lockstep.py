"""Many games in lockstep: each batched bot is asked the decisions of all of them at once.

A bot that lives in a process of its own (a league's isolated student file,
`~nothanks_lab.tournaments.sandbox.IsolatedPolicy`) pays one round trip per message, so asking it
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
from collections.abc import Generator, Sequence
from typing import Any

import numpy as np

from ..engine import Action, Game
from ..fast.answers import compiled_ask
from ..play import PolicyError, policy_name
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

    The in-process bots are asked through `nothanks_lab.play.ask` (with enough games, the
    package's own built-ins through the compiled kernel: `nothanks_lab.fast.answers`); the
    batched bots once per round of the lockstep with the views of every game waiting for
    them. Each game is the
    engine's own play loop (`Game._decisions`), paused at each decision of a batched bot
    until its move comes back. With bots that answer later (``submit``/``collect``:
    processes of their own) the games are dealt into two halves that take turns: while the
    processes think on one half's views, this process plays the in-process bots of the other
    half, so the two overlap on two cores. Each process still gets its batches in a fixed
    order (half A, half B, half A...), so a rerun asks it the same.
    """
    tables = [
        Game(len(seated), rules=rules, deck=deck, first_player=first_player)
        for seated, deck in games
    ]
    seated_of = [list(seated) for seated, _ in games]
    keys_of = [[_batch_key(p) for p in seated] for seated in seated_of]
    # The package's own compiled-path bots answer through the simulator's kernel when enough
    # games are in flight to pay for loading it (`nothanks_lab.fast.answers`); same answers.
    answer = compiled_ask([p for s in seated_of for p in s], rules, len(tables))
    plays = [
        t._decisions(s, answer, [k is not None for k in keys])
        for t, s, keys in zip(tables, seated_of, keys_of, strict=True)
    ]
    lock = _Lockstep(seated_of, keys_of, plays)
    later = any(_pipelined(p) for s in seated_of for p in s if _batch_key(p) is not None)
    n = 2 if later and len(tables) > 1 else 1
    halves = [list(range(h, len(tables), n)) for h in range(n)]
    out: list[list[_Batch]] = [[] for _ in halves]  # per half: batches sent, not answered
    try:
        _send(lock.advance(halves[0]), out[0])
        ready: list[dict[int, _Batch]] = [{} for _ in halves]
        if n == 2:
            ready[1] = lock.advance(halves[1])
        h = 0
        while out[h] or ready[(h + 1) % n]:
            o = (h + 1) % n
            busy = {b.key for b in out[h]}
            # A process with nothing out gets the other half's views for it at once; a busy one
            # right after it answered (one batch out per process: answers come back in order).
            _send({k: a for k, a in ready[o].items() if k not in busy}, out[o])
            answered = []
            for batch in out[h]:
                batch.open = False
                answered.append((batch, _ask_many(batch.policy, batch.views, batch.lineup)))
                if batch.key in ready[o]:
                    _send({batch.key: ready[o][batch.key]}, out[o])
            out[h], ready[o] = [], {}
            for batch, moves in answered:
                _check_moves(batch, moves)
            ready[h] = lock.advance(
                sorted(g for b, _ in answered for g in b.gs),
                {g: m for b, moves in answered for g, m in zip(b.gs, moves, strict=True)},
            )
            if n == 1:
                _send(ready[0], out[0])
                ready[0] = {}
            h = o
    finally:
        for batch in (b for half in out for b in half if b.open and _pipelined(b.policy)):
            try:  # after a failure, what the others were sent is dropped
                batch.policy.collect()
            except Exception:
                pass
        for play in plays:
            play.close()  # an unfinished game (after a failure) writes its position back
    return [(t.card_points(), t.chips, len(t.history)) for t in tables]


@dataclasses.dataclass
class _Batch:
    """The views of games `gs` for one batched bot (`key`: id of what answers)."""

    key: int
    policy: Any  # the copy of the bot that is asked
    gs: list[int]
    views: list[Any]
    lineup: list[list[object]]  # the seated bots of each game
    open: bool = True  # sent, not yet answered


class _Lockstep:
    """The games' play loops, each paused at a decision of a batched bot (or ended)."""

    def __init__(
        self,
        seated_of: list[list[object]],
        keys_of: list[list[object | None]],
        plays: list[Generator[Any, Action, None]],
    ) -> None:
        self.seated_of, self.keys_of, self.plays = seated_of, keys_of, plays

    def advance(self, gs: list[int], moves: dict[int, Action] | None = None) -> dict[int, _Batch]:
        """Play each game of `gs` (its move of `moves` first, if any) on until a batched bot is
        to move; by id(batch key), the batches of views waiting for each batched bot."""
        asks: dict[int, _Batch] = {}
        seated_of, keys_of, plays = self.seated_of, self.keys_of, self.plays
        for g in gs:
            try:
                view = next(plays[g]) if moves is None else plays[g].send(moves[g])
            except StopIteration:
                continue
            seat = view.seat
            key = id(keys_of[g][seat])
            batch = asks.get(key)
            if batch is None:
                batch = asks[key] = _Batch(key, seated_of[g][seat], [], [], [])
            batch.gs.append(g)
            batch.views.append(view)
            batch.lineup.append(seated_of[g])
        return asks


def _send(asks: dict[int, _Batch], out: list[_Batch]) -> None:
    """Each batch of `asks` into `out`, handed to its process now if it answers later (`out`
    holds every batch sent, for a failure to drop)."""
    for batch in asks.values():
        if _pipelined(batch.policy):
            _ask_many(batch.policy, batch.views, batch.lineup, submit=True)
        out.append(batch)


def _pipelined(policy: object) -> bool:
    """Whether `policy` takes a batch (``submit(views)``) and answers it later (``collect()``)."""
    return callable(getattr(policy, "submit", None)) and callable(getattr(policy, "collect", None))


def _check_moves(batch: _Batch, moves: list[Any]) -> None:
    """`PolicyError` unless each of the `moves` the batched bot answered is legal in its view."""
    take, pass_ = Action.TAKE, Action.PASS
    for move, view, seated in zip(moves, batch.views, batch.lineup, strict=True):
        if move is take or (move is pass_ and view.my_chips > 0):
            continue
        seat_policy: Any = seated[view.seat]
        if hasattr(seat_policy, "last_answer"):  # a league's bot explains it
            seat_policy.last_answer = move
            seat_policy.last_error = None
        legal = [take] if view.my_chips == 0 else [take, pass_]
        raise PolicyError(
            f"{policy_name(seat_policy)} (seat {view.seat}) answered {move!r}; "
            f"legal moves are {[a.name for a in legal]}; it was shown {view}",
            policy=seat_policy,
            view=view,
        )


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
