"""The play table and explorers without a browser: simulated clicks, asserting on game and widgets.

Bots move at once (``bot_delay=0``) or only on ``advance()`` (``bot_delay=None``) so nothing
sleeps, except the tests of the timed paths (a thread timer here, the kernel's asyncio loop in a
real kernel), which wait a fraction of a second.
"""

from __future__ import annotations

import datetime
import json
import re
import textwrap
import threading
import time
from typing import Any, ClassVar

import ipywidgets as W
import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import render
from nothanks_lab.bots import MarginalCostBot, RandomBot
from nothanks_lab.widgets import (
    BotLab,
    BotPicker,
    ChipValueExplorer,
    PlayTable,
    ProbabilityExplorer,
    final_scores_html,
    hints_html,
    neighbour_cards,
    seats_html,
)
from nothanks_lab.widgets.bot_lab import _ProgressExecutor


def buttons(widget: W.Widget) -> list[W.Button]:
    """Every button in a widget tree (toggle buttons included)."""
    found = []
    stack = [widget]
    while stack:
        w = stack.pop()
        if isinstance(w, W.Button | W.ToggleButton):
            found.append(w)
        stack.extend(getattr(w, "children", ()))
    return found


def click_as(table: PlayTable, policy: Any) -> None:
    """Play the person's seat by clicking what `policy` would choose, to the end of the round."""
    while table.phase == "human":
        action = policy.act(table.view)
        (table.take_button if action is nt.Action.TAKE else table.pass_button).click()


class Raising:
    """A policy that fails on every move."""

    name = "Raiser"

    def act(self, view: nt.PlayerView) -> nt.Action:
        raise RuntimeError("boom at the table")


# ----------------------------------------------------------------------------- the table
def test_default_table_is_dealt_and_waits_for_the_person() -> None:
    t = PlayTable(bot_delay=None)
    assert t.game is not None and t.game.history == () and t.phase == "human"
    assert t.human_seat == 0 and t.game.current_player == 0
    assert t.game.n_players == 4
    assert not t.take_button.disabled and not t.pass_button.disabled
    labels = [b.description for b in buttons(t.widget)]
    assert [x for x in labels if "Take" in x] == ["Take"]
    assert [x for x in labels if "No Thanks!" in x] == ["No Thanks!"]
    assert "New game" in labels and "Next round" in labels and "Play again" in labels
    assert t.next_button.layout.display == "none" and t.again_button.layout.display == "none"
    assert t.difficulty == "medium" and "opponents: medium" in t.title.value
    assert all(isinstance(p, nt.bots.HeuristicBot) for p in t.policies[1:])
    assert f">{t.game.active_card}<" in t.table.value
    assert "Your turn" in t.status.value
    bundle = t._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == t.widget.model_id


def test_a_full_round_by_clicks_ends_in_final_scores() -> None:
    t = PlayTable(3, bot_delay=0, double_click_s=0, seed=11)
    click_as(t, MarginalCostBot(5))
    game = t.game
    assert game is not None and game.is_over and t.phase == "match_over"
    assert sum(len(h) for h in game.hands) == game.rules.n_in_play
    final = t.final.value
    assert "Final scores" in final
    for name, points, chips, score in zip(
        t.names, game.card_points(), game.chips, game.scores(), strict=True
    ):
        assert re.search(rf"{re.escape(name)}.*?>{points}<.*?>{chips}<.*?<b>{score}</b>", final), (
            name
        )
    for c in game.removed_cards():
        assert f">{c}<" in final
    assert "Winner" in final
    assert t.take_button.disabled and t.pass_button.disabled
    # Issue 25, item 9: the move buttons and Hints are hidden, not just dimmed.
    hidden = (t.take_button, t.pass_button, t.hint_toggle)
    assert all(b.layout.display == "none" for b in hidden)
    # The table itself offers the next step (not a button hidden in the Setup panel).
    assert t.again_button.layout.display != "none" and t.next_button.layout.display == "none"
    assert "Play again" in t.status.value and "Setup" not in t.status.value
    assert len(t.log_lines) == len(game.history)
    assert "<li>" + t.log_lines[-1] in t.log.value  # newest first
    assert t.results[0].scores == game.scores()


def test_a_match_at_the_table_equals_play_match_with_the_same_seed() -> None:
    """The widget holds no rules: clicking as bot X reproduces play_match's deals and rotation."""
    rounds, seed = 3, 21
    t = PlayTable(
        3,
        [("marginal", {"threshold": 3}), ("marginal", {"threshold": 12})],
        bot_delay=0,
        double_click_s=0,
        seed=seed,
        rounds=rounds,
    )
    me = MarginalCostBot(7)
    for r in range(rounds):
        assert t.game is not None and t.game.first_player == r % 3
        click_as(t, me)
        if r < rounds - 1:
            assert t.phase == "round_over" and t.next_button.layout.display != "none"
            assert t.again_button.layout.display != "none"
            assert f"1 of {rounds}" not in t.final.value or r == 0
            t.next_button.click()
    assert t.phase == "match_over" and t.next_button.layout.display == "none"
    assert t.again_button.layout.display != "none"
    assert "class='nothanks-match'" in t.final.value and "padding" in t.final.value
    expected = nt.play_match(
        [me, MarginalCostBot(3), MarginalCostBot(12)], rounds=rounds, seed=seed
    )
    got = t.match_result()
    assert got is not None
    np.testing.assert_array_equal(got.round_scores, expected.round_scores)
    assert "Match winner" in t.final.value
    for total in expected.totals.tolist():
        assert f"<b>{total}</b>" in t.final.value


def test_next_round_is_refused_mid_round_and_after_the_match() -> None:
    t = PlayTable(3, bot_delay=0, double_click_s=0, seed=2)
    before = t.game.history
    t.next_button.click()  # hidden, but a program can click it: refused, shown, nothing changes
    assert "finish this round first" in t.errors.messages[-1]
    assert t.game.history == before
    click_as(t, MarginalCostBot(10))
    with pytest.raises(nt.IllegalActionError, match="match is over"):
        t.next_round()


def test_double_click_makes_one_move() -> None:
    now = [100.0]
    t = PlayTable(bot_delay=None, seed=4)
    t.clock = lambda: now[0]
    t.take_button.click()
    t.take_button.click()  # same instant: the second click of a double click
    assert len(t.game.history) == 1 and t.game.history[0].action is nt.Action.TAKE
    assert "double click" in t.reason.value
    now[0] += 0.05
    t.pass_button.click()
    assert len(t.game.history) == 1
    now[0] += 1.0
    t.take_button.click()  # a deliberate second take, after a pause
    assert [e.action for e in t.game.history] == [nt.Action.TAKE, nt.Action.TAKE]


def test_double_click_window_runs_from_the_end_of_a_slow_move() -> None:
    # The move and its redraw take 2 s (bots moving at once): the double click's second half,
    # queued behind it, arrives 0.1 s after the redraw and is still ignored.
    now = [100.0]
    t = PlayTable(bot_delay=None, seed=4)
    t.clock = lambda: now[0]
    redraw = t._render

    def slow_redraw() -> None:
        now[0] += 2.0
        redraw()

    t._render = slow_redraw  # type: ignore[method-assign]
    t.take_button.click()
    now[0] += 0.1
    t.take_button.click()
    assert len(t.game.history) == 1 and "double click" in t.reason.value


def test_clicks_while_bots_move_are_refused(snapshot: Any) -> None:
    t = PlayTable(bot_delay=None, double_click_s=0, seed=5)
    t.pass_button.click()
    assert t.phase == "bot" and t.game.current_player == 1
    assert t.take_button.disabled and t.pass_button.disabled
    assert "thinking" in t.status.value
    before = snapshot(t.game)
    t.take_button.click()
    t.pass_button.click()
    assert snapshot(t.game) == before
    assert "not your turn" in t.reason.value
    assert t.errors.messages == []
    moved = []
    while t.phase == "bot":
        moved.append(t.advance())
    assert t.phase == "human" and moved
    assert list(t.game.history[1:]) == moved  # one bot move per advance()
    assert t.advance() is None  # nothing to advance on the person's turn


def test_restart_mid_round_and_while_bots_are_scheduled() -> None:
    t = PlayTable(bot_delay=0.05, double_click_s=0, seed=6)
    t.pass_button.click()  # a bot move is now scheduled on a thread timer (no loop in pytest)
    old = t.game
    t.new_button.click()
    assert t.game is not old and t.game.history == () and t.phase == "human"
    n_old = len(old.history)
    time.sleep(0.3)
    # The old round's timer fired into a newer generation and did nothing.
    assert t.game.history == () and len(old.history) == n_old
    assert t.errors.messages == []


def test_bots_move_one_at_a_time_on_a_timer() -> None:
    t = PlayTable(bot_delay=0.02, double_click_s=0, seed=8)
    t.pass_button.click()
    assert t.phase == "bot" and len(t.game.history) == 1  # nothing moved synchronously
    deadline = time.monotonic() + 5
    while t.phase == "bot" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert t.phase == "human" and len(t.game.history) > 1
    assert t.errors.messages == []


def test_seed_makes_deals_reproducible_and_moves_on_after_a_deal() -> None:
    a = PlayTable(bot_delay=None, seed=9)
    b = PlayTable(bot_delay=None, seed=9)
    assert a.game.active_card == b.game.active_card
    assert a.seed.value == 10
    a.new_button.click()  # seed 10 now
    assert a.match_seed == 10
    first = a.game.view(0)
    b.seed.value = 10
    b.new_button.click()
    assert b.game.view(0) == first


def test_bot_that_raises_is_shown_and_the_game_stays_intact() -> None:
    t = PlayTable(3, ["marginal", Raising()], bot_delay=0, double_click_s=0, seed=3)
    t.pass_button.click()  # seat 1 passes or takes; seat 2 raises sooner or later
    while t.phase == "human":
        t.pass_button.click()
    assert t.phase == "failed"
    # One line in plain words on the page; the traceback only for developers.
    assert "boom at the table" in t.errors.text and "Raiser" in t.errors.text
    assert "Traceback" not in t.errors.widget.value and "PlayerView" not in t.errors.widget.value
    assert "Traceback" in t.errors.tracebacks[-1]
    assert t.again_button.layout.display != "none"
    assert t.game.current_player == 2  # the failed move was never applied
    history = t.game.history
    assert t.game.history == nt.Game.replay(3, history, deck=_deck(t.game)).history
    assert t.take_button.disabled and "failed" in t.status.value
    t.take_button.click()
    assert t.game.history == history
    assert t.advance() is None


def _deck(game: nt.Game) -> list[int]:
    probe = game.copy()
    order = [e.card for e in game.history if e.action is nt.Action.TAKE]
    while not probe.is_over:
        order.append(probe.active_card)
        probe.step(nt.Action.TAKE)
    return order


def test_hidden_chips_show_question_marks_but_never_my_own() -> None:
    t = PlayTable(3, bot_delay=0, double_click_s=0, seed=12, hide_chips=True)
    t.pass_button.click()
    view = t.view
    rows = t.table.value.split("<tr")[2:]
    assert len(rows) == 3
    assert f">{view.my_chips}<" in rows[0]
    for row in rows[1:]:
        assert row.count(">?<") == 2  # chips and score
    t.hide_chips.value = False
    assert ">?<" not in t.table.value
    t.hide_chips.value = True
    click_as(t, MarginalCostBot(10))
    assert ">?<" not in t.table.value  # everything is revealed once the round is over
    assert ">?<" not in t.final.value


def test_zero_chips_disables_no_thanks_with_the_reason() -> None:
    rules = nt.Rules(chips=((3, 0),))
    t = PlayTable(3, bot_delay=None, double_click_s=0, seed=1, rules=rules)
    assert t.phase == "human" and t.view.my_chips == 0
    assert t.pass_button.disabled and not t.take_button.disabled
    assert "no chips" in t.reason.value and "no chips" in t.pass_button.tooltip
    before = t.game.history
    t.pass_button.click()  # only a program can click a disabled button: refused, shown
    assert t.game.history == before
    assert "cannot say No thanks" in t.errors.text and "Traceback" not in t.errors.widget.value
    t.take_button.click()
    assert len(t.game.history) == 1


def test_setup_controls_build_the_next_game() -> None:
    t = PlayTable(bot_delay=None, seed=3)
    t.players.value = 5
    assert len(t.seats_box.children) == 5
    picker = t.pickers[2]
    picker.dropdown.value = "random"
    (slider,) = picker.sliders
    assert slider.description == "p_take" and (slider.min, slider.max) == (0.0, 1.0)
    slider.value = 0.25
    t.rounds_box.value = 2
    t.new_button.click()
    assert t.game.n_players == 5 and t.rounds == 2
    bot = t.policies[2]
    assert isinstance(bot, RandomBot) and bot.p_take == 0.25
    assert isinstance(t.policies[1], nt.bots.Bot) and t.policies[0] is None
    assert "round 1 of 2" in t.title.value
    assert "random(p_take=0.25)" in t.table.value


def test_bot_picker_builds_sliders_from_declared_params() -> None:
    p = BotPicker("Seat 1", ("marginal", {"threshold": 4}))
    (slider,) = p.sliders
    declared = nt.bots.params_of("marginal")["threshold"]
    assert (slider.min, slider.max, slider.value) == (declared.low, declared.high, 4)
    assert p.make().threshold == 4 and p.spec() == "marginal(threshold=4)"
    slider.value = declared.default
    assert p.spec() == "marginal"  # at its defaults a bot is just its name
    p.dropdown.value = "random"
    assert [w.description for w in p.sliders] == ["p_take"]
    a = p.make(seed=np.random.SeedSequence(1))
    b = p.make(seed=np.random.SeedSequence(1))
    assert [a.rng.random() for _ in range(3)] == [b.rng.random() for _ in range(3)]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_players": 2}, "n_players must be one of"),
        ({"n_players": 8}, "n_players must be one of"),
        ({"human_seat": 4}, "human_seat"),
        ({"rounds": 0}, "rounds"),
        ({"bot_delay": -1}, "bot_delay"),
        ({"seed": -3}, "seed"),
        ({"bots": ["marginal"]}, "bots must list 3 bots"),
        ({"bots": ["nope", "marginal", "marginal"]}, "unknown bot 'nope'"),
        ({"bots": [("marginal", {"speed": 1}), "random", "random"]}, "no parameter speed"),
        ({"bots": [3, "random", "random"]}, "a bot is a registered name"),
        ({"rules": "standard"}, "rules must be"),
    ],
)
def test_bad_settings_raise_value_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PlayTable(**kwargs)


# ----------------------------------------------------------------------------- pure HTML
def test_seats_html_groups_runs_and_hides_only_opponents() -> None:
    g = nt.Game(3, deck=range(3, 27))
    for a in ("TAKE", "TAKE", "PASS", "TAKE", "TAKE"):
        g.step(nt.Action[a])
    view = g.view(0)
    html = seats_html(view, ["me", "b1", "b2"], hide_chips=True)
    assert html.count('title="run scores 3"') == 1
    assert html.count(">?<") == 4  # two opponents: chips and score each
    assert f"<b>{view.scores()[0]}</b>" in html


def test_final_scores_html_needs_a_finished_round() -> None:
    g = nt.Game(3, seed=1)
    with pytest.raises(nt.IllegalActionError):
        final_scores_html(g, ["a", "b", "c"])


def test_hints_list_the_neighbours_of_my_runs() -> None:
    deck = [20, 21, 23, 22, 30, *range(3, 20), 24, 25]
    g = nt.Game(3, deck=deck)
    g.step(nt.Action.TAKE)  # seat 0: 20
    g.step(nt.Action.TAKE)  # seat 0: 20 21 -> neighbours 19, 22
    g.step(nt.Action.PASS)  # 23 to seat 1
    g.step(nt.Action.TAKE)  # seat 1: 23; active 22 now
    view = g.view(0)
    assert neighbour_cards(view) == [19, 22]
    html = hints_html(view, ["me", "b1", "b2"])
    assert "22 is the card on the table now" in html
    probability = pytest.importorskip("nothanks_lab.probability")
    p = probability.p_all_in_play([19], view.seen_cards, view.rules)
    assert f"19 is still to come with chance <b>{p:.0%}</b>" in html


def test_hint_toggle_shows_hints_on_my_turn() -> None:
    t = PlayTable(bot_delay=None, double_click_s=0, seed=5)
    t.take_button.click()
    t.hint_toggle.value = True
    assert t.errors.messages == []
    html = t.hints.value
    assert "Neighbours of your runs" in html
    analysis = pytest.importorskip("nothanks_lab.analysis")
    assert "If you take: your expected final score" in html
    assert "<details><summary>How is this computed?</summary>" in html
    n = int(re.search(r"played out ([\d,]+) times for each move", html).group(1).replace(",", ""))
    seed = t.match_seed * 1000 + len(t.game.history)
    field, _ = t.session.rollout_field()
    ev = analysis.hint_evaluation(t.view, field, seed=seed)
    # Same seed, same samples: the panel's numbers are the analysis module's own.
    assert ev.n == n
    assert f"final score <b>{ev.take.score.value:.0f}</b>" in html
    t.hint_toggle.value = False
    assert t.hints.value == ""


# ----------------------------------------------------------------------------- a real kernel
def test_bots_move_by_themselves_in_a_real_kernel() -> None:
    """In a live ipykernel (what JupyterLab and Voilà run) the delayed bot moves really happen."""
    jupyter_client = pytest.importorskip("jupyter_client")
    km, kc = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    try:
        code = textwrap.dedent(
            """
            from nothanks_lab.widgets import PlayTable
            t = PlayTable(bot_delay=0.05, double_click_s=0, seed=8, bots=["marginal"] * 3)
            t.pass_button.click()
            print("after click", t.phase, len(t.game.history))
            """
        )
        out = _run(kc, code)
        assert "after click bot 1" in out
        for _ in range(100):  # the kernel's loop moves the bots between our requests
            time.sleep(0.1)
            out = _run(kc, "print('later', t.phase, len(t.game.history), t.errors.messages)")
            if "later human" in out:
                break
        phase, n = out.split()[1:3]
        assert phase == "human" and int(n) > 1, out
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def _run(kc: Any, code: str) -> str:
    """Execute `code` in the kernel and return what it printed; fail on an error."""
    chunks: list[str] = []

    def on_output(msg: dict[str, Any]) -> None:
        if msg["msg_type"] == "stream":
            chunks.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            chunks.append("\n".join(msg["content"]["traceback"]))

    reply = kc.execute_interactive(code, timeout=60, output_hook=on_output)
    assert reply["content"]["status"] == "ok", "".join(chunks)
    return "".join(chunks)


# ----------------------------------------------------------------------------- explorers
def figure_traces(area: Any) -> list[dict[str, Any]]:
    """The traces a `FigureArea` sends to the page, read back from its HTML."""
    html = area.output.outputs[0]["data"]["text/html"]
    spec = json.loads(re.search(r"var spec=(\{.*?\});var tries", html).group(1))
    return spec["data"]


def test_probability_explorer_redraws_its_figures_from_each_marking() -> None:
    from nothanks_lab import probability

    pe = ProbabilityExplorer(hand=[27, 29])
    bars = figure_traces(pe.gap)[0]
    assert bars["x"] == ["28"] and bars["y"][0] == pytest.approx(22 / 31)
    pe.mode.value = "seen"
    for c in (3, 4, 28):
        pe.cards[c].click()
    assert pe.seen == {3, 4, 28} and pe.mine == {27, 29}
    assert figure_traces(pe.gap)[0]["y"] == [0.0]  # 28 is in another hand: no longer fillable
    expected = probability.p_in_play_each([3, 4, 27, 28, 29])
    shown = {x: y for t in figure_traces(pe.in_play) for x, y in zip(t["x"], t["y"], strict=True)}
    assert shown == pytest.approx(expected)
    assert pe.cards[28].button_style == "warning" and pe.cards[27].button_style == "success"
    pe.mode.value = "mine"
    pe.cards[28].click()  # moves 28 from others' cards to mine: no gap left
    assert pe.mine == {27, 28, 29} and 28 not in pe.seen and figure_traces(pe.gap)[0]["x"] == []
    pe.mode.value = "clear"
    pe.cards[3].click()
    assert pe.seen == {4}
    assert pe.gap.draws == pe.in_play.draws == 6  # one redraw per marking, each a whole figure


def test_explorer_figures_are_whole_html_redraws_without_network() -> None:
    """Each redraw replaces the Output's HTML (no FigureWidget state to fall out of step)."""
    pe = ProbabilityExplorer(hand=[10])
    loader = pe.widget.children[0]
    js = loader.outputs[0]["data"]["text/html"]
    assert "window.Plotly = Plotly" in js and len(js) > 1_000_000  # plotly.js, inline
    before = pe.in_play.output.outputs
    pe.cards[11].click()
    after = pe.in_play.output.outputs
    assert after != before and len(after) == 1
    html = after[0]["data"]["text/html"]
    assert "Plotly.newPlot" in html and "responsive:true" in html and "width:100%" in html
    # (plotly.js itself only mentions map tiles' addresses; the browser test watches requests)
    for output in (pe.in_play.output, pe.gap.output):
        text = output.outputs[0]["data"]["text/html"]
        assert not re.search(r"(src|href)=['\"]?(https?:)?//", text)  # nothing from a CDN
    layout = pe.in_play.figure.layout
    # Full width; a tick at every card and a number at every 5th (33 numbers crowded a
    # phone's width, newcomer trial of issue 25); only real cards on the axis.
    x = layout.xaxis
    assert layout.width is None and x.minor.dtick == 1 and x.minor.tick0 == 3
    assert (x.tick0, x.dtick) == (5, 5) and 2 < x.range[0] < 3 and 35 < x.range[1] < 36


def test_probability_explorer_refuses_an_impossible_marking() -> None:
    rules = nt.Rules()
    pe = ProbabilityExplorer(seen=list(range(3, 3 + rules.n_in_play)))
    before = (pe.mine, pe.seen, pe.in_play.html)
    pe.mode.value = "seen"
    pe.cards[35].click()  # one more face-up card than a round turns up
    assert "at most 24 cards are turned up" in pe.errors.text
    assert "Traceback" not in pe.errors.widget.value
    assert (pe.mine, pe.seen, pe.in_play.html) == before
    pe.cards[35].click()  # a valid click (unmarks nothing, since 35 is not marked): clears
    pe.mode.value = "clear"
    pe.cards[3].click()
    assert pe.errors.text == "" and pe.errors.widget.value == ""
    with pytest.raises(ValueError, match="both in my hand and taken"):
        pe.set_cards([5], [5])


def test_chip_value_explorer_follows_its_sliders() -> None:
    from nothanks_lab import analysis

    ce = ChipValueExplorer(card=20, pot=5, hand=[27, 29])
    heat, _, marker = ce.figure.figure.data
    surface = analysis.take_pass_surface(nt.Rules().cards, range(31), (27, 29))
    np.testing.assert_array_equal(np.array(heat.z), surface.values)
    assert (marker.x, marker.y) == ((5,), (20,))
    assert "<b>+14</b>" in ce.answer.value  # 20 costs 20 points, the pot gives 5, a pass costs 1
    ce.card.value = 28
    ce.pot.value = 0
    marker = ce.figure.figure.data[2]
    assert (marker.x, marker.y) == ((0,), (28,))
    assert f"<b>{analysis.immediate_take_minus_pass(28, 0, (27, 29)):+d}</b>" in ce.answer.value
    ce.hand.value = "10 11"
    again = analysis.take_pass_surface(nt.Rules().cards, range(31), (10, 11))
    fig = ce.figure.figure
    assert fig.data[0].y == again.cards and np.array_equal(np.array(fig.data[0].z), again.values)
    ce.threshold.value = 0
    takes = analysis.bot_boundary(MarginalCostBot(0), nt.Rules().cards, range(31), (10, 11))
    cards = [c for c in takes.cards if takes.take_from[c] is not None]
    assert ce.figure.figure.data[1].y == tuple(cards)


@pytest.mark.parametrize(
    ("hand", "card", "message"),
    [
        ("27 29", 27, "27 is already in your hand"),
        ("abc", 20, "'abc' is not a number"),
        ("10 ten", 20, "'ten' is not a number"),
        ("99", 20, "99 is not a card"),
        ("5 5", 20, "5 is in my hand twice"),
    ],
)
def test_chip_value_explorer_bad_input_is_one_line_then_clears(
    hand: str, card: int, message: str
) -> None:
    ce = ChipValueExplorer(card=20, pot=5, hand=[27, 29])
    ce.card.value = 21
    good = ce.answer.value
    ce.hand.value = hand
    ce.card.value = card
    assert message in ce.errors.text
    value = ce.errors.widget.value
    assert "Traceback" not in value and value.count("<div") == 1
    # Results that no longer match the inputs are hidden, not left stale.
    assert ce.answer.value == "" and ce.answer.layout.display == "none"
    assert ce.figure.figure is None and ce.figure.output.layout.display == "none"
    ce.hand.value = "x"  # a second bad input replaces the line; lines never pile up
    assert ce.errors.widget.value.count("nothanks-error") == 1
    ce.hand.value = "27 29"
    ce.card.value = 21
    assert ce.errors.widget.value == "" and ce.answer.value == good
    assert ce.figure.figure is not None and ce.figure.output.layout.display == ""


def test_bot_lab_runs_a_tournament_with_progress() -> None:
    from nothanks_lab.tournaments import tournament

    specs = [("marginal", {"threshold": t}) for t in (-5, 5, 15)]
    lab = BotLab(specs, n_games=30, seed=4, chunks=3)
    lab.run_button.click()
    lab._thread.join(timeout=120)
    assert lab.errors.messages == []
    assert (lab.progress.value, lab.progress.max) == (3, 3)
    expected = tournament([MarginalCostBot(t) for t in (-5, 5, 15)], n_games=30, seed=4)
    assert lab.result.to_records() == expected.to_records()
    bars = lab.figure.figure.data[0]
    recs = expected.to_records()
    assert list(bars.y) == pytest.approx([r["win_share"] for r in recs])
    assert list(bars.error_y.array) == pytest.approx(
        [r["win_share_high"] - r["win_share"] for r in recs]
    )
    assert "win share" in lab.table.value.lower()
    lab.n_games.value = 40
    lab.run_now()
    assert lab.result.n_deals == 40 and lab.figure.draws == 2


class Recorder:
    """A policy that records which object was asked (class-wide) and always takes."""

    asked: ClassVar[list[int]] = []

    def act(self, view: nt.PlayerView) -> nt.Action:
        Recorder.asked.append(id(self))
        return nt.Action.TAKE


def test_warm_up_asks_a_copy_of_each_kind_of_bot_once() -> None:
    bots = [Recorder(), Recorder(), "marginal"]
    t = PlayTable(bots=bots, bot_delay=None, seed=1)
    Recorder.asked.clear()
    t.warm_up()
    assert len(Recorder.asked) == 1
    assert Recorder.asked[0] not in {id(b) for b in t.policies}
    assert t.game.history == () and t.errors.messages == []
    t2 = PlayTable(3, ["marginal", Raising()], bot_delay=None, seed=1)
    t2.warm_up(background=True).join(timeout=30)
    assert any("boom at the table" in m for m in t2.errors.messages)
    assert t2.game.history == ()


def test_widgets_are_exported_lazily() -> None:
    import subprocess
    import sys

    assert nt.PlayTable is PlayTable and nt.widgets.BotLab is BotLab
    code = "import sys, nothanks_lab; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"  # scripts and worker processes skip ipywidgets


# ----------------------------------------------------------------------------- issue 16
def acting_row(table: PlayTable) -> tuple[int, str]:
    """The seat of the highlighted row and the row's HTML (exactly one row is highlighted)."""
    rows = re.findall(
        r"<tr class='nothanks-to-act'[^>]*data-seat='(\d)'>(.*?)</tr>", table.table.value
    )
    assert len(rows) == 1, table.table.value
    return int(rows[0][0]), rows[0][1]


def test_the_seat_to_act_is_highlighted_not_the_persons_row() -> None:
    t = PlayTable(bot_delay=None, double_click_s=0, seed=5)
    seat, _ = acting_row(t)
    assert seat == 0 and "Your turn" in t.status.value and "background" in t.status.value
    t.pass_button.click()
    seat, row = acting_row(t)
    assert seat == t.game.current_player == 1 and "▶" in row
    assert "Your turn" not in t.status.value and "Bot 1 is thinking" in t.status.value
    t.advance()
    seat, _ = acting_row(t)
    assert seat == t.game.current_player
    me = MarginalCostBot(10)
    while t.phase in ("bot", "human"):
        if t.phase == "bot":
            t.advance()
            assert t.game.is_over or acting_row(t)[0] == t.game.current_player
        else:
            (t.take_button if me.act(t.view) is nt.Action.TAKE else t.pass_button).click()
    assert t.game.is_over
    assert "nothanks-to-act" not in t.table.value  # nobody acts once the round is over


def test_each_row_shows_that_seats_last_move() -> None:
    t = PlayTable(3, ["marginal", "marginal"], bot_delay=0, double_click_s=0, seed=2)
    t.pass_button.click()
    cells = re.findall(
        r"data-seat='(\d)'>.*?<td class='nothanks-last'[^>]*>(.*?)</td>", t.table.value
    )
    assert len(cells) == 3
    last = t.session.last_moves()
    for seat, text in cells:
        assert text == render.move_words(last[int(seat)])
    assert cells[0][1].startswith("No thanks! on ")


@pytest.mark.parametrize(
    ("level", "cls"), [("easy", "MarginalCostBot"), ("medium", "HeuristicBot"), ("hard", "BestBot")]
)
def test_difficulty_presets_seat_their_bots(level: str, cls: str) -> None:
    t = PlayTable(3, difficulty=level, bot_delay=None, seed=1)
    assert [type(p).__name__ for p in t.policies[1:]] == [cls, cls]
    assert t.difficulty_box.value == level and f"opponents: {level}" in t.title.value
    assert nt.table.DIFFICULTIES[level].summary in t.difficulty_text.value


@pytest.mark.parametrize("bad", ["expert", "Hard", None, 1])
def test_an_unknown_difficulty_is_a_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="difficulty must be one of"):
        PlayTable(difficulty=bad, bot_delay=None)  # type: ignore[arg-type]


def test_the_setup_difficulty_sets_the_bots_for_the_next_game() -> None:
    t = PlayTable(3, bot_delay=None, seed=1)
    t.difficulty_box.value = "easy"
    assert [p.name for p in t.pickers[1:3]] == ["marginal", "marginal"]
    t.new_button.click()
    assert all(isinstance(p, MarginalCostBot) for p in t.policies[1:])
    assert "opponents: easy" in t.title.value
    t.pickers[1].dropdown.value = "random"  # changed by hand: no preset claimed
    t.difficulty_box.value = "custom"
    t.new_button.click()
    assert isinstance(t.policies[1], RandomBot) and "opponents" not in t.title.value


def test_setup_shows_few_parameters_and_wraps_the_rest_in_a_collapsed_section() -> None:
    for name, main in [("best", ["n_rollouts"]), ("linear", []), ("marginal", ["threshold"])]:
        p = BotPicker("Seat 1", name)
        assert [w.description for w in p.main_box.children] == main
        assert len(p.main_box.children) <= 2
        rest = p.advanced_box.children
        assert len(rest) == len(nt.bots.params_of(name)) - len(main)
        assert p.advanced.selected_index is None  # collapsed
        assert (p.advanced.layout.display == "none") == (not rest)
        assert p.advanced_box.layout.flex_flow == "row wrap"
        for w in p.sliders:  # whole labels, no slider squeezed to a knob
            assert w.style.description_width == "10em" and w.layout.width == "26em"
    assert "(hard)" in dict((v, k) for k, v in p.dropdown.options)["best"]
    p = BotPicker("Seat 1", ("heuristic", {"milk_margin": 5.0}))
    assert p.params["milk_margin"] == 5.0 and p.spec() == "heuristic(milk_margin=5)"


@pytest.mark.slow
def test_hints_say_which_opponents_the_rollouts_assume() -> None:
    t = PlayTable(3, ["best", ("marginal", {"threshold": 2})], bot_delay=None, seed=4)
    t.hint_toggle.value = True
    html = t.hints.value
    assert "Bot 1 (best) played by linear" in html
    assert "Bot 2 as itself (marginal(threshold=2))" in html


@pytest.mark.parametrize(
    ("low", "high", "clear"),
    [
        (0.04, 1.0, False),
        (0.0, 1.0, False),
        (-0.5, 0.5, False),
        (0.06, 1.0, True),
        (-1.0, -0.06, True),
    ],
)
def test_clearly_only_when_the_shown_interval_excludes_zero(
    low: float, high: float, clear: bool
) -> None:
    from nothanks_lab.analysis import MoveValue, PositionEvaluation
    from nothanks_lab.stats import Interval

    def est(v: float, lo: float, hi: float) -> Any:
        return Interval(value=v, low=lo, high=hi, n=100)

    move = MoveValue(nt.Action.TAKE, est(10, 9, 11), est(0.3, 0.2, 0.4))
    ev = PositionEvaluation(
        seat=0,
        card=20,
        pot=3,
        take=move,
        no_thanks=MoveValue(nt.Action.PASS, est(10, 9, 11), est(0.3, 0.2, 0.4)),
        score_diff=est((low + high) / 2, low, high),
        win_diff=est(0, -0.1, 0.1),
        n=100,
        policy="x",
    )
    html = render.position_evaluation_html(ev, ["Bot 1 as itself (marginal)"])
    assert ("clearly" in html) == clear
    assert ("too close to call" in html) == (not clear)
    assert "opponents: Bot 1 as itself (marginal)" in html


def test_bot_lab_warns_before_a_long_run_and_cancels() -> None:
    lab = BotLab(["marginal", "marginal", "marginal"], n_games=20, seed=1, chunks=20)
    assert lab.estimate.value == ""  # compiled bots: quick
    lab.pickers[0].dropdown.value = "best"
    lab.n_games.value = 2000
    assert "This run will take about" in lab.estimate.value
    lab._speed = {k: 0.05 for k in lab._speed}  # pretend every bot is slow; no real waiting
    started = threading.Event()
    release = threading.Event()
    real = _ProgressExecutor.submit

    def slow_submit(self: Any, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        started.set()
        release.wait(5)
        return real(self, lambda *a, **k: fn(*a, **k), *args, **kwargs)

    lab.pickers[0].dropdown.value = "marginal"
    lab.n_games.value = 200
    _ProgressExecutor.submit = slow_submit  # type: ignore[method-assign]
    try:
        thread = lab.run()
        assert started.wait(5)
        assert lab.cancel_button.layout.display == "" and lab.run_button.disabled
        lab.cancel_button.click()
        release.set()
        thread.join(30)
    finally:
        _ProgressExecutor.submit = real  # type: ignore[method-assign]
    assert not thread.is_alive() and lab.result is None
    assert lab.progress_text.value == "cancelled" and not lab.run_button.disabled
    assert lab.progress.value <= 1 and lab.errors.messages == []


def test_bot_lab_progress_says_how_long_is_left() -> None:
    lab = BotLab(["marginal", "marginal", "marginal"], n_games=40, seed=1, chunks=4)
    seen: list[str] = []
    lab.progress_text.observe(lambda c: seen.append(c["new"]), names="value")
    lab.run_now()
    assert any(re.search(r"1 of 4 chunks; about \d+ s left", s) for s in seen), seen
    assert seen[-1].startswith("done in")


# ------------------------------------------------------------------------ review, replay, files
def finished_table(seed: int = 11, **kwargs: Any) -> PlayTable:
    t = PlayTable(3, bot_delay=0, double_click_s=0, seed=seed, review_rollouts=200, **kwargs)
    click_as(t, MarginalCostBot(5))
    assert t.phase == "match_over"
    return t


def upload(table: PlayTable, name: str, content: bytes) -> None:
    """What the browser sends when a file is chosen in the table's Load button."""
    table.load_upload.value = (
        {
            "name": name,
            "type": "application/json",
            "size": len(content),
            "last_modified": datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
            "content": memoryview(content),
        },
    )


def saved_text(table: PlayTable) -> str:
    import base64

    href = re.search(r"href='data:application/json;base64,([^']+)'", table.save_link.value)
    assert href is not None, table.save_link.value
    return base64.b64decode(href.group(1)).decode("utf-8")


def test_review_my_round_shows_labelled_moves_beside_a_replay(html_numbers: Any) -> None:
    t = PlayTable(3, bot_delay=0, double_click_s=0, seed=11, review_rollouts=200)
    assert t.review_button.layout.display == "none"  # only once the round is over
    assert t.review_area.layout.display == "none" and t.save_link.value == ""
    with pytest.raises(nt.IllegalActionError, match="finish the round first"):
        t.review_round(background=False)
    click_as(t, MarginalCostBot(5))
    assert t.review_button.layout.display == ""
    t.review_button.click()  # on a thread, as in the page
    assert t._review_thread is not None
    t._review_thread.join(timeout=60)
    assert t.errors.messages == []
    mine = [i for i, e in enumerate(t.game.history) if e.seat == 0]
    assert [m.index for m in t.review.moves] == mine
    rows = re.findall(r"class='nothanks-move' data-step='(\d+)' data-label='(\w+)'",
                      t.review_view.value)  # fmt: skip
    assert [int(k) for k, _ in rows] == [i + 1 for i in mine]
    assert {label for _, label in rows} <= {"good", "inaccuracy", "mistake", "blunder"}
    assert "Reviewed in" in t.review_status.value and t.review_area.layout.display == ""
    # The replay starts at the end of the round and steps move by move.
    panel = t.replay_panel
    assert panel.step == panel.n_steps == len(t.game.history)
    assert "Round over" in panel.view.value
    panel.first_button.click()
    assert panel.step == 0 and "The deal" in panel.view.value
    assert panel.first_button.disabled and panel.previous_button.disabled
    assert html_numbers(panel.view.value) >= {11}  # everybody's starting chips
    panel.next_button.click()
    panel.next_button.click()
    panel.previous_button.click()
    assert panel.step == 1 and t.game.history[0].describe(t.names) in panel.view.value
    # The step of one of my moves shows its label, and the review highlights its row.
    step = mine[-1] + 1
    panel.jump.value = step
    assert panel.step == step and f"data-step='{step}'" in panel.view.value
    assert f"data-label='{t.review.moves[-1].label}'" in panel.view.value
    assert re.search(rf"data-step='{step}' data-label='\w+' style='background", t.review_view.value)
    panel.last_button.click()
    assert panel.step == panel.n_steps and panel.next_button.disabled
    # Contract: no new button says Take or No Thanks!.
    labels = [b.description for b in buttons(t.widget)]
    assert [x for x in labels if "Take" in x] == ["Take"]
    assert [x for x in labels if "No Thanks!" in x] == ["No Thanks!"]
    assert {"Review my round", "« First", "◀ Previous", "Next ▶", "Last »"} <= set(labels)


def test_the_review_says_it_is_working_and_a_new_round_drops_it() -> None:
    t = finished_table(seed=12)
    started = threading.Event()
    release = threading.Event()
    original = t.session.review

    def slow_review(**kwargs: Any) -> Any:
        started.set()
        release.wait(10)
        return original(**kwargs)

    t.session.review = slow_review  # type: ignore[method-assign]
    thread = t.review_round()
    assert thread is not None and started.wait(10)
    n = t.session.human_decisions
    assert f"Reviewing {n} decisions…" in t.review_status.value
    assert t.review_button.disabled
    with pytest.raises(RuntimeError, match="already running"):
        t.review_round()
    t.play_again()  # a new round while the review runs: its result must not show
    release.set()
    thread.join(timeout=60)
    assert t.review is None and t.review_area.layout.display == "none"
    assert not t.review_button.disabled and t.errors.messages == []


def test_save_gives_the_round_as_a_file_and_load_shows_its_replay_and_review(
    tmp_path: Any,
) -> None:
    t = finished_table(seed=13)
    text = saved_text(t)
    assert "download='nothanks-seed13-round1.json'" in t.save_link.value
    game = nt.Game.from_json(text)
    assert game.history == t.game.history and game.scores() == t.game.scores()
    assert json.loads(t.save(tmp_path / "r.json").read_text()) == json.loads(text)

    other = PlayTable(3, bot_delay=0, seed=99, review_rollouts=200)
    before = other.game.history
    upload(other, "r.json", text.encode())
    assert other._review_thread is not None
    other._review_thread.join(timeout=60)
    assert other.errors.messages == []
    assert other.replay_panel.n_steps == len(game.history)
    assert other.review is not None and [m.index for m in other.review.moves] == [
        i for i, e in enumerate(game.history) if e.seat == 0
    ]
    assert "nothanks-move" in other.review_view.value
    assert other.game.history == before  # the table's own round is untouched
    assert other.load_upload.value == ()  # ready for the same file again
    # Issue 25, item 9: the page says which file was loaded and what it holds.
    n = sum(e.seat == 0 for e in game.history)
    assert "Loaded r.json" in other.loaded_info.value
    assert f"{len(game.history)} moves" in other.loaded_info.value and f"{n} decisions" in (
        other.loaded_info.value
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "r.json: not JSON"),
        (
            b'{"format": "nothanks_lab.round", "version": 9, "n_players": 3, "events": []}',
            "r.json: version: unknown version 9",
        ),
        (b"\xff\xfe", "r.json: a round file must be UTF-8 JSON text"),
    ],
)
def test_a_bad_file_is_one_plain_message(content: bytes, message: str) -> None:
    t = finished_table(seed=14)
    upload(t, "r.json", content)
    assert t.errors.text.startswith(message), t.errors.text
    assert "Traceback" not in t.errors.widget.value
    assert t.review_area.layout.display == "none" and t.replay_panel.replay is None


def test_a_tampered_file_names_the_bad_field() -> None:
    t = finished_table(seed=15)
    doc = json.loads(saved_text(t))
    doc["events"][1]["pot"] += 1
    upload(t, "x.json", json.dumps(doc).encode())
    assert t.errors.text.startswith("x.json: events[1].pot:"), t.errors.text


# ----------------------------------------------------------------------------- the advisor
def test_the_advisor_follows_a_real_round_and_saves_it_for_review() -> None:
    from nothanks_lab.widgets import Advisor

    result = nt.play_game([MarginalCostBot(t) for t in (4, 8, 12)], seed=3)
    a = Advisor(3, my_seat=2, hint_budget_s=0.05)
    shown = None
    hinted = 0
    for e in result.history:
        if e.card != shown:
            assert not a.card_button.disabled and a.take_button.disabled
            a.card.value = str(e.card)  # typed in the box, then Enter
            assert a.card.value == "" and str(e.card) in a.table.value
            shown = e.card
        assert a.take_button.description == f"{a.session.names[e.seat]} takes"
        if e.seat == 2:
            assert "If you take: your expected final score" in a.hints.value
            hinted += 1
        else:
            assert "on your turn" in a.hints.value
        (a.take_button if e.action is nt.Action.TAKE else a.pass_button).click()
        shown = None if e.action is nt.Action.TAKE else shown
    assert hinted and a.errors.messages == []
    assert a.session.scores() == tuple(result.scores)
    assert "Final scores" in a.status.value
    href = re.search(r"base64,([^']+)'", a.save_link.value)
    assert href is not None
    import base64

    game = nt.Game.from_json(base64.b64decode(href.group(1)))
    assert game.history == result.history and game.scores() == tuple(result.scores)
    labels = [b.description for b in buttons(a.widget)]
    assert not [x for x in labels if "Take" in x or "No Thanks!" in x], labels


def test_the_advisor_refuses_impossible_entries_with_one_line_and_undoes() -> None:
    from nothanks_lab.widgets import Advisor

    a = Advisor(3, my_seat=0, hint_budget_s=0.05)
    a.card.value = "40"
    assert a.errors.text == "card 40 is outside 3–35"
    a.card.value = "x"
    assert a.errors.text == "'x' is not a card number (cards run from 3 to 35)"
    a.card.value = "27"
    assert a.errors.text == "" and a.session.turned == (27,)
    a.pass_button.click()
    a.take_button.click()  # seat 1 takes 27
    a.card.value = "27"
    assert a.errors.text == "27 was already turned" and a.session.turned == (27,)
    a.undo_button.click()
    assert a.errors.text == "" and a.session.game.hands == ((), (), ())
    assert a.session.active_card == 27 and a.session.to_act == 1
    for _ in range(3):
        a.undo_button.click()
    assert a.errors.text == "nothing to undo: no card or move has been entered yet"
    assert a.undo_button.disabled


def test_the_advisor_hides_opponents_chips_and_starts_over_with_the_setup() -> None:
    from nothanks_lab.widgets import Advisor

    a = Advisor(4, my_seat=1, hidden_chips=True, hint_budget_s=0.05)
    a.card.value = "20"
    a.pass_button.click()
    assert "?" in a.table.value
    a.players.value = 5
    assert a.chips.value == 11
    a.chips.value = 3
    a.my_seat.value = 4
    a.hidden.value = False
    a.start_button.click()
    s = a.session
    assert (s.n_players, s.my_seat, s.game.chips, s.entries) == (5, 4, (3,) * 5, [])
    a.players.value = 3
    a.start_button.click()  # seat 4 of 3 players: refused, the round stays
    assert "my_seat" in a.errors.text and a.session is s


def test_clear_all_returns_the_explorer_to_marking_my_hand() -> None:
    """Issue 25, item 7: after "seen" then Clear all, a click on the grid marks a card again."""
    pe = ProbabilityExplorer(hand=[27, 29])
    pe.mode.value = "seen"
    pe.clear_button.click()
    assert pe.mode.value == "mine" and pe.mine == set() and pe.seen == set()
    pe.cards[10].click()
    assert pe.mine == {10}


def test_chip_value_card_axis_shows_only_real_cards() -> None:
    ce = ChipValueExplorer(card=20, pot=5, hand=[27, 29])
    rules = nt.Rules()
    axis = ce.figure.figure.layout.yaxis
    assert axis.tick0 == rules.low_card and axis.dtick == 2
    assert axis.range[0] > rules.low_card - 1 and axis.range[1] < rules.high_card + 1


# ------------------------------------------- issue 25, newcomer trial: what was left
@pytest.mark.parametrize("junk", ["abc", "1e5", "-3", "2.5", " 7 7", "１２", str(2**31)])
def test_junk_in_the_seed_box_is_one_line_and_starts_no_game(junk: str) -> None:
    t = PlayTable(3, bot_delay=None, seed=40)
    dealt, seed = t.game.view(0), t.match_seed
    t.seed.text.value = junk
    message = t.seed.message.value
    assert "whole number from 0 to" in message and "empty for a random seed" in message
    assert junk.strip()[:40] in message  # says which text is not allowed
    t.new_button.click()
    assert t.match_seed == seed and t.game.view(0) == dealt  # no game with some other seed
    assert "whole number from 0 to" in t.errors.text
    t.seed.text.value = "12"  # valid again: both lines go, and the next deal uses it
    assert t.seed.message.value == "" and t.errors.text == ""
    t.new_button.click()
    assert t.match_seed == 12


def test_an_empty_seed_box_deals_from_a_fresh_seed() -> None:
    t = PlayTable(3, bot_delay=None, seed=40)
    t.seed.text.value = ""
    assert t.seed.message.value == "" and t.seed.value is None
    t.new_button.click()
    assert t.errors.text == "" and t.phase in ("human", "bot")
    assert t.seed.text.value == str(t.match_seed + 1)  # the box shows the next seed again


def test_taken_cards_have_one_colour_in_grid_and_chart() -> None:
    pe = ProbabilityExplorer(hand=[27, 29], seen=[3, 10])
    traces = {t.name: t for t in pe.in_play.figure.data}
    taken = traces["seen: taken or face up"]
    mine = traces["in my hand"]
    assert list(taken.x) == [3, 10] and list(mine.x) == [27, 29]
    assert {pe.cards[c].style.button_color for c in (3, 10)} == {taken.marker.color}
    assert {pe.cards[c].style.button_color for c in (27, 29)} == {mine.marker.color}
    assert taken.marker.color != mine.marker.color
    # A count reads as a count, not as a card number after a colon.
    summary = pe.summary.value
    assert "2 cards taken by others" in summary and "taken by others:" not in summary
    pe.set_cards([27], [3])
    assert "1 card taken by others" in pe.summary.value


def test_explorer_legends_sit_below_the_plot_not_over_the_title() -> None:
    pe = ProbabilityExplorer(hand=[27, 29], seen=[3])
    ce = ChipValueExplorer(card=28, pot=2, hand=(27, 29))
    for fig in (pe.in_play.figure, ce.figure.figure):
        legend, title = fig.layout.legend, fig.layout.title
        assert legend.orientation == "h" and legend.yref == "container"
        assert legend.yanchor == "bottom" and legend.y < 0.1  # at the figure's foot
        assert title.yanchor == "top" and title.y > 0.9
    # The chip-value figure's title is short enough for a phone: the hand and the method.
    assert ce.figure.figure.layout.title.text == "hand: 27 29; this move only"
    # The card axis: a tick at each card, numbers every 5th on the wide chart, only 3..35.
    x = pe.in_play.figure.layout.xaxis
    assert (x.tick0, x.dtick, x.minor.dtick) == (5, 5, 1)
