"""Contrast of every text/background pair `render` produces (issue 25, item 1).

The produced HTML is parsed into its element tree; each element's text colour and effective
background are resolved by inheritance from its own inline style and its ancestors'. Two rules,
so that nothing depends on the JupyterLab theme (light, dark) or on Voilà's page colours:

- an element that sets a background also sets a text colour (or an ancestor inside the same
  coloured box does);
- an element that sets a text colour sits on a background set by itself or an ancestor;

and every resolved pair has a WCAG contrast ratio of at least 4.5:1.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

import nothanks_lab as nt
from nothanks_lab import render

VOID = {"br", "img", "hr", "input", "meta", "link", "wbr"}
PROP = re.compile(r"(?:^|;)\s*(background(?:-color)?|color)\s*:\s*([^;]+)")


def _rgb(value: str) -> tuple[float, float, float]:
    v = value.strip().lower()
    names = {"white": "#ffffff", "black": "#000000"}
    v = names.get(v, v)
    assert re.fullmatch(r"#[0-9a-f]{3}|#[0-9a-f]{6}", v), f"colour not checkable: {value!r}"
    if len(v) == 4:
        v = "#" + "".join(c * 2 for c in v[1:])
    return tuple(int(v[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def _luminance(value: str) -> float:
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in _rgb(value)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


class _Pairs(HTMLParser):
    """Collects (tag, color, background, own) for every element with text or colours."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str | None, str | None, bool]] = [("root", None, None, False)]
        self.problems: list[str] = []
        self.pairs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        style = dict(attrs).get("style") or ""
        props = {k.split("-")[0]: v.strip() for k, v in PROP.findall(style)}
        _, color, bg, _ = self.stack[-1]
        if "background" in props and "color" not in props:
            self.problems.append(f"<{tag} style={style!r}> sets a background and no text colour")
        color = props.get("color", color)
        bg = props.get("background", bg)
        if "color" in props and bg is None:
            self.problems.append(f"<{tag} style={style!r}> sets a colour on the theme background")
        if color is not None and bg is not None:
            self.pairs.append((tag, color, bg))
        if tag not in VOID:
            self.stack.append((tag, color, bg, True))

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and len(self.stack) > 1:
            self.stack.pop()


def check(html: str) -> list[str]:
    p = _Pairs()
    p.feed(html)
    bad = list(p.problems)
    for tag, color, bg in p.pairs:
        ratio = contrast(color, bg)
        if ratio < 4.5:
            bad.append(f"<{tag}> {color} on {bg}: {ratio:.2f}:1")
    return bad


def test_the_checker_catches_what_issue_25_found() -> None:
    assert contrast("#ffffff", "#000000") == pytest.approx(21.0)
    assert check("<span style='background:#fffdf5'>27</span>")  # no text colour
    assert check("<div style='background:#ffe08a;color:white'>Your turn</div>")
    assert check("<td style='color:#444'>took</td>")  # on whatever the theme is
    assert not check("<div style='background:#ffffff;color:#1a1a1a'><b>ok</b></div>")


def _positions() -> list[nt.Game]:
    games = []
    for moves in ((), ("TAKE", "PASS"), ("PASS",) * 5 + ("TAKE",) * 3):
        g = nt.Game(3, deck=range(3, 27))
        for a in moves:
            g.step(nt.Action[a])
        games.append(g)
    return games


@pytest.mark.parametrize("big", [False, True])
@pytest.mark.parametrize("card", [3, 27, 35])
def test_cards_set_both_colours(card: int, big: bool) -> None:
    assert check(render.card_html(card, big=big)) == []


@pytest.mark.parametrize("k", range(3))
def test_table_states_have_readable_pairs(k: int) -> None:
    g = _positions()[k]
    names = ["Seat 0 (you)", "Seat 1", "Seat 2"]
    view = g.view(0)
    pieces = [
        render.seats_html(view, names),
        render.seats_html(view, names, to_act=g.current_player),
        render.active_html(view),
        render.view_html(view),
        render.game_html(g, names),
    ]
    for phase in ("human", "bot", "failed", "round_over"):
        pieces.append(render.status_html(phase, names, view, failed="Seat 1"))
    pieces += [render.notice_html("refused"), render.warning_html("forced"), render.error_html("x")]
    pieces += [render.label_html(label) for label in render.LABEL_COLORS]
    bad = [b for html in pieces for b in check(html)]
    assert bad == [], "\n".join(bad)


# ------------------------------------------------------- hints, review, replay and buttons
def _finished_round() -> nt.Game:
    g = nt.Game(3, deck=range(3, 27), seed=5)
    bot = nt.bots.MarginalCostBot(6)
    while not g.is_over:
        g.step(bot.act(g.view(g.current_player)))
    return g


def test_hint_review_and_replay_have_readable_pairs() -> None:
    from nothanks_lab.analysis import evaluate_position
    from nothanks_lab.table import RoundReplay

    names = ["Seat 0 (you)", "Seat 1", "Seat 2"]
    pieces = []
    for g in _positions():
        view = g.view(g.current_player)
        ev = evaluate_position(view, n=40, seed=1)
        evaluation = render.position_evaluation_html(ev, ["marginal(6)"] * 2)
        pieces += [evaluation, render.hints_html(view, names, evaluation)]
    pieces += [
        render.placeholder_html("Hints show on your turn."),
        render.turn_prompt_html("Ada", 9),
    ]
    pieces += [render.move_prompt_html("Ada", 27), render.immediate_verdict_html(20, 14, 14)]
    pieces.append(render.hand_summary_html([27, 29], 3, 10))
    pieces += [render.download_link_html("{}", "r.json", "Save", kind) for kind in ("info",)]
    g = _finished_round()
    review = nt.review(g, 0, n=8, seed=2)
    assert review.moves, "the round should hold decisions of seat 0 to review"
    pieces += [render.review_html(review), render.review_html(review, review.moves[0].index + 1)]
    replay = RoundReplay(g, names, seat=0, review=review)
    pieces += [render.replay_html(replay, step) for step in range(len(g.history) + 1)]
    pieces.append(render.final_scores_html(g, names))
    bad = sorted({b for html in pieces for b in check(html)})
    assert bad == [], "\n".join(bad)


@pytest.mark.parametrize("kind", sorted(render.BUTTON_COLORS))
def test_button_colours_are_readable(kind: str) -> None:
    fill, ink = render.BUTTON_COLORS[kind]
    assert contrast(fill, ink) >= 4.5, (kind, fill, ink, contrast(fill, ink))


def _widgets(root: object) -> list[object]:
    """`root` and every widget inside it (through ``children`` and ``.widget``)."""
    out, todo = [], [root]
    while todo:
        w = todo.pop()
        out.append(w)
        todo += list(getattr(w, "children", ()) or ())
    return out


def test_every_styled_button_carries_readable_colours() -> None:
    """A button with a style (Take is orange, No Thanks! green) sets its fill and text colour:
    JupyterLab's own fills give white on orange at 2.9:1 (issue 25)."""
    import ipywidgets as W

    from nothanks_lab import widgets

    roots = [
        widgets.PlayTable(3, bot_delay=0, seed=3).widget,
        widgets.Advisor().widget,
        widgets.ProbabilityExplorer(hand=[29], seen=[31]).widget,
    ]
    styled = [b for r in roots for b in _widgets(r) if isinstance(b, W.Button) and b.button_style]
    assert len(styled) >= 6, styled  # Take, No Thanks!, Review, Play again, ... and marked cards
    for b in styled:
        fill, ink = b.style.button_color, b.style.text_color
        assert (fill, ink) == render.BUTTON_COLORS[b.button_style], (b.description, fill, ink)
        assert contrast(fill, ink) >= 4.5
