"""HTML for notebooks: pure functions of a `Game`, `PlayerView` or match result.

Used by the objects' ``_repr_html_`` and by the play table widget, so a round looks the same
wherever it is shown. Self-contained markup (no CDN, no scripts).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from .rules import card_points, runs

if TYPE_CHECKING:
    from .engine import Game
    from .play import MatchResult
    from .view import PlayerView

__all__ = ["card_html", "game_html", "hand_html", "match_html", "view_html"]

_CARD = (
    "display:inline-block;min-width:2.1em;padding:.25em .35em;margin:1px;border:1px solid #555;"
    "border-radius:.3em;background:#fffdf5;text-align:center;font-weight:600;"
)
_RUN = "display:inline-block;margin-right:.6em;padding:1px;border-radius:.35em;background:#dde8f5;"


def card_html(card: int, big: bool = False) -> str:
    """One card; `big` for the active card."""
    size = "font-size:2.2em;padding:.4em .5em;background:#ffe9a8;" if big else ""
    return f'<span style="{_CARD}{size}">{card}</span>'


def hand_html(cards: Sequence[int]) -> str:
    """A hand grouped into runs (each run scores its lowest card)."""
    if not cards:
        return '<span style="color:#888">no cards</span>'
    return "".join(
        f'<span style="{_RUN}" title="run scores {r[0]}">'
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
    head = "<tr><th>seat</th><th>cards (runs)</th><th>card points</th><th>chips</th>"
    head += "<th>score</th></tr>" if scores is not None else "</tr>"
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
    return f"<table>{head}{''.join(rows)}</table>"


def _header(active_card: int | None, pot: int, cards_left: int) -> str:
    if active_card is None:
        return "<div><b>Round over</b></div>"
    return (
        f"<div style='margin:.3em 0'>{card_html(active_card, big=True)}"
        f"<span style='font-size:1.4em;margin-left:.6em'>pot: <b>{pot}</b> "
        f"chip{'s' * (pot != 1)}</span>"
        f"<span style='margin-left:1em;color:#555'>{cards_left} cards face down</span></div>"
    )


def view_html(
    view: PlayerView, names: Sequence[str] | None = None, hide_chips: bool = False
) -> str:
    """The table as `view.seat` sees it; `hide_chips` shows opponents' chips as "?"."""
    names = names or [
        f"Seat {i}" + (" (you)" if i == view.seat else "") for i in range(view.n_players)
    ]
    chips = [
        str(c) if (i == view.seat or not hide_chips) else "?" for i, c in enumerate(view.chips)
    ]
    return _header(view.active_card, view.pot, view.cards_left) + _table(
        view.hands, chips, names, view.current_player
    )


def game_html(game: Game, names: Sequence[str] | None = None) -> str:
    """The whole table (the omniscient view: every count, no hidden card shown)."""
    names = names or [f"Seat {i}" for i in range(game.n_players)]
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
        body += f"<div>Winner(s): <b>{escape(winners)}</b>. Removed cards: {removed}</div>"
    return body


def match_html(match: MatchResult, names: Sequence[str] | None = None) -> str:
    """Cumulative scores of a match, a row per round."""
    n = match.round_scores.shape[1]
    names = names or [f"Seat {i}" for i in range(n)]
    head = "<tr><th>round</th>" + "".join(f"<th>{escape(x)}</th>" for x in names) + "</tr>"
    rows = "".join(
        f"<tr><td>{r + 1}</td>" + "".join(f"<td>{v}</td>" for v in row) + "</tr>"
        for r, row in enumerate(match.round_scores.tolist())
    )
    total = (
        "<tr><td><b>total</b></td>"
        + "".join(f"<td><b>{v}</b></td>" for v in match.totals.tolist())
        + "</tr>"
    )
    return f"<table>{head}{rows}{total}</table>"
