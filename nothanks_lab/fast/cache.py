"""Where generated kernels are written: a cache directory only the current user can write.

Kernel modules are Python files that get imported, so their directory must be private:
``$NOTHANKS_LAB_CACHE`` if set, else ``$XDG_CACHE_HOME/nothanks_lab`` (``~/.cache/nothanks_lab``),
created 0700 and used only while owned by the user and writable by no one else, nor swappable
through a parent others can write (`_unsafe_reason`). Otherwise `_cache_dir` answers None and
:mod:`nothanks_lab.fast.kernel` compiles kernels in memory, with one warning saying why.
"""

from __future__ import annotations

import os
import stat
import warnings
from pathlib import Path

__all__: list[str] = []

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
