"""The panels around the table as HTML: headings, status and prompts, hints, notices.

The play table's title, status line, move log, hints and the evaluation of Take versus
No Thanks!, the advisor's prompts, red and amber notices, error lines and a download link. Pure
functions of plain values, a `PlayerView` or a `PositionEvaluation`; the widgets only place
what these return.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from ..rules import runs
from .cards import YOUR_TURN_BG

if TYPE_CHECKING:
    from ..analysis import PositionEvaluation
    from ..view import PlayerView


def status_html(phase: str, names: Sequence[str], view: PlayerView, failed: str = "") -> str:
    """The line under the table: whose turn, or what to press next (the buttons sit beside)."""
    if phase == "human":
        pot = view.pot
        text = (
            "<span style='font-size:1.3em'><b>Your turn</b></span>: take "
            f"{view.active_card} with its {pot} chip{'s' * (pot != 1)}, or say No thanks! "
            "(costs 1 chip)."
        )
        style = (
            f"background:{YOUR_TURN_BG};color:#1a1a1a;"
            "border-left:6px solid #d9a400;padding:.4em .6em"
        )
    elif phase == "bot":
        text = f"{escape(names[view.current_player or 0])} is thinking…"
        style = "padding:.4em .6em;color:#555555;background:#ffffff"
    elif phase == "failed":
        text = f"<b style='color:#b00'>{escape(failed)} failed</b>: see the message below."
        style = "padding:.4em .6em;background:#ffffff;color:#1a1a1a"
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
    return f"<span style='color:#8a4f00;background:#ffffff'>{escape(text)}</span>" if text else ""


def warning_html(text: str) -> str:
    """A short warning in red and bold (a forced move)."""
    return f"<b style='color:#b00;background:#ffffff'>{escape(text)}</b>"


def error_html(message: str) -> str:
    """One line saying what is wrong with an input, in plain words (never a traceback)."""
    if not message:
        return ""
    return (
        "<div class='nothanks-error' style='color:#8a1010;background:#fdecec;"
        f"border-left:4px solid #c33;padding:.25em .6em;margin:.2em 0'>"
        f"<b>!</b> {escape(message)}</div>"
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
    from ..probability import p_all_in_play

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


def _move_words(action: object) -> str:
    return "If you take" if str(action) == "Take" else "If you say No Thanks!"


def position_evaluation_html(ev: PositionEvaluation, assumed: Sequence[str] | None = None) -> str:
    """Take versus No Thanks! in plain words, the details behind a "How is this computed?" toggle.

    The recommendation is based on the expected final score and says so; it says "clearly"
    only when the difference's interval, as shown, excludes zero, and when the win chances
    point the other way (their difference's interval excludes zero too) it says that as well.
    `assumed` says how each opponent was played in the rollouts.
    """
    lines = []
    for move in ev.moves().values():
        s, w = move.score, move.win
        lines.append(
            f"<li>{_move_words(move.action)}: your expected final score "
            f"<b>{s.value:.0f}</b> ± {max(s.half_width, 0.5):.0f} points; you win "
            f"{w.value:.0%} of the time</li>"
        )
    d, wd = ev.score_diff, ev.win_diff
    if d is None or wd is None:
        verdict = "You have no chips: Take is forced."
    else:
        other = "No Thanks!" if str(ev.best) == "Take" else "Take"
        if clearly_better(d.low, d.high):
            verdict = (
                f"By expected score, <b>{ev.best}</b> is clearly better (about "
                f"{abs(d.value):.1f} points lower)."
            )
        else:
            verdict = "By expected score, the two moves are too close to call."
        # The win chance after Take minus after No Thanks!: positive favours Take.
        favours = "Take" if wd.low > 0 else "No Thanks!" if wd.high < 0 else None
        if favours is not None and (favours == other or not clearly_better(d.low, d.high)):
            wins = {str(m.action): m.win.value for m in ev.moves().values()}
            rest = "No Thanks!" if favours == "Take" else "Take"
            verdict += (
                f" But <b>{favours}</b> wins more often ({wins[favours]:.0%} against "
                f"{wins[rest]:.0%}): if only winning counts, prefer it."
            )
    if assumed is None:
        who = f"every seat played by {escape(ev.policy)}"
    else:
        from ..analysis import ADVICE_BOT

        who = f"you played by the {ADVICE_BOT} bot; opponents: " + (
            escape("; ".join(assumed)) or "none"
        )
    details = ""
    if d is not None and wd is not None:
        details = (
            f"<br>Take − No Thanks!: {d.value:+.1f} points [{d.low:+.1f}, {d.high:+.1f}]; "
            f"win chance {wd.value:+.1%} [{wd.low:+.1%}, {wd.high:+.1%}] (95% intervals)."
        )
    return (
        "<div class='nothanks-evaluation'><p style='margin:.4em 0 .1em'>What each move is "
        "likely to give you by the end of the round (lower score is better):</p>"
        f"<ul style='margin:.1em 0'>{''.join(lines)}</ul>"
        f"<p style='margin:.2em 0'>{verdict}</p>"
        "<details><summary>How is this computed?</summary><small>"
        f"The rest of the round was played out {ev.n:,} times for each move, on guesses at the "
        f"face-down cards you cannot see ({who}); each ± is a 95% interval. The review of "
        "your round uses the same computation."
        f"{details}</small></details></div>"
    )


def turn_prompt_html(name: str, cards_to_come: int) -> str:
    """The advisor's line while no card is face up: who turns the next card."""
    return (
        "<div style='margin:.4em 0;font-size:1.3em'>Turn the next card and enter it: "
        f"<b>{escape(name)}</b> acts on it "
        f"<span style='font-size:.8em'>({cards_to_come} cards still to come)</span>"
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


# ------------------------------------------------------------------ headings, captions, prompts
def heading_html(text: str, level: int = 3) -> str:
    """A panel's heading: ``<h3>`` (a widget's title) or ``<h4>`` (a section of one).

    >>> heading_html("Bot lab")
    "<h3 style='margin:.2em 0'>Bot lab</h3>"
    """
    if level not in (3, 4):
        raise ValueError(f"level must be 3 or 4; got {level!r}")
    margin = ".2em 0" if level == 3 else ".3em 0"
    return f"<h{level} style='margin:{margin}'>{escape(text)}</h{level}>"


def caption_html(title: str, rest: str = "") -> str:
    """A bold caption, then plain words after it (a box's label, a seat's name).

    >>> caption_html("Moves", " (newest first)")
    '<b>Moves</b> (newest first)'
    """
    return f"<b>{escape(title)}</b>{escape(rest)}"


def small_html(text: str, indent: bool = False) -> str:
    """Small print (a preset's summary, how long a review took); `indent` adds a space before.

    >>> small_html("Reviewed in 1.2 s.")
    '<small>Reviewed in 1.2 s.</small>'
    """
    return f"<small>{'&nbsp;' if indent else ''}{escape(text)}</small>"


def upload_label_css(label: str) -> str:
    """CSS that shows an upload button (class ``nothanks-upload``) as just `label`.

    ipywidgets' FileUpload writes its file count into the button, "Load a round (0)", which
    means nothing before a file exists (issue 25, item 9); the count is hidden and `label`
    drawn in its place. The table's setup panel (class ``nothanks-setup``) gets its title in
    the theme's main text colour (readable at 4.5:1 on both JupyterLab themes).
    """
    text = label.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return (
        "<style>.nothanks-upload.widget-upload{font-size:0 !important}"
        ".nothanks-upload.widget-upload i{font-size:var(--jp-widgets-font-size);"
        "margin-right:.4em}"
        f'.nothanks-upload.widget-upload::after{{content:"{text}";'
        "font-size:var(--jp-widgets-font-size)}"
        # The setup panel's title: the theme's secondary grey on the header's grey is 4.2:1.
        ".nothanks-setup .jupyter-widget-Collapse-header{color:var(--jp-ui-font-color1)}"
        # The review's HTML may wrap and shrink with its box (ipywidgets' content box does
        # not: at 1280 px beside the file browser its summary stuck out of an 848-px box).
        ".nothanks-review-area>.widget-html-content{flex:1 1 auto;min-width:0}"
        "</style>"
    )


def placeholder_html(text: str) -> str:
    """What a panel says while it has nothing to show yet, in italics.

    >>> placeholder_html("Hints show on your turn.")
    '<i>Hints show on your turn.</i>'
    """
    return f"<i>{escape(text)}</i>"


def move_prompt_html(name: str, card: int | None) -> str:
    """The advisor's line while a card is face up: who decides on it.

    >>> move_prompt_html("Ada", 27)
    '<b>Ada</b> decides on 27: enter the move.'
    """
    return f"<b>{escape(name)}</b> decides on {card}: enter the move."


def hand_summary_html(mine: Sequence[int], taken_by_others: int, unseen: int) -> str:
    """The probability explorer's line: my hand, and how many cards others took or nobody saw.

    >>> hand_summary_html([29, 27], 3, 10)
    '&nbsp; my hand: <b>27 29</b>; taken by others: 3; unseen: 10'
    """
    hand = " ".join(map(str, sorted(mine))) or "—"
    return f"&nbsp; my hand: <b>{hand}</b>; taken by others: {taken_by_others}; unseen: {unseen}"


def immediate_verdict_html(card: int, diff: int, break_even: int) -> str:
    """The chip-value explorer's verdict on one move, from its immediate points alone.

    `diff` is Take − No Thanks! in points counting this move only (lower is better);
    `break_even` the pot from which taking `card` pays (negative: it pays with none).

    >>> immediate_verdict_html(20, 14, 14)[:62]
    'Counting this move only: Take − No Thanks! = <b>+14</b> points'
    """
    better = "Take" if diff < 0 else "No Thanks!" if diff > 0 else "either"
    if break_even < 0:
        pays = f"taking {card} pays even with no chips on it"
    else:
        pays = f"break-even pot for {card}: {break_even}; with more chips on it, taking pays"
    return (
        f"Counting this move only: Take − No Thanks! = <b>{diff:+d}</b> points → "
        f"<b>{better}</b> ({pays})."
    )
