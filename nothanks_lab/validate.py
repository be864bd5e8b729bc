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

import functools
import importlib
import inspect
import itertools
import math
import os
import stat
import warnings
from collections.abc import Callable, Iterable, Mapping, Set
from typing import Any, TypeVar, cast

import numpy as np

from .rules import MAX_ITEMS, Rules, is_int, short_repr, take_items

__all__ = [
    "MAX_EVALS",
    "MAX_FIELD",
    "MAX_FILE_BYTES",
    "MAX_GAMES",
    "MAX_ITEMS",
    "MAX_SAMPLE_ROWS",
    "MAX_SIMULATED_ROUNDS",
    "MAX_TUNED_PARAMS",
    "SEED_RULE",
    "SeedLike",
    "check_bool",
    "check_count",
    "check_int",
    "check_number",
    "check_players",
    "check_product",
    "check_rules",
    "check_seat",
    "check_seed",
    "check_sequence",
    "check_text_size",
    "current_umask",
    "is_int",
    "is_number",
    "keyword_only_after",
    "make_rng",
    "read_file_bytes",
    "renamed_keywords",
    "renamed_names",
    "seed_sequence",
    "short_repr",
    "take_items",
    "write_atomic",
]

SeedLike = int | np.integer | np.random.Generator | np.random.SeedSequence | None
"""What a `seed` argument may be: see `check_seed`."""

#: What every `seed` argument accepts, in words (the end of every seed error message).
SEED_RULE = "None, a whole number >= 0, a numpy SeedSequence or a numpy Generator"


# --------------------------------------------------------------------------- ceilings
# Every size argument has a ceiling, checked before any work starts, so no input makes a call
# run for days or ask for terabytes. Each is far above what a lesson or a study needs.

#: Games (deals) of one call: `simulate`, `simulate_chunks`, `tournament`, sweeps, `tune`'s
#: games per evaluation, the CLI's ``--games``. About a minute per million seated games.
MAX_GAMES = 10**8
#: Largest `game_offset` of a seeded simulation (game indices stay within 64-bit integers).
MAX_GAME_OFFSET = 2**62

#: Simulated rounds of one probability twin (``mc_p_all_in_play(n=...)`` and the others).
MAX_SIMULATED_ROUNDS = 10**7

#: Rows of a sample returned whole as an array (``sample_removed(n)``, ``sample_in_play(n)``):
#: a million rows of a standard round is about 300 MB while it is drawn.
MAX_SAMPLE_ROWS = 10**6

#: Evaluations of one tuning run (``tune(max_evals=...)``), and grid points of one sweep (the
#: product of the numbers of values of its parameters). Times the deals of each evaluation,
#: the games of the whole call stay within `MAX_GAMES` too (`check_product`).
MAX_EVALS = 10_000


#: Bots of one tournament's field (each plays every seat of its share of the deals).
MAX_FIELD = 10_000

#: Parameters of one sweep's grid or one tuning run's bounds (a bot declares a handful).
MAX_TUNED_PARAMS = 100

#: Rounds of one match played through the one-game engine (``play_match(rounds=...)``): a
#: few hundred rounds a second, so about a minute at the ceiling.
MAX_MATCH_ROUNDS = 10_000

#: Screening rounds of one student bot before a league (``run_league(screen_rounds=...)``,
#: ``collect_bots(rounds=...)``, ``screen_bot(rounds=...)``).
MAX_SCREEN_ROUNDS = 100

#: Seconds a league's `time_limit` may give a file to load or a bot to decide: an hour.
MAX_TIME_LIMIT_S = 3600.0

#: Bytes of one round, match or tournament document read from text or a file (`review`'s
#: file, ``Game.from_json``, ``load_round``): a round is a few kB, a tournament's JSON far less
#: than this.
MAX_FILE_BYTES = 16 * 2**20


def check_count(value: object, name: str, ceiling: int, *, low: int = 1, owner: str = "") -> int:
    """A size argument as an int in ``low..ceiling``, else `ValueError` naming the ceiling.

    >>> check_count(10**15, "n_games", MAX_GAMES)
    Traceback (most recent call last):
    ...
    ValueError: n_games must be a whole number (int) >= 1 and at most 100000000 (its ceiling); ...
    """
    if not is_int(value) or not low <= int(value) <= ceiling:
        raise ValueError(
            f"{_who(name, owner)} must be a whole number (int) >= {low} and at most {ceiling} "
            f"(its ceiling); got {short_repr(value)}"
        )
    return int(value)


def check_product(sizes: Mapping[str, int], ceiling: int, ceiling_name: str) -> int:
    """The product of `sizes` (already checked counts), else `ValueError` naming each factor.

    For work that multiplies: a sweep plays ``grid points x n_games`` deals, a tuning run up
    to ``max_evals x n_games``; each factor may be within its own ceiling while the product
    is days of work.

    >>> check_product({"grid points": 10**4, "n_games": 10**5}, MAX_GAMES, "MAX_GAMES")
    Traceback (most recent call last):
    ...
    ValueError: grid points (10000) x n_games (100000) = 1000000000 is above 100000000 ...
    """
    total = math.prod(sizes.values())
    if total > ceiling:
        factors = " x ".join(f"{name} ({size})" for name, size in sizes.items())
        raise ValueError(
            f"{factors} = {total} is above {ceiling} ({ceiling_name}, the ceiling of one call); "
            "ask for fewer"
        )
    return total


def check_text_size(text: str | bytes, name: str, max_bytes: int = MAX_FILE_BYTES) -> None:
    """`ValueError` if `text` is longer than `max_bytes` (characters count as at least a byte)."""
    if len(text) > max_bytes:
        raise ValueError(
            f"{name} is {len(text)} {'bytes' if isinstance(text, bytes) else 'characters'} "
            f"long; at most {max_bytes} bytes are read (MAX_FILE_BYTES)"
        )


def read_file_bytes(path: object, name: str = "file", max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `max_bytes`, else `ValueError` saying why.

    Devices (``/dev/zero``), FIFOs, sockets and folders are refused before reading (a FIFO is
    never opened, so nothing blocks); so is a file above the ceiling, and one that grows past
    it while being read.
    """
    try:
        where = os.fspath(path)  # type: ignore[call-overload]
        info = os.stat(where)
    except TypeError:
        raise ValueError(
            f"{name} must be a path (str or os.PathLike); got {short_repr(path)}"
        ) from None
    except OSError as e:
        raise ValueError(f"cannot read {name} {path}: {e.strerror or e}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(
            f"{name} {short_repr(path)} is not a regular file (a device, FIFO or folder)"
        )
    if info.st_size > max_bytes:
        raise ValueError(
            f"{name} {path} is {info.st_size} bytes; at most {max_bytes} bytes are read "
            "(MAX_FILE_BYTES)"
        )
    try:
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped after the stat
                raise ValueError(f"{name} {short_repr(path)} is not a regular file")
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise ValueError(f"cannot read {name} {path}: {e.strerror or e}") from None
    if len(data) > max_bytes:
        raise ValueError(f"{name} {path} grew past {max_bytes} bytes while being read")
    return data


def write_atomic(
    path: str | os.PathLike[str], data: str | bytes, *, encoding: str = "utf-8"
) -> None:
    """Write `data` to `path` all at once or not at all: the package's one way to write a file.

    The bytes go to a temporary file in the same folder, flushed to disk, then renamed over
    `path` (`os.replace`, atomic on one file system). A full disk, a crash or Ctrl-C midway
    leaves the old file (or none), never a partial one; the temporary file is removed. A file
    written over keeps its permissions (a ``chmod 600`` bot stays private); a new one gets the
    usual ``0o666`` less the umask.
    """
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    raw = data.encode(encoding) if isinstance(data, str) else bytes(data)
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode_to_keep(target))
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _mode_to_keep(target: str) -> int:
    """The permissions of the file at `target` if it is one; else those a new file gets."""
    try:
        st = os.stat(target)
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode)
    return 0o666 & ~current_umask()


def current_umask() -> int:
    """The process's file-mode creation mask, read without changing it (for renamed files)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


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
    ok = False
    if is_int(value):
        v = int(value)
        ok = (low is None or v >= low) and (high is None or v <= high)
    if not ok:
        raise ValueError(
            f"{_who(name, owner)} must be a whole number (int){_bounds(low, high)}; "
            f"got {short_repr(value)}"
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
            f"{_who(name, owner)} must be a finite number{_bounds(low, high)}; "
            f"got {short_repr(value)}"
        )
    return x


def check_bool(value: object, name: str, *, owner: str = "") -> bool:
    """`value` as a bool (numpy bools too), or `ValueError`: 0, 1 and strings are refused."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{_who(name, owner)} must be True or False; got {short_repr(value)}")
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
    if is_int(seed) and seed >= 0:
        return int(seed)
    raise ValueError(f"{_who(name, owner)} must be {SEED_RULE}; got {short_repr(seed)}")


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
        raise ValueError(
            f"{name} must be {allowed}; got {type(rules).__name__} {short_repr(rules)}"
        )
    return rules.check_unaltered()


def check_players(n_players: object, rules: Rules, name: str = "n_players") -> int:
    """A player count the rule set allows (numpy ints too), or `ValueError` naming them."""
    if type(n_players) is int and any(n == n_players for n, _ in rules.chips):
        return n_players  # the common case, checked fast
    if not is_int(n_players) or int(n_players) not in rules.player_counts:
        allowed = ", ".join(map(str, rules.player_counts))
        raise ValueError(
            f"{name}: {short_repr(n_players)} players is not allowed by these rules; "
            f"allowed player counts: {allowed}"
        )
    return int(n_players)


def check_seat(seat: object, n_players: int, name: str = "seat") -> int:
    """`seat` as an int in ``0..n_players-1``, or `ValueError` naming `name`."""
    if type(seat) is int and 0 <= seat < n_players:
        return seat
    if not is_int(seat) or not 0 <= seat < n_players:
        raise ValueError(
            f"{name} must be a whole number in 0..{n_players - 1} for {n_players} players; "
            f"got {short_repr(seat)}"
        )
    return int(seat)


def check_sequence(
    value: object, name: str, what: str = "an ordered sequence", *, max_items: int = MAX_ITEMS
) -> list[Any]:
    """`value` as a list if it is ordered (list, tuple, range, 1-d array, iterator...).

    Unordered containers (sets, dicts) and text are refused: their order is not the caller's.
    More than `max_items` items are refused after reading one too many, so an endless
    iterator or a range of 10**12 costs nothing.
    """
    if isinstance(value, str | bytes | Set | Mapping) or not isinstance(value, Iterable):
        kind = type(value).__name__
        raise ValueError(
            f"{name} must be {what} (a list, tuple, range or 1-d array); "
            f"got {kind} {short_repr(value)}"
        )
    if isinstance(value, np.ndarray) and value.ndim != 1:
        raise ValueError(f"{name} must be {what}: a 1-d array; got shape {value.shape}")
    items = list(itertools.islice(value, max_items + 1))
    if len(items) > max_items:
        raise ValueError(f"{name} must be {what}; got more than {max_items} items")
    return items


# --------------------------------------------------------------------------- old spellings
_F = TypeVar("_F", bound=Callable[..., Any])


def renamed_keywords(**old_to_new: str) -> Callable[[_F], _F]:
    """Keep each old keyword spelling working one release, with a `DeprecationWarning`.

    The package's one way to rename an argument (issue 27: one word per concept): the old
    keyword is passed on under its new name; giving both is a `ValueError`.

    >>> @renamed_keywords(level="confidence")
    ... def f(*, confidence: float = 0.95) -> float:
    ...     return confidence
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     f(level=0.9), str(w[0].message)
    (0.9, 'f(level=...) is deprecated; spell it confidence=...')
    """

    def decorate(func: _F) -> _F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise ValueError(
                            f"{func.__name__}: give {new}= or its old spelling {old}=, not both"
                        )
                    warnings.warn(
                        f"{func.__name__}({old}=...) is deprecated; spell it {new}=...",
                        DeprecationWarning,
                        stacklevel=2,
                    )
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return cast(_F, wrapper)

    return decorate


def keyword_only_after(n_positional: int, *names: str) -> Callable[[_F], _F]:
    """The keyword-only `names`, once also positional after the first `n_positional`
    arguments, keep working by position one release, with a `DeprecationWarning` naming them.

    >>> @keyword_only_after(1, "seed")
    ... def g(a: int, *, seed: int | None = None) -> tuple[int, int | None]:
    ...     return a, seed
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     g(1, 7), str(w[0].message)
    ((1, 7), 'g: give seed by keyword (seed=...); by position it is deprecated')
    """

    def decorate(func: _F) -> _F:
        params = inspect.signature(func).parameters
        if any(params[name].kind is not inspect.Parameter.KEYWORD_ONLY for name in names):
            raise TypeError(f"{func.__name__}: {names} must all be keyword-only parameters")
        late = list(names)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if len(args) > n_positional:
                extra = args[n_positional:]
                if len(extra) > len(late):
                    raise TypeError(f"{func.__name__}: too many positional arguments")
                given = late[: len(extra)]
                for name in given:
                    if name in kwargs:
                        raise TypeError(f"{func.__name__}: got {name} twice")
                words = ", ".join(f"{name}=..." for name in given)
                warnings.warn(
                    f"{func.__name__}: give {', '.join(given)} by keyword ({words}); "
                    "by position it is deprecated",
                    DeprecationWarning,
                    stacklevel=2,
                )
                kwargs.update(zip(given, extra, strict=True))
                args = args[:n_positional]
            return func(*args, **kwargs)

        return cast(_F, wrapper)

    return decorate


def renamed_names(module: str, **old_to_new: str) -> Callable[[str], object]:
    """A module's ``__getattr__`` keeping each old name working one release, with a warning.

    `old_to_new` maps an old name to the full dotted name of what it now is, imported on use.

    >>> getattr_ = renamed_names("pkg", Old="nothanks_lab.stats.Interval")
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     getattr_("Old").__name__, str(w[0].message)
    ('Interval', 'pkg.Old is deprecated; use nothanks_lab.stats.Interval')
    """

    def __getattr__(name: str) -> object:
        new = old_to_new.get(name)
        if new is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(f"{module}.{name} is deprecated; use {new}", DeprecationWarning, stacklevel=2)
        where, _, attr = new.rpartition(".")
        return getattr(importlib.import_module(where), attr)

    return __getattr__
