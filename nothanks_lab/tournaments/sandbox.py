"""A student's bot in a process of its own: the parent sends public facts, the child answers.

:class:`IsolatedPolicy` starts a fresh interpreter (``python -m nothanks_lab.tournaments.sandbox``,
not a fork: the child never holds the parent's games, decks or bots), which sets its limits
(``RLIMIT_CPU``, ``RLIMIT_AS``), keeps only its two pipes and only then runs the student's file.
Each decision goes as a `~nothanks_lab.view.PlayerView`'s public facts packed as ints
(`.pipes.encode_views`, never pickle) with a wall-clock deadline; on a miss the parent kills
the child's process group. Every `BaseException` of the bot and its signal handlers stay in the
child, which reports them as a message; a dead child is detected and named. A failure is a
:class:`BotProcessError` in the parent, a `~nothanks_lab.league.Rejection` in a league.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import types
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, NoReturn

from ..engine import Action
from ..i18n import N_, _, fmt_decimal, get_language, set_language
from ..rules import Rules, short_repr
from ..validate import check_int, check_number
from ..view import PlayerView
from .confine import SiblingFinder, confine, read_source, seed_global_random, sibling_sources
from .frames import _tuples
from .pipes import FrameReader, decode_views, encode_views

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
        self._send: Connection | None = None
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
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        config = {
            # Absolute, links not followed: a link to a file only root may read is refused.
            "path": os.path.abspath(self.path),  # the child starts in the file's folder
            "rules": _rules_facts(self.rules),
            "memory": int(self.memory_mb * 2**20),
            "cpu": float(self.cpu_s),
            "fds": [to_child_r, from_child_w],
            "class": self.class_name,
            "params": self.params,
            "seed": None if self.seed is None else list(self.seed),
            "siblings": self.siblings,
            "language": get_language(),  # the child's messages are for the student to read
        }
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "nothanks_lab.tournaments.sandbox", json.dumps(config)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(to_child_r, from_child_w),
                start_new_session=True,  # its own process group: killed whole, no Ctrl-C
                cwd=str(self.path.parent),
            )
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self._send = Connection(to_child_w, readable=False)
        self._recv = FrameReader(from_child_r, _MAX_MESSAGE)
        reply = self._reply(
            self.load_s + 10.0, "load", self.load_s
        )  # + interpreter start on a busy machine
        if reply.get("ready") is not True:
            self._fail(reply, "load")
        own = reply.get("name")
        if isinstance(own, str) and own:  # the bot's own name, as it shows in this process
            self.name = own[:100]

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
        if proc is not None:
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
        except (EOFError, OSError):
            self._died(stage)
        try:
            reply = json.loads(data)
        except ValueError:
            reply = None
        if not isinstance(reply, dict):
            self._die(_(_NOT_AN_ANSWER), _("Only answer moves."))
        return reply

    def _pace(self) -> str:
        """``; its 40 decisions before took 850 ms each``: measured, for a limit's message."""
        if not self._answered:
            return ""
        ms = 1000 * self._busy / self._answered
        return " " + _("(its {n} decisions before took {ms} ms each on average)").format(
            n=self._answered, ms=f"{ms:.0f}"
        )

    def _died(self, stage: str) -> None:
        assert self._proc is not None
        try:
            code = self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        if code == -signal.SIGXCPU:
            problem = _("it used more than {cpu} s of CPU time and was stopped")
        elif code == -signal.SIGKILL:  # not the CPU limit (that sends SIGXCPU first)
            problem = _("its process was killed from outside (SIGKILL: out of memory, or a person)")
        elif stage == "load":
            problem = _("its process ended while the file loaded (exit code {code})")
        else:
            problem = _("its process ended while it was deciding (exit code {code})")
        advice = _("A bot only answers: never exit, and keep each decision quick.")
        self._die(problem.format(code=code, cpu=f"{self.cpu_s:g}"), advice)

    def _die(self, problem: str, advice: str, stage: str = "") -> NoReturn:
        self.failure = BotProcessError(problem, advice, self._at, stage)
        self.close()
        raise self.failure

    def _fail(self, reply: dict[str, Any], stage: str) -> None:
        err = reply.get("error")
        if not isinstance(err, dict):
            self._die(_(_NOT_AN_ANSWER), _("Only answer moves."))
        assert isinstance(err, dict)
        problem = str(err.get("problem", "it failed"))[:500]
        advice = str(err.get("advice", ""))[:500]
        self._die(problem, advice, "find" if err.get("stage") == "find" else "")

    def act_many(self, views: list[PlayerView]) -> list[Action]:
        """The bot's moves in each of `views`: one message out, one short answer back per view.

        Each answer must come within `decision_s` of the one before (of the message, for the
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
        try:
            self._send.send_bytes(encode_views(views))
        except OSError:
            self._at = 0
            self._died("act")
        self._pending, self._sent = len(views), time.monotonic()

    def collect(self) -> list[Action]:
        """The moves of the views last submitted, each within `decision_s` of the one before."""
        assert self._recv is not None
        n, self._pending = self._pending, 0
        out = []
        recv, poll = self._recv.recv, self._recv.poll
        clock = time.monotonic
        last = self._sent
        for i in range(n):
            self._at = i
            try:
                data = recv() if poll(self.decision_s) else None
            except (EOFError, OSError):
                self._died("act")
            if data is None:
                self._die(
                    _(
                        "it took more than {limit} s to decide (the limit per decision) and "
                        "was stopped"
                    ).format(limit=f"{self.decision_s:g}")
                    + self._pace(),
                    _("Make sure every loop ends, and keep each decision quick."),
                )
            now = clock()
            self._answered, self._busy, last = self._answered + 1, self._busy + now - last, now
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
            if data == b"T" or data == b"P":
                out.append(Action.TAKE if data == b"T" else Action.PASS)
                continue
            try:
                reply = json.loads(data)
            except ValueError:
                reply = None
            if not isinstance(reply, dict):
                self._die(_(_NOT_AN_ANSWER), _("Only answer moves."))
            self._fail(reply, "act")
        return out

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
        path = Path(where).expanduser().resolve()
        is_file = path.is_file()
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


# --------------------------------------------------------------------------- the child
_NOT_AN_ANSWER = N_("its process sent something that is not an answer")
_LOAD_ADVICE = N_("Run the file's code in a cell to see the error with its traceback.")
_NO_ACT = N_("its class {name} has no method act")
_NO_BOT = N_("the file defines no bot")
_NONE_ANSWER = N_("its act(view) returned None (a missing return?)")
_NOT_A_MOVE = N_("its act(view) answered {answer} (a {kind}), which is not a move")


def _line_in(exc: BaseException, path: Path | None) -> str:
    """`` (ada.py, line 7)``: the last line of `path` the error passed through, if any."""
    if path is None:
        return ""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename) == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    if line is None and isinstance(exc, SyntaxError) and exc.lineno is not None:
        line = exc.lineno
    return (
        "" if line is None else " " + _("({file}, line {line})").format(file=path.name, line=line)
    )


def _error_text(exc: BaseException) -> str:
    text = str(exc).strip()
    if isinstance(exc, SyntaxError):
        text = exc.msg
    return type(exc).__name__ + (f": {text}" if text else "")


def _module_of(path: Path, source: str | None = None) -> types.ModuleType:
    """Run a bot's file (its text `source`, read if not given) as a fresh module (registered
    in ``sys.modules`` for pickling).

    A file that fails to load leaves no module behind; the caller sets any time limit."""
    if source is None:
        source = path.read_text(encoding="utf-8")
    code = compile(source, str(path), "exec")
    digest = hashlib.sha1(f"{path.resolve()}\n{source}".encode()).hexdigest()[:12]
    stem = re.sub(r"\W", "_", path.stem)
    module = types.ModuleType(f"nothanks_league_{stem}_{digest}")
    module.__file__ = str(path)
    sys.modules[module.__name__] = module  # dataclasses and pickle look a class's module up
    try:
        exec(code, module.__dict__)
    except BaseException:
        del sys.modules[module.__name__]
        raise
    return module


def _bot_of_module(module: types.ModuleType, path: Path) -> Any:
    """The decision function a loaded file defines (``Bot().act`` or ``act``), or why not."""
    bot_class = getattr(module, "Bot", None)
    if isinstance(bot_class, type):
        bot = bot_class()
        act = getattr(bot, "act", None)
        return act if callable(act) else _(_NO_ACT).format(name="Bot")
    act = getattr(module, "act", None)
    return act if callable(act) else _(_NO_BOT)


def _error_reply(exc: BaseException, path: Path) -> dict[str, Any]:
    """The message for an exception of the bot while it decided."""
    if isinstance(exc, MemoryError):
        problem = _("it ran out of the memory a bot may use while deciding")
        advice = _("Keep the bot's data small.")
    else:
        problem = _("while deciding, it raised {error}{where}").format(
            error=_error_text(exc), where=_line_in(exc, path)
        )
        advice = _(_LOAD_ADVICE)
    return {"error": {"problem": problem, "advice": advice}}


def _child_main(config: dict[str, Any]) -> None:  # pragma: no cover - runs in the child
    import resource

    in_fd, out_fd = config["fds"]
    mem, cpu = int(config["memory"]), float(config["cpu"])
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_CPU, (int(cpu) + 1, int(cpu) + 2))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash leaves no core file behind
    os.closerange(3, min(in_fd, out_fd))
    os.closerange(max(in_fd, out_fd) + 1, 4096)
    for lo, hi in ((min(in_fd, out_fd) + 1, max(in_fd, out_fd)),):
        os.closerange(lo, hi)
    path = Path(config["path"])
    rules = Rules(**{k: _tuples(v) for k, v in config["rules"].items()})
    unread: Exception | None = None
    try:  # read while the teacher's rights still hold: the bot may lose them below
        source: str | None = read_source(path)
        siblings = sibling_sources(path) if config.get("siblings", True) else {}
    except (OSError, ValueError) as e:  # ValueError: not a regular file, too large, not UTF-8
        source, siblings, unread = None, {}, e
    set_language(config.get("language") or "en")
    _(_NO_BOT)  # the catalog read now, while the package's files are surely readable
    confine((in_fd, out_fd))
    seed_global_random(config.get("seed"))
    sys.meta_path.insert(0, SiblingFinder(siblings, path.parent))
    inbox = Connection(in_fd, writable=False)
    outbox = Connection(out_fd, readable=False)

    def send(message: dict[str, Any]) -> None:
        outbox.send_bytes(json.dumps(message).encode())

    try:
        if source is None:
            raise unread if unread is not None else OSError(f"cannot read {path.name}")
        module = _module_of(path, source)
    except BaseException as e:  # every exception of the file stays here, as a message
        text = _("the file does not load: {error}{where}").format(
            error=_error_text(e), where=_line_in(e, path)
        )
        if isinstance(e, MemoryError):
            text = _("the file ran out of the memory a bot may use while it loaded")
        send({"error": {"problem": text, "advice": _(_LOAD_ADVICE)}})
        return
    own_name = None
    try:
        if config.get("class") is not None:
            cls = getattr(module, config["class"], None)
            if not callable(cls):
                bot: Any = _("{file} has no class {name}").format(
                    file=path.name, name=config["class"]
                )
            else:
                made = cls(**config.get("params", {}))
                own = getattr(made, "name", None)
                own_name = own if isinstance(own, str) else None
                bot = getattr(made, "act", None)
                if not callable(bot):
                    bot = _(_NO_ACT).format(name=config["class"])
        else:
            bot = _bot_of_module(module, path)
    except BaseException as e:
        text = _("{name}() raised {error}{where}").format(
            name=config.get("class") or "Bot", error=_error_text(e), where=_line_in(e, path)
        )
        send({"error": {"problem": text, "advice": _(_LOAD_ADVICE), "stage": "find"}})
        return
    if isinstance(bot, str):
        send({"error": {"problem": bot, "advice": "", "stage": "find"}})
        return
    decide = bot
    send({"ready": True, "name": own_name})
    hands_of: dict[int, tuple[int, ...]] = {}
    while True:
        try:
            message = inbox.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            for view in decode_views(message, rules, hands_of):
                answer = decide(view)
                if answer is Action.TAKE or answer is Action.PASS:
                    outbox.send_bytes(b"T" if answer is Action.TAKE else b"P")
                else:
                    text = (
                        _(_NONE_ANSWER)
                        if answer is None
                        else _(_NOT_A_MOVE).format(
                            answer=short_repr(answer), kind=type(answer).__name__
                        )
                    )
                    advice = _("Return Action.TAKE or Action.PASS.")
                    send({"error": {"problem": text, "advice": advice}})
                    return
        except BaseException as e:
            send(_error_reply(e, path))
            return


if __name__ == "__main__":  # pragma: no cover - the child's entry point
    _child_main(json.loads(sys.argv[1]))
