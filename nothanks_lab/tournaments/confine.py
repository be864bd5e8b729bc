"""What a student's bot process may reach: confinement chosen at run time, strongest first.

The child of `~nothanks_lab.tournaments.sandbox.IsolatedPolicy` calls :func:`confine` after it
has opened its pipes and read the student's file (and the file's sibling modules, served from
memory by :class:`SiblingFinder`), and before it runs any of the student's code:

1. **A PID namespace** (``unshare(CLONE_NEWPID)``, with ``CLONE_NEWUSER`` when not root), when
   the kernel allows it: the bot runs as process 1 of a namespace of its own, so
   ``os.getppid()`` is 0, no process outside is visible or can be signalled, and every process
   the bot starts (a ``setsid`` double-forked grandchild too) dies with it. A small process
   outside the namespace waits for it and reports its end; if that process is killed, the
   kernel kills the bot (``PR_SET_PDEATHSIG``). Where a mount namespace is allowed too
   (``CLONE_NEWNS``), the bot mounts a ``/proc`` of its namespace over the machine's, so it
   lists no other process and reads no other command line ("own /proc"); and where a network
   namespace is allowed, the bot has no network ("no network": only a loopback that is down,
   so no connection out and no socket shared with a classmate). With the mount namespace,
   every file system is remounted read-only and the folders any user may write to
   (`SCRATCH_FOLDERS`: ``/tmp``, ``/dev/shm``...) get small in-memory ones of the bot's own
   ("read-only files", "private /tmp"): the bot writes nothing another process can see.
2. **An unprivileged user** when the league runs as root: the bot drops to a user of its own
   (uid `BOT_UIDS` + its process id, gid ``nobody``, no supplementary groups), so killing the
   teacher's processes is refused
   (``EPERM``) and root-only files cannot be read.
3. **A process limit** (``RLIMIT_NPROC`` = `MAX_PROCESSES`) whenever the bot's user is not
   root (the kernel ignores it for root): a fork bomb fails with ``BlockingIOError``.

Where none is available the bot runs with the teacher's rights, in its own process group
(see docs/howto/class-league.md, "What isolation protects"). :func:`available` says which
apply on this machine. Before the student's code runs, `seed_global_random` seeds the
``random`` module and numpy's legacy global generator with two seeds the league derives from the
run's seed and the bot's place in the field (`global_random_seeds`; the run's seed itself never
reaches the bot), so a bot that draws from them unseeded plays the same on every rerun.
"""

from __future__ import annotations

import ctypes
import errno
import importlib.abc
import importlib.machinery
import importlib.util
import os
import re
import resource
import signal
import stat
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "BOT_UIDS",
    "MAX_PROCESSES",
    "NOBODY",
    "SiblingFinder",
    "available",
    "children_of",
    "confine",
    "die_with_parent",
    "global_random_seeds",
    "read_source",
    "seed_global_random",
    "sibling_sources",
]

#: The gid a bot drops to when the league runs as root.
NOBODY = 65534
#: When the league runs as root, each bot drops to a user of its own, this plus its process
#: id (unique among live processes): no file belongs to it, and the process limit counts only
#: its own processes. With one user for all (``nobody``), a bot that forked 118 idle children
#: left its classmates no thread to start.
BOT_UIDS = 1 << 30
#: Most processes (threads count) the bot's user may have (``RLIMIT_NPROC``, non-root only).
MAX_PROCESSES = 128
#: Sibling modules served from memory: at most this many files of at most this many bytes.
MAX_SIBLINGS, MAX_SIBLING_BYTES = 200, 2**20

_CLONE_NEWUSER, _CLONE_NEWPID, _CLONE_NEWNS, _CLONE_NEWNET = (
    0x10000000,
    0x20000000,
    0x20000,
    0x40000000,
)
_MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REC, _MS_PRIVATE = 2, 4, 8, 0x4000, 1 << 18
_PR_SET_PDEATHSIG = 1


def _read_plain(path: Path, max_bytes: int) -> bytes:
    """The bytes of `path` if it is a plain file of its folder, else OSError.

    The files are read before rights are dropped (perhaps as root), so only what a student can
    have put there is read: a regular file, not a symbolic link (``O_NOFOLLOW``: a link to
    ``/etc/shadow`` would hand its text to every bot) and with no name outside its folder (a
    hard link to a file elsewhere has one there; two names in the folder are a classmate's
    copy, which may play).
    """
    not_plain = f"{path.name} is not a plain file (it is a folder, a pipe, a socket or a device)"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:  # a socket cannot be opened at all (ENXIO): say what it is
        if e.errno == errno.ENXIO:
            raise OSError(not_plain) from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # checked before fdopen, which refuses a folder itself
        os.close(fd)
        raise OSError(not_plain)
    with os.fdopen(fd, "rb") as f:
        if info.st_nlink != 1 and _names_in_folder(path.parent, info) < info.st_nlink:
            raise OSError(
                f"{path.name} has a second name outside its folder (a hard link to it), so it "
                "is not read: such a file could be any file of the machine. If its author did "
                "not make that link, someone else did: copying the file afresh (a copy has "
                "one name) lets it play"
            )
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise OSError(f"{path.name} is larger than {max_bytes} bytes")
    return data


def _names_in_folder(folder: Path, info: os.stat_result) -> int:
    """How many names of `folder` are the file of `info` (its hard links in that folder)."""
    count = 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    same = (
                        entry.inode() == info.st_ino
                        and entry.stat(follow_symlinks=False).st_dev == info.st_dev
                    )
                except OSError:
                    continue
                count += same
    except OSError:
        return 0
    return count


def read_source(path: Path) -> str:
    """The text of a bot's file (refused when it is a link, not a regular file, or too large)."""
    from ..validate import MAX_FILE_BYTES

    try:
        # utf-8-sig: a file saved by an editor that starts it with a byte-order mark reads too.
        return _read_plain(path, MAX_FILE_BYTES).decode("utf-8-sig")
    except OSError as e:
        if e.errno == errno.ELOOP:  # O_NOFOLLOW on a symbolic link
            raise OSError(f"{path.name} is a symbolic link; give the file itself") from None
        raise


def sibling_sources(path: Path) -> dict[str, str]:
    """The ``*.py`` files next to `path` (module name -> text), read before rights are dropped."""
    found: dict[str, str] = {}
    try:
        entries = sorted(path.parent.glob("*.py"))
    except OSError:
        return found
    for entry in entries[:MAX_SIBLINGS]:
        if entry == path or not entry.stem.isidentifier():
            continue
        try:
            found[entry.stem] = _read_plain(entry, MAX_SIBLING_BYTES).decode("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            continue  # links, folders, devices, large or unreadable files are not served
    return found


class SiblingFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a bot file's sibling modules from their text, read before rights were dropped."""

    def __init__(self, sources: dict[str, str], folder: Path) -> None:
        self.sources, self.folder = dict(sources), folder

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is not None or fullname not in self.sources:
            return None
        origin = str(self.folder / f"{fullname}.py")
        return importlib.util.spec_from_loader(fullname, self, origin=origin)

    def exec_module(self, module: types.ModuleType) -> None:
        name = module.__name__
        module.__file__ = str(self.folder / f"{name}.py")
        exec(compile(self.sources[name], module.__file__, "exec"), module.__dict__)


def global_random_seeds(key: Sequence[int] | None) -> list[int] | None:
    """The seeds of ``random`` and ``np.random`` for a bot at (run seed, place in the field).

    Computed by the league, so only these two derived numbers reach the bot's process: the
    run's seed itself never does (with it, a bot could deal every round of the league).
    """
    if key is None:
        return None
    import numpy as np

    return [int(s) for s in np.random.SeedSequence([int(k) for k in key]).generate_state(2)]


def seed_global_random(seeds: Sequence[int] | None) -> None:
    """Seed ``random`` and ``np.random``'s global state with `global_random_seeds`' two seeds,
    and make every generator the bot makes without a seed follow from them too.

    ``np.random.default_rng()``, ``np.random.SeedSequence()`` and ``random.Random()`` (or
    ``random.seed()``) with no seed draw fresh entropy from the system: a bot doing so played
    differently on every rerun of a league. In this process (the bot's own), numpy's entropy
    source and `random.Random.seed` without an argument instead take the next of a stream of
    numbers drawn from the same two seeds, so the n-th unseeded generator is the same on every
    rerun. ``random.SystemRandom`` and ``os.urandom`` stay truly random.
    """
    if seeds is None:
        return
    import itertools
    import random

    import numpy as np
    import numpy.random.bit_generator as bit_generator

    random.seed(int(seeds[0]))
    np.random.seed(int(seeds[1]))  # noqa: NPY002 - the student's code may use the legacy state
    made = itertools.count()

    def entropy(bits: int) -> int:
        words = np.random.SeedSequence([*map(int, seeds), next(made)]).generate_state(
            -(-bits // 32)
        )
        return int.from_bytes(words.astype("<u4").tobytes(), "little") >> (-bits % 32)

    bit_generator.randbits = entropy  # type: ignore[attr-defined]  # SeedSequence() entropy
    plain_seed = random.Random.seed

    def seed(self: random.Random, a: Any = None, version: int = 2) -> None:
        plain_seed(self, entropy(128) if a is None else a, version)

    random.Random.seed = seed  # type: ignore[method-assign]
    # The module's random.seed was bound to its hidden instance at import, before the patch.
    random.seed = types.MethodType(seed, random.seed.__self__)  # type: ignore[attr-defined]


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def _new_pid_namespace(fds: Sequence[int]) -> list[str]:
    """Become process 1 of a new PID namespace (a waiting process stays outside), if allowed,
    with a ``/proc`` of its own when a mount namespace is allowed too; the measures applied."""
    flags = _CLONE_NEWPID | (0 if os.geteuid() == 0 else _CLONE_NEWUSER)
    league = os.getppid()
    try:
        libc = _libc()
        # Strongest first: own mounts (a /proc of its own) and no network, then fewer.
        options: tuple[tuple[int, list[str]], ...] = (
            (_CLONE_NEWNS | _CLONE_NEWNET, ["own /proc", "no network"]),
            (_CLONE_NEWNS, ["own /proc"]),
            (0, []),
        )
        got = next((a for extra, a in options if libc.unshare(flags | extra) == 0), None)
        if got is None:
            return []
        applied: list[str] = got
    except (OSError, AttributeError):
        return []
    pid = os.fork()
    if pid == 0:
        if "own /proc" in applied and not _mount_own_proc(libc):
            applied = [a for a in applied if a != "own /proc"]
        if "own /proc" in applied:  # a mount namespace of its own: seal the file system too
            applied += _seal_file_system(libc)
        return ["pid namespace", *applied]
    for fd in fds:  # only the bot holds the pipes: its end is the parent's end of file
        os.close(fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    # The bot may clear its own death signal: when the league dies (kill -9 included), this
    # process, which the bot cannot touch, kills it (process 1 of its namespace: all of it).
    def end_the_bot(*_: Any) -> None:
        try:
            os.kill(pid, signal.SIGKILL)
        finally:
            os._exit(1)

    signal.signal(signal.SIGTERM, end_the_bot)
    try:
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != league:  # the league ended before the line above
        end_the_bot()
    while True:
        try:
            _, status, usage = os.wait4(pid, 0)
            break
        except ChildProcessError:
            os._exit(1)
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):  # die the same way, so the parent can name the limit
        os.kill(os.getpid(), _death_signal(os.WTERMSIG(status), usage.ru_utime + usage.ru_stime))
    os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


def _mount_own_proc(libc: Any) -> bool:
    """Mount a ``/proc`` of this PID namespace over the machine's (in this process's own mount
    namespace, its changes kept private): the bot then sees no process but its own, so neither
    the other bots' nor the teacher's command lines (a ``--seed`` typed there) can be read."""
    try:
        if libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:
            return False
        flags = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
        return bool(libc.mount(b"proc", b"/proc", b"proc", flags, None) == 0)
    except (OSError, AttributeError):
        return False


#: Folders any user may write to, each given a small private ``tmpfs`` in a bot's namespace, and
#: its size (memory, freed when the bot's namespace ends): ``/tmp`` holds one file of the
#: largest size a bot may write (`nothanks_lab.tournaments.child.FILE_BYTES`) and more.
SCRATCH_FOLDERS = {"/tmp": "32m", "/var/tmp": "8m", "/dev/shm": "8m", "/run/lock": "1m"}
_MS_RDONLY, _MS_REMOUNT, _MS_BIND = 1, 32, 4096
_MS_NOATIME, _MS_NODIRATIME, _MS_RELATIME = 1024, 2048, 1 << 21
#: statvfs flags a remount must repeat (a user namespace may not clear them: EPERM).
_KEPT_FLAGS = (
    (os.ST_NOSUID, _MS_NOSUID),
    (os.ST_NODEV, _MS_NODEV),
    (os.ST_NOEXEC, _MS_NOEXEC),
    (os.ST_NOATIME, _MS_NOATIME),
    (os.ST_NODIRATIME, _MS_NODIRATIME),
    (os.ST_RELATIME, _MS_RELATIME),
)


def _mount_points() -> list[str]:
    """The mount points of this mount namespace (``/proc/self/mountinfo``), outermost first."""
    with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
        fields = [line.split() for line in f]
    # Spaces, tabs, newlines and backslashes in a path are written as octal escapes.
    unescape = re.compile(r"\\([0-7]{3})")
    return [unescape.sub(lambda m: chr(int(m.group(1), 8)), f[4]) for f in fields if len(f) > 4]


def _seal_file_system(libc: Any) -> list[str]:
    """Make every file system read-only in this mount namespace, then give each folder of
    `SCRATCH_FOLDERS` a small ``tmpfs`` of the bot's own.

    Else a bot (as its own user, even when nobody) could write where every user may: a
    ``tqdm.py`` in ``/tmp`` is imported by a teacher's script run from ``/tmp`` (the script's
    folder comes first on its import path), with the teacher's rights; and two bots could leave
    notes for each other there. Returns the measures applied (none, one or both).
    """
    applied: list[str] = []
    try:
        points = _mount_points()
    except OSError:
        return applied
    sealed = True
    for point in points:
        try:
            flags = os.statvfs(point).f_flag
        except OSError:
            continue  # hidden under a later mount, or gone: not reachable by path either
        if flags & os.ST_RDONLY:
            continue
        keep = sum(ms for st, ms in _KEPT_FLAGS if flags & st)
        how = _MS_REMOUNT | _MS_BIND | _MS_RDONLY | keep
        if libc.mount(None, point.encode(errors="surrogateescape"), None, how, None) != 0:
            sealed = False
    if sealed:
        applied.append("read-only files")
    private = True
    for folder, size in SCRATCH_FOLDERS.items():
        if os.path.islink(folder) or not os.path.isdir(folder):
            continue
        options = f"size={size},mode=1777,nr_inodes=4096".encode()
        how = _MS_NOSUID | _MS_NODEV
        if libc.mount(b"tmpfs", folder.encode(), b"tmpfs", how, options) != 0:
            private = False
    if private:
        applied.append("private /tmp")
    # The working directory stays the bot's folder (held open, so reachable even under the new
    # /tmp), now read-only: a file beside the bot (its weights) still reads by a relative path.
    return applied


def _death_signal(sig: int, cpu_s: float) -> int:
    """The signal the waiting process dies of, for a bot that died of `sig` after `cpu_s` s.

    Process 1 of a PID namespace ignores signals it has no handler for, the CPU limit's SIGXCPU
    included, so a bot over its CPU time dies of the hard limit's SIGKILL: that is still the CPU
    limit (SIGXCPU, as outside a namespace) when it had used its soft limit's CPU time, and a
    kill from outside otherwise. Both keep their default action in the waiting process.
    """
    soft = resource.getrlimit(resource.RLIMIT_CPU)[0]
    if sig in (signal.SIGKILL, signal.SIGXCPU) and soft != resource.RLIM_INFINITY:
        sig = signal.SIGXCPU if cpu_s >= soft else signal.SIGKILL
    try:
        signal.signal(sig, signal.SIG_DFL)
    except (OSError, ValueError):  # SIGKILL and SIGSTOP: no handler to reset, default already
        pass
    return sig


#: Standard modules a bot may import even where the unprivileged user cannot read Python's
#: library (a Python installed under ``/root``): imported before the change of user.
COMMON_MODULES = (
    "abc", "array", "bisect", "collections", "contextlib", "copy", "dataclasses", "datetime",
    "decimal", "enum", "fractions", "functools", "glob", "heapq", "itertools", "json", "math",
    "numbers", "operator", "pathlib", "random", "re", "statistics", "string", "textwrap",
    "time", "typing",
)  # fmt: skip


def _library_readable_by_others() -> bool:
    """Whether a user other than the owner can reach and read Python's standard library."""
    where = Path(os.__file__).resolve().parent
    for folder in (where, *where.parents):
        try:
            mode = folder.stat().st_mode
        except OSError:
            return False
        if not mode & stat.S_IXOTH or (folder == where and not mode & stat.S_IROTH):
            return False
    return True


def confine(fds: Sequence[int]) -> tuple[str, ...]:
    """Confine this process (the bot's) as far as the machine allows; which measures apply.

    `fds` are the pipes to the parent (closed in the process that stays outside a namespace).
    """
    import resource

    applied: list[str] = []
    uid = BOT_UIDS + os.getpid()  # this process's machine-wide pid, before the namespace
    applied += _new_pid_namespace(fds)
    if os.geteuid() == 0:
        if not _library_readable_by_others():  # the bot could import nothing new as nobody
            import importlib

            for name in COMMON_MODULES:
                importlib.import_module(name)
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(uid)  # a user of its own: its process limit is its alone
        applied.append("unprivileged user")
    if os.getuid() != 0:
        resource.setrlimit(resource.RLIMIT_NPROC, (MAX_PROCESSES, MAX_PROCESSES))
        applied.append("process limit")
    # After the change of user, which clears it: this process dies with its parent (the waiting
    # process in a namespace, else the league). Were that parent killed before this line, the
    # league's kill of the process group still reaches this one: no student code has run yet.
    die_with_parent(None)
    return tuple(applied)


def die_with_parent(parent: int | None) -> None:
    """Have the kernel kill this process when its parent ends (Linux ``PR_SET_PDEATHSIG``), so
    a league killed by SIGTERM or SIGKILL leaves no bot behind; exit at once if the parent
    (pid `parent`, when given) has already gone."""
    try:
        _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the league's kill of the group still applies
        return
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def available() -> tuple[str, ...]:
    """The measures `confine` would apply on this machine (checked in a throwaway child)."""
    import json
    import subprocess
    import sys

    code = (
        "import json, os\nfrom nothanks_lab.tournaments.confine import confine\n"
        "print(json.dumps(confine([])))\n"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
        ).stdout
        return tuple(json.loads(out.strip().splitlines()[-1]))
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return ()


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from ``/proc``; none where it cannot be read)."""
    found: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and fields[1] == str(pid).encode():
            found.append(int(name))
    return found
