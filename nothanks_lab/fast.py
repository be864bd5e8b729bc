"""The compiled fast path of `simulate`: the shared rules and each bot's decision rule, in numba.

Nothing here restates a rule. The kernel `play_chunk` below is plain Python that calls the
transition functions of :mod:`nothanks_lab.core`, the dealer of :mod:`nothanks_lab.deals` and
each bot class's ``FAST_DECIDE`` function; it is compiled with those very functions.

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

**How the pure functions are compiled.** `jit_pure` compiles a function with ``numba.njit``
after giving it a copy of its module globals in which every function and module of this
package is replaced by its compiled counterpart (recursively), so ``marginal_decide`` calling
``core.marginal_points`` calls the compiled ``marginal_points``. The source files stay ordinary
Python that the readable engine runs unchanged.

**Caching.** numba's on-disk cache keys a function to its own source file only, so a kernel
cached beside this file would silently keep an old rule after ``core.py`` or a bot changed.
Instead, for each set of kinds, `kernel_module` writes a small module (the if-chain over the
kinds plus the source of `play_rounds` and `play_chunk`) into a cache directory under a name
that hashes every source file the kernel depends on, numba's version and Python's; numba
caches the compiled kernel next to it. A changed dependency gives a new name, hence a fresh
compile; an unchanged one loads in a fraction of a second. The directory is
``$NOTHANKS_LAB_CACHE`` if set, else
``$XDG_CACHE_HOME/nothanks_lab`` (``~/.cache/nothanks_lab``), else a temporary directory.
Compiling happens under a lock and the kernel runs without the GIL, so threaded workers can
share a process.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import marshal
import os
import sys
import tempfile
import textwrap
import threading
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np

from . import core, deals
from .rules import Rules

__all__ = [
    "FastTable",
    "decide",
    "fast_table",
    "has_fast_path",
    "jit_pure",
    "kernel_module",
    "play_chunk",
    "play_rounds",
]

_PACKAGE = __name__.split(".")[0]


# --------------------------------------------------------------------------- compiling pure code
def _in_package(obj: object) -> bool:
    name = (
        getattr(obj, "__module__", None) if not isinstance(obj, types.ModuleType) else obj.__name__
    )
    return isinstance(name, str) and name.split(".")[0] == _PACKAGE


def _names(code: types.CodeType) -> set[str]:
    """Every name a code object (and the code nested in it) may look up as a global."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _package_deps(
    func: types.FunctionType,
) -> tuple[list[types.FunctionType], list[types.ModuleType]]:
    """The package functions and modules `func` refers to through its globals."""
    funcs, mods = [], []
    for name in sorted(_names(func.__code__)):
        obj = func.__globals__.get(name)
        if isinstance(obj, types.FunctionType) and _in_package(obj):
            funcs.append(obj)
        elif isinstance(obj, types.ModuleType) and _in_package(obj):
            mods.append(obj)
    return funcs, mods


def _dependency_files(func: types.FunctionType, seen: set[Any] | None = None) -> set[str]:
    """Source files of `func` and of every package function or module it reaches."""
    seen = set() if seen is None else seen
    if func in seen:
        return set()
    seen.add(func)
    files = {inspect.getfile(func)}
    funcs, mods = _package_deps(func)
    for m in mods:
        if m in seen:
            continue
        seen.add(m)
        files.add(inspect.getfile(m))
        for obj in vars(m).values():
            if isinstance(obj, types.FunctionType) and obj.__module__ == m.__name__:
                files |= _dependency_files(obj, seen)
    for f in funcs:
        files |= _dependency_files(f, seen)
    return files


_jitted: dict[Any, Any] = {}
_lock = threading.RLock()  # threaded workers (e.g. Dask) may compile at the same time


def jit_pure(func: Callable[..., Any], *, nrt: bool = True) -> Any:
    """``numba.njit`` of a pure function of this package, its package callees compiled too.

    The compiled function is cached on disk only when everything it reaches lies in its own
    source file (numba's cache would not notice a change in another file). ``nrt=False``
    compiles without numba's reference counting (see `kernel_module`); such a build cannot
    allocate arrays, and is never cached on disk on its own, because numba's cache index does
    not tell it from the default build.
    """
    if isinstance(func, numba.core.registry.CPUDispatcher):
        return func
    if not isinstance(func, types.FunctionType):
        raise ValueError(f"jit_pure needs a plain Python function; got {func!r}")
    with _lock:
        got = _jitted.get((func, nrt))
        return got if got is not None else _jit_pure(func, nrt)


def _jit_pure(func: types.FunctionType, nrt: bool) -> Any:
    glb = dict(func.__globals__)
    clone = types.FunctionType(
        func.__code__, glb, func.__name__, func.__defaults__, func.__closure__
    )
    clone.__qualname__ = func.__qualname__
    clone.__module__ = func.__module__
    clone.__doc__ = func.__doc__
    own_file = nrt and _dependency_files(func) == {inspect.getfile(func)}
    options = {} if nrt else {"_nrt": False}
    # Registered before recursing, so recursive references find it.
    jit = numba.njit(cache=own_file, **options)  # type: ignore[call-overload]  # _nrt: internal
    compiled = _jitted[(func, nrt)] = jit(clone)
    for name in _names(func.__code__):
        obj = glb.get(name)
        if isinstance(obj, types.FunctionType) and _in_package(obj):
            glb[name] = jit_pure(obj, nrt=nrt)
        elif isinstance(obj, types.ModuleType) and _in_package(obj):
            glb[name] = jitted_module(obj, nrt=nrt)
    return compiled


def jitted_module(module: types.ModuleType, *, nrt: bool = True) -> types.ModuleType:
    """A stand-in for `module` whose functions are their `jit_pure` versions (compiled lazily)."""
    with _lock:
        got = _jitted.get((module, nrt))
        if got is None:
            got = _jitted[(module, nrt)] = types.ModuleType(module.__name__)
            for name, obj in vars(module).items():
                if isinstance(obj, types.FunctionType) and obj.__module__ == module.__name__:
                    setattr(got, name, jit_pure(obj, nrt=nrt))
                elif not name.startswith("__"):
                    setattr(got, name, obj)
        return got


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
core = _fast.jitted_module(_core_py, nrt=NRT)
deals = _fast.jitted_module(_deals_py, nrt=NRT)
_kinds = _fast._building
{bindings}


@numba.njit(cache=True, _nrt=NRT)
def decide(kind, params, card, pot, seat, hands, chips, cards_left):
{chain}
'''


def _source_digest(func: Callable[..., Any]) -> bytes:
    """Bytes that change whenever `func` (or what it reaches in this package) changes."""
    if isinstance(func, numba.core.registry.CPUDispatcher):
        func = func.py_func
    parts = [marshal.dumps(func.__code__)]
    try:
        files = sorted(_dependency_files(func))  # type: ignore[arg-type]
        parts += [Path(f).read_bytes() for f in files]
    except (OSError, TypeError):
        pass  # defined in a REPL: its bytecode is all there is
    return b"\0".join(parts)


def _cache_dir() -> Path:
    env = os.environ.get("NOTHANKS_LAB_CACHE")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for d in ([Path(env)] if env else []) + [
        Path(base) / "nothanks_lab",
        Path(tempfile.gettempdir()) / f"nothanks_lab_{os.getuid() if hasattr(os, 'getuid') else 0}",
    ]:
        try:
            d.mkdir(parents=True, exist_ok=True)
            probe = d / f".probe{os.getpid()}"
            probe.write_text("")
            probe.unlink()
            return d
        except OSError:
            continue
    raise OSError("no writable cache directory for the compiled kernel; set NOTHANKS_LAB_CACHE")


_building: tuple[Callable[..., Any], ...] = ()
_kernels: dict[tuple[Any, ...], types.ModuleType] = {}


def kernel_module(kinds: Sequence[Callable[..., Any]]) -> types.ModuleType:
    """The module holding the compiled ``decide`` and ``play_chunk`` for these decision kinds.

    The hot loop, `play_rounds`, and everything it calls are compiled without numba's
    reference counting: it allocates nothing, and the counts numba would keep on the state's
    arrays (an atomic increment and decrement around each call) survive its pruning whenever
    the optimiser merges branches, costing a third of the speed. A decision function that
    allocates arrays cannot be compiled that way; its kinds get a kernel with counting.
    The kernel is compiled (or loaded from the cache) here, once per set of kinds.
    """
    kinds = tuple(kinds)
    with _lock:
        got = _kernels.get(kinds)
        if got is None:
            try:
                got = _build_kernel_module(kinds, nrt=False)
                _warm(got)
            except numba.core.errors.NumbaError:
                got = _build_kernel_module(kinds, nrt=True)
            _kernels[kinds] = got
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
    h = hashlib.sha256()
    for part in (sys.version, numba.__version__, np.__version__, Path(__file__).read_bytes()):
        h.update(part.encode() if isinstance(part, str) else part)
    h.update(b"nrt" if nrt else b"no-nrt")
    h.update(_source_digest(play_chunk))
    for k in kinds:
        h.update(_source_digest(k))
    digest = h.hexdigest()[:20]
    names = [f"{getattr(k, '__module__', '?')}.{getattr(k, '__qualname__', '?')}" for k in kinds]
    bindings = "\n".join(
        f"decide_{i} = _fast.jit_pure(_kinds[{i}], nrt=NRT)" for i in range(len(kinds))
    )
    args = "params, card, pot, seat, hands, chips, cards_left"
    chain = "\n".join(
        f"    if kind == {i}:\n        return bool(decide_{i}({args}))" for i in range(len(kinds))
    )
    chain += f"\n    return bool(decide_0({args}))  # unreachable: kinds are checked"
    nogil = "  # threads of a pool can run it side by side"
    text = (
        _HEADER.format(
            kinds=", ".join(names), digest=digest, nrt=nrt, bindings=bindings, chain=chain
        )
        + f"\n\n@numba.njit(cache=True, nogil=True, _nrt=NRT){nogil}\n"
        + textwrap.dedent(inspect.getsource(play_rounds))
        + f"\n\n@numba.njit(cache=True, nogil=True){nogil}\n"
        + textwrap.dedent(inspect.getsource(play_chunk))
    )
    path = _cache_dir() / f"kernel_{digest}.py"
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, path)  # atomic: parallel workers never see half a file
    modname = f"_nothanks_lab_kernel_{digest}"
    spec = importlib.util.spec_from_file_location(modname, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    global _building
    _building = kinds
    try:
        spec.loader.exec_module(module)
    finally:
        _building = ()
    sys.modules[modname] = module
    return module


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
        self.kinds = np.array([uniq.index(f) for f in funcs], dtype=np.int64)
        rows = [_fast_params(p, rules) for p in policies]
        k = max(1, max(len(r) for r in rows))
        self.params = np.zeros((len(rows), k), dtype=np.float64)
        for i, r in enumerate(rows):
            self.params[i, : len(r)] = r
        self.module = kernel_module(uniq)

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
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Card points, final chips and move counts of `count` rounds (given or dealt decks).

        `points` (int64[count, P]) and `moves` (int64[count]) may be given to be filled in.
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
        return points, s.chips, moves


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


def fast_table(policies: Sequence[object], rules: Rules | None = None) -> FastTable | None:
    """A `FastTable` when every policy has a fast path, else None.

    Pass `rules` when playing a variant: a bot whose ``fast_params`` takes the rule set gets it.
    """
    if all(has_fast_path(p) for p in policies):
        return FastTable(policies, rules)
    return None
