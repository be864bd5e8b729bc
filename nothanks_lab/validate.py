"""One rule per kind of argument: the package's shared input checks.

Every public entry point checks its arguments with these helpers, so the same bad value gets
the same answer everywhere: a `ValueError` whose message names the argument (and the bot or
object it belongs to), says what is allowed, and shows what was given. Whole numbers are
Python ints or numpy integers, never bools, floats or strings; numbers are finite ints or
floats; seeds follow one rule (`check_seed`). None of these helpers touches random state.

>>> check_int(np.int64(3), "n_games", low=1)
3
>>> check_seed(-1, owner="RandomBot")
Traceback (most recent call last):
...
ValueError: RandomBot: seed must be None, a whole number >= 0, a numpy SeedSequence or ...
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Set
from typing import Any

import numpy as np

from .rules import Rules, is_int

__all__ = [
    "SEED_RULE",
    "SeedLike",
    "check_bool",
    "check_int",
    "check_number",
    "check_players",
    "check_rules",
    "check_seat",
    "check_seed",
    "check_sequence",
    "is_int",
    "is_number",
    "make_rng",
    "seed_sequence",
]

SeedLike = int | np.integer | np.random.Generator | np.random.SeedSequence | None
"""What a `seed` argument may be: see `check_seed`."""

#: What every `seed` argument accepts, in words (the end of every seed error message).
SEED_RULE = "None, a whole number >= 0, a numpy SeedSequence or a numpy Generator"


def _who(name: str, owner: str) -> str:
    return f"{owner}: {name}" if owner else name


def _bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f" in [{low}, {high}]"
    if low is not None:
        return f" >= {low}"
    if high is not None:
        return f" <= {high}"
    return ""


def check_int(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    owner: str = "",
) -> int:
    """`value` as an int, or `ValueError` naming `name` and the allowed range.

    >>> check_int(True, "rounds", low=1)
    Traceback (most recent call last):
    ...
    ValueError: rounds must be a whole number (int) >= 1; got True
    """
    ok = is_int(value)
    if ok:
        v = int(value)  # type: ignore[call-overload]
        ok = (low is None or v >= low) and (high is None or v <= high)
    if not ok:
        raise ValueError(
            f"{_who(name, owner)} must be a whole number (int){_bounds(low, high)}; got {value!r}"
        )
    return v


def is_number(value: object) -> bool:
    """True for an int, float or numpy number; False for bools, strings and everything else.

    NaN and infinities count as numbers here: `check_number` refuses them.
    """
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def check_number(
    value: object,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    owner: str = "",
) -> float:
    """`value` as a finite float, or `ValueError` naming `name` and the allowed range.

    Ints and numpy numbers are accepted; bools, strings, NaN and infinities are not.
    """
    ok = is_number(value)
    if ok:
        x = float(value)  # type: ignore[arg-type]
        ok = math.isfinite(x) and (low is None or x >= low) and (high is None or x <= high)
    if not ok:
        raise ValueError(
            f"{_who(name, owner)} must be a finite number{_bounds(low, high)}; got {value!r}"
        )
    return x


def check_bool(value: object, name: str, *, owner: str = "") -> bool:
    """`value` as a bool (numpy bools too), or `ValueError`: 0, 1 and strings are refused."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{_who(name, owner)} must be True or False; got {value!r}")
    return bool(value)


def check_seed(seed: object, name: str = "seed", *, owner: str = "") -> SeedLike:
    """`seed` if it follows the package's one seed rule, else `ValueError` naming `name`.

    A seed is None (fresh entropy), a whole number >= 0 (numpy integers too, never a bool, a
    float or a list), a `numpy.random.SeedSequence` or a `numpy.random.Generator`.

    >>> check_seed(np.uint8(7)), check_seed(None)
    (7, None)
    """
    if seed is None or isinstance(seed, np.random.Generator | np.random.SeedSequence):
        return seed
    if is_int(seed) and seed >= 0:  # type: ignore[operator]
        return int(seed)  # type: ignore[call-overload]
    raise ValueError(f"{_who(name, owner)} must be {SEED_RULE}; got {seed!r}")


def make_rng(seed: object, name: str = "seed", *, owner: str = "") -> np.random.Generator:
    """A `numpy.random.Generator` from a seed checked by `check_seed` (a Generator is kept)."""
    seed = check_seed(seed, name, owner=owner)
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def seed_sequence(seed: object, name: str = "seed", *, owner: str = "") -> np.random.SeedSequence:
    """A `numpy.random.SeedSequence` from any seed `check_seed` accepts, to spawn streams from.

    A SeedSequence is kept; a Generator gives one draw of its stream (so it advances).

    >>> seed_sequence(7).entropy, seed_sequence(np.random.SeedSequence(3)).entropy
    (7, 3)
    """
    seed = check_seed(seed, name, owner=owner)
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(2**63)))
    return np.random.SeedSequence(seed)


def check_rules(rules: object, name: str = "rules", *, optional: bool = True) -> Rules:
    """`rules` itself, the standard game for None, or `ValueError` for anything else.

    With ``optional=False`` None is refused too (for arguments that have no default game).

    >>> check_rules(None, optional=False)
    Traceback (most recent call last):
    ...
    ValueError: rules must be a nothanks_lab.Rules; got NoneType None
    """
    if rules is None and optional:
        return Rules()
    if not isinstance(rules, Rules):
        allowed = "a nothanks_lab.Rules or None" if optional else "a nothanks_lab.Rules"
        raise ValueError(f"{name} must be {allowed}; got {type(rules).__name__} {rules!r}")
    return rules


def check_players(n_players: object, rules: Rules, name: str = "n_players") -> int:
    """A player count the rule set allows (numpy ints too), or `ValueError` naming them."""
    if type(n_players) is int and any(n == n_players for n, _ in rules.chips):
        return n_players  # the common case, checked fast
    if not is_int(n_players) or int(n_players) not in rules.player_counts:  # type: ignore[call-overload]
        allowed = ", ".join(map(str, rules.player_counts))
        raise ValueError(
            f"{name}: {n_players!r} players is not allowed by these rules; "
            f"allowed player counts: {allowed}"
        )
    return int(n_players)  # type: ignore[call-overload]


def check_seat(seat: object, n_players: int, name: str = "seat") -> int:
    """`seat` as an int in ``0..n_players-1``, or `ValueError` naming `name`."""
    if type(seat) is int and 0 <= seat < n_players:
        return seat
    if not is_int(seat) or not 0 <= seat < n_players:  # type: ignore[operator]
        raise ValueError(
            f"{name} must be a whole number in 0..{n_players - 1} for {n_players} players; "
            f"got {seat!r}"
        )
    return int(seat)  # type: ignore[call-overload]


def check_sequence(value: object, name: str, what: str = "an ordered sequence") -> list[Any]:
    """`value` as a list if it is ordered (list, tuple, range, 1-d array, iterator...).

    Unordered containers (sets, dicts) and text are refused: their order is not the caller's.
    """
    if isinstance(value, str | bytes | Set | Mapping) or not isinstance(value, Iterable):
        kind = type(value).__name__
        raise ValueError(
            f"{name} must be {what} (a list, tuple, range or 1-d array); got {kind} {value!r}"
        )
    if isinstance(value, np.ndarray) and value.ndim != 1:
        raise ValueError(f"{name} must be {what}: a 1-d array; got shape {value.shape}")
    return list(value)
