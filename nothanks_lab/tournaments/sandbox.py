"""A student's bot in a process of its own: the parent sends public facts, the child answers.

:class:`IsolatedPolicy` starts a fresh interpreter (`nothanks_lab.tournaments.child`, not a
fork: the child never holds the parent's games, decks or bots), which sets its limits
(``RLIMIT_CPU``, ``RLIMIT_AS``), keeps only its pipes and only then runs the student's file.
Decisions go in batches, each a `~nothanks_lab.view.PlayerView`'s public facts packed as ints
(`.pipes.encode_views`, never pickle), and come back as one message per batch; each decision
has a wall-clock deadline, timed from the child's shared count of finished decisions; on a
miss the parent kills the child's process group. Every `BaseException` of the bot and its
signal handlers stay in the child, which reports them as a message; a dead child is named.
A failure is a :class:`BotProcessError` here, a `~nothanks_lab.league.Rejection` in a league.
"""

from __future__ import annotations

import dataclasses
import json
import mmap
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NoReturn

from ..engine import Action
from ..i18n import _, fmt_decimal, get_language
from ..rules import Rules, short_repr
from ..validate import check_int, check_number
from ..view import PlayerView
from .botfile import NOT_AN_ANSWER, one_line, written_by_the_child
from .child import PROGRESS
from .confine import children_of, global_random_seeds
from .pipes import FrameError, FrameReader, FrameWriter, encode_views

__all__ = [
    "CPU_LIMIT_S",
    "DECISION_LIMIT_S",
    "MEMORY_LIMIT_MB",
    "BotProcessError",
    "IsolatedPolicy",
    "isolated_bot",
]

#: Memory a student's process may map (``RLIMIT_AS``), in megabytes.
MEMORY_LIMIT_MB = 512
#: CPU seconds a student's process may use in all (``RLIMIT_CPU``).
CPU_LIMIT_S = 300.0
#: Wall-clock seconds for one decision (and the load of a file) before the child is killed.
DECISION_LIMIT_S = 10.0
#: Mean seconds per decision a bot may take (checked after ``_MEAN_AFTER``): a bot sleeping 2 s a
#: move keeps under the per-decision limit but would stretch a league to hours.
MEAN_DECISION_LIMIT_S, _MEAN_AFTER = 1.0, 100
#: Largest message a child may send (bytes): more is a broken or hostile child.
_MAX_MESSAGE = 1 << 20


class BotProcessError(Exception):
    """A student's bot failed in its own process: `problem` and `advice` are for its author."""

    def __init__(
        self, problem: str, advice: str = "", index: int | None = None, stage: str = ""
    ) -> None:
        super().__init__(problem, advice, index, stage)  # all in args, so it pickles intact
        self.problem, self.advice = problem, advice
        #: Which view of a batch it failed on (None: at load, or not known).
        self.index = index
        #: ``"find"`` when the file loaded but defines no usable bot; else empty.
        self.stage = stage

    def __str__(self) -> str:
        return self.problem


def _rules_facts(rules: Rules) -> dict[str, Any]:
    return dataclasses.asdict(rules)


def _shared_counter() -> tuple[int, mmap.mmap]:
    """A zeroed 8-byte counter shared with a child: (a file descriptor to pass it, our view)."""
    try:
        fd = os.memfd_create("nothanks-lab-progress")  # in memory: no disk, full or not
    except (AttributeError, OSError):  # not Linux
        with tempfile.TemporaryFile() as f:
            fd = os.dup(f.fileno())
    os.ftruncate(fd, PROGRESS.size)
    return fd, mmap.mmap(fd, PROGRESS.size)


#: The whole environment of a bot's process. The teacher's would hand every bot its secrets (a
#: JupyterHub token, a seed passed in a variable); one thread per numeric library keeps the
#: processes a bot's user counts small (the process limit of `confine`).
_CHILD_ENV = {
    "PATH": os.defpath,
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def _signal_name(number: int) -> str:
    """``SIGSEGV (a crash)``: a signal's name, with what it usually means."""
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"{number}"
    crash = {"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT"}
    return _("{name} (a crash)").format(name=name) if name in crash else name


def _child_command(path: Path) -> list[str]:
    """The command line of a bot's process: this Python in isolated mode (``-I``: neither the
    working directory, which is the bot's folder, nor ``PYTHON*`` variables on its path), with
    this process's import path minus that folder, running `nothanks_lab.tournaments.child`.

    Under ``-m`` the folder came first on the path, so a file there named like a module the
    child imports before confining itself (``json.py``, a hidden ``_json.py``) ran as the
    league's user in every bot's process.
    """
    folder = os.path.realpath(path.parent)
    keep = [p for p in sys.path if p and os.path.realpath(p) != folder]
    code = (
        f"import sys; sys.path[:0] = {keep!r}; import runpy; "
        "runpy.run_module('nothanks_lab.tournaments.child', run_name='__main__', alter_sys=True)"
    )
    return [sys.executable, "-I", "-c", code, os.path.abspath(path)]


def _import_what_runs_beside_bots() -> None:
    """Import now the modules this package imports lazily while bots play (the progress bar).

    Where a bot's file system is not sealed (`confine.available` lacks ``"read-only files"``), a
    bot could write ``tqdm.py`` where the teacher's Python would look first (the folder of a
    script run from ``/tmp``): imported before any bot runs, the real one is already loaded.
    """
    import tqdm.auto  # noqa: F401


class IsolatedPolicy:
    """A policy whose ``act(view)`` runs a league file's bot in a child process.

    The child starts on the first decision (or `start`) and is killed by `close`; a copy of
    the policy is the policy itself (the bot lives in one process). After a failure every call
    raises the same `BotProcessError`.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        rules: Rules | None = None,
        memory_mb: float = MEMORY_LIMIT_MB,
        cpu_s: float = CPU_LIMIT_S,
        decision_s: float = DECISION_LIMIT_S,
        load_s: float = DECISION_LIMIT_S,
        class_name: str | None = None,
        params: dict[str, Any] | None = None,
        name: str | None = None,
        seed: tuple[int, ...] | None = None,
        siblings: bool = True,
    ) -> None:
        self.path = Path(path)
        #: Whether the ``*.py`` files beside the bot may be imported by it (a bot's own helper
        #: modules); a league says False: the files beside a student's are classmates' bots.
        self.siblings = bool(siblings)
        #: (run seed, place in the field): seeds the child's ``random`` and ``np.random``
        #: global state before the file runs (None: left to fresh entropy).
        self.seed = None if seed is None else tuple(check_int(k, "seed", low=0) for k in seed)
        #: The class to build (``file.py:Class:k=v``), or None: the file's ``Bot`` or ``act``.
        self.class_name = class_name
        self.params = dict(params or {})
        if class_name is not None and not class_name.isidentifier():
            raise ValueError(f"class_name must be a Python name; got {class_name!r}")
        if class_name is None and self.params:
            raise ValueError("params need a class_name (the class they build)")
        for key, value in self.params.items():
            if not isinstance(value, bool | int | float | str):
                raise ValueError(
                    f"params[{key!r}] must be a number, a bool or a string; got {value!r}"
                )
        #: The name tables show (default: the file's stem, or ``Class(k=v)``).
        self.name = name if name is not None else self.path.stem
        self.rules = Rules() if rules is None else rules
        self.memory_mb = check_number(memory_mb, "memory_mb", low=16)
        self.cpu_s = check_number(cpu_s, "cpu_s", low=0.1)
        self.decision_s = check_number(decision_s, "decision_s", low=0.001)
        self.load_s = check_number(load_s, "load_s", low=0.001)
        self.mean_s = min(MEAN_DECISION_LIMIT_S, self.decision_s)
        self._proc: subprocess.Popen[bytes] | None = None
        self._counter: mmap.mmap | None = None  # the process's count of finished decisions
        self._send: FrameWriter | None = None
        self._recv: FrameReader | None = None
        self.failure: BotProcessError | None = None
        self._at: int | None = None  # the view of the batch being answered, for a failure
        self._answered, self._busy = 0, 0.0  # decisions answered, seconds they took (a wall)
        self._pending, self._sent = 0, 0.0  # views submitted and not yet collected, and when

    # ------------------------------------------------------------------ process
    def start(self) -> None:
        """Start the child and load the file in it; `BotProcessError` if that fails."""
        if self.failure is not None:
            raise self.failure
        if self._proc is not None:
            return
        _import_what_runs_beside_bots()
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        progress_fd, self._counter = _shared_counter()
        config = {
            # Absolute, links not followed: a link to a file only root may read is refused.
            "path": os.path.abspath(self.path),  # the child starts in the file's folder
            "rules": _rules_facts(self.rules),
            "memory": int(self.memory_mb * 2**20),
            "cpu": float(self.cpu_s),
            "fds": [to_child_r, from_child_w],
            "progress": progress_fd,
            "parent": os.getpid(),
            "class": self.class_name,
            "params": self.params,
            "random": global_random_seeds(self.seed),  # derived: the run's seed stays here
            "siblings": self.siblings,
            "language": get_language(),  # the child's messages are for the student to read
        }
        try:
            # The configuration travels on the child's stdin, not its command line, which any
            # process of the machine can read in /proc: only the file's path shows there (so a
            # teacher's process list says which file a process plays).
            self._proc = subprocess.Popen(
                _child_command(self.path),
                stdin=subprocess.PIPE,
                env=_CHILD_ENV,  # not the teacher's: tokens, a seed passed in a variable...
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(to_child_r, from_child_w, progress_fd),
                start_new_session=True,  # its own process group: killed whole, no Ctrl-C
                cwd=str(self.path.parent),
            )
            stdin = self._proc.stdin
            assert stdin is not None
            try:
                with stdin:
                    stdin.write(json.dumps(config).encode())
            except BrokenPipeError:  # it ended at once: its reply below says so
                pass
        finally:
            for fd in (to_child_r, from_child_w, progress_fd):
                os.close(fd)
        self._send = FrameWriter(to_child_w)
        self._recv = FrameReader(from_child_r, _MAX_MESSAGE)
        reply = self._reply(
            self.load_s + 10.0, "load", self.load_s
        )  # + interpreter start on a busy machine
        if reply.get("ready") is not True:
            self._fail(reply, "load")
        own = reply.get("name")
        own = one_line(own, 100) if isinstance(own, str) else ""
        if own:  # its own name, as it shows in this process
            self.name = own

    def close(self) -> None:
        """Kill the child (its whole process group) and release the pipes."""
        proc, self._proc = self._proc, None
        for conn in (self._send, self._recv):
            if conn is not None:
                try:
                    conn.close()
                except OSError:
                    pass
        self._send = self._recv = None
        counter, self._counter = self._counter, None
        if counter is not None:
            counter.close()
        if proc is not None:
            # First the bot under the process that waits for it outside its PID namespace: it may
            # have left the group (setsid) and cleared its death signal; as the namespace's
            # process 1 it takes every process of the namespace along.
            for pid in children_of(proc.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.kill()
            except ProcessLookupError:
                pass
            proc.wait()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __deepcopy__(self, memo: dict[int, Any]) -> IsolatedPolicy:
        return self

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError("an isolated bot lives in a process of this one and cannot be pickled")

    # ------------------------------------------------------------------ talking
    def _reply(self, seconds: float, stage: str, shown: float | None = None) -> dict[str, Any]:
        assert self._recv is not None and self._proc is not None
        deadline = time.monotonic() + seconds
        try:
            ready = self._recv.poll(max(deadline - time.monotonic(), 0.0))
            if not ready:
                limit = f"{seconds if shown is None else shown:g}"
                if stage == "load":
                    text = _("it took more than {limit} s to load (the limit) and was stopped")
                else:
                    text = _("it took more than {limit} s to decide (the limit) and was stopped")
                self._die(
                    text.format(limit=limit) + self._pace(),
                    _("Make sure every loop ends, and play nothing when the file loads."),
                )
            data = self._recv.recv()
        except (EOFError, OSError) as e:
            self._died(stage, e)
        return self._message(data)

    def _message(self, data: bytes) -> dict[str, Any]:
        """The child's message `data` (JSON of an object), or the bot dies: not an answer."""
        try:
            reply = json.loads(data)
        except (ValueError, RecursionError):  # RecursionError: a forged message nested deep
            reply = None
        if not isinstance(reply, dict):
            self._die(_(NOT_AN_ANSWER), _("Only answer moves."))
        return reply

    def _pace(self) -> str:
        """``; its 40 decisions before took 850 ms each``: measured, for a limit's message."""
        if not self._answered:
            return ""
        ms = 1000 * self._busy / self._answered
        return " " + _("(its {n} decisions before took {ms} ms each on average)").format(
            n=self._answered, ms=f"{ms:.0f}"
        )

    def _died(self, stage: str, error: BaseException | None = None) -> None:
        """The process's pipe failed (`error`): say why, from how (or whether) it ended."""
        assert self._proc is not None
        if isinstance(error, FrameError):  # alive, but it wrote junk where its answers go
            self._die(
                _("it wrote something other than its answers to the league's pipe and was stopped"),
                _("A bot only answers: never write to the pipes of its process."),
            )
        try:
            code = self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:  # the pipe closed, the process did not end
            problem = _(
                "it closed the league's pipe while its process went on running, and was stopped"
            )
        elif code == -signal.SIGXCPU:
            problem = _("it used more than {cpu} s of CPU time and was stopped")
        elif code == -signal.SIGKILL:  # not the CPU limit (that sends SIGXCPU first)
            problem = _("its process was killed from outside (SIGKILL: out of memory, or a person)")
        elif code < 0:  # another signal: a crash (SIGSEGV...) or one sent to itself
            problem = (
                _("its process was ended by the signal {name} while the file loaded")
                if stage == "load"
                else _("its process was ended by the signal {name} while it was deciding")
            )
        elif stage == "load":
            problem = _("its process ended while the file loaded (exit code {code})")
        else:  # it exited: sys.exit in a thread, os._exit...
            problem = _("its process exited while it was deciding (exit code {code})")
        advice = _("A bot only answers: never exit, and keep each decision quick.")
        name = _signal_name(-code) if code is not None and code < 0 else ""
        self._die(problem.format(code=code, cpu=f"{self.cpu_s:g}", name=name), advice)

    def _die(self, problem: str, advice: str, stage: str = "") -> NoReturn:
        self.failure = BotProcessError(problem, advice, self._at, stage)
        self.close()
        raise self.failure

    def _fail(self, reply: dict[str, Any], stage: str) -> None:
        err = reply.get("error")
        if not isinstance(err, dict):
            self._die(_(NOT_AN_ANSWER), _("Only answer moves."))
        assert isinstance(err, dict)
        problem, advice = err.get("problem"), err.get("advice", "")
        if not (
            isinstance(problem, str)
            and isinstance(advice, str)
            and written_by_the_child(problem, advice, self.path.name, self.class_name or "Bot")
        ):  # the bot wrote to its pipe itself: its words never pass for the league's
            self._die(
                _("it sent the league a report in words of its own, and was stopped"),
                _("A bot only answers: never write to the pipes of its process."),
            )
        problem, advice = one_line(problem, 500), one_line(advice, 500)  # never two lines
        self._die(problem, advice, "find" if err.get("stage") == "find" else "")

    def act_many(self, views: list[PlayerView]) -> list[Action]:
        """The bot's moves in each of `views`: one message out, one message of moves back.

        Each decision must end within `decision_s` of the one before (of the message, for the
        first), so the deadline is per decision however long the batch; a failure names the
        view it happened on (`BotProcessError.index`).
        """
        self.submit(views)
        return self.collect()

    def submit(self, views: list[PlayerView]) -> None:
        """Send `views` to the process, which starts on them at once; `collect` the moves.

        Submitting to every bot's process before collecting from any lets them all think at
        the same time (`nothanks_lab.tournaments.lockstep`).
        """
        self.start()
        assert self._send is not None and self._recv is not None
        if self._pending:
            raise RuntimeError("collect the moves of the views submitted before")
        self._at = 0
        try:  # nothing may be waiting: answers come only to a batch, never between two
            early = self._recv.poll(0)
        except (EOFError, OSError) as e:
            self._died("act", e)
        if early:
            self._at = None  # between two batches: no view of this one was being decided
            try:
                data = self._recv.recv()
            except (EOFError, OSError) as e:
                self._died("act", e)
            if data[:1] == b"{":  # its process failed while it waited (its signal handler...)
                self._fail(self._message(data), "")
            self._die(
                _("it sent answers nobody had asked for (from a thread, or a copy of its process)"),
                _("A bot only answers: one move per decision, returned by act(view)."),
            )
        try:
            sent = self._send.send(encode_views(views), self.decision_s)
        except OSError:
            self._died("act")
        if not sent:
            self._die(
                _("it stopped reading the decisions sent to it for more than {limit} s").format(
                    limit=f"{self.decision_s:g}"
                ),
                _("A bot only answers: never block its process outside act(view)."),
            )
        self._pending, self._sent = len(views), time.monotonic()

    def _done(self, base: int, n: int) -> int:
        """Decisions of the batch of `n` under way the process says it has finished (`base`:
        the decisions it had answered before)."""
        assert self._counter is not None
        done = PROGRESS.unpack_from(self._counter)[0] - base
        return done if 0 <= done <= n else 0  # a hostile count is no progress

    def collect(self) -> list[Action]:
        """The moves of the views last submitted, each within `decision_s` of the one before.

        The process answers a batch in one message; while it works, its counter of finished
        decisions (read every eighth of `decision_s` while no answer has come) restarts the
        clock of the next decision, so a decision may take `decision_s` (and up to an eighth
        more) however long the batch, and the one that overran is named.
        """
        assert self._recv is not None
        n, self._pending, base = self._pending, 0, self._answered
        out: list[Action] = []
        recv, poll, clock = self._recv.recv, self._recv.poll, time.monotonic
        started = last = self._sent  # when the decision under way began, as seen from here
        done, step = 0, self.decision_s / 8
        while len(out) < n:
            left = started + self.decision_s - clock()
            try:
                data = recv() if left > 0 and poll(min(left, step)) else None
            except (EOFError, OSError) as e:
                self._at = min(max(len(out), self._done(base, n)), n - 1)
                self._died("act", e)
            if data is None:
                now = self._done(base, n)
                if now > done:  # decisions finished since the last look: the clock restarts
                    done, started = now, clock()
                elif left <= 0:
                    self._at = min(max(len(out), done), n - 1)
                    self._answered, self._busy = base + done, self._busy + started - last
                    self._die(
                        _(
                            "it took more than {limit} s to decide (the limit per decision) and "
                            "was stopped"
                        ).format(limit=f"{self.decision_s:g}")
                        + self._pace(),
                        _("Make sure every loop ends, and keep each decision quick."),
                    )
                continue
            self._at = len(out)
            if data and len(data) <= n - len(out) and not data.strip(b"TP"):
                now_s = clock()
                self._answered += len(data)
                self._busy, last, started = self._busy + now_s - last, now_s, now_s
                out.extend(Action.TAKE if c == 84 else Action.PASS for c in data)  # 84: "T"
                self._check_mean()
                continue
            self._fail(self._message(data), "act")
        return out

    def _check_mean(self) -> None:
        if self._answered >= _MEAN_AFTER and self._busy > self._answered * self.mean_s:
            self._die(
                _(
                    "its decisions took {mean} s each on average over {n} decisions, more "
                    "than the {limit} s a bot may take on average (a league would take hours)"
                ).format(
                    mean=fmt_decimal(self._busy / self._answered, 2),
                    n=self._answered,
                    limit=f"{self.mean_s:g}",
                ),
                _("Keep each decision quick: no sleeping, no long searches."),
            )

    @property
    def batch_key(self) -> IsolatedPolicy:
        """The process answers in batches (`nothanks_lab.tournaments.lockstep`): itself."""
        return self

    def act(self, view: PlayerView) -> Action:
        """The bot's move in `view`, from its process."""
        return self.act_many([view])[0]

    def __repr__(self) -> str:
        return f"IsolatedPolicy({self.path.name!r})"


def isolated_bot(
    spec: Any, rules: Rules | None = None, *, seed: object = None, place: int = 0
) -> IsolatedPolicy | None:
    """An `IsolatedPolicy` for a ``"path/to/file.py:Class[:k=v,...]"`` spec, or None for any
    other bot (a registered name, ``package.module:Class``, a policy object).

    With an int `seed` (the run's), the child's global ``random`` and ``np.random`` state is
    seeded from (`seed`, `place`), the bot's place in the field.

    The file is never run in this process: its class is looked up and built in the child.
    """
    from ..bots.specs import parse_bot_spec, user_bot_name

    if not isinstance(spec, str):
        return None
    where, _, rest = spec.strip().partition(":")
    if not where.endswith(".py"):
        return None
    class_name, _, given = rest.partition(":")
    shown, file = short_repr(spec), short_repr(where)
    if not class_name.strip().isidentifier():
        raise ValueError(
            f"bot spec {shown}: after {file} give the class name, as "
            "'file.py:ClassName' or 'file.py:ClassName:key=value'"
        )
    try:
        # Absolute, links not followed: the process reads the link itself and refuses it, as a
        # league does (resolving it here would hand it the target, read with our rights).
        path = Path(os.path.abspath(Path(where).expanduser()))
        is_file = path.is_file() or path.is_symlink()
    except (OSError, RuntimeError):  # a name too long for the file system, a link loop
        is_file = False
    if not is_file:
        raise ValueError(f"bot spec {shown}: no file {file}")
    _, params = parse_bot_spec("user:" + given) if given else ("user", {})
    key = (seed, place) if isinstance(seed, int) and not isinstance(seed, bool) else None
    policy = IsolatedPolicy(
        path,
        rules=rules,
        class_name=class_name.strip(),
        params=params,
        name=user_bot_name(class_name.strip(), params),
        seed=key,
    )
    try:  # loaded now, as in this process: the name it gives itself is known before play
        policy.start()
    except BotProcessError as e:
        raise ValueError(f"bot spec {shown}: {e.problem}") from None
    return policy
