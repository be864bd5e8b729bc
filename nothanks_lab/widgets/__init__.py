"""Notebook widgets: play a round against bots (`PlayTable`) and explore chances and bots.

Each UI is a plain class that owns its ipywidgets, wires them with ``observe(...,
names="value")`` and ``on_click``, and shows itself through its root box
(``_repr_mimebundle_``). The widgets hold no rules and no markup: the play table draws a
`nothanks_lab.table.TableSession` (deals, seeding, turns, bot moves, rounds) and forwards clicks
to it; every piece of HTML comes from :mod:`nothanks_lab.render`. A bad input shows as one
short line in plain words (`ErrorLine`), cleared by the next valid input; the traceback goes to
the ``nothanks_lab.widgets`` logger (JupyterLab's log console) and `ErrorLine.tracebacks`.

Figures are redrawn as plain HTML (``render.figure_div``) into an ``Output`` after plotly.js
is loaded once, offline, from the installed plotly package: ``FigureWidget`` and plotly's
mimetype renderer fall out of step in Voilà and after a JupyterLab reload.

Bots move one at a time after a short delay scheduled on the kernel's asyncio loop (a
``threading.Timer`` outside a kernel); ``bot_delay=0`` moves them at once and
``bot_delay=None`` waits for explicit `PlayTable.advance` calls, so tests never sleep.

One module per concept, every public name re-exported here: `common` (error line, seeds, plotly.js
loader, figure area, bot pickers), `replay` (`ReplayPanel`), `play_table` (`PlayTable`, hints)
with its parts `setup` (the setup panel) and `round_files` (review, replay, save and load),
`explorers` (`ProbabilityExplorer`, `ChipValueExplorer`), `bot_lab` (`BotLab`) and `advisor`
(the `Advisor` widget; its model is `nothanks_lab.advisor`). Every submodule logs to the
``nothanks_lab.widgets`` logger. Public names outside ``__all__`` are re-exported as
``X as X``; a private helper is imported from the module that defines it, never from here.
"""

from __future__ import annotations

from ..render import final_scores_html, hints_html, neighbour_cards, seats_html
from ..render.figures import gap_chances_figure as gap_chances_figure
from .advisor import Advisor
from .bot_lab import DECISIONS_PER_ROUND as DECISIONS_PER_ROUND
from .bot_lab import LONG_RUN_S as LONG_RUN_S
from .bot_lab import BotLab
from .bot_lab import Cancelled as Cancelled
from .bot_lab import seconds_per_decision as seconds_per_decision
from .common import MAX_BOT_DELAY_S as MAX_BOT_DELAY_S
from .common import STUDENT_PARAMS as STUDENT_PARAMS
from .common import BotPicker, ErrorLine, FigureArea
from .common import F as F
from .common import bot_label as bot_label
from .common import default_bot_name as default_bot_name
from .common import log as log
from .common import param_widget as param_widget
from .common import plain_message as plain_message
from .common import plotly_loader as plotly_loader
from .explorers import MAX_EXPLORER_POT as MAX_EXPLORER_POT
from .explorers import ChipValueExplorer, ProbabilityExplorer
from .play_table import PlayTable, evaluation_html
from .replay import ReplayPanel

__all__ = [
    "Advisor",
    "BotLab",
    "BotPicker",
    "ChipValueExplorer",
    "ErrorLine",
    "FigureArea",
    "PlayTable",
    "ProbabilityExplorer",
    "ReplayPanel",
    "evaluation_html",
    "final_scores_html",
    "hints_html",
    "neighbour_cards",
    "seats_html",
]
