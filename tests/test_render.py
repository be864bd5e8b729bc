"""`render`: one package for everything shown; the widgets place what it returns, no markup."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import nothanks_lab as nt
from nothanks_lab import render
from nothanks_lab.render import cards, figures, panels, review, tables

WIDGETS = Path(nt.__file__).parent / "widgets"
TAG = re.compile(r"<\s*/?\s*[a-z][a-z0-9]*[\s>/]|&nbsp;")


def _strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module (f-string parts included), docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


@pytest.mark.parametrize("path", sorted(WIDGETS.glob("*.py")), ids=lambda p: p.name)
def test_widgets_hold_no_markup(path: Path) -> None:
    found = [f"{path.name}:{line}: {s!r}" for line, s in _strings(path) if TAG.search(s)]
    assert not found, "markup in a widget module (move it to render):\n" + "\n".join(found)


def test_the_markup_check_is_not_vacuous() -> None:
    assert TAG.search("<b>x</b>") and TAG.search("<h3 style='a'>") and TAG.search("&nbsp; x")
    assert not TAG.search("custom: name") and not TAG.search("a < b")


def test_the_package_re_exports_each_submodule_s_public_functions() -> None:
    for module in (cards, figures, panels, review, tables):
        for name in dir(module):
            obj = getattr(module, name)
            if (
                not name.startswith("_")
                and callable(obj)
                and getattr(obj, "__module__", None) == module.__name__
            ):
                assert getattr(render, name) is obj, f"render.{name} missing"
                assert name in render.__all__


def test_headings_captions_and_prompts_escape_their_text() -> None:
    assert render.heading_html("a<b") == "<h3 style='margin:.2em 0'>a&lt;b</h3>"
    assert render.heading_html("Replay", level=4) == "<h4 style='margin:.3em 0'>Replay</h4>"
    assert render.caption_html("S&P", " <1>") == "<b>S&amp;P</b> &lt;1&gt;"
    assert render.small_html("x<y", indent=True) == "<small>&nbsp;x&lt;y</small>"
    assert render.placeholder_html("<i>") == "<i>&lt;i&gt;</i>"
    assert render.move_prompt_html("<Ada>", 3) == "<b>&lt;Ada&gt;</b> decides on 3: enter the move."


def test_heading_level_other_than_3_or_4_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="level must be 3 or 4; got 2"):
        render.heading_html("x", level=2)


def test_immediate_verdict_words() -> None:
    take = render.immediate_verdict_html(10, -3, -1)
    assert "<b>-3</b>" in take and "<b>Take</b>" in take and "pays even with no chips" in take
    no = render.immediate_verdict_html(30, 5, 12)
    assert "<b>No Thanks!</b>" in no and "break-even pot for 30: 12" in no
    assert "<b>either</b>" in render.immediate_verdict_html(30, 0, 12)


def test_match_progress_names_the_winners_only_at_the_end() -> None:
    from nothanks_lab.bots import MarginalCostBot

    bots = [MarginalCostBot(0), MarginalCostBot(5), MarginalCostBot(10)]
    match = nt.play_match(bots, rounds=2, seed=3)
    names = ["A<", "B", "C"]
    done = render.match_progress_html(match, names, 2, 2)
    assert "Match: 2 of 2 rounds" in done and "class='nothanks-match'" in done
    who = ", ".join(render.escape(names[i]) for i in match.winners)
    assert f": {who}</b></div>" in done and "A<" not in done
    assert "Match winner" not in render.match_progress_html(match, names, 1, 2)


# Characters that need an emoji font: outside the BMP, Misc Technical (⏮ ⏭ ⏯ …), Misc Symbols
# Arrows/Symbols (⬅ ⭐ …), Dingbats' emoji and the emoji variation selector (issue 25, item 6).
EMOJI = re.compile(r"[\U00010000-\U0010FFFF\u2300-\u23FF\u2B00-\u2BFF\u2700-\u27BF\uFE0F\u26A0]")


def test_the_emoji_check_is_not_vacuous() -> None:
    assert EMOJI.search("⏮ First") and EMOJI.search("💾 Save") and EMOJI.search("⚠ x")
    assert not EMOJI.search("« First ◀ Previous Next ▶ Last » ★")


@pytest.mark.parametrize(
    "path",
    sorted([*WIDGETS.glob("*.py"), *(WIDGETS.parent / "render").glob("*.py")]),
    ids=lambda p: p.name,
)
def test_labels_and_markup_need_no_emoji_font(path: Path) -> None:
    found = [f"{path.name}:{line}: {s!r}" for line, s in _strings(path) if EMOJI.search(s)]
    assert not found, "\n".join(found)


def test_gap_chart_labels_every_gap_and_names_a_gone_card() -> None:
    """Issue 25, item 7: a gap whose card is gone has no bar, so it says "gone"."""
    from nothanks_lab.render import gap_chances_figure

    fig = gap_chances_figure({(28,): 0.0, (30,): 0.5, (32, 33): 0.25}, [27, 29, 31, 34])
    bars = fig.data[0]
    assert list(bars.x) == ["28", "30", "32–33"]
    assert list(bars.text) == ["gone", "50%", "25%"]


def test_the_win_chance_difference_is_said_in_percentage_points() -> None:
    """Newcomer trial of issue 25: "+0.12" (or "+12.0%") read as a probability; the details say
    it in words, the interval in points."""
    from nothanks_lab.analysis import MoveValue, PositionEvaluation
    from nothanks_lab.stats import Interval

    def est(value: float, lo: float, hi: float) -> Interval:
        return Interval(value=value, low=lo, high=hi, n=4000)

    def evaluation(win: tuple[float, float, float]) -> str:
        ev = PositionEvaluation(
            seat=0,
            card=32,
            pot=4,
            take=MoveValue(nt.Action.TAKE, est(41, 40, 42), est(0.2, 0.18, 0.22)),
            no_thanks=MoveValue(nt.Action.PASS, est(45, 44, 46), est(0.08, 0.07, 0.09)),
            score_diff=est(-3.9, -4.5, -3.3),
            win_diff=est(*win),
            n=4000,
            policy="linear",
        )
        return render.position_evaluation_html(ev, [])

    html = evaluation((0.12, 0.08, 0.16))
    assert "Your chance of winning is 12.0 percentage points higher if you take" in html
    assert "(95% interval: +8.0 to +16.0 percentage points)" in html
    assert "If you take, your expected final score is 3.9 points lower" in html
    assert not re.search(r"[+−-]0\.\d", html), "a signed decimal that reads as a chance"
    assert "+12.0%" not in html
    lower = evaluation((-0.05, -0.09, -0.01))
    assert "Your chance of winning is 5.0 percentage points lower if you take" in lower


def test_the_save_link_looks_like_the_buttons_beside_it() -> None:
    html = render.download_link_html("{}", "round.json", "Save this round (JSON)")
    fill, ink = render.BUTTON_COLORS["info"]
    assert f"background:{fill};color:{ink}" in html and "text-decoration:none" in html
    assert re.search(r"<a [^>]*href='data:application/json;base64,", html)  # in the tab order
    assert ">Save this round (JSON)</a>" in html
    with pytest.raises(ValueError, match="kind must be one of"):
        render.download_link_html("{}", "round.json", "Save", kind="pink")
