"""A student's bot file: run as a fresh module, its bot found, and the words for what failed.

Shared by the league's in-process loading (`nothanks_lab.league.loading`) and the isolated bot's
process (`nothanks_lab.tournaments.child`), so a file that fails says the same thing either way.
"""

from __future__ import annotations

import hashlib
import re
import string
import sys
import types
from pathlib import Path
from typing import Any

from ..i18n import N_, _

__all__ = [
    "LOAD_ADVICE",
    "NONE_ANSWER",
    "NOT_AN_ANSWER",
    "NOT_A_MOVE",
    "NO_ACT",
    "NO_BOT",
    "NO_BOT_NAMED",
    "bot_of_module",
    "error_reply",
    "error_text",
    "idle_error_reply",
    "line_in",
    "module_of",
    "no_bot_text",
    "one_line",
    "shown_file",
    "type_name",
    "written_by_the_child",
]


def shown_file(path: Path) -> str:
    """A bot file's name as the teacher's report shows it: one printable line ("?" if none)."""
    return one_line(path.name, 104) or "?"


def one_line(text: object, limit: int) -> str:
    r"""`text` as one printable line of at most `limit` characters, for words a bot chose.

    A bot's own name and the text of its exceptions reach the teacher's table and the list of
    files left out; newlines, escape sequences and other control characters there could forge
    lines of the table or blame a classmate, so each run of them becomes one space.

    >>> one_line("x.\n  \x1b[2J✘ Bot 'ada' is left out", 100)
    "x. [2J✘ Bot 'ada' is left out"
    """
    words = "".join(c if c.isprintable() else " " for c in str(text)).split()
    line = " ".join(words)
    return line if len(line) <= limit else line[: limit - 1] + "…"


#: What a bot's process sent when it is not an answer.
NOT_AN_ANSWER = N_("its process sent something that is not an answer")
LOAD_ADVICE = N_("Run the file's code in a cell to see the error with its traceback.")
NO_ACT = N_("its class {name} has no method act")
NO_BOT = N_("the file defines no bot")
NO_BOT_NAMED = N_(
    "the file defines no class named Bot and no function act, only {classes}: rename to Bot "
    "the class that should play"
)
NONE_ANSWER = N_("its act(view) returned None (a missing return?)")
NOT_A_MOVE = N_("its act(view) answered {answer}, of type {kind}, which is not a move")
NO_CLASS = N_("{file} has no class {name}")
NO_LOAD = N_("the file does not load: {error}{where}")
LOAD_MEMORY = N_("the file ran out of the memory a bot may use while it loaded")
FIND_RAISED = N_("{name}() raised {error}{where}")
DECIDE_MEMORY = N_("it ran out of the memory a bot may use while deciding")
DECIDE_RAISED = N_("while deciding, it raised {error}{where}")
IDLE_RAISED = N_(
    "between two decisions, while it waited for the next, it raised {error}{where} "
    "(from a signal handler or a timer of its own)"
)
MOVE_ADVICE = N_("Return Action.TAKE or Action.PASS.")
MEMORY_ADVICE = N_("Keep the bot's data small.")
#: Every problem and advice a bot's process may report (`written_by_the_child`).
CHILD_PROBLEMS = (
    NO_ACT, NO_BOT, NO_BOT_NAMED, NONE_ANSWER, NOT_A_MOVE, NO_CLASS, NO_LOAD, LOAD_MEMORY,
    FIND_RAISED, DECIDE_MEMORY, DECIDE_RAISED, IDLE_RAISED,
)  # fmt: skip
CHILD_ADVICE = (LOAD_ADVICE, MOVE_ADVICE, MEMORY_ADVICE)


def _template(message: str, file: str, name: str) -> re.Pattern[str]:
    """`message` (translated) as a pattern of the texts the child writes with it: ``{file}``
    is `file`, ``{name}`` the bot's class `name`, ``{where}`` a place in the file or nothing,
    ``{error}`` an exception's type name and maybe its message, ``{kind}`` a type's name;
    only an exception's message and an answer's repr are free text (the bot's own words, in
    our framing: it could raise an exception with any message anyway)."""
    where = (
        "(?: "
        + re.escape(_("({file}, line {line})"))
        .replace(re.escape("{file}"), re.escape(shown_file(Path(file))))
        .replace(re.escape("{line}"), r"\d+")
        + ")?"
    )
    fields = {
        "file": re.escape(file),
        "name": re.escape(name),
        "where": where,
        "error": r"[A-Za-z_][\w.]*(?:: .*)?",
        "kind": r"[A-Za-z_][\w.]*",
        "answer": ".*",
        "classes": r"[^\W\d]\w*(?:, [^\W\d]\w*)*(?:, \.\.\.)?",  # Python names only
    }
    parts = []
    for literal, field, _spec, _conv in string.Formatter().parse(_(message)):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(fields.get(field, ".*"))
    return re.compile("".join(parts), re.DOTALL)  # an exception's text may have lines


def written_by_the_child(problem: str, advice: str, file: str, name: str = "Bot") -> bool:
    """Whether a report from a bot's process has the words the child's own code writes.

    A bot can write to its process's pipes itself, so a report could be anything, say "its
    process was killed from outside because of ada.py". Only the reports the child writes are
    shown, each field as the child fills it (`_template`: `file` the bot's own file, `name`
    its class); anything else is refused as words of the bot's own.
    """
    own_advice = advice == "" or any(advice == _(a) for a in CHILD_ADVICE)
    return own_advice and any(_template(m, file, name).fullmatch(problem) for m in CHILD_PROBLEMS)


def line_in(exc: BaseException, path: Path | None) -> str:
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
        ""
        if line is None
        else " " + _("({file}, line {line})").format(file=shown_file(path), line=line)
    )


def type_name(value: object) -> str:
    """``int``, ``str``, ``numpy.bool``: the type of `value` as a student would write it."""
    kind = type(value)
    where = getattr(kind, "__module__", "") or ""
    return (
        kind.__qualname__ if where == "builtins" else f"{where.split('.')[0]}.{kind.__qualname__}"
    )


def error_text(exc: BaseException) -> str:
    """``ValueError: bad card``: the exception's type and message (a message that cannot be
    shown, its ``__str__`` raising, is said to be so)."""
    try:
        text = str(exc.msg if isinstance(exc, SyntaxError) else exc).strip()
    except Exception:
        text = _("(its message could not be shown: its __str__ failed)")
    if len(text) > MAX_ERROR_CHARS:  # a 10 MB message would exceed what a report may hold
        text = text[:MAX_ERROR_CHARS] + "..."
    return type(exc).__name__ + (f": {text}" if text else "")


#: Characters of an exception's message a report keeps.
MAX_ERROR_CHARS = 1000


def module_of(path: Path, source: str | None = None) -> types.ModuleType:
    """Run a bot's file (its text `source`, read if not given) as a fresh module (registered
    in ``sys.modules`` for pickling).

    A file that fails to load leaves no module behind; the caller sets any time limit."""
    if source is None:
        source = path.read_text(encoding="utf-8-sig")  # a byte-order mark first reads too
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


def bot_of_module(module: types.ModuleType, path: Path) -> Any:
    """The decision function a loaded file defines (``Bot().act`` or ``act``), or why not."""
    bot_class = getattr(module, "Bot", None)
    if isinstance(bot_class, type):
        bot = bot_class()
        act = getattr(bot, "act", None)
        return act if callable(act) else _(NO_ACT).format(name="Bot")
    act = getattr(module, "act", None)
    return act if callable(act) else no_bot_text(module)


def no_bot_text(module: types.ModuleType) -> str:
    """Why a loaded file has no bot: none at all, or classes with ``act`` under other names."""
    named = sorted(
        name
        for name, value in vars(module).items()
        if isinstance(name, str)
        and name.isidentifier()  # a key planted in globals() could be any text
        and isinstance(value, type)
        and getattr(value, "__module__", None) == module.__name__
        and callable(getattr(value, "act", None))
    )
    if not named:
        return _(NO_BOT)
    shown = ", ".join(named[:5]) + (", ..." if len(named) > 5 else "")  # names: one line each
    return _(NO_BOT_NAMED).format(classes=shown)


def idle_error_reply(exc: BaseException, path: Path) -> dict[str, Any]:
    """The message for an exception raised while the bot waited between decisions (from a
    signal handler or a thread's doing: no decision of its was running)."""
    problem = _(IDLE_RAISED).format(error=error_text(exc), where=line_in(exc, path))
    return {"error": {"problem": problem, "advice": _(LOAD_ADVICE)}}


def error_reply(exc: BaseException, path: Path) -> dict[str, Any]:
    """The message for an exception of the bot while it decided."""
    if isinstance(exc, MemoryError):
        problem = _(DECIDE_MEMORY)
        advice = _(MEMORY_ADVICE)
    else:
        problem = _(DECIDE_RAISED).format(error=error_text(exc), where=line_in(exc, path))
        advice = _(LOAD_ADVICE)
    return {"error": {"problem": problem, "advice": advice}}
