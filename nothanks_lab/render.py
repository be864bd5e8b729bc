"""HTML for notebooks: pure functions of a `Game`, `PlayerView` or match result.

Used by the objects' ``_repr_html_`` and by the play table widget, so a round looks the same
wherever it is shown. Self-contained markup (no CDN, no scripts).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from .rules import card_points, runs

if TYPE_CHECKING:
    from .analysis import PositionEvaluation
    from .engine import Event, Game
    from .play import MatchResult
    from .review import MoveReview, Review
    from .table import RoundReplay
    from .view import PlayerView

__all__ = [
    "active_html",
    "card_html",
    "download_link_html",
    "error_html",
    "figure_html",
    "final_scores_html",
    "game_html",
    "hand_html",
    "hints_html",
    "log_html",
    "match_html",
    "move_words",
    "neighbour_cards",
    "plotly_js_html",
    "position_evaluation_html",
    "replay_html",
    "review_html",
    "seats_html",
    "status_html",
    "turn_prompt_html",
    "view_html",
]

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
    th = "padding:.25em .8em;text-align:right;border-bottom:1px solid #999;"
    td = "padding:.25em .8em;text-align:right;"
    head = (
        f"<tr><th style='{th}text-align:left'>round</th>"
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
        f"<tr><td style='{td}{top}text-align:left'><b>total</b></td>"
        + "".join(f"<td style='{td}{top}'><b>{v}</b></td>" for v in match.totals.tolist())
        + "</tr>"
    )
    return (
        "<table class='nothanks-match' style='border-collapse:collapse'>"
        f"{head}{rows}{total}</table>"
    )


# --------------------------------------------------------------------------- the play table
#: Row colour of the seat to act, and of the person's row when it is their turn.
TO_ACT_BG = "#fff1b8"
YOUR_TURN_BG = "#ffe08a"
_CELL = "padding:.25em .7em;"
_NUM = f"{_CELL}text-align:right;"


def move_words(event: Event | None) -> str:
    """A seat's last move in a few words (empty before its first move).

    >>> from nothanks_lab.engine import Action, Event
    >>> move_words(Event(1, Action.TAKE, 27, 3)), move_words(Event(1, Action.PASS, 27, 3))
    ('took 27 (+3 chips)', 'No thanks! on 27')
    """
    from .engine import Action

    if event is None:
        return ""
    if event.action is Action.TAKE:
        gain = f" (+{event.pot} chip{'s' * (event.pot != 1)})" if event.pot else ""
        return f"took {event.card}{gain}"
    return f"No thanks! on {event.card}"


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
    head = (
        f"<tr><th style='{_CELL}text-align:left'>seat</th>"
        f"<th style='{_CELL}text-align:left'>cards (runs)</th><th style='{_CELL}'>card points</th>"
        f"<th style='{_CELL}'>chips</th><th style='{_CELL}'>score</th>"
        f"<th style='{_CELL}text-align:left'>last move</th></tr>"
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
            style = f" class='nothanks-to-act' style='background:{bg};outline:2px solid #d9a400'"
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
    return f"<table style='border-collapse:collapse'>{head}{''.join(rows)}</table>"


def active_html(view: PlayerView) -> str:
    """The active card and the chips on it, large."""
    if view.active_card is None:
        return "<div style='font-size:1.4em;margin:.3em 0'><b>Round over</b></div>"
    return (
        f"<div style='margin:.4em 0'>{card_html(view.active_card, big=True)}"
        f"<span style='font-size:1.6em;margin-left:.6em'>pot: <b>{view.pot}</b> "
        f"chip{'s' * (view.pot != 1)}</span>"
        f"<span style='margin-left:1em;color:#555'>{view.cards_left} cards face down</span>"
        "</div>"
    )


def status_html(phase: str, names: Sequence[str], view: PlayerView, failed: str = "") -> str:
    """The line under the table: whose turn, or what to press next (the buttons sit beside)."""
    if phase == "human":
        pot = view.pot
        text = (
            "<span style='font-size:1.3em'><b>Your turn</b></span>: take "
            f"{view.active_card} with its {pot} chip{'s' * (pot != 1)}, or say No thanks! "
            "(costs 1 chip)."
        )
        style = f"background:{YOUR_TURN_BG};border-left:6px solid #d9a400;padding:.4em .6em"
    elif phase == "bot":
        text = f"{escape(names[view.current_player or 0])} is thinking…"
        style = "padding:.4em .6em;color:#555"
    elif phase == "failed":
        text = f"<b style='color:#b00'>{escape(failed)} failed</b>: see the message below."
        style = "padding:.4em .6em"
    elif phase == "round_over":
        text = "<b>Round over.</b> Press Next round to go on, or Play again for a new match."
        style = "padding:.4em .6em"
    else:
        text = "<b>Game over.</b> Press Play again for a new round with the same players."
        style = "padding:.4em .6em"
    return f"<div style='font-size:1.1em;margin:.3em 0;{style}'>{text}</div>"


def title_html(round_number: int, rounds: int, seed: int, difficulty: str | None = None) -> str:
    """The table's heading: round of the match, the seed, and the opponents' preset."""
    match = f" — round {round_number} of {rounds}" if rounds > 1 else ""
    level = f"; opponents: {escape(difficulty)}" if difficulty else ""
    return (
        f"<h2 style='margin:.2em 0'>No Thanks!{match}</h2>"
        f"<small>seed {seed}{level}; lowest score wins</small>"
    )


def log_html(lines: Sequence[str]) -> str:
    """The round's moves, newest first."""
    items = "".join(f"<li>{escape(line)}</li>" for line in reversed(lines))
    return f"<ol reversed style='margin:0'>{items}</ol>"


def notice_html(text: str) -> str:
    """A short notice (a refused click, a forced move) in amber."""
    return f"<span style='color:#a15c00'>{escape(text)}</span>" if text else ""


def warning_html(text: str) -> str:
    """A short warning in red and bold (a forced move)."""
    return f"<b style='color:#b00'>{escape(text)}</b>"


def error_html(message: str) -> str:
    """One line saying what is wrong with an input, in plain words (never a traceback)."""
    if not message:
        return ""
    return (
        "<div class='nothanks-error' style='color:#8a1010;background:#fdecec;"
        f"border-left:4px solid #c33;padding:.25em .6em;margin:.2em 0'>⚠ {escape(message)}</div>"
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
    removed = " ".join(card_html(c) for c in game.removed_cards())
    return (
        "<h3 style='margin:.4em 0'>Final scores</h3>"
        f"<table style='border-collapse:collapse'><tr><th style='{_CELL}text-align:left'>seat</th>"
        f"<th style='{_CELL}'>card points</th><th style='{_CELL}'>chips</th>"
        f"<th style='{_CELL}'>total</th></tr>{rows}</table>"
        f"<div>Winner{'s' * (len(winners) > 1)}: "
        f"<b>{escape(', '.join(names[i] for i in winners))}</b> (lowest score wins)</div>"
        f"<div style='margin-top:.3em'>Removed cards, now revealed: {removed}</div>"
    )


def neighbour_cards(view: PlayerView) -> list[int]:
    """Cards next to my runs (one below, one above each), inside the deck and not mine."""
    rules, mine = view.rules, set(view.my_hand)
    out: set[int] = set()
    for run in runs(view.my_hand):
        for c in (run[0] - 1, run[-1] + 1):
            if rules.low_card <= c <= rules.high_card and c not in mine:
                out.add(c)
    return sorted(out)


def hints_html(view: PlayerView, names: Sequence[str], evaluation: str = "") -> str:
    """The hint panel: chance each neighbour of my runs is still to come, plus `evaluation`."""
    from .probability import p_all_in_play

    holder = {c: i for i, hand in enumerate(view.hands) for c in hand}
    items = []
    for c in neighbour_cards(view):
        if c == view.active_card:
            text = "is the card on the table now"
        elif c in holder:
            text = f"is gone: {escape(names[holder[c]])} holds it"
        else:
            p = p_all_in_play([c], view.seen_cards, view.rules)
            text = f"is still to come with chance <b>{p:.0%}</b>"
        items.append(f"<li>{c} {text}</li>")
    if not view.my_hand:
        body = "<p>You hold no cards yet, so no run to extend.</p>"
    else:
        body = (
            "<p>Neighbours of your runs (a card next to a run adds no points):</p>"
            f"<ul>{''.join(items)}</ul>"
        )
    return f"<div><b>Hints</b>{body}{evaluation}</div>"


def clearly_better(low: float, high: float, digits: int = 1) -> bool:
    """Whether an interval excludes zero as shown, rounded to `digits` (so never "[+0.0, …]").

    >>> clearly_better(0.04, 1.0), clearly_better(0.06, 1.0), clearly_better(-2.0, -0.5)
    (False, True, True)
    """
    return round(low, digits) > 0 or round(high, digits) < 0


def position_evaluation_html(ev: PositionEvaluation, assumed: Sequence[str] | None = None) -> str:
    """Take versus No Thanks! from an evaluation; `assumed` says how each opponent was played.

    The verdict says "clearly" only when the difference's interval, as shown, excludes zero.
    """
    rows = []
    for move in ev.moves().values():
        s, w = move.score, move.win
        rows.append(
            f"<tr><td style='{_CELL}'><b>{move.action}</b></td>"
            f"<td style='{_CELL}'>{s.value:.1f} <small>[{s.low:.1f}, {s.high:.1f}]</small></td>"
            f"<td style='{_CELL}'>{w.value:.0%} <small>[{w.low:.0%}, {w.high:.0%}]</small></td>"
            "</tr>"
        )
    d = ev.score_diff
    if d is None:
        verdict = "You have no chips: Take is forced."
    else:
        sure = (
            f"clearly <b>{ev.best}</b>"
            if clearly_better(d.low, d.high)
            else "too close to call (the interval includes 0)"
        )
        verdict = (
            f"Take − No Thanks!: <b>{d.value:+.1f}</b> points [{d.low:+.1f}, {d.high:+.1f}] "
            f"→ {sure} (lower score is better)."
        )
    if assumed is None:
        who = f"every seat played by {escape(ev.policy)}"
    else:
        who = "opponents: " + (escape("; ".join(assumed)) or "none")
    return (
        "<div><p style='margin:.4em 0 .1em'>Estimated value of Take vs No Thanks! "
        f"({ev.n:,} rollouts per move, {who}; your later moves by marginal(10); "
        "95% intervals):</p>"
        "<table style='border-collapse:collapse'><tr><th>move</th>"
        "<th>expected final score</th><th>win chance</th></tr>"
        f"{''.join(rows)}</table><p style='margin:.2em 0'>{verdict}</p></div>"
    )


# --------------------------------------------------------------------------- figures
def plotly_js_html() -> str:
    """plotly.js from the installed plotly package, as one inline script (no CDN).

    The library is defined as ``window.Plotly`` even where a page has an AMD loader.
    """
    from plotly.offline import get_plotlyjs

    return (
        "<script type='text/javascript'>(function(define, module, exports){"
        f"{get_plotlyjs()}\n}}).call(window, undefined, undefined, undefined);</script>"
    )


def figure_html(fig: Any, div_id: str, height: int = 420) -> str:
    """A figure as a div that fills its container's width, drawn once ``window.Plotly`` exists.

    Redraws replace this markup as a whole (no front-end state to fall out of step); the
    script waits for plotly.js (loaded once by `plotly_js_html`) for up to a minute.
    """
    fig_json = fig.to_json()
    return (
        f"<div id='{div_id}' class='nothanks-figure' style='width:100%;height:{height}px'></div>"
        "<script type='text/javascript'>(function(){"
        f"var spec={fig_json};var tries=0;"
        "function draw(){var el=document.getElementById("
        f"'{div_id}');if(!el)return;"
        "if(!window.Plotly){if(tries++<600){setTimeout(draw,100);}return;}"
        "var layout=Object.assign({},spec.layout,{autosize:true});delete layout.width;"
        f"layout.height={height};"
        "window.Plotly.newPlot(el,spec.data,layout,{responsive:true,displaylogo:false})"
        ".then(function(){el.setAttribute('data-drawn',String(performance.now()));"
        # plotly's responsive mode follows window resizes only; a panel that grows or shrinks
        # (JupyterLab's sidebar) resizes the div alone, so watch the div itself.
        "if(window.ResizeObserver&&!el._ntObserved){el._ntObserved=true;"
        "new ResizeObserver(function(){if(el.isConnected&&window.Plotly)"
        "window.Plotly.Plots.resize(el);}).observe(el);}});}"
        "draw();})();</script>"
    )


# --------------------------------------------------------------------------- reviews and files
#: Colour of each review label, from good to bad (the markers of `plots.plot_review`).
LABEL_COLORS = {
    "good": "#2ca02c",
    "inaccuracy": "#e6b800",
    "mistake": "#ff7f0e",
    "blunder": "#d62728",
}


def label_html(label: str) -> str:
    """A review label as a small coloured badge."""
    color = LABEL_COLORS.get(label, "#777")
    return (
        f"<span class='nothanks-label' data-label='{escape(label)}' style='display:inline-block;"
        f"padding:0 .45em;border-radius:.6em;background:{color};color:white;font-weight:600'>"
        f"{escape(label)}</span>"
    )


def _move_review_words(m: MoveReview) -> str:
    """A reviewed move in a few words: the label, the cost and the better move."""
    if m.forced:
        return "forced (no chips left)"
    if m.action is m.best:
        return f"the better move (by {_gap(m):.1f} expected points)"
    c = m.cost_estimate
    return f"cost {c.value:.1f} points [{c.low:.1f}, {c.high:.1f}]; better: {m.best}"


def _gap(m: MoveReview) -> float:
    d = m.take.score.value - (m.no_thanks.score.value if m.no_thanks is not None else 0.0)
    return abs(d)


def review_html(review: Review, current_step: int | None = None) -> str:
    """A review as a table, one row per decision (label, cost, better move), and its summary.

    `current_step` (a replay step, ``move index + 1``) highlights the decision that led to it.
    """
    th = f"{_CELL}text-align:left;border-bottom:1px solid #999"
    head = "".join(
        f"<th style='{th}'>{h}</th>"
        for h in ("move", "card", "pot", "chips", "played", "label", "")
    )
    rows = []
    for m in review.moves:
        here = current_step == m.index + 1
        style = f" style='background:{TO_ACT_BG}'" if here else ""
        rows.append(
            f"<tr class='nothanks-move' data-step='{m.index + 1}' data-label='{m.label}'{style}>"
            f"<td style='{_NUM}'>{m.index + 1}</td><td style='{_NUM}'>{m.card}</td>"
            f"<td style='{_NUM}'>{m.pot}</td><td style='{_NUM}'>{m.view.my_chips}</td>"
            f"<td style='{_CELL}'>{m.action}</td><td style='{_CELL}'>{label_html(m.label)}</td>"
            f"<td style='{_CELL}color:#444'><small>{escape(_move_review_words(m))}</small></td>"
            "</tr>"
        )
    counts = ", ".join(f"{v} {k}" for k, v in review.counts.items() if v)
    t = review.total_cost
    acc = "" if review.accuracy is None else f"; accuracy {review.accuracy:.0%}"
    summary = (
        f"{len(review.moves)} decisions ({counts}); expected cost {t.value:.1f} points "
        f"[{t.low:.1f}, {t.high:.1f}]{acc}"
    )
    return (
        f"<div class='nothanks-review'><h4 style='margin:.3em 0'>Review of "
        f"{escape(review.name)}</h4><div class='nothanks-review-summary'>{escape(summary)}</div>"
        f"<div style='max-height:26em;overflow:auto'><table style='border-collapse:collapse'>"
        f"<tr>{head}</tr>{''.join(rows)}</table></div>"
        f"<small style='color:#666'>{escape(review.header())}</small></div>"
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


def turn_prompt_html(name: str, cards_to_come: int) -> str:
    """The advisor's line while no card is face up: who turns the next card."""
    return (
        "<div style='margin:.4em 0;font-size:1.3em'>Turn the next card and enter it: "
        f"<b>{escape(name)}</b> acts on it "
        f"<span style='color:#555;font-size:.8em'>({cards_to_come} cards still to come)</span>"
        "</div>"
    )


def download_link_html(text: str, filename: str, label: str) -> str:
    """A link that downloads `text` as the file `filename` (a data URL: no server involved).

    >>> download_link_html("{}", "r.json", "Save")[:40]
    "<a class='nothanks-download' download='r"
    """
    import base64

    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (
        f"<a class='nothanks-download' download='{escape(filename)}' "
        f"href='data:application/json;base64,{data}'>{escape(label)}</a>"
    )
