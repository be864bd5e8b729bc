"""The compiled fast path of `simulate`: the shared rules and each bot's decision rule, in numba.

Nothing here restates a rule. The kernel `play_chunk` below is plain Python that calls the
transition functions of :mod:`nothanks_lab.core`, the dealer of :mod:`nothanks_lab.deals` and
each bot class's ``FAST_DECIDE`` function; it is compiled with those very functions. It is the
package's one compiled playout loop: `simulate` deals and plays rounds on it, and `play_out`
finishes positions from the middle of a round on it (the search bot's and
:mod:`nothanks_lab.analysis`'s rollouts).

**How a bot gets a fast path.** A bot class defines ``FAST_DECIDE``, a pure, numba-compilable
function ``decide(params, card, pot, seat, hands, chips, cards_left) -> bool`` (take?) that may
assume passing is allowed (the kernel makes the forced take at zero chips), and a method
``fast_params() -> float64[K]`` giving its parameters (or ``fast_params(rules=None)``, which
then receives the table's rule set). Its ``act`` should call the same
function through :func:`nothanks_lab.bots.base.decision_args`. That is all: `fast_table`
discovers the kinds of the policies at a table, numbers them, and the kernel dispatches on a
kind id per seat with a params array ``[P, K]``. No list in this file needs editing. A
subclass that overrides ``act`` below the class defining ``FAST_DECIDE`` decides otherwise, so
it plays through the engine instead (`has_fast_path`).

**How the pure functions are compiled** (:mod:`nothanks_lab.jit`). `jit_pure` compiles a
function with ``numba.njit`` after giving it a copy of its module globals in which every
function and module of this package is replaced by its compiled counterpart (recursively), so
``marginal_decide`` calling ``core.marginal_points`` calls the compiled ``marginal_points``.
The source files stay ordinary Python that the readable engine runs unchanged.

**Caching.** numba's on-disk cache keys a function to its own source file only, so a kernel
cached beside this file would silently keep an old rule after ``core.py``, a bot or a user's
helper module changed. Instead, for each set of kinds, `kernel_module` writes a small module (the
if-chain over the kinds plus the source of `play_rounds` and `play_chunk`, read at import) into
a cache directory under a name that hashes the *loaded* code every kind reaches (`_code_digest`:
bytecode, options, and the constants it reads, through every function, numba dispatcher and
module, the package's and the user's alike), numba's version and Python's; numba caches the
compiled kernel next to it. Code from outside the package is compiled afresh from its Python
source (`_Fresh`), never from numba's own cache, so a user's helper in another module cannot be
stale. The directory is ``$NOTHANKS_LAB_CACHE`` if set, else ``$XDG_CACHE_HOME/nothanks_lab``
(``~/.cache/nothanks_lab``), created 0700 and used only while owned by the user and writable by
no one else (`_unsafe_reason`); otherwise, or when a kind cannot be keyed, the kernel is
compiled in memory (a warning says why, once). Compiling happens under a lock and the kernel
runs without the GIL, so threaded workers can share a process.

**When a decision function does not compile.** Before a kernel is built, each decision
function from outside the package is compiled on its own with the kernel's argument types
(`check_decide`), so a failure names the bot and numba's complaint (`FastPathError`) instead
of surfacing as a traceback from deep inside the kernel. ``simulate(..., fast=True)`` raises
it; otherwise the table plays through the one-game engine, with a `SlowPathWarning` (once per
bot class and process, `warn_slow_path`), as does any table with a policy that has no fast
path at all.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import inspect
import os
import re
import stat
import sys
import textwrap
import types
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np

from . import core, deals
from .bots.base import FastPathError, SlowPathWarning
from .jit import _code_digest, _Dispatcher, _Fresh, _is_outside, _lock, jit_pure
from .jit import jitted_module as jitted_module  # the generated kernels call fast.jitted_module
from .rules import Rules

__all__ = [
    "SLOWDOWN",
    "FastPathError",
    "FastTable",
    "SlowPathWarning",
    "check_decide",
    "decide",
    "fast_table",
    "has_fast_path",
    "jit_pure",
    "kernel_module",
    "play_chunk",
    "play_out",
    "play_rounds",
    "warn_slow_path",
]


# --------------------------------------------------------------------------- the kernel
def decide(
    kind: int,
    params: np.ndarray,
    card: int,
    pot: int,
    seat: int,
    hands: np.ndarray,
    chips: np.ndarray,
    cards_left: int,
) -> bool:
    """Dispatch to the decision function of `kind` (each kernel module defines its own)."""
    raise NotImplementedError("decide is generated per set of kinds by kernel_module")


def play_chunk(
    s: core.State,
    kinds: np.ndarray,
    params: np.ndarray,
    deal: bool,
    key0: np.uint64,
    key1: np.uint64,
    start: np.int64,
    low_card: np.int64,
    n_cards: np.int64,
    points: np.ndarray,
    n_decisions: np.ndarray,
) -> None:
    """Play every round of the batch `s` to the end (compiled by `kernel_module`).

    With `deal`, round ``g``'s deck is first dealt as game ``start + g`` of the stream
    (`key0`, `key1`); otherwise ``s.deck`` already holds it. Seat ``p`` decides with
    ``decide(kinds[p], params[p], ...)``; a seat without chips takes. Writes each seat's card
    points into `points` and the number of moves into `n_decisions`; ``s.chips`` ends as the
    final chips.
    """
    box = np.empty(n_cards, dtype=np.int64)  # the dealer's scratch space
    play_rounds(
        s, kinds, params, deal, key0, key1, start, low_card, n_cards, points, n_decisions, box
    )


def play_rounds(
    s: core.State,
    kinds: np.ndarray,
    params: np.ndarray,
    deal: bool,
    key0: np.uint64,
    key1: np.uint64,
    start: np.int64,
    low_card: np.int64,
    n_cards: np.int64,
    points: np.ndarray,
    n_decisions: np.ndarray,
    box: np.ndarray,
) -> None:
    """The loop of `play_chunk`, given the dealer's scratch space `box` (int64[n_cards]).

    It allocates nothing, so it is compiled without reference counting (see `kernel_module`).
    """
    n_in_play = s.deck.shape[1]
    for g in range(s.deck.shape[0]):
        if deal:
            deals.deal_into(key0, key1, start + g, low_card, n_cards, s.deck[g], box)
        moves = 0
        while not core.is_over(s, g):
            p = s.player[g]
            take = True  # forced when the seat has no chip to pass with
            if core.can_pass(s, g):
                take = decide(
                    kinds[p],
                    params[p],
                    core.active_card(s, g),
                    s.pot[g],
                    p,
                    s.hands[g],
                    s.chips[g],
                    n_in_play - s.turned[g] - 1,
                )
            core.step(s, g, take)
            moves += 1
        n_decisions[g] = moves
        for q in range(s.hands.shape[1]):
            points[g, q] = core.card_points_mask(s.hands[g, q])


def _code_names(code: types.CodeType) -> tuple[Any, ...]:
    return (code.co_name, code.co_names, code.co_varnames, code.co_consts)


def _captured_source() -> tuple[str, str] | None:
    """The source of `play_rounds` and `play_chunk`, for kernel modules; None if the file on
    disk no longer matches the loaded code (then no kernel module is built from it)."""
    out = []
    for f in (play_rounds, play_chunk):
        try:
            src = textwrap.dedent(inspect.getsource(f))
        except OSError:
            return None
        code = compile(src, f"<{f.__name__}>", "exec")
        inner = next((c for c in code.co_consts if isinstance(c, types.CodeType)), None)
        # Compared by what it names (the loaded bytecode may differ in form, not in meaning).
        if inner is None or _code_names(inner) != _code_names(f.__code__):
            return None
        out.append(src)
    return out[0], out[1]


# Read once, at import, while the file matches the loaded code: a kernel built later from a file
# edited meanwhile would be wrong, and cached under the edited file's key.
_PLAY_SOURCE = _captured_source()
_OWN_SOURCE = Path(__file__).read_bytes() + Path(inspect.getfile(jit_pure)).read_bytes()


_HEADER = '''"""Generated by nothanks_lab.fast (do not edit): the compiled kernel for these kinds.

Kinds: {kinds}
Dependency hash: {digest}
"""

import numba
import numpy as np

from nothanks_lab import core as _core_py
from nothanks_lab import deals as _deals_py
from nothanks_lab import fast as _fast

NRT = {nrt}  # numba reference counting in the hot loop (see nothanks_lab.fast.kernel_module)
CACHE = {cache}  # numba's on-disk cache (False when compiled in memory)
core = _fast.jitted_module(_core_py, nrt=NRT)
deals = _fast.jitted_module(_deals_py, nrt=NRT)
_kinds = _fast._building  # the compiled decision functions (see nothanks_lab.fast)
{bindings}


@numba.njit(cache=CACHE, _nrt=NRT)
def decide(kind, params, card, pot, seat, hands, chips, cards_left):
{chain}
'''


# --------------------------------------------------------------------------- code from outside
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # numba may colour its messages
_WHERE = re.compile(r'File "(.+)", line (\d+)')


def _compiled_kind(kind: Callable[..., Any], nrt: bool) -> Any:
    """The compiled decision function of `kind` for a kernel (`nrt` as in `kernel_module`)."""
    if _is_outside(kind):
        return _Fresh(nrt).value(kind)
    return jit_pure(kind, nrt=nrt)


# --------------------------------------------------------------------------- the cache directory
_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, RuntimeWarning, stacklevel=4)


def _unsafe_reason(path: Path) -> str | None:
    """Why the existing directory `path` must not hold code we import (None: it is safe).

    It must be a directory owned by the current user that no group or other user can write,
    and every directory above it must be owned by the user or root and be writable by no one
    else, unless sticky (as ``/tmp`` is: others cannot rename entries they do not own).
    """
    uid = os.getuid()
    try:
        st = os.stat(path)
    except OSError as e:
        return f"cannot inspect it ({e.strerror})"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a directory"
    if st.st_uid != uid:
        return f"it is owned by uid {st.st_uid}, not by the current user (uid {uid})"
    if st.st_mode & 0o022:
        return f"group or other users can write to it (mode {stat.S_IMODE(st.st_mode):o})"
    real = Path(os.path.realpath(path))
    for parent in real.parents:
        pst = os.stat(parent)
        if pst.st_uid not in (uid, 0):
            return f"its parent {parent} is owned by uid {pst.st_uid}"
        if pst.st_mode & 0o022 and not pst.st_mode & stat.S_ISVTX:
            return f"its parent {parent} is writable by other users and not sticky"
    return None


def _make_private_dir(path: Path) -> None:
    """Create `path` and any missing parents, each private to the user (mode 0700)."""
    missing = []
    p = path
    while not os.path.lexists(p):
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, 0o700)
        except FileExistsError:
            pass  # created meanwhile (by a parallel worker): checked below like any other


def _cache_dir() -> Path | None:
    """The directory for generated kernels, or None to compile them in memory.

    ``$NOTHANKS_LAB_CACHE`` if set, else ``$XDG_CACHE_HOME/nothanks_lab`` (by default
    ``~/.cache/nothanks_lab``), created private (0700) if missing, and used only if it is safe
    (see `_unsafe_reason`); otherwise kernels are compiled in memory, with a warning (once)
    saying why.
    """
    env = os.environ.get("NOTHANKS_LAB_CACHE")
    if env:
        d = Path(env).expanduser()
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = Path(base) / "nothanks_lab"
    d = d.absolute()
    try:
        _make_private_dir(d)
        reason = _unsafe_reason(d)
        if reason is None:
            probe = d / f".probe{os.getpid()}"
            probe.write_text("")
            probe.unlink()
    except OSError as e:
        reason = f"it cannot be created or written ({e.strerror or e})"
    if reason is None:
        return d
    _warn_once(
        f"nothanks_lab: not using {d} for compiled kernels: {reason}. Kernels are compiled in "
        "memory (slower to start); set NOTHANKS_LAB_CACHE to a directory only you can write."
    )
    return None


_building: tuple[Callable[..., Any], ...] = ()
_n_in_memory = 0
_kernels: dict[tuple[Any, ...], types.ModuleType] = {}


def _kernel_key(kinds: tuple[Callable[..., Any], ...]) -> tuple[Any, ...]:
    """The in-process key of a kernel: its kinds, and what outside code they reach now (so
    reloading a user's helper module gives a new kernel)."""
    if not any(_is_outside(k) for k in kinds):
        return kinds
    digests = tuple(_code_digest(k) if _is_outside(k) else b"" for k in kinds)
    if any(d is None for d in digests):
        return (*kinds, object())  # unkeyable: a fresh kernel every time
    return (*kinds, hashlib.sha256(b"\0".join(digests)).hexdigest())  # type: ignore[arg-type]


def kernel_module(kinds: Sequence[Callable[..., Any]]) -> types.ModuleType:
    """The module holding the compiled ``decide`` and ``play_chunk`` for these decision kinds.

    The hot loop, `play_rounds`, and everything it calls are compiled without numba's
    reference counting: it allocates nothing, and the counts numba would keep on the state's
    arrays (an atomic increment and decrement around each call) survive its pruning whenever
    the optimiser merges branches. Measured (numba 0.68, 5 ``MarginalCostBot(10)``, 1M games
    of `simulate`, five alternating runs each): 450,000 games/s without counting against
    235,000 with it (medians), so the kernel uses numba's private ``_nrt=False`` option;
    ``tests/test_fast.py::test_numba_still_has_the_private_nrt_option`` fails loudly if a
    numba release drops or changes it. A decision function that allocates arrays cannot be
    compiled that way; its kinds get a kernel with counting. The kernel is compiled (or loaded
    from the cache) here, once per set of kinds.
    """
    kinds = tuple(kinds)
    with _lock:
        key = _kernel_key(kinds)
        got = _kernels.get(key)
        if got is None:
            try:
                got = _build_kernel_module(kinds, nrt=False)
                _warm(got)
            except numba.core.errors.NumbaError:
                got = _build_kernel_module(kinds, nrt=True)
            _kernels[key] = got
        return got


def _warm(module: types.ModuleType) -> None:
    """Compile (or load) `module`'s kernel for the argument types `FastTable.play` passes."""
    i64 = np.int64
    s = core.new_state(np.empty((0, 1), dtype=i64), 1, 0, 0)
    module.play_chunk(
        s,
        np.zeros(1, dtype=i64),
        np.zeros((1, 1)),
        True,
        np.uint64(0),
        np.uint64(0),
        i64(0),
        i64(0),
        i64(1),
        np.empty((0, 1), dtype=i64),
        np.empty(0, dtype=i64),
    )


def _build_kernel_module(kinds: tuple[Callable[..., Any], ...], nrt: bool) -> types.ModuleType:
    """Generate, write (when it can be cached) and import the kernel module for `kinds`."""
    if _PLAY_SOURCE is None:
        raise RuntimeError(
            f"{__file__} changed on disk before it was imported; restart Python to use it"
        )
    h = hashlib.sha256()
    for part in (sys.version, numba.__version__, np.__version__, _OWN_SOURCE, *_PLAY_SOURCE):
        h.update(part.encode() if isinstance(part, str) else part)
    h.update(b"nrt" if nrt else b"no-nrt")
    h.update(_code_digest(play_chunk) or b"")
    keyable = True
    for k in kinds:
        part = _code_digest(k)
        keyable = keyable and part is not None
        h.update(b"\0kind\0" + (part or b""))
    digest = h.hexdigest()[:20]
    directory = _cache_dir() if keyable else None
    names = [f"{getattr(k, '__module__', '?')}.{getattr(k, '__qualname__', '?')}" for k in kinds]
    bindings = "\n".join(f"decide_{i} = _kinds[{i}]" for i in range(len(kinds)))
    args = "params, card, pot, seat, hands, chips, cards_left"
    chain = "\n".join(
        f"    if kind == {i}:\n        return bool(decide_{i}({args}))" for i in range(len(kinds))
    )
    chain += f"\n    return bool(decide_0({args}))  # unreachable: kinds are checked"
    nogil = "  # threads of a pool can run it side by side"
    text = (
        _HEADER.format(
            kinds=", ".join(names),
            digest=digest if keyable else "none (compiled in memory)",
            nrt=nrt,
            cache=directory is not None,
            bindings=bindings,
            chain=chain,
        )
        + f"\n\n@numba.njit(cache=CACHE, nogil=True, _nrt=NRT){nogil}\n"
        + _PLAY_SOURCE[0]
        + f"\n\n@numba.njit(cache=CACHE, nogil=True){nogil}\n"
        + _PLAY_SOURCE[1]
    )
    global _building, _n_in_memory
    path = None
    if directory is not None:
        path = directory / f"kernel_{digest}.py"
        try:
            if not path.exists() or path.read_text() != text:
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(text)
                os.replace(tmp, path)  # atomic: parallel workers never see half a file
        except OSError as e:
            _warn_once(f"nothanks_lab: cannot write {path} ({e}); compiling kernels in memory")
            text = text.replace("CACHE = True", "CACHE = False", 1)
            path = None
    loader = None
    if path is not None:
        modname = f"_nothanks_lab_kernel_{digest}"
        spec = importlib.util.spec_from_file_location(modname, path)
        assert spec is not None and spec.loader is not None
        module, loader = importlib.util.module_from_spec(spec), spec.loader
    else:
        _n_in_memory += 1
        modname = f"_nothanks_lab_kernel_{digest}_memory{_n_in_memory}"
        module = types.ModuleType(modname)
    # Compiled afresh for each kernel module built (outside code) or shared (package code).
    _building = tuple(_compiled_kind(k, nrt) for k in kinds)
    try:
        if loader is not None:
            loader.exec_module(module)
        else:
            exec(compile(text, f"<{modname}>", "exec"), module.__dict__)
    finally:
        _building = ()
    sys.modules[modname] = module
    return module


# --------------------------------------------------------------------------- checking a kind
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
        compiled = _Fresh(True).value(func)
        if not isinstance(compiled, _Dispatcher):
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
    if not _is_outside(func):
        return None
    digest = _code_digest(func)
    key = (func, None if digest is None else hashlib.sha256(digest).hexdigest())
    with _lock:
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
    with _lock:
        classes = [c for c in dict.fromkeys(type(p) for p in policies) if c not in _slow_warned]
        reasons = {c: r for c in classes if (r := _slow_reason(c)) is not None}
        _slow_warned.update(reasons)
    if not reasons:
        return
    why = "; ".join(f"{c.__name__} {r}" for c, r in reasons.items())
    warnings.warn(
        f"{why}: this table plays through the one-game engine, {SLOWDOWN}. A bot of your own "
        "gets the compiled path by subclassing nothanks_lab.bots.FastBot with a FAST_DECIDE "
        "function (README: 'Writing your own bot'); pass fast=False to simulate to choose the "
        "engine knowingly. (Shown once per bot class.)",
        SlowPathWarning,
        stacklevel=stacklevel + 1,
    )


def _slow_reason(cls: type) -> str | None:
    """Why policies of class `cls` have no usable compiled path (None: they have one)."""
    decide = getattr(cls, "FAST_DECIDE", None)
    if not callable(decide) or not callable(getattr(cls, "fast_params", None)):
        return "has no compiled decision function (FAST_DECIDE)"
    mro = cls.__mro__
    owner = next(i for i, c in enumerate(mro) if "FAST_DECIDE" in vars(c))
    if any("act" in vars(c) for c in mro[:owner]):
        return "overrides act below its FAST_DECIDE, so it has no compiled path"
    problem = _decide_problem(decide)
    if problem is not None:
        return (
            f"has a FAST_DECIDE numba cannot compile ({_where(decide)}: {problem}; use only "
            "numbers, numpy arrays and numba-compiled functions in it)"
        )
    return None


# --------------------------------------------------------------------------- tables of bots
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
    mro = cls.__mro__
    owner = next(i for i, c in enumerate(mro) if "FAST_DECIDE" in vars(c))
    acts = [i for i, c in enumerate(mro) if "act" in vars(c)]
    return not acts or acts[0] >= owner


def _kind_key(f: Any) -> tuple[str, str, int]:
    return (getattr(f, "__module__", "") or "", getattr(f, "__qualname__", "") or "", id(f))


class FastTable:
    """The policies of a table in the kernel's terms: kind id and parameters per seat."""

    def __init__(self, policies: Sequence[object], rules: Rules | None = None) -> None:
        funcs = [type(p).FAST_DECIDE for p in policies]  # type: ignore[attr-defined]
        # Stable numbering, so the same kinds always share one kernel module.
        uniq = sorted(set(funcs), key=_kind_key)
        for f in uniq:  # each on its own first, so a failure names its bot
            users = [type(p).__name__ for p, g in zip(policies, funcs, strict=True) if g is f]
            check_decide(f, " and ".join(dict.fromkeys(users)))
        self.kinds = np.array([uniq.index(f) for f in funcs], dtype=np.int64)
        rows = [_fast_params(p, rules) for p in policies]
        k = max(1, max(len(r) for r in rows))
        self.params = np.zeros((len(rows), k), dtype=np.float64)
        for i, r in enumerate(rows):
            self.params[i, : len(r)] = r
        self.module = kernel_module(uniq)

    def finish(self, s: core.State) -> np.ndarray:
        """Finish every round of the batch `s` in place with these policies (see `play_out`)."""
        return _finish(self.module, s, self.kinds, self.params)

    def seated(self, seating: Sequence[int]) -> FastTable:
        """The same policies in another order: seat ``i`` gets policy ``seating[i]``.

        Shares the compiled kernel; only the per-seat kinds and parameters are reindexed, so a
        tournament builds one table per field rather than one per seating.
        """
        table = copy.copy(self)
        table.kinds = self.kinds[list(seating)]
        table.params = self.params[list(seating)]
        return table

    def play(
        self,
        rules: Rules,
        starting_chips: int,
        first_player: int,
        *,
        decks: np.ndarray | None,
        key: np.ndarray | None,
        start: int,
        count: int,
        points: np.ndarray | None = None,
        moves: np.ndarray | None = None,
        hands: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Card points, final chips and move counts of `count` rounds (given or dealt decks).

        `points` (int64[count, P]) and `moves` (int64[count]) may be given to be filled in;
        `hands` (int64[count, P]), if given, receives each seat's final cards as bit masks
        (bit ``c`` set: card ``c`` taken), for checks that every card is accounted for.
        """
        n_players = len(self.kinds)
        deal = decks is None
        if decks is None:
            decks = np.empty((count, rules.n_in_play), dtype=np.int64)
            key = np.zeros(2, dtype=np.uint64) if key is None else key
        else:
            key = np.zeros(2, dtype=np.uint64)
        s = core.new_state(decks, n_players, starting_chips, first_player)
        if points is None:
            points = np.empty((count, n_players), dtype=np.int64)
        if moves is None:
            moves = np.empty(count, dtype=np.int64)
        self.module.play_chunk(
            s,
            self.kinds,
            self.params,
            deal,
            key[0],
            key[1],
            np.int64(start),
            np.int64(rules.low_card),
            np.int64(rules.n_cards),
            points,
            moves,
        )
        if hands is not None:
            hands[...] = s.hands
        return points, s.chips, moves


def _finish(
    module: types.ModuleType, s: core.State, kinds: np.ndarray, params: np.ndarray
) -> np.ndarray:
    """int64[B, P] card points once `module`'s kernel has played every round of `s` out."""
    b, n_players = s.chips.shape
    points = np.empty((b, n_players), dtype=np.int64)
    module.play_chunk(
        s,
        kinds=kinds,
        params=params,
        deal=False,  # the decks are the state's own: the dealer's arguments play no part
        key0=np.uint64(0),
        key1=np.uint64(0),
        start=np.int64(0),
        low_card=np.int64(0),
        n_cards=np.int64(s.deck.shape[1]),
        points=points,
        n_decisions=np.empty(b, dtype=np.int64),
    )
    return points


def play_out(
    s: core.State, decides: Sequence[Callable[..., Any]], params: np.ndarray
) -> np.ndarray:
    """Finish every round of the batch `s` in place; int64[B, P] card points at the end.

    Seat ``p`` decides with ``decides[p](params[p], ...)`` (a ``FAST_DECIDE`` function;
    `params` is float64[P, K], each row as long as the longest function needs); a seat without
    chips takes. Each round goes on from wherever it stands (`view.position_state` builds
    positions; a round already over is left alone), on the simulator's own kernel, so rollouts
    (the search bot, :mod:`nothanks_lab.analysis`) and `simulate` share one compiled playout
    loop, its per-seat dispatch and its on-disk cache; ``s.chips`` ends as the final chips.
    """
    uniq = sorted(set(decides), key=_kind_key)  # as `FastTable` numbers them: one kernel
    for f in uniq:
        check_decide(f, _where(f))
    kinds = np.array([uniq.index(f) for f in decides], dtype=np.int64)
    rows = np.ascontiguousarray(params, dtype=np.float64)
    if rows.ndim != 2 or rows.shape[0] != len(decides):
        raise ValueError(
            f"params must be float64[P, K] with one row per seat ({len(decides)}); "
            f"got shape {rows.shape}"
        )
    return _finish(kernel_module(uniq), s, kinds, rows)


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


def fast_table(
    policies: Sequence[object], rules: Rules | None = None, *, strict: bool = False
) -> FastTable | None:
    """A `FastTable` when every policy has a fast path, else None.

    Pass `rules` when playing a variant: a bot whose ``fast_params`` takes the rule set gets it.
    A ``FAST_DECIDE`` numba cannot compile raises `FastPathError` with `strict`; otherwise the
    table has no fast path (None), and a `SlowPathWarning` says why (once per bot class).
    """
    if not all(has_fast_path(p) for p in policies):
        return None
    if strict:
        return FastTable(policies, rules)
    try:
        return FastTable(policies, rules)
    except FastPathError:
        warn_slow_path(policies, stacklevel=2)
        return None
