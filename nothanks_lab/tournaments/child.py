"""The process of an isolated bot (`nothanks_lab.tournaments.sandbox.IsolatedPolicy`).

Started as ``python -m nothanks_lab.tournaments.child CONFIG``: it sets its limits, keeps only
its two pipes and its progress counter, reads the student's file while the teacher's rights still
hold, confines itself (`nothanks_lab.tournaments.confine`) and only then runs the file. It then
answers batches of views: one message in (`~nothanks_lab.tournaments.pipes.encode_views`), one
message out holding a byte per decision (``T`` or ``P``), so a batch of 100 decisions costs two
writes, not a hundred. While it works it counts the decisions it has finished in a shared
8-byte counter, which the parent reads when an answer is late: a bot stuck on one decision of a
batch is stopped by the per-decision deadline and named with that decision, though no answer of
the batch has been sent yet. Every exception of the bot (any `BaseException`) stays here and
goes to the parent as a message; so does an answer that is not a move.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
import sys
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..engine import Action
from ..i18n import _, set_language
from ..rules import Rules, short_repr
from .botfile import (
    FIND_RAISED,
    LOAD_ADVICE,
    LOAD_MEMORY,
    MOVE_ADVICE,
    NO_ACT,
    NO_BOT,
    NO_CLASS,
    NO_LOAD,
    NONE_ANSWER,
    NOT_A_MOVE,
    bot_of_module,
    error_reply,
    error_text,
    idle_error_reply,
    line_in,
    module_of,
    type_name,
)
from .confine import (
    SiblingFinder,
    confine,
    die_with_parent,
    read_source,
    seed_global_random,
    sibling_sources,
)
from .frames import _tuples
from .pipes import decode_views

__all__ = ["FILE_BYTES", "OPEN_FILES", "PROGRESS", "child_main"]

#: Largest file a bot's process may write (``RLIMIT_FSIZE``): 16 MiB.
FILE_BYTES = 16 * 2**20
#: Most files a bot's process may hold open (``RLIMIT_NOFILE``): memory in files (``memfd``,
#: its ``/tmp``) is outside its memory limit, so this bounds it too (32 x 16 MiB).
OPEN_FILES = 32

#: The shared counter of decisions a bot's process has finished (since it started): one
#: native 8-byte signed int at offset 0.
PROGRESS = struct.Struct("=q")


def _close_all_but(keep: list[int]) -> None:
    """Close every file descriptor from 3 up except `keep`."""
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 4096)


def _find_bot(config: dict[str, Any], module: Any, path: Path) -> Any:
    """(decide, own name) of a loaded file, or (why not as text, None)."""
    if config.get("class") is None:
        return bot_of_module(module, path), None
    cls = getattr(module, config["class"], None)
    if not callable(cls):
        return _(NO_CLASS).format(file=path.name, name=config["class"]), None
    made = cls(**config.get("params", {}))
    own = getattr(made, "name", None)
    decide = getattr(made, "act", None)
    if not callable(decide):
        decide = _(NO_ACT).format(name=config["class"])
    return decide, own if isinstance(own, str) else None


def _not_a_move(answer: object) -> dict[str, Any]:
    text = (
        _(NONE_ANSWER)
        if answer is None
        else _(NOT_A_MOVE).format(answer=short_repr(answer), kind=type_name(answer))
    )
    return {"error": {"problem": text, "advice": _(MOVE_ADVICE)}}


def child_main(config: dict[str, Any]) -> None:  # pragma: no cover - runs in the child
    """Load the file of `config` and answer the parent's batches until its pipe closes."""
    import resource

    die_with_parent(config.get("parent"))  # before anything else: a league killed takes it along
    in_fd, out_fd = config["fds"]
    progress_fd = config["progress"]
    mem, cpu = int(config["memory"]), float(config["cpu"])
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_CPU, (int(cpu) + 1, int(cpu) + 2))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash leaves no core file behind
    # Files it writes (in /tmp, /dev/shm...) outlive it: at most FILE_BYTES each.
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))
    _close_all_but([in_fd, out_fd, progress_fd])
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))  # after: fds are few
    counter = mmap.mmap(progress_fd, PROGRESS.size)  # shared with the parent
    os.close(progress_fd)  # the mapping stays
    path = Path(config["path"])
    rules = Rules(**{k: _tuples(v) for k, v in config["rules"].items()})
    unread: Exception | None = None
    try:  # read while the teacher's rights still hold: the bot may lose them below
        source: str | None = read_source(path)
        siblings = sibling_sources(path) if config.get("siblings", True) else {}
    except (OSError, ValueError) as e:  # ValueError: not a regular file, too large, not UTF-8
        source, siblings, unread = None, {}, e
    set_language(config.get("language") or "en")
    _(NO_BOT)  # the catalog read now, while the package's files are surely readable
    confine((in_fd, out_fd))
    seed_global_random(config.get("random"))
    sys.meta_path.insert(0, SiblingFinder(siblings, path.parent))
    # The folder (the working directory, first on the path under ``-m``) is not importable:
    # a league's files beside this one are classmates' bots; allowed siblings come from memory.
    folder = os.path.realpath(path.parent)
    sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != folder]
    inbox = Connection(in_fd, writable=False)
    outbox = Connection(out_fd, readable=False)

    me = os.getpid()

    def send(message: dict[str, Any]) -> None:
        _end_if_a_copy(me)
        outbox.send_bytes(json.dumps(message).encode())

    try:
        if source is None:
            raise unread if unread is not None else OSError(f"cannot read {path.name}")
        module = module_of(path, source)
    except BaseException as e:  # every exception of the file stays here, as a message
        text = _(NO_LOAD).format(error=error_text(e), where=line_in(e, path))
        if isinstance(e, MemoryError):
            text = _(LOAD_MEMORY)
        send({"error": {"problem": text, "advice": _(LOAD_ADVICE)}})
        return
    try:
        decide, own_name = _find_bot(config, module, path)
    except BaseException as e:
        text = _(FIND_RAISED).format(
            name=config.get("class") or "Bot", error=error_text(e), where=line_in(e, path)
        )
        send({"error": {"problem": text, "advice": _(LOAD_ADVICE), "stage": "find"}})
        return
    if isinstance(decide, str):
        send({"error": {"problem": decide, "advice": "", "stage": "find"}})
        return
    send({"ready": True, "name": own_name})
    _answer_batches(decide, rules, path, inbox, outbox, send, counter)


def _end_if_a_copy(me: int) -> None:  # pragma: no cover - runs in the child
    """End a copy the bot's file forked (its pid is not `me`): only the process started answers."""
    if os.getpid() != me:
        os._exit(0)


def _answer_batches(
    decide: Any,
    rules: Rules,
    path: Path,
    inbox: Connection,
    outbox: Connection,
    send: Any,
    counter: mmap.mmap,
) -> None:  # pragma: no cover - runs in the child
    hands_of: dict[int, tuple[int, ...]] = {}
    take, pass_ = Action.TAKE, Action.PASS
    count = PROGRESS.pack_into
    done = 0
    me = os.getpid()
    while True:
        try:
            message = inbox.recv_bytes()
        except (EOFError, OSError):
            return
        except BaseException as e:  # its own signal handler raised while it waited
            _end_if_a_copy(me)
            send(idle_error_reply(e, path))
            return
        answers = bytearray()
        try:
            for view in decode_views(message, rules, hands_of):
                answer = decide(view)
                _end_if_a_copy(me)
                if answer is take:
                    answers += b"T"
                elif answer is pass_:
                    answers += b"P"
                else:
                    if answers:  # the moves before, so the parent names this decision
                        outbox.send_bytes(answers)
                    send(_not_a_move(answer))
                    return
                done += 1
                count(counter, 0, done)
        except BaseException as e:
            _end_if_a_copy(me)
            if answers:
                outbox.send_bytes(answers)
            send(error_reply(e, path))
            return
        if answers:
            outbox.send_bytes(answers)


if __name__ == "__main__":  # pragma: no cover - the child's entry point
    # The configuration comes on stdin (``sys.argv[1]`` only names the file, for a process
    # list): a command line is readable by every process of the machine, the seeds are not.
    with open(0, "rb", closefd=False) as config_in:
        text = config_in.read(1 << 20)
    null = os.open(os.devnull, os.O_RDONLY)  # stdin is /dev/null again, as for the bot before
    os.dup2(null, 0)
    os.close(null)
    child_main(json.loads(text))
