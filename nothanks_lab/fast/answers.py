"""The package's own compiled-path bots answered one decision at a time by their compiled rule.

`FastBot.act` runs a bot's ``FAST_DECIDE`` as plain Python (a heuristic decision costs about
20 µs that way), because a compiled function would have to be compiled or loaded first, which
costs more than a short game. A caller that plays thousands of games at once in this process
(the lockstep of a league whose student bots live in processes of their own,
`nothanks_lab.tournaments.lockstep`) can afford that once: `compiled_ask` asks each such bot
through the simulator's compiled kernel for its kinds (`FastTable`: loaded from the cache, or
compiled, once per set of kinds), about 2-3 µs a decision, and every other bot as
`nothanks_lab.play.ask` does. The answers are the same: the kernel runs the very function that
``act`` runs, and ``tests/test_fast_answers.py`` compares them.

Only bots of this package qualify (`compiled_ok`): their decision functions are known to
compile and to be pure. A user's own fast bot, a subclass that overrides ``act`` and a bot that
draws random numbers (``rng``) keep being asked through ``act``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..bots.base import TupleArrays
from ..engine import Action
from ..jit import is_outside
from ..play import ask
from ..rules import Rules
from ..view import PlayerView
from .cache import _cache_dir
from .protocol import has_fast_path
from .table import FastTable

__all__ = ["COMPILED_FROM", "compiled_ask", "compiled_ok"]

#: Games played side by side from which `compiled_ask` uses the kernel. Measured on this
#: project's shared 2-core machine (2026-12-03, a league of 30 plain student files against the
#: marginal and heuristic bots, 7,200 games): 14.1 s of the league's CPU through ``act``
#: against 6.8 s compiled, about 1 ms saved a game; loading the kernel from the cache takes
#: about 0.7 s, so it pays from about 700 games. Without a usable cache directory the kernel
#: is compiled in memory (about 7 s): then from ten times as many.
COMPILED_FROM = 700

Ask = Callable[[object, PlayerView, Sequence[Action]], Action]


def compiled_ok(policy: object) -> bool:
    """Whether `policy` may be answered by its compiled decision function: a bot of this
    package with a fast path, no random generator, and not one that answers batches."""
    return (
        has_fast_path(policy)
        and not is_outside(type(policy).FAST_DECIDE)  # type: ignore[attr-defined]
        and not isinstance(getattr(policy, "rng", None), np.random.Generator)
        and getattr(policy, "batch_key", None) is None
    )


def compiled_ask(policies: Sequence[object], rules: Rules, n_games: int) -> Ask:
    """`nothanks_lab.play.ask`, with each policy of `policies` that `compiled_ok` allows answered
    by the compiled kernel instead, when `n_games` played side by side pay for loading it
    (`COMPILED_FROM`; else plain `ask`). The policies must stay alive while the answer is used:
    they are known by identity."""
    fast = list({id(p): p for p in policies if compiled_ok(p)}.values())
    if not fast or n_games < (COMPILED_FROM if _cache_dir() is not None else 10 * COMPILED_FROM):
        return ask
    table = FastTable(fast, rules)
    decide = table.module.decide
    rows = {id(p): (int(table.kinds[i]), table.params[i]) for i, p in enumerate(fast)}
    # Writeable: the kernel was compiled for the simulator's own (writeable) arrays, and only
    # this package's decision functions, which write to none, are given them.
    array = TupleArrays(writeable=True)
    take, pass_ = Action.TAKE, Action.PASS

    def answer(policy: Any, view: PlayerView, legal: Sequence[Action]) -> Action:
        row = rows.get(id(policy))
        if row is None:
            return ask(policy, view, legal)
        if not view.my_chips:  # the forced take, as in `FastBot.act`
            return take
        kind, params = row
        chosen = decide(
            kind,
            params,
            view.active_card,
            view.pot,
            view.seat,
            array(view.hand_masks),
            array(view.chips),
            view.cards_left,
        )
        return take if chosen else pass_

    return answer
