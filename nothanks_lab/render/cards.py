"""The round on the table as HTML: cards, hands in runs, the seats, the active card, scores.

Pure functions of a `Game`, `PlayerView` or match result, used by the objects' ``_repr_html_``
and by the play table and advisor widgets, so a round looks the same wherever it is shown.
Self-contained markup (no CDN, no scripts). The row colours and cell styles here are shared by
the panels and the review.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from ..i18n import _, ngettext
from ..rules import card_points, runs
from .figures import OKABE_ITO

if TYPE_CHECKING:
    from ..engine import Event, Game
    from ..play import MatchResult
    from ..view import PlayerView


#: Explicit text and background colours (issue 25, item 1): every element that sets a
#: background also sets its text colour, so no pair depends on the JupyterLab theme.
INK = "#1a1a1a"
PAPER = "#ffffff"
MUTED = "#595959"

#: Fill and text colour for each ipywidgets ``button_style`` the widgets use (issue 25,
#: item 1). JupyterLab's own fills put white text on orange (about 2.9:1) or green; these
#: Okabe-Ito fills with dark or white text are at least 4.5:1 on any theme.
BUTTON_COLORS = {
    "warning": (OKABE_ITO["orange"], INK),
    "success": (OKABE_ITO["bluish_green"], INK),
    "info": (OKABE_ITO["sky_blue"], INK),
    "primary": (OKABE_ITO["blue"], PAPER),
    "danger": (OKABE_ITO["vermillion"], OKABE_ITO["black"]),
}

#: The button style of a card's status in the probability explorer's grid; its chart draws
#: the same status in the same fill (`plots.STATUS_COLORS`), one colour per meaning.
CARD_STATUS_KIND = {"mine": "success", "seen": "warning"}

#: A wrapper that lets a wide table scroll sideways inside its box instead of overflowing it.
SCROLL_X = "max-width:100%;overflow-x:auto"

_CARD = (
    "display:inline-block;min-width:2.1em;padding:.25em .35em;margin:1px;border:1px solid #555;"
    "border-radius:.3em;background:#fffdf5;text-align:center;font-weight:600;"
    f"color:{INK};"
)
_RUN = "display:inline-block;margin-right:.6em;padding:1px;border-radius:.35em;background:#dde8f5;"
_RUN += f"color:{INK};"


def card_html(card: int, big: bool = False) -> str:
    """One card; `big` for the active card."""
    size = "font-size:2.2em;padding:.4em .5em;background:#ffe9a8;" if big else ""
    return f'<span style="{_CARD}{size}">{card}</span>'


def hand_html(cards: Sequence[int]) -> str:
    """A hand grouped into runs (each run scores its lowest card)."""
    if not cards:
        none = _("no cards")
        return f'<span style="color:{MUTED}">{none}</span>'
    title = _("run scores {card}")
    return "".join(
        f'<span style="{_RUN}" title="{title.format(card=r[0])}">'
        + "".join(card_html(c) for c in r)
        + "</span>"
        for r in runs(cards)
    )


def _table(
    hands: Sequence[Sequence[int]],
    chips: Sequence[str],
    names: Sequence[str],
    to_act: int | None,
    scores: Sequence[str] | None = None,
) -> str:
    c = _columns()
    head = (
        f"<tr><th>{c['seat']}</th><th>{c['cards']}</th><th>{c['points']}</th><th>{c['chips']}</th>"
    )
    head += f"<th>{c['score']}</th></tr>" if scores is not None else "</tr>"
    rows = []
    for i, (hand, chip) in enumerate(zip(hands, chips, strict=True)):
        mark = " ▶" if i == to_act else ""
        row = (
            f"<tr><td><b>{escape(names[i])}</b>{mark}</td><td>{hand_html(hand)}</td>"
            f"<td style='text-align:right'>{card_points(hand)}</td>"
            f"<td style='text-align:right'>{escape(chip)}</td>"
        )
        if scores is not None:
            row += f"<td style='text-align:right'><b>{escape(scores[i])}</b></td>"
        rows.append(row + "</tr>")
    return f"<table style='background:{PAPER};color:{INK}'>{head}{''.join(rows)}</table>"


def _header(active_card: int | None, pot: int, cards_left: int) -> str:
    if active_card is None:
        over = _("Round over")
        return f"<div style='background:{PAPER};color:{INK}'><b>{over}</b></div>"
    return (
        f"<div style='margin:.3em 0;background:{PAPER};color:{INK}'>"
        f"{card_html(active_card, big=True)}"
        f"<span style='font-size:1.4em;margin-left:.6em'>{_pot_words(pot)}</span>"
        f"<span style='margin-left:1em;color:#555'>{_face_down(cards_left)}</span></div>"
    )


def _columns() -> dict[str, str]:
    """The tables' column headings (and a heading or two) in the language in use."""
    return {
        "seat": _("seat"),
        "cards": _("cards (runs)"),
        "points": _("card points"),
        "chips": _("chips"),
        "score": _("score"),
        "last": _("last move"),
        "total": _("total"),
        "round": _("round"),
        "final": _("Final scores"),
    }


def _pot_words(pot: int) -> str:
    return ngettext("pot: <b>{n}</b> chip", "pot: <b>{n}</b> chips", pot).format(n=pot)


def _face_down(cards_left: int) -> str:
    return ngettext("{n} card face down", "{n} cards face down", cards_left).format(n=cards_left)


def view_html(
    view: PlayerView, names: Sequence[str] | None = None, hide_chips: bool = False
) -> str:
    """The table as `view.seat` sees it; `hide_chips` shows opponents' chips as "?"."""
    names = names or [
        _("Seat {i} (you)").format(i=i) if i == view.seat else _("Seat {i}").format(i=i)
        for i in range(view.n_players)
    ]
    chips = [
        str(c) if (i == view.seat or not hide_chips) else "?" for i, c in enumerate(view.chips)
    ]
    return _header(view.active_card, view.pot, view.cards_left) + _table(
        view.hands, chips, names, view.current_player
    )


def game_html(game: Game, names: Sequence[str] | None = None) -> str:
    """The whole table (the omniscient view: every count, no hidden card shown)."""
    names = names or [_("Seat {i}").format(i=i) for i in range(game.n_players)]
    over = game.is_over
    body = _header(game.active_card, game.pot, game.cards_left) + _table(
        game.hands,
        [str(c) for c in game.chips],
        names,
        None if over else game.current_player,
        [str(s) for s in game.scores()],
    )
    if over:
        winners = ", ".join(names[i] for i in game.winners())
        removed = " ".join(map(str, game.removed_cards()))
        body += "<div>" + _("Winner(s): <b>{winners}</b>. Removed cards: {removed}").format(
            winners=escape(winners), removed=removed
        )
        body += "</div>"
    return body


def match_html(match: MatchResult, names: Sequence[str] | None = None) -> str:
    """Cumulative scores of a match, a row per round."""
    n = match.round_scores.shape[1]
    names = names or [_("Seat {i}").format(i=i) for i in range(n)]
    c = _columns()
    th = "padding:.25em .8em;text-align:right;border-bottom:1px solid #999;"
    td = "padding:.25em .8em;text-align:right;"
    head = (
        f"<tr><th style='{th}text-align:left'>{c['round']}</th>"
        + "".join(f"<th style='{th}'>{escape(x)}</th>" for x in names)
        + "</tr>"
    )
    rows = "".join(
        f"<tr><td style='{td}text-align:left'>{r + 1}</td>"
        + "".join(f"<td style='{td}'>{v}</td>" for v in row)
        + "</tr>"
        for r, row in enumerate(match.round_scores.tolist())
    )
    top = "border-top:1px solid #999;"
    total = (
        f"<tr><td style='{td}{top}text-align:left'><b>{c['total']}</b></td>"
        + "".join(f"<td style='{td}{top}'><b>{v}</b></td>" for v in match.totals.tolist())
        + "</tr>"
    )
    return (
        "<table class='nothanks-match' style='border-collapse:collapse'>"
        f"{head}{rows}{total}</table>"
    )


def match_progress_html(match: MatchResult, names: Sequence[str], played: int, rounds: int) -> str:
    """A match after `played` of its `rounds` rounds: a heading, the scores, then the winners."""
    heading = _("Match: {played} of {rounds} rounds").format(played=played, rounds=rounds)
    html = f"<h4 style='margin:.5em 0 .2em'>{heading}</h4>" + match_html(match, names)
    if played >= rounds:
        who = ", ".join(names[i] for i in match.winners)
        text = ngettext("Match winner: {who}", "Match winners: {who}", len(match.winners))
        html += f"<div><b>{text.format(who=escape(who))}</b></div>"
    return html


#: Row colour of the seat to act, and of the person's row when it is their turn.
TO_ACT_BG = "#fff1b8"
YOUR_TURN_BG = "#ffe08a"
_CELL = "padding:.25em .7em;"
_NUM = f"{_CELL}text-align:right;"


def _how_computed_html(body: str) -> str:
    """`body` (HTML) in small print behind a "How is this computed?" toggle."""
    # The message outside the f-string, where the gettext extractor finds it.
    summary = _("How is this computed?")
    return f"<details><summary>{summary}</summary><small>{body}</small></details>"


def move_words(event: Event | None) -> str:
    """A seat's last move in a few words (empty before its first move).

    >>> from nothanks_lab.engine import Action, Event
    >>> move_words(Event(1, Action.TAKE, 27, 3)), move_words(Event(1, Action.PASS, 27, 3))
    ('took 27 (+3 chips)', 'No thanks! on 27')
    """
    from ..engine import Action

    if event is None:
        return ""
    if event.action is Action.TAKE:
        if not event.pot:
            return _("took {card}").format(card=event.card)
        return ngettext("took {card} (+{n} chip)", "took {card} (+{n} chips)", event.pot).format(
            card=event.card, n=event.pot
        )
    return _("No thanks! on {card}").format(card=event.card)


def seats_html(
    view: PlayerView,
    names: Sequence[str],
    hide_chips: bool = False,
    notes: Sequence[str] | None = None,
    last_moves: Sequence[Event | None] | None = None,
    to_act: int | None = -1,
) -> str:
    """Every seat's runs, card points, chips, score and last move as `view.seat` sees them.

    The seat to act (`to_act`; by default the view's current player while the round runs,
    None for nobody) has its row highlighted and marked ▶. With `hide_chips`, opponents' chips
    (and so their scores) show as "?"; own counts never hide.
    """
    if to_act == -1:
        to_act = None if view.active_card is None else view.current_player
    points = [view.card_points(i) for i in range(view.n_players)]
    scores = view.scores()
    c = _columns()
    head = (
        f"<tr><th style='{_CELL}text-align:left'>{c['seat']}</th>"
        f"<th style='{_CELL}text-align:left'>{c['cards']}</th>"
        f"<th style='{_CELL}'>{c['points']}</th>"
        f"<th style='{_CELL}'>{c['chips']}</th><th style='{_CELL}'>{c['score']}</th>"
        f"<th style='{_CELL}text-align:left'>{c['last']}</th></tr>"
    )
    rows = []
    for i in range(view.n_players):
        hidden = hide_chips and i != view.seat
        chips = "?" if hidden else str(view.chips[i])
        score = "?" if hidden else str(scores[i])
        acting = i == to_act
        note = (
            f"<br><small style='color:#666'>{escape(notes[i])}</small>"
            if notes and notes[i]
            else ""
        )
        if acting:
            bg = YOUR_TURN_BG if i == view.seat else TO_ACT_BG
            style = (
                f" class='nothanks-to-act' style='background:{bg};color:{INK};"
                "outline:2px solid #d9a400'"
            )
            mark = " ▶"
        else:
            style, mark = "", ""
        last = move_words(last_moves[i]) if last_moves else ""
        rows.append(
            f"<tr{style} data-seat='{i}'><td style='{_CELL}'><b>{escape(names[i])}</b>{mark}"
            f"{note}</td><td style='{_CELL}'>{hand_html(view.hands[i])}</td>"
            f"<td style='{_NUM}'>{points[i]}</td><td style='{_NUM}'>{chips}</td>"
            f"<td style='{_NUM}'><b>{score}</b></td>"
            f"<td class='nothanks-last' style='{_CELL}color:#444'>{escape(last)}</td></tr>"
        )
    table = f"border-collapse:collapse;background:{PAPER};color:{INK}"
    # A narrow page (a phone, 390 px) scrolls the seat table sideways instead of clipping it,
    # and below about 500 px of box the rows turn compact (_SEATS_CSS).
    body = f"<table class='nothanks-seats' style='{table}'>{head}{''.join(rows)}</table>"
    return f"{_SEATS_CSS}<div class='nothanks-seats-box' style='{SCROLL_X}'>{body}</div>"


#: Compact seat rows in a box narrower than about 500 px (issue 25, item 5): seat names stay
#: on one line (cut with an ellipsis if they must), cells and type get smaller. A container
#: query, so a narrow notebook column (JupyterLab with its file browser open) counts too, and
#: the same rules by a media query, for a page (a phone) whose DOM gives the box no width of
#: its own to query.
_COMPACT_SEATS = (
    "{.nothanks-seats{font-size:.82em}"
    ".nothanks-seats td,.nothanks-seats th{padding:.15em .3em !important}"
    ".nothanks-seats td:nth-child(2){min-width:9.5em}"
    ".nothanks-seats td:first-child b{display:inline-block;max-width:8.5em;overflow:hidden;"
    "text-overflow:ellipsis;vertical-align:bottom}}"
)
_SEATS_CSS = (
    "<style>.nothanks-seats-box{container-type:inline-size}"
    ".nothanks-seats td:first-child b{white-space:nowrap}"
    f"@container (max-width:500px){_COMPACT_SEATS}@media (max-width:540px){_COMPACT_SEATS}"
    "</style>"
)


def active_html(view: PlayerView) -> str:
    """The active card and the chips on it, large."""
    if view.active_card is None:
        over = _("Round over")
        return (
            f"<div style='font-size:1.4em;margin:.3em 0;background:{PAPER};color:{INK}'>"
            f"<b>{over}</b></div>"
        )
    return (
        f"<div style='margin:.4em 0;background:{PAPER};color:{INK}'>"
        f"{card_html(view.active_card, big=True)}"
        f"<span style='font-size:1.6em;margin-left:.6em'>{_pot_words(view.pot)}</span>"
        f"<span style='margin-left:1em;color:#555'>{_face_down(view.cards_left)}</span>"
        "</div>"
    )


def final_scores_html(game: Game, names: Sequence[str]) -> str:
    """ "Final scores": card points, chips and total per seat, the winners, the removed cards."""
    points, chips, scores = game.card_points(), game.chips, game.scores()
    winners = game.winners()
    rows = "".join(
        f"<tr><td style='{_CELL}'><b>{escape(names[i])}</b>{' ★' if i in winners else ''}</td>"
        f"<td style='{_NUM}'>{points[i]}</td>"
        f"<td style='{_NUM}'>{chips[i]}</td>"
        f"<td style='{_NUM}'><b>{scores[i]}</b></td></tr>"
        for i in range(game.n_players)
    )
    removed = " ".join(card_html(x) for x in game.removed_cards())
    c = _columns()
    who = escape(", ".join(names[i] for i in winners))
    revealed = _("Removed cards, now revealed: {cards}").format(cards=removed)
    won = ngettext(
        "Winner: <b>{who}</b> (lowest score wins)",
        "Winners: <b>{who}</b> (lowest score wins)",
        len(winners),
    ).format(who=who)
    return (
        f"<h3 style='margin:.4em 0'>{c['final']}</h3>"
        "<table style='border-collapse:collapse'>"
        f"<tr><th style='{_CELL}text-align:left'>{c['seat']}</th>"
        f"<th style='{_CELL}'>{c['points']}</th><th style='{_CELL}'>{c['chips']}</th>"
        f"<th style='{_CELL}'>{c['total']}</th></tr>{rows}</table>"
        f"<div>{won}</div>"
        f"<div style='margin-top:.3em'>"
        f"{revealed}</div>"
    )
