"""The panels around the table as HTML: headings, status and prompts, hints, notices.

The play table's title, status line, move log, hints and the evaluation of Take versus
No Thanks!, the advisor's prompts, red and amber notices, error lines and a download link. Pure
functions of plain values, a `PlayerView` or a `PositionEvaluation`; the widgets only place
what these return.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from ..bots.specs import bot_label
from ..i18n import N_, _, fmt_decimal, fmt_int, fmt_percent, ngettext, pgettext
from ..rules import runs
from ..validate import keyword_only_after
from .cards import YOUR_TURN_BG, _how_computed_html

if TYPE_CHECKING:
    from ..analysis import PositionEvaluation
    from ..view import PlayerView


def status_html(phase: str, names: Sequence[str], view: PlayerView, failed: str = "") -> str:
    """The line under the table: whose turn, or what to press next (the buttons sit beside)."""
    if phase == "human":
        pot = view.pot
        text = ngettext(
            "<span style='font-size:1.3em'><b>Your turn</b></span>: take {card} with its {n} "
            "chip, or say No thanks! (costs 1 chip).",
            "<span style='font-size:1.3em'><b>Your turn</b></span>: take {card} with its {n} "
            "chips, or say No thanks! (costs 1 chip).",
            pot,
        ).format(card=view.active_card, n=pot)
        style = (
            f"background:{YOUR_TURN_BG};color:#1a1a1a;"
            "border-left:6px solid #d9a400;padding:.4em .6em"
        )
    elif phase == "bot":
        text = _("{name} is thinking…").format(name=escape(names[view.current_player or 0]))
        style = "padding:.4em .6em;color:#555555;background:#ffffff"
    elif phase == "failed":
        text = _("<b style='color:#b00'>{name} failed</b>: see the message below.").format(
            name=escape(failed)
        )
        style = "padding:.4em .6em;background:#ffffff;color:#1a1a1a"
    elif phase == "round_over":
        text = _("<b>Round over.</b> Press Next round to go on, or Play again for a new match.")
        style = "padding:.4em .6em"
    else:
        text = _("<b>Game over.</b> Press Play again for a new round with the same players.")
        style = "padding:.4em .6em"
    return f"<div style='font-size:1.1em;margin:.3em 0;{style}'>{text}</div>"


#: The opponents' presets by name, marked for translation (`nothanks_lab.table.DIFFICULTIES`).
DIFFICULTY_WORDS = (N_("easy"), N_("medium"), N_("hard"))


@keyword_only_after(2, "seed", "difficulty")
def title_html(round_number: int, rounds: int, *, seed: int, difficulty: str | None = None) -> str:
    """The table's heading: round of the match, the seed, and the opponents' preset."""
    match = _(" — round {i} of {n}").format(i=round_number, n=rounds) if rounds > 1 else ""
    level = _("; opponents: {level}").format(level=escape(_(difficulty))) if difficulty else ""
    small = _("seed {seed}{level}; lowest score wins").format(seed=seed, level=level)
    game = pgettext("the table's title", "No Thanks!")  # the game's name here, not the move
    return f"<h2 style='margin:.2em 0'>{game}{match}</h2><small>{small}</small>"


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
            text = _("is the card on the table now")
        elif c in holder:
            text = _("is gone: {name} holds it").format(name=escape(names[holder[c]]))
        else:
            p = p_all_in_play([c], view.seen_cards, view.rules)
            text = _("is still to come with chance <b>{p}</b>").format(p=fmt_percent(p))
        items.append(f"<li>{c} {text}</li>")
    if not view.my_hand:
        body = "<p>" + _("You hold no cards yet, so no run to extend.") + "</p>"
    else:
        body = (
            "<p>" + _("Neighbours of your runs (a card next to a run adds no points):") + "</p>"
            f"<ul>{''.join(items)}</ul>"
        )
    return "<div><b>" + _("Hints") + f"</b>{body}{evaluation}</div>"


def clearly_better(low: float, high: float, digits: int = 1) -> bool:
    """Whether an interval excludes zero as shown, rounded to `digits` (so never "[+0.0, …]").

    >>> clearly_better(0.04, 1.0), clearly_better(0.06, 1.0), clearly_better(-2.0, -0.5)
    (False, True, True)
    """
    return round(low, digits) > 0 or round(high, digits) < 0


def _move_words(action: object) -> str:
    return _("If you take") if str(action) == "Take" else _("If you say No Thanks!")


def _take_minus_pass_words(d: Any, wd: Any) -> str:
    """Take − No Thanks! in words: expected score in points, win chance in percentage points.

    A difference of win chances is never a bare signed decimal ("+0.12" reads as a chance):
    it is said as "12 percentage points higher if you take", its 95% interval in points.
    """
    pts = {"lo": fmt_decimal(d.low, 1, sign=True), "hi": fmt_decimal(d.high, 1, sign=True)}
    if d.value <= 0:
        score = _("If you take, your expected final score is {x} points lower").format(
            x=fmt_decimal(-d.value, 1)
        )
    else:
        score = _("If you take, your expected final score is {x} points higher").format(
            x=fmt_decimal(d.value, 1)
        )
    score += " " + _("(95% interval of Take − No Thanks!: {lo} to {hi} points).").format(**pts)
    gap = {
        "lo": fmt_decimal(100 * wd.low, 1, sign=True),
        "hi": fmt_decimal(100 * wd.high, 1, sign=True),
    }
    if wd.value >= 0:
        win = _("Your chance of winning is {x} percentage points higher if you take").format(
            x=fmt_decimal(100 * wd.value, 1)
        )
    else:
        win = _("Your chance of winning is {x} percentage points lower if you take").format(
            x=fmt_decimal(-100 * wd.value, 1)
        )
    win += " " + _("(95% interval: {lo} to {hi} percentage points).").format(**gap)
    return f"{score}<br>{win}"


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
        text = _(
            "{move}: your expected final score <b>{score}</b> ± {pm} points; you win "
            "{win} of the time"
        ).format(
            move=_move_words(move.action),
            score=fmt_decimal(s.value, 0),
            pm=fmt_decimal(max(s.half_width, 0.5), 0),
            win=fmt_percent(w.value),
        )
        lines.append(f"<li>{text}</li>")
    d, wd = ev.score_diff, ev.win_diff
    if d is None or wd is None:
        verdict = _("You have no chips: Take is forced.")
    else:
        other = "No Thanks!" if str(ev.best) == "Take" else "Take"
        if clearly_better(d.low, d.high):
            verdict = _(
                "By expected score, <b>{best}</b> is clearly better (about {points} points lower)."
            ).format(best=_(str(ev.best)), points=fmt_decimal(abs(d.value), 1))
        else:
            verdict = _("By expected score, the two moves are too close to call.")
        # The win chance after Take minus after No Thanks!: positive favours Take.
        favours = "Take" if wd.low > 0 else "No Thanks!" if wd.high < 0 else None
        if favours is not None and (favours == other or not clearly_better(d.low, d.high)):
            wins = {str(m.action): m.win.value for m in ev.moves().values()}
            rest = "No Thanks!" if favours == "Take" else "Take"
            verdict += _(
                " But <b>{move}</b> wins more often ({p} against {q}): if only winning counts, "
                "prefer it."
            ).format(move=_(favours), p=fmt_percent(wins[favours]), q=fmt_percent(wins[rest]))
    if assumed is None:
        who = _("every seat played by {bot}").format(bot=escape(bot_label(ev.policy)))
    else:
        from ..analysis import ADVICE_BOT

        who = _("you played by the {bot} bot; opponents: {others}").format(
            bot=ADVICE_BOT, others=escape("; ".join(assumed)) or _("none")
        )
    details = ""
    if d is not None and wd is not None:
        details = "<br>" + _take_minus_pass_words(d, wd)
    intro = _(
        "What each move is likely to give you by the end of the round (lower score is better):"
    )
    how = _(
        "The rest of the round was played out {n} times for each move, on guesses at the "
        "face-down cards you cannot see ({who}); each ± is a 95% interval. The review of "
        "your round uses the same method with more play-outs and guesses of its own, so on a "
        "close call the two can differ."
    ).format(n=fmt_int(ev.n), who=who)
    if getattr(ev, "exact", False):  # a small deck: exact values, no play-outs (issue 30)
        intro = _(
            "What each move gives you under perfect play by both seats from here on (your "
            "expected score minus your rival's; lower is better):"
        )
        how = _(
            "This deck is small enough to solve exactly: each value is the exact result of "
            "the move when both seats play perfectly from here on (no play-outs, no guesses), "
            "the values the review of your round uses too."
        )
        details = ""
        lines = [
            "<li>"
            + _(
                "{move}: <b>{score}</b> points against your rival; you win {win} of the time"
            ).format(
                move=_move_words(m.action),
                score=fmt_decimal(m.score.value, 1, sign=True),
                win=fmt_percent(m.win.value),
            )
            + "</li>"
            for m in ev.moves().values()
        ]
    return (
        f"<div class='nothanks-evaluation'><p style='margin:.4em 0 .1em'>{intro}</p>"
        f"<ul style='margin:.1em 0'>{''.join(lines)}</ul>"
        f"<p style='margin:.2em 0'>{verdict}</p>"
        f"{_how_computed_html(how + details)}</div>"
    )


def turn_prompt_html(name: str, cards_to_come: int) -> str:
    """The advisor's line while no card is face up: who turns the next card."""
    text = _("Turn the next card and enter it: <b>{name}</b> acts on it").format(name=escape(name))
    rest = _("({n} cards still to come)").format(n=cards_to_come)
    return (
        f"<div style='margin:.4em 0;font-size:1.3em'>{text} "
        f"<span style='font-size:.8em'>{rest}</span></div>"
    )


def download_link_html(text: str, filename: str, label: str, kind: str = "info") -> str:
    """A button-like link that downloads `text` as the file `filename` (a data URL: no server).

    It looks like the widgets' buttons of style `kind` (the fill and text colour of
    `BUTTON_COLORS`, their height, font and corners), so "Save this round" reads as a button
    beside "Review my round"; being a link with an ``href`` it is in the keyboard's tab order
    and Enter saves, and the focus ring is the browser's own.

    >>> download_link_html("{}", "r.json", "Save")[:40]
    "<a class='nothanks-download' download='r"
    """
    import base64

    from .cards import BUTTON_COLORS

    if kind not in BUTTON_COLORS:
        raise ValueError(f"kind must be one of {sorted(BUTTON_COLORS)}; got {kind!r}")
    fill, ink = BUTTON_COLORS[kind]
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    style = (
        f"display:inline-block;background:{fill};color:{ink};text-decoration:none;"
        "height:var(--jp-widgets-inline-height,28px);"
        "line-height:var(--jp-widgets-inline-height,28px);padding:0 12px;"
        "font-size:var(--jp-widgets-font-size,13px);border-radius:2px;white-space:nowrap;"
        "box-shadow:0 2px 2px 0 rgba(0,0,0,.14),0 1px 5px 0 rgba(0,0,0,.12);"
        "margin:var(--jp-widgets-margin,2px)"
    )
    return (
        f"<a class='nothanks-download' download='{escape(filename)}' style='{style}' "
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


def upload_name_script() -> str:
    """A script that gives every upload button (class ``nothanks-upload``) its title as its
    accessible name.

    ipywidgets writes the file count into the button's text ("Load a round (0)"), and the CSS
    of `upload_label_css` hides it from the eye only: a screen reader would still say "(0)".
    An ``aria-label`` (the button's title, i.e. its label without the count) names the button
    instead; buttons drawn later (a reload, a second table) are named as they appear.
    """
    return (
        "<script type='text/javascript'>(function(){"
        "function name(){document.querySelectorAll('button.nothanks-upload').forEach("
        "function(b){var t=b.getAttribute('title');"
        "if(t&&b.getAttribute('aria-label')!==t)b.setAttribute('aria-label',t);});}"
        "name();if(window._ntUploadNames)return;window._ntUploadNames=true;"
        "new MutationObserver(name).observe(document.body,"
        "{childList:true,subtree:true,attributes:true,attributeFilter:['title']});"
        "})();</script>"
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
    return _("<b>{name}</b> decides on {card}: enter the move.").format(
        name=escape(name), card=card
    )


def hand_summary_html(mine: Sequence[int], taken_by_others: int, unseen: int) -> str:
    """The probability explorer's line: my hand, and how many cards others took or nobody saw.

    The counts are said as counts ("3 cards taken by others"), never after a colon, where a
    number reads as a card.

    >>> hand_summary_html([29, 27], 3, 10)
    '&nbsp; my hand: <b>27 29</b>; 3 cards taken by others; 10 cards unseen'
    """
    hand = " ".join(map(str, sorted(mine))) or "—"
    taken = ngettext(
        "{n} card taken by others", "{n} cards taken by others", taken_by_others
    ).format(n=taken_by_others)
    hidden = ngettext("{n} card unseen", "{n} cards unseen", unseen).format(n=unseen)
    return "&nbsp; " + _("my hand: <b>{hand}</b>; {taken}; {unseen}").format(
        hand=hand, taken=taken, unseen=hidden
    )


def immediate_verdict_html(card: int, diff: int, break_even: int) -> str:
    """The chip-value explorer's verdict on one move, from its immediate points alone.

    `diff` is Take − No Thanks! in points counting this move only (lower is better);
    `break_even` the pot from which taking `card` pays (negative: it pays with none).

    >>> immediate_verdict_html(20, 14, 14)[:62]
    'Counting this move only: Take − No Thanks! = <b>+14</b> points'
    """
    better = _("Take") if diff < 0 else _("No Thanks!") if diff > 0 else _("either")
    if break_even < 0:
        pays = _("taking {card} pays even with no chips on it").format(card=card)
    else:
        pays = _("break-even pot for {card}: {pot}; with more chips on it, taking pays").format(
            card=card, pot=break_even
        )
    return _(
        "Counting this move only: Take − No Thanks! = <b>{diff}</b> points → <b>{better}</b> "
        "({pays})."
    ).format(diff=f"{diff:+d}", better=better, pays=pays)
