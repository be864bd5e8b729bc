"""Compiling the package's pure functions with numba, their callees compiled with them.

The rules (:mod:`nothanks_lab.core`), the dealer (:mod:`nothanks_lab.deals`) and each bot's
decision function are ordinary Python that the readable engine runs unchanged. `jit_pure`
compiles such a function with ``numba.njit`` after giving it a copy of its module globals in
which every function and module of this package is replaced by its compiled counterpart
(recursively), so ``marginal_decide`` calling ``core.marginal_points`` calls the compiled
``marginal_points``. Code from outside the package (a user's bot and helpers) is compiled
afresh from its loaded code (`Fresh`), keyed by a digest of everything it reaches
(`code_digest`), never from numba's own per-file cache, so an edit is never stale. It sits
below the simulator's kernel (:mod:`nothanks_lab.fast`), which builds on it.
"""

from __future__ import annotations

import enum
import hashlib
import inspect
import os
import sys
import sysconfig
import threading
import types
import warnings
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

# The first two are for every caller; the rest are the building blocks `nothanks_lab.fast`
# compiles user code with (public so that one package does not reach into another's privates).
__all__ = [
    "Dispatcher",
    "Fresh",
    "code_digest",
    "compile_lock",
    "is_outside",
    "jit_pure",
    "jitted_module",
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
#: Held while compiling or looking up compiled code: threaded workers (Dask) may compile at once.
compile_lock = threading.RLock()


def jit_pure(func: Callable[..., Any], *, nrt: bool = True) -> Any:
    """``numba.njit`` of a pure function of this package, its package callees compiled too.

    The compiled function is cached on disk only when everything it reaches lies in its own
    source file (numba's cache would not notice a change in another file). A function from
    outside the package is compiled afresh with everything of the user's it reaches, never
    from numba's cache (see `Fresh`); it is reused while none of that changes. ``nrt=False``
    compiles without numba's reference counting (see `kernel_module`); such a build cannot
    allocate arrays, and is never cached on disk on its own, because numba's cache index does
    not tell it from the default build.
    """
    if isinstance(func, numba.core.registry.CPUDispatcher):
        return func
    if not isinstance(func, types.FunctionType):
        raise ValueError(f"jit_pure needs a plain Python function; got {func!r}")
    if not _in_package(func):
        digest = code_digest(func)
        if digest is None:
            return Fresh(nrt).value(func)
        key = (func, nrt, hashlib.sha256(digest).hexdigest())
        with compile_lock:
            got = _jitted.get(key)
            if got is None:
                got = _jitted[key] = Fresh(nrt).value(func)
            return got
    with compile_lock:
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
    with compile_lock:
        got = _jitted.get((module, nrt))
        if got is None:
            got = _jitted[(module, nrt)] = types.ModuleType(module.__name__)
            for name, obj in vars(module).items():
                if isinstance(obj, types.FunctionType) and obj.__module__ == module.__name__:
                    setattr(got, name, jit_pure(obj, nrt=nrt))
                elif not name.startswith("__"):
                    setattr(got, name, obj)
        return got


# A user's decision function may call their own helpers, plain or numba-compiled, in other
# modules. numba's on-disk cache keys a function to its own file only, so a helper cached by
# numba in module B is stale inside a caller in module A as soon as B changes. Code from
# outside the package is therefore always compiled afresh from its Python source (`Fresh`),
# never taken from numba's cache, and the kernel built on it is cached under a digest of the
# *loaded* code it reaches (`code_digest`): bytecode, options and the values of the
# globals and closure cells it reads, followed through every function, dispatcher and module
# it reaches. What cannot be keyed that way gets a kernel compiled in memory.
#: numba's dispatcher class: what ``numba.njit`` returns for a function.
Dispatcher = numba.core.registry.CPUDispatcher


_cache_warned: list[bool] = []


def _save_or_keep_in_memory(save: Callable[..., Any]) -> Callable[..., Any]:
    """numba's ``Cache.save_overload``, which on a full or unwritable cache disk warns once and
    keeps the compiled code in memory instead of raising: numba's own caching (``cache=True``
    on the package's functions) would otherwise turn a nearly full disk into a crash of the
    first `simulate` (numba only forgives such errors on Windows). Compiled code is unchanged;
    only writing it for the next process is skipped."""

    def save_overload(self: Any, *args: Any, **kwargs: Any) -> None:
        try:
            save(self, *args, **kwargs)
        except OSError as e:
            if not _cache_warned:  # once per process: every later save would say the same
                _cache_warned.append(True)
                warnings.warn(
                    f"nothanks_lab: numba cannot write its cache ({e}); kept in memory only",
                    RuntimeWarning,
                    stacklevel=2,
                )

    save_overload._nothanks_lab = True  # type: ignore[attr-defined]
    return save_overload


if not getattr(numba.core.caching.Cache.save_overload, "_nothanks_lab", False):
    numba.core.caching.Cache.save_overload = _save_or_keep_in_memory(  # type: ignore[method-assign]
        numba.core.caching.Cache.save_overload
    )


def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    keys = ("stdlib", "platstdlib", "purelib", "platlib")
    return tuple(sorted({os.path.realpath(paths[k]) + os.sep for k in keys if k in paths}))


_LIBRARY_DIRS = _library_dirs()


def _is_library(obj: object) -> bool:
    """Whether `obj` (a function or module) comes from the standard library or an installed
    distribution rather than the user's own code."""
    name = obj.__name__ if isinstance(obj, types.ModuleType) else getattr(obj, "__module__", "")
    if not isinstance(name, str) or name.split(".")[0] in sys.stdlib_module_names:
        return True
    if name.split(".")[0] in ("numpy", "numba", "llvmlite", "scipy"):
        return True
    try:
        path = inspect.getfile(obj)  # type: ignore[arg-type]
    except TypeError:
        return True  # built in
    return os.path.realpath(path).startswith(_LIBRARY_DIRS)


def _is_user_function(obj: object) -> bool:
    return isinstance(obj, types.FunctionType) and not _in_package(obj) and not _is_library(obj)


def _is_user_module(obj: object) -> bool:
    return isinstance(obj, types.ModuleType) and not _in_package(obj) and not _is_library(obj)


def is_outside(func: Callable[..., Any]) -> bool:
    """Whether the decision function `func` is code from outside the package."""
    target = func.py_func if isinstance(func, Dispatcher) else func
    return not _in_package(target)


def _code_bytes(code: types.CodeType) -> bytes:
    """A deterministic encoding of what a code object does (not where it lies in its file)."""
    parts = [
        code.co_code,
        repr((code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount)).encode(),
        repr((code.co_flags, code.co_names, code.co_varnames)).encode(),
        repr((code.co_freevars, code.co_cellvars, code.co_name)).encode(),
    ]
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            parts.append(b"code:" + _code_bytes(c))
        elif isinstance(c, frozenset):
            parts.append(repr(sorted(map(repr, c))).encode())
        else:
            parts.append(f"{type(c).__name__}:{c!r}".encode())
    return b"\1".join(parts)


class _Unkeyable(Exception):
    """Something the kernel reaches has no stable digest: compile it in memory."""


def _value_bytes(value: object) -> bytes:
    """A stable encoding of a constant numba freezes into compiled code."""
    if value is None or isinstance(value, bool | int | float | complex | str | bytes):
        return f"{type(value).__name__}:{value!r}".encode()
    if isinstance(value, np.ndarray):
        head = f"ndarray:{value.dtype.str}:{value.shape}:".encode()
        return head + np.ascontiguousarray(value).tobytes()
    if isinstance(value, np.generic):
        return f"{value.dtype.str}:".encode() + value.tobytes()
    if isinstance(value, tuple):
        kind = f"{type(value).__module__}.{type(value).__qualname__}(".encode()
        return kind + b",".join(_value_bytes(v) for v in value) + b")"
    if isinstance(value, enum.Enum):
        return f"enum:{type(value).__qualname__}:".encode() + _value_bytes(value.value)
    raise _Unkeyable(f"a global of type {type(value).__name__}")


def code_digest(func: Callable[..., Any]) -> bytes | None:
    """Bytes that change whenever anything the decision function `func` reaches does, read
    from the *loaded* code (never from files, which may have changed since they were
    imported); None when something it reaches cannot be keyed (its kernel is then compiled in
    memory). Package code is keyed the same way; an unusual constant of the package's is keyed
    by its type alone (its value is fixed by the package's source)."""
    out: list[bytes] = []
    seen: set[int] = set()
    keep: list[object] = []  # ids stay unique while the walk runs

    def name_of(obj: object) -> bytes:
        module = getattr(obj, "__module__", None) or getattr(obj, "__name__", "?")
        return f"{module}.{getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}".encode()

    def visit(obj: object, names: set[str]) -> None:
        if id(obj) in seen:
            out.append(b"again:" + name_of(obj))
            return
        seen.add(id(obj))
        keep.append(obj)
        if isinstance(obj, Dispatcher):
            options = {k: v for k, v in obj.targetoptions.items() if k not in ("cache", "nopython")}
            out.append(b"dispatcher:" + repr(sorted(options.items())).encode())
            visit(obj.py_func, names)
        elif isinstance(obj, types.FunctionType) and (_in_package(obj) or _is_user_function(obj)):
            own = _in_package(obj)
            out.append(b"function:" + name_of(obj) + b"\0" + _code_bytes(obj.__code__))
            if obj.__defaults__:
                visit_value(obj.__defaults__, set(), own)
            code_names = _names(obj.__code__)
            for name in sorted(code_names):
                if name in obj.__globals__:
                    out.append(b"global:" + name.encode())
                    visit_value(obj.__globals__[name], code_names, own)
            for cell in obj.__closure__ or ():
                try:
                    contents = cell.cell_contents
                except ValueError:  # an empty cell
                    out.append(b"empty cell")
                    continue
                visit_value(contents, code_names, own)
        elif isinstance(obj, types.ModuleType) and (_in_package(obj) or _is_user_module(obj)):
            # numba reads only the attributes the code names, e.g. ``helpers.pot_ok``.
            out.append(b"module:" + obj.__name__.encode())
            for name in sorted(names):
                if hasattr(obj, name):
                    out.append(b"attribute:" + name.encode())
                    visit_value(getattr(obj, name), names, _in_package(obj))
        else:
            out.append(b"library:" + name_of(obj))

    def visit_value(value: object, names: set[str], own: bool) -> None:
        if isinstance(value, types.FunctionType | types.ModuleType | Dispatcher):
            visit(value, names)
        elif isinstance(value, type) or (callable(value) and _is_library(value)):
            out.append(b"named:" + name_of(value))  # a class, a builtin, a ufunc
        else:
            try:
                out.append(_value_bytes(value))
            except _Unkeyable:
                if not own:
                    raise
                out.append(b"package constant:" + name_of(type(value)))

    try:
        visit_value(func, set(), False)
    except (_Unkeyable, OSError, TypeError, ValueError):
        return None
    return b"\0".join(out)


class Fresh:
    """Compiles a decision function from outside the package, and everything of the user's it
    reaches, afresh: numba dispatchers are rebuilt from their Python functions without their
    on-disk cache, plain functions are compiled like `jit_pure` does, and modules of the user's
    are replaced by stand-ins holding the rebuilt functions. Package code is `jit_pure`'s."""

    def __init__(self, nrt: bool, *, boundscheck: bool = False) -> None:
        self.nrt = nrt
        #: numba's ``boundscheck`` for the user's functions (`nothanks_lab.fast.debug`).
        self.boundscheck = boundscheck
        self.memo: dict[int, Any] = {}
        self.keep: list[object] = []  # the originals, so ids stay unique

    def value(self, obj: object) -> Any:
        """The compiled counterpart of a global or closure value `obj` (or `obj` itself)."""
        if isinstance(obj, Dispatcher):
            if _in_package(obj.py_func):
                return obj
            options = {k: v for k, v in obj.targetoptions.items() if k not in ("cache", "nopython")}
            if self.boundscheck:
                options["boundscheck"] = True
            return self._function(obj, obj.py_func, options)  # type: ignore[arg-type]
        if isinstance(obj, types.FunctionType):
            if _in_package(obj):
                return jit_pure(obj, nrt=self.nrt)
            if _is_user_function(obj):
                opts: dict[str, Any] = {} if self.nrt else {"_nrt": False}
                if self.boundscheck:
                    opts["boundscheck"] = True
                return self._function(obj, obj, opts)
            return obj
        if isinstance(obj, types.ModuleType):
            if _in_package(obj):
                return jitted_module(obj, nrt=self.nrt)
            if _is_user_module(obj):
                return self._module(obj)
        return obj

    def _function(self, key: object, func: types.FunctionType, options: dict[str, Any]) -> Any:
        got = self.memo.get(id(key))
        if got is not None:
            return got
        glb = dict(func.__globals__)
        cells = None
        if func.__closure__ is not None:
            cells = tuple(types.CellType() for _ in func.__closure__)
        clone = types.FunctionType(func.__code__, glb, func.__name__, func.__defaults__, cells)
        clone.__qualname__ = func.__qualname__
        clone.__module__ = func.__module__
        clone.__doc__ = func.__doc__
        # Registered before recursing, so recursive references find it.
        compiled = self.memo[id(key)] = numba.njit(**options)(clone)
        self.keep.append(key)
        for name in _names(func.__code__):
            if name in glb:
                glb[name] = self.value(glb[name])
        for old, new in zip(func.__closure__ or (), cells or (), strict=True):
            try:
                new.cell_contents = self.value(old.cell_contents)
            except ValueError:  # an empty cell stays empty
                pass
        return compiled

    def _module(self, module: types.ModuleType) -> types.ModuleType:
        got: types.ModuleType | None = self.memo.get(id(module))
        if got is not None:
            return got
        stand_in = self.memo[id(module)] = types.ModuleType(module.__name__)
        self.keep.append(module)
        for name, obj in vars(module).items():
            if not name.startswith("__"):
                setattr(stand_in, name, self.value(obj))
        return stand_in
