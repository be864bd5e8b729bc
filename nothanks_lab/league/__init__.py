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
