"""Debugging a compiled bot: its decision function bounds-checked and checked against ``act``.

A compiled ``FAST_DECIDE`` that reads past the end of an array (``hands[seat + 3]`` at a
3-seat table) reads whatever memory lies there and plays on silently, where the same code
under Python raises ``IndexError``. With ``NOTHANKS_LAB_DEBUG=1`` in the environment, every
table of compiled bots (`~nothanks_lab.fast.table.FastTable`) first calls `check_fast_bot` for
each bot whose decision function comes from outside the package: it compiles the function
afresh with numba's ``boundscheck=True`` and plays a few rounds with the one-game engine,
asking at each of the bot's decisions both the bounds-checked compiled function and the bot's
``act(view)``. A read outside an array, or a decision that differs, raises `FastDebugError`
naming the bot and the position. `check_fast_bot` can also be called directly (its `debug`
twin for one bot). Checks are remembered per function and parameters, so a tournament pays
once.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..rules import Rules

__all__ = ["DEBUG_ENV", "FastDebugError", "check_fast_bot", "debug_enabled"]

#: The environment switch: ``1`` (or ``true``/``yes``) checks every compiled bot first.
DEBUG_ENV = "NOTHANKS_LAB_DEBUG"
_checked: set[tuple[Any, ...]] = set()


class FastDebugError(RuntimeError):
    """A compiled decision function read outside an array or disagreed with ``act``."""


def debug_enabled() -> bool:
    """Whether ``NOTHANKS_LAB_DEBUG`` asks for the checks."""
    return os.environ.get(DEBUG_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


def _bounds_checked(func: Any) -> Any:
    from ..jit import Dispatcher, Fresh
    from .protocol import _signature

    compiled = Fresh(True, boundscheck=True).value(func)
    if not isinstance(compiled, Dispatcher):
        raise FastDebugError(f"FAST_DECIDE must be a function; got {func!r}")
    compiled.compile(_signature())
    return compiled


def check_fast_bot(
    policy: Any, rules: Rules | None = None, *, n_players: int = 3, n_games: int = 4, seed: int = 0
) -> int:
    """Compare `policy`'s bounds-checked ``FAST_DECIDE`` with its ``act`` on sampled decisions.

    Plays `n_games` rounds of `policy` against itself with the one-game engine; at each of its
    decisions where passing is allowed, the compiled function (``boundscheck=True``) and
    ``act(view)`` must agree. Returns the number of decisions compared; raises `FastDebugError`
    naming the bot and the position otherwise.
    """
    from ..engine import Action
    from ..play import play_game, policy_name
    from ..validate import check_count
    from .protocol import _fast_params

    n_games = check_count(n_games, "n_games", 1000)
    decide = getattr(type(policy), "FAST_DECIDE", None)
    if not callable(decide):
        raise ValueError(f"policy must have a FAST_DECIDE function; got {policy!r}")
    rules = Rules() if rules is None else rules
    params = np.ascontiguousarray(_fast_params(policy, rules))
    compiled = _bounds_checked(decide)
    from ..bots.base import decision_args

    name, compared, problems = policy_name(policy), [0], []

    class _Checked:
        def act(self, view: Any) -> Any:
            if view.my_chips == 0:
                return policy.act(view)
            try:
                take = bool(compiled(params, *decision_args(view)))
            except IndexError as e:
                problems.append(
                    f"{name}: its FAST_DECIDE reads outside an array ({e}; numba "
                    f"boundscheck, {DEBUG_ENV}) when shown {view}; compiled without the "
                    "check it would read whatever memory lies there"
                )
                return Action.TAKE  # ends the round; the problem is raised after it
            answer = policy.act(view)
            if take != (answer is Action.TAKE):
                problems.append(
                    f"{name}: its compiled FAST_DECIDE says {'TAKE' if take else 'PASS'} but "
                    f"its act(view) says {getattr(answer, 'name', answer)} when shown {view}"
                )
            compared[0] += 1
            return answer

    checked = _Checked()
    for g in range(n_games):
        play_game([checked] * n_players, rules=rules, seed=seed + g)
        if problems:  # raised here: the engine would report it as the bot's own failure
            raise FastDebugError(problems[0])
    return compared[0]


def check_table(policies: Any, rules: Rules | None) -> None:
    """`check_fast_bot` for each outside bot of a table, once per function and parameters."""
    from ..jit import is_outside
    from .protocol import _fast_params

    for p in policies:
        decide = type(p).FAST_DECIDE
        if not is_outside(decide):
            continue
        key = (decide, type(p), tuple(_fast_params(p, rules)), rules)
        if key in _checked:
            continue
        check_fast_bot(p, rules, n_players=len(policies))
        _checked.add(key)
