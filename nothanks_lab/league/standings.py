"""A league's standings: the leaderboard, its ratings and figure, and the bots left out.

:class:`LeagueResult` wraps the tournament the league played (every number, paired comparisons,
games one by one) with the names of the student and built-in bots and the rejections. Its
leaderboard is the tournament's records marked ``student`` or not; it prints and draws itself
as the tournament's table followed by the bots left out, and :meth:`LeagueResult.figure` draws
the win shares with students in orange.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..i18n import _, fmt_int, ngettext
from ..render.tables import html_table, text_table
from ..tournaments import TournamentResult
from .student import Rejection, _left_out_html, _left_out_lines

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from ..tournaments import Ratings

__all__ = ["BUILTIN_COLOR", "STUDENT_COLOR", "LeagueResult"]

#: Bar colours of the leaderboard: student bots, built-in bots.
STUDENT_COLOR, BUILTIN_COLOR = "#E69F00", "#0072B2"  # Okabe-Ito orange and blue


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
        from ..plots import plot_win_shares

        rows = self.leaderboard()
        fig = plot_win_shares(rows, metric=metric)
        fig.data[0].marker.color = [STUDENT_COLOR if r["student"] else BUILTIN_COLOR for r in rows]
        t = self.tournament
        sub = ngettext(
            "{n} deal, each in every order of the seats; students orange, built-in bots blue",
            "{n} deals, each in every order of the seats; students orange, built-in bots blue",
            t.n_deals,
        ).format(n=fmt_int(t.n_deals))
        head = _("Class league: {title}").format(title=fig.layout.title.text)
        fig.update_layout(title_text=f"{head}<br><sup>{sub}</sup>")
        return fig

    def _rows(self) -> tuple[list[str], list[list[str]]]:
        """The tournament's table with a column saying who each bot is: a student's file (or
        notebook bot) or a built-in. A name alone cannot say it: a file may be named like a
        built-in with a look-alike letter (a Cyrillic "о" in ``HeuristicBоt``)."""
        head, rows = self.tournament.table_rows()
        kinds = [_("student") if r["student"] else _("built-in") for r in self.leaderboard()]
        return (
            [head[0], _("who"), *head[1:]],
            [[row[0], kind, *row[1:]] for row, kind in zip(rows, kinds, strict=True)],
        )

    def __str__(self) -> str:
        head, rows = self._rows()
        t = self.tournament
        out = t.table_title() + "\n" + text_table(head, rows, right={0, 3, 4, 6})
        if self.rejections:
            out += "\n" + _("Left out:") + "\n" + _left_out_lines(self.rejections)
        return out

    def _repr_html_(self) -> str:
        head, rows = self._rows()
        t = self.tournament
        out = html_table(head, rows, caption=t.table_title(), css_class="nothanks-tournament")
        if self.rejections:
            heading = html.escape(_("Left out"))
            out += f"<p><b>{heading}</b></p>{_left_out_html(self.rejections)}"
        return out
