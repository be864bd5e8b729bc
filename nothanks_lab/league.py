"""The class league: every student's bot from a folder, screened, then a fair tournament.

A league folder holds one Python file per student, and the file's stem is the bot's name
(``ada.py`` plays as ``ada``; files whose name starts with ``_`` or ``.`` are skipped). A file
defines its bot in one of two ways, looked for in this order:

* a class ``Bot`` with a method ``act(self, view)``, built as ``Bot()`` (no arguments);
* a module-level function ``act(view)``.

``act`` is given the seat's `~nothanks_lab.view.PlayerView` and returns ``Action.TAKE`` or
``Action.PASS``. `collect_bots` runs each file as a fresh module (no bytecode cache, so a file
edited a moment ago is never stale), finds its bot and screens it: a few rounds against the
built-in bots through the one-game engine. A file that does not load or defines no bot, and a
bot that raises, answers anything but a legal move (passing with no chips is illegal), is too
slow or cannot be copied, is left out with a `Rejection`: a message for the student naming the
file and, where there is one, the position it failed in. `run_league` plays the accepted bots
and the built-ins in a fair `~nothanks_lab.tournaments.tournament` (paired deals, every order
of the seats); a bot that fails on a position the screening never met is left out the same way
and the league is played again without it. `save_bot` writes a bot defined in a notebook cell
to a league file, and `as_bot` names a notebook bot for the play table.

Student bots play through the one-game engine, a few hundred rounds a second, so a league is
small. By default every student bot sits at a 3-seat table with the two built-ins
(``lineups="gauntlet"``): each student meets the same opponents on the same deals, so their win
shares compare directly. Measured on the project's shared 2-core machine, one worker: 10 student
bots and the default 100 deals (6,000 games) took 17 s at a load of 2.4 and 27 s at a load of 5;
screening them took 0.1–0.2 s. A league's files run as ordinary Python in this process, as any
notebook cell does: collect only files from your own class. An endless loop is stopped (on the
main thread of a POSIX system) while a file loads and while its bot is screened, not later.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import html
import inspect
import itertools
import re
import signal
import sys
import textwrap
import threading
import time
import types
import warnings
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .bots import SlowPathWarning
from .bots.specs import make_policy
from .engine import Action
from .play import PolicyError, ask, play_game, policy_name
from .rules import Rules
from .tournaments import TournamentResult, tournament
from .validate import check_int, check_number, check_players, check_rules, check_seed
from .view import PlayerView

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from .tournaments import Ratings

__all__ = [
    "DEFAULT_BUILTINS",
    "DEFAULT_DEALS",
    "LeagueEntries",
    "LeagueResult",
    "Rejection",
    "StudentBot",
    "as_bot",
    "collect_bots",
    "describe_position",
    "run_league",
    "save_bot",
    "screen_bot",
]

#: The built-in bots every student bot meets by default (registry names).
DEFAULT_BUILTINS: tuple[str, ...] = ("marginal", "heuristic")
#: Deals a league plays by default (each in every order of the seats).
DEFAULT_DEALS = 100
#: The slowest mean time per decision a screened bot may take, in milliseconds.
MAX_MS_PER_DECISION = 50.0
#: Seconds a file may take to load, and a bot to play its screening rounds.
TIME_LIMIT_S = 10.0
#: Bar colours of the leaderboard: student bots, built-in bots.
STUDENT_COLOR, BUILTIN_COLOR = "#ff7f0e", "#1f77b4"

Stage = Literal["load", "find", "screen", "league"]
_NO_ANSWER: Any = object()
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


# --------------------------------------------------------------------------- student bots
class StudentBot:
    """A student's bot: a name (a league file's stem) and the function or object that decides.

    `policy` is a function ``act(view)`` or an object with ``act(view)``. The wrapper keeps the
    last answer and error of its bot, so a failure can be explained in plain words, and counts
    the decisions and the time they took. A bot's own generator (an ``rng`` attribute) is the
    one tournaments reseed.

    >>> bot = StudentBot("ada", lambda view: Action.TAKE)
    >>> bot, bot.name
    (StudentBot('ada'), 'ada')
    """

    def __init__(self, name: str, policy: Any, path: str | PathLike[str] | None = None) -> None:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"name must be a non-empty string; got {name!r}")
        if not callable(getattr(policy, "act", None)) and not callable(policy):
            raise ValueError(
                f"policy must be a function act(view) or an object with act(view); got {policy!r}"
            )
        self.name = name.strip()
        self.policy = policy
        self.path = None if path is None else Path(path)
        self.last_answer: Any = _NO_ANSWER
        self.last_error: BaseException | None = None
        self.calls = 0
        self.seconds = 0.0

    @property
    def file(self) -> str | None:
        """The file's name (``ada.py``), or None for a bot made in a notebook."""
        return None if self.path is None else self.path.name

    @property
    def rng(self) -> np.random.Generator | None:
        """The bot's own generator, if it keeps one as ``rng``."""
        rng = getattr(self.policy, "rng", None)
        return rng if isinstance(rng, np.random.Generator) else None

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        if self.rng is not None:
            self.policy.rng = value

    def act(self, view: PlayerView) -> Action:
        """The bot's answer in `view` (checked by whoever asks: `nothanks_lab.play.ask`)."""
        decide = getattr(self.policy, "act", None)
        if not callable(decide):
            decide = self.policy
        self.last_answer, self.last_error = _NO_ANSWER, None
        start = time.perf_counter()
        try:
            answer = decide(view)
        except Exception as e:
            self.last_error = e
            raise
        finally:
            self.calls += 1
            self.seconds += time.perf_counter() - start
        self.last_answer = answer
        return answer

    def __repr__(self) -> str:
        return f"StudentBot({self.name!r})"


def as_bot(bot: Any, name: str | None = None) -> StudentBot:
    """A notebook's bot (a function ``act(view)``, a class or an object with ``act``), named.

    A class is built with no arguments. The name defaults to the function's or class's name.

    >>> def act(view):
    ...     return Action.TAKE
    >>> as_bot(act, "me").name, as_bot(act).name
    ('me', 'act')
    """
    if isinstance(bot, StudentBot):
        return bot if name is None else StudentBot(name, bot.policy, bot.path)
    if isinstance(bot, type):
        default = bot.__name__
        bot = bot()
    else:
        default = getattr(bot, "__name__", None) or policy_name(bot)
    return StudentBot(default if name is None else name, bot)


# --------------------------------------------------------------------------- rejections
@dataclass(frozen=True)
class Rejection:
    """A bot left out of the league, and why, in words for its author."""

    name: str
    """The bot's name (its file's stem)."""
    file: str | None
    """The file it came from (None for a bot made in a notebook)."""
    stage: Stage
    """Where it failed: ``"load"``, ``"find"`` (no bot in the file), ``"screen"``, ``"league"``."""
    problem: str
    """What went wrong, in one sentence."""
    advice: str
    """What to change."""
    view: PlayerView | None = field(default=None, repr=False)
    """The position it failed in, if it failed in one (it draws itself in a notebook)."""

    @property
    def message(self) -> str:
        """The whole message: who, what went wrong, what to change, and the position."""
        who = f"Bot '{self.name}'" + (f" ({self.file})" if self.file else "")
        text = f"{who} is left out of the league: {self.problem}. {self.advice}"
        if self.view is not None:
            text += f" The position: {describe_position(self.view)}."
        return text

    def __str__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        from .render import view_html, warning_html

        body = warning_html(self.message)
        if self.view is not None:
            body += view_html(self.view)
        return body


def describe_position(view: PlayerView) -> str:
    """A position in one sentence: the card, its chips, every seat's cards and chips.

    >>> from nothanks_lab.analysis import position_view
    >>> describe_position(position_view(17, 2, (12, 13), my_chips=0, other_hands=[(30,), ()]))
    'seat 0 to play on card 17 with 2 chips on it, holding 12, 13 and 0 chips; seat 1 holds 30 \
and 11 chips; seat 2 holds no cards and 11 chips; 20 cards still face down'
    """

    def holding(seat: int) -> str:
        cards = ", ".join(map(str, view.hands[seat])) or "no cards"
        chips = view.chips[seat]
        return f"{cards} and {chips} chip{'s' * (chips != 1)}"

    if view.active_card is None:
        head = f"the round is over; seat {view.seat} holds {holding(view.seat)}"
    else:
        pot = f"{view.pot} chip{'s' * (view.pot != 1)}"
        head = (
            f"seat {view.seat} to play on card {view.active_card} with {pot} on it, holding "
            f"{holding(view.seat)}"
        )
    others = [f"seat {s} holds {holding(s)}" for s in range(view.n_players) if s != view.seat]
    left = f"{view.cards_left} card{'s' * (view.cards_left != 1)} still face down"
    return "; ".join([head, *others, left])


def _short_repr(value: Any, limit: int = 60) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
    return "" if line is None else f" ({path.name}, line {line})"


def _error_text(exc: BaseException) -> str:
    text = str(exc).strip()
    if isinstance(exc, SyntaxError):
        text = exc.msg
    return type(exc).__name__ + (f": {text}" if text else "")


_TRY_IT = (
    "Try act(view) on this position in a cell to see the error with its traceback (the "
    "position is the rejection's view)."
)
_RETURN_A_MOVE = (
    "act must return Action.TAKE or Action.PASS on every path (from nothanks_lab import Action)."
)


def _rejection(bot: StudentBot, stage: Stage, error: PolicyError) -> Rejection:
    """Why `bot` failed with `error` (raised, answered garbage, passed with no chips)."""
    view = error.view
    cause = error.__cause__ or bot.last_error
    if isinstance(cause, _TimeUp):
        problem = "it took too long to decide, and was stopped (an endless loop?)"
        advice = "Make sure every loop in act ends."
    elif cause is not None:
        problem = f"its act(view) raised {_error_text(cause)}{_line_in(cause, bot.path)}"
        advice = _TRY_IT
    else:
        answer = bot.last_answer
        if answer is Action.PASS and view.my_chips == 0:
            problem = "it said No Thanks! with no chips left (a player with no chips must take)"
            advice = "Check view.my_chips first: if it is 0, return Action.TAKE."
        elif answer is None:
            problem = "its act(view) returned None (a missing return?)"
            advice = _RETURN_A_MOVE
        else:
            problem = (
                f"its act(view) answered {_short_repr(answer)} (a {type(answer).__name__}), "
                "which is not a move"
            )
            advice = _RETURN_A_MOVE
    return Rejection(bot.name, bot.file, stage, problem, advice, view)


# --------------------------------------------------------------------------- time limits
class _TimeUp(Exception):
    """Raised inside a bot's code when it overruns the time it was given."""


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[list[bool]]:
    """Interrupt the code inside after `seconds` with `_TimeUp` (``fired[0]`` says it did).

    Uses ``SIGALRM``, so it works only on the main thread of a POSIX system (a notebook's
    kernel runs cells there); elsewhere there is no limit.
    """
    fired = [False]
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if seconds is None or not usable:
        yield fired
        return

    def on_alarm(signum: int, frame: Any) -> None:
        fired[0] = True
        raise _TimeUp(f"stopped after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    earlier, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.monotonic()
    try:
        yield fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if earlier:  # someone else's alarm was running: give it back what is left of it
            signal.setitimer(signal.ITIMER_REAL, max(earlier - (time.monotonic() - start), 1e-3))


# --------------------------------------------------------------------------- loading files
def _module_of(path: Path, time_limit: float | None) -> types.ModuleType:
    """Run a league file as a fresh module (registered in ``sys.modules`` for pickling)."""
    source = path.read_text(encoding="utf-8")
    code = compile(source, str(path), "exec")
    digest = hashlib.sha1(f"{path.resolve()}\n{source}".encode()).hexdigest()[:12]
    stem = re.sub(r"\W", "_", path.stem)
    module = types.ModuleType(f"nothanks_league_{stem}_{digest}")
    module.__file__ = str(path)
    sys.modules[module.__name__] = module  # dataclasses and pickle look a class's module up
    try:
        with _time_limit(time_limit):
            exec(code, module.__dict__)
    except BaseException:
        del sys.modules[module.__name__]
        raise
    return module


def _load(path: Path, time_limit: float | None) -> StudentBot | Rejection:
    """The bot a league file defines, or why there is none."""
    name, file = path.stem, path.name
    try:
        module = _module_of(path, time_limit)
    except _TimeUp:
        return Rejection(
            name,
            file,
            "load",
            f"the file took more than {time_limit:g} s to load (an endless loop?)",
            "Running the file should only define the bot; play nothing when it loads.",
        )
    except (Exception, SystemExit) as e:
        return Rejection(
            name,
            file,
            "load",
            f"the file does not load: {_error_text(e)}{_line_in(e, path)}",
            "Run the file's code in a cell to see the error with its traceback.",
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
                f"Bot() raised {_error_text(e)}{_line_in(e, path)}",
                "The league builds the class Bot with no arguments: give every argument of "
                "__init__ a default.",
            )
        if not callable(getattr(bot, "act", None)):
            return Rejection(
                name,
                file,
                "find",
                "its class Bot has no method act",
                "Give Bot a method act(self, view) that returns Action.TAKE or Action.PASS.",
            )
        return StudentBot(name, bot, path)
    act = getattr(module, "act", None)
    if callable(act):
        return StudentBot(name, act, path)
    return Rejection(
        name,
        file,
        "find",
        "the file defines no bot",
        "Define a function act(view), or a class Bot with a method act(self, view); either "
        "returns Action.TAKE or Action.PASS.",
    )


# --------------------------------------------------------------------------- screening
def _builtin_policies(builtins: Sequence[Any]) -> list[Any]:
    if isinstance(builtins, str | bytes) or not isinstance(builtins, Sequence):
        raise ValueError(
            f"builtins must be a list of bots such as ['marginal', 'heuristic']; got {builtins!r}"
        )
    return [make_policy(b) for b in builtins]


def _seed_for(seed: int, name: str) -> np.random.SeedSequence:
    """The screening seed of one bot: fixed by the league's seed and the bot's name."""
    return np.random.SeedSequence([seed, zlib.crc32(name.encode()), 5])


def _fresh_seed(seed: object) -> int:
    """An explicit seed (fresh entropy for None), so every league can be rerun."""
    seed = check_seed(seed)
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
    if not isinstance(seed, int | np.integer) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0 or None; got {seed!r}")
    return int(seed)


def _no_chip_probes(rules: Rules, n_players: int) -> list[PlayerView]:
    """Positions with no chip left (taking is the only move), met late in a round if at all.

    The bot holds the lowest card and has spent its chips: they lie with the other seats (and
    on the card), so the chips add up as in a real round.
    """
    from .analysis import position_view

    start = rules.starting_chips(n_players)
    probes = []
    for card, pot in ((rules.high_card, 0), ((rules.low_card + rules.high_card + 1) // 2, 1)):
        spare = max(start - pot, 0)
        others = [
            start + spare // (n_players - 1) + (i < spare % (n_players - 1))
            for i in range(n_players - 1)
        ]
        try:
            probes.append(
                position_view(
                    card,
                    min(pot, start),
                    (rules.low_card,),
                    n_players=n_players,
                    my_chips=0,
                    other_chips=others,
                    rules=rules,
                )
            )
        except ValueError:  # a variant too small for this position: the rounds must do
            pass
    return probes


def screen_bot(
    bot: StudentBot,
    *,
    builtins: Sequence[Any] = DEFAULT_BUILTINS,
    n_players: int = 3,
    rounds: int = 3,
    seed: int | np.random.SeedSequence | None = None,
    rules: Rules | None = None,
    max_ms: float = MAX_MS_PER_DECISION,
    time_limit: float | None = TIME_LIMIT_S,
) -> Rejection | None:
    """Play `rounds` rounds of `bot` against the built-ins (a new seat each round); None if fine.

    Then the bot is shown two positions in which it has no chip left (it must take there).
    Returns a `Rejection` when the bot cannot be copied (a tournament plays copies), raises,
    answers anything but a legal move, takes longer than `max_ms` per decision on average, or
    longer than `time_limit` seconds in all.

    >>> screen_bot(StudentBot("always_pass", lambda view: Action.PASS), seed=1).problem
    'it said No Thanks! with no chips left (a player with no chips must take)'
    """
    if not isinstance(bot, StudentBot):
        raise ValueError(f"bot must be a StudentBot (see as_bot); got {bot!r}")
    rules = check_rules(rules)
    n_players = check_players(n_players, rules)
    rounds = check_int(rounds, "rounds", low=1)
    max_ms = check_number(max_ms, "max_ms", low=0)
    opponents = _builtin_policies(builtins)
    if not opponents:
        raise ValueError("builtins must name at least one bot to screen against")
    try:
        copy.deepcopy(bot)
    except Exception as e:
        return Rejection(
            bot.name,
            bot.file,
            "screen",
            f"it cannot be copied ({_error_text(e)}), and the league plays copies of each bot",
            "Keep only numbers, lists, dicts and the like in the bot's attributes.",
        )
    if not isinstance(seed, np.random.SeedSequence):
        seed = np.random.SeedSequence(_fresh_seed(seed))
    children = seed.spawn(rounds)
    bot.calls, bot.seconds = 0, 0.0
    fired = [False]
    try:
        with _time_limit(time_limit) as fired:
            for r, child in enumerate(children):
                others = [
                    copy.deepcopy(opponents[i % len(opponents)]) for i in range(n_players - 1)
                ]
                seat = r % n_players
                play_game([*others[:seat], bot, *others[seat:]], rules=rules, seed=child)
            for view in _no_chip_probes(rules, n_players):
                ask(bot, view, (Action.TAKE,))
    except PolicyError as e:
        if e.policy is not bot:
            raise  # a built-in bot failed: a bug of the package, not the student's
        return _rejection(bot, "screen", e)
    except _TimeUp:
        fired[0] = True
    except SystemExit as e:
        return Rejection(
            bot.name,
            bot.file,
            "screen",
            f"its act(view) called exit() ({_error_text(e)})",
            "A bot only answers: return Action.TAKE or Action.PASS.",
        )
    if fired[0]:
        return Rejection(
            bot.name,
            bot.file,
            "screen",
            f"its {rounds} screening rounds took more than {time_limit:g} s (an endless loop?)",
            "Make sure every loop in act ends, and keep each decision quick.",
        )
    ms = 1000 * bot.seconds / max(bot.calls, 1)
    if ms > max_ms:
        return Rejection(
            bot.name,
            bot.file,
            "screen",
            f"it is too slow for a league: {ms:.0f} ms per decision, where {max_ms:g} ms is "
            "allowed",
            "Do less work in each call of act.",
        )
    return None


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

    def __str__(self) -> str:
        lines = [f"{len(self.bots)} bots ready: {', '.join(self.names) or 'none'}"]
        if self.rejections:
            lines.append(f"{len(self.rejections)} left out:")
            lines += [f"  ✘ {r.message}" for r in self.rejections]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        ready = ", ".join(f"<b>{html.escape(n)}</b>" for n in self.names) or "none"
        items = "".join(
            f"<li style='margin:.3em 0'>{html.escape(r.message)}</li>" for r in self.rejections
        )
        out = f"<p>✔ {len(self.bots)} bots ready: {ready}</p>"
        if self.rejections:
            out += f"<p>✘ {len(self.rejections)} left out:</p><ul>{items}</ul>"
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
) -> LeagueEntries:
    """Load and screen every bot of a league folder (one ``*.py`` file per student).

    Each file is loaded (see the module's docstring for what it must define) and its bot is
    screened with `screen_bot` (`rounds` rounds against `builtins`, seeded by `seed` and the
    bot's name). Nothing a file does stops the others: each failure becomes a `Rejection`.
    """
    where = Path(folder).expanduser() if isinstance(folder, str | PathLike) else None
    if where is None or not where.is_dir():
        raise ValueError(f"folder must be an existing folder of bot files; got {folder!r}")
    if time_limit is not None:
        time_limit = check_number(time_limit, "time_limit", low=0.001)
    seed = _fresh_seed(seed)
    _builtin_policies(builtins)  # a bad built-in is the caller's error, raised before any file
    files = sorted(
        p for p in where.glob("*.py") if p.is_file() and not p.name.startswith(("_", "."))
    )
    bots: list[StudentBot] = []
    rejections: list[Rejection] = []
    for path in files:
        loaded = _load(path, time_limit)
        if isinstance(loaded, Rejection):
            rejections.append(loaded)
            continue
        problem = screen_bot(
            loaded,
            builtins=builtins,
            n_players=n_players,
            rounds=rounds,
            seed=_seed_for(seed, loaded.name),
            rules=rules,
            max_ms=max_ms,
            time_limit=time_limit,
        )
        if problem is None:
            bots.append(loaded)
        else:
            rejections.append(problem)
    return LeagueEntries(where, tuple(bots), tuple(rejections))


# --------------------------------------------------------------------------- saving
def _literal(value: Any) -> bool:
    """Whether ``repr(value)`` writes `value` back exactly (numbers, strings, and nests of them)."""
    try:
        return bool(ast.literal_eval(repr(value)) == value)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return False


def _importable(value: Any) -> tuple[str, str] | None:
    """(module, qualified name) a value can be imported from, if it lives in a real module."""
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or module == "__main__":
        return None
    mod = sys.modules.get(module)
    if mod is None or getattr(mod, "__file__", None) is None or "." in qualname:
        return None
    if module.startswith("nothanks_league_") or getattr(mod, qualname, None) is not value:
        return None
    return module, qualname


def _functions_of(obj: Any) -> list[types.FunctionType]:
    """The plain functions whose global names `obj` (a function or class) uses."""
    if isinstance(obj, types.FunctionType):
        return [obj]
    found = []
    for member in vars(obj).values():
        if isinstance(member, staticmethod | classmethod):
            member = member.__func__
        if isinstance(member, property):
            found += [f for f in (member.fget, member.fset) if isinstance(f, types.FunctionType)]
        if isinstance(member, types.FunctionType):
            found.append(member)
    return found


def _bot_source(bot: Any, name: str) -> str:
    """A module defining `bot` (a function or class of a notebook) with what it uses."""
    imports: dict[str, str] = {}
    constants: dict[str, str] = {}
    sources: list[str] = []
    seen: set[int] = set()

    def use(global_name: str, value: Any, owner: str) -> None:
        if isinstance(value, types.ModuleType):
            mod = value.__name__
            line = f"import {mod}" + (f" as {global_name}" if mod != global_name else "")
            imports[global_name] = line
        elif (where := _importable(value)) is not None:
            module, qualname = where
            alias = f" as {global_name}" if qualname != global_name else ""
            imports[global_name] = f"from {module} import {qualname}{alias}"
        elif isinstance(value, types.FunctionType | type) and value.__module__ == "__main__":
            if value.__name__ != global_name:
                raise ValueError(f"{owner} uses {global_name}, another name for {value.__name__}")
            add(value)
        elif _literal(value):
            constants[global_name] = f"{global_name} = {value!r}"
        else:
            raise ValueError(
                f"{owner} uses {global_name} (a {type(value).__name__}) from the notebook, "
                "which cannot be written to a file; define it inside the bot"
            )

    def add(obj: Any) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        owner = obj.__name__
        if owner == "<lambda>":
            raise ValueError("a bot to save must be defined with def or class, not lambda")
        try:
            source = textwrap.dedent(inspect.getsource(obj))
        except (OSError, TypeError) as e:
            raise ValueError(f"the source of {owner} cannot be found ({e})") from None
        if isinstance(obj, type):
            for base in obj.__bases__:
                if base is not object:
                    use(base.__name__, base, owner)
        for fn in _functions_of(obj):
            found = inspect.getclosurevars(fn)
            for global_name, value in {**found.nonlocals, **found.globals}.items():
                use(global_name, value, owner)
        sources.append(source)

    add(bot)
    main = bot.__name__
    alias = ""
    if isinstance(bot, type) and main != "Bot":
        alias = f"\n\nBot = {main}\n"
    elif not isinstance(bot, type) and main != "act":
        alias = f"\n\nact = {main}\n"
    parts = [f'"""{name}: a bot for the class league (saved from a notebook)."""']
    if imports:
        parts.append("\n".join(sorted(imports.values())))
    if constants:
        parts.append("\n".join(constants.values()))
    return "\n\n".join(parts) + "\n\n\n" + "\n\n".join(s.rstrip() + "\n" for s in sources) + alias


def save_bot(bot: Any, folder: str | PathLike[str], name: str) -> Path:
    """Write a bot defined in a notebook cell to ``folder/name.py``, as a league file.

    `bot` is a function ``act(view)`` or a class with ``act`` (or `as_bot`'s wrapper of one).
    What it uses from the notebook comes along: modules and library names become imports,
    numbers and strings become constants, other functions and classes of the notebook are
    copied in. Anything else is a `ValueError` naming it.
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(
            f"name must be letters, digits, '_' or '-', starting with a letter or digit "
            f"(it becomes the file name); got {name!r}"
        )
    if isinstance(bot, StudentBot):
        bot = bot.policy
    if not isinstance(bot, types.FunctionType | type):
        if not callable(getattr(bot, "act", None)):
            raise ValueError(
                f"bot must be a function act(view), a class or an object with act; got {bot!r}"
            )
        bot = type(bot)  # an object: save its class
    where = Path(folder).expanduser()
    if not where.is_dir():
        raise ValueError(f"folder must be an existing folder; got {str(folder)!r}")
    path = where / f"{name}.py"
    path.write_text(_bot_source(bot, name), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the league
@dataclass(frozen=True, eq=False)
class LeagueResult:
    """A league's leaderboard (win share and mean score with intervals), ratings and rejections."""

    tournament: TournamentResult
    """The tournament played: every number, paired comparisons, games one by one."""
    students: tuple[str, ...]
    """Names of the student bots that played (the first bots of the tournament's field)."""
    builtins: tuple[str, ...]
    """Names of the built-in bots."""
    rejections: tuple[Rejection, ...]
    """Bots left out, at loading, screening or during the league."""
    seconds: float
    """Wall-clock time of the tournament (screening not included)."""

    @property
    def win_share(self) -> np.ndarray:
        """float[bots]: win share per game, in the tournament's field order."""
        return self.tournament.win_share

    @property
    def win_share_ci(self) -> np.ndarray:
        """float[bots, 2]: the interval of `win_share`."""
        return self.tournament.win_share_ci

    def __repr__(self) -> str:
        t = self.tournament
        return (
            f"LeagueResult({len(self.students)} student bots, {len(self.builtins)} built-ins, "
            f"{t.n_players} players, {t.n_deals} deals, seed={t.seed}, "
            f"{len(self.rejections)} left out)"
        )

    def leaderboard(self) -> list[dict[str, Any]]:
        """One row per bot, best first: the tournament's records plus ``student`` (True/False)."""
        students = set(self.students)
        return [{**r, "student": r["bot"] in students} for r in self.tournament.to_records()]

    def ratings(self, **options: Any) -> Ratings:
        """Bradley–Terry ratings of the field (`TournamentResult.ratings`)."""
        return self.tournament.ratings(**options)

    def figure(self, metric: str = "win_share") -> go.Figure:
        """The leaderboard as bars with 95% intervals, student bots in orange, best first."""
        from .plots import plot_win_shares

        rows = self.leaderboard()
        fig = plot_win_shares(rows, metric=metric)
        fig.data[0].marker.color = [STUDENT_COLOR if r["student"] else BUILTIN_COLOR for r in rows]
        t = self.tournament
        fig.update_layout(
            title_text=f"Class league: {fig.layout.title.text}<br><sup>{t.n_deals:,} deals, "
            "each in every order of the seats; students orange, built-in bots blue</sup>"
        )
        return fig

    def __str__(self) -> str:
        out = str(self.tournament)
        if self.rejections:
            out += "\nLeft out:\n" + "\n".join(f"  ✘ {r.message}" for r in self.rejections)
        return out

    def _repr_html_(self) -> str:
        out = self.tournament._repr_html_()
        if self.rejections:
            items = "".join(f"<li>{html.escape(r.message)}</li>" for r in self.rejections)
            out += f"<p><b>Left out</b></p><ul>{items}</ul>"
        return out


def _league_lineups(
    n_students: int, n_builtins: int, n_players: int, lineups: str
) -> list[tuple[int, ...]] | None:
    """Field indices per lineup: students first, then the built-ins."""
    if lineups == "round robin":
        return None
    if lineups != "gauntlet":
        raise ValueError(f"lineups must be 'gauntlet' or 'round robin'; got {lineups!r}")
    if n_builtins < n_players - 1:
        raise ValueError(
            f"lineups='gauntlet' seats each student bot with {n_players - 1} built-in bots; "
            f"give at least {n_players - 1} builtins (got {n_builtins}), or lineups='round robin'"
        )
    combos = list(itertools.combinations(range(n_students, n_students + n_builtins), n_players - 1))
    return [(s, *c) for s in range(n_students) for c in combos]


def _entries(
    folder_or_bots: Any, screen: Mapping[str, Any], time_limit: float | None
) -> tuple[list[StudentBot], list[Rejection]]:
    """The student bots to play and the rejections so far, from whatever the caller gave."""
    if isinstance(folder_or_bots, LeagueEntries):
        return list(folder_or_bots.bots), list(folder_or_bots.rejections)
    if isinstance(folder_or_bots, str | PathLike):
        found = collect_bots(folder_or_bots, time_limit=time_limit, **screen)
        return list(found.bots), list(found.rejections)
    if isinstance(folder_or_bots, Mapping):
        given = [as_bot(bot, str(name)) for name, bot in folder_or_bots.items()]
    elif isinstance(folder_or_bots, Sequence) and not isinstance(folder_or_bots, bytes):
        given = [as_bot(bot) for bot in folder_or_bots]
    else:
        raise ValueError(
            "folder_or_bots must be a folder, collect_bots' result, a list of bots or a dict "
            f"of name -> bot; got {folder_or_bots!r}"
        )
    bots: list[StudentBot] = []
    rejections: list[Rejection] = []
    for bot in given:
        seed = _seed_for(screen["seed"], bot.name)
        problem = screen_bot(bot, **{**screen, "seed": seed}, time_limit=time_limit)
        if problem is None:
            bots.append(bot)
        else:
            rejections.append(problem)
    return bots, rejections


def run_league(
    folder_or_bots: Any,
    builtins: Sequence[Any] = DEFAULT_BUILTINS,
    n_players: int = 3,
    n_games: int = DEFAULT_DEALS,
    *,
    seed: int | None = None,
    rules: Rules | None = None,
    lineups: str = "gauntlet",
    progress: bool = True,
    workers: int | None = None,
    chunk_size: int | None = None,
    confidence: float = 0.95,
    screen_rounds: int = 3,
    max_ms: float = MAX_MS_PER_DECISION,
    time_limit: float | None = TIME_LIMIT_S,
) -> LeagueResult:
    """Play the student bots and the built-ins in a fair tournament; the leaderboard.

    Args:
        folder_or_bots: a league folder (collected and screened with `collect_bots`), the
            result of `collect_bots`, or bots given directly (a list, or a dict of name ->
            bot; each is screened first).
        builtins: the built-in bots (registered names, specs or policies).
        n_players: seats at a table.
        n_games: deals; each is played in every order of the seats of every lineup.
        seed: seed of the deals and of the screening (None: fresh entropy; the result's
            ``tournament.seed`` reruns it).
        rules: the rule set (default: the standard game).
        lineups: ``"gauntlet"`` (default): each student bot at a table with ``n_players - 1``
            built-ins, every combination of them, so every student meets the same opponents on
            the same deals. ``"round robin"``: every combination of ``n_players`` bots of the
            whole field (students meet each other too; far more games).
        progress: show a progress bar while the tournament runs.
        workers: local worker processes (default 1).
        chunk_size: deals per unit of work (default: a tenth of `n_games`, so the bar moves).
        confidence: level of the intervals.
        screen_rounds, max_ms, time_limit: the screening of bots given directly or by folder
            (see `screen_bot`).

    A student bot that fails during the tournament is left out (a `Rejection` at stage
    ``"league"``) and the tournament is played again without it, on the same deals.
    """
    rules = check_rules(rules)
    n_players = check_players(n_players, rules)
    n_games = check_int(n_games, "n_games", low=1)
    seed = _fresh_seed(seed)
    if not isinstance(lineups, str):
        raise ValueError(f"lineups must be 'gauntlet' or 'round robin'; got {lineups!r}")
    builtin_policies = _builtin_policies(builtins)
    _league_lineups(1, len(builtin_policies), n_players, lineups)  # refuse a bad setup early
    if chunk_size is None:
        chunk_size = max(1, -(-n_games // 10))
    screen = {
        "builtins": builtins,
        "n_players": n_players,
        "rounds": screen_rounds,
        "seed": seed,
        "rules": rules,
        "max_ms": max_ms,
    }
    students, rejections = _entries(folder_or_bots, screen, time_limit)
    while True:
        if not students:
            left_out = "\n".join(f"  ✘ {r.message}" for r in rejections) or "  (no bot files)"
            raise ValueError(f"no student bot is left to play the league:\n{left_out}")
        field = [*students, *builtin_policies]
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SlowPathWarning)  # slow is expected here
                result = tournament(
                    field,
                    n_players,
                    n_games,
                    seed=seed,
                    rules=rules,
                    lineups=_league_lineups(
                        len(students), len(builtin_policies), n_players, lineups
                    ),
                    progress=progress,
                    workers=workers,
                    chunk_size=chunk_size,
                    confidence=confidence,
                )
        except PolicyError as e:
            failed = policy_name(e.policy)
            index = next((i for i, b in enumerate(students) if b.name == failed), None)
            if index is None or not isinstance(e.policy, StudentBot):
                raise
            rejections.append(_rejection(e.policy, "league", e))
            students.pop(index)
            if progress:
                print(f"{failed} failed during the league and is left out; playing again")
            continue
        seconds = time.perf_counter() - start
        names = result.names
        return LeagueResult(
            result,
            names[: len(students)],
            names[len(students) :],
            tuple(rejections),
            seconds,
        )
