"""A review and a replay as HTML: the labelled decisions, and one step of a replayed round.

`review_html` lays out `nothanks_lab.review.Review` one row per decision, `replay_html` one
step of a `RoundReplay` (what happened, then the table as the replayed seat saw it).
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ..i18n import N_, _, fmt_decimal, fmt_percent, ngettext
from ..stats import fmt_ends
from .cards import _CELL, _NUM, INK, PAPER, TO_ACT_BG, _how_computed_html, active_html, seats_html

if TYPE_CHECKING:
    from ..review import MoveReview, Review
    from ..table import RoundReplay


#: Colour of each review label, from good to bad (the markers of `plots.plot_review`).
LABEL_COLORS = {
    # Okabe-Ito (colour-blind safe), with dark text on each badge.
    "good": "#009E73",
    "inaccuracy": "#F0E442",
    "mistake": "#E69F00",
    "blunder": "#D55E00",
}


#: The review labels' words, marked for translation (the badge shows them translated).
LABEL_WORDS = (N_("good"), N_("inaccuracy"), N_("mistake"), N_("blunder"))


def label_html(label: str) -> str:
    """A review label as a small coloured badge."""
    color = LABEL_COLORS.get(label, "#BBBBBB")
    return (
        f"<span class='nothanks-label' data-label='{escape(label)}' style='display:inline-block;"
        f"padding:0 .45em;border-radius:.6em;background:{color};color:#000000;font-weight:600'>"
        f"{escape(_(label))}</span>"
    )


def _move_review_words(m: MoveReview) -> str:
    """A reviewed move in a few words: the label, the cost and the better move."""
    if m.forced:
        return _("forced (no chips left)")
    if m.action is m.best:
        d = m.score_diff
        if d is not None and d.low <= 0 <= d.high:
            # The difference's interval holds 0: neither move is shown to be better.
            return _("as good as the other move, as far as the rollouts can tell")
        return _("the better move (by {gap} expected points)").format(gap=fmt_decimal(_gap(m), 1))
    c = m.cost_estimate
    return _("cost {cost} points {ends}; better: {best}").format(
        cost=fmt_decimal(c.value, 1), ends=fmt_ends(c.low, c.high, ".1f"), best=_(str(m.best))
    )


def _gap(m: MoveReview) -> float:
    d = m.take.score.value - (m.no_thanks.score.value if m.no_thanks is not None else 0.0)
    return abs(d)


def review_html(review: Review, current_step: int | None = None) -> str:
    """A review as a table, one row per decision (label, cost, better move), and its summary.

    `current_step` (a replay step, ``move index + 1``) highlights the decision that led to it.
    """
    cell = "padding:.2em .35em;"  # tighter than the table's cells: six columns on a phone
    num = _NUM.replace(_CELL, cell)
    th = f"{cell}text-align:left;border-bottom:1px solid #999"
    head = "".join(
        f"<th style='{th}'>{_(h) if h else h}</th>"
        for h in (N_("move"), N_("card"), N_("pot"), N_("chips"), N_("played"), N_("label"))
    )
    rows = []
    for m in review.moves:
        here = current_step == m.index + 1
        style = f" style='background:{TO_ACT_BG};color:{INK}'" if here else ""
        rows.append(
            f"<tr class='nothanks-move' data-step='{m.index + 1}' data-label='{m.label}'{style}>"
            f"<td style='{num}'>{m.index + 1}</td><td style='{num}'>{m.card}</td>"
            f"<td style='{num}'>{m.pot}</td><td style='{num}'>{m.view.my_chips}</td>"
            f"<td style='{cell}'>{_(str(m.action))}</td>"
            # The label with its reason below it, in one cell that wraps: a separate reason
            # column was pushed out of narrow boxes (1280 px beside the file browser, phones).
            f"<td style='{cell}white-space:normal;min-width:7em'>{label_html(m.label)}<br>"
            f"<small>{escape(_move_review_words(m))}</small></td>"
            "</tr>"
        )
    cards = len(review.card_costs)
    acc = (
        ""
        if review.accuracy is None
        else _("; accuracy {p}").format(p=fmt_percent(review.accuracy))
    )
    headline = review.headline()
    detail = ngettext(
        "{n} decisions on {cards} card{acc}; each cost is in expected points against the "
        "better move from that position",
        "{n} decisions on {cards} cards{acc}; each cost is in expected points against the "
        "better move from that position",
        cards,
    ).format(n=len(review.moves), cards=cards, acc=acc)
    title = _("Review of {name}").format(name=escape(review.name))
    return (
        f"<div class='nothanks-review'><h4 style='margin:.3em 0'>{title}"
        f"</h4><div class='nothanks-review-summary'><b>"
        f"{escape(headline[:1].upper() + headline[1:])}</b><br>"
        f"<small>{escape(detail)}</small></div>"
        f"<div style='max-height:44em;overflow:auto;max-width:100%'>"
        f"<table style='border-collapse:collapse;background:{PAPER};color:{INK}'>"
        f"<tr>{head}</tr>{''.join(rows)}</table></div>"
        f"{_how_computed_html(escape(review.header()))}</div>"
    )


def replay_html(replay: RoundReplay, step: int) -> str:
    """One step of a replay: what happened, then the table as it was (the replayed seat's view)."""
    view = replay.view_at(step)
    caption = escape(replay.caption(step))
    move = replay.move_review_at(step)
    verdict = ""
    if move is not None:
        verdict = (
            f"<div style='margin:.2em 0'>{label_html(move.label)} "
            f"<small>{escape(_move_review_words(move))}</small></div>"
        )
    return (
        f"<div class='nothanks-replay-step' data-step='{step}'>"
        f"<div style='font-weight:600;margin:.2em 0'>{caption}</div>{verdict}"
        + active_html(view)
        + seats_html(
            view, replay.names, last_moves=replay.last_moves_at(step), to_act=replay.to_act_at(step)
        )
        + "</div>"
    )
