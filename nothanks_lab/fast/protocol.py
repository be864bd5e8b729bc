"""Which bots have a compiled path, and what a user is told when theirs has none.

A bot class has a fast path when it defines ``FAST_DECIDE``, a pure, numba-compilable
function ``decide(params, card, pot, seat, hands, chips, cards_left) -> bool`` (take?), and
``fast_params()`` (`has_fast_path`), and no subclass below it overrides ``act``. Before a
kernel is built, each decision function from outside the package is compiled on its own with
the kernel's argument types (`check_decide`), so a failure names the bot and numba's complaint
(`FastPathError`) instead of surfacing as a traceback from deep inside the kernel. A table
that plays through the one-game engine instead is announced by a `SlowPathWarning`, once per
bot class and process (`warn_slow_path`), saying how much slower (`SLOWDOWN`) and why.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np

from ..bots.base import FastPathError, SlowPathWarning
from ..jit import Dispatcher, Fresh, code_digest, compile_lock, is_outside
from ..rules import Rules

__all__ = [
    "SLOWDOWN",
    "FastPathError",
    "SlowPathWarning",
    "check_decide",
    "has_fast_path",
    "warn_slow_path",
]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # numba may colour its messages
_WHERE = re.compile(r'File "(.+)", line (\d+)')

#: How many times slower a table plays through the one-game engine than compiled, roughly:
#: measured on this project's shared 2-core machines at 4 seats, one process: marginal bots
#: 180 against 370,000 rounds/s (2,000x), heuristic and marginal 86 against 82,000 (950x),
#: random 250 against 88,000 (350x).
SLOWDOWN = "about 1,000 times slower (a few hundred rounds a second instead of a hundred thousand)"

_FIX = (
    "A decision function may use only numbers, numpy arrays, the arguments it is given and "
    "functions numba compiles (plain functions of numbers, or numba.njit ones); read the bot's "
    "parameters from the params array that fast_params returns, and return True (take) or "
    "False. Or remove FAST_DECIDE and write act(view) instead: the bot then plays through the "
    "one-game engine, " + SLOWDOWN + "."
)


def _signature() -> tuple[Any, ...]:
    """The argument types the kernel passes a decision function (see `play_rounds`)."""
    i64, row = numba.int64, numba.int64[::1]
    return (numba.float64[::1], i64, i64, i64, row, row, i64)


_checked: dict[Any, str | None] = {}


def _complaint(error: BaseException) -> str:
    """The first informative line of numba's error, and where in the user's source it is."""
    text = _ANSI.sub("", str(error))
    lines = [ln.strip() for ln in text.splitlines()]
    skip = ("Failed in ", "During:", "File ", "^")
    first = next((ln for ln in lines if ln and not ln.startswith(skip)), type(error).__name__)
    for i, ln in enumerate(lines):
        m = _WHERE.match(ln)
        if m:
            code = next((c for c in lines[i + 1 : i + 4] if c and not c.startswith("def ")), "")
            where = f"{Path(m.group(1)).name}, line {m.group(2)}"
            return f"{first} ({where}: {code})" if code else f"{first} ({where})"
    return first


def _compile_problem(func: Callable[..., Any]) -> str | None:
    """Why numba cannot compile `func` as a decision function (None: it can)."""
    try:
        compiled = Fresh(True).value(func)
        if not isinstance(compiled, Dispatcher):
            return (
                f"FAST_DECIDE must be a function (def ...) or a numba.njit function; "
                f"got {type(func).__name__} {func!r}"
            )
        sig = _signature()
        compiled.compile(sig)
        returned = compiled.overloads[sig].signature.return_type  # type: ignore[attr-defined]
    except Exception as e:  # numba raises its own errors and, at times, plain Python ones
        return _complaint(e)
    if not isinstance(returned, numba.types.Boolean | numba.types.Integer | numba.types.Float):
        return f"it returns {returned}, where the kernel needs True (take) or False (pass)"
    return None


def _decide_problem(func: Callable[..., Any]) -> str | None:
    """`_compile_problem` of the outside decision function `func`, once per version of its
    code (None for the package's own, which are tested)."""
    if not is_outside(func):
        return None
    digest = code_digest(func)
    key = (func, None if digest is None else hashlib.sha256(digest).hexdigest())
    with compile_lock:
        if key in _checked:
            return _checked[key]
        problem = _compile_problem(func)
        if digest is not None:
            _checked[key] = problem
        return problem


def _where(func: Callable[..., Any]) -> str:
    name = getattr(func, "__qualname__", None) or repr(func)
    module = getattr(func, "__module__", None)
    return f"{module}.{name}" if module else name


def check_decide(func: Callable[..., Any], owner: str) -> None:
    """Raise `FastPathError` naming `owner` if numba cannot compile the decision function
    `func` with the kernel's argument types (checked once per version of the code).

    The package's own decision functions are tested, so only outside code is compiled here.
    """
    problem = _decide_problem(func)
    if problem is not None:
        raise FastPathError(
            f"{owner}: numba cannot compile its FAST_DECIDE ({_where(func)}): {problem}. {_FIX}"
        )


_slow_warned: set[type] = set()


def warn_slow_path(policies: Sequence[object], stacklevel: int = 1) -> None:
    """Warn (`SlowPathWarning`, once per bot class and process) that the table `policies`
    plays through the one-game engine, naming the classes without a usable compiled path.

    `stacklevel` counts from the caller of this function, as in `warnings.warn`.
    """
    with compile_lock:
        classes = [c for c in dict.fromkeys(type(p) for p in policies) if c not in _slow_warned]
        reasons = {c: r for c in classes if (r := _slow_reason(c)) is not None}
        _slow_warned.update(reasons)
    if not reasons:
        return
    why = "; ".join(f"{c.__name__} {r}" for c, r in reasons.items())
    warnings.warn(
        f"{why}: this table plays through the one-game engine, {SLOWDOWN}. A bot of your own "
        "gets the compiled path by subclassing nothanks_lab.bots.FastBot with a FAST_DECIDE "
        "function (docs: 'Writing your own bot'); pass fast=False to simulate to choose the "
        "engine knowingly. (Shown once per bot class.)",
        SlowPathWarning,
        stacklevel=stacklevel + 1,
    )


def _slow_reason(cls: type) -> str | None:
    """Why policies of class `cls` have no usable compiled path (None: they have one)."""
    decide = getattr(cls, "FAST_DECIDE", None)
    if not callable(decide) or not callable(getattr(cls, "fast_params", None)):
        return "has no compiled decision function (FAST_DECIDE)"
    if _overrides_act(cls):
        return "overrides act below its FAST_DECIDE, so it has no compiled path"
    problem = _decide_problem(decide)
    if problem is not None:
        return (
            f"has a FAST_DECIDE numba cannot compile ({_where(decide)}: {problem}; use only "
            "numbers, numpy arrays and numba-compiled functions in it)"
        )
    return None


def _overrides_act(cls: type) -> bool:
    """Whether a class below the one defining ``FAST_DECIDE`` in `cls`'s MRO defines ``act``."""
    mro = cls.__mro__
    owner = next(i for i, c in enumerate(mro) if "FAST_DECIDE" in vars(c))
    return any("act" in vars(c) for c in mro[:owner])


def has_fast_path(policy: object) -> bool:
    """Whether `policy`'s class defines ``FAST_DECIDE`` and ``fast_params()``.

    A subclass that overrides ``act`` below the class defining ``FAST_DECIDE`` decides
    differently from that function, so it has no fast path (it plays through the engine).
    """
    cls = type(policy)
    if not (
        callable(getattr(cls, "FAST_DECIDE", None))
        and callable(getattr(policy, "fast_params", None))
    ):
        return False
    return not _overrides_act(cls)


def _fast_params(policy: Any, rules: Rules | None) -> np.ndarray:
    """``policy.fast_params(rules)`` if it takes the rule set (constants of a variant), else
    ``policy.fast_params()``."""
    method = policy.fast_params
    try:
        takes_rules = len(inspect.signature(method).parameters) >= 1
    except (TypeError, ValueError):
        takes_rules = False
    values = method(rules) if takes_rules and rules is not None else method()
    return np.asarray(values, dtype=np.float64).ravel()
