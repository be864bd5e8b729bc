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

What isolation protects, and what it does not. By default each league file is loaded and
plays in a fresh Python process of its own (:mod:`~nothanks_lab.tournaments.sandbox`), which is sent
only the public facts of each decision: the game, the decks and the other bots never exist
there, so walking frames, searching ``gc``, monkeypatching classes or forging state reaches
nothing; its exceptions (any ``BaseException``) and signal handlers stay in it; it has a CPU
and a memory limit and a wall-clock deadline per load and per decision, and is killed on a
miss; the teacher's Ctrl-C ends every bot process. Isolation does not stop a student's file
from reading or writing any file the teacher's account can, from using the network, or from
starting processes of its own: run a league as an unprivileged user with no access to
anything private. ``isolate=False`` plays trusted files in this process.

The package by concept: :mod:`~nothanks_lab.league.student` (a student's bot and the
`Rejection` that explains a failure), :mod:`~nothanks_lab.league.limits` (time limits on a
student's code), :mod:`~nothanks_lab.league.screening` (the rounds a bot must pass),
:mod:`~nothanks_lab.league.loading` (a league folder's files), :mod:`~nothanks_lab.league.saving`
(a notebook's bot to a file), :mod:`~nothanks_lab.league.running` (the league's tournament) and
:mod:`~nothanks_lab.league.standings` (its leaderboard).
"""

from __future__ import annotations

from .loading import LeagueEntries, collect_bots
from .running import DEFAULT_DEALS, run_league
from .saving import save_bot
from .screening import DEFAULT_BUILTINS, screen_bot
from .screening import MAX_MS_PER_DECISION as MAX_MS_PER_DECISION
from .screening import TIME_LIMIT_S as TIME_LIMIT_S
from .standings import BUILTIN_COLOR as BUILTIN_COLOR
from .standings import STUDENT_COLOR as STUDENT_COLOR
from .standings import LeagueResult
from .student import Rejection, StudentBot, as_bot, describe_position
from .student import Stage as Stage

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
