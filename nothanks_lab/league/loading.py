"""Loading a league folder: each student's file run as a fresh module, its bot found and screened.

:func:`collect_bots` reads every ``*.py`` file of a folder (its stem is the bot's name; names
starting with ``_`` or ``.`` are skipped), runs it as a fresh module (no bytecode cache, so a
file edited a moment ago is never stale, and under a time limit), finds its ``Bot`` class or
``act`` function and screens the bot (:mod:`nothanks_lab.league.screening`). Nothing a file does
stops the others: each failure becomes a `Rejection` in the :class:`LeagueEntries`.
"""

from __future__ import annotations

import html
import stat
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike, fspath
from pathlib import Path
from typing import Any

from ..i18n import N_, _, ngettext
from ..rules import Rules
from ..tournaments.botfile import (
    LOAD_ADVICE,
    NO_ACT,
    error_text,
    line_in,
    module_of,
    no_bot_text,
    one_line,
    shown_file,
)
from ..validate import MAX_SCREEN_ROUNDS, check_count
from .limits import _time_limit, _TimeUp
from .screening import (
    DEFAULT_BUILTINS,
    MAX_MS_PER_DECISION,
    TIME_LIMIT_S,
    _builtin_policies,
    _fresh_seed,
    _screen_each,
    check_time_limit,
)
from .student import (
    Rejection,
    Stage,
    StudentBot,
    _left_out_html,
    _left_out_lines,
)

__all__ = ["LeagueEntries", "collect_bots"]


# --------------------------------------------------------------------------- loading files


def _load_isolated(
    path: Path, time_limit: float | None, rules: Rules | None, seed: tuple[int, int]
) -> Any:
    """A league file's bot started in a process of its own (`sandbox`), or why it is not.

    `seed` (the league's seed, a checksum of the file's name) seeds the ``random`` module and
    ``np.random`` in the bot's process, so an unseeded student bot plays the same every rerun,
    whatever other files the folder holds.
    """
    from ..tournaments.sandbox import DECISION_LIMIT_S, BotProcessError, IsolatedPolicy

    limit = DECISION_LIMIT_S if time_limit is None else time_limit
    policy = IsolatedPolicy(  # the files beside it are classmates' bots: not importable
        path, rules=rules, decision_s=limit, load_s=limit, seed=seed, siblings=False
    )
    try:
        policy.start()
    except BotProcessError as e:
        stage: Stage = "find" if e.stage == "find" else "load"
        name, file = shown_names(path)
        return Rejection(name, file, stage, e.problem, e.advice or _(_FIND_ADVICE))
    return StudentBot(shown_names(path)[0], policy, path)


def shown_names(path: Path) -> tuple[str, str]:
    """(bot name, file name) of a league file as the teacher's report shows them: its stem and
    its name, each one printable line (a file name may hold newlines and escape codes that
    would forge lines of the report; "?" for a name of nothing else)."""
    return one_line(path.stem, 100) or "?", shown_file(path)


_FIND_ADVICE = N_(
    "Define a function act(view), or a class Bot with a method act(self, view); either "
    "returns Action.TAKE or Action.PASS."
)


def _load(path: Path, time_limit: float | None) -> StudentBot | Rejection:
    """The bot a league file defines, or why there is none (in this process: trusted files)."""
    name, file = shown_names(path)
    try:
        plain = stat.S_ISREG(path.stat().st_mode)
    except OSError as e:
        plain, why = False, e.strerror or str(e)
    else:
        why = _("it is not a file (a folder, a pipe, a socket or a device)")
    if not plain:  # read, a pipe would wait forever; a folder is no bot
        problem = _("the file cannot be read: {why}").format(why=why)
        return Rejection(name, file, "load", problem, "")
    try:
        with _time_limit(time_limit):
            module = module_of(path)
    except _TimeUp:
        return Rejection(
            name,
            file,
            "load",
            _("the file took more than {limit} s to load (the limit) and was stopped").format(
                limit=f"{time_limit:g}"
            ),
            _("Running the file should only define the bot; play nothing when it loads."),
        )
    except (Exception, SystemExit) as e:
        return Rejection(
            name,
            file,
            "load",
            _("the file does not load: {error}{where}").format(
                error=error_text(e), where=line_in(e, path)
            ),
            _(LOAD_ADVICE),
        )
    bot_class = getattr(module, "Bot", None)
    if isinstance(bot_class, type):
        try:
            bot = bot_class()
        except Exception as e:
            return Rejection(
                name,
                file,
                "find",
                _("{name}() raised {error}{where}").format(
                    name="Bot", error=error_text(e), where=line_in(e, path)
                ),
                _(
                    "The league builds the class Bot with no arguments: give every argument "
                    "of __init__ a default."
                ),
            )
        if not callable(getattr(bot, "act", None)):
            return Rejection(
                name,
                file,
                "find",
                _(NO_ACT).format(name="Bot"),
                _("Give Bot a method act(self, view) that returns Action.TAKE or Action.PASS."),
            )
        return StudentBot(name, bot, path)
    act = getattr(module, "act", None)
    if callable(act):
        return StudentBot(name, act, path)
    return Rejection(
        name,
        file,
        "find",
        no_bot_text(module),
        _(_FIND_ADVICE),
    )


# --------------------------------------------------------------------------- collecting
@dataclass(frozen=True)
class LeagueEntries:
    """The bots of a league folder: those that passed screening, and those left out."""

    folder: Path | None
    """The folder read (None for bots given directly)."""
    bots: tuple[StudentBot, ...]
    """Bots that passed screening, by file name."""
    rejections: tuple[Rejection, ...]
    """Bots left out, with the reason."""

    @property
    def names(self) -> tuple[str, ...]:
        """Names of the bots that passed."""
        return tuple(b.name for b in self.bots)

    def __repr__(self) -> str:
        left_out = ", ".join(r.name for r in self.rejections) or "none"
        return f"LeagueEntries(ready: {', '.join(self.names) or 'none'}; left out: {left_out})"

    def _ready(self, names: str) -> str:
        n = len(self.bots)
        return ngettext("{n} bot ready: {names}", "{n} bots ready: {names}", n).format(
            n=n, names=names or _("none")
        )

    def _left_out(self) -> str:
        n = len(self.rejections)
        return ngettext("{n} left out:", "{n} left out:", n).format(n=n)

    def __str__(self) -> str:
        lines = [self._ready(", ".join(self.names))]
        if self.rejections:
            lines.append(self._left_out())
            lines.append(_left_out_lines(self.rejections))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        out = f"<p>✔ {self._ready(', '.join(f'<b>{html.escape(n)}</b>' for n in self.names))}</p>"
        if self.rejections:
            out += f"<p>✘ {html.escape(self._left_out())}</p>{_left_out_html(self.rejections)}"
        return out


def collect_bots(
    folder: str | PathLike[str],
    *,
    builtins: Sequence[Any] = DEFAULT_BUILTINS,
    n_players: int = 3,
    rounds: int = 3,
    seed: int | None = None,
    rules: Rules | None = None,
    max_ms: float = MAX_MS_PER_DECISION,
    time_limit: float | None = TIME_LIMIT_S,
    isolate: bool = True,
) -> LeagueEntries:
    """Load and screen every bot of a league folder (one ``*.py`` file per student).

    Each file is loaded (see the module's docstring for what it must define) and its bot is
    screened with `screen_bot` (`rounds` rounds against `builtins`, seeded by `seed` and the
    bot's name). Nothing a file does stops the others: each failure becomes a `Rejection`.
    With `isolate` (the default) each file is loaded and plays in a process of its own
    (:mod:`nothanks_lab.tournaments.sandbox`); ``isolate=False`` runs trusted files in this process.
    """
    if not isinstance(isolate, bool):
        raise ValueError(f"isolate must be True or False; got {isolate!r}")
    where = Path(folder).expanduser() if isinstance(folder, str | PathLike) else None
    if where is None or not fspath(folder) or not where.is_dir():  # "" is not "."
        raise ValueError(
            f"folder must be an existing folder of bot files ('.' for the current one); "
            f"got {folder!r}"
        )
    time_limit = check_time_limit(time_limit)
    rounds = check_count(rounds, "rounds", MAX_SCREEN_ROUNDS)  # before any file is loaded
    seed = _fresh_seed(seed)
    _builtin_policies(builtins)  # a bad built-in is the caller's error, raised before any file
    # Every *.py name (folders, pipes and links too): what cannot play is a Rejection, named.
    files = sorted(p for p in where.glob("*.py") if not p.name.startswith(("_", ".")))
    bots, rejections = _screen_each(
        (
            _load_isolated(path, time_limit, rules, (seed, zlib.crc32(path.stem.encode())))
            if isolate
            else _load(path, time_limit)
            for path in files
        ),  # each file loaded just before its screening
        seed=seed,
        time_limit=time_limit,
        builtins=builtins,
        n_players=n_players,
        rounds=rounds,
        rules=rules,
        max_ms=max_ms,
    )
    return LeagueEntries(where, tuple(bots), tuple(rejections))
